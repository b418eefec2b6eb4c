"""Probabilities of support-vector classifiers: Platt scaling and pairwise coupling.

Each one-vs-one decision value ``f`` becomes ``P(first class | f) = 1 / (1 + exp(A f + B))``
(Platt 1999), with ``(A, B)`` the maximum-likelihood logistic fit of held-out decision values
(internal cross-validation, so that the training points' own fits do not make the sigmoid too
steep) to Platt's smoothed targets ``(N₊ + 1)/(N₊ + 2)`` and ``1/(N₋ + 2)``; that logistic fit is
the binomial GLM of :func:`statlearning._solvers.logistic.binary_irls`. With more than two
classes the pairwise probabilities ``r_ab`` are coupled into one distribution by Wu, Lin &
Weng's (2004) second method, ``min_p Σ_a Σ_{b≠a} (r_ba p_a − r_ab p_b)²`` s.t. ``Σ p = 1``,
solved exactly (its KKT system) rather than iteratively as libsvm does.
"""

from __future__ import annotations

import numpy as np

from .._solvers.logistic import binary_irls

__all__ = ["couple_pairwise", "fit_platt", "ovr_from_ovo", "platt_probability"]


def fit_platt(decision, positive, weights):
    """Platt's ``(A, B)`` for decision values ``decision`` of labels ``positive`` (bool).

    Parameters
    ----------
    decision : ndarray of shape (n,)
    positive : ndarray of bool, shape (n,)
    weights : ndarray of shape (n,)
        Sample weights (counts of repeated rows).

    Returns
    -------
    A, B : float
    """
    n_pos = float(weights[positive].sum())
    n_neg = float(weights[~positive].sum())
    target = np.where(positive, (n_pos + 1.0) / (n_pos + 2.0), 1.0 / (n_neg + 2.0))
    fit = binary_irls(decision[:, None], target, weights, max_iter=100)
    b0, b1 = fit.params[0]
    if not np.all(np.isfinite([b0, b1])):  # pragma: no cover - Platt's targets never separate
        b0, b1 = np.log((n_pos + 1.0) / (n_neg + 1.0)), 0.0
    return -float(b1), -float(b0)


def platt_probability(decision, A, B):
    """``1 / (1 + exp(A f + B))``, computed without overflow."""
    z = decision * A + B
    out = np.empty_like(z)
    pos = z >= 0
    e = np.exp(-z[pos])
    out[pos] = e / (1.0 + e)
    out[~pos] = 1.0 / (1.0 + np.exp(z[~pos]))
    return out


def couple_pairwise(r, n_classes):
    """Class probabilities from pairwise ones ``r[:, k] = P(a | a or b)`` (pairs in order).

    Parameters
    ----------
    r : ndarray of shape (n_samples, n_pairs)
    n_classes : int

    Returns
    -------
    ndarray of shape (n_samples, n_classes)
    """
    m = r.shape[0]
    R = np.zeros((m, n_classes, n_classes))  # R[:, a, b] = P(a | a or b)
    k = 0
    for a in range(n_classes):
        for b in range(a + 1, n_classes):
            R[:, a, b] = r[:, k]
            R[:, b, a] = 1.0 - r[:, k]
            k += 1
    # Q_aa = Σ_{b≠a} r_ba², Q_ab = −r_ba r_ab
    Q = -R.transpose(0, 2, 1) * R
    idx = np.arange(n_classes)
    Q[:, idx, idx] = (R.transpose(0, 2, 1) ** 2).sum(axis=2) - (R[:, idx, idx] ** 2)
    A = np.zeros((m, n_classes + 1, n_classes + 1))
    A[:, :n_classes, :n_classes] = Q
    A[:, :n_classes, n_classes] = 1.0
    A[:, n_classes, :n_classes] = 1.0
    rhs = np.zeros((m, n_classes + 1, 1))
    rhs[:, n_classes, 0] = 1.0
    p = np.linalg.solve(A, rhs)[:, :n_classes, 0]
    p = np.clip(p, 0.0, None)
    return p / p.sum(axis=1, keepdims=True)


def ovr_from_ovo(decision, n_classes):
    """scikit-learn's one-vs-rest view of one-vs-one decision values (positive: first class).

    Each class gets its votes plus its summed confidences squashed into ``(−1/3, 1/3)``, so that
    the votes decide and the confidences only break ties.
    """
    m = decision.shape[0]
    votes = np.zeros((m, n_classes))
    conf = np.zeros((m, n_classes))
    k = 0
    for a in range(n_classes):
        for b in range(a + 1, n_classes):
            conf[:, a] += decision[:, k]
            conf[:, b] -= decision[:, k]
            votes[:, a] += decision[:, k] >= 0
            votes[:, b] += decision[:, k] < 0
            k += 1
    return votes + conf / (3.0 * (np.abs(conf) + 1.0))
