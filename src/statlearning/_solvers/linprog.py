"""Least absolute deviations as a linear program, solved exactly by HiGHS.

The notes' LP (Artelt, §4.7.2, eq. 4.46), with prior weights ``w`` and an intercept, is

.. math::

    \\min_{\\theta, u, v} \\sum_i w_i (u_i + v_i)
    \\quad\\text{s.t.}\\quad a_i^\\top\\theta + u_i - v_i = y_i,\\; u, v \\ge 0,

with ``a_i = (1, x_i)`` and ``θ = (b0, β)`` free. Rows with zero weight do not constrain it and
are dropped. :func:`lad_linprog` hands :func:`scipy.optimize.linprog` (HiGHS interior point with
crossover) the *dual* of this LP,

.. math::

    \\max_d\\; y^\\top d \\quad\\text{s.t.}\\quad A^\\top d = 0,\\; -w \\le d \\le w,

which has ``n`` bounded variables and only ``k = p + 1`` equality constraints (the primal has
``2n + k`` variables and ``n`` constraints): the same optimum, found one to two orders of
magnitude faster. The primal solution is exact, not approximate: at the optimal dual vertex the
observations whose multiplier is strictly inside ``(−w_i, w_i)`` have zero residual
(complementary slackness), and ``θ`` is obtained by solving those ``k`` interpolation equations by
LU — the exact vertex to machine precision, as the Barrodale–Roberts simplex of R's
``quantreg::rq`` gives it.

Uniqueness: every primal optimum satisfies complementary slackness with this dual solution, so
the optimal set is the face ``{θ : r_i = 0 (|d_i| < w_i), r_i ≥ 0 (d_i = w_i), r_i ≤ 0
(d_i = −w_i)}``. It is a single point when the interpolated rows have rank ``k``. When more than
``k`` observations are interpolated the dual is degenerate and uniqueness is decided by strict
complementarity at the vertex (a small LP on the interpolated rows). A non-unique solution
(ties, collinear columns, ``p ≥ n``) is replaced by the point of the optimal face with the
smallest ``‖β‖₁`` (the intercept is not part of the norm), found by a second LP: a canonical
choice that does not depend on the order or the replication of the observations.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg, optimize, sparse

from ._result import SolverResult

__all__ = ["LADResult", "lad_linprog", "lad_vertex_certificate"]

_FREE_TOL = 1e-9  # |d_i| below (1 − this)·w_i: the dual variable is strictly inside its box


@dataclass
class LADResult(SolverResult):
    """:class:`SolverResult` of :func:`lad_linprog`.

    Attributes
    ----------
    x : ndarray of shape (p,)
        The slopes ``β``.
    intercept : float
        ``b0`` (``0.0`` without intercept).
    objective : float
        ``Σ w_i |y_i − b0 − x_iᵀβ|`` at the returned solution.
    unique : bool
        Whether the optimality conditions certify that the solution is unique.
    rank : int
        Rank of the design ``[1, X]`` over the rows with positive weight.
    message : str
        HiGHS's status message of the (last) LP.
    """

    intercept: float = 0.0
    objective: float = float("nan")
    unique: bool = True
    rank: int = 0
    message: str = ""


def _dual_lp(A, y, w):
    """HiGHS on the dual LP; returns the result, the dual ``d`` and the multipliers' ``θ``."""
    res = optimize.linprog(
        -y,
        A_eq=A.T,
        b_eq=np.zeros(A.shape[1]),
        bounds=np.column_stack([-w, w]),
        method="highs-ipm",
    )
    if res.status != 0 or res.x is None:
        return res, None, None
    return res, res.x, -np.asarray(res.eqlin.marginals, dtype=np.float64)


def _face_lp(A, y, d, w, free, off):
    """Smallest ``‖β‖₁`` on the optimal face defined by the dual solution ``d``."""
    k = A.shape[1]
    q = k - off
    pos = ~free & (d > 0)  # r_i ≥ 0, i.e. a_iᵀθ ≤ y_i
    neg = ~free & (d < 0)  # r_i ≤ 0, i.e. −a_iᵀθ ≤ −y_i

    def split(M):  # columns (intercept, β⁺, β⁻)
        return np.hstack([M[:, :off], M[:, off:], -M[:, off:]])

    A_ub = np.vstack([split(A[pos]), -split(A[neg])])
    b_ub = np.concatenate([y[pos], -y[neg]])
    c = np.concatenate([np.zeros(off), np.ones(2 * q)])
    res = optimize.linprog(
        c,
        A_ub=sparse.csr_matrix(A_ub) if A_ub.size else None,
        b_ub=b_ub if A_ub.size else None,
        A_eq=sparse.csr_matrix(split(A[free])) if free.any() else None,
        b_eq=y[free] if free.any() else None,
        bounds=[(None, None)] * off + [(0, None)] * (2 * q),
        method="highs",
    )
    if res.status != 0 or res.x is None:
        return res, None
    x = res.x
    return res, np.concatenate([x[:off], x[off : off + q] - x[off + q :]])


def _objective(A, y, w, theta) -> float:
    return float(w @ np.abs(y - A @ theta))


def _polish_face(A, y, w, d, free, theta, off):
    """Exact vertex of the face LP: solve its active constraints (zero residuals, zero slopes)."""
    r = y - A @ theta
    tol = 1e-9 * max(1.0, float(np.max(np.abs(y))))
    active = free | (np.abs(r) <= tol)
    scale = max(1.0, float(np.max(np.abs(theta))))
    zero = np.flatnonzero(np.abs(theta[off:]) <= 1e-9 * scale) + off
    E = np.zeros((zero.size, A.shape[1]))
    E[np.arange(zero.size), zero] = 1.0
    M = np.vstack([A[active], E])
    b = np.concatenate([y[active], np.zeros(zero.size)])
    # the nearest point satisfying the active constraints exactly (the vertex itself when they
    # determine it)
    cand = theta + linalg.lstsq(M, b - M @ theta, check_finite=False)[0]
    if not np.all(np.isfinite(cand)):
        return theta
    cand[zero] = 0.0
    rc = y - A @ cand
    feasible = (
        np.all(np.abs(rc[free]) <= tol)
        and np.all(rc[~free & (d > 0)] >= -tol)
        and np.all(rc[~free & (d < 0)] <= tol)
        and np.abs(cand[off:]).sum() <= np.abs(theta[off:]).sum() * (1 + 1e-9) + tol
    )
    return cand if feasible else theta


def _zero_residuals(A, y, theta):
    return np.abs(y - A @ theta) <= 1e-9 * max(1.0, float(np.max(np.abs(y))))


def _interpolate_zero_residuals(A, y, theta):
    """The exact vertex through the (numerically) zero residuals at ``theta``, if they fix it."""
    Z = _zero_residuals(A, y, theta)
    if np.linalg.matrix_rank(A[Z]) < A.shape[1]:
        return None
    return linalg.lstsq(A[Z], y[Z], check_finite=False)[0]


def _strictly_unique(A, y, w, theta) -> bool:
    """Whether the optimal vertex ``theta`` is the unique LAD solution.

    With ``Z`` the zero residuals and ``g = −Σ_{i∉Z} w_i sign(r_i) a_i``, the solution is unique
    exactly when ``A_Z`` has full column rank and some multipliers ``s`` with
    ``A_Zᵀ (w_Z ∘ s) = g`` lie strictly inside ``(−1, 1)`` (strict complementarity; otherwise
    an edge of optimal points leaves the vertex). Checked by the small LP
    ``max t  s.t.  A_Zᵀ (w_Z ∘ s) = g,  |s_i| ≤ 1 − t``.
    """
    k = A.shape[1]
    Z = _zero_residuals(A, y, theta)
    m = int(Z.sum())
    if m < k or np.linalg.matrix_rank(A[Z]) < k:
        return False
    r = y - A @ theta
    g = -(A[~Z].T @ (w[~Z] * np.sign(r[~Z])))
    A_eq = np.hstack([(A[Z] * w[Z, None]).T, np.zeros((k, 1))])
    eye = np.eye(m)
    A_ub = np.vstack([np.hstack([eye, np.ones((m, 1))]), np.hstack([-eye, np.ones((m, 1))])])
    c = np.zeros(m + 1)
    c[-1] = -1.0
    res = optimize.linprog(
        c, A_ub=A_ub, b_ub=np.ones(2 * m), A_eq=A_eq, b_eq=g,
        bounds=[(None, None)] * m + [(None, 1.0)], method="highs",
    )
    return bool(res.status == 0 and -res.fun > 1e-9)


def lad_linprog(X, y, *, sample_weight=None, fit_intercept=True) -> LADResult:
    """Least absolute deviations by linear programming; see the module docstring.

    Parameters
    ----------
    X : ndarray of shape (n, p)
    y : ndarray of shape (n,)
    sample_weight : ndarray of shape (n,), optional
        Non-negative prior weights (at least one positive).
    fit_intercept : bool, default=True

    Returns
    -------
    LADResult
        ``converged`` is False when HiGHS did not report an optimal solution; ``n_iter`` counts
        the iterations of the LP(s).
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    w = np.ones(X.shape[0]) if sample_weight is None else np.asarray(sample_weight, np.float64)
    keep = w > 0
    A = X[keep] if not fit_intercept else np.hstack([np.ones((int(keep.sum()), 1)), X[keep]])
    y, w = y[keep], w[keep]
    off = 1 if fit_intercept else 0
    k = A.shape[1]
    rank = int(np.linalg.matrix_rank(A)) if A.size else 0
    res, d, theta = _dual_lp(A, y, w)
    n_iter = int(getattr(res, "nit", 0) or 0)
    message = str(res.message)
    if theta is None:
        theta = np.zeros(k)
        f = _objective(A, y, w, theta)
        return LADResult(theta[off:], n_iter, False, [f], 0.0, f, False, rank, message)
    optimum = -float(res.fun)
    slack = 1e-9 * max(abs(optimum), 1e-6 * float(w @ np.abs(y)), 1e-300)
    free = np.abs(d) < (1.0 - _FREE_TOL) * w
    unique = bool(free.any() and np.linalg.matrix_rank(A[free]) == k)
    if unique:  # the face {A_F θ = y_F, ...} is a single point
        cand = linalg.lstsq(A[free], y[free], check_finite=False)[0]
        if _objective(A, y, w, cand) <= optimum + slack:
            theta = cand
    else:
        # primal-degenerate vertices have a degenerate dual: certify uniqueness directly
        cand = _interpolate_zero_residuals(A, y, theta)
        if cand is not None and _objective(A, y, w, cand) <= optimum + slack:
            theta = cand
            unique = _strictly_unique(A, y, w, theta)
    if not unique and k > off:
        res2, theta2 = _face_lp(A, y, d, w, free, off)
        n_iter += int(getattr(res2, "nit", 0) or 0)
        if theta2 is not None:
            theta2 = _polish_face(A, y, w, d, free, theta2, off)
            if _objective(A, y, w, theta2) <= optimum + slack:
                theta = theta2
                message = str(res2.message)
    f = _objective(A, y, w, theta)
    intercept = float(theta[0]) if off else 0.0
    return LADResult(theta[off:].copy(), n_iter, True, [f], intercept, f, unique, rank, message)


def lad_vertex_certificate(X, y, params, *, sample_weight=None, fit_intercept=True):
    """Turn an approximate LAD solution into the exact optimal vertex, when it certifies one.

    The ``k`` observations with the smallest absolute residuals at ``params`` (intercept first
    when fitted) are interpolated exactly; the vertex is optimal when the multipliers ``s_B`` of
    its optimality conditions, ``A_Bᵀ (w_B ∘ s_B) = −Σ_{i∉B} w_i sign(r_i) a_i``, satisfy
    ``|s_B| ≤ 1`` (the subgradient of ``Σ w|r|`` then contains zero).

    Returns
    -------
    params : ndarray or None
        The exact optimal vertex, or ``None`` when the certificate fails (``params`` is not yet
        close enough to the optimum, or the optimum is degenerate).
    """
    X = np.asarray(X, dtype=np.float64)
    w = np.ones(X.shape[0]) if sample_weight is None else np.asarray(sample_weight, np.float64)
    keep = w > 0
    A = X[keep] if not fit_intercept else np.hstack([np.ones((int(keep.sum()), 1)), X[keep]])
    y, w = np.asarray(y, dtype=np.float64)[keep], w[keep]
    k = A.shape[1]
    if k == 0 or y.size < k:
        return None
    r = y - A @ params
    basis = np.argsort(np.abs(r), kind="stable")[:k]
    try:
        theta = linalg.solve(A[basis], y[basis], check_finite=False)
    except (linalg.LinAlgError, ValueError):
        return None
    r = y - A @ theta
    off_basis = np.ones(y.size, bool)
    off_basis[basis] = False
    tol = 1e-12 * max(1.0, float(np.max(np.abs(y))))
    if np.any(np.abs(r[off_basis]) <= tol):  # degenerate vertex: no simple certificate
        return None
    rhs = -(A[off_basis].T @ (w[off_basis] * np.sign(r[off_basis])))
    try:
        m = linalg.solve(A[basis].T, rhs, check_finite=False)
    except (linalg.LinAlgError, ValueError):
        return None
    if np.all(np.abs(m) <= w[basis] * (1.0 + 1e-12)):
        return theta
    return None
