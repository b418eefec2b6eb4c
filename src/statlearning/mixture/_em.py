"""The maths of Gaussian-mixture EM: M-step estimates, Cholesky precisions, log-densities.

Covariance storage by ``covariance_type`` (scikit-learn's layout):

* ``"full"``: ``(K, d, d)``; ``"tied"``: ``(d, d)``; ``"diag"``: ``(K, d)``;
* ``"spherical"``: ``(K,)``.

``precisions_cholesky`` holds ``U`` with ``Σ⁻¹ = U Uᵀ`` (upper-triangular for full/tied, the
inverse standard deviations for diag/spherical), so that ``(x − μ)ᵀ Σ⁻¹ (x − μ) = ‖(x − μ) U‖²``.
"""

from __future__ import annotations

import numpy as np
from scipy import linalg

from .._core.linalg import symmetric_eigh, triangular_inverse

__all__ = [
    "covariance_from_precision",
    "e_step",
    "estimate_log_prob",
    "estimate_parameters",
    "min_eigenvalue_unregularised",
    "n_parameters",
    "parameters_from_moments",
    "precisions_cholesky",
]


def estimate_parameters(X, resp, reg_covar, covariance_type):
    """M-step: ``(n_k, μ_k, Σ_k)`` from responsibilities (seed 001's updates, 1/n_k normaliser)."""
    nk = resp.sum(axis=0) + 10 * np.finfo(resp.dtype).eps
    means = (resp.T @ X) / nk[:, None]
    d = X.shape[1]
    if covariance_type == "full":
        cov = np.empty((len(nk), d, d))
        for k in range(len(nk)):
            diff = X - means[k]
            cov[k] = (resp[:, k] * diff.T) @ diff / nk[k]
            cov[k].flat[:: d + 1] += reg_covar
    elif covariance_type == "tied":
        cov = X.T @ X - (nk * means.T) @ means
        cov /= nk.sum()
        cov.flat[:: d + 1] += reg_covar
    else:
        avg_x2 = (resp.T @ (X * X)) / nk[:, None]
        avg_xm = means * (resp.T @ X) / nk[:, None]
        cov = avg_x2 - 2 * avg_xm + means**2 + reg_covar
        if covariance_type == "spherical":
            cov = cov.mean(axis=1)
    return nk, means, cov


def parameters_from_moments(moments, reg_covar, covariance_type):
    """M-step from per-component weighted moments: :func:`estimate_parameters`'s estimates.

    Parameters
    ----------
    moments : list of (float, ndarray, ndarray)
        For every component, ``(W_k, m_k, C_k)``: the total responsibility, the
        responsibility-weighted mean of the rows and ``C_k = Σ_i r_ik (x_i − m_k)(x_i − m_k)ᵀ``
        (:func:`statlearning._core.linalg.block_cross_moments`, merged over blocks of rows).

    Returns
    -------
    nk, means, cov
        As :func:`estimate_parameters`. The tied covariance is ``Σ_k C_k / Σ_k n_k`` (equal to
        ``(XᵀX − Σ_k n_k μ_k μ_kᵀ) / n`` since every row's responsibilities sum to one, without
        that formula's cancellation), the diagonal ones ``diag(C_k) / n_k``.
    """
    W = np.array([m[0] for m in moments], dtype=np.float64)
    nk = W + 10 * np.finfo(np.float64).eps
    means = np.array([m[1] for m in moments]) * (W / nk)[:, None]
    C = np.array([m[2] for m in moments])
    d = means.shape[1]
    if covariance_type == "full":
        cov = C / nk[:, None, None]
        for c in cov:
            c.flat[:: d + 1] += reg_covar
    elif covariance_type == "tied":
        cov = C.sum(axis=0) / nk.sum()
        cov.flat[:: d + 1] += reg_covar
    else:
        cov = np.diagonal(C, axis1=1, axis2=2) / nk[:, None] + reg_covar
        if covariance_type == "spherical":
            cov = cov.mean(axis=1)
    return nk, means, cov


def precisions_cholesky(cov, covariance_type):
    """``U`` with ``Σ⁻¹ = U Uᵀ``; ``np.linalg.LinAlgError`` if a Σ is not positive definite."""
    if covariance_type in ("full", "tied"):
        covs = cov if covariance_type == "full" else cov[None]
        out = np.empty_like(covs)
        for k, c in enumerate(covs):
            try:
                chol = linalg.cholesky(c, lower=True)
            except linalg.LinAlgError as exc:
                raise np.linalg.LinAlgError(str(k)) from exc
            out[k] = triangular_inverse(chol, lower=True).T
        return out if covariance_type == "full" else out[0]
    if np.any(cov <= 0.0):
        raise np.linalg.LinAlgError(str(int(np.argmin(np.atleast_1d(cov)))))
    return 1.0 / np.sqrt(cov)


def covariance_from_precision(prec_chol, covariance_type):
    """``Σ`` back from ``U`` (used when the user supplies ``precisions_init``)."""
    if covariance_type == "full":
        return np.array([linalg.inv(u @ u.T) for u in prec_chol])
    if covariance_type == "tied":
        return linalg.inv(prec_chol @ prec_chol.T)
    return 1.0 / prec_chol**2


def estimate_log_prob(X, means, prec_chol, covariance_type):
    """``log N(x_i | μ_k, Σ_k)`` as an ``(n, K)`` array."""
    n, d = X.shape
    K = means.shape[0]
    if covariance_type in ("full", "tied"):
        out = np.empty((n, K))
        for k in range(K):
            u = prec_chol[k] if covariance_type == "full" else prec_chol
            y = X @ u - means[k] @ u
            out[:, k] = np.einsum("ij,ij->i", y, y)
        if covariance_type == "full":
            log_det = np.log(np.diagonal(prec_chol, axis1=1, axis2=2)).sum(axis=1)
        else:
            log_det = np.log(np.diag(prec_chol)).sum()
    elif covariance_type == "diag":
        p2 = prec_chol**2
        out = (means**2 * p2).sum(1) - 2.0 * (X @ (means * p2).T) + (X**2) @ p2.T
        log_det = np.log(prec_chol).sum(axis=1)
    else:
        p2 = prec_chol**2
        out = (means**2).sum(1) * p2 - 2.0 * (X @ means.T) * p2 + np.outer((X**2).sum(1), p2)
        log_det = d * np.log(prec_chol)
    return -0.5 * (d * np.log(2 * np.pi) + out) + log_det


def e_step(X, weights, means, prec_chol, covariance_type):
    r"""E-step by log-sum-exp: ``(mean log-likelihood, resp, log p(x_i))``.

    With :math:`\ell_{ik} = \log \pi_k + \log N(x_i \mid \mu_k, \Sigma_k)` and
    :math:`m_i = \max_k \ell_{ik}`, :math:`\log p(x_i) = m_i + \log \sum_k e^{\ell_{ik} - m_i}`
    and the responsibilities are :math:`e^{\ell_{ik} - m_i} / \sum_k e^{\ell_{ik} - m_i}`:
    no term underflows for the most likely component.
    """
    weighted = estimate_log_prob(X, means, prec_chol, covariance_type)
    with np.errstate(divide="ignore"):  # a zero weight gives log 0 = -inf: responsibility 0
        weighted += np.log(weights)
    top = weighted.max(axis=1, keepdims=True)
    if not np.all(np.isfinite(top)):
        top = np.where(np.isfinite(top), top, 0.0)
    weighted -= top
    resp = np.exp(weighted, out=weighted)
    total = resp.sum(axis=1, keepdims=True)
    resp /= total
    log_norm = np.log(total[:, 0]) + top[:, 0]
    return float(log_norm.mean()), resp, log_norm


def n_parameters(n_components, n_features, covariance_type):
    """Free parameters: means, covariances and the ``K − 1`` free weights."""
    d = n_features
    cov = {
        "full": n_components * d * (d + 1) / 2.0,
        "tied": d * (d + 1) / 2.0,
        "diag": n_components * d,
        "spherical": n_components,
    }[covariance_type]
    return int(cov + n_components * d + n_components - 1)


def min_eigenvalue_unregularised(cov, reg_covar, covariance_type):
    """Smallest eigenvalue of each Σ_k before ``reg_covar`` was added (singularity check)."""
    if covariance_type == "full":
        return np.array([symmetric_eigh(c, eigvals_only=True)[0] for c in cov]) - reg_covar
    if covariance_type == "tied":
        return np.array([symmetric_eigh(cov, eigvals_only=True)[0]]) - reg_covar
    if covariance_type == "diag":
        return cov.min(axis=1) - reg_covar
    return np.asarray(cov) - reg_covar
