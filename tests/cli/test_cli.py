"""Tests of the command line (``statlearning compare|fit|models``) and of the model registry."""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import LogisticRegression

import statlearning
from statlearning import _registry
from statlearning._registry import (
    ModelSpec,
    get_model,
    load_families,
    register_model,
    registered_models,
)
from statlearning.cli import _main, main
from statlearning.cli._data import detect_task
from statlearning.cli._progress import Progress

SRC = Path(statlearning.__file__).resolve().parents[1]
ROW = re.compile(r"^\s*(\S+)\s{2}(.+?)\s{2,}(\S+) ± (\S+)")


def _rows(out):
    """Map model name (or 'baseline') to (rank, mean, se) from a printed leaderboard."""
    rows = {}
    for line in out.splitlines():
        m = ROW.match(line)
        if m and m[1] != "rank":
            name = "baseline" if m[2].startswith("baseline") else m[2].strip()
            rows[name] = (m[1], float(m[3]), m[4])
    return rows


def _error_line(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (argv, out, err)
    assert "Traceback" not in err + out
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("statlearning: error: ")
    return lines[0]


@pytest.fixture
def registry(monkeypatch):
    """A private registry holding only linear_regression, so leaderboards are predictable
    however many models the families register."""
    load_families()
    models = {"linear_regression": _registry._MODELS["linear_regression"]}
    monkeypatch.setattr(_registry, "_MODELS", models)
    return models


@pytest.fixture
def regression_only(registry):
    for name in [n for n, spec in registry.items() if spec.task != "regression"]:
        del registry[name]
    return registry


class Broken(RegressorMixin, BaseEstimator):
    def fit(self, X, y):
        raise RuntimeError("cannot fit\nsecond line")


def _register_logistic(max_iter):
    def factory():
        return LogisticRegression(max_iter=max_iter)

    register_model(
        "test_logistic", factory, task="classification", description="d", family="t",
        needs_scaling=True,
    )  # fmt: skip


# --- compare ---------------------------------------------------------------------------------


def test_compare_default_gapminder(capsys, regression_only):
    assert main(["compare", "--cv", "5", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert "n = 166" in out and "p = 7" in out and "life_expectancy" in out
    assert "regression" in out and "5-fold" in out
    assert "baseline level 'Africa'" in out
    rows = _rows(out)
    assert set(rows) >= {"baseline", "linear_regression"}
    assert rows["baseline"][0] == "-" and rows["linear_regression"][0] == "1"
    assert rows["linear_regression"][1] < rows["baseline"][1] / 2  # RMSE: lower is better
    lines = out.splitlines()
    assert lines.index(next(x for x in lines if "baseline (mean)" in x)) < lines.index(
        next(x for x in lines if "linear_regression" in x)
    )
    assert err == ""


def test_compare_repeats_and_seed(capsys, regression_only):
    assert main(["compare", "--cv", "3", "--repeats", "2", "--seed", "7", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "3-fold CV x 2 repeats, seed 7" in out and "over 6 folds" in out


def test_compare_runs_every_registered_model(capsys):
    """The real registry: every applicable model gets a row and none fails on the default."""
    load_families()
    assert main(["compare", "--cv", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    specs = _registry.registered_models(task="regression")
    expected = {spec.name for spec in specs if spec.rows != "one_feature"}
    assert expected <= set(rows)
    for spec in specs:  # smoothers of one feature: left out of multi-feature data, with a note
        if spec.rows == "one_feature":
            assert f"note: {spec.name} left out" in out
    assert all(rows[name][0].isdigit() for name in expected)
    assert all(rows[name][1] < rows["baseline"][1] for name in expected)


def test_compare_iris_without_classifiers(capsys, regression_only):
    assert main(["compare", "--dataset", "iris", "--cv", "5", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "classification" in out and "accuracy" in out and "n = 150" in out
    assert "no classification model is registered yet" in out
    rows = _rows(out)
    assert list(rows) == ["baseline"]
    assert rows["baseline"][1] == pytest.approx(1 / 3, abs=1e-3)


@pytest.mark.parametrize("dataset", ["diabetes", "wine", "breast_cancer", "biopsy", "gapminder"])
def test_compare_bundled_datasets(capsys, regression_only, dataset):
    assert main(["compare", "--dataset", dataset, "--cv", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "baseline" in out and dataset in out


def test_compare_classifiers_failures_and_warnings(capsys, registry):
    _register_logistic(max_iter=2)
    register_model("test_broken", Broken, task="regression", description="x", family="tests")
    assert main(["compare", "--dataset", "iris", "--cv", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    assert rows["test_logistic"][0] == "1" and rows["test_logistic"][1] > rows["baseline"][1]
    assert "test_broken" not in out  # a regression model is not run on a classification task
    warning_lines = [x for x in out.splitlines() if x.startswith("warning: test_logistic")]
    assert len(warning_lines) == 1 and "ConvergenceWarning" in warning_lines[0]
    assert "of 3 folds" in warning_lines[0]

    assert main(["compare", "--cv", "3", "--quiet", "--models", "test_broken"]) == 1
    out, err = capsys.readouterr()
    assert "no model could be fitted" in err
    (line,) = [x for x in out.splitlines() if "test_broken" in x]
    assert "failed: RuntimeError: cannot fit" in line and "second line" not in out


def test_compare_csv(tmp_path, capsys, regression_only):
    rng = np.random.default_rng(0)
    path = tmp_path / "data.csv"
    lines = ["id,x,group,y"]
    for i in range(40):
        x = rng.normal()
        group = "ab"[i % 2]
        y = "NA" if i == 5 else f"{1 + 2 * x + (group == 'b') + 0.1 * rng.normal():.6f}"
        lines.append(f"{i},{x:.6f},{group},{y}")
    path.write_text("\n".join(lines) + "\n")
    argv = ["compare", str(path), "--target", "y", "--drop", "id", "--na", "drop", "--cv", "4"]
    assert main([*argv, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "n = 39" in out and "1 row with missing values dropped" in out
    assert "baseline level 'a'" in out
    rows = _rows(out)
    assert rows["linear_regression"][1] < 0.2 < rows["baseline"][1]


# --- fit and models --------------------------------------------------------------------------


def test_fit_default_prints_summary(capsys, regression_only):
    assert main(["fit"]) == 0
    out = capsys.readouterr().out
    assert "Residual standard error" in out and "n = 166" in out
    assert "baseline level 'Africa'" in out
    assert "continentAsia" in out or "x4 = continentAsia" in out


def test_fit_estimator_without_summary(capsys, registry):
    _register_logistic(max_iter=1000)
    assert main(["fit", "--dataset", "iris", "--model", "test_logistic"]) == 0
    out = capsys.readouterr().out
    assert "LogisticRegression" in out and "training accuracy" in out
    assert "standardised" in out


def test_models_lists_linear_regression(capsys):
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    (line,) = [x for x in out.splitlines() if x.startswith("linear_regression ")]
    assert "regression" in line and "linear_model" in line


def test_version_and_help(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"statlearning {statlearning.__version__}"
    assert main(["compare", "--help"]) == 0
    assert "--cv" in capsys.readouterr().out


# --- bad input -------------------------------------------------------------------------------


@pytest.fixture
def bad_csv(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("a,b,label\n1,x,u\n2,y,v\n3,,u\n")
    ids = tmp_path / "ids.csv"
    ids.write_text("name,x,y\n" + "".join(f"n{i},{i},{2 * i}\n" for i in range(60)))
    return path, ids


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["compare", "missing.csv", "--target", "y"], "no such file"),
        (["compare", "{bad}", "--target", "nope"], "'nope' not found"),
        (["compare", "{bad}"], "needs --target"),
        (["compare", "{bad}", "--target", "a"], "--na drop"),
        (["compare", "{ids}", "--target", "y"], "--drop name"),
        (["compare", "{bad}", "--target", "a", "--drop", "zz"], "'zz' not found"),
        (
            ["compare", "{bad}", "--target", "label", "--na", "drop", "--task", "regression"],
            "numeric target",
        ),
        (["compare", "--models", "linear_regresion"], "did you mean 'linear_regression'"),
        (["fit", "--model", "nope"], "unknown model 'nope'"),
        (["compare", "--dataset", "iris", "--models", "linear_regression"], "regression model"),
        (["fit", "--dataset", "iris"], "regression model"),
        (["compare", "--cv", "1"], "at least 2"),
        (["compare", "--cv", "167"], "larger than the number of rows (166)"),
        (["compare", "--repeats", "0"], "at least 1"),
        (["compare", "--target", "fertility"], "does not apply"),
        (["compare", "{bad}", "--dataset", "iris"], "not both"),
        (["compare", "--cv", "abc"], "invalid int value"),
        (["compare", "--dataset", "nope"], "invalid choice"),
        (["frobnicate"], "invalid choice"),
        ([], "choose a command"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, bad_csv, argv, expected):
    bad, ids = bad_csv
    argv = [a.format(bad=bad, ids=ids) for a in argv]
    assert expected in _error_line(capsys, argv)


@pytest.mark.parametrize(
    ("exc", "code", "text"),
    [
        (KeyError("some key"), 2, "statlearning: error: some key"),
        (OSError("disk full"), 2, "statlearning: error: disk full"),
        (TypeError("bad\ntype"), 2, "statlearning: error: bad; type"),
        (KeyboardInterrupt(), 130, "interrupted"),
    ],
)
def test_errors_are_caught(capsys, monkeypatch, exc, code, text):
    def boom(args):
        raise exc

    monkeypatch.setattr(_main, "_cmd_models", boom)
    assert main(["models"]) == code
    err = capsys.readouterr().err
    assert text in err and "Traceback" not in err


def test_detect_task():
    ints = np.tile([0.0, 1.0, 2.0], 20)
    assert detect_task(ints)[0] == "classification"
    assert detect_task(ints[:30])[0] == "regression"  # too few rows
    assert detect_task(ints + 0.5)[0] == "regression"
    assert detect_task(np.arange(60.0))[0] == "regression"  # too many values
    assert detect_task(np.array(["a", "b"] * 3, dtype=object))[0] == "classification"
    assert detect_task(ints[:30], "classification") == ("classification", "chosen with --task")
    with pytest.raises(ValueError, match="numeric target"):
        detect_task(np.array(["a", "b"], dtype=object), "regression")
    with pytest.raises(ValueError, match="class labels"):
        detect_task(ints + 0.5, "classification")


def test_console_module_runs():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-m", "statlearning", "compare", "--cv", "3"],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "linear_regression" in proc.stdout and "baseline" in proc.stdout
    assert "n = 166" in proc.stdout and "Traceback" not in proc.stderr


# --- registry --------------------------------------------------------------------------------


def test_register_duplicates(registry):
    spec = register_model("test_model", Broken, task="regression", description="d", family="t")
    assert isinstance(spec, ModelSpec) and get_model("test_model") is spec
    again = register_model("test_model", Broken, task="regression", description="e", family="t")
    assert get_model("test_model") is again and again.description == "e"
    with pytest.raises(ValueError, match="already registered"):
        register_model(
            "test_model", LogisticRegression, task="regression", description="d", family="t"
        )
    with pytest.raises(ValueError, match="already registered"):
        register_model("test_model", Broken, task="regression", description="d", family="other")


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"name": "LinearModel"}, ValueError),
        ({"name": "double__underscore"}, ValueError),
        ({"task": "clustering"}, ValueError),
        ({"factory": 3}, TypeError),
        ({"description": "two\nlines"}, ValueError),
        ({"family": None}, TypeError),
    ],
)
def test_register_validation(registry, kwargs, error):
    args = dict(name="ok_name", factory=Broken, task="regression", description="d", family="t")
    args.update(kwargs)
    with pytest.raises(error):
        register_model(args.pop("name"), args.pop("factory"), **args)


def test_get_model_unknown_and_listing(registry):
    register_model("test_lasso", Broken, task="regression", description="d", family="t")
    register_model("test_knn", Broken, task="classification", description="d", family="t")
    with pytest.raises(ValueError, match=r"did you mean 'test_lasso'.*known models: .*test_knn"):
        get_model("test_laso")
    with pytest.raises(ValueError, match="known models") as info:
        get_model("zzzzzz")
    assert "did you mean" not in str(info.value)
    names = [s.name for s in registered_models()]
    assert names == sorted(names) and {"linear_regression", "test_knn"} <= set(names)
    assert all(s.task == "classification" for s in registered_models("classification"))
    assert get_model("linear_regression").family == "linear_model"
    with pytest.raises(ValueError, match="task"):
        registered_models("clustering")


def test_load_families(monkeypatch, tmp_path):
    assert load_families() == list(_registry.FAMILIES)
    assert "linear_model" in _registry.FAMILIES
    (tmp_path / "fake_optional_family.py").write_text("import no_such_optional_dependency_xyz\n")
    (tmp_path / "fake_broken_family.py").write_text("import sklearn.no_such_module_xyz\n")
    monkeypatch.setattr(statlearning, "__path__", [*statlearning.__path__, str(tmp_path)])

    monkeypatch.setattr(_registry, "FAMILIES", ("linear_model", "fake_optional_family"))
    assert load_families() == ["linear_model"]  # missing optional dependency: skipped
    monkeypatch.setattr(_registry, "FAMILIES", ("linear_model", "fake_broken_family"))
    with pytest.raises(ModuleNotFoundError, match=r"sklearn\.no_such_module_xyz"):
        load_families()
    monkeypatch.setattr(_registry, "FAMILIES", ("no_such_family",))
    with pytest.raises(ModuleNotFoundError):
        load_families()


# --- progress bar ----------------------------------------------------------------------------


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class FakeStream(io.StringIO):
    def __init__(self, tty):
        super().__init__()
        self.tty = tty

    def isatty(self):
        return self.tty


def test_progress_silent_when_fast():
    clock, stream = FakeClock(), FakeStream(tty=True)
    with Progress(10, stream=stream, clock=clock) as bar:
        for _ in range(10):
            clock.now += 0.05
            bar.update()
    assert stream.getvalue() == ""


def test_progress_not_a_tty_one_line_per_step():
    clock, stream = FakeClock(), FakeStream(tty=False)
    with Progress(200, label="cv", stream=stream, clock=clock) as bar:
        for _ in range(200):
            clock.now += 0.02
            bar.update()
    lines = stream.getvalue().splitlines()
    assert "\r" not in stream.getvalue()
    assert 1 <= len(lines) <= 11 and len(set(lines)) == len(lines)
    assert lines[0].startswith("cv: ") and lines[-1] == "cv: 100% (200/200)"
    steps = [int(line.split()[1].rstrip("%")) for line in lines]
    assert steps == sorted(steps) and steps[0] >= 10  # shown only after one second


def test_progress_tty_redraws_one_line():
    clock, stream = FakeClock(), FakeStream(tty=True)
    bar = Progress(4, stream=stream, clock=clock)
    clock.now = 1.5
    bar.update()
    bar.update()
    text = stream.getvalue()
    assert text.startswith("\r") and "\n" not in text and "50%" in text and "(2/4)" in text
    bar.close()
    assert stream.getvalue().endswith("\r") and "\n" not in stream.getvalue()


def test_progress_quiet():
    clock, stream = FakeClock(), FakeStream(tty=False)
    with Progress(3, stream=stream, clock=clock, enabled=False) as bar:
        clock.now = 5.0
        bar.update(3)
    assert stream.getvalue() == ""
