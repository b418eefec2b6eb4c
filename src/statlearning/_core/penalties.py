"""L1, L2 and elastic-net penalties: values, proximal operators and optimality conditions.

The elastic-net penalty, in scikit-learn's parameterisation (``alpha`` the overall strength,
``l1_ratio`` the share of the L1 part) with optional per-coefficient penalty factors ``pf``
(glmnet's ``penalty.factor``; ``pf_j = 0`` leaves coefficient ``j`` unpenalised), is

.. math::

    P_{\\alpha,\\rho}(\\beta) = \\alpha \\sum_j pf_j
        \\left(\\rho\\,|\\beta_j| + \\tfrac{1}{2}(1-\\rho)\\,\\beta_j^2\\right),

``ρ = 1`` the lasso, ``ρ = 0`` ridge. Its proximal operator is soft-thresholding followed by a
shrinkage (the notes' update: Artelt, *Introduction to Machine Learning*, §4.8–4.9):

.. math::

    \\operatorname{prox}_{tP}(z)_j = \\frac{S(z_j,\\ t\\alpha\\rho\\,pf_j)}
        {1 + t\\alpha(1-\\rho)\\,pf_j},
    \\qquad S(z, \\lambda) = \\operatorname{sign}(z)\\,(|z| - \\lambda)_+ .

At ``z = 0`` the subdifferential of ``|·|`` is ``[-1, 1]`` and :func:`soft_threshold` returns
``0`` there (never ``-0.0``).

For a smooth loss ``L`` with gradient ``g`` the minimiser of ``L + P`` satisfies the
Karush-Kuhn-Tucker (subgradient) conditions

* ``β_j ≠ 0``: ``g_j + α pf_j (ρ sign(β_j) + (1 − ρ) β_j) = 0``;
* ``β_j = 0``: ``|g_j| ≤ α ρ pf_j``;

:func:`enet_kkt_violation` measures by how much each coordinate fails them.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "enet_alpha_max",
    "enet_kkt_violation",
    "enet_penalty",
    "enet_prox",
    "l1_penalty",
    "l2_penalty",
    "soft_threshold",
]


def _factors(penalty_factor, p: int) -> np.ndarray:
    if penalty_factor is None:
        return np.ones(p)
    pf = np.asarray(penalty_factor, dtype=np.float64)
    if pf.shape != (p,):
        raise ValueError(f"penalty_factor must have shape ({p},); got {pf.shape}")
    if not np.all(np.isfinite(pf)) or np.any(pf < 0):
        raise ValueError("penalty_factor must be finite and non-negative")
    return pf


def soft_threshold(z, threshold):
    """The soft-thresholding operator ``S(z, λ) = sign(z) · max(|z| − λ, 0)``.

    The proximal operator of ``λ|·|``. Vectorised over ``z`` and ``threshold`` (which must be
    non-negative); values inside ``[−λ, λ]`` map to exactly ``0.0`` (positive zero).

    Parameters
    ----------
    z : float or ndarray
    threshold : float or ndarray, non-negative

    Returns
    -------
    float or ndarray
        Same shape as the broadcast of the inputs.
    """
    z = np.asarray(z, dtype=np.float64)
    t = np.asarray(threshold, dtype=np.float64)
    if np.any(t < 0):
        raise ValueError("threshold must be non-negative")
    out = np.sign(z) * np.maximum(np.abs(z) - t, 0.0)
    out = out + 0.0  # turn -0.0 into +0.0
    return out[()] if out.ndim == 0 else out


def l1_penalty(coef, penalty_factor=None) -> float:
    """``Σ_j pf_j |β_j|``."""
    coef = np.asarray(coef, dtype=np.float64)
    return float(_factors(penalty_factor, coef.size) @ np.abs(coef))


def l2_penalty(coef, penalty_factor=None) -> float:
    """``½ Σ_j pf_j β_j²`` (with the ½ of the elastic net's ridge part)."""
    coef = np.asarray(coef, dtype=np.float64)
    return 0.5 * float(_factors(penalty_factor, coef.size) @ (coef * coef))


def enet_penalty(coef, alpha: float, l1_ratio: float = 1.0, penalty_factor=None) -> float:
    """The elastic-net penalty ``α Σ_j pf_j (ρ|β_j| + ½(1 − ρ)β_j²)``.

    Parameters
    ----------
    coef : ndarray of shape (p,)
        Coefficients (never the intercept).
    alpha : float
        Overall strength ``α ≥ 0`` (scikit-learn's ``alpha``; glmnet's ``lambda``).
    l1_ratio : float, default=1.0
        ``ρ`` in ``[0, 1]`` (glmnet's ``alpha``).
    penalty_factor : ndarray of shape (p,), optional
        Non-negative per-coefficient multipliers (default ones).

    Returns
    -------
    float
    """
    coef = np.asarray(coef, dtype=np.float64)
    pf = _factors(penalty_factor, coef.size)
    return float(alpha * (pf @ (l1_ratio * np.abs(coef) + 0.5 * (1.0 - l1_ratio) * coef * coef)))


def enet_prox(z, step: float, alpha: float, l1_ratio: float = 1.0, penalty_factor=None):
    """Proximal operator of ``step · P``: ``argmin_β ½‖β − z‖² + step · P_{α,ρ}(β)``.

    Returns ``S(z_j, step·α·ρ·pf_j) / (1 + step·α·(1 − ρ)·pf_j)`` for every ``j``.
    """
    z = np.asarray(z, dtype=np.float64)
    pf = _factors(penalty_factor, z.size).reshape(z.shape)
    return soft_threshold(z, step * alpha * l1_ratio * pf) / (
        1.0 + step * alpha * (1.0 - l1_ratio) * pf
    )


def enet_kkt_violation(coef, grad, alpha: float, l1_ratio: float = 1.0, penalty_factor=None):
    """Distance of ``−grad`` from the subdifferential of the penalty, coordinate by coordinate.

    ``grad`` is the gradient of the smooth loss at ``coef``. The minimiser of
    ``loss + P_{α,ρ}`` is the point where every entry of the result is zero:

    * ``β_j ≠ 0``: ``|g_j + α pf_j (ρ sign(β_j) + (1 − ρ) β_j)|``;
    * ``β_j = 0``: ``max(|g_j| − α ρ pf_j, 0)``.

    Returns
    -------
    ndarray of shape (p,)
        Non-negative violations (zero at an exact solution).
    """
    coef = np.asarray(coef, dtype=np.float64)
    grad = np.asarray(grad, dtype=np.float64)
    pf = _factors(penalty_factor, coef.size)
    l1 = alpha * l1_ratio * pf
    l2 = alpha * (1.0 - l1_ratio) * pf
    nonzero = coef != 0
    active = np.abs(grad + l1 * np.sign(coef) + l2 * coef)
    inactive = np.maximum(np.abs(grad) - l1, 0.0)
    return np.where(nonzero, active, inactive)


def enet_alpha_max(grad0, l1_ratio: float = 1.0, penalty_factor=None) -> float:
    """The smallest ``α`` whose elastic-net solution is all zeros.

    ``grad0`` is the gradient of the smooth loss at ``β = 0`` (after the intercept has been
    profiled out). For the least-squares loss ``(1/2Σw) Σ w_i (y_i − b₀ − x_iᵀβ)²`` it is
    ``−Σ_i w_i (x_i − x̄_w)(y_i − ȳ_w) / Σw``, and ``α_max = max_j |grad0_j| / (ρ pf_j)`` over
    penalised coordinates (glmnet's ``lambda.max``). Coordinates with ``pf_j = 0`` are ignored.

    Raises
    ------
    ValueError
        If ``l1_ratio`` is 0 (every positive ``α`` keeps a ridge solution non-zero).
    """
    grad0 = np.asarray(grad0, dtype=np.float64)
    if l1_ratio <= 0:
        raise ValueError(
            "l1_ratio must be positive to compute alpha_max: with l1_ratio=0 (ridge) no finite "
            "alpha makes every coefficient zero; give the alphas explicitly"
        )
    pf = _factors(penalty_factor, grad0.size)
    pen = pf > 0
    if not pen.any():
        return 0.0
    return float(np.max(np.abs(grad0[pen]) / pf[pen]) / l1_ratio)
