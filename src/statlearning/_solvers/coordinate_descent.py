"""Elastic-net coordinate descent: the Python driver around :mod:`._cd_kernels`.

:func:`enet_coordinate_descent` minimises, over ``β`` and an unpenalised intercept ``b₀``,

.. math::

    \\frac{1}{2\\sum_i w_i} \\sum_i w_i (y_i - b_0 - x_i^\\top\\beta)^2
    + \\alpha \\sum_j pf_j \\left(\\rho\\,|\\beta_j| + \\tfrac12 (1-\\rho)\\,\\beta_j^2\\right)

(``ρ = l1_ratio``, ``pf = penalty_factor``; with unit weights this is scikit-learn's
``ElasticNet`` objective and glmnet's gaussian objective with ``standardize = FALSE``).
:func:`enet_path` solves it along a decreasing grid of ``α`` with warm starts.

How (Friedman, Hastie & Tibshirani 2010, *J. Stat. Softw.* 33(1); the notes' Algorithm 2/3):

* **Intercept.** The intercept is profiled out exactly: ``X`` and ``y`` are centred at their
  weighted means, rows are scaled by ``√w``, and ``b₀ = ȳ_w − x̄_wᵀβ`` at the end.
* **Two kernels.** When ``n ≥ p`` and ``p ≤ 2000`` for a path (``p ≤ 500`` for a single fit,
  glmnet's threshold between its "covariance" and "naive" updates) the Gram matrix
  ``X_sᵀX_s`` is formed once (one BLAS product) and every update costs ``O(k)`` for ``k``
  working coordinates (covariance updates). Otherwise the kernel keeps the residual and an
  update costs ``O(n)``.
* **Working (active) set.** Sweeps cycle over the working set only, until the largest
  coefficient change in a sweep is at most ``tol`` times the largest coefficient
  (scikit-learn's inner criterion). Then the full gradient is computed: coordinates outside
  the set that violate their optimality condition ``|x_jᵀr| ≤ W α ρ pf_j`` join the set, and
  the sweeps resume. Along a path the set starts from the previous solution's support plus
  the sequential *strong rule* candidates (Tibshirani et al. 2012), with the previous solution
  as warm start.
* **Convergence: the duality gap** (as scikit-learn). The optimisation stops when no coordinate
  violates its condition and the duality gap of the objective above is at most
  ``tol · Σ w_i (y_i − ȳ_w)² / Σw`` (without an intercept, ``y`` is not centred). The gap
  bounds the distance of the objective from its minimum. It is evaluated in a form without
  cancellation (``Σ_j a_j|β_j| + s Σ_j (b_jβ_j² − β_j c_j) + ½(1 − s)² T``), so tolerances
  down to about ``1e-15`` are reachable. When the inner criterion is met but the gap is not,
  the inner threshold is divided by ten. ``max_iter`` caps the total number of sweeps (over
  the working set), which is what ``n_iter`` counts.

Coordinates with ``pf_j = 0`` are unpenalised. The gap treats them as it treats the intercept:
they are profiled out (the penalised part of the gap is computed on the data projected off
their columns) and the distance of the objective from its minimum over them given the others,
``½ c_Fᵀ G_FF⁺ c_F``, is added; with ``α = 0`` (least squares) that term is the whole,
exact, criterion. Columns that are constant (after centring, when an intercept is fitted) are
ignored: their coefficient stays 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import linalg

from .._core.linalg import gram
from .._core.penalties import enet_alpha_max
from ._cd_kernels import gram_sweeps, residual_sweeps
from ._result import SolverResult

__all__ = ["CDResult", "PathResult", "alpha_grid", "enet_coordinate_descent", "enet_path"]

#: Largest number of features for which the Gram (covariance) kernel is chosen automatically
#: (with ``n_samples >= n_features``).
GRAM_MAX_FEATURES = 2000
_MAX_SEED = 2**31 - 1


@dataclass
class CDResult(SolverResult):
    """:class:`SolverResult` of coordinate descent.

    Attributes
    ----------
    x : ndarray of shape (p,)
        The coefficients ``β`` (no intercept).
    intercept : float
        ``b₀`` (``0.0`` without an intercept).
    dual_gap : float
        Duality gap of the objective (on its own scale, i.e. divided by ``Σw``) at ``x``.
    """

    intercept: float = 0.0
    dual_gap: float = float("nan")


@dataclass
class PathResult:
    """Solutions of :func:`enet_path` along a grid of penalties.

    Attributes
    ----------
    alphas : ndarray of shape (k,)
        The penalties, in decreasing order.
    coefs : ndarray of shape (p, k)
    intercepts : ndarray of shape (k,)
    n_iter : ndarray of int, shape (k,)
    dual_gaps : ndarray of shape (k,)
    converged : ndarray of bool, shape (k,)
    """

    alphas: np.ndarray
    coefs: np.ndarray
    intercepts: np.ndarray
    n_iter: np.ndarray
    dual_gaps: np.ndarray
    converged: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))


# ------------------------------------------------------------------------------ the problem


class _Problem:
    """Centred, weighted least-squares data in the form one of the kernels needs."""

    def __init__(self, X, y, sample_weight, fit_intercept, gram, for_path):
        X = np.asarray(X, dtype=np.float64)
        y = np.asarray(y, dtype=np.float64)
        if X.ndim != 2 or y.ndim != 1 or X.shape[0] != y.shape[0]:
            raise ValueError(
                f"X must be 2-D and y 1-D of the same length; got {X.shape}, {y.shape}"
            )
        n, p = X.shape
        self.n_features = p
        weighted = sample_weight is not None
        w = np.ones(n) if not weighted else np.asarray(sample_weight, dtype=np.float64)
        self.total_weight = W = float(w.sum()) if weighted else float(n)
        if fit_intercept:
            self.xbar = (w @ X) / W  # a BLAS product: faster than X.sum(axis=0)
            self.ybar = float((w @ y) / W)
        else:
            self.xbar = np.zeros(p)
            self.ybar = 0.0
        yc = y - self.ybar
        self.ysq = float(w @ (yc * yc)) if weighted else float(yc @ yc)
        if gram is None:
            limit = GRAM_MAX_FEATURES if for_path else GRAM_MAX_FEATURES // 4
            gram = n >= p and p <= limit
        self.gram = bool(gram)
        if self.gram:
            self.G, self.q = _centred_gram(X, yc, w if weighted else None, self.xbar)
            nrm = np.diag(self.G).copy()
        else:
            self.X = _scaled_design(X, w if weighted else None, self.xbar, fit_intercept)
            self.ys = yc * np.sqrt(w) if weighted else yc
            self.q = self.X.T @ self.ys
            nrm = np.einsum("ij,ij->j", self.X, self.X)
        self._free_key = None
        self._free = None
        # numerically constant columns (relative to their size) are left out:
        # Σ w x² = Σ w (x − x̄)² + W x̄²
        self.usable = nrm > 1e-24 * (nrm + W * self.xbar**2)
        self.nrm = np.where(self.usable, nrm, 0.0)
        self.q = np.where(self.usable, self.q, 0.0)

    # the state is c = X_sᵀ r (Gram kernel) or the residual r (residual kernel)
    def initial_state(self, beta):
        if self.gram:
            return self.gradient(beta, None)
        r = self.ys - self.X @ beta if beta.any() else self.ys.copy()
        return r

    def gradient(self, beta, state):
        """Fresh ``c = X_sᵀ(y_s − X_sβ)`` over every coordinate."""
        if self.gram:
            nz = np.flatnonzero(beta)
            if 4 * nz.size >= beta.size:
                c = self.q - self.G @ beta
            else:
                c = self.q - beta[nz] @ self.G[nz] if nz.size else self.q.copy()
            if state is not None:
                state[:] = c
            return np.where(self.usable, c, 0.0)
        return np.where(self.usable, self.X.T @ state, 0.0)

    def sweeps(self, beta, state, a, b, working, max_sweeps, thr, seed):
        if self.gram:
            return gram_sweeps(self.G, state, beta, self.nrm, a, b, working, max_sweeps, thr, seed)
        return residual_sweeps(self.X, state, beta, self.nrm, a, b, working, max_sweeps, thr, seed)

    def rnorm2(self, beta, c, state):
        """``‖y_s − X_sβ‖²`` (``c`` the gradient at ``beta``)."""
        if self.gram:
            return max(self.ysq - float(beta @ (self.q + c)), 0.0)
        return float(state @ state)

    def free_block(self, columns):
        """``(X_Fᵀ X_s, (X_FᵀX_F)⁺)`` for the unpenalised columns ``F`` (cached), or ``None``
        when there are too many of them to form their Gram matrix."""
        key = columns.tobytes()
        if self._free_key != key:
            if not self.gram and columns.sum() > GRAM_MAX_FEATURES:
                return None
            cross = self.G[columns] if self.gram else self.X[:, columns].T @ self.X
            self._free = (cross, linalg.pinvh(cross[:, columns]))
            self._free_key = key
        return self._free

    def intercept(self, beta) -> float:
        return self.ybar - float(self.xbar @ beta)


def _centred_gram(X, yc, w, xbar):
    """``G = X_sᵀX_s`` and ``q = X_sᵀy_s`` of the centred, ``√w``-scaled data (the blocks of
    :func:`statlearning._core.linalg.gram` with ``yc`` as the extra column; ``xbar`` is the
    weighted mean, or zero without an intercept)."""
    p = X.shape[1]
    G = gram(
        X, sqrt_weights=None if w is None else np.sqrt(w), center=xbar, center_is_mean=True,
        extra=yc,
    )  # fmt: skip
    return G[:p, :p].copy(), G[:p, p].copy()


def _scaled_design(X, w, xbar, fit_intercept):
    """``X_s = √w (X − x̄)`` in Fortran order (``X`` itself when nothing changes)."""
    if w is None and not fit_intercept and X.flags.f_contiguous:
        return X
    Xs = np.empty(X.shape, order="F")
    np.subtract(X, xbar, out=Xs)
    if w is not None:
        Xs *= np.sqrt(w)[:, None]
    return Xs


# ------------------------------------------------------------------------------- the solver


def _penalty_weights(prob, alpha, l1_ratio, pf):
    scale = prob.total_weight * alpha
    a = scale * l1_ratio * pf
    b = scale * (1.0 - l1_ratio) * pf
    a[~prob.usable] = 0.0
    b[~prob.usable] = 0.0
    return a, b


def _duality_gap(prob, beta, c, state, a, b) -> float:
    """Duality gap of the ``W``-scaled objective (see the module docstring).

    Unpenalised coordinates ``F`` are profiled out: with ``δ = G_FF⁺ c_F`` the objective is
    ``½ c_Fᵀδ`` above its minimum over ``β_F`` (exactly), and the penalised coordinates see the
    problem projected off the columns ``F``: gradient ``c_P − G_PF δ`` and squared residual
    norm ``‖r‖² − c_Fᵀδ``.
    """
    usable = prob.usable
    free = usable & (a == 0) & (b == 0)
    pen = usable & ~free
    gap = 0.0
    rnorm2 = None
    if free.any():
        block = prob.free_block(free)
        if block is None:  # too many free columns to form their Gram: coordinate-wise bound
            gap += 0.5 * float(np.sum(c[free] ** 2 / prob.nrm[free]))
        else:
            cross, inverse = block  # X_Fᵀ X_s (f × p) and G_FF⁺
            delta = inverse @ c[free]
            drop = float(c[free] @ delta)
            gap += 0.5 * max(drop, 0.0)
            if pen.any():
                rnorm2 = max(prob.rnorm2(beta, c, state) - drop, 0.0)
            c = c - cross.T @ delta
    if not pen.any():
        return gap
    bp, cp, ap, bbp = beta[pen], c[pen], a[pen], b[pen]
    l1 = float(ap @ np.abs(bp))
    l2 = float(bbp @ (bp * bp))
    bc = float(bp @ cp)
    candidates = []
    if np.all(ap > 0):  # formulation A: scaled residual of the augmented least squares
        xta = np.abs(cp - bbp * bp)
        worst = float(np.max(xta / ap))
        s = 1.0 if worst <= 1.0 else 1.0 / worst
        total = 0.0
        if s < 1.0:  # (c is the projected gradient here: rnorm2 was taken before)
            total = (prob.rnorm2(beta, c, state) if rnorm2 is None else rnorm2) + l2
        candidates.append(0.5 * (1.0 - s) ** 2 * total + l1 + s * (l2 - bc))
    if np.all(bbp > 0):  # formulation B (Dünner et al. 2016): ridge part in the dual
        excess = np.maximum(np.abs(cp) - ap, 0.0)
        candidates.append(l1 + 0.5 * l2 - bc + float(np.sum(excess * excess / (2.0 * bbp))))
    return gap + max(min(candidates), 0.0)


def _seed(random_state) -> int:
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, _MAX_SEED))
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, _MAX_SEED))
    return int(np.random.default_rng(random_state).integers(0, _MAX_SEED))


def _solve(prob, beta, state, c, a, b, working, tol_rel, tol_abs, max_iter, rng):
    """Working-set coordinate descent at one penalty; updates ``beta`` and ``state``.

    Returns ``(n_iter, converged, gap, c)`` with ``c`` the fresh gradient at ``beta``.
    """
    usable = prob.usable
    in_set = np.zeros(prob.n_features, dtype=bool)
    in_set[working] = True
    in_set &= usable
    in_set |= usable & (a == 0)  # unpenalised / pure ridge coordinates are always updated
    thr = tol_rel
    n_iter = 0
    while True:
        violators = usable & ~in_set & (np.abs(c) > a)
        if violators.any():
            in_set |= violators
        else:
            gap = _duality_gap(prob, beta, c, state, a, b)
            if gap <= tol_abs:
                return n_iter, True, gap, c
            if n_iter > 0:
                thr *= 0.1
        if n_iter >= max_iter:
            return n_iter, False, _duality_gap(prob, beta, c, state, a, b), c
        seed = -1 if rng is None else _seed(rng)
        sweeps, change = prob.sweeps(
            beta, state, a, b, np.flatnonzero(in_set), max_iter - n_iter, thr, seed
        )
        n_iter += int(sweeps)
        c = prob.gradient(beta, state)
        if change == 0.0 and not (usable & ~in_set & (np.abs(c) > a)).any():
            # an exact fixed point: no coordinate moved and none violates, so more sweeps
            # cannot change β (with tol below rounding level the gap never reaches it)
            gap = _duality_gap(prob, beta, c, state, a, b)
            return n_iter, gap <= tol_abs, gap, c


def _alpha_max(c, W, l1_ratio, pf) -> float:
    return enet_alpha_max(-c / W, l1_ratio, pf) if l1_ratio > 0 else 0.0


def _factors(penalty_factor, p):
    if penalty_factor is None:
        return np.ones(p)
    pf = np.asarray(penalty_factor, dtype=np.float64)
    if pf.shape != (p,) or not np.all(np.isfinite(pf)) or np.any(pf < 0):
        raise ValueError(f"penalty_factor must be {p} finite non-negative numbers")
    return pf


def _random_state(selection, random_state):
    if selection not in ("cyclic", "random"):
        raise ValueError(f"selection must be 'cyclic' or 'random'; got {selection!r}")
    if selection == "cyclic":
        return None
    if isinstance(random_state, np.random.RandomState | np.random.Generator):
        return random_state
    return np.random.default_rng(random_state)


def enet_coordinate_descent(
    X,
    y,
    *,
    alpha,
    l1_ratio=1.0,
    sample_weight=None,
    fit_intercept=True,
    coef_init=None,
    intercept_init=None,
    penalty_factor=None,
    max_iter=1000,
    tol=1e-4,
    selection="cyclic",
    random_state=None,
    gram=None,
) -> CDResult:
    """Minimise the elastic-net objective of the module docstring at one ``alpha``.

    Parameters
    ----------
    X : ndarray of shape (n, p), float64, C or Fortran order
        Never modified.
    y : ndarray of shape (n,)
    alpha : float
        Overall penalty ``α ≥ 0``.
    l1_ratio : float, default=1.0
        ``ρ`` in ``[0, 1]``.
    sample_weight : ndarray of shape (n,), optional
        Non-negative weights (default ones); the loss is divided by their sum.
    fit_intercept : bool, default=True
    coef_init : ndarray of shape (p,), optional
        Warm start for ``β`` (default zeros).
    intercept_init : float, optional
        Accepted for symmetry with other solvers; the intercept is solved exactly given ``β``
        (profiled out), so it needs no starting value.
    penalty_factor : ndarray of shape (p,), optional
        Non-negative multipliers of each coefficient's penalty (default ones; 0 = unpenalised).
    max_iter : int, default=1000
        Cap on the number of sweeps.
    tol : float, default=1e-4
        Stop when the duality gap is at most ``tol · Σ w (y − ȳ_w)² / Σw``.
    selection : {"cyclic", "random"}, default="cyclic"
        Coordinate order within a sweep; ``"random"`` shuffles it before every sweep.
    random_state : int, RandomState or Generator, optional
        Seeds the shuffling of ``selection="random"``.
    gram : bool, optional
        Force the Gram (``True``) or the residual (``False``) kernel; ``None`` chooses.

    Returns
    -------
    CDResult
        ``x`` the coefficients, ``intercept``, ``dual_gap`` (objective scale), ``n_iter``
        (sweeps) and ``converged``.
    """
    del intercept_init  # profiled out: see the docstring
    prob = _Problem(X, y, sample_weight, fit_intercept, gram, for_path=False)
    p = prob.n_features
    pf = _factors(penalty_factor, p)
    beta = np.zeros(p) if coef_init is None else np.array(coef_init, dtype=np.float64)
    if beta.shape != (p,):
        raise ValueError(f"coef_init must have shape ({p},); got {beta.shape}")
    beta[~prob.usable] = 0.0
    state = prob.initial_state(beta)
    c = prob.gradient(beta, state)
    a, b = _penalty_weights(prob, float(alpha), float(l1_ratio), pf)
    rng = _random_state(selection, random_state)
    n_iter, converged, gap, _ = _solve(
        prob, beta, state, c, a, b, np.flatnonzero(beta), tol, tol * prob.ysq, max_iter, rng
    )
    return CDResult(
        x=beta,
        n_iter=n_iter,
        converged=converged,
        intercept=prob.intercept(beta) if fit_intercept else 0.0,
        dual_gap=gap / prob.total_weight,
    )


def alpha_grid(
    X,
    y,
    *,
    l1_ratio=1.0,
    sample_weight=None,
    fit_intercept=True,
    n_alphas=100,
    eps=1e-3,
    penalty_factor=None,
):
    """Log-spaced decreasing grid from ``α_max`` down to ``eps · α_max``.

    ``α_max = max_j |Σ_i w_i (x_ij − x̄_j)(y_i − ȳ)| / (Σw · ρ · pf_j)`` (no centring without an
    intercept) is the smallest penalty whose solution is all zeros (glmnet's ``lambda.max``).
    When it is 0 (a constant ``y``), every entry is the float resolution ``1e-15``.
    """
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    w = np.ones(y.shape[0]) if sample_weight is None else np.asarray(sample_weight, float)
    W = float(w.sum())
    if fit_intercept:
        xbar = (w @ X) / W
        wy = w * (y - (w @ y) / W)
        q = X.T @ wy - xbar * wy.sum()
    else:
        q = X.T @ (w * y)
    return _grid(q, W, l1_ratio, n_alphas, eps, _factors(penalty_factor, X.shape[1]))


def _grid(q, W, l1_ratio, n_alphas, eps, pf):
    amax = enet_alpha_max(-np.asarray(q) / W, l1_ratio, pf)
    if not np.isfinite(amax):
        raise ValueError(
            f"l1_ratio={l1_ratio!r} is too small for an automatic penalty grid (its largest "
            "alpha overflows); give alphas or a larger l1_ratio."
        )
    if amax <= np.finfo(np.float64).resolution:
        return np.full(n_alphas, np.finfo(np.float64).resolution)
    if n_alphas == 1:
        return np.array([amax])
    if not amax * eps > 0:
        raise ValueError(
            f"eps={eps!r} is too small: the smallest alpha of the grid, eps * {amax:.3g}, "
            "underflows to 0; give a larger eps."
        )
    return np.geomspace(amax, amax * eps, num=n_alphas)


def enet_path(
    X,
    y,
    *,
    l1_ratio=1.0,
    alphas=None,
    n_alphas=100,
    eps=1e-3,
    sample_weight=None,
    fit_intercept=True,
    penalty_factor=None,
    max_iter=1000,
    tol=1e-4,
    gram=None,
) -> PathResult:
    """Solutions along a decreasing grid of ``α``, each warm-started from the previous one.

    ``alphas=None`` uses :func:`alpha_grid`; given ``alphas`` are sorted in decreasing order.
    The data are centred (and the Gram matrix formed) once for the whole path. Parameters as in
    :func:`enet_coordinate_descent`.
    """
    prob = _Problem(X, y, sample_weight, fit_intercept, gram, for_path=True)
    p = prob.n_features
    pf = _factors(penalty_factor, p)
    W = prob.total_weight
    if alphas is None:
        alphas = _grid(prob.q, W, l1_ratio, n_alphas, eps, pf)
    else:
        alphas = np.sort(np.asarray(alphas, dtype=np.float64).ravel())[::-1]
    k = alphas.size
    coefs = np.zeros((p, k))
    intercepts = np.zeros(k)
    n_iter = np.zeros(k, dtype=np.int64)
    gaps = np.zeros(k)
    converged = np.zeros(k, dtype=bool)
    beta = np.zeros(p)
    state = prob.initial_state(beta)
    c = prob.gradient(beta, state)
    tol_abs = tol * prob.ysq
    # the strong rule's previous threshold: α_max for the first alpha
    a_prev = W * _alpha_max(c, W, l1_ratio, pf) * l1_ratio * pf
    for i, alpha in enumerate(alphas):
        a, b = _penalty_weights(prob, float(alpha), float(l1_ratio), pf)
        strong = np.abs(c) >= 2.0 * a - a_prev
        working = np.flatnonzero((beta != 0) | (strong & (a > 0)))
        n_iter[i], converged[i], gap, c = _solve(
            prob, beta, state, c, a, b, working, tol, tol_abs, max_iter, None
        )
        coefs[:, i] = beta
        intercepts[i] = prob.intercept(beta) if fit_intercept else 0.0
        gaps[i] = gap / W
        a_prev = a
    return PathResult(alphas, coefs, intercepts, n_iter, gaps, converged)
