"""The fitted tree as parallel node arrays, and the array-in/array-out functions that use it.

Node ``i`` is a leaf when ``children_left[i] == -1``. An internal node sends a sample to
``children_left[i]`` when ``x[feature[i]] < threshold[i]`` and to ``children_right[i]``
otherwise (scikit-learn sends ``x <= threshold`` left; with midpoint thresholds between
distinct training values the two rules agree on every training point). Every node, internal or
leaf, stores its prediction ``value``, its size and weighted size, its impurity, its risk and
its depth, so that pruning can collapse a subtree into its root without the data.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from scipy import sparse

from .._core.compiled import kernel_array
from ._apply import apply_kernel
from ._route import LEFT, RIGHT, route_kernel

TREE_LEAF = -1


@dataclass
class Tree:
    """Node arrays of a fitted decision tree (``estimator.tree_``).

    One entry (row) per node for the node arrays; the surrogate arrays hold one row per split
    that has surrogates. Node ``i`` is a leaf when ``children_left[i] == -1``. Built by the
    growers and by pruning (:func:`collapse`); the fields are read as attributes.

    Parameters
    ----------
    children_left, children_right : ndarray of int64, shape (n_nodes,)
        Child ids, ``-1`` for leaves. Node 0 is the root; ids are in depth-first pre-order
        for depth-first growth.
    feature : ndarray of int64, shape (n_nodes,)
        Split column (``-2`` at leaves, as scikit-learn).
    threshold : ndarray of float64, shape (n_nodes,)
        Split point (``-2.0`` at leaves); ``x < threshold`` goes left.
    value : ndarray of float64, shape (n_nodes, n_values)
        Node prediction: the mean or median (one column) or the class proportions.
    n_node_samples : ndarray of int64, shape (n_nodes,)
        Number of training rows that reach the node (rows routed by surrogates included).
    weighted_n_node_samples : ndarray of float64, shape (n_nodes,)
        Sum of the sample weights of those rows.
    impurity : ndarray of float64, shape (n_nodes,)
        Per unit weight (variance, mean absolute deviation, gini, entropy, error rate).
    risk : ndarray of float64, shape (n_nodes,)
        Weighted SSE (regression) or weighted misclassification count (classification):
        rpart's ``dev`` column, the scale of ``cp``.
    depth : ndarray of int64, shape (n_nodes,)
        Depth of the node, ``0`` at the root.
    n_categories : ndarray of int64, shape (n_features,) or None, default=None
        Number of levels of each categorical column (``0`` for numeric columns); ``None``
        when the tree has no categorical column. A categorical column holds level codes
        ``0 … q-1`` (see the estimators' ``categories_``).
    cat_left, cat_right : ndarray of uint64, shape (n_nodes, n_words) or None, default=None
        At a categorical split, the bitsets of the levels sent left and right (level ``c`` is
        bit ``c & 63`` of word ``c >> 6``); a level in neither set did not reach the node at
        fit time and is routed as a missing value. ``threshold`` is ``NaN`` at such nodes.
        ``None`` when the tree has no categorical column.
    surrogate_index : ndarray of int32, shape (n_nodes,) or None, default=None
        Row of node ``t``'s surrogate splits in the ``surrogate_*`` arrays below, ``-1`` at
        leaves and at splits without surrogates: the surrogates of split ``t`` are
        ``surrogate_feature[surrogate_index[t]]`` and so on (rows only for the splits that
        have surrogates, so ``n_rows`` is the number of such splits; :meth:`surrogates`
        expands an array to one row per node). ``None`` when the tree stores no surrogate
        splits; the other ``surrogate_*`` arrays are then ``None`` too.
    surrogate_feature : ndarray of int32, shape (n_rows, max_surrogates) or None, default=None
        Surrogate columns of each split, best first (``-1`` pads).
    surrogate_threshold : ndarray of float64, shape (n_rows, max_surrogates) or None, \
default=None
        Their thresholds (``NaN`` for categorical surrogates).
    surrogate_left : ndarray of bool, shape (n_rows, max_surrogates) or None, default=None
        ``True`` when ``x < threshold`` goes to ``children_left`` (else it goes right).
    surrogate_agreement, surrogate_adj : ndarray of float64, shape (n_rows, max_surrogates) \
or None, default=None
        rpart's ``agree`` (weight routed as the primary routes it, over the weight the primary
        routes) and ``adj`` (the agreement's gain over the majority rule, relative to it).
    surrogate_cat_left, surrogate_cat_right : ndarray of uint64, \
shape (n_rows, max_surrogates, n_words) or None, default=None
        Level bitsets of categorical surrogates, laid out as ``cat_left``/``cat_right``
        (``None`` when the tree has no categorical column).
    majority_left : ndarray of int8, shape (n_nodes,) or None, default=None
        Fit-time default direction of a row whose primary and surrogates are all missing: ``1``
        left, ``0`` right, ``-1`` none (the primary sent equal weight both ways; such rows stay
        in the node), as rpart's ``lastsurrogate``. At prediction time the child with more
        training rows is followed, as rpart's ``predict``.
    rpart_left : ndarray of bool, shape (n_nodes,) or None, default=None
        ``True`` when ``children_left`` is rpart's left son (printed first): the side with the
        smaller mean response or mean class index on the rows the split column routes
        (``None``: compare the children's values, the same without missing values).
    complexity : ndarray of float64, shape (n_nodes,) or None, default=None
        rpart's node complexity on the risk scale (``fit$frame$complexity`` times the root
        risk): the split of node ``t`` is kept by ``cp`` values below
        ``complexity[t] / risk[0]`` (see :mod:`._rpart_cp`).
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
    n_categories: np.ndarray | None = None
    cat_left: np.ndarray | None = None
    cat_right: np.ndarray | None = None
    surrogate_index: np.ndarray | None = None
    surrogate_feature: np.ndarray | None = None
    surrogate_threshold: np.ndarray | None = None
    surrogate_left: np.ndarray | None = None
    surrogate_agreement: np.ndarray | None = None
    surrogate_adj: np.ndarray | None = None
    surrogate_cat_left: np.ndarray | None = None
    surrogate_cat_right: np.ndarray | None = None
    majority_left: np.ndarray | None = None
    rpart_left: np.ndarray | None = None
    complexity: np.ndarray | None = None

    @property
    def needs_router(self) -> bool:
        """Whether routing needs :func:`route_tree` (categorical splits or surrogates)."""
        return self.cat_left is not None or self.surrogate_feature is not None

    def surrogates(self, name: str) -> np.ndarray | None:
        """Return the surrogate array ``surrogate_<name>`` with one row per node.

        A convenience for inspection: the tree stores rows only for the splits that have
        surrogates (``surrogate_index``); here leaves and splits without surrogates get
        padding rows.

        Parameters
        ----------
        name : {"feature", "threshold", "left", "agreement", "adj", "cat_left", "cat_right"}
            The array: ``"feature"`` pads with ``-1``, ``"threshold"``, ``"agreement"`` and
            ``"adj"`` with ``NaN``, ``"left"`` with ``True``, the level sets with empty sets.

        Returns
        -------
        ndarray of shape (n_nodes, max_surrogates) or (n_nodes, max_surrogates, n_words), or None
            ``None`` when the tree has no such array.
        """
        arr = getattr(self, "surrogate_" + name)
        if arr is None:
            return None
        pad = {"feature": -1, "left": True, "cat_left": 0, "cat_right": 0}.get(name, np.nan)
        out = np.full((self.node_count, *arr.shape[1:]), pad, dtype=arr.dtype)
        split = self.surrogate_index >= 0
        out[split] = arr[self.surrogate_index[split]]
        return out

    @property
    def node_count(self) -> int:
        """Number of nodes, internal and leaves."""
        return int(self.children_left.size)

    @property
    def n_leaves(self) -> int:
        """Number of leaves."""
        return int(np.sum(self.children_left == TREE_LEAF))

    @property
    def max_depth(self) -> int:
        """Depth of the deepest node (``0`` for a tree that is a single leaf)."""
        return int(self.depth.max())


_NODE_FIELDS = ("complexity", "cat_left", "cat_right", "majority_left", "rpart_left")
#: arrays with one row per split that has surrogates (``Tree.surrogate_index``)
_SPLIT_FIELDS = ("surrogate_feature", "surrogate_threshold", "surrogate_left",
                 "surrogate_agreement", "surrogate_adj", "surrogate_cat_left",
                 "surrogate_cat_right")


def route_tree(tree: Tree, X, children_left=None, children_right=None, *,
               fit_rule=False) -> np.ndarray:
    """Final node of every row of ``X`` with surrogates and categorical splits (compiled loop).

    ``children_left``/``children_right`` override the tree's (a pruned view of the same
    nodes). ``X`` holds level codes in categorical columns and may hold ``NaN``. A row no
    split decides follows the child with more training rows (``predict.rpart``), or with
    ``fit_rule`` the side the primary sent more weight to, right on a tie (rpart's
    cross-validation, ``branch.c``).
    """
    n_nodes = tree.node_count
    n_features = X.shape[1]
    left = tree.children_left if children_left is None else children_left
    right = tree.children_right if children_right is None else children_right
    n_levels = (np.zeros(n_features, np.int64) if tree.n_categories is None
                else tree.n_categories)
    # without categorical columns the level sets have no words (never read)
    words = np.zeros((n_nodes, 0), np.uint64)
    cat_left = words if tree.cat_left is None else tree.cat_left
    cat_right = words if tree.cat_right is None else tree.cat_right
    if tree.surrogate_feature is None:
        index = np.full(n_nodes, -1, np.int32)
        sf = np.full((0, 0), -1, np.int32)
        st, sl = np.zeros((0, 0)), np.zeros((0, 0), np.bool_)
    else:
        index = tree.surrogate_index
        sf, st, sl = tree.surrogate_feature, tree.surrogate_threshold, tree.surrogate_left
    if tree.surrogate_cat_left is None:
        scl = scr = np.zeros((*sf.shape, 0), np.uint64)
    else:
        scl, scr = tree.surrogate_cat_left, tree.surrogate_cat_right
    internal = tree.children_left != TREE_LEAF
    if fit_rule and tree.majority_left is not None:
        default = np.where(tree.majority_left == 1, LEFT, RIGHT).astype(np.int8)
    else:
        n = tree.n_node_samples
        nl = np.where(internal, n[np.where(internal, tree.children_left, 0)], 0)
        nr = np.where(internal, n[np.where(internal, tree.children_right, 0)], 0)
        default = np.where(nl > nr, LEFT, np.where(nr > nl, RIGHT, 0)).astype(np.int8)
    # kernel_array keeps each array as it is unless it is read-only or strided (a model loaded
    # from a memory map): then a copy, so routing never compiles another specialisation
    args = (left, right, tree.feature, tree.threshold, default, n_levels, cat_left, cat_right,
            index, sf, st, sl, scl, scr)
    return route_kernel(*(kernel_array(a, None) for a in args), kernel_array(X, np.float64))


def decision_path_from_nodes(children_left, children_right, final, n_samples):
    """CSR indicator of the nodes on the path from the root to each row's ``final`` node."""
    n_nodes = children_left.size
    parent = np.full(n_nodes, -1, dtype=np.int64)
    internal = np.flatnonzero(children_left != TREE_LEAF)
    parent[children_left[internal]] = internal
    parent[children_right[internal]] = internal
    rows, cols = [], []
    node = final.copy()
    active = np.arange(n_samples)
    while active.size:
        rows.append(active)
        cols.append(node[active])
        node[active] = parent[node[active]]
        active = active[node[active] >= 0]
    r = np.concatenate(rows)
    c = np.concatenate(cols)
    order = np.lexsort((c, r))
    return sparse.csr_matrix((np.ones(r.size, dtype=np.int64), (r[order], c[order])),
                             shape=(n_samples, n_nodes))


def apply_tree(children_left, children_right, feature, threshold, X) -> np.ndarray:
    """Leaf id of every row of ``X`` (array in, array out; compiled loop)."""
    return apply_kernel(children_left, children_right, feature, threshold,
                        kernel_array(X, np.float64))


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
    extra = {}
    for name in _NODE_FIELDS:
        arr = getattr(tree, name)
        if arr is not None:
            extra[name] = arr[keep].copy()
    if tree.surrogate_index is not None:
        index = np.where(is_leaf, -1, tree.surrogate_index[keep])
        has = index >= 0
        rows = index[has]
        new_index = np.full(keep.size, -1, np.int32)
        new_index[has] = np.arange(rows.size, dtype=np.int32)
        extra["surrogate_index"] = new_index
        for name in _SPLIT_FIELDS:
            arr = getattr(tree, name)
            if arr is not None:
                extra[name] = arr[rows]
    return replace(
        tree, children_left=new_left, children_right=new_right, feature=feature,
        threshold=threshold, value=tree.value[keep], n_node_samples=tree.n_node_samples[keep],
        weighted_n_node_samples=tree.weighted_n_node_samples[keep],
        impurity=tree.impurity[keep], risk=tree.risk[keep], depth=tree.depth[keep], **extra,
    )
