"""Weakest-link (cost-complexity) pruning sequences, rpart's cp table and its cross-validation.

Array in, array out on a fitted :class:`Tree`; no estimator here. The cost of a node is either
scikit-learn's ``W_t i(t) / W`` (``ccp_alpha``) or rpart's risk ``R(t)`` (``cp``).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._core.compiled import kernel_array
from ._rpart_cp import alpha_limit, rpart_complexity
from ._structure import TREE_LEAF, Tree, collapse, route_tree
from ._weakest_link import weakest_link_kernel
from ._xval import xval_loss_sums

_REL_TOL = 1e-12


def weakest_link_sequence(tree: Tree, cost: np.ndarray, *, one_at_a_time: bool = False):
    """Nested weakest-link sequence of ``tree`` under the node costs ``cost``.

    Returns ``alphas`` (increasing, the first 0), ``leaf_costs`` (total leaf cost of each
    subtree), ``steps`` (for each alpha, the original node ids collapsed at that alpha, empty
    for the first) and ``n_leaves`` (leaves of each subtree). ``one_at_a_time`` collapses a
    single node per step (the smallest id among ties, as scikit-learn's path); otherwise every
    node tied at the minimum.
    """
    alphas, leaf_costs, n_leaves, nodes, offsets = weakest_link_kernel(
        tree.children_left, tree.children_right, np.asarray(cost, dtype=np.float64),
        bool(one_at_a_time), _REL_TOL)
    steps = [nodes[offsets[s]:offsets[s + 1]] for s in range(alphas.size)]
    return alphas, leaf_costs, steps, n_leaves.astype(np.int64)


def prune_at(tree: Tree, cost: np.ndarray, alpha: float, *, one_at_a_time=False) -> Tree:
    """The subtree that collapses every step of the sequence whose alpha is ``<= alpha``."""
    alphas, _, steps, _ = weakest_link_sequence(tree, cost, one_at_a_time=one_at_a_time)
    tol = _REL_TOL * max(abs(alpha), 1e-300)
    nodes = [s for a, s in zip(alphas, steps, strict=True) if a <= alpha + tol]
    nodes = np.concatenate(nodes) if nodes else np.empty(0, np.int64)
    return collapse(tree, nodes) if nodes.size else tree


def sklearn_cost(tree: Tree) -> np.ndarray:
    """scikit-learn's node cost ``W_t i(t) / W_root`` (the impurity-based ``ccp_alpha`` scale)."""
    w = tree.weighted_n_node_samples
    return w * tree.impurity / w[0]


def rpart_prune(tree: Tree, alpha: float, *, remove: bool = True) -> Tree:
    """rpart's tree at ``alpha = cp * R(root)``: every node gets rpart's complexity
    (:func:`._rpart_cp.rpart_complexity`, stored in ``tree.complexity``) and, with
    ``remove``, the splits rpart would not make are removed."""
    limit = alpha_limit(alpha, tree.risk[0])
    cx, keep = rpart_complexity(tree.children_left, tree.children_right,
                                tree.risk.astype(np.float64), float(alpha), limit)
    tree = replace(tree, complexity=cx)
    drop = np.flatnonzero((tree.children_left != TREE_LEAF) & ~keep) if remove else []
    return collapse(tree, drop) if len(drop) else tree


def snip(tree: Tree, alpha: float) -> Tree:
    """``prune.rpart``: the splits whose stored complexity does not exceed ``alpha`` removed."""
    drop = np.flatnonzero((tree.children_left != TREE_LEAF)
                          & (tree.complexity <= alpha_limit(alpha, tree.risk[0])))
    return collapse(tree, drop) if drop.size else tree


def cp_table_rows(tree: Tree, cp: float):
    """rpart's CP, nsplit and rel error rows (root first) of a tree grown at ``cp``.

    The CP column holds the distinct node complexities (at least ``cp``), largest first, over
    the root risk (rpart's ``make_cp_list``); row ``k`` is the subtree of the splits whose
    complexity exceeds its CP, with their number and the risk of its leaves over the root
    risk (``make_cp_table``).
    """
    root = tree.risk[0]
    if root <= 0 or tree.children_left[0] == TREE_LEAF:
        return np.array([cp]), np.zeros(1), np.ones(1)
    internal = tree.children_left != TREE_LEAF
    cx = tree.complexity
    me_cp = np.maximum(cx, cp * root)
    me_cp[0] = cx[0]
    values = np.unique(me_cp)[::-1]
    parent = np.full(tree.node_count, -1, dtype=np.int64)
    parent[tree.children_left[internal]] = np.flatnonzero(internal)
    parent[tree.children_right[internal]] = np.flatnonzero(internal)
    parent_cx = np.where(parent >= 0, cx[np.maximum(parent, 0)], np.inf)
    nsplit = np.empty(values.size)
    rel = np.empty(values.size)
    for k, c in enumerate(values):
        split = internal & (cx > c)
        nsplit[k] = np.count_nonzero(split)
        # the leaves of that subtree: reached (parent split) and not split themselves
        rel[k] = tree.risk[(parent_cx > c) & ~split].sum() / root
    return values / root, nsplit, rel


def xval_errors(grow, X, y, codes, w, folds, cps, root_risk, classification):
    """rpart's xerror and xstd: held-out loss at the geometric-mean cp of each interval.

    ``grow(X, y, codes, w, scale)`` returns the fold's tree pruned at rpart's ``cp`` times
    ``scale``; as rpart, ``scale`` is the full data's root risk times the fold's share of the
    weight, ``R(root) W_train / W``. Each held-out row is scored by the fold's tree pruned at
    ``sqrt(CP_k CP_{k-1}) * scale`` (``10 CP_0`` for the first row), by rpart's node
    complexities of the fold's tree; the errors are the squared error or the 0/1 loss,
    weighted.
    """
    cps = np.asarray(cps, dtype=np.float64)
    if root_risk <= 0:
        return np.zeros(cps.size), np.zeros(cps.size)
    # rpart's xval.c: ten times the largest CP ("close enough to infinity"), then the
    # geometric means of consecutive CPs
    mids = np.concatenate([[10 * cps[0]], np.sqrt(cps[1:] * cps[:-1])])
    xrisk = np.zeros(mids.size)  # Σ w·loss over the held-out rows of every fold
    xrisk_sq = np.zeros(mids.size)  # Σ w·loss²
    for f in np.unique(folds):
        test = folds == f
        train = ~test & (w > 0)
        scale = root_risk * w[train].sum() / w.sum()
        tree = grow(X[train], y[train], codes[train], w[train], scale)
        # a node splits a held-out row at complexities below its own (rpart's rundown.c)
        internal = tree.children_left != TREE_LEAF
        node_alpha = (np.where(internal, tree.complexity, np.inf) / scale if scale > 0
                      else np.full(tree.node_count, np.inf))
        Xt = kernel_array(X[test], np.float64)
        if tree.cat_left is not None or np.isnan(Xt).any():
            # surrogates or categorical splits: route the rows once per complexity
            for k, m in enumerate(mids):
                left = np.where(node_alpha > m, tree.children_left, TREE_LEAF)
                right = np.where(node_alpha > m, tree.children_right, TREE_LEAF)
                leaf = route_tree(tree, Xt, left, right, fit_rule=True)
                if classification:
                    err = (np.argmax(tree.value[leaf], axis=1) != codes[test]).astype(float)
                else:
                    err = (y[test] - tree.value[leaf, 0]) ** 2
                xrisk[k] += w[test] @ err
                xrisk_sq[k] += w[test] @ (err * err)
        else:
            xval_loss_sums(tree.children_left, tree.children_right, tree.feature,
                           tree.threshold, node_alpha, tree.value[:, 0].copy(),
                           np.argmax(tree.value, axis=1), Xt, y[test], codes[test], w[test],
                           mids, classification, xrisk, xrisk_sq)
    total = w.sum()
    xstd = np.sqrt(np.maximum(xrisk_sq - xrisk ** 2 / total, 0.0))
    return xrisk / root_risk, xstd / root_risk
