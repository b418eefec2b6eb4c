"""Neighbour search: the fitted index behind the kNN estimators.

:class:`NeighborSearch` holds the training rows (as the metric sees them) and, for
``algorithm="kd_tree"``, a :class:`scipy.spatial.cKDTree`. :meth:`NeighborSearch.query` returns
neighbours in ``(distance, training index)`` order, the deterministic rule of the library:
equidistant neighbours are ordered by training index, and ``all_ties=True`` adds every further
training row tied with the ``k``-th: within a relative :data:`TIE_RTOL` of its reduced value
(the squared distance for Euclidean metrics), R's ``class::knn`` rule.

Algorithms
----------
``"brute"``
    The blocked search of :mod:`._brute` (BLAS tiles screened, then exact re-evaluation). Every
    metric; memory bounded by one small tile per thread.
``"kd_tree"``
    SciPy's ``cKDTree`` proposes ``k + 1`` candidates per query; their distances are recomputed
    with the same exact formula as the brute search and sorted. When the ``k``-th and
    ``(k+1)``-th are separated by more than rounding, the answer is certain; otherwise (a tie
    or a near tie at the ``k``-th place) the query is answered by the exact full scan. So both
    algorithms return the same neighbours and bit-identical distances. Euclidean, Manhattan,
    Chebyshev, Minkowski with ``p ≥ 1`` and Mahalanobis (Euclidean after the transform).
``"auto"``
    ``"kd_tree"`` when the metric allows it, ``n_features ≤ 8`` and ``n_neighbors <
    n_samples / 2``; otherwise ``"brute"``. A KD-tree prunes well only in low dimension:
    querying 10,000 points against 50,000 Gaussian training rows (k = 5), it was 11 times
    faster than our brute force at 4 features, 2 times at 8, even at 9 and slower from 10
    (scikit-learn's threshold for its own trees is 15). With many neighbours pruning fails
    whatever the dimension.

The brute search runs BLAS inside parallel blocks; BLAS is limited to one thread meanwhile
(``threadpoolctl``, a dependency of scikit-learn), since nested BLAS threads oversubscribe the
cores (twice as slow in our measurements, and much worse on a busy machine).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg.cython_blas  # noqa: F401  (the BLAS that numba's np.dot calls)
from scipy.spatial import cKDTree

from .._core.compiled import kernel_array, numba_threads, resolve_n_threads, single_blas_thread
from .._core.scaling import max_abs, scale_for
from ._brute import brute_knn
from ._exact import COSINE, SQEUCLIDEAN, exact_pairs, exact_select
from ._metrics import MetricSpec

__all__ = [
    "ALGORITHMS",
    "KD_TREE_MAX_FEATURES",
    "TIE_RTOL",
    "NeighborSearch",
    "resolve_algorithm",
]

ALGORITHMS = ("auto", "brute", "kd_tree")
#: ``all_ties``: training rows within this relative distance of the ``k``-th are tied with it
#: (R's ``class::knn`` uses the same fuzz on squared distances, ``EPS = 1e-4``).
TIE_RTOL = 1e-4
#: ``algorithm="auto"`` uses the KD-tree up to this many features.
KD_TREE_MAX_FEATURES = 8

_EPS = np.finfo(np.float64).eps
_BLOCK_ROWS = 128  # query rows per tile (one tile per thread at a time)
_BLOCK_COLS = 256  # training rows per tile
_CAP = 4  # candidate buffer per query: _CAP * k + 30 entries
_BLOCK_BYTES = 16 * 2**20  # per-thread workspace bound for large k


def resolve_algorithm(algorithm, metric: MetricSpec, n_samples, n_features, n_neighbors, owner=""):
    """The search actually used: ``"brute"`` or ``"kd_tree"`` (see the module docstring)."""
    prefix = f"{owner}: " if owner else ""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"{prefix}algorithm must be one of {ALGORITHMS}; got {algorithm!r}")
    tree_ok = metric.tree_p is not None
    if algorithm == "kd_tree":
        if not tree_ok:
            what = f"p={metric.power:g} < 1" if metric.name == "minkowski" else metric.name
            raise ValueError(
                f"{prefix}algorithm='kd_tree' does not support metric {what!r}; use "
                "algorithm='brute' (or 'auto')"
            )
        return "kd_tree"
    if algorithm == "auto" and tree_ok and n_features <= KD_TREE_MAX_FEATURES:
        if n_neighbors < n_samples / 2:
            return "kd_tree"
    return "brute"


class NeighborSearch:
    """The fitted search structure.

    Rows whose squared distances would leave float64's range (magnitudes beyond about
    ``1e±60``, :mod:`statlearning._core.scaling`) are stored divided by a power of two
    ``scale``; queries are divided by the same factor and distances multiplied back, exactly.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), float64
        Validated training rows; kept by reference when the metric needs no transform.
    metric : MetricSpec
    algorithm : {"brute", "kd_tree"}
        Already resolved by :func:`resolve_algorithm`.
    """

    # the power of two dividing the stored rows, and their largest magnitude after it (both
    # None in indexes saved before they existed)
    scale = None
    x_max = None

    def __init__(self, X: np.ndarray, metric: MetricSpec, algorithm: str):
        self.metric = metric
        self.algorithm = algorithm
        self.X = metric.prepare(X)
        # cosine distances do not depend on the scale (the rows are normalised)
        self.x_max = float(max_abs(self.X))  # one pass: the scale follows from it
        self.scale = None if metric.code == COSINE else scale_for(self.x_max)
        if self.scale is not None:
            self.X = kernel_array(self.X / self.scale)
            self.x_max /= self.scale  # exact: a power of two
        self.tree = cKDTree(self.X) if algorithm == "kd_tree" else None

    def __getstate__(self):
        # the KD-tree is rebuilt from X on loading: model files (skops) cannot hold SciPy's
        # compiled tree, and X determines it exactly
        state = self.__dict__.copy()
        state["tree"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        if self.algorithm == "kd_tree" and self.tree is None:
            self.tree = cKDTree(self.X)

    @property
    def n_samples(self) -> int:
        return self.X.shape[0]

    def query(
        self, Q: np.ndarray, k: int, *, all_ties: bool = False, prepared: bool = False, n_jobs=None
    ):
        """Neighbours of the rows of ``Q`` (``prepared``: already transformed by the metric and
        rescaled, as the index's own rows ``self.X``).

        ``n_jobs`` sets numba's thread count (and the KD-tree's ``workers``) for the call.

        Returns
        -------
        dist : ndarray of shape (m, L)
            Distances in increasing order, padded with ``inf``.
        idx : int64 ndarray of shape (m, L)
            Training indices, padded with ``-1``.
        lengths : int64 ndarray of shape (m,)
            Neighbours of each row: ``k``, plus ties with the ``k``-th when ``all_ties``.
            ``L = max(lengths)`` (``k`` when no row has ties).
        """
        with numba_threads(n_jobs):
            return self._query(Q, k, all_ties, prepared, n_jobs)

    def _query(self, Q, k, all_ties, prepared, n_jobs):
        self.X = kernel_array(self.X)  # no copy, unless the index was loaded read-only
        spec = self.metric
        Qp = kernel_array(Q) if prepared else spec.prepare(Q)
        if self.scale is not None and not prepared:
            Qp = kernel_array(Qp / self.scale)
        extra = None
        if not prepared and spec.code != COSINE:
            if self.x_max is None:
                self.x_max = float(max_abs(self.X))
            extra = scale_for(self.x_max, Qp)
        if extra is not None:  # queries far beyond the training rows' range: a brute search
            return self._rescaled(extra)._query(Qp / extra, k, all_ties, True, n_jobs)
        if Qp.shape[0] == 0:
            return np.empty((0, k)), np.empty((0, k), np.int64), np.zeros(0, np.int64)
        if self.algorithm == "kd_tree":
            workers = resolve_n_threads(n_jobs) or -1
            vals, idx, redo = self._query_tree(Qp, k, all_ties, workers)
        else:
            vals, idx, redo = self._query_brute(Qp, k, all_ties)
        lengths = np.full(Qp.shape[0], k, dtype=np.int64)
        if redo.any():
            rows = np.flatnonzero(redo)
            v2, i2, len2 = exact_select(
                Qp[rows], self.X, k, spec.code, spec.power, all_ties, TIE_RTOL
            )
            L = max(k, v2.shape[1])
            if L > k:
                vals = np.hstack([vals, np.full((vals.shape[0], L - k), np.inf)])
                idx = np.hstack([idx, np.full((idx.shape[0], L - k), -1, np.int64)])
            vals[rows, : v2.shape[1]] = v2
            vals[rows, v2.shape[1] :] = np.inf
            idx[rows, : i2.shape[1]] = i2
            idx[rows, i2.shape[1] :] = -1
            lengths[rows] = len2
        dist = spec.to_distance(vals)
        if self.scale is not None:
            dist *= self.scale
        return dist, idx, lengths

    def _rescaled(self, factor) -> NeighborSearch:
        """A brute-force copy of the index with its rows divided by ``factor`` (for queries
        whose squared distances would leave float64's range on this index's scale)."""
        other = object.__new__(NeighborSearch)
        other.metric, other.algorithm, other.tree = self.metric, "brute", None
        other.X = kernel_array(self.X / factor)
        other.scale = (1.0 if self.scale is None else self.scale) * factor
        other.x_max = float(max_abs(other.X))
        return other

    def _query_brute(self, Qp, k, all_ties):
        spec, X = self.metric, self.X
        n, p = X.shape
        m = Qp.shape[0]
        if spec.code == SQEUCLIDEAN:
            yn = np.einsum("ij,ij->i", X, X)
            qn = np.einsum("ij,ij->i", Qp, Qp)
            slack = 8.0 * (p + 4) * _EPS * (qn + yn.max())
        elif spec.code == COSINE:
            yn, qn = np.zeros(n), np.zeros(m)
            slack = np.full(m, 8.0 * (p + 4) * _EPS)
        else:
            yn, qn = np.zeros(n), np.zeros(m)
            slack = np.zeros(m)
        rel = TIE_RTOL if all_ties else 0.0
        cols = max(_BLOCK_COLS, k)
        cap = _CAP * k + 30
        rows = int(np.clip(_BLOCK_BYTES // (16 * cap + 8 * cols + 16 * k), 1, _BLOCK_ROWS))
        with single_blas_thread():
            vals, idx, n_tied, overflow = brute_knn(
                Qp, X, yn, qn, slack, rel, k, spec.code, spec.power, rows, cols, cap
            )
        redo = overflow | (n_tied > 0) if all_ties else overflow
        return vals, idx, redo

    def _query_tree(self, Qp, k, all_ties, workers=-1):
        spec, X = self.metric, self.X
        n, p = X.shape
        kq = min(k + 1, n)
        _, cand = self.tree.query(Qp, k=kq, p=spec.tree_p, workers=workers)
        cand = np.asarray(cand, dtype=np.int64).reshape(Qp.shape[0], kq)
        vals, idx = exact_pairs(Qp, X, cand, spec.code, spec.power)
        if kq == k:  # every training row is a neighbour: nothing can be missed
            return vals, idx, np.zeros(Qp.shape[0], dtype=bool)
        kth = vals[:, k - 1] * (1.0 + (TIE_RTOL if all_ties else 0.0))
        tol = 16.0 * (p + 4) * _EPS * np.maximum(np.abs(kth), np.finfo(np.float64).tiny)
        redo = vals[:, k] <= kth + tol  # a tie or near tie at the k-th place: scan exactly
        return vals[:, :k].copy(), idx[:, :k].copy(), redo
