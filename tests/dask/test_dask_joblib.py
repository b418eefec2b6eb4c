"""Embarrassingly parallel work on a Dask cluster through joblib's Dask backend.

Under ``joblib.parallel_config(backend="dask")`` the folds of ``cv_estimate``, the resamples of
``bootstrap`` and the trees of a random forest are computed on the workers of the local
cluster (the task stream shows them), and the results are those of the default backend for the
same ``random_state``, bit for bit.
"""

from __future__ import annotations

import joblib
import numpy as np
import pytest

from statlearning.ensemble import RandomForestClassifier, RandomForestRegressor
from statlearning.model_selection import bootstrap, cv_estimate
from statlearning.tree import DecisionTreeRegressor

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.dask


def data(n=150, p=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = X[:, 0] - 2.0 * X[:, 1] ** 2 + rng.normal(size=n)
    return X, y


def on_cluster(client, fn):
    """``fn()`` under the Dask backend, and the number of tasks the workers ran for it."""
    with distributed.get_task_stream(client) as stream:
        with joblib.parallel_config(backend="dask"):
            result = fn()
    return result, len(stream.data)


def test_cv_estimate_folds_run_on_the_cluster(client):
    X, y = data()

    def run():
        est = DecisionTreeRegressor(max_depth=3, random_state=0)
        return cv_estimate(est, X, y, cv=5, n_repeats=2, random_state=1)

    ref = run()
    got, tasks = on_cluster(client, run)
    assert tasks >= 1
    np.testing.assert_array_equal(got.scores, ref.scores)
    np.testing.assert_array_equal(got.fold_sizes, ref.fold_sizes)


def test_cv_estimate_n_jobs_one_stays_in_process(client):
    X, y = data()
    est = DecisionTreeRegressor(max_depth=2, random_state=0)
    got, tasks = on_cluster(client, lambda: cv_estimate(est, X, y, cv=3, n_jobs=1))
    assert tasks == 0
    np.testing.assert_array_equal(got.scores, cv_estimate(est, X, y, cv=3).scores)


def test_bootstrap_resamples_run_on_the_cluster(client):
    X, y = data(n=80)
    est = DecisionTreeRegressor(max_depth=2, random_state=0)

    def run():
        return bootstrap(est, X, y, n_resamples=40, random_state=3,
                         attribute="feature_importances_")  # fmt: skip

    ref = run()
    got, tasks = on_cluster(client, run)
    assert tasks >= 2  # the resamples are split into several batches
    np.testing.assert_array_equal(got.replicates, ref.replicates)
    np.testing.assert_array_equal(got.ci_low, ref.ci_low)


@pytest.mark.filterwarnings("ignore:.*no OOB prediction")
@pytest.mark.parametrize("cls", [RandomForestRegressor, RandomForestClassifier])
def test_forest_trees_grow_on_the_cluster(client, cls):
    X, y = data()
    if cls is RandomForestClassifier:
        y = (y > np.median(y)).astype(int)

    def run():
        return cls(n_estimators=8, oob_score=True, random_state=0).fit(X, y)

    ref = run()
    got, tasks = on_cluster(client, run)
    assert tasks >= 2  # joblib batches the trees into tasks
    np.testing.assert_array_equal(got.oob_prediction_ if cls is RandomForestRegressor
                                  else got.oob_decision_function_,
                                  ref.oob_prediction_ if cls is RandomForestRegressor
                                  else ref.oob_decision_function_)  # fmt: skip
    with joblib.parallel_config(backend="dask"):  # prediction writes into one array: threads
        pred = got.predict(X)
    np.testing.assert_array_equal(pred, ref.predict(X))


def test_compare_folds_run_on_the_cluster(client, monkeypatch):
    from statlearning._registry import get_model, load_families
    from statlearning.cli import _compare
    from statlearning.cli._progress import Progress

    load_families()
    monkeypatch.setattr(_compare, "PARALLEL_MIN_SECONDS", 0.0)  # every model's folds in parallel
    X, y = data()
    specs = [get_model("decision_tree_regressor")]
    splits, _ = _compare.make_splits(X, y, "regression", 4, 1, 0)

    def run():
        bar = Progress(len(splits) * 2, enabled=False)
        return _compare.cross_validate_models(
            X, y, specs, splits, "regression", bar, budget=300.0, jobs=2, seed=0
        )

    ref = run()
    got, tasks = on_cluster(client, run)
    assert tasks >= 2
    assert got.results[1].name == ref.results[1].name == "decision_tree_regressor"
    assert got.results[1].primary == ref.results[1].primary
