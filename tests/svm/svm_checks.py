"""Shared checks of the SVM tests: the dual of each binary problem, its KKT conditions, and the
exact optimum of a solution's active set re-solved in double precision."""

from __future__ import annotations

import numpy as np


def pair_coefficients(clf, a, b):
    """Signed coefficients ``y_i α_i`` (libsvm's sign: class ``a`` is +1) of pair ``(a, b)``
    over the support vectors of the two classes, with those vectors' indices."""
    starts = np.concatenate([[0], np.cumsum(clf.n_support_)])
    coef = clf.dual_coef_ if len(clf.classes_) > 2 else -clf.dual_coef_
    sa = slice(starts[a], starts[a + 1])
    sb = slice(starts[b], starts[b + 1])
    beta = np.concatenate([coef[b - 1, sa], coef[a, sb]])
    index = np.concatenate([clf.support_[sa], clf.support_[sb]])
    return beta, index


def exact_on_active_set(K, target, beta, upper, tol=0.0):
    """Re-solve the dual's KKT system on the free set of ``beta`` in double precision.

    The free coefficients (``0 < |β_i| < upper_i``) and the intercept solve
    ``K_FF β_F + b = target_F − K_FB β_B``, ``Σ β_F = −Σ β_B`` with the others held at their
    values (0 or ±upper). Returns ``(beta_exact, b)``, or None when the system is singular
    (more free support vectors than the feature space has dimensions: the linear kernel in
    two dimensions), where the optimum is not unique in ``β``.
    """
    free = (beta != 0) & (np.abs(beta) < upper * (1 - 1e-12))
    F = np.flatnonzero(free)
    B = np.flatnonzero(~free)
    n = F.size
    A = np.zeros((n + 1, n + 1))
    A[:n, :n] = K[np.ix_(F, F)]
    A[:n, n] = 1.0
    A[n, :n] = 1.0
    rhs = np.concatenate([target[F] - K[np.ix_(F, B)] @ beta[B], [-beta[B].sum()]])
    if np.linalg.cond(A) > 1e12:
        return None
    sol = np.linalg.solve(A, rhs)
    exact = beta.copy()
    exact[F] = sol[:n]
    return exact, sol[n]


def assert_classifier_kkt(K, y_pm, beta, b, upper, tol):
    """Seed 002's KKT conditions (8.25)–(8.33) of the soft-margin SVM at ``(β = yα, b)``."""
    alpha = y_pm * beta
    assert np.all(alpha >= 0) and np.all(alpha <= upper * (1 + 1e-12))
    assert abs(beta.sum()) <= 1e-9 * max(1.0, np.abs(beta).sum())
    margin = y_pm * (K @ beta + b)
    at_zero = alpha == 0
    at_bound = alpha >= upper * (1 - 1e-12)
    free = ~at_zero & ~at_bound
    assert np.all(margin[at_zero] >= 1 - tol)
    assert np.all(np.abs(margin[free] - 1) <= tol)
    assert np.all(margin[at_bound] <= 1 + tol)


def assert_regressor_kkt(K, y, beta, b, upper, epsilon, tol):
    """KKT conditions of the ε-SVR dual (seed 002 (9.13)–(9.14)) at ``(β, b)``."""
    assert np.all(np.abs(beta) <= upper * (1 + 1e-12))
    assert abs(beta.sum()) <= 1e-9 * max(1.0, np.abs(beta).sum())
    resid = y - (K @ beta + b)  # inside the tube where β = 0, on its edge where free
    zero = beta == 0
    bound = np.abs(beta) >= upper * (1 - 1e-12)
    free = ~zero & ~bound
    assert np.all(np.abs(resid[zero]) <= epsilon + tol)
    assert np.all(np.abs(resid[free] - np.sign(beta[free]) * epsilon) <= tol)
    assert np.all(np.sign(beta[bound]) * resid[bound] >= epsilon - tol)


def active_set_residual(K, target, beta, b, upper):
    """Largest residual of the free set's KKT equations at ``(β, b)``."""
    free = (beta != 0) & (np.abs(beta) < upper * (1 - 1e-12))
    res = K[free] @ beta + b - target[free]
    return max(np.abs(res).max(initial=0.0), abs(beta.sum()))
