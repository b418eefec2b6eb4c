"""Losses of gradient boosting: initial value, negative gradient, leaf line search, loss value.

Array in, array out. ``raw`` is the additive model on the link scale, shape ``(n, K)`` (``K = 1``
except for multiclass log-loss). Every line search sees only the in-bag rows of the leaf (the
weights ``w`` are zero out of the bag) and returns the unshrunken leaf value; the caller
multiplies by the learning rate. The conventions (weighted percentiles, the multiclass factor
``(K - 1)/K``, the reported loss scale) are scikit-learn's, so that both libraries grow the same
trees.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, logsumexp, softmax

_EPS = np.finfo(np.float64).eps


def weighted_percentile(a: np.ndarray, w: np.ndarray, q: float) -> float:
    """The inverted-CDF weighted ``q``-quantile: the smallest ``a`` whose weight CDF ≥ q·W.

    With unit weights and ``q = 0.5`` this is the lower median. ``q`` is rounded as
    ``(100 q) / 100`` so that the result is scikit-learn's ``_weighted_percentile``.
    """
    order = np.argsort(a, kind="stable")
    cw = np.cumsum(w[order])
    target = (100.0 * q) / 100.0 * cw[-1]
    if target == 0.0:
        target = np.nextafter(0.0, 1.0)
    k = min(int(np.searchsorted(cw, target)), a.size - 1)
    return float(a[order[k]])


def _leaf_groups(leaf: np.ndarray, inbag: np.ndarray, leaves: np.ndarray):
    """For every leaf id, the in-bag rows that land in it."""
    rows = np.flatnonzero(inbag)
    order = rows[np.argsort(leaf[rows], kind="stable")]
    bounds = np.searchsorted(leaf[order], np.concatenate([leaves, [np.iinfo(np.int64).max]]))
    return [order[bounds[j]:bounds[j + 1]] for j in range(leaves.size)]


def _init_quantile(y, w, weighted: bool, q: float) -> float:
    """The initial constant of the quantile-type losses (scikit-learn's ``DummyRegressor``)."""
    if weighted:
        return weighted_percentile(y, w, q)
    return float(np.percentile(y, 100.0 * q))


class SquaredError:
    """``L = (y - f)²``; gradient ``y - f``; leaf value the mean residual (the tree's own)."""

    n_trees = 1
    factor = 1.0  # the reported loss is the mean squared error

    def init_raw(self, y, w, weighted):
        return np.array([np.average(y, weights=w if weighted else None)])

    def prepare(self, y, raw, w):
        """Per-stage set-up before the gradient (Huber's δ)."""

    def neg_gradient(self, y, raw):
        return (y - raw[:, 0])[:, None]

    def line_search(self, tree_value, leaf, leaves, y, g, raw, w, inbag, k):
        """Leave the tree's leaf values (weighted mean of the residuals) unchanged."""

    def loss(self, y, raw, w):
        return float(np.average((y - raw[:, 0]) ** 2, weights=w))


class AbsoluteError(SquaredError):
    """``L = |y - f|``; gradient ``sign(y - f)``; leaf value the weighted median residual.

    At ``y = f`` the negative gradient is ``-1`` (scikit-learn's convention, so that both grow
    the same trees).
    """

    def init_raw(self, y, w, weighted):
        return np.array([_init_quantile(y, w, weighted, 0.5)])

    def neg_gradient(self, y, raw):
        return np.where(y > raw[:, 0], 1.0, -1.0)[:, None]

    def _leaf_value(self, r, w):
        return weighted_percentile(r, w, 0.5)

    def line_search(self, tree_value, leaf, leaves, y, g, raw, w, inbag, k):
        r = y - raw[:, k]
        for node, rows in zip(leaves, _leaf_groups(leaf, inbag, leaves), strict=True):
            if rows.size:
                tree_value[node, 0] = self._leaf_value(r[rows], w[rows])

    def loss(self, y, raw, w):
        return float(np.average(np.abs(y - raw[:, 0]), weights=w))


class HuberLoss(AbsoluteError):
    """Huber's loss with δ the ``alpha``-quantile of ``|y - f|``, recomputed at every stage.

    ``L = r²/2`` for ``|r| ≤ δ`` and ``δ(|r| - δ/2)`` otherwise; gradient ``r`` clipped at ``±δ``;
    leaf value Friedman's one-step M-estimate ``m + mean(sign(r - m) min(δ, |r - m|))`` about
    the leaf's median residual ``m``.
    """

    def __init__(self, alpha: float):
        self.alpha = alpha
        self.delta = np.nan

    def prepare(self, y, raw, w):
        self.delta = weighted_percentile(np.abs(y - raw[:, 0]), w, self.alpha)

    def neg_gradient(self, y, raw):
        r = y - raw[:, 0]
        return np.where(np.abs(r) <= self.delta, r, self.delta * np.sign(r))[:, None]

    def _leaf_value(self, r, w):
        med = weighted_percentile(r, w, 0.5)
        d = r - med
        return med + float(np.average(np.sign(d) * np.minimum(self.delta, np.abs(d)), weights=w))

    def loss(self, y, raw, w):
        a = np.abs(y - raw[:, 0])
        d = self.delta
        return float(np.average(np.where(a <= d, 0.5 * a * a, d * (a - 0.5 * d)), weights=w))


def _newton_leaves(tree_value, leaf, leaves, g, p, w, n_nodes, scale):
    """Leaf value ``scale · Σ w g / Σ w p(1 - p)`` (0 when the curvature vanishes)."""
    sw = np.bincount(leaf, weights=w, minlength=n_nodes)[leaves]
    num = np.bincount(leaf, weights=w * g, minlength=n_nodes)[leaves]
    den = np.bincount(leaf, weights=w * p * (1.0 - p), minlength=n_nodes)[leaves]
    ok = sw > 0
    num = np.where(ok, num / np.where(ok, sw, 1.0), 0.0) * scale
    den = np.where(ok, den / np.where(ok, sw, 1.0), 0.0)
    tiny = np.abs(den) < 1e-150
    tree_value[leaves, 0] = np.where(tiny, 0.0, num / np.where(tiny, 1.0, den))


class BinomialDeviance:
    """Binary log-loss on the logit scale; leaf value one Newton step ``Σ r / Σ p(1 - p)``."""

    n_trees = 1
    factor = 2.0  # the binomial deviance

    def init_raw(self, y, w, weighted):
        p = np.clip(np.average(y == 1, weights=w if weighted else None), _EPS, 1 - _EPS)
        return np.array([np.log(p / (1 - p))])

    def prepare(self, y, raw, w):
        """No per-stage set-up."""

    def neg_gradient(self, y, raw):
        return (y - expit(raw[:, 0]))[:, None]

    def line_search(self, tree_value, leaf, leaves, y, g, raw, w, inbag, k):
        _newton_leaves(tree_value, leaf, leaves, g, y - g, w, tree_value.shape[0], 1.0)

    def loss(self, y, raw, w):
        f = raw[:, 0]
        return float(np.average(np.logaddexp(0.0, f) - y * f, weights=w))


class MultinomialDeviance(BinomialDeviance):
    """K-class log-loss with softmax; K trees per stage, leaf value ``(K-1)/K · Σr / Σ|r|(1-|r|)``.

    Here ``|r|(1 - |r|) = p_k(1 - p_k)``: the diagonal of the Hessian.
    """

    factor = 1.0

    def __init__(self, n_classes: int):
        self.n_trees = n_classes

    def init_raw(self, y, w, weighted):
        K = self.n_trees
        p = np.array([np.average(y == k, weights=w if weighted else None) for k in range(K)])
        logp = np.log(np.clip(p, _EPS, 1 - _EPS))
        return logp - logp.mean()

    def neg_gradient(self, y, raw):
        onehot = (y[:, None] == np.arange(self.n_trees)[None, :]).astype(np.float64)
        return onehot - softmax(raw, axis=1)

    def line_search(self, tree_value, leaf, leaves, y, g, raw, w, inbag, k):
        K = self.n_trees
        yk = (y == k).astype(np.float64)
        _newton_leaves(tree_value, leaf, leaves, g, yk - g, w, tree_value.shape[0], (K - 1) / K)

    def loss(self, y, raw, w):
        yi = y.astype(np.int64)
        return float(np.average(logsumexp(raw, axis=1) - raw[np.arange(y.size), yi], weights=w))


def make_loss(name: str, *, alpha: float = 0.9, n_classes: int = 1):
    """The loss object for ``loss=name`` (``n_classes`` > 2 selects the multinomial)."""
    if name == "squared_error":
        return SquaredError()
    if name == "absolute_error":
        return AbsoluteError()
    if name == "huber":
        return HuberLoss(alpha)
    if name == "log_loss":
        return BinomialDeviance() if n_classes <= 2 else MultinomialDeviance(n_classes)
    raise ValueError(f"Unknown loss {name!r}.")
