"""Solvers of binary and multinomial logistic regression (penalised or not).

Every solver minimises the same objective (see :class:`Objective`)

.. math:: F(b, \\beta) = \\sum_i w_i \\ell_i(b, \\beta)
          + \\frac{1}{C}\\Big(\\rho\\|\\beta\\|_1 + \\frac{1 - \\rho}{2}\\|\\beta\\|_2^2\\Big)

(ρ = 0 for ``penalty="l2"``, 1 for ``"l1"``; no penalty term for ``penalty=None``), where
``ℓ_i`` is the binary or multinomial negative log-likelihood of :mod:`statlearning._core.logistic`
and the intercepts are never penalised. The estimator chooses the solver; this module knows
nothing about estimators.

* :func:`binary_irls` — every Newton-type binary fit: the GLM IRLS of
  :mod:`statlearning._solvers.irls` with the binomial family and logit link. Unpenalised, it
  is R's ``glm.fit`` (coefficients, standard errors and iteration count are R's); penalised,
  its weighted least-squares problems are solved in closed form (ridge) or by coordinate
  descent (``l1``, elastic net), i.e. glmnet's proximal Newton.
* :func:`newton` — Newton's method with the full Hessian and step halving (multinomial).
* :func:`lbfgs_fit` — L-BFGS-B through :func:`statlearning._solvers.lbfgs.lbfgs` on ``F / Σw``.
* :func:`gd_fit` — the notes' gradient rule ``θ ← θ − η ∇F`` (fixed η, or Armijo backtracking).
* :func:`cd_fit` — glmnet's proximal Newton for the multinomial model: an outer loop over the
  classes whose penalised weighted least-squares subproblems are solved by coordinate descent
  with warm starts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg

from .._core.logistic import (
    binary_loss_gradient,
    column_moments,
    multinomial_hessian,
    multinomial_loss,
    multinomial_loss_gradient,
    softmax,
)
from .gradient_descent import gradient_descent
from .irls import irls


@dataclass
class LogisticFit:
    """What a solver returns: full parameters and, for :func:`binary_irls`, the inference pieces.

    ``params`` has shape ``(1, k)`` for the binary model and ``(K, k)`` for the multinomial
    (the reference class's row is zero when the model is parameterised against it).
    """

    params: np.ndarray
    n_iter: int
    converged: bool
    kept: np.ndarray | None = None
    unscaled_cov: np.ndarray | None = None
    loss: float | None = None
    #: :func:`binary_irls`: the final iteration's working weights, those of ``unscaled_cov``
    working_weights: np.ndarray | None = None


class Objective:
    """The smooth part ``Σ w ℓ + (λ₂/2)‖β‖²`` on a flat vector of free parameters.

    Parameters
    ----------
    X, y, w : arrays
        ``y`` holds 0/1 floats (binary) or integer class codes (multinomial).
    n_classes : int
    fit_intercept : bool
    l2 : float
        ``λ₂ = (1 − ρ)/C`` (zero without a penalty).
    reference : bool
        Multinomial only: fix the first class's row at zero (unpenalised, identifiable).
    """

    def __init__(self, X, y, w, n_classes, fit_intercept, l2, reference):
        self.X, self.y, self.w = X, y, w
        self.binary = n_classes == 2
        self.K = n_classes
        self.fit_intercept = fit_intercept
        self.k = X.shape[1] + (1 if fit_intercept else 0)
        self.l2 = float(l2)
        self.reference = bool(reference) and not self.binary
        self.rows = 1 if self.binary else self.K - (1 if self.reference else 0)
        mask = np.ones((self.rows, self.k), dtype=bool)
        if fit_intercept:
            mask[:, 0] = False
        self.penalised = mask.ravel()
        self._last = None

    @property
    def size(self) -> int:
        return self.rows * self.k

    def full(self, x) -> np.ndarray:
        """Free vector → parameters of shape ``(1, k)`` or ``(K, k)``."""
        x = np.asarray(x, dtype=np.float64).reshape(self.rows, self.k)
        if self.reference:
            return np.vstack([np.zeros((1, self.k)), x])
        return x

    def free(self, params) -> np.ndarray:
        params = np.asarray(params, dtype=np.float64)
        return (params[1:] if self.reference else params).ravel().copy()

    def loss_at(self, x) -> float | None:
        """The unpenalised loss at ``x`` if it was the last point evaluated (saves a pass)."""
        if self._last is not None and np.array_equal(self._last[0], x):
            return self._last[1]
        return None

    def value_grad(self, x):
        if self.binary:
            f, g = binary_loss_gradient(x, self.X, self.y, self.w, self.fit_intercept)
        else:
            f, G = multinomial_loss_gradient(
                self.full(x), self.X, self.y, self.w, self.fit_intercept
            )
            g = (G[1:] if self.reference else G).ravel()
        self._last = (np.array(x, dtype=np.float64, copy=True), f)
        if self.l2:
            xp = np.where(self.penalised, x, 0.0)
            f += 0.5 * self.l2 * float(xp @ xp)
            g = g + self.l2 * xp
        return f, g

    def value(self, x) -> float:
        return self.value_grad(x)[0]

    def hessian(self, x) -> np.ndarray:
        """The multinomial Hessian (binary Newton-type fits run the GLM IRLS instead)."""
        H = multinomial_hessian(self.full(x), self.X, self.w, self.fit_intercept)
        if self.reference:
            H = H[self.k :, self.k :]
        if self.l2:
            H[np.diag_indices_from(H)] += self.l2 * self.penalised
        if not self.reference and self.fit_intercept:
            # the common shift of all intercepts leaves the likelihood unchanged: remove the
            # flat direction (the gradient is orthogonal to it, so the step is unaffected)
            u = np.zeros(self.size)
            u[:: self.k] = 1.0 / np.sqrt(self.K)
            H += np.outer(u, u) * max(1.0, float(np.abs(np.diag(H)).max()))
        return H

    def start(self) -> np.ndarray:
        """Zero slopes; intercepts at the (weighted) log-odds of the class frequencies."""
        params = np.zeros((1 if self.binary else self.K, self.k))
        if self.fit_intercept:
            if self.binary:
                ybar = float(self.w @ self.y) / self.w.sum()
                ybar = min(max(ybar, 1e-8), 1 - 1e-8)
                params[0, 0] = np.log(ybar / (1.0 - ybar))
            else:
                freq = np.bincount(self.y, weights=self.w, minlength=self.K) / self.w.sum()
                logf = np.log(np.maximum(freq, 1e-8))
                params[:, 0] = logf - (logf[0] if self.reference else logf.mean())
        return self.free(params)


def _converged(f, f_old, tol) -> bool:
    """R's ``glm.control`` test on the deviance scale ``2F``."""
    return abs(2.0 * (f - f_old)) / (abs(2.0 * f) + 0.1) < tol


# ------------------------------------------------------------------------------------ R's IRLS


def binary_irls(
    X,
    y,
    w,
    *,
    fit_intercept=True,
    l1=0.0,
    l2=0.0,
    max_iter=25,
    tol=1e-8,
    rank_tol=1e-7,
    coef_init=None,
) -> LogisticFit:
    """The binary model by the GLM IRLS (binomial family, logit link), for 0/1 ``y``.

    Without a penalty this is R's ``glm.fit(x, y, weights = w, family = binomial())``: R's
    starting values, step halving, convergence rule and final QR, so coefficients, aliasing and
    ``(AᵀWA)⁻¹`` are R's (``rank_tol`` is the aliasing tolerance). With a penalty
    ``λ₁‖β‖₁ + (λ₂/2)‖β‖²`` on the summed loss ``F`` (half the deviance), the IRLS objective
    ``D/(2Σw) + α(ρ‖β‖₁ + ½(1 − ρ)‖β‖²)`` is ``F/Σw`` with ``α = (λ₁ + λ₂)/Σw`` and
    ``ρ = λ₁/(λ₁ + λ₂)``. ``coef_init`` (shape ``(1, k)`` or ``(k,)``, intercept first) starts
    the iterations there instead of at R's starting values.
    """
    total = float(l1) + float(l2)
    sum_w = float(np.sum(w))
    res = irls(
        X,
        y,
        family="binomial",
        link="logit",
        sample_weight=w,
        fit_intercept=fit_intercept,
        alpha=total / sum_w if total > 0 else 0.0,
        l1_ratio=float(l1) / total if total > 0 else 0.0,
        max_iter=max_iter,
        tol=tol,
        rank_tol=rank_tol,
        coef_init=None if coef_init is None else np.ravel(coef_init),
    )
    return LogisticFit(
        res.coef[None, :], res.n_iter, res.converged, res.kept, res.unscaled_cov,
        loss=0.5 * res.deviance, working_weights=res.working_weights,
    )  # fmt: skip


# ---------------------------------------------------------------------------------- Newton


def newton(obj: Objective, x0, *, max_iter=100, tol=1e-8) -> LogisticFit:
    """Newton's method with the full Hessian and step halving on ``F``."""
    x = np.array(x0, dtype=np.float64)
    f, g = obj.value_grad(x)
    converged = False
    n_iter = 0
    for it in range(1, max_iter + 1):
        n_iter = it
        H = obj.hessian(x)
        step = _solve_psd(H, g)
        t = 1.0
        while True:
            x_new = x - t * step
            f_new, g_new = obj.value_grad(x_new)
            if np.isfinite(f_new) and f_new <= f + 1e-12 * abs(f):
                break
            t *= 0.5
            if t < 1e-10:
                x_new, f_new, g_new = x, f, g
                break
        # R's relative-change test, and a step that is small against the coefficients: on
        # (quasi-)separated data F flattens while Newton keeps taking unit-size steps
        moved = t * float(np.max(np.abs(step), initial=0.0))
        small = moved <= 1e-3 * (1.0 + float(np.max(np.abs(x_new), initial=0.0)))
        done = (_converged(f_new, f, tol) and small) or not np.any(g_new)
        x, f, g = x_new, f_new, g_new
        if done:
            converged = True
            break
    return _finish(obj, x, n_iter, converged)


def _solve_psd(H, g):
    try:
        c = linalg.cho_factor(H, check_finite=False)
        step = linalg.cho_solve(c, g, check_finite=False)
        if np.all(np.isfinite(step)):
            return step
    except linalg.LinAlgError:
        pass
    return linalg.lstsq(H, g, check_finite=False)[0]


# ---------------------------------------------------------------------------------- L-BFGS


class Preconditioned:
    """``F`` in the coordinates of centred, unit-variance columns (no copy of ``X``).

    With column means ``m`` and scales ``s``: ``β = θ / s`` and ``b = b' − mᵀβ``, a linear change
    of variables ``x = T ξ``; the objective is unchanged and the gradient is ``Tᵀ ∇F``. First-order
    methods then see a far better conditioned problem when the columns have unequal scales.
    """

    def __init__(self, obj: Objective):
        self.obj = obj
        self.mean, self.scale = column_moments(obj.X, obj.w, center=obj.fit_intercept)
        self.off = 1 if obj.fit_intercept else 0

    def to_original(self, xi):
        P = np.array(xi, dtype=np.float64).reshape(self.obj.rows, self.obj.k)
        P[:, self.off :] /= self.scale
        if self.off:
            P[:, 0] -= P[:, 1:] @ self.mean
        return P.ravel()

    def to_scaled(self, x):
        P = np.array(x, dtype=np.float64).reshape(self.obj.rows, self.obj.k)
        if self.off:
            P[:, 0] += P[:, 1:] @ self.mean
        P[:, self.off :] *= self.scale
        return P.ravel()

    def value_grad(self, xi):
        f, g = self.obj.value_grad(self.to_original(xi))
        G = g.reshape(self.obj.rows, self.obj.k).copy()
        if self.off:
            G[:, 1:] -= G[:, :1] * self.mean
        G[:, self.off :] /= self.scale
        return f, G.ravel()


def _finish(obj: Objective, x, n_iter, converged) -> LogisticFit:
    return LogisticFit(obj.full(x), int(n_iter), bool(converged), loss=obj.loss_at(x))


def lbfgs_fit(obj: Objective, x0, *, max_iter=100, tol=1e-8) -> LogisticFit:
    """L-BFGS-B on ``F / Σw`` (the mean loss, as scikit-learn scales it) in preconditioned
    coordinates (:class:`Preconditioned`); ``tol`` is ``gtol`` on that gradient."""
    from .lbfgs import lbfgs

    pre = Preconditioned(obj)
    scale = 1.0 / obj.w.sum()

    def fun_and_grad(xi):
        f, g = pre.value_grad(xi)
        return f * scale, g * scale

    flops = 2 * obj.X.shape[0] * obj.k * obj.rows  # the linear predictor and the gradient
    res = lbfgs(fun_and_grad, pre.to_scaled(x0), max_iter=max_iter, tol=tol, blas_flops=flops)
    return _finish(obj, pre.to_original(res.x), res.n_iter, res.converged)


# ------------------------------------------------------------------------------- gradient


def gd_fit(obj: Objective, x0, *, max_iter=100, tol=1e-8, learning_rate="armijo"):
    """Gradient descent: the notes' rule ``θ ← θ − η ∇F`` (rule (3.41), summed objective).

    ``learning_rate="armijo"`` backtracks from a unit step on ``F/Σw`` in preconditioned
    coordinates (:class:`Preconditioned`), ``"wolfe"`` takes a strong Wolfe step there
    (:func:`~statlearning._solvers.gradient_descent.strong_wolfe`); a float is the notes'
    fixed step η on the summed objective ``F`` in the original coordinates.
    """
    if learning_rate in ("armijo", "wolfe"):
        pre = Preconditioned(obj)
        scale = 1.0 / obj.w.sum()
        cache = {}

        def value_grad(xi):
            key = xi.tobytes()
            if key not in cache:
                cache.clear()
                f, g = pre.value_grad(xi)
                cache[key] = (f * scale, g * scale)
            return cache[key]

        res = gradient_descent(
            lambda xi: value_grad(xi)[0],
            lambda xi: value_grad(xi)[1],
            pre.to_scaled(x0),
            step=learning_rate,
            learning_rate=1.0,
            tol=tol,
            max_iter=max_iter,
        )
        x = pre.to_original(res.x)
    else:
        res = gradient_descent(
            obj.value,
            lambda x: obj.value_grad(x)[1],
            x0,
            step="fixed",
            learning_rate=float(learning_rate),
            tol=tol,
            max_iter=max_iter,
        )
        x = res.x
    return _finish(obj, x, res.n_iter, res.converged)


# ----------------------------------------------------------------------- coordinate descent


def cd_fit(X, y, w, *, n_classes, fit_intercept, l1, l2, x0, max_iter=100, tol=1e-8, cd_tol=1e-12):
    """glmnet's proximal Newton for the penalised multinomial model, one class at a time
    (binary fits take :func:`binary_irls`).

    Each outer iteration visits every class's coefficient row and forms the weighted
    least-squares approximation of the log-likelihood in that row at the current fit —
    working response ``z = η_c + (y_c − p_c)/(p_c(1 − p_c))`` and weights
    ``W = w p_c(1 − p_c)`` (the row's exact Hessian block) — then minimises it plus the
    elastic-net penalty by coordinate descent, warm-started at the current row:
    ``(1/(2ΣW)) Σ W (z − b − xᵀβ)² + α (ρ‖β‖₁ + ½(1 − ρ)‖β‖²)`` with ``α = (l1 + l2)/ΣW``
    and ``ρ = l1/(l1 + l2)``. The step to the subproblem's solution is halved until ``F``
    decreases. Iteration stops on R's relative-change test of ``2F`` together with
    ``max |Δθ| < √tol``. The intercepts are centred after each pass (the likelihood does not
    see a common shift).
    """
    from .coordinate_descent import enet_coordinate_descent

    off = 1 if fit_intercept else 0
    P = np.array(x0, dtype=np.float64).reshape(n_classes, -1)
    rows = P.shape[0]
    Y = (y[:, None] == np.arange(n_classes)).astype(np.float64)

    def row_eta(p):
        return X @ p[off:] + (p[0] if off else 0.0)

    def objective(E, P):
        loss = multinomial_loss(E, y, w)
        B = P[:, off:]
        return loss + l1 * float(np.abs(B).sum()) + 0.5 * l2 * float((B * B).sum())

    E = np.column_stack([row_eta(P[r]) for r in range(rows)])
    f = objective(E, P)
    total = l1 + l2
    rho = l1 / total if total > 0 else 1.0
    converged = False
    n_iter = 0
    for it in range(1, max_iter + 1):
        n_iter = it
        f_start, P_start = f, P.copy()
        for r in range(rows):
            mu = softmax(E)[:, r]
            v = np.maximum(mu * (1.0 - mu), 1e-10)
            W = w * v
            res = enet_coordinate_descent(
                X,
                E[:, r] + (Y[:, r] - mu) / v,
                alpha=total / W.sum(),
                l1_ratio=rho,
                sample_weight=W,
                fit_intercept=fit_intercept,
                coef_init=P[r, off:],
                intercept_init=float(P[r, 0]) if off else None,
                max_iter=10_000,
                tol=cd_tol,
            )
            target = np.concatenate([[res.intercept], res.x]) if off else res.x.copy()
            delta_eta = row_eta(target) - E[:, r]
            t = 1.0
            while True:
                P_new = P.copy()
                P_new[r] += t * (target - P[r])
                E_new = E.copy()
                E_new[:, r] += t * delta_eta
                f_new = objective(E_new, P_new)
                if f_new <= f + 1e-12 * abs(f) or t < 1e-10:
                    break
                t *= 0.5
            if f_new <= f + 1e-12 * abs(f):
                P, E, f = P_new, E_new, f_new
        if off:
            shift = P[:, 0].mean()
            P[:, 0] -= shift
            E -= shift
        done = _converged(f, f_start, tol) and np.max(np.abs(P - P_start)) < np.sqrt(tol)
        if done:
            converged = True
            break
    loss = multinomial_loss(E, y, w)
    return LogisticFit(P, n_iter, converged, loss=loss)
