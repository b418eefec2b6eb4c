"""The fitted tree as parallel node arrays, and the array-in/array-out functions that use it.

Node ``i`` is a leaf when ``children_left[i] == -1``. An internal node sends a sample to
``children_left[i]`` when ``x[feature[i]] < threshold[i]`` and to ``children_right[i]``
otherwise (scikit-learn sends ``x <= threshold`` left; with midpoint thresholds between
distinct training values the two rules agree on every training point). Every node, internal or
leaf, stores its prediction ``value``, its size and weighted size, its impurity, its risk and
its depth, so that pruning can collapse a subtree into its root without the data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import sparse

from ._apply import apply_kernel

TREE_LEAF = -1


@dataclass
class Tree:
    """Node arrays of a fitted decision tree (``estimator.tree_``).

    Attributes
    ----------
    children_left, children_right : ndarray of int64, shape (n_nodes,)
        Child ids, ``-1`` for leaves. Node 0 is the root; ids are in depth-first pre-order
        for depth-first growth.
    feature : ndarray of int64
        Split column (``-2`` at leaves, as scikit-learn).
    threshold : ndarray of float64
        Split point (``-2.0`` at leaves); ``x < threshold`` goes left.
    value : ndarray of float64, shape (n_nodes, n_values)
        Node prediction: the mean or median (one column) or the class proportions.
    n_node_samples : ndarray of int64
    weighted_n_node_samples : ndarray of float64
    impurity : ndarray of float64
        Per unit weight (variance, mean absolute deviation, gini, entropy, error rate).
    risk : ndarray of float64
        Weighted SSE (regression) or weighted misclassification count (classification):
        rpart's ``dev`` column, the scale of ``cp``.
    depth : ndarray of int64
    """

    children_left: np.ndarray
    children_right: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    value: np.ndarray
    n_node_samples: np.ndarray
    weighted_n_node_samples: np.ndarray
    impurity: np.ndarray
    risk: np.ndarray
    depth: np.ndarray

    @property
    def node_count(self) -> int:
        return int(self.children_left.size)

    @property
    def n_leaves(self) -> int:
        return int(np.sum(self.children_left == TREE_LEAF))

    @property
    def max_depth(self) -> int:
        return int(self.depth.max())


def apply_tree(children_left, children_right, feature, threshold, X) -> np.ndarray:
    """Leaf id of every row of ``X`` (array in, array out; compiled loop)."""
    return apply_kernel(children_left, children_right, feature, threshold,
                        np.ascontiguousarray(X, dtype=np.float64))


def decision_path_tree(children_left, children_right, feature, threshold, X):
    """CSR indicator matrix (n_samples, n_nodes): entry (i, t) is 1 if row i passes node t."""
    n = X.shape[0]
    rows = [np.arange(n)]
    cols = [np.zeros(n, dtype=np.int64)]
    node = np.zeros(n, dtype=np.int64)
    active = np.flatnonzero(children_left[node] != TREE_LEAF)
    while active.size:
        cur = node[active]
        go_left = X[active, feature[cur]] < threshold[cur]
        node[active] = np.where(go_left, children_left[cur], children_right[cur])
        rows.append(active)
        cols.append(node[active])
        active = active[children_left[node[active]] != TREE_LEAF]
    r = np.concatenate(rows)
    c = np.concatenate(cols)
    order = np.lexsort((c, r))
    data = np.ones(r.size, dtype=np.int64)
    return sparse.csr_matrix(
        (data, (r[order], c[order])), shape=(n, children_left.size)
    )


def subtree_leaves_and_risk(tree: Tree):
    """Number of leaves and summed leaf risk of the subtree rooted at each node."""
    n = tree.node_count
    leaves = np.zeros(n, dtype=np.int64)
    risk = np.zeros(n)
    # children always have larger ids than their parent: sweep ids downwards
    for t in range(n - 1, -1, -1):
        left, right = tree.children_left[t], tree.children_right[t]
        if left == TREE_LEAF:
            leaves[t] = 1
            risk[t] = tree.risk[t]
        else:
            leaves[t] = leaves[left] + leaves[right]
            risk[t] = risk[left] + risk[right]
    return leaves, risk


def collapse(tree: Tree, nodes) -> Tree:
    """Copy of ``tree`` with every node in ``nodes`` turned into a leaf, renumbered pre-order."""
    left = tree.children_left.copy()
    right = tree.children_right.copy()
    for t in nodes:
        left[t] = TREE_LEAF
        right[t] = TREE_LEAF
    keep = []
    stack = [0]
    while stack:
        t = stack.pop()
        keep.append(t)
        if left[t] != TREE_LEAF:
            stack.append(right[t])
            stack.append(left[t])
    keep = np.asarray(keep, dtype=np.int64)
    new_id = np.full(tree.node_count, TREE_LEAF, dtype=np.int64)
    new_id[keep] = np.arange(keep.size)
    is_leaf = left[keep] == TREE_LEAF
    new_left = np.where(is_leaf, TREE_LEAF, new_id[np.where(is_leaf, 0, left[keep])])
    new_right = np.where(is_leaf, TREE_LEAF, new_id[np.where(is_leaf, 0, right[keep])])
    feature = np.where(is_leaf, -2, tree.feature[keep])
    threshold = np.where(is_leaf, -2.0, tree.threshold[keep])
    return Tree(
        new_left, new_right, feature, threshold, tree.value[keep],
        tree.n_node_samples[keep], tree.weighted_n_node_samples[keep], tree.impurity[keep],
        tree.risk[keep], tree.depth[keep],
    )


def prune_weakest_link(tree: Tree, alpha: float) -> Tree:
    """The weakest-link (cost-complexity) subtree at complexity ``alpha`` on the risk scale.

    Repeatedly collapses the internal node(s) with the smallest
    ``g(t) = (R(t) - R(T_t)) / (|T_t| - 1)`` while ``g(t) <= alpha`` (rpart's rule: a split
    whose complexity does not exceed ``alpha`` is removed).
    """
    while tree.node_count > 1:
        leaves, sub_risk = subtree_leaves_and_risk(tree)
        internal = np.flatnonzero(tree.children_left != TREE_LEAF)
        g = (tree.risk[internal] - sub_risk[internal]) / (leaves[internal] - 1)
        gmin = g.min()
        if gmin > alpha * (1 + 1e-12) + 1e-12 * abs(tree.risk[0]):
            break
        tree = collapse(tree, internal[g <= gmin + 1e-12 * max(abs(gmin), 1e-300)])
    return tree
