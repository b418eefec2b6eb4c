"""``gam_classifier`` in the command line's registry: a binary-only model."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from statlearning import _registry
from statlearning.cli import main
from statlearning.gam import GAMClassifier


def test_binary_only_spec():
    spec = _registry.get_model("gam_classifier")
    assert spec.task == "classification" and spec.binary_only
    assert isinstance(spec.factory(), GAMClassifier)
    assert spec.defined_for(100, 4, [50], n_classes=2)
    assert not spec.defined_for(100, 4, [30], n_classes=3)
    assert spec.defined_for(100, 4, [30])  # the number of classes unknown: not ruled out
    assert not _registry.get_model("gam").binary_only
    with pytest.raises(ValueError, match="binary_only applies to classification"):
        _registry.register_model(
            "binary_regressor", GAMClassifier, task="regression", description="x",
            family="gam", binary_only=True,
        )  # fmt: skip


def test_compare_leaves_it_out_of_multiclass_data(capsys, tmp_path):
    args = [
        "compare",
        "--cv",
        "3",
        "--quiet",
        "--models",
        "gam_classifier,decision_tree_classifier",
    ]
    assert main([*args, "--dataset", "iris"]) == 0
    out = capsys.readouterr().out
    assert "gam_classifier left out" in out and "it takes two classes and the target has 3" in out
    rng = np.random.default_rng(0)
    x = rng.uniform(size=(120, 2))
    label = np.where(rng.uniform(size=120) < 1 / (1 + np.exp(-4 * np.sin(6 * x[:, 0]))), "a", "b")
    path = tmp_path / "binary.csv"
    pd.DataFrame({"x1": x[:, 0], "x2": x[:, 1], "label": label}).to_csv(path, index=False)
    assert main([*args, str(path), "--target", "label"]) == 0
    out = capsys.readouterr().out
    assert "left out" not in out
    assert re.search(r"^ +\d+ +gam_classifier ", out, re.M)
