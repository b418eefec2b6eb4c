"""Binary logistic and multinomial (softmax) losses: value, gradient, Hessian, Hessian products.

Parameters are packed with the intercept first, as in R's coefficient order:

* binary: ``params = [b, β₁, …, β_p]`` (``[β₁, …, β_p]`` without an intercept), the linear
  predictor ``η = b + Xβ`` and ``μ = σ(η) = 1 / (1 + e^{−η})``;
* multinomial: ``params`` of shape ``(K, k)`` with row ``c = [b_c, β_c]``, ``η_ic = b_c + x_iᵀβ_c``
  and ``P_ic = exp(η_ic) / Σ_j exp(η_ij)`` (softmax).

The losses are the *summed*, weighted negative log-likelihoods

.. math::

    L_{bin} = \\sum_i w_i [\\log(1 + e^{\\eta_i}) - y_i \\eta_i], \\qquad
    L_{multi} = \\sum_i w_i [\\log \\sum_c e^{\\eta_{ic}} - \\eta_{i y_i}],

computed stably (``log(1 + e^η)`` as ``logaddexp(0, η)``, the log-sum-exp shifted by its
maximum), so that no intermediate ``log(0)`` or overflow occurs for any finite ``η``. The
gradients are ``Aᵀ w(μ − y)`` and ``Aᵀ (w ⊙ (P − Y))`` with ``A = [1, X]``; the Hessians are
``Aᵀ diag(w μ(1 − μ)) A`` and the ``K × K`` blocks ``Aᵀ diag(w ⊙ (P_c δ_cd − P_c P_d)) A``.

The binomial deviance and AIC are the binomial family's
(:class:`statlearning._core.families.Binomial`). Also here: :func:`separation_direction`,
a linear program that decides whether a binary sample is (quasi-)completely separated (the
maximum-likelihood estimate then does not exist), and two proofs of the opposite from a fitted
model: :func:`certifies_with_fit_weights` from an IRLS fit's last weighted least-squares
problem (two matrix–vector products) and :func:`certifies_no_separation` at the cost of one
Newton step.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg, optimize, special

from .compiled import lazy_kernel, readonly, writeable
from .glm_loss import FAMILY_CODES, glm_loss_gradient
from .linalg import gram
from .links import LINK_CODES

__all__ = [
    "binary_loss",
    "binary_loss_gradient",
    "certificate_gram",
    "certificate_margin",
    "certificate_step",
    "certifies_no_separation",
    "certifies_with_fit_weights",
    "column_moments",
    "linear_predictor",
    "log_softmax",
    "multinomial_hessian",
    "multinomial_hessian_product",
    "multinomial_loss",
    "multinomial_loss_gradient",
    "separation_direction",
    "sigmoid",
    "softmax",
]


# ----------------------------------------------------------------------------- link helpers


def sigmoid(eta):
    """``1 / (1 + e^{−η})`` without overflow (SciPy's ``expit``)."""
    return special.expit(eta)


def log_softmax(eta):
    """Row-wise ``η − logsumexp(η)`` for an ``(n, K)`` array."""
    eta = np.asarray(eta, dtype=np.float64)
    return eta - special.logsumexp(eta, axis=1, keepdims=True)


def softmax(eta):
    """Row-wise softmax of an ``(n, K)`` array (rows sum to one)."""
    return np.exp(log_softmax(eta))


def _split(params, fit_intercept):
    params = np.asarray(params, dtype=np.float64)
    if fit_intercept:
        return params[..., 0], params[..., 1:]
    return (np.zeros(params.shape[:-1]) if params.ndim > 1 else 0.0), params


def linear_predictor(X, params, fit_intercept=True):
    """``η = b + Xβ``: shape ``(n,)`` for binary ``params``, ``(n, K)`` for multinomial."""
    b, beta = _split(params, fit_intercept)
    if beta.ndim == 1:
        return X @ beta + b
    return X @ beta.T + b


def _weights(sample_weight, n):
    if sample_weight is None:
        return np.ones(n)
    return np.asarray(sample_weight, dtype=np.float64)


def _back(X, r, fit_intercept):
    """``Aᵀ r`` for ``A = [1, X]``: a vector for 1-D ``r``, a ``(K, k)`` array for 2-D ``r``."""
    if r.ndim == 1:
        g = X.T @ r
        return np.concatenate([[r.sum()], g]) if fit_intercept else g
    g = r.T @ X
    return np.hstack([r.sum(axis=0)[:, None], g]) if fit_intercept else g


# ------------------------------------------------------------------------------------ binary


_BINOMIAL = FAMILY_CODES["binomial"]
_LOGIT = LINK_CODES["logit"]


def binary_loss(eta, y, sample_weight=None) -> float:
    """``Σ w [log(1 + e^η) − y η]`` (the negative log-likelihood; y in [0, 1])."""
    w = _weights(sample_weight, eta.shape[0])
    return float(w @ (np.logaddexp(0.0, eta) - y * eta))


@lazy_kernel((readonly(), readonly(), readonly(), writeable()), cache=True)
def _binary_pointwise(eta, y, w, r):
    """One pass: ``Σ w [log(1 + e^η) − yη]`` and ``r = w (σ(η) − y)`` (written into ``r``)."""
    loss = 0.0
    for i in range(eta.shape[0]):
        e = eta[i]
        if e > 0.0:
            q = np.exp(-e)
            softplus = e + np.log1p(q)
            mu = 1.0 / (1.0 + q)
        else:
            q = np.exp(e)
            softplus = np.log1p(q)
            mu = q / (1.0 + q)
        loss += w[i] * (softplus - y[i] * e)
        r[i] = w[i] * (mu - y[i])
    return loss


def binary_loss_gradient(params, X, y, sample_weight=None, fit_intercept=True):
    """Loss and gradient of the binary negative log-likelihood at ``params``.

    Returns
    -------
    loss : float
    grad : ndarray of the shape of ``params``

    Notes
    -----
    For a C-contiguous ``X`` the loss and gradient come from one pass over the rows
    (:func:`~statlearning._core.glm_loss.glm_loss_gradient`, binomial family and logit link:
    the same loss), about half the time of the two matrix-vector products it replaces.
    """
    params = np.asarray(params, dtype=np.float64)
    if params.ndim == 1 and X.flags.c_contiguous and X.dtype == np.float64:
        b, beta = _split(params, fit_intercept)
        n = X.shape[0]
        loss, g0, g = glm_loss_gradient(
            X, np.asarray(y, dtype=np.float64), _weights(sample_weight, n), np.zeros(n),
            np.ascontiguousarray(beta), float(b), _BINOMIAL, _LOGIT,
        )  # fmt: skip
        return float(loss), (np.concatenate([[g0], g]) if fit_intercept else g)
    eta = linear_predictor(X, params, fit_intercept)
    w = _weights(sample_weight, X.shape[0])
    r = np.empty_like(eta)
    loss = _binary_pointwise(
        np.ascontiguousarray(eta), np.ascontiguousarray(y, dtype=np.float64),
        np.ascontiguousarray(w), r,
    )  # fmt: skip
    return float(loss), _back(X, r, fit_intercept)


# ------------------------------------------------------------------------------- multinomial


def _labels(y, K):
    y = np.asarray(y)
    if y.ndim != 1 or y.dtype.kind not in "iu" or (y.size and (y.min() < 0 or y.max() >= K)):
        raise ValueError("y must be integer class codes in [0, K)")
    return y


def multinomial_loss(eta, y, sample_weight=None) -> float:
    """``Σ w [logsumexp(η_i) − η_{i, y_i}]`` for integer labels ``y`` in ``[0, K)``."""
    n, K = eta.shape
    y = _labels(y, K)
    w = _weights(sample_weight, n)
    lse = special.logsumexp(eta, axis=1)
    return float(w @ (lse - eta[np.arange(n), y]))


def multinomial_loss_gradient(params, X, y, sample_weight=None, fit_intercept=True):
    """Loss and gradient (shape ``(K, k)``) of the multinomial negative log-likelihood.

    ``params`` has shape ``(K, k)``; ``y`` holds integer class codes in ``[0, K)``.
    """
    params = np.asarray(params, dtype=np.float64)
    K = params.shape[0]
    n = X.shape[0]
    y = _labels(y, K)
    w = _weights(sample_weight, n)
    eta = linear_predictor(X, params, fit_intercept)
    lse = special.logsumexp(eta, axis=1)
    rows = np.arange(n)
    loss = float(w @ (lse - eta[rows, y]))
    R = np.exp(eta - lse[:, None])
    R[rows, y] -= 1.0
    R *= w[:, None]
    return loss, _back(X, R, fit_intercept)


def multinomial_hessian(params, X, sample_weight=None, fit_intercept=True):
    """The full Hessian, shape ``(K·k, K·k)``, for ``params.ravel()`` (class-major order).

    Block ``(c, d)`` is ``Aᵀ diag(w ⊙ (P_c δ_cd − P_c P_d)) A``. It is positive semi-definite
    with the null direction ``1_K ⊗ e`` for every ``e`` (adding the same vector to every class
    leaves the probabilities unchanged).
    """
    params = np.asarray(params, dtype=np.float64)
    K, k = params.shape
    w = _weights(sample_weight, X.shape[0])
    P = softmax(linear_predictor(X, params, fit_intercept))
    H = np.empty((K * k, K * k))
    for c in range(K):
        for d in range(c, K):
            # the weights are w P_c (1 − P_c) ≥ 0 on the diagonal, −w P_c P_d ≤ 0 off it
            s = w * P[:, c] * ((1.0 - P[:, c]) if c == d else P[:, d])
            block = gram(X, sqrt_weights=np.sqrt(s), intercept=fit_intercept)
            if d != c:
                block = -block
            H[c * k : (c + 1) * k, d * k : (d + 1) * k] = block
            if d != c:
                H[d * k : (d + 1) * k, c * k : (c + 1) * k] = block.T
    return H


def multinomial_hessian_product(params, X, V, sample_weight=None, fit_intercept=True):
    """``H v`` for a direction ``V`` of the shape of ``params`` (returned with that shape)."""
    params = np.asarray(params, dtype=np.float64)
    V = np.asarray(V, dtype=np.float64).reshape(params.shape)
    w = _weights(sample_weight, X.shape[0])
    P = softmax(linear_predictor(X, params, fit_intercept))
    U = linear_predictor(X, V, fit_intercept)
    S = np.einsum("ij,ij->i", P, U)
    M = w[:, None] * P * (U - S[:, None])
    return _back(X, M, fit_intercept)


@lazy_kernel((readonly(2), readonly()), cache=True)
def _weighted_sums(X, w):
    n, p = X.shape
    s1 = np.zeros(p)
    s2 = np.zeros(p)
    for i in range(n):
        wi = w[i]
        for j in range(p):
            v = X[i, j]
            s1[j] += wi * v
            s2[j] += wi * v * v
    return s1, s2


def column_moments(X, sample_weight=None, center=True):
    """Weighted column means and standard deviations in one pass over ``X``.

    With ``center=False`` the means are zero and the scales are root mean squares. Scales of
    (numerically) constant columns are 1. Used to precondition first-order solvers.
    """
    X = np.asarray(X, dtype=np.float64)
    w = _weights(sample_weight, X.shape[0])
    s1, s2 = _weighted_sums(np.ascontiguousarray(X), np.ascontiguousarray(w))
    total = w.sum()
    mean = s1 / total if center else np.zeros(X.shape[1])
    var = np.maximum(s2 / total - mean**2, 0.0)
    scale = np.sqrt(var)
    # constant relative to the column's own level (an absolute floor would call a column
    # of standard deviation 1e-11 constant and leave it unscaled: a silent wrong fit)
    tiny = (scale == 0.0) | (scale <= 1e-10 * np.abs(mean))
    scale[tiny] = 1.0
    return mean, scale


# ---------------------------------------------------------------------------------- separation


def certifies_no_separation(X, y, eta, w=None, fit_intercept=True, margin=0.5) -> bool:
    """Whether a fitted binary logistic model proves that its sample is not separated.

    By Gordan's theorem of the alternative, no ``β ≠ 0``-margin direction with
    ``s_i a_iᵀβ ≥ 0`` for all ``i`` (``s_i = 2y_i − 1``, ``a_i = [1, x_i]``; quasi-complete
    separation) exists exactly when some ``λ > 0`` has ``Σ_i λ_i s_i a_i = 0``. A fit supplies
    ``λ_i = w_i σ(−s_i η_i) > 0`` (``|y_i − μ_i|``, computed without cancellation), whose sum
    ``g = Σ λ_i s_i a_i`` is the likelihood's gradient, zero at the MLE. The correction
    ``δ = −Λ S (SᵀΛS)⁻¹ g`` makes the sum exactly zero, and ``λ + δ`` stays positive iff
    ``s_i a_iᵀΔ < 1`` for every ``i``, with ``Δ = (AᵀΛA)⁻¹ g`` (a Newton-like step). This
    function checks that condition (with ``margin`` < 1 for rounding): one weighted Gram, one
    solve and one matrix–vector product, so the linear program of
    :func:`separation_direction` is needed only when the certificate fails — which it always
    does on separated data (no positive ``λ`` exists) and may on converging fits still far
    from the optimum.

    Parameters
    ----------
    X : ndarray of shape (n, p)
        The non-aliased columns, rows of positive weight.
    y : ndarray of shape (n,)
        0/1 responses.
    eta : ndarray of shape (n,)
        The fitted linear predictor.
    w : ndarray of shape (n,) or None
        Positive prior weights.
    fit_intercept : bool, default=True
    margin : float, default=0.5

    Returns
    -------
    bool
        True when the sample is proved not (quasi-)separated; False when undecided.
    """
    G = certificate_gram(X, y, eta, w, fit_intercept)
    step = None if G is None else certificate_step(G)
    if step is None:
        return False
    return certificate_margin(X, y, step, fit_intercept) < margin


def certifies_with_fit_weights(X, y, eta, W, cov, w=None, fit_intercept=True, margin=0.5):
    """:func:`certifies_no_separation` from the fit's last weighted least-squares problem,
    without a Gram matrix: two matrix–vector products.

    Any positive weights ``D`` give a correction ``δ = −D S (AᵀDA)⁻¹ g`` that makes
    ``Σ (λ_i + δ_i) s_i a_i`` zero. With ``D = W``, the working weights of the final IRLS
    iteration, ``(AᵀWA)⁻¹`` is the fit's unscaled covariance, and ``λ + δ > 0`` holds iff
    ``(W_i/λ_i) s_i a_iᵀΔ < 1`` for every ``i``, with ``Δ = (AᵀWA)⁻¹ g``. The ``λ_i`` are the
    gradient's weights ``w_i σ(−s_i η_i)`` raised to at least ``W_i``, so every ratio is at
    most 1: ``W_i`` is ``λ_i μ_i`` or ``λ_i (1 − μ_i)`` (at the previous iterate) except where
    glm clamps ``μ`` and ``dμ/dη`` (``|η| > 30``: ``W_i ≈ w_i ε``), and raising those
    ``λ_i`` moves ``g`` by at most ``ε Σ w_i |a_i|``. Any positive ``λ`` will do (Gordan's
    alternative asks for no more). The certificate holds at the optimum of non-separated data
    (margins 1e-10 to 1e-4 on nearly separable samples with ``|η|`` up to 200); when it does
    not, :func:`certifies_no_separation` may still.

    Parameters
    ----------
    X : ndarray of shape (n, p)
        The non-aliased columns, rows of positive weight.
    y, eta : ndarray of shape (n,)
        0/1 responses and the fitted linear predictor.
    W : ndarray of shape (n,)
        The final iteration's working weights (prior weights included).
    cov : ndarray of shape (k, k)
        ``(AᵀWA)⁻¹`` with ``A = [1, X]`` (or ``X``).
    w : ndarray of shape (n,) or None
        Positive prior weights.
    fit_intercept : bool, default=True
    margin : float, default=0.5

    Returns
    -------
    bool
        True when the sample is proved not (quasi-)separated; False when undecided.
    """
    signs = 2.0 * np.asarray(y, dtype=np.float64) - 1.0
    lam = special.expit(-signs * eta)
    if w is not None:
        lam *= w
    if not np.all(W > 0.0):
        return False
    np.maximum(lam, W, out=lam)
    v = lam * signs
    g = X.T @ v
    if fit_intercept:
        g = np.concatenate([[v.sum()], g])
    step = cov @ g
    if not np.all(np.isfinite(step)):
        return False
    return certificate_margin(X, y, step, fit_intercept, ratio=W / lam) < margin


def certificate_gram(X, y, eta, w=None, fit_intercept=True):
    """``[A | s]ᵀΛ[A | s]`` of :func:`certifies_no_separation` (``None`` when some ``λ_i``
    underflows to zero: no strictly positive certificate); sums over blocks of rows."""
    signs = 2.0 * np.asarray(y, dtype=np.float64) - 1.0
    lam = special.expit(-signs * eta)
    if w is not None:
        lam = lam * w
    if not np.all(lam > 0.0):  # underflow: no strictly positive certificate available
        return None
    return gram(X, sqrt_weights=np.sqrt(lam), intercept=fit_intercept, extra=signs)


def certificate_step(G):
    """``Δ = (AᵀΛA)⁻¹ g`` from :func:`certificate_gram`, or ``None`` when it is not finite."""
    k = G.shape[0] - 1
    try:
        step = linalg.cho_solve(linalg.cho_factor(G[:k, :k]), G[:k, k])
    except (linalg.LinAlgError, ValueError):
        return None
    return step if np.all(np.isfinite(step)) else None


def certificate_margin(X, y, step, fit_intercept=True, ratio=None) -> float:
    """``max_i r_i s_i a_iᵀΔ`` (below the margin: the certificate holds), with ``r_i = D_i/λ_i``
    (``ratio``; 1 when ``D = Λ``); a maximum over blocks."""
    signs = 2.0 * np.asarray(y, dtype=np.float64) - 1.0
    along = X @ step[1:] + step[0] if fit_intercept else X @ step
    along *= signs
    if ratio is not None:
        along *= ratio
    return float(np.max(along, initial=-np.inf))


def separation_direction(X, y, fit_intercept=True, tol=1e-7):
    """A direction that (quasi-)completely separates a binary sample, or ``None``.

    Solves the linear program (Konis, 2007)

    .. math:: \\max_\\beta \\sum_i s_i a_i^\\top\\beta \\quad \\text{s.t.}\\quad
              s_i a_i^\\top\\beta \\ge 0,\\; -1 \\le \\beta_j \\le 1,

    with ``s_i = 2y_i − 1`` and ``a_i = [1, x_i]`` on columns scaled to unit maximum. Its value
    is positive exactly when some hyperplane has every point on its own class's side (or on
    the plane), i.e. when the logistic likelihood has no maximiser: the coefficients then grow
    without bound along the returned direction.

    Returns
    -------
    direction : ndarray of shape (k,) or None
        In the original (unscaled) parameterisation, intercept first; ``None`` when the sample
        is not separated.
    """
    A = np.hstack([np.ones((X.shape[0], 1)), X]) if fit_intercept else np.asarray(X, float)
    scale = np.max(np.abs(A), axis=0)
    scale[scale == 0] = 1.0
    S = (A / scale) * (2.0 * np.asarray(y, dtype=np.float64) - 1.0)[:, None]
    res = optimize.linprog(
        -S.sum(axis=0),
        A_ub=-S,
        b_ub=np.zeros(S.shape[0]),
        bounds=[(-1.0, 1.0)] * S.shape[1],
        method="highs",
    )
    if res.status != 0:  # pragma: no cover - the LP is always feasible (β = 0) and bounded
        return None
    margins = S @ res.x
    if margins.max() <= tol * S.shape[1] or margins.min() < -tol * S.shape[1]:
        return None
    return res.x / scale
