"""Robust regression losses: Huber's loss and the absolute loss, with their derivatives.

For a residual ``r = y − ŷ`` and a threshold ``δ > 0`` the Huber loss of the notes (Boily, §4.7.1,
eq. 4.34) is

.. math::

    \\rho_\\delta(r) = \\begin{cases} r^2/2 & |r| \\le \\delta \\\\
                                     \\delta |r| - \\delta^2/2 & |r| > \\delta \\end{cases}

— quadratic for small residuals, linear for large ones, continuous with a continuous first
derivative at ``|r| = δ`` (the notes' Theorem 4). There is no scale estimate: ``δ`` is measured in
the units of ``y``. Its derivative is ``ψ_δ(r) = clip(r, −δ, δ)`` and its second derivative
(defined except at ``|r| = δ``) is ``1{|r| ≤ δ}``. The iteratively-reweighted-least-squares
weight is ``ψ_δ(r)/r = min(1, δ/|r|)`` (``1`` at ``r = 0``).

The absolute loss ``|r|`` (least absolute deviations, §4.7.2) has the subgradient ``sign(r)``;
its IRLS weight ``1/max(|r|, ε)`` is the Huber weight with threshold ``ε`` divided by ``ε``.

:func:`huber_regression_objective` evaluates the whole penalised objective and its gradient in
standardised coordinates without copying ``X`` (see its docstring).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "absolute_loss",
    "absolute_subgradient",
    "huber_hessian_weights",
    "huber_irls_weights",
    "huber_loss",
    "huber_psi",
    "huber_regression_objective",
    "lad_irls_weights",
]


def huber_loss(r, delta: float) -> np.ndarray:
    """Elementwise Huber loss ``ρ_δ(r)``: ``r²/2`` if ``|r| ≤ δ``, else ``δ|r| − δ²/2``."""
    a = np.abs(np.asarray(r, dtype=np.float64))
    return np.where(a <= delta, 0.5 * a * a, delta * a - 0.5 * delta * delta)


def huber_psi(r, delta: float) -> np.ndarray:
    """First derivative of the Huber loss, ``ψ_δ(r) = clip(r, −δ, δ)``."""
    return np.clip(np.asarray(r, dtype=np.float64), -delta, delta)


def huber_hessian_weights(r, delta: float) -> np.ndarray:
    """Second derivative of the Huber loss, ``1{|r| ≤ δ}`` (as float; ``|r| = δ`` counts as 1)."""
    return (np.abs(np.asarray(r, dtype=np.float64)) <= delta).astype(np.float64)


def huber_irls_weights(r, delta: float) -> np.ndarray:
    """IRLS weights ``ψ_δ(r)/r = min(1, δ/|r|)`` (``1`` at ``r = 0``)."""
    a = np.abs(np.asarray(r, dtype=np.float64))
    return delta / np.maximum(a, delta)


def absolute_loss(r) -> np.ndarray:
    """Elementwise absolute loss ``|r|``."""
    return np.abs(np.asarray(r, dtype=np.float64))


def absolute_subgradient(r) -> np.ndarray:
    """The subgradient ``sign(r)`` of ``|r|`` (``0`` at ``r = 0``, the minimum-norm element)."""
    return np.sign(np.asarray(r, dtype=np.float64))


def lad_irls_weights(r, eps: float) -> np.ndarray:
    """IRLS weights for the absolute loss, ``1/max(|r|, ε)``.

    They are ``huber_irls_weights(r, ε) / ε``: IRLS with these weights minimises the Huber loss
    with threshold ``ε`` divided by ``ε``, which is within ``ε/2`` of ``|r|`` for every residual.
    """
    return 1.0 / np.maximum(np.abs(np.asarray(r, dtype=np.float64)), eps)


def huber_regression_objective(
    params,
    X,
    y,
    *,
    delta: float,
    sample_weight=None,
    alpha: float = 0.0,
    fit_intercept: bool = True,
    x_offset=None,
    x_scale=None,
) -> tuple[float, np.ndarray]:
    """Value and gradient of the (penalised) Huber regression objective.

    The objective is ``F(b0, β) = Σ_i w_i ρ_δ(y_i − b0 − x_iᵀβ) + alpha ‖β‖²``, evaluated in the
    coordinates ``params = (c, z)`` (``c`` only when ``fit_intercept``) with

    ``β = z / x_scale``  and  ``b0 = c − x_offsetᵀ β``,

    i.e. on the columns ``(x_j − x_offset_j) / x_scale_j`` but without forming them.
    ``x_offset`` defaults to zeros (no centring) and ``x_scale`` to ones.

    Returns
    -------
    value : float
    gradient : ndarray of the shape of ``params``
        The gradient with respect to ``params`` (not to ``(b0, β)``).
    """
    params = np.asarray(params, dtype=np.float64)
    p = X.shape[1]
    off = 1 if fit_intercept else 0
    z = params[off:]
    scale = np.ones(p) if x_scale is None else x_scale
    beta = z / scale
    pred = X @ beta
    if fit_intercept:
        shift = params[0] - (0.0 if x_offset is None else float(x_offset @ beta))
        pred += shift
    r = y - pred
    loss = huber_loss(r, delta)
    psi = huber_psi(r, delta)
    if sample_weight is not None:
        loss = loss * sample_weight
        psi = psi * sample_weight
    value = float(loss.sum()) + alpha * float(beta @ beta)
    # d/dβ of the data term is −Xᵀψ (+ x_offset Σψ through b0); chain rule to z divides by scale
    g_beta = -(X.T @ psi)
    if fit_intercept and x_offset is not None:
        g_beta += x_offset * psi.sum()
    g_beta += 2.0 * alpha * beta
    grad = np.empty_like(params)
    grad[off:] = g_beta / scale
    if fit_intercept:
        grad[0] = -psi.sum()
    return value, grad
