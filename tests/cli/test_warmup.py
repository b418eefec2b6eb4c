"""The background compilation of the tree kernels on a first ``compare`` (``cli/_warmup.py``)."""

import os

import numpy as np
import pytest

from statlearning._registry import get_model, load_families
from statlearning.cli import _compare, _main
from statlearning.cli._progress import Progress
from statlearning.cli._warmup import BACKGROUND_FAMILIES, WAITING_DETAIL, _fit_each, start_warmup


@pytest.fixture(scope="module", autouse=True)
def _families():
    load_families()


def _data(n=80, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    return X, X[:, 0] + 0.5 * X[:, 1] ** 2 + 0.1 * rng.normal(size=n)


class _FakeWarmup:
    """Records what had been fitted when the caller waited."""

    def __init__(self, names, log):
        self.names = frozenset(names)
        self.waited = 0.0
        self.calls = 0
        self._log = log

    def done(self):
        return self.calls > 0

    def wait(self):
        self.calls += 1
        self.waited += 100.0  # a long wait, which the budget clock must not count
        self._log.append("wait")


@pytest.mark.parametrize("budget", [None, 300.0])
def test_background_models_run_last_after_the_wait(budget, monkeypatch):
    X, y = _data()
    specs = [get_model(n) for n in ("decision_tree_regressor", "linear_regression", "lasso")]
    splits = _compare.make_splits(X, y, "regression", 3, 1, 0)[0]
    log = []
    real_run, real_probe = _compare._run_folds, _compare.estimate_cost

    def run_folds(spec, *args, **kwargs):
        log.append(spec.name)
        return real_run(spec, *args, **kwargs)

    def probe(spec, *args, **kwargs):
        log.append("probe " + spec.name)
        return real_probe(spec, *args, **kwargs)

    monkeypatch.setattr(_compare, "_run_folds", run_folds)
    monkeypatch.setattr(_compare, "estimate_cost", probe)
    warmup = _FakeWarmup({"decision_tree_regressor"}, log)
    now = [0.0]

    def clock():  # 1 s per call, minus the (fake) waiting, as the command's clock does
        now[0] += 1.0
        return now[0] - warmup.waited

    with Progress(9, label="t", enabled=False) as bar:
        run = _compare._cross_validate_models(
            X, y, specs, splits, "regression", bar, budget=budget, clock=clock, warmup=warmup
        )
    first_tree = min(i for i, e in enumerate(log) if e.endswith("decision_tree_regressor"))
    others = [i for i, e in enumerate(log) if e.endswith(("linear_regression", "lasso"))]
    # the other models are timed (with a budget) or fitted (without) before the wait
    assert len(others) == (2 if budget is None else 4)
    assert log.index("wait") < first_tree
    assert all(i < log.index("wait") for i in others[:2])
    assert all(r.error is None and len(r.primary) == 3 for r in run.results[1:])
    assert not run.notes  # the waiting is not charged to the budget


def test_the_progress_bar_says_what_it_waits_for(monkeypatch):
    X, y = _data()
    specs = [get_model(n) for n in ("linear_regression", "decision_tree_regressor")]
    splits = _compare.make_splits(X, y, "regression", 3, 1, 0)[0]
    log = []
    warmup = _FakeWarmup({"decision_tree_regressor"}, log)
    with Progress(9, label="t", enabled=False) as bar:
        real_wait = warmup.wait

        def wait():
            log.append(bar.detail)
            real_wait()

        warmup.wait = wait
        _compare._cross_validate_models(X, y, specs, splits, "regression", bar, warmup=warmup)
    assert log == [WAITING_DETAIL, "wait"]  # shown while the main process waits


def test_no_background_process_without_tree_models_or_when_turned_off(monkeypatch):
    X, y = _data()
    assert start_warmup([get_model("linear_regression")], X, y) is None
    monkeypatch.setenv("STATLEARNING_BACKGROUND_COMPILE", "0")
    assert start_warmup([get_model("decision_tree_regressor")], X, y) is None


def test_background_process_compiles_and_cleans_up():
    X, y = _data()
    specs = [get_model("linear_regression"), get_model("decision_tree_regressor")]
    warmup = start_warmup(specs, X, y)
    assert warmup is not None and warmup.names == {"decision_tree_regressor"}
    path = warmup._data_path
    assert os.path.exists(path)
    with warmup:
        warmup.wait(timeout=600)
        assert warmup.waited > 0
        assert warmup.done()
    assert not os.path.exists(path)
    warmup.wait()  # a second wait returns at once


def test_close_stops_a_running_process():
    X, y = _data()
    warmup = start_warmup([get_model("random_forest_regressor")], X, y)
    path = warmup._data_path
    warmup.close()
    assert not os.path.exists(path)


def test_fit_each_ignores_failing_models(tmp_path):
    X, y = _data(40)
    path = tmp_path / "w.npz"
    np.savez(path, X=X, y=y)
    # a classifier on a continuous target fails; the main process reports such errors itself
    _fit_each(str(path), ["decision_tree_regressor", "decision_tree_classifier", "no_such_model"])


def test_tree_families_compile_in_the_background():
    families = {
        get_model(n).family for n in ("decision_tree_regressor", "gradient_boosting_classifier")
    }
    assert families <= BACKGROUND_FAMILIES


def test_compare_starts_the_warmup_only_on_a_cold_cache(monkeypatch, capsys):
    started = []
    monkeypatch.setattr(_main, "_start_warmup", lambda *a: started.append(a) or None)
    monkeypatch.setattr(_main, "_kernels_cold", lambda: False)
    assert _main.main(["compare", "--quiet", "--models", "linear_regression", "--cv", "3"]) == 0
    assert not started
    monkeypatch.setattr(_main, "_kernels_cold", lambda: True)
    assert _main.main(["compare", "--quiet", "--models", "linear_regression", "--cv", "3"]) == 0
    assert len(started) == 1
    assert "first run" in capsys.readouterr().out
