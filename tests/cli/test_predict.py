"""``statlearning fit --save`` and ``statlearning predict``: columns by name, clear errors."""

import numpy as np
import pandas as pd
import pytest

from statlearning.cli import main
from statlearning.cli._data import load_data
from statlearning.linear_model import LinearRegression, LogisticRegression


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def gapminder_model(tmp_path, capsys):
    path = tmp_path / "lm.skops"
    code, out, _ = _run(capsys, "fit", "--model", "linear_regression", "--save", str(path))
    assert code == 0 and "model saved to" in out
    return path


def _gapminder_table():
    from statlearning.datasets import load_gapminder

    g = load_gapminder(year=2011, as_frame=True).frame.copy()
    g["lgdppc"] = np.log(g["gdp"] / g["population"])
    return g


def test_predict_matches_the_fitted_model(gapminder_model, tmp_path, capsys):
    table = _gapminder_table()
    new = table.iloc[::-1][["continent", "lgdppc", "country", "fertility", "infant_mortality"]]
    csv = tmp_path / "new.csv"
    new.to_csv(csv, index=False)
    code, out, err = _run(capsys, "predict", str(gapminder_model), str(csv))
    assert code == 0, err
    assert "not used by the model, ignored: country" in err
    got = pd.read_csv(pd.io.common.StringIO(out))["prediction"].to_numpy()
    data = load_data()
    X, y = data.frame()
    want = LinearRegression().fit(X, y).predict(X)[::-1]
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_intervals_and_output_file(gapminder_model, tmp_path, capsys):
    table = _gapminder_table().iloc[:5]
    csv = tmp_path / "new.csv"
    table.to_csv(csv, index=False)
    target = tmp_path / "out.csv"
    code, _, err = _run(
        capsys,
        "predict",
        str(gapminder_model),
        str(csv),
        "--interval",
        "prediction",
        "--level",
        "0.9",
        "-o",
        str(target),
    )
    assert code == 0 and "5 predictions written" in err
    result = pd.read_csv(target)
    assert list(result.columns) == ["prediction", "lower", "upper"]
    data = load_data()
    X, y = data.frame()
    _fit, lower, upper = (
        LinearRegression().fit(X, y).predict_interval(X.iloc[:5], kind="prediction", level=0.9)
    )
    np.testing.assert_allclose(result["lower"], lower, rtol=1e-12)
    np.testing.assert_allclose(result["upper"], upper, rtol=1e-12)


def test_missing_values_give_empty_predictions(gapminder_model, tmp_path, capsys):
    table = _gapminder_table().iloc[:4].copy()
    table.loc[table.index[1], "fertility"] = np.nan
    csv = tmp_path / "new.csv"
    table.to_csv(csv, index=False)
    code, out, err = _run(capsys, "predict", str(gapminder_model), str(csv))
    assert code == 0
    result = pd.read_csv(pd.io.common.StringIO(out))
    assert result["prediction"].isna().tolist() == [False, True, False, False]
    assert "1 row(s) with missing values get no prediction (rows 3)" in err


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda t: t.drop(columns=["fertility"]), "'fertility' missing from the new data"),
        (
            lambda t: t.assign(continent=["Atlantis", *list(t["continent"].iloc[1:])]),
            "column 'continent' has level(s) unseen when the model was fitted: 'Atlantis' (row 2)",
        ),
        (lambda t: t.assign(fertility="many"), "'fertility' was numeric"),
    ],
)
def test_bad_new_data_is_one_line_and_exit_2(gapminder_model, tmp_path, capsys, change, message):
    csv = tmp_path / "new.csv"
    change(_gapminder_table().iloc[:3]).to_csv(csv, index=False)
    code, out, err = _run(capsys, "predict", str(gapminder_model), str(csv))
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_classifier_probabilities_with_a_factor(tmp_path, capsys):
    rng = np.random.default_rng(0)
    n = 200
    g = rng.choice(["a", "b", "c"], n)
    x = rng.normal(size=n)
    eta = x + (g == "b") - (g == "c")
    y = np.where(rng.uniform(size=n) < 1 / (1 + np.exp(-eta)), "yes", "no")
    train = pd.DataFrame({"x": x, "g": g, "y": y})
    train.to_csv(tmp_path / "train.csv", index=False)
    model = tmp_path / "logit.skops"
    code, _, err = _run(
        capsys,
        "fit",
        str(tmp_path / "train.csv"),
        "--target",
        "y",
        "--model",
        "logistic_regression",
        "--save",
        str(model),
    )
    assert code == 0, err
    train.iloc[:6][["g", "x"]].to_csv(tmp_path / "new.csv", index=False)
    code, out, err = _run(capsys, "predict", str(model), str(tmp_path / "new.csv"), "--proba")
    assert code == 0, err
    result = pd.read_csv(pd.io.common.StringIO(out))
    assert list(result.columns) == ["prediction", "proba_no", "proba_yes"]
    X = pd.DataFrame({"x": x, "gb": (g == "b") * 1.0, "gc": (g == "c") * 1.0})
    direct = LogisticRegression().fit(X, y)
    np.testing.assert_allclose(
        result["proba_yes"], direct.predict_proba(X.iloc[:6])[:, 1], rtol=1e-10
    )


def test_models_without_intervals_or_probabilities(tmp_path, capsys):
    model = tmp_path / "tree.skops"
    assert _run(capsys, "fit", "--model", "decision_tree_regressor", "--save", str(model))[0] == 0
    csv = tmp_path / "new.csv"
    _gapminder_table().iloc[:3].to_csv(csv, index=False)
    code, _, err = _run(capsys, "predict", str(model), str(csv), "--interval", "confidence")
    assert code == 2 and "gives no intervals" in err
    code, _, err = _run(capsys, "predict", str(model), str(csv), "--proba")
    assert code == 2 and "gives no class probabilities" in err


def test_not_a_model_file(tmp_path, capsys):
    bogus = tmp_path / "model.skops"
    bogus.write_text("hello")
    csv = tmp_path / "new.csv"
    _gapminder_table().iloc[:3].to_csv(csv, index=False)
    code, _, err = _run(capsys, "predict", str(bogus), str(csv))
    assert code == 2 and "not a model file" in err
