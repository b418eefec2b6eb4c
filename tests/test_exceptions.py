"""The shared warning helpers name the estimator by its class and the parameter to change."""

import sys
import warnings

import pytest

from statlearning.exceptions import (
    ConvergenceWarning,
    RankDeficientWarning,
    warn_aliased,
    warn_not_converged,
)


class _Solver:
    pass


class _SubSolver(_Solver):
    pass


def test_warn_not_converged_names_the_class_the_cap_and_the_remedy():
    def fit():  # stacklevel=2: the warning is attributed to the caller of fit
        warn_not_converged(_SubSolver(), "IRLS", max_iter=25, tol=1e-8, stacklevel=2)

    with pytest.warns(ConvergenceWarning) as record:
        here = sys._getframe().f_lineno + 1
        fit()
    assert str(record[0].message) == (
        "_SubSolver: IRLS did not converge in max_iter=25 iterations (tol=1e-08); "
        "increase max_iter."
    )
    assert (record[0].filename, record[0].lineno) == (__file__, here)
    expected = (
        r"^lasso_path: coordinate descent did not converge in max_iter=3 sweeps; increase "
        r"max_iter or raise tol\.$"
    )
    with pytest.warns(ConvergenceWarning, match=expected):
        warn_not_converged(
            "lasso_path", "coordinate descent", max_iter=3, unit="sweeps",
            advice="increase max_iter or raise tol",
        )  # fmt: skip


def test_by_default_warnings_point_at_the_users_line():
    import numpy as np

    from statlearning.cluster import KMeans
    from statlearning.naive_bayes import MultinomialNB

    X = np.random.default_rng(0).normal(size=(60, 2))
    with pytest.warns(ConvergenceWarning) as record:
        here = sys._getframe().f_lineno + 1
        KMeans(4, max_iter=1, n_init=1, random_state=0).fit(X)
    assert (record[0].filename, record[0].lineno) == (__file__, here)
    with pytest.warns(FutureWarning) as record:
        here = sys._getframe().f_lineno + 1
        MultinomialNB(class_prior=[0.5, 0.5]).fit(np.abs(X), [0, 1] * 30)
    assert (record[0].filename, record[0].lineno) == (__file__, here)


def test_warn_aliased_lists_the_terms_in_rs_words():
    with pytest.warns(RankDeficientWarning) as record:
        warn_aliased(_Solver(), ["wt2", "hp_plus_wt"])
    assert str(record[0].message) == (
        "_Solver: 2 coefficient(s) not defined because of singularities (aliased: wt2, "
        "hp_plus_wt); their coef_ entries are NaN and predict ignores them."
    )
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        warn_aliased("X", ["a"], consequence="the minimum-norm solution is returned")
    assert str(record[0].message).endswith("(aliased: a); the minimum-norm solution is returned.")
