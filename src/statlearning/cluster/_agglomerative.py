"""Agglomerative (hierarchical, bottom-up) clustering: :class:`AgglomerativeClustering`."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy.spatial.distance import pdist, squareform
from sklearn.base import ClusterMixin
from sklearn.utils.validation import validate_data

from .._core.compiled import kernel_array
from .._core.scaling import max_abs, scale_for
from .._validation import Interval, Options
from ..base import StatBase, fit_context
from ..exceptions import warn_data_scale
from . import _linkage_kernels as _lk

_METHODS = {
    "single": _lk.SINGLE,
    "complete": _lk.COMPLETE,
    "average": _lk.AVERAGE,
    "weighted": _lk.WEIGHTED,
    "ward": _lk.WARD,
    "centroid": _lk.CENTROID,
    "median": _lk.MEDIAN,
}
_SQUARED = ("ward", "centroid", "median")  # linkages updated on squared Euclidean distances
_REDUCIBLE = ("single", "complete", "average", "weighted", "ward")
_METRICS = {"euclidean": "euclidean", "manhattan": "cityblock", "cosine": "cosine"}


class AgglomerativeClustering(ClusterMixin, StatBase):
    """Agglomerative clustering with the classical linkages and a SciPy-format merge tree.

    Parameters
    ----------
    n_clusters : int or None, default=2
        Number of clusters of the flat cut; ignored when ``distance_threshold`` is set.
    linkage : {"ward", "single", "complete", "average", "weighted", "centroid", "median"}, \
default="ward"
        Cluster-to-cluster dissimilarity (see Notes).
    distance_threshold : float or None, default=None
        Cut the tree at this height instead: clusters are the subtrees whose merge heights are
        below it (heights in the ``ward_height`` convention for Ward).
    metric : {"euclidean", "manhattan", "cosine", "precomputed"}, default="euclidean"
        Point dissimilarity. ``"precomputed"`` takes a symmetric ``(n, n)`` dissimilarity matrix
        as ``X``. Ward, centroid and median linkage need Euclidean distances between vectors.
    ward_height : {"scipy", "sse_increase"}, default="scipy"
        Height reported for Ward merges: ``"scipy"`` is SciPy's and R's ``ward.D2``
        (:math:`\\sqrt{2\\,\\Delta SSE}`), ``"sse_increase"`` the notes' increase in the
        within-cluster sum of squares :math:`\\Delta SSE`. Ignored by the other linkages.
    compute_full_tree : "auto" or bool, default="auto"
        Accepted for scikit-learn compatibility. The full tree is always built: the
        nearest-neighbour-chain algorithm cannot stop early, and it costs no more.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
        Cluster of each training point, numbered by first appearance.
    n_clusters_ : int
    n_leaves_ : int
    children_ : ndarray of shape (n_samples - 1, 2)
        The two nodes merged at step ``i``; nodes ``< n_samples`` are points, node
        ``n_samples + i`` is the cluster formed at step ``i`` (scikit-learn's and SciPy's
        numbering).
    distances_ : ndarray of shape (n_samples - 1,)
        Merge heights, in the ``ward_height`` convention for Ward.
    linkage_matrix_ : ndarray of shape (n_samples - 1, 4)
        SciPy's linkage matrix ``[child_a, child_b, height, size]`` (``scipy.cluster.hierarchy.
        dendrogram`` and ``fcluster`` accept it). Column 3 always holds SciPy's heights.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    Starting from singletons, the two closest clusters are merged until one remains
    (seed 001 part 2, §9.2, Algorithm 10). Linkages, for clusters :math:`A, B` with point
    dissimilarities :math:`d_{ab}`:

    - single :math:`\\min d_{ab}`, complete :math:`\\max d_{ab}`, average (UPGMA)
      :math:`\\frac{1}{|A||B|}\\sum d_{ab}`, weighted (WPGMA) the mean of the two merged
      clusters' dissimilarities;
    - Ward: :math:`\\Delta SSE = \\frac{|A||B|}{|A|+|B|}\\|\\mu_A - \\mu_B\\|^2`, the notes' (9.7);
    - centroid :math:`\\|\\mu_A - \\mu_B\\|` and median (WPGMC, centres as midpoints).

    Updates use the Lance–Williams formulas on a stored condensed dissimilarity matrix
    (``n(n−1)/2`` doubles). Reducible linkages (single, complete, average, weighted, Ward) use
    the nearest-neighbour-chain algorithm, O(n²) time; centroid and median use the generic
    stored-matrix algorithm with nearest-neighbour lists (typically O(n²)); their merge heights
    may decrease (inversions), and the tree is then reported in merge order.

    Mapping to R's ``hclust(d, method)``: single, complete, average, ``"mcquitty"`` =
    weighted, ``"ward.D2"`` = ward (on ``dist(X)``), and ``"centroid"``/``"median"``, which R
    expects on **squared** Euclidean distances (``dist(X)^2``) and whose heights are then the
    squares of ours. R's ``"ward.D"`` on ``dist(X)^2`` gives ``2 ΔSSE``. SciPy's
    ``linkage(X, method)`` uses the same names and heights as ours. Connectivity constraints
    are not offered.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.cluster import AgglomerativeClustering
    >>> X = np.array([[0.0, 0.0], [1.0, 0.0], [5.0, 0.0], [5.0, 2.0]])
    >>> model = AgglomerativeClustering(ward_height="sse_increase").fit(X)
    >>> np.round(model.distances_, 10).tolist()
    [0.5, 2.0, 21.25]
    """

    _parameter_constraints = {
        "n_clusters": [Interval(Integral, 1, None, closed="left"), None],
        "linkage": [Options(_METHODS)],
        "distance_threshold": [Interval(Real, 0.0, None, closed="left"), None],
        "metric": [Options({*_METRICS, "precomputed"})],
        "ward_height": [Options({"scipy", "sse_increase"})],
        "compute_full_tree": [Options({"auto"}), Options({True, False})],
    }

    def __init__(
        self,
        n_clusters=2,
        *,
        linkage="ward",
        distance_threshold=None,
        metric="euclidean",
        ward_height="scipy",
        compute_full_tree="auto",
    ):
        self.n_clusters = n_clusters
        self.linkage = linkage
        self.distance_threshold = distance_threshold
        self.metric = metric
        self.ward_height = ward_height
        self.compute_full_tree = compute_full_tree

    @fit_context
    def fit(self, X, y=None):
        """Build the merge tree and the flat clustering.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_samples) when
            ``metric="precomputed"``
        y : ignored

        Returns
        -------
        self
        """
        if self.n_clusters is None and self.distance_threshold is None:
            raise ValueError("one of n_clusters and distance_threshold must be set, got both None.")
        if self.linkage in _SQUARED and self.metric != "euclidean":
            raise ValueError(
                f"linkage={self.linkage!r} needs metric='euclidean' (it works with cluster "
                f"means), got metric={self.metric!r}."
            )
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        X = kernel_array(X)
        n = X.shape[0]
        if self.distance_threshold is None and self.n_clusters > n:
            raise ValueError(
                f"n_clusters={self.n_clusters} must be at most the number of samples, got "
                f"n_samples={n}."
            )
        scale = scale_for(X)  # heights are computed on X / scale (a power of two), then scaled
        d = self._condensed(X if scale is None else X / scale)
        method = _METHODS[self.linkage]
        if self.linkage in _REDUCIBLE:
            merges = _lk.nn_chain(d, n, method)
            merges = merges[np.argsort(merges[:, 2], kind="stable")]
        else:
            merges = _lk.generic(d, n, method)
        del d
        if self.linkage in _SQUARED:
            np.sqrt(merges[:, 2], out=merges[:, 2])
        if scale is not None:
            merges[:, 2] *= scale
        self.linkage_matrix_ = _lk.scipy_linkage(merges, n)
        self.children_ = self.linkage_matrix_[:, :2].astype(np.intp)
        heights = self.linkage_matrix_[:, 2].copy()
        if self.linkage == "ward" and self.ward_height == "sse_increase":
            with np.errstate(over="ignore", under="ignore"):
                heights = heights**2 / 2.0
            lost = ((heights == 0) & (self.linkage_matrix_[:, 2] > 0)) | np.isinf(heights)
            if scale is not None and lost.any():
                warn_data_scale(self, ["distances_"], float(max_abs(X)))
        self.distances_ = heights
        self.n_leaves_ = n
        if self.distance_threshold is not None:
            n_merges = int(np.sum(heights < self.distance_threshold))
        else:
            n_merges = n - self.n_clusters
        self.labels_ = _lk.cut(merges, n, n_merges).astype(np.intp)
        self.n_clusters_ = n - n_merges
        return self

    def _condensed(self, X):
        n = X.shape[0]
        if self.metric == "precomputed":
            if X.shape != (n, n):
                raise ValueError(
                    f"metric='precomputed' needs a square dissimilarity matrix, got X of "
                    f"shape {X.shape}."
                )
            if not np.allclose(X, X.T) or np.any(X < 0):
                raise ValueError("metric='precomputed': X must be a symmetric non-negative matrix.")
            return squareform(X, checks=False).astype(np.float64)
        if self.linkage in _SQUARED:
            return pdist(X, "sqeuclidean")
        return pdist(X, _METRICS[self.metric])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.metric == "precomputed"
        return tags

    def fit_predict(self, X, y=None):
        """Fit to ``X`` and return the cluster of each row (``labels_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_samples) when
            ``metric="precomputed"``
        y : ignored

        Returns
        -------
        labels : ndarray of shape (n_samples,)
            ``labels_``: the cluster of each row of ``X``.
        """
        return self.fit(X).labels_
