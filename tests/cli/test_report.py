"""``compare --format json``, ``compare --report`` and ``statlearning report``."""

import base64
import importlib.util
import json
import math
import re
from importlib import resources
from pathlib import Path

import pytest

from statlearning import _registry
from statlearning._registry import load_families, register_model
from statlearning.cli import main
from statlearning.cli._compare import CVResult
from statlearning.cli._leaderboard import complexity, interpretable, rank_results
from statlearning.cli._report import check_report_dependencies

REGRESSION = ["--dataset", "diabetes", "--cv", "4", "--quiet", "--jobs", "1"]
REG_MODELS = "decision_tree_regressor,random_forest_regressor,knn_regressor"
CLASSIFICATION = ["--dataset", "biopsy", "--cv", "4", "--quiet", "--jobs", "1"]
CLS_MODELS = "logistic_regression,random_forest_classifier,svc"


@pytest.fixture
def register(monkeypatch):
    """``register(name, factory, task, family)`` into a private copy of the registry."""
    load_families()
    monkeypatch.setattr(_registry, "_MODELS", dict(_registry._MODELS))

    def add(name, factory, task, family):
        register_model(name, factory, task=task, description="a test model", family=family)

    return add


def _json(capsys, argv):
    assert main(argv) == 0
    out, err = capsys.readouterr()
    return json.loads(out), err


def test_json_leaderboard_regression(capsys):
    rows, err = _json(capsys, ["compare", *REGRESSION, "--models", REG_MODELS, "--format", "json"])
    assert err.startswith("data: diabetes")  # the header goes to standard error
    assert [set(r) for r in rows] == [
        {"model", "task", "metric", "mean", "se", "fit_seconds", "notes"}
    ] * len(rows)
    assert rows[0]["model"] == "baseline" and rows[0]["fit_seconds"] == 0.0
    assert {r["model"] for r in rows[1:]} == set(REG_MODELS.split(","))
    means = [r["mean"] for r in rows[1:]]
    assert means == sorted(means)  # RMSE: best (lowest) first
    assert all(r["task"] == "regression" and r["metric"] == "RMSE" for r in rows)
    assert all(r["se"] > 0 and r["fit_seconds"] > 0 for r in rows[1:])
    assert "best mean" in rows[1]["notes"]
    one_se = [r["model"] for r in rows if any(n.startswith("one-SE") for n in r["notes"])]
    assert len(one_se) == 1


def test_json_leaderboard_classification_with_a_failure(capsys, register):

    class Broken:
        def fit(self, X, y):
            raise RuntimeError("cannot fit")

    register("test_broken_classifier", Broken, "classification", "test")
    models = "lda,gaussian_nb,test_broken_classifier"
    rows, _ = _json(capsys, ["compare", *CLASSIFICATION, "--models", models, "--format", "json"])
    by_name = {r["model"]: r for r in rows}
    assert by_name["baseline"]["metric"] == "accuracy"
    broken = by_name["test_broken_classifier"]
    assert broken["mean"] is None and broken["se"] is None
    assert broken["notes"][0].startswith("failed: RuntimeError: cannot fit")
    assert rows[-1]["model"] == "test_broken_classifier"
    ranked = [r["mean"] for r in rows[1:-1]]
    assert ranked == sorted(ranked, reverse=True)  # accuracy: best (highest) first


def _result(name, scores):
    return CVResult(name=name, primary=list(scores), secondary=[0.0] * len(scores),
                    fit_times=[0.01] * len(scores), planned=len(scores))  # fmt: skip


def test_one_se_choice_prefers_the_simplest_within_one_se():
    from statlearning._registry import ModelSpec

    def spec(name, family):
        return ModelSpec(name, object, "regression", "d", family)

    specs = [spec("forest", "ensemble"), spec("tree", "tree"), spec("ols", "linear_model")]
    results = [
        CVResult(name="baseline", primary=[3.0, 3.0], baseline=True),
        _result("forest", [1.0, 1.2, 0.8, 1.0]),  # best: mean 1.0, SE 0.0816
        _result("tree", [1.05, 1.05, 1.05, 1.05]),  # within one SE
        _result("ols", [1.3, 1.3, 1.3, 1.3]),  # outside
    ]
    rows = rank_results(results, "regression", specs, ["slow_model skipped: no time"])
    names = [r.model for r in rows]
    assert names == ["baseline", "forest", "tree", "ols"]
    assert [r.model for r in rows if r.one_se] == ["tree"]
    assert [r.model for r in rows if r.best_interpretable] == ["tree"]
    assert rows[1].best and not rows[1].one_se
    results[3] = _result("ols", [1.08, 1.08, 1.08, 1.08])
    rows = rank_results(results, "regression", specs)
    assert [r.model for r in rows if r.one_se] == ["ols"]
    assert complexity("linear_model") < complexity("tree") < complexity("svm")
    assert interpretable("mars") and interpretable("gam") and not interpretable("ensemble")


def _images(page):
    """Decoded inline PNG images of a report."""
    found = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    return [base64.b64decode(b, validate=True) for b in found]


def _png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _check_page(page):
    assert "<script" not in page and "http://" not in page and "https://" not in page
    images = _images(page)
    assert images
    for data in images:
        width, height = _png_size(data)
        assert width > 100 and height > 100 and len(data) > 2000
    return images


def test_regression_report(tmp_path, capsys):
    path = tmp_path / "r.html"
    argv = ["compare", *REGRESSION, "--models", REG_MODELS, "--report", str(path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert f"note: report written to {path}" in out
    page = path.read_text(encoding="utf-8")
    for anchor in ("leaderboard", "cv-scores", "model-best", "model-interpretable", "data"):
        assert f'id="{anchor}"' in page
    # the best is the forest (importances), the best interpretable the tree
    assert "Best model: random_forest_regressor" in page
    assert 'id="model-best-diagnostics"' in page and 'id="model-best-importance"' in page
    assert "Best interpretable model: decision_tree_regressor" in page
    assert 'id="model-interpretable-diagnostics"' in page
    assert 'id="model-interpretable-tree"' in page and "<pre>" in page
    assert len(re.findall(r'<tr class="[^"]*one-se[^"]*">', page)) == 1  # one row marked
    assert "progression" in page and 'id="data-summary"' in page
    assert len(_check_page(page)) == 5  # scores, 2 diagnostics, importance, tree


def test_classification_report_and_default_output(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    models = "logistic_regression,decision_tree_classifier_cv,svc"
    assert main(["report", *CLASSIFICATION, "--models", models]) == 0
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    # the best is the SVM (no probabilities: ROC from its decision function), the best
    # interpretable the logistic regression (its R-style coefficient table)
    assert "Best model: svc" in page
    assert 'id="model-best-confusion-matrix"' in page and 'id="model-best-roc"' in page
    assert 'id="model-best-calibration"' not in page
    for part in ("confusion-matrix", "roc", "calibration", "coefficients"):
        assert f'id="model-interpretable-{part}"' in page
    assert "(Intercept)" in page
    assert 'id="data-classes"' in page and "benign" in page and "malignant" in page
    assert len(_check_page(page)) == 7  # scores, 2 + 3 classifier figures, coefficients


def test_missing_extra_is_named(capsys, monkeypatch, tmp_path):
    real = importlib.util.find_spec

    def find_spec(name, *args):
        return None if name == "jinja2" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    with pytest.raises(ValueError, match=r"statlearning\[report\]"):
        check_report_dependencies()
    code = main(["report", *REGRESSION, "-o", str(tmp_path / "x.html")])
    err = capsys.readouterr().err
    assert code == 2
    assert 'needs jinja2, not installed: pip install "statlearning[report]"' in err
    assert not (tmp_path / "x.html").exists()


def test_template_is_package_data():
    template = resources.files("statlearning.cli") / "templates" / "report.html.j2"
    assert template.is_file()
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    assert '"statlearning.cli" = ["templates/*.j2"]' in pyproject.read_text(encoding="utf-8")


def test_out_of_fold_predictions_cover_every_row():
    from statlearning.cli._report import _out_of_fold

    r = CVResult(name="m")
    splits = [([2, 3], [0, 1]), ([0, 1], [2, 3]), ([2, 3], [0, 1])]  # two repeats
    r.predictions = {0: (["a", "bb"], None, None), 1: (["ccc", "a"], None, [0.5, -1.0])}
    pred, proba, decision = _out_of_fold(r, splits, 4)
    assert list(pred) == ["a", "bb", "ccc", "a"] and proba is None
    assert math.isnan(decision[0]) or decision.shape == (4,)
    r.predictions = {0: (["a", "b"], None, None)}
    assert _out_of_fold(r, splits, 4) is None


def test_gam_family_gets_partial_dependence(tmp_path, capsys, register):
    from statlearning.linear_model import LinearRegression

    register("test_additive", LinearRegression, "regression", "gam")
    path = tmp_path / "gam.html"
    argv = ["report", *REGRESSION, "--models", "test_additive", "-o", str(path)]
    assert main(argv) == 0
    page = path.read_text(encoding="utf-8")
    assert "Best model (also the best interpretable): test_additive" in page
    assert 'id="model-best-partial-dependence"' in page
    assert 'id="model-best-coefficients"' not in page  # a GAM shows its terms, not a table
    assert len(_check_page(page)) == 3  # scores, diagnostics, partial dependence


def test_penalised_model_shows_its_penalty_curve(tmp_path, capsys):
    path = tmp_path / "lasso.html"
    assert main(["report", *REGRESSION, "--models", "lasso_cv", "-o", str(path)]) == 0
    page = path.read_text(encoding="utf-8")
    assert 'id="model-best-coefficients"' in page and 'id="model-best-cv-curve"' in page
    assert "Coefficients (features standardised)" in page
    assert 'id="model-best-coefficient-path"' in page
    assert len(_check_page(page)) == 5  # scores, diagnostics, CV curve, coefficients, paths


def test_multiclass_report(tmp_path, capsys):
    path = tmp_path / "iris.html"
    argv = ["report", "--dataset", "iris", "--cv", "4", "--quiet", "--models", "lda"]
    assert main([*argv, "-o", str(path)]) == 0
    page = path.read_text(encoding="utf-8")
    for part in ("confusion-matrix", "roc", "calibration", "coefficients"):
        assert f'id="model-best-{part}"' in page
    assert "Coefficients of linear discriminants" in page and "<th>LD2</th>" in page
    assert "One class against the rest" in page
    assert len(_check_page(page)) == 4  # scores, confusion matrix, ROC, calibration


class _FailsOnAllRows:
    """Fits on the training folds (fewer rows) but not on all 442 rows of diabetes."""

    def __init__(self):
        from statlearning.linear_model import LinearRegression

        self.model = LinearRegression()

    def fit(self, X, y):
        if len(y) == 442:
            raise RuntimeError("refit refused")
        self.model.fit(X, y)
        return self

    def predict(self, X):
        return self.model.predict(X)


def test_a_failing_refit_is_a_note(tmp_path, capsys, register):
    register("test_refit_fails", _FailsOnAllRows, "regression", "linear_model")
    path = tmp_path / "f.html"
    assert main(["report", *REGRESSION, "--models", "test_refit_fails", "-o", str(path)]) == 0
    page = path.read_text(encoding="utf-8")
    assert "The refit on all rows failed (RuntimeError: refit refused)." in page
    assert "Refitted on all" not in page
    assert len(_check_page(page)) == 1  # the scores by fold only
