"""Iteratively reweighted least squares for robust (M-estimation) linear regression.

Minimises ``F(θ) = Σ_i w_i ρ(r_i) + alpha ‖β‖²`` with ``r = y − b0 − Xβ`` for a loss ``ρ`` whose
``ρ(√u)`` is concave in ``u`` (Huber, and the absolute loss smoothed at ``ε``). Then
``ρ(r) ≤ ρ(r₀) + ½ v(r₀)(r² − r₀²)`` with ``v = ρ'(r)/r``, so each step

    θ ← argmin ½ Σ_i w_i v(r_i) (y_i − a_iᵀθ)² + alpha ‖β‖²

(a ridge-weighted least-squares problem) never increases ``F``: the classical majorise-minimise
reading of IRLS. Columns are centred and scaled once (weighted moments) so that the steps are
well conditioned and the stopping rule is scale free; each step solves the ``k × k`` normal
equations by Cholesky, or, when they are ill-conditioned (condition number above 1e10), the
weighted least-squares problem by SVD (minimum-norm when the weighted design is rank deficient,
e.g. ``p > n``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import linalg

from .._core.linalg import gram
from .._core.ridge import ridge_cholesky
from ._result import SolverResult

__all__ = ["huber_active_set_polish", "robust_irls"]

_STEPS = (1.0, 0.5, 0.25, 0.125, 1 / 16, 1 / 32, 1 / 64, 1 / 128, 1 / 256, 1 / 1024)


def _weighted_moments(X, y, w):
    total = w.sum()
    x_mean = (w @ X) / total
    y_mean = float(w @ y) / total
    x_sd = np.sqrt(np.maximum(w @ (X - x_mean) ** 2 / total, 0.0))
    x_sd[x_sd == 0.0] = 1.0
    y_sd = float(np.sqrt(w @ (y - y_mean) ** 2 / total))
    return x_mean, x_sd, y_mean, y_sd


def robust_irls(
    X,
    y,
    *,
    weight_fn: Callable[[np.ndarray], np.ndarray],
    loss_fn: Callable[[np.ndarray], np.ndarray],
    sample_weight=None,
    alpha: float = 0.0,
    fit_intercept: bool = True,
    params_init=None,
    max_iter: int = 100,
    tol: float = 1e-8,
    certify: Callable[[np.ndarray], np.ndarray | None] | None = None,
    certify_every: int = 5,
) -> SolverResult:
    """IRLS for ``Σ w_i ρ(r_i) + alpha‖β‖²``; see the module docstring.

    Parameters
    ----------
    X : ndarray of shape (n, p)
        Not modified.
    y : ndarray of shape (n,)
    weight_fn : callable
        ``v = weight_fn(r)``: the IRLS weights ``ρ'(r)/r`` (positive).
    loss_fn : callable
        ``ρ(r)`` elementwise; used to record the objective.
    sample_weight : ndarray of shape (n,), optional
        Non-negative prior weights ``w``.
    alpha : float, default=0.0
        Ridge penalty on the slopes (never on the intercept).
    fit_intercept : bool, default=True
    params_init : ndarray, optional
        Starting ``(b0, β)`` (``β`` only without intercept); default: the (ridge) least-squares
        fit, i.e. the first step with ``v = 1``.
    max_iter : int, default=100
    tol : float, default=1e-8
        Stop when ``max_j |Δθ_j| ≤ tol · max(max_j |θ_j|, sd(y))`` in the standardised
        coordinates (every coordinate is in the units of ``y``).
    certify : callable, optional
        ``certify(θ) -> θ_exact or None``, tried every ``certify_every`` iterations on the
        current ``(b0, β)``: a returned point is the exact solution of the problem of interest,
        and the iteration stops there (converged).
    certify_every : int, default=5

    Returns
    -------
    SolverResult
        ``x`` = ``(b0, β)`` on the original scale (intercept first when fitted), ``history`` the
        objective after each step.
    """
    n, p = X.shape
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if fit_intercept:
        x_mean, x_sd, _, y_sd = _weighted_moments(X, y, w)
    else:
        x_mean = np.zeros(p)
        x_sd = np.sqrt(np.maximum((w @ X**2) / w.sum(), 0.0))
        x_sd[x_sd == 0.0] = 1.0
        y_sd = float(np.sqrt(w @ y**2 / w.sum()))
    scale_ref = y_sd if y_sd > 0 else 1.0
    off = 1 if fit_intercept else 0
    k = p + off
    A = np.empty((n, k))
    if fit_intercept:
        A[:, 0] = 1.0
    np.subtract(X, x_mean, out=A[:, off:])
    A[:, off:] /= x_sd
    pen = np.zeros(k)
    pen[off:] = np.sqrt(2.0 * alpha) / x_sd  # rows of the ridge augmentation (zero if alpha=0)
    use_pen = alpha > 0

    def to_std(theta):  # (b0, β) -> (c, z)
        t = np.empty(k)
        beta = theta[off:]
        t[off:] = beta * x_sd
        if fit_intercept:
            t[0] = theta[0] + x_mean @ beta
        return t

    def from_std(t):
        theta = np.empty(k)
        beta = t[off:] / x_sd
        theta[off:] = beta
        if fit_intercept:
            theta[0] = t[0] - x_mean @ beta
        return theta

    def objective(r, t):
        beta = t[off:] / x_sd
        return float(w @ loss_fn(r)) + alpha * float(beta @ beta)

    def wls(d):
        # normal equations (cheap: k × k), Jacobi-scaled; an ill-conditioned system (the IRLS
        # weights can span many orders of magnitude) is solved by SVD least squares instead
        Gy = gram(A, sqrt_weights=np.sqrt(d), extra=y)
        G, rhs = Gy[:k, :k].copy(), Gy[:k, k].copy()
        G[np.diag_indices_from(G)] += pen**2
        scale = np.sqrt(np.diag(G))
        scale[scale == 0.0] = 1.0
        try:
            return ridge_cholesky(G / np.outer(scale, scale), rhs / scale, 0.0) / scale
        except np.linalg.LinAlgError:
            pass
        sd = np.sqrt(d)
        M = A * sd[:, None]
        b = y * sd
        if use_pen:
            M = np.vstack([M, np.diag(pen)[off:]])
            b = np.concatenate([b, np.zeros(p)])
        return linalg.lstsq(M, b, lapack_driver="gelss", check_finite=False)[0]

    t = wls(w) if params_init is None else to_std(np.asarray(params_init, dtype=np.float64))
    r = y - A @ t
    history = [objective(r, t)]
    converged = False
    n_iter = 0
    while n_iter < max_iter:
        n_iter += 1
        t_new = wls(w * weight_fn(r))
        r_new = y - A @ t_new
        f_new = objective(r_new, t_new)
        step = float(np.max(np.abs(t_new - t))) if k else 0.0
        t, r = t_new, r_new
        history.append(f_new)
        if certify is not None and n_iter % certify_every == 0:
            exact = certify(from_std(t))
            if exact is not None:
                return SolverResult(np.asarray(exact, dtype=np.float64), n_iter, True, history)
        if step <= tol * max(float(np.max(np.abs(t))) if k else 0.0, scale_ref):
            converged = True
            break
    if certify is not None:
        exact = certify(from_std(t))
        if exact is not None:
            return SolverResult(np.asarray(exact, dtype=np.float64), n_iter, True, history)
    return SolverResult(from_std(t), n_iter, converged, history)


def huber_active_set_polish(
    X,
    y,
    params,
    *,
    delta: float,
    sample_weight=None,
    alpha: float = 0.0,
    fit_intercept: bool = True,
    max_steps: int = 50,
) -> tuple[np.ndarray, bool]:
    """Refine an approximate Huber-regression minimiser to machine precision.

    On the region where the partition of the residuals — quadratic set ``Q = {|r_i| ≤ δ}`` and
    the signs ``s_i`` of the others — is fixed, ``F(θ) = Σ w ρ_δ(r) + alpha‖β‖²`` is quadratic
    and its stationary point solves the linear system

        (A_Qᵀ W_Q A_Q + 2 alpha J) θ = A_Qᵀ W_Q y_Q + δ Σ_{i∉Q} w_i s_i a_i

    (``J`` = identity on the slopes). The step towards that point is damped (halved until ``F``
    does not increase); when the full step is taken and the partition at the new point is the
    one it was computed from, the gradient there is zero and, ``F`` being convex, it is the exact
    minimiser. This is a damped semismooth Newton method started from an already accurate point;
    it stops without changing anything when the quadratic zone does not determine the solution
    (a singular system).

    Returns
    -------
    params : ndarray
        ``(b0, β)`` (intercept first when fitted).
    exact : bool
        Whether the stationarity conditions hold exactly at the returned point.
    """
    n, p = X.shape
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    off = 1 if fit_intercept else 0
    k = p + off
    theta = np.array(params, dtype=np.float64)

    def residuals(th):
        r = y - X @ th[off:]
        return r - th[0] if fit_intercept else r

    def objective(r, th):
        a = np.abs(r)
        rho = np.where(a <= delta, 0.5 * a * a, delta * a - 0.5 * delta * delta)
        return float(w @ rho) + alpha * float(th[off:] @ th[off:])

    r = residuals(theta)
    f = objective(r, theta)
    for _ in range(max_steps):
        quad = (np.abs(r) <= delta) & (w > 0)
        sign = np.where(quad | (w == 0), 0.0, np.sign(r))
        Gy = gram(X[quad], sqrt_weights=np.sqrt(w[quad]), intercept=fit_intercept, extra=y[quad])
        H, g = Gy[:k, :k].copy(), Gy[:k, k].copy()
        lin = delta * w * sign  # the linear residuals' constant pull
        g[off:] += X.T @ lin
        if fit_intercept:
            g[0] += lin.sum()
        H[np.arange(off, k), np.arange(off, k)] += 2.0 * alpha
        try:
            c, low = linalg.cho_factor(H, check_finite=False)
            if np.min(np.abs(np.diag(c))) <= 1e-7 * np.max(np.abs(np.diag(c))):
                break  # (nearly) singular: the minimiser is not determined by this partition
            theta_new = linalg.cho_solve((c, low), g, check_finite=False)
        except linalg.LinAlgError:
            break
        step = theta_new - theta
        for t in _STEPS:  # damped Newton: backtrack until F does not increase
            cand = theta + t * step if t < 1.0 else theta_new
            r_new = residuals(cand)
            f_new = objective(r_new, cand)
            if f_new <= f + 1e-12 * max(1.0, abs(f)):
                break
        else:
            break
        if t == 1.0:
            quad_new = (np.abs(r_new) <= delta) & (w > 0)
            sign_new = np.where(quad_new | (w == 0), 0.0, np.sign(r_new))
            if np.array_equal(quad_new, quad) and np.array_equal(sign_new, sign):
                return cand, True
        if f_new >= f and t < 1.0:
            break  # no progress
        theta, r, f = cand, r_new, f_new
    return theta, False
