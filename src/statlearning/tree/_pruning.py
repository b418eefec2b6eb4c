"""Weakest-link (cost-complexity) pruning sequences, rpart's cp table and its cross-validation.

Array in, array out on a fitted :class:`Tree`; no estimator here. The cost of a node is either
scikit-learn's ``W_t i(t) / W`` (``ccp_alpha``) or rpart's risk ``R(t)`` (``cp``).
"""

from __future__ import annotations

import numpy as np

from ._inputs import kernel_array
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


def collapse_alphas(tree: Tree, cost: np.ndarray) -> np.ndarray:
    """For every node, the alpha at which it becomes a leaf (``inf`` for leaves)."""
    alphas, _, steps, _ = weakest_link_sequence(tree, cost)
    out = np.full(tree.node_count, np.inf)
    internal = tree.children_left != TREE_LEAF
    for a, s in zip(alphas, steps, strict=True):
        for t in s:
            # every internal node below a collapsed node is removed at the same alpha
            stack = [int(t)]
            while stack:
                u = stack.pop()
                if internal[u] and out[u] == np.inf:
                    out[u] = a
                    stack.extend([tree.children_left[u], tree.children_right[u]])
    return out


def cp_table_rows(tree: Tree, cp: float):
    """rpart's CP, nsplit and rel error rows (root first) of a tree already pruned at ``cp``."""
    alphas, risks, _, n_leaves = weakest_link_sequence(tree, tree.risk)
    root = tree.risk[0]
    if root <= 0:
        return np.array([cp]), np.zeros(1), np.ones(1)
    # row k (root first) is optimal for cp in [CP_k, CP_{k-1})
    cps = np.append(alphas[1:][::-1] / root, cp)
    nsplit = (n_leaves[::-1] - 1).astype(np.float64)
    return cps, nsplit, risks[::-1] / root


def xval_errors(grow, X, y, codes, w, folds, cps, root_risk, classification):
    """rpart's xerror and xstd: held-out loss at the geometric-mean cp of each interval.

    ``grow(X, y, codes, w, scale)`` returns the fold's tree pruned at rpart's ``cp`` times
    ``scale``; as rpart, ``scale`` is the full data's root risk times the fold's share of the
    weight, ``R(root) W_train / W``. Each held-out row is scored by the fold's tree pruned at
    ``sqrt(CP_k CP_{k-1}) * scale`` (``CP_{-1} = inf``); the errors are the squared error or
    the 0/1 loss, weighted.
    """
    cps = np.asarray(cps, dtype=np.float64)
    if root_risk <= 0:
        return np.zeros(cps.size), np.zeros(cps.size)
    mids = np.sqrt(cps * np.concatenate([[np.inf], cps[:-1]]))
    xrisk = np.zeros(mids.size)  # Σ w·loss over the held-out rows of every fold
    xrisk_sq = np.zeros(mids.size)  # Σ w·loss²
    for f in np.unique(folds):
        test = folds == f
        train = ~test & (w > 0)
        scale = root_risk * w[train].sum() / w.sum()
        tree = grow(X[train], y[train], codes[train], w[train], scale)
        node_alpha = (collapse_alphas(tree, tree.risk) / scale if scale > 0
                      else np.full(tree.node_count, np.inf))
        Xt = kernel_array(X[test], np.float64)
        if tree.cat_left is not None or np.isnan(Xt).any():
            # surrogates or categorical splits: route the rows once per complexity
            for k, m in enumerate(mids):
                left = np.where(node_alpha > m, tree.children_left, TREE_LEAF)
                right = np.where(node_alpha > m, tree.children_right, TREE_LEAF)
                leaf = route_tree(tree, Xt, left, right)
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
