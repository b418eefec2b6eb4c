"""scikit-learn's estimator checks over every public estimator (legacy checks on)."""

from __future__ import annotations

import warnings

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from statlearning.exceptions import NumericalWarning, RankDeficientWarning
from statlearning.linear_model import LinearRegression

# Every public estimator, in each configuration whose code path differs.
ESTIMATORS = [
    LinearRegression(),
    LinearRegression(solver="svd"),
    LinearRegression(solver="normal"),
    LinearRegression(solver="gd"),
    LinearRegression(fit_intercept=False),
]

# An entry here needs a reason a reader would accept. There are none.
EXPECTED_FAILED_CHECKS: dict = {}


@parametrize_with_checks(
    ESTIMATORS, expected_failed_checks=lambda est: EXPECTED_FAILED_CHECKS.get(type(est), {})
)
def test_sklearn_compatible_estimator(estimator, check):
    # The checks fit tiny and degenerate designs (1 sample, p > n) on purpose; our R-style
    # warnings about them are correct behaviour, not failures.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RankDeficientWarning)
        warnings.simplefilter("ignore", NumericalWarning)
        check(estimator)


def test_estimator_list_covers_public_api():
    """Every public estimator class of every registered family is in ESTIMATORS."""
    import importlib

    from sklearn.base import BaseEstimator

    from statlearning._registry import FAMILIES

    public = set()
    for family in FAMILIES:
        module = importlib.import_module(f"statlearning.{family}")
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, type) and issubclass(obj, BaseEstimator):
                public.add(name)
    covered = {type(e).__name__ for e in ESTIMATORS}
    assert public <= covered, f"estimators missing from the common checks: {public - covered}"


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_no_training_data_stored(estimator):
    """Fitted state is O(p²): nothing with a dimension of n_samples is kept."""
    import numpy as np

    rng = np.random.default_rng(0)
    n = 257  # a size no fitted attribute should have
    X = rng.normal(size=(n, 3))
    y = X @ [1.0, 2.0, 3.0] + rng.normal(size=n)
    est = estimator.fit(X, y)
    for name, value in vars(est).items():
        arr = np.asarray(value) if isinstance(value, np.ndarray | list) else None
        if arr is not None:
            assert n not in arr.shape, f"{name} has shape {arr.shape}"
