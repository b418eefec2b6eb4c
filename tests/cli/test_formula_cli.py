"""``--formula`` in ``statlearning fit`` and ``compare``: the formula's design for every model."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import KFold

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
    line = _error_line(capsys, ["fit", data, "--formula", "s ~ x + offset(log(f))"])
    assert "offset()" in line
    missing = tmp_path / "m.csv"
    pd.DataFrame({"y": [1.0, 2.0, None, 4.0], "x": [1.0, 2.0, 3.0, 5.0]}).to_csv(
        missing, index=False
    )
    line = _error_line(capsys, ["fit", str(missing), "--formula", "y ~ x"])
    assert "'y' (1)" in line and "--na drop" in line


def _spline_data(path):
    rng = np.random.default_rng(3)
    n = 60
    x = rng.exponential(1.0, n)  # skewed: each fold's quantile knots differ from all rows'
    g = rng.choice(["a", "b", "c"], n)
    y = np.sin(2 * x) + 0.5 * (g == "b") + rng.normal(0, 0.3, n)
    pd.DataFrame({"y": y, "x": x, "g": g}).to_csv(path, index=False)
    return x, g, y


def _fold_rmse(x, g, y, folds, per_fold=True):
    """RMSE of least squares on R's bs(x, df = 4) + g, the basis fitted per training fold
    (or once on every row), folds as compare's (KFold, shuffled, seed 0)."""
    from sklearn.linear_model import LinearRegression as OLS

    from statlearning.preprocessing import BSplineFeatures

    dummies = np.column_stack([g == "b", g == "c"]).astype(float)
    everyone = BSplineFeatures(df=4).fit(x[:, None])
    out = []
    for train, test in KFold(folds, shuffle=True, random_state=0).split(x):
        basis = BSplineFeatures(df=4).fit(x[train, None]) if per_fold else everyone
        design = np.column_stack([basis.transform(x[:, None]), dummies])
        fit = OLS().fit(design[train], y[train])
        out.append(np.sqrt(np.mean((y[test] - fit.predict(design[test])) ** 2)))
    return np.array(out)


def test_compare_formula_builds_the_design_inside_each_fold(capsys, tmp_path):
    path = tmp_path / "spline.csv"
    x, g, y = _spline_data(path)
    argv = ["compare", str(path), "--formula", "y ~ bs(x, df = 4) + g", "--cv", "5"]
    argv += ["--quiet", "--models", "linear_regression", "--format", "json", "--jobs", "1"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    rows = {r["model"]: r for r in json.loads(captured.out)}
    honest = _fold_rmse(x, g, y, 5)
    leaky = _fold_rmse(x, g, y, 5, per_fold=False)
    assert abs(honest.mean() - leaky.mean()) > 5e-4  # the test can tell them apart
    assert rows["linear_regression"]["mean"] == pytest.approx(honest.mean(), rel=1e-10)
    se = honest.std(ddof=1) / np.sqrt(5)
    assert rows["linear_regression"]["se"] == pytest.approx(se, rel=1e-8)
    assert "its own training rows" in captured.err


def test_formula_fold_scores_equal_a_manual_refit(tmp_path):
    from statlearning._registry import get_model, load_families
    from statlearning.cli._compare import cross_validate_models, make_splits
    from statlearning.cli._data import load_formula_data
    from statlearning.cli._progress import Progress

    load_families()
    path = tmp_path / "spline.csv"
    x, g, y = _spline_data(path)
    data = load_formula_data(str(path), formula="y ~ bs(x, df = 4) + g")
    splits, _ = make_splits(data.X, data.y, "regression", 5, 1, 0)
    with Progress(5, enabled=False) as bar:
        run = cross_validate_models(
            data.cv_X(), data.y, [get_model("linear_regression")], splits, "regression", bar,
            formula=data.formula,
        )  # fmt: skip
    scores = np.array(run.results[1].primary)
    np.testing.assert_allclose(scores, _fold_rmse(x, g, y, 5), rtol=1e-10)
    leaky = _fold_rmse(x, g, y, 5, per_fold=False)
    assert np.max(np.abs(scores - leaky)) > 5e-3  # the all-rows knots give other scores


@pytest.mark.parametrize("model", ["linear_regression", "ridge"])
def test_fit_formula_save_then_predict_raw_columns(model, capsys, tmp_path):
    from statlearning.formula import lm

    data = pd.read_csv(REF / "gapminder2011.csv")
    formula = "life_expectancy ~ bs(infant_mortality, df = 4) + poly(fertility, 2) + continent"
    path = tmp_path / "model.skops"
    argv = ["fit", str(REF / "gapminder2011.csv"), "--formula", formula, "--save", str(path)]
    assert main([*argv, "--model", model]) == 0
    capsys.readouterr()
    new = data.iloc[::-1][["fertility", "country", "continent", "infant_mortality"]].copy()
    new.iloc[1, 0] = np.nan
    csv = tmp_path / "new.csv"
    new.to_csv(csv, index=False)
    assert main(["predict", str(path), str(csv)]) == 0
    out, err = capsys.readouterr()
    got = pd.read_csv(pd.io.common.StringIO(out))["prediction"].to_numpy()
    assert np.isnan(got[1]) and "1 row(s) with missing values get no prediction" in err
    assert "ignored: country" in err
    if model == "linear_regression":
        want = lm(formula, data).predict(new.drop(new.index[1]))
        np.testing.assert_allclose(np.delete(got, 1), want, rtol=1e-12)
        assert main(["predict", str(path), str(csv), "--interval", "confidence"]) == 0
        header = capsys.readouterr().out.splitlines()[0]
        assert header == "prediction,lower,upper"
    unseen = new.assign(continent="Atlantis")
    unseen.to_csv(csv, index=False)
    line = _error_line(capsys, ["predict", str(path), str(csv)])
    assert "'continent'" in line and "'Atlantis'" in line
    new.drop(columns="fertility").to_csv(csv, index=False)
    line = _error_line(capsys, ["predict", str(path), str(csv)])
    assert "column 'fertility' missing" in line
