"""Quadratic programming for small problems, with a report of the KKT conditions."""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from .._core.linalg import symmetric_eigh
from .._solvers.qp import (
    MAX_ACTIVE_SETS,
    convex_unbounded,
    enumerate_active_sets,
    kkt_report,
    polish_active_set,
    region_is_bounded,
    region_is_feasible,
)

__all__ = ["QPResult", "solve_qp"]

_METHODS = ("auto", "highs", "enumerate")


@dataclass
class QPResult:
    """Solution of :func:`solve_qp` and its optimality (KKT) report.

    Returned by :func:`solve_qp`.

    Parameters
    ----------
    x : ndarray of shape (n,)
        The minimiser (NaN when ``status`` is not ``"optimal"``).
    fun : float
        :math:`\\tfrac12 x^\\top Q x + c^\\top x` at ``x``.
    status : {"optimal", "infeasible", "unbounded", "failed"}
        Outcome; ``success`` is ``status == "optimal"``.
    success : bool
    method : {"highs", "enumerate"}
        The method used.
    convex : bool
        Whether ``Q`` is positive semi-definite (its smallest eigenvalue is
        ``min_eigenvalue``): a local minimum is then global.
    min_eigenvalue : float
        Smallest eigenvalue of the symmetric part of ``Q``.
    multipliers : dict of ndarray, default={}
        Lagrange multipliers: ``"ineq"`` (shape (m_ub,), of ``A_ub x ≤ b_ub``, ≥ 0), ``"eq"``
        (shape (m_eq,), of ``A_eq x = b_eq``, any sign), ``"lower"`` and ``"upper"`` (shape
        (n,), of the bounds ``x ≥ lower`` and ``x ≤ upper``, ≥ 0; 0 for infinite bounds).
    kkt : dict of float, default={}
        Residuals of the KKT conditions at ``x``: ``"stationarity"``
        (:math:`\\|\\nabla_x L\\|_\\infty`), ``"primal_feasibility"`` (largest constraint
        violation), ``"dual_feasibility"`` (largest negative inequality multiplier) and
        ``"complementary_slackness"`` (:math:`\\max_i |\\lambda_i s_i|`, :math:`s_i` the
        constraint's slack).
    dual_fun : float, default=nan
        The Lagrangian at ``(x, multipliers)``, which equals the dual function
        :math:`g(\\lambda, \\mu) = \\min_x L` when ``Q`` is PSD and stationarity holds
        (weak duality: ``dual_fun ≤ fun``; zero gap at the optimum); NaN otherwise.
    n_active_sets : int, default=0
        Active sets solved by ``method="enumerate"`` (0 for HiGHS).
    message : str, default=""
        The solver's status message.
    """

    x: np.ndarray
    fun: float
    status: str
    success: bool
    method: str
    convex: bool
    min_eigenvalue: float
    multipliers: dict = field(default_factory=dict)
    kkt: dict = field(default_factory=dict)
    dual_fun: float = float("nan")
    n_active_sets: int = 0
    message: str = ""


def _matrix(value, name, n_cols, allow_none=True):
    if value is None:
        if not allow_none:
            raise ValueError(f"{name} is required.")
        return np.zeros((0, n_cols))
    arr = np.asarray(value, dtype=np.float64)
    if arr.ndim == 1 and n_cols is not None and arr.size == n_cols:
        arr = arr.reshape(1, -1)
    if arr.ndim != 2 or (n_cols is not None and arr.shape[1] != n_cols):
        raise ValueError(f"{name} must have shape (m, {n_cols}); got {np.shape(value)}.")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinity.")
    return arr


def _vector(value, name, size):
    arr = np.asarray(value, dtype=np.float64).reshape(-1)
    if arr.size != size:
        raise ValueError(f"{name} must have {size} entries; got shape {np.shape(value)}.")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinity.")
    return arr


def _bounds(bounds, n):
    """``(lower, upper)`` arrays from None, one ``(lo, hi)`` pair or ``n`` pairs."""
    lower = np.full(n, -np.inf)
    upper = np.full(n, np.inf)
    if bounds is None:
        return lower, upper
    try:
        pairs = list(bounds)
        if len(pairs) == 2 and all(b is None or np.isscalar(b) for b in pairs):
            pairs = [tuple(pairs)] * n
        if len(pairs) != n or any(len(p) != 2 for p in pairs):
            raise TypeError
    except TypeError:
        raise ValueError(
            f"bounds must be None, one (lower, upper) pair or {n} pairs (None for no bound); "
            f"got {bounds!r}."
        ) from None
    for j, (lo, hi) in enumerate(pairs):
        lower[j] = -np.inf if lo is None else float(lo)
        upper[j] = np.inf if hi is None else float(hi)
        if np.isnan(lower[j]) or np.isnan(upper[j]) or lower[j] > upper[j]:
            raise ValueError(f"bounds[{j}] = {(lo, hi)!r}: need lower <= upper (no NaN).")
    return lower, upper


def _standard_form(A_ub, b_ub, A_eq, b_eq, lower, upper):
    """``G x ≤ h`` (inequalities, then finite lower bounds, then finite upper bounds)."""
    n = lower.size
    lo = np.flatnonzero(np.isfinite(lower))
    hi = np.flatnonzero(np.isfinite(upper))
    eye = np.eye(n)
    G = np.vstack([A_ub, -eye[lo], eye[hi]])
    h = np.concatenate([b_ub, -lower[lo], upper[hi]])
    return G, h, A_eq, b_eq, lo, hi


def _highs(Q, c, A_ub, b_ub, A_eq, b_eq, lower, upper):
    """``(status, x, message)`` from HiGHS's QP solver (convex problems)."""
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    inf = highspy.kHighsInf
    n = c.size
    A = sparse.csc_matrix(np.vstack([A_ub, A_eq]).reshape(-1, n))
    model = highspy.HighsModel()
    lp = model.lp_
    lp.num_col_ = n
    lp.num_row_ = A.shape[0]
    lp.col_cost_ = c
    lp.col_lower_ = np.where(np.isfinite(lower), lower, -inf)
    lp.col_upper_ = np.where(np.isfinite(upper), upper, inf)
    lp.row_lower_ = np.concatenate([np.full(b_ub.size, -inf), b_eq])
    lp.row_upper_ = np.concatenate([b_ub, b_eq])
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = A.indptr.astype(np.int32)
    lp.a_matrix_.index_ = A.indices.astype(np.int32)
    lp.a_matrix_.value_ = A.data
    H = sparse.csc_matrix(np.tril(Q))
    if H.nnz:
        model.hessian_.dim_ = n
        model.hessian_.format_ = highspy.HessianFormat.kTriangular
        model.hessian_.start_ = H.indptr.astype(np.int32)
        model.hessian_.index_ = H.indices.astype(np.int32)
        model.hessian_.value_ = H.data
    h.passModel(model)
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    if status == "Optimal":
        return "optimal", np.asarray(h.getSolution().col_value, dtype=np.float64), status
    if status == "Infeasible":
        return "infeasible", None, status
    if status in ("Unbounded", "Primal unbounded"):
        return "unbounded", None, status
    if status == "Primal infeasible or unbounded":
        return "infeasible or unbounded", None, status
    return "failed", None, status


def solve_qp(Q, c, A_ub=None, b_ub=None, A_eq=None, b_eq=None, bounds=None, method="auto"):
    """Minimise a quadratic function under linear constraints, and report the KKT conditions.

    Parameters
    ----------
    Q : array-like of shape (n, n)
        The quadratic term; only its symmetric part :math:`(Q + Q^\\top)/2` matters and is
        used. Positive semi-definite for a convex problem; any symmetric matrix with
        ``method="enumerate"``.
    c : array-like of shape (n,)
    A_ub : array-like of shape (m_ub, n), default=None
    b_ub : array-like of shape (m_ub,), default=None
        Inequalities :math:`A_{ub} x \\le b_{ub}`.
    A_eq : array-like of shape (m_eq, n), default=None
    b_eq : array-like of shape (m_eq,), default=None
        Equalities :math:`A_{eq} x = b_{eq}`.
    bounds : None, (lower, upper) or sequence of n (lower, upper), default=None
        Bounds on ``x`` (``None`` for no bound). ``None`` leaves every variable free (unlike
        :func:`scipy.optimize.linprog`, whose default is ``x ≥ 0``).
    method : {"auto", "highs", "enumerate"}, default="auto"
        ``"highs"``: HiGHS's active-set QP solver (convex problems; needs the optional
        package ``highspy``), its point polished on its active constraints. ``"enumerate"``:
        exact enumeration of the active sets (any ``Q``; for an indefinite ``Q`` the feasible
        region must be bounded; at most 65,536 active sets, e.g. 16 inequalities and
        bounds). ``"auto"``: HiGHS for a PSD ``Q`` when ``highspy`` is installed,
        enumeration otherwise.

    Returns
    -------
    QPResult
        The minimiser, its value, the multipliers of every constraint block and the KKT
        residuals.

    Raises
    ------
    ValueError
        For inputs of the wrong shape or with NaN, a non-convex problem given to HiGHS, or an
        enumeration over an unbounded region or beyond the size limit.
    ImportError
        ``method="highs"`` without ``highspy``.

    Notes
    -----
    The problem and its Lagrangian are

    .. math::

        \\min_x f(x) = \\tfrac12 x^\\top Q x + c^\\top x \\quad\\text{s.t.}\\quad
        A_{ub} x \\le b_{ub},\\; A_{eq} x = b_{eq},\\; l \\le x \\le u,

        L(x, \\lambda, \\mu, \\nu) = f(x) + \\lambda^\\top (A_{ub} x - b_{ub})
        + \\mu^\\top (A_{eq} x - b_{eq}) + \\nu_u^\\top (x - u) - \\nu_l^\\top (x - l),

    with :math:`\\lambda, \\nu_l, \\nu_u \\ge 0`. A point is optimal for a convex problem
    exactly when the KKT conditions hold: stationarity :math:`\\nabla_x L = 0`, primal and
    dual feasibility, and complementary slackness (seed 001 part 2, §A.5–A.6). The report
    gives each residual. The multipliers are recovered at the returned point by a bounded
    least-squares fit of stationarity over the active constraints, whatever the method.

    For an indefinite ``Q`` the KKT conditions are necessary only: enumeration solves the
    KKT system of every set of linearly independent active constraints and keeps the best
    feasible point, which is the global minimum when the feasible region is bounded (checked
    by linear programs). Its cost grows as :math:`\\sum_{k \\le n} \\binom{m}{k}` for
    :math:`m` inequalities and finite bounds. For a PSD ``Q`` it stops at the first KKT
    point (a global minimum); a convex problem is unbounded below exactly when a feasible
    direction of zero curvature descends, a linear program checked first. HiGHS prints its
    banner once per process.

    Examples
    --------
    Seed 001's E20, :math:`\\min x_1^2 + x_2^2` subject to :math:`2x_1 + 2x_2 \\ge 4`:

    >>> import numpy as np
    >>> from statlearning.optimize import solve_qp
    >>> res = solve_qp(2 * np.eye(2), [0, 0], A_ub=[[-2, -2]], b_ub=[-4], method="enumerate")
    >>> res.x.round(12), round(res.fun, 12), res.multipliers["ineq"].round(12)
    (array([1., 1.]), 2.0, array([1.]))
    >>> res.status, round(res.dual_fun, 12), max(res.kkt.values()) < 1e-12
    ('optimal', 2.0, True)
    """
    if method not in _METHODS:
        raise ValueError(f"method must be one of {', '.join(map(repr, _METHODS))}; got {method!r}.")
    Q = np.asarray(Q, dtype=np.float64)
    if Q.ndim != 2 or Q.shape[0] != Q.shape[1] or Q.shape[0] == 0:
        raise ValueError(f"Q must be a non-empty square matrix; got shape {np.shape(Q)}.")
    if not np.all(np.isfinite(Q)):
        raise ValueError("Q contains NaN or infinity.")
    n = Q.shape[0]
    Q = 0.5 * (Q + Q.T)
    c = _vector(c, "c", n)
    A_ub = _matrix(A_ub, "A_ub", n)
    A_eq = _matrix(A_eq, "A_eq", n)
    b_ub = _vector(np.zeros(0) if b_ub is None else b_ub, "b_ub", A_ub.shape[0])
    b_eq = _vector(np.zeros(0) if b_eq is None else b_eq, "b_eq", A_eq.shape[0])
    lower, upper = _bounds(bounds, n)
    G, h, E, e, lo, hi = _standard_form(A_ub, b_ub, A_eq, b_eq, lower, upper)

    eig = symmetric_eigh(Q, eigvals_only=True)
    min_eig = float(eig[0])
    convex = min_eig >= -1e-12 * max(1.0, float(np.max(np.abs(eig)))) * n
    if method == "auto":
        method = "highs" if convex and importlib.util.find_spec("highspy") else "enumerate"
    n_sets = 0
    if method == "highs":
        if not convex:
            raise ValueError(
                f"method='highs' solves convex problems only; Q has a negative eigenvalue "
                f"({min_eig:.4g}). Use method='enumerate' for a small non-convex problem."
            )
        if importlib.util.find_spec("highspy") is None:
            raise ImportError(
                "method='highs' needs the optional package highspy (pip install highspy); "
                "method='enumerate' solves small problems without it."
            )
        status, x, message = _highs(Q, c, A_ub, b_ub, A_eq, b_eq, lower, upper)
        if x is not None:
            x = polish_active_set(Q, c, G, h, E, e, x)
    else:
        x = None
        if not region_is_feasible(G, h, E, e, n):
            status, message = "infeasible", "the constraints have no feasible point"
        elif convex and convex_unbounded(Q, c, G, E):
            status, message = "unbounded", "a feasible direction of zero curvature descends"
        elif not convex and not region_is_bounded(G, h, E, e, n):
            raise ValueError(
                "method='enumerate' needs a bounded feasible region for a non-convex problem "
                f"(Q has the negative eigenvalue {min_eig:.4g}; it then finds the global "
                "minimum); this region is unbounded: add bounds."
            )
        else:
            x, n_sets = enumerate_active_sets(Q, c, G, h, E, e, MAX_ACTIVE_SETS, convex)
            status = "optimal" if x is not None else "failed"
            message = (f"first KKT point of {n_sets} active sets" if convex
                       else f"best of {n_sets} active sets")  # fmt: skip
    return _result(Q, c, G, h, E, e, lo, hi, x, status, method, convex, min_eig, n_sets,
                   message, n, A_ub.shape[0])  # fmt: skip


def _result(Q, c, G, h, E, e, lo, hi, x, status, method, convex, min_eig, n_sets, message, n,
            m_ub):  # fmt: skip
    if x is None or status != "optimal":
        nan = np.full(n, np.nan)
        return QPResult(nan, float("nan"), status, False, method, convex, min_eig,
                        n_active_sets=n_sets, message=message)  # fmt: skip
    rep = kkt_report(Q, c, G, h, E, e, x)
    lower = np.zeros(n)
    upper = np.zeros(n)
    lower[lo] = rep.lam[m_ub : m_ub + lo.size]
    upper[hi] = rep.lam[m_ub + lo.size :]
    fun = float(0.5 * x @ Q @ x + c @ x)
    kkt = {
        "stationarity": rep.stationarity,
        "primal_feasibility": rep.primal_feasibility,
        "dual_feasibility": rep.dual_feasibility,
        "complementary_slackness": rep.complementary_slackness,
    }
    dual = float("nan")
    if convex and rep.stationarity <= 1e-7 * max(1.0, float(np.max(np.abs(Q @ x + c)))):
        dual = fun
        if G.shape[0]:
            dual += float(rep.lam @ (G @ x - h))
        if E.shape[0]:
            dual += float(rep.mu @ (E @ x - e))
    multipliers = {"ineq": rep.lam[:m_ub], "eq": rep.mu, "lower": lower, "upper": upper}
    return QPResult(x, fun, "optimal", True, method, convex, min_eig, multipliers, kkt, dual,
                    n_sets, message)  # fmt: skip
