"""Density-based clustering: :class:`DBSCAN` (seed 001 part 2, §9.3, Algorithm 11)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import connected_components
from scipy.spatial import cKDTree
from sklearn.base import ClusterMixin
from sklearn.utils.validation import validate_data

from .._core.compiled import kernel_array
from .._core.scaling import scale_for
from .._validation import Interval, Options
from ..base import StatBase, fit_context

__all__ = ["DBSCAN"]

_MINKOWSKI_P = {"euclidean": 2.0, "manhattan": 1.0, "chebyshev": np.inf}
_BLOCK = 2048  # query points per block: bounds the pairs held at once
_EDGE_BUFFER = 1 << 17  # core-graph edges held before the components are contracted


class _Neighbourhoods:
    """ε-neighbourhood queries (``d ≤ ε``) through k-d trees, or a precomputed matrix.

    Nothing of the size of the number of neighbour pairs is ever held at once: rows are queried
    in blocks of spatially adjacent points (the k-d tree's leaf order), each block's own small
    tree against the whole tree (a dual-tree search, :meth:`cKDTree.sparse_distance_matrix`).
    """

    def __init__(self, X, eps, metric):
        self.X, self.eps, self.metric = X, eps, metric
        self.p = _MINKOWSKI_P.get(metric)

    def _pairs(self, X_query, tree):
        """``(i, j, d)`` for query row ``i`` and tree row ``j`` with ``d ≤ ε``."""
        res = cKDTree(X_query).sparse_distance_matrix(
            tree, self.eps, p=self.p, output_type="ndarray"
        )
        return res["i"], res["j"], res["v"]

    def _blocks(self, tree):
        order = tree.indices
        for start in range(0, order.size, _BLOCK):
            yield order[start : start + _BLOCK]

    def counts(self) -> np.ndarray:
        """``|E(x_i)|`` for every row, the row itself included."""
        if self.metric == "precomputed":
            return np.count_nonzero(self.X <= self.eps, axis=1)
        tree = cKDTree(self.X)
        counts = np.zeros(self.X.shape[0], dtype=np.intp)
        for rows in self._blocks(tree):
            i, _, _ = self._pairs(self.X[rows], tree)
            counts[rows] += np.bincount(i, minlength=rows.size)
        return counts

    def set_core(self, core: np.ndarray) -> None:
        self.core = core
        if self.metric != "precomputed":
            self.X_core = self.X[core]
            self.core_tree = cKDTree(self.X_core)

    def core_blocks(self):
        """Yield ``(a, b)``: positions in ``core`` of core points within ε of each other."""
        if self.metric == "precomputed":
            for start in range(0, self.core.size, _BLOCK):
                rows = np.arange(start, min(start + _BLOCK, self.core.size))
                r, c = np.nonzero(self.X[np.ix_(self.core[rows], self.core)] <= self.eps)
                yield rows[r], c
            return
        for rows in self._blocks(self.core_tree):
            i, j, _ = self._pairs(self.X_core[rows], self.core_tree)
            yield rows[i], j

    def core_neighbours(self, rows):
        """``(row, core position, distance)`` for each core point within ε of a row."""
        if self.metric == "precomputed":
            r, c = np.nonzero(self.X[np.ix_(rows, self.core)] <= self.eps)
            return rows[r], c, self.X[rows[r], self.core[c]]
        i, j, d = self._pairs(self.X[rows], self.core_tree)
        return rows[i], j, d


def _core_components(nbh: _Neighbourhoods, n_core: int) -> np.ndarray:
    """Connected components of the core graph, numbered by their lowest core point.

    Edges are buffered (each undirected edge once) and, whenever the buffer fills, the
    components found so far are contracted to one node each, so memory stays bounded by the
    buffer whatever the number of neighbour pairs.
    """
    comp = np.arange(n_core)
    buffer_a, buffer_b, held = [], [], 0

    def contract(comp):  # the buffered edges join component ids of the current ``comp``
        a = np.concatenate(buffer_a)
        b = np.concatenate(buffer_b)
        graph = sparse.coo_matrix(
            (np.ones(a.size, dtype=np.int8), (a, b)), shape=(n_core, n_core)
        ).tocsr()
        return connected_components(graph, directed=False)[1][comp]

    for a, b in nbh.core_blocks():
        keep = a < b
        a = comp[a[keep]].astype(np.int32)
        b = comp[b[keep]].astype(np.int32)
        link = a != b
        buffer_a.append(a[link])
        buffer_b.append(b[link])
        held += int(link.sum())
        if held >= _EDGE_BUFFER:
            comp = contract(comp)
            buffer_a, buffer_b, held = [], [], 0
    if held:
        comp = contract(comp)
    uniq, first = np.unique(comp, return_index=True)
    rank = np.empty(uniq.size, dtype=np.int64)
    rank[np.argsort(first)] = np.arange(uniq.size)
    return rank[np.searchsorted(uniq, comp)]


class DBSCAN(ClusterMixin, StatBase):
    """Density-based spatial clustering of applications with noise.

    Parameters
    ----------
    eps : float, default=0.5
        Radius ``ε`` of the neighbourhoods (``d ≤ ε``); must be positive.
    min_samples : int, default=5
        ``M``: a point is a core point when its ε-neighbourhood, **the point itself
        included**, holds at least ``M`` points (the notes' formula 9.9 and scikit-learn's
        meaning; the notes' prose "M other points" would be ``min_samples = M + 1``).
    metric : {"euclidean", "manhattan", "chebyshev", "precomputed"}, default="euclidean"
        Distance. Neighbour queries go through a k-d tree (:class:`scipy.spatial.cKDTree`);
        ``"precomputed"`` takes ``X`` as a square distance matrix.
    border : {"first", "nearest_core"}, default="first"
        Cluster of a border point (a non-core point within ``ε`` of core points of several
        clusters): ``"first"`` is the cluster numbered first, i.e. the one a sequential
        expansion in row order reaches first (scikit-learn's and classic DBSCAN's result);
        ``"nearest_core"`` is the cluster of its nearest core point (ties to the lower row),
        step 5 of the notes' Algorithm 11, which does not depend on the order of the rows.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each row, ``0, 1, …`` numbered by their first core point in row order;
        ``-1`` for noise.
    core_sample_indices_ : ndarray of shape (n_core,)
        Rows that are core points, increasing.
    components_ : ndarray of shape (n_core, n_features)
        The core points themselves (scikit-learn's attribute; what a nearest-core-point
        assignment of new data needs).
    n_clusters_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    With :math:`E(x) = \\{x_j : d(x_j, x) \\le \\varepsilon\\}` (which contains :math:`x`), the
    core points are :math:`C = \\{x_i : |E(x_i)| \\ge M\\}`; two core points are linked when
    they are within :math:`\\varepsilon` of each other, and each connected component of this
    core graph is a cluster (seed 001 part 2, eq. 9.8–9.11). Non-core points within
    :math:`\\varepsilon` of a core point are border points (rule ``border``); the others are
    noise (label −1).

    Mapping: ``eps`` is the notes' ε and R ``dbscan::dbscan``'s ``eps``; ``min_samples`` is
    the notes' M and ``dbscan``'s ``minPts`` (both count the point itself).
    """

    _parameter_constraints: dict = {
        "eps": [Interval(Real, 0, None, closed="neither")],
        "min_samples": [Interval(Integral, 1, None, closed="left")],
        "metric": [Options({"euclidean", "manhattan", "chebyshev", "precomputed"})],
        "border": [Options({"first", "nearest_core"})],
    }

    def __init__(self, eps=0.5, *, min_samples=5, metric="euclidean", border="first"):
        self.eps = eps
        self.min_samples = min_samples
        self.metric = metric
        self.border = border

    @fit_context
    def fit(self, X, y=None):
        """Cluster ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_samples) when
            ``metric="precomputed"``
        y : ignored

        Returns
        -------
        self
        """
        X = validate_data(self, X, dtype=np.float64)
        X = kernel_array(X)
        n = X.shape[0]
        if self.metric == "precomputed":
            if X.shape[0] != X.shape[1]:
                raise ValueError(
                    f"metric='precomputed': X must be a square distance matrix; got shape "
                    f"{X.shape}."
                )
            if np.any(X < 0):
                raise ValueError("metric='precomputed': distances must be non-negative.")
        # distances computed on X / s (s a power of two: exact) when they would overflow or
        # underflow; eps is divided by the same s
        s = None if self.metric == "precomputed" else scale_for(X)
        Xs = X if s is None else kernel_array(X / s)
        nbh = _Neighbourhoods(
            Xs, float(self.eps) if s is None else float(self.eps) / s, self.metric
        )
        is_core = nbh.counts() >= self.min_samples
        core = np.flatnonzero(is_core)
        labels = np.full(n, -1, dtype=np.int64)
        if core.size:
            nbh.set_core(core)
            labels[core] = _core_components(nbh, core.size)
            self._assign_border(nbh, labels, np.flatnonzero(~is_core))
        self.labels_ = labels
        self.core_sample_indices_ = core
        self.components_ = X[core].copy()
        self.n_clusters_ = int(labels.max() + 1) if core.size else 0
        return self

    def _assign_border(self, nbh, labels, others):
        """Label the non-core rows that have a core point within ``eps`` (in place)."""
        if others.size == 0:
            return
        rows, nb, dist = nbh.core_neighbours(others)  # fewer than min_samples per row
        if rows.size == 0:
            return
        cluster = labels[nbh.core[nb]]
        if self.border == "first":
            order = np.lexsort((cluster, rows))  # per row: the lowest cluster number
        else:
            order = np.lexsort((nb, dist, rows))  # per row: nearest, then lowest core row
        rows_sorted = rows[order]
        first = np.ones(rows_sorted.size, dtype=bool)
        first[1:] = rows_sorted[1:] != rows_sorted[:-1]
        labels[rows_sorted[first]] = cluster[order][first]

    def fit_predict(self, X, y=None):
        """Cluster ``X`` and return ``labels_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self.fit(X).labels_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.metric == "precomputed"
        tags.input_tags.positive_only = self.metric == "precomputed"
        return tags
