"""Variable importance of forests: OOB permutation importance and inverse-split-level importance.

* :func:`oob_permutation_importance`: for every tree, the change in its OOB error when one
  column is permuted among that tree's out-of-bag rows; Breiman's signed mean (R's
  ``randomForest`` ``importance(fit, type = 1, scale = FALSE)``) or the lecture notes'
  Algorithm 7 (absolute differences over a root-sum-of-squares).
* :func:`split_level_importance`: every split on a variable weighted by ``1 / level`` (root at
  level 1), summed within a tree and averaged over trees.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.utils import Bunch, check_random_state
from sklearn.utils.validation import check_is_fitted

from ..tree._structure import TREE_LEAF, apply_tree

__all__ = ["oob_permutation_importance", "split_level_importance"]


def _tree_predict(t, X):
    return t.value[apply_tree(t.children_left, t.children_right, t.feature, t.threshold, X)]


def tree_permutation_deltas(tree, X, target, counts, is_classifier, n_classes, rng,
                            features=None):
    """Per-tree OOB error increases when each column is permuted among the OOB rows.

    Classification: ``(correct - correct after permuting) / n_oob`` overall and, per class
    ``c``, over the OOB rows of class ``c`` (0 when the tree has none); regression:
    ``(SSE after permuting - SSE) / n_oob``. Only the columns in ``features`` (default: the
    columns the tree splits on; the others give exactly 0) are permuted, in increasing order.

    Returns
    -------
    overall : ndarray of shape (n_features,)
    per_class : ndarray of shape (n_features, n_classes) or None
    """
    p = X.shape[1]
    overall = np.zeros(p)
    per_class = np.zeros((p, n_classes)) if is_classifier else None
    rows = np.flatnonzero(counts == 0)
    if rows.size == 0:
        return overall, per_class
    t = tree.tree_
    Xo = np.array(X[rows], dtype=np.float64)
    yo = target[rows]
    if features is None:
        features = np.unique(t.feature[t.children_left != TREE_LEAF])
    if is_classifier:
        node_class = np.argmax(t.value, axis=1)
        leaf = apply_tree(t.children_left, t.children_right, t.feature, t.threshold, Xo)
        right = node_class[leaf] == yo
        n_out = np.bincount(yo, minlength=n_classes)
        ok_c = np.bincount(yo, weights=right, minlength=n_classes)
    else:
        err = float(np.sum((_tree_predict(t, Xo)[:, 0] - yo) ** 2))
    for j in features:
        saved = Xo[:, j].copy()
        Xo[:, j] = saved[rng.permutation(rows.size)]
        if is_classifier:
            leaf = apply_tree(t.children_left, t.children_right, t.feature, t.threshold, Xo)
            right_p = node_class[leaf] == yo
            overall[j] = (np.sum(right) - np.sum(right_p)) / rows.size
            okp_c = np.bincount(yo, weights=right_p, minlength=n_classes)
            with np.errstate(invalid="ignore", divide="ignore"):
                per_class[j] = np.where(n_out > 0, (ok_c - okp_c) / np.maximum(n_out, 1), 0.0)
        else:
            errp = float(np.sum((_tree_predict(t, Xo)[:, 0] - yo) ** 2))
            overall[j] = (errp - err) / rows.size
        Xo[:, j] = saved
    return overall, per_class


def mean_and_se(deltas: np.ndarray):
    """R's ``importance`` and ``importanceSD``: mean over trees and sqrt((E[d²] - E[d]²) / B)."""
    b = deltas.shape[0]
    mean = deltas.mean(axis=0)
    var = np.maximum((deltas ** 2).mean(axis=0) - mean ** 2, 0.0)
    return mean, np.sqrt(var / b)


def oob_permutation_importance(forest, X, y, *, sample_weight=None, method="breiman",
                               random_state=None):
    """OOB permutation importance of a fitted bagged-tree ensemble or random forest.

    ``X`` and ``y`` must be the training data the ensemble was fitted on: the in-bag counts
    of every tree are recomputed from the ensemble's stored seeds.

    Parameters
    ----------
    forest : fitted :class:`RandomForestClassifier`, :class:`RandomForestRegressor`,
        :class:`BaggingClassifier` or :class:`BaggingRegressor` (of statlearning trees).
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default=None
        The ``sample_weight`` of the fit (rows of zero weight are never out of bag).
    method : {"breiman", "seed001"}, default="breiman"
        ``"breiman"``: the signed per-tree differences :math:`d_{bj}` (accuracy decrease, or
        MSE increase) averaged over trees, with R's standard error
        :math:`\\sqrt{(\\overline{d^2} - \\bar d^2)/B}` (``importance(fit, scale = FALSE)``
        and ``fit$importanceSD``). ``"seed001"``: the lecture notes' Algorithm 7,
        :math:`a_{bj} = |d_{bj}|` and
        :math:`\\text{relevance}_j = \\bar a_j / \\sqrt{\\sum_b (a_{bj} - \\bar a_j)^2}`
        (a root-sum-of-squares, not a standard deviation, as printed); a zero denominator
        gives 0 when :math:`\\bar a_j = 0` and ``inf`` (with a warning) otherwise.
    random_state : int, RandomState instance or None, default=None
        Seeds the permutations.

    Returns
    -------
    result : Bunch
        ``importances_mean`` (the importance of every column, by ``method``),
        ``importances_std`` (R's standard error for ``"breiman"``, the denominator for
        ``"seed001"``) and ``importances`` (the per-tree differences, shape
        ``(n_features, n_trees)``; absolute for ``"seed001"``).

    Notes
    -----
    For tree :math:`b` with out-of-bag rows :math:`O_b` and column :math:`j` permuted among
    them, :math:`d_{bj} = \\text{acc}_b - \\text{acc}_b^{\\pi_j}` (classification) or
    :math:`d_{bj} = \\text{MSE}_b^{\\pi_j} - \\text{MSE}_b` (regression), each tree predicting
    alone (Breiman 2001; seed 000 §1.6, seed 001 A4). Every column is permuted, in order.
    """
    check_is_fitted(forest, "estimators_")
    if method not in ("breiman", "seed001"):
        raise ValueError(f"method must be 'breiman' or 'seed001'; got {method!r}.")
    X = forest._validate_predict(X)
    y = np.asarray(y)
    if X.shape[0] != forest._n_samples or y.shape[0] != X.shape[0]:
        raise ValueError("X and y must be the training data of the forest "
                         f"({forest._n_samples} rows).")
    if not forest._fast:
        raise ValueError("oob_permutation_importance needs an ensemble of statlearning trees.")
    is_clf = forest._is_classifier
    if is_clf:
        target = np.searchsorted(forest.classes_, y)
        if np.any(target >= forest.classes_.size) or np.any(forest.classes_[target] != y):
            raise ValueError("y holds labels that are not in the forest's classes_.")
    else:
        target = y.astype(np.float64)
    rng = check_random_state(random_state)
    w = np.ones(X.shape[0]) if sample_weight is None else np.asarray(sample_weight, float)
    k = forest.n_classes_ if is_clf else 1
    all_features = np.arange(X.shape[1])
    d = np.empty((len(forest.estimators_), X.shape[1]))
    for b, est in enumerate(forest.estimators_):
        counts = np.where(w > 0, forest._in_bag_counts(b, X, target, w), 1.0)
        d[b], _ = tree_permutation_deltas(est, X, target, counts, is_clf, k, rng,
                                          features=all_features)
    if method == "breiman":
        mean, se = mean_and_se(d)
        return Bunch(importances_mean=mean, importances_std=se, importances=d.T)
    a = np.abs(d)
    mean = a.mean(axis=0)
    denom = np.sqrt(np.sum((a - mean) ** 2, axis=0))
    out = np.zeros_like(mean)
    pos = denom > 0
    out[pos] = mean[pos] / denom[pos]
    bad = ~pos & (mean > 0)
    if np.any(bad):
        warnings.warn("oob_permutation_importance: every tree gives the same absolute "
                      f"difference for columns {np.flatnonzero(bad).tolist()}; the "
                      "normalising root-sum-of-squares is 0 and their relevance is inf.",
                      RuntimeWarning, stacklevel=2)
        out[bad] = np.inf
    return Bunch(importances_mean=out, importances_std=denom, importances=a.T)


def split_level_importance(forest, n_features=None):
    """Inverse-split-level importance (seed 004 §76(b), worked example E36).

    Every internal node splitting on variable :math:`j` at level :math:`\\ell` (the root is
    level 1) adds :math:`1/\\ell` to :math:`j`'s score in its tree (0 if the tree never
    uses :math:`j`); the importance is the mean of the tree scores over the trees.

    Parameters
    ----------
    forest : fitted ensemble, or sequence of fitted trees or :class:`~statlearning.tree.Tree`
    n_features : int, default=None
        Length of the result; default ``forest.n_features_in_`` or one more than the largest
        split variable.

    Returns
    -------
    importance : ndarray of shape (n_features,)
    """
    members = forest.estimators_ if hasattr(forest, "estimators_") else list(forest)
    trees = [getattr(m, "tree_", m) for m in members]
    if not trees:
        raise ValueError("split_level_importance needs at least one tree.")
    if n_features is None:
        n_features = getattr(forest, "n_features_in_", None)
    if n_features is None:
        n_features = 1 + max(int(t.feature.max(initial=-1)) for t in trees)
    total = np.zeros(n_features)
    for t in trees:
        internal = np.flatnonzero(np.asarray(t.children_left) != TREE_LEAF)
        np.add.at(total, np.asarray(t.feature)[internal],
                  1.0 / (np.asarray(t.depth)[internal] + 1.0))
    return total / len(trees)
