"""Small quadratic programs: exact active-set enumeration and the KKT conditions of a point.

The problem, in the standard form every function here takes, is

.. math::

    \\min_x \\tfrac12 x^\\top Q x + c^\\top x
    \\quad\\text{s.t.}\\quad G x \\le h,\\; E x = e

(bounds are rows of ``G``), with the Lagrangian
:math:`L = f(x) + \\lambda^\\top (Gx - h) + \\mu^\\top (Ex - e)`, :math:`\\lambda \\ge 0`.

:func:`enumerate_active_sets` finds the global minimum of a QP whose feasible region is
bounded, whether or not ``Q`` is positive semi-definite: a minimiser is a stationary point of
``f`` on the affine set of its active constraints, and that set is cut out by linearly
independent active rows, so solving the equality-constrained KKT system of every set of at
most ``n − rank(E)`` inequality rows and keeping the best feasible solution finds it (where a
face's stationary points form an affine set, ``f`` is constant on it and a point of it with one
more active constraint is found with that constraint's set, as the region is bounded).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np
from scipy import linalg, optimize

__all__ = [
    "KKTReport",
    "count_active_sets",
    "enumerate_active_sets",
    "kkt_report",
    "polish_active_set",
    "region_is_bounded",
]

#: Default cap on the active sets :func:`enumerate_active_sets` may solve.
MAX_ACTIVE_SETS = 2**16


def _scale(*arrays) -> float:
    return max([1.0] + [float(np.max(np.abs(a))) for a in arrays if a.size])


def feasibility_tol(G, h, E, e, x) -> float:
    """Absolute tolerance on constraint violations at ``x``: ``1e-9`` relative to the data."""
    return 1e-9 * _scale(G, h, E, e, x)


def violation(G, h, E, e, x) -> float:
    """Largest violation of ``Gx ≤ h`` and ``Ex = e`` (0 when feasible)."""
    v = 0.0
    if G.shape[0]:
        v = max(v, float(np.max(G @ x - h)))
    if E.shape[0]:
        v = max(v, float(np.max(np.abs(E @ x - e))))
    return v


def _kkt_solve(Q, c, A, b):
    """A stationary point of ``f`` on ``{A x = b}`` and its multipliers (least squares, minimum
    norm when the KKT matrix is singular); ``None`` when the system is inconsistent."""
    n = Q.shape[0]
    k = A.shape[0]
    K = np.zeros((n + k, n + k))
    K[:n, :n] = Q
    K[:n, n:] = A.T
    K[n:, :n] = A
    rhs = np.concatenate([-c, b])
    sol, _, rank, _ = linalg.lstsq(K, rhs, cond=None, check_finite=False, lapack_driver="gelsd")
    if not np.all(np.isfinite(sol)):
        return None
    if rank < n + k:
        resid = np.max(np.abs(K @ sol - rhs)) if rhs.size else 0.0
        if resid > 1e-9 * _scale(K, rhs, sol):
            return None
    return sol[:n], sol[n:]


def count_active_sets(m: int, size: int) -> int:
    """Number of sets of at most ``size`` of ``m`` inequality rows."""
    return sum(math.comb(m, k) for k in range(min(m, size) + 1))


def _lp(cost, G, h, E, e, bounds=None):
    return optimize.linprog(
        cost,
        A_ub=G if G.shape[0] else None,
        b_ub=h if G.shape[0] else None,
        A_eq=E if E.shape[0] else None,
        b_eq=e if E.shape[0] else None,
        bounds=[(None, None)] * cost.size if bounds is None else bounds,
        method="highs",
    )


def region_is_feasible(G, h, E, e, n) -> bool:
    """Whether ``{Gx ≤ h, Ex = e}`` has a point (a linear program, HiGHS)."""
    return _lp(np.zeros(n), G, h, E, e).status != 2


def region_is_bounded(G, h, E, e, n) -> bool:
    """Whether the (feasible) region ``{Gx ≤ h, Ex = e}`` is bounded: no coordinate is
    unbounded above or below (2n linear programs)."""
    for j in range(n):
        for sign in (1.0, -1.0):
            direction = np.zeros(n)
            direction[j] = sign
            if _lp(direction, G, h, E, e).status == 3:
                return False
    return True


def convex_unbounded(Q, c, G, E) -> bool:
    """Whether a convex QP with a feasible region is unbounded below: some recession
    direction ``d`` (``Gd ≤ 0``, ``Ed = 0``) has zero curvature (``Qd = 0``) and descends
    (``cᵀd < 0``), a linear program over ``‖d‖∞ ≤ 1``."""
    n = c.size
    zeros = np.zeros
    res = _lp(c, G, zeros(G.shape[0]), np.vstack([E, Q]), zeros(E.shape[0] + n),
              bounds=[(-1.0, 1.0)] * n)  # fmt: skip
    return bool(res.status == 0 and res.fun < -1e-9 * max(1.0, float(np.max(np.abs(c)))))


def enumerate_active_sets(Q, c, G, h, E, e, max_sets=MAX_ACTIVE_SETS, convex=False):
    """Global minimiser of a QP with a bounded feasible region, by active-set enumeration.

    With ``convex=True`` (``Q`` PSD, the problem bounded below) the first KKT point found
    (feasible, non-negative multipliers) is returned: it is a global minimiser, and the
    feasible region may then be unbounded.

    Parameters
    ----------
    Q : ndarray of shape (n, n)
        Symmetric, any inertia.
    c : ndarray of shape (n,)
    G, h, E, e : ndarrays
        ``G x ≤ h`` (bounds included) and ``E x = e``.
    max_sets : int
        Refuse (``ValueError``) a problem with more candidate active sets than this.
    convex : bool
        Stop at the first KKT point.

    Returns
    -------
    x : ndarray of shape (n,) or None
        The best feasible stationary point (``None`` when there is none: infeasible).
    n_sets : int
        Active sets solved.
    """
    n = Q.shape[0]
    m = G.shape[0]
    rank_e = int(np.linalg.matrix_rank(E)) if E.shape[0] else 0
    size = n - rank_e
    total = count_active_sets(m, size)
    if total > max_sets:
        raise ValueError(
            f"active-set enumeration would solve {total} systems ({m} inequality constraints "
            f"and bounds, up to {size} active), more than the limit of {max_sets}; give a "
            "convex problem (Q positive semi-definite) to method='highs', or fewer constraints."
        )
    best_x = None
    best_f = np.inf
    n_sets = 0
    for k in range(min(m, size) + 1):
        for rows in itertools.combinations(range(m), k):
            idx = list(rows)
            A = np.vstack([G[idx], E]) if E.shape[0] else G[idx]
            b = np.concatenate([h[idx], e])
            n_sets += 1
            solved = _kkt_solve(Q, c, A.reshape(-1, n), b)
            if solved is None:
                continue
            x = solved[0]
            if violation(G, h, E, e, x) > feasibility_tol(G, h, E, e, x):
                continue
            if convex:
                if np.all(solved[1][:k] >= -1e-9 * _scale(solved[1], c)):
                    return x, n_sets
                continue
            f = 0.5 * x @ Q @ x + c @ x
            # ties (within rounding) keep the first point found: the fewest active rows
            if best_x is None or f < best_f - 1e-12 * max(1.0, abs(best_f)):
                best_f = f
                best_x = x
    return best_x, n_sets


def polish_active_set(Q, c, G, h, E, e, x):
    """The exact stationary point on the constraints active at ``x`` when it is at least as
    good and feasible (a solver's answer to rounding made exact), else ``x``."""
    tol = 1e-7 * _scale(G, h, E, e, x)
    active = np.flatnonzero(G @ x - h >= -tol) if G.shape[0] else np.empty(0, dtype=np.intp)
    A = np.vstack([G[active], E])
    b = np.concatenate([h[active], e])
    solved = _kkt_solve(Q, c, A.reshape(-1, x.size), b)
    if solved is None:
        return x
    cand = solved[0]
    f = 0.5 * x @ Q @ x + c @ x
    fc = 0.5 * cand @ Q @ cand + c @ cand
    ok = violation(G, h, E, e, cand) <= feasibility_tol(G, h, E, e, cand)
    return cand if ok and fc <= f + 1e-12 * max(1.0, abs(f)) else x


@dataclass
class KKTReport:
    """Multipliers and KKT residuals of a point (standard form).

    Attributes
    ----------
    lam : ndarray of shape (m,)
        Multipliers of ``G x ≤ h`` (non-negative; zero on inactive rows).
    mu : ndarray of shape (p,)
        Multipliers of ``E x = e``.
    stationarity : float
        ``‖Qx + c + Gᵀλ + Eᵀμ‖∞``.
    primal_feasibility : float
        Largest violation of the constraints.
    dual_feasibility : float
        ``max(0, −min λ)`` (0 by construction here).
    complementary_slackness : float
        ``max_i |λ_i (Gx − h)_i|``.
    """

    lam: np.ndarray
    mu: np.ndarray
    stationarity: float
    primal_feasibility: float
    dual_feasibility: float
    complementary_slackness: float


def kkt_report(Q, c, G, h, E, e, x) -> KKTReport:
    """Multipliers of the point ``x`` and its KKT residuals.

    The multipliers minimise the stationarity residual ``‖Qx + c + G_Aᵀλ_A + Eᵀμ‖₂`` over
    ``λ_A ≥ 0`` on the rows ``A`` active at ``x`` (a bounded least-squares problem, SciPy's
    ``lsq_linear``); inactive rows get ``λ = 0``. At a KKT point the residual is zero; where the
    multipliers are not unique (dependent active rows), one solution is returned.
    """
    n = x.size
    grad = Q @ x + c
    slack = G @ x - h if G.shape[0] else np.empty(0)
    tol = 1e-7 * _scale(G, h, E, e, x)
    active = np.flatnonzero(slack >= -tol)
    lam = np.zeros(G.shape[0])
    mu = np.zeros(E.shape[0])
    k = active.size
    if k + E.shape[0]:
        M = np.vstack([G[active], E]).T.reshape(n, -1)
        lower = np.concatenate([np.zeros(k), np.full(E.shape[0], -np.inf)])
        upper = np.full(k + E.shape[0], np.inf)
        fit = optimize.lsq_linear(M, -grad, bounds=(lower, upper), method="bvls", tol=1e-15)
        lam[active] = np.maximum(fit.x[:k], 0.0)
        mu = fit.x[k:]
    resid = grad + G.T @ lam + E.T @ mu
    return KKTReport(
        lam=lam,
        mu=mu,
        stationarity=float(np.max(np.abs(resid))) if n else 0.0,
        primal_feasibility=violation(G, h, E, e, x),
        dual_feasibility=float(max(0.0, -lam.min())) if lam.size else 0.0,
        complementary_slackness=float(np.max(np.abs(lam * slack))) if lam.size else 0.0,
    )
