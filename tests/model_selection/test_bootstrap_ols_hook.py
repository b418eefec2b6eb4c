"""bootstrap's batched least-squares path is chosen by the estimator's
``_bootstrap_ols_design`` hook, not by its class."""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin

from statlearning.linear_model import LinearRegression, Ridge
from statlearning.model_selection import _bootstrap, bootstrap


class _OLSByHand(RegressorMixin, BaseEstimator):
    """Not a LinearRegression: least squares by lstsq, declaring the protocol."""

    def __init__(self, fit_intercept=True, declare=True):
        self.fit_intercept = fit_intercept
        self.declare = declare

    def _bootstrap_ols_design(self):
        return {"fit_intercept": self.fit_intercept} if self.declare else None

    def fit(self, X, y):
        A = np.column_stack([np.ones(len(X)), X]) if self.fit_intercept else X
        beta = np.linalg.lstsq(A, y, rcond=None)[0]
        self.intercept_ = beta[0] if self.fit_intercept else 0.0
        self.coef_ = beta[1:] if self.fit_intercept else beta
        return self


@pytest.fixture
def batched(monkeypatch):
    calls = []
    original = _bootstrap.ols.pairs_coefficients

    def spy(*args):
        calls.append(args[0].shape)
        return original(*args)

    monkeypatch.setattr(_bootstrap.ols, "pairs_coefficients", spy)
    return calls


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    return X, X @ [1.0, -2.0, 0.5] + 1.0 + rng.normal(size=60)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_the_hook_selects_the_batched_path_for_any_class(batched, fit_intercept):
    X, y = _data()
    kw = {"n_resamples": 50, "attribute": "coef_", "random_state": 1}
    ours = bootstrap(LinearRegression(fit_intercept=fit_intercept), X, y, **kw)
    assert len(batched) == 1
    by_hand = bootstrap(_OLSByHand(fit_intercept), X, y, **kw)
    assert len(batched) == 2 and batched[1] == (60, 3 + fit_intercept)
    np.testing.assert_allclose(by_hand.replicates, ours.replicates, rtol=1e-10, atol=1e-12)


def test_without_the_hook_every_resample_is_refitted(batched):
    X, y = _data()
    kw = {"n_resamples": 30, "attribute": "coef_", "random_state": 2}
    refit = bootstrap(_OLSByHand(declare=False), X, y, **kw)
    bootstrap(Ridge(alpha=1.0), X, y, **kw)
    assert batched == []
    fast = bootstrap(_OLSByHand(), X, y, **kw)
    assert len(batched) == 1
    np.testing.assert_allclose(fast.replicates, refit.replicates, rtol=1e-10, atol=1e-12)
    assert _bootstrap._ols_design(LinearRegression) is None  # a class is not an estimator
    assert _bootstrap._ols_design(lambda X, y: X.mean(axis=0)) is None
