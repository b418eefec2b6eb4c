"""``--formula`` in ``statlearning fit`` and ``compare``: the formula's design for every model."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("formulaic")

from test_cli import _error_line

from statlearning.cli import main

REF = Path(__file__).resolve().parents[1] / "reference" / "formula"


def test_fit_formula_prints_r_summary(capsys):
    argv = [
        "fit",
        str(REF / "gapminder2011.csv"),
        "--na",
        "drop",
        "--formula",
        "life_expectancy ~ bs(infant_mortality, df = 4) + ns(fertility, df = 3) + log(gdp)",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    expected = (REF / "lm_splines_missing.txt").read_text().strip("\n")
    assert expected in out
    assert "12 rows with missing values dropped (--na drop)" in out


def test_fit_formula_other_model_uses_r_names(capsys):
    data = REF / "binomial.csv"
    assert main(["fit", str(data), "--formula", "s ~ x * grp", "--model", "ridge"]) == 0
    out = capsys.readouterr().out
    assert "design from the formula s ~ x * grp: 5 columns" in out
    assert "n = 24, p = 5, target = s" in out


def test_compare_formula_defines_the_design(capsys):
    argv = [
        "compare",
        str(REF / "binomial.csv"),
        "--formula",
        "s ~ x + grp + I(x^2)",
        "--cv",
        "3",
        "--quiet",
        "--models",
        "linear_regression,ridge",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "p = 4, target = s" in out
    assert "linear_regression" in out and "ridge" in out


def test_formula_errors_are_one_line(capsys, tmp_path):
    data = str(REF / "binomial.csv")
    line = _error_line(capsys, ["fit", data, "--formula", "s ~ nope"])
    assert "'nope'" in line
    line = _error_line(capsys, ["fit", data, "--formula", "s ~ x", "--target", "f"])
    assert "--target 'f' differs from the response 's'" in line
    line = _error_line(capsys, ["fit", data, "--formula", "cbind(s, f) ~ x"])
    assert "one response column" in line
    line = _error_line(capsys, ["fit", data, "--formula", "s ~ x +"])
    assert "cannot read the formula" in line
    line = _error_line(capsys, ["fit", data, "--formula", "s ~ x", "--save", "m.skops"])
    assert "--save does not take --formula" in line
    missing = tmp_path / "m.csv"
    pd.DataFrame({"y": [1.0, 2.0, None, 4.0], "x": [1.0, 2.0, 3.0, 5.0]}).to_csv(
        missing, index=False
    )
    line = _error_line(capsys, ["fit", str(missing), "--formula", "y ~ x"])
    assert "'y' (1)" in line and "--na drop" in line
