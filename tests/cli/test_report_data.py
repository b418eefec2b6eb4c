"""The report's data section: missing values per column (count and share of the rows read)."""

import re

import numpy as np
import pandas as pd
import pytest

from statlearning.cli import main

pytest.importorskip("jinja2")
pytest.importorskip("matplotlib")


def _missing_table(html):
    table = re.search(r'<table id="data-missing">(.*?)</table>', html, re.S)[1]
    row = r'<tr><td class="name">([^<]*)</td><td>(\d+)</td><td>([\d.]+)</td></tr>'
    cells = re.findall(row, table)
    return {name: (int(k), float(p)) for name, k, p in cells}


@pytest.mark.parametrize("formula", [None, "y ~ x1 + g"])
def test_missing_values_per_column(tmp_path, capsys, formula):
    rng = np.random.default_rng(0)
    n = 40
    frame = pd.DataFrame(
        {"y": rng.normal(size=n), "x1": rng.normal(size=n), "x2": rng.normal(size=n),
         "g": rng.choice(["a", "b"], n)}
    )  # fmt: skip
    frame.loc[[1, 5, 9], "x1"] = np.nan
    frame.loc[[5, 20], "g"] = None
    frame.loc[[30], "y"] = np.nan
    csv = tmp_path / "d.csv"
    frame.to_csv(csv, index=False)
    out = tmp_path / "r.html"
    argv = ["report", str(csv), "--na", "drop", "--models", "linear_regression", "--cv", "3"]
    argv += ["--quiet", "--jobs", "1", "-o", str(out)]
    argv += ["--target", "y"] if formula is None else ["--formula", formula]
    assert main(argv) == 0, capsys.readouterr().err
    table = _missing_table(out.read_text())
    assert table["y"] == (1, 2.5)
    assert table["x1"] == (3, 7.5)
    assert table["g"] == (2, 5.0)
    if formula is None:
        assert table["x2"] == (0, 0.0)
    else:
        assert "x2" not in table  # not a variable of the formula
    assert "5 rows with missing values were dropped" in out.read_text()
