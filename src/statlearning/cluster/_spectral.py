"""Spectral clustering on a similarity graph: :class:`SpectralClustering`."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from scipy.spatial import cKDTree
from scipy.spatial.distance import pdist, squareform
from sklearn.base import ClusterMixin
from sklearn.utils import check_random_state

from .._core.compiled import kernel_array
from .._core.linalg import symmetric_eigh
from .._core.scaling import scale_for
from .._validation import Interval, Options, RandomState, validate_data
from ..base import StatBase, fit_context
from ..exceptions import NumericalWarning
from ._kmeans import KMeans

_AFFINITIES = ("rbf", "nearest_neighbors", "epsilon", "precomputed")
_LAPLACIANS = ("unnormalized", "shi_malik", "ng_jordan_weiss", "kernel")


class SpectralClustering(ClusterMixin, StatBase):
    """Spectral clustering: k-means on the bottom eigenvectors of a graph Laplacian.

    Parameters
    ----------
    n_clusters : int, default=8
        Number of clusters k.
    affinity : {"rbf", "nearest_neighbors", "epsilon", "precomputed"}, default="rbf"
        Similarity graph: fully connected :math:`a_{ij} = \\exp(-\\gamma\\|x_i - x_j\\|^2)`;
        the symmetrised k-nearest-neighbour graph (:math:`a_{ij} \\in \\{0, ½, 1\\}`); the
        ε-neighbourhood graph (:math:`a_{ij} = 1` when :math:`\\|x_i - x_j\\| \\le \\varepsilon`);
        or ``X`` itself as a symmetric ``(n, n)`` matrix: non-negative graph weights for the
        Laplacians, any positive semi-definite kernel matrix (negative entries allowed; an
        indefinite one warns) for ``laplacian="kernel"``.
    gamma : float, default=1.0
        RBF coefficient (γ = 1/(2σ²)).
    n_neighbors : int, default=10
        Neighbours of the kNN graph (capped at ``n_samples − 1`` with a warning).
    eps : float, default=0.5
        Radius of the ε-neighbourhood graph.
    laplacian : {"shi_malik", "unnormalized", "ng_jordan_weiss", "kernel"}, default="shi_malik"
        Which eigenproblem gives the embedding (see Notes).
    n_components : int or None, default=None
        Number of eigenvectors s (the notes' s); ``None`` means ``n_clusters``.
    assign_labels : {"kmeans"}, default="kmeans"
        :class:`~statlearning.cluster.KMeans` (k-means++ seeding, Lloyd's iterations,
        ``n_init`` restarts) on the rows of the embedding.
    random_state : int, RandomState instance or None, default=None
        Seeds the k-means step.
    n_init : int, default=10
        k-means restarts; the one with the smallest inertia is kept.

    Attributes
    ----------
    labels_ : ndarray of shape (n_samples,)
    eigenvalues_ : ndarray of shape (n_components,)
        Eigenvalues whose eigenvectors form the embedding (ascending for the Laplacians,
        descending for ``"kernel"``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    With similarity matrix :math:`A`, degrees :math:`D = \\mathrm{diag}(A\\mathbf 1)` and
    Laplacian :math:`L = D - A` (seed 001 part 2, §9.4, Algorithm 12), the embedding is the
    matrix of the eigenvectors of the s **smallest** eigenvalues: Algorithm 12 says "largest",
    a misprint (its Fig. 9.9 caption and the theory, von Luxburg 2007, use the smallest; the
    constant vector has eigenvalue 0 and the multiplicity of 0 counts the connected
    components).

    - ``"unnormalized"``: eigenvectors of :math:`L` (the notes' algorithm).
    - ``"shi_malik"``: the generalised problem :math:`L u = \\lambda D u`
      (random-walk Laplacian :math:`I - D^{-1}A`); scikit-learn's default embedding.
    - ``"ng_jordan_weiss"``: eigenvectors of :math:`I - D^{-1/2} A D^{-1/2}`, rows then
      scaled to unit length.
    - ``"kernel"``: the relaxation of kernel k-means of seed 002 §11 (11.13–11.17): the
      eigenvectors of the K **largest** eigenvalues of the similarity (kernel) matrix itself,
      uncentred and without a Laplacian, rows scaled to unit length; use it with
      ``affinity="precomputed"`` and a kernel matrix (or with ``"rbf"``).

    k-means then runs on the rows of the embedding. Self-similarities are set to zero. Memory is
    O(n²) (a dense similarity matrix) and the eigendecomposition O(n³): this is for data sets
    of a few thousand points. Mapping to R: ``kernlab::specc(x, centers = k)`` is
    ``laplacian="ng_jordan_weiss"`` with an RBF kernel (``kpar = list(sigma = γ)``); the
    parameters follow scikit-learn's ``SpectralClustering``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.cluster import SpectralClustering
    >>> X = np.array([[0.0, 0.0], [0.1, 0.0], [0.0, 0.1], [5.0, 5.0], [5.1, 5.0], [5.0, 5.1]])
    >>> labels = SpectralClustering(2, random_state=0).fit(X).labels_
    >>> bool(labels[0] == labels[1] == labels[2] != labels[3] == labels[4] == labels[5])
    True
    """

    _parameter_constraints = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "affinity": [Options(_AFFINITIES)],
        "gamma": [Interval(Real, 0.0, None, closed="neither")],
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "eps": [Interval(Real, 0.0, None, closed="neither")],
        "laplacian": [Options(_LAPLACIANS)],
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "assign_labels": [Options({"kmeans"})],
        "random_state": [RandomState()],
        "n_init": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self,
        n_clusters=8,
        *,
        affinity="rbf",
        gamma=1.0,
        n_neighbors=10,
        eps=0.5,
        laplacian="shi_malik",
        n_components=None,
        assign_labels="kmeans",
        random_state=None,
        n_init=10,
    ):
        self.n_clusters = n_clusters
        self.affinity = affinity
        self.gamma = gamma
        self.n_neighbors = n_neighbors
        self.eps = eps
        self.laplacian = laplacian
        self.n_components = n_components
        self.assign_labels = assign_labels
        self.random_state = random_state
        self.n_init = n_init

    @fit_context
    def fit(self, X, y=None):
        """Build the similarity graph, embed, and cluster the embedding.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_samples) when
            ``affinity="precomputed"``
        y : ignored

        Returns
        -------
        self
        """
        X = validate_data(self, X, dtype=np.float64, ensure_min_samples=2)
        X = kernel_array(X)
        n = X.shape[0]
        if self.n_clusters > n:
            raise ValueError(
                f"n_clusters={self.n_clusters} must be at most the number of samples, got "
                f"n_samples={n}."
            )
        s = self.n_clusters if self.n_components is None else self.n_components
        if s > n:
            raise ValueError(f"n_components={s} must be at most n_samples={n}.")
        A = self._affinity(X)
        embedding, self.eigenvalues_ = _embed(A, s, self.laplacian)
        del A
        kmeans = KMeans(
            self.n_clusters, n_init=self.n_init, random_state=check_random_state(self.random_state)
        )
        self.labels_ = kmeans.fit(embedding).labels_.astype(np.intp)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.affinity == "precomputed"
        return tags

    def fit_predict(self, X, y=None):
        """Fit to ``X`` and return the cluster of each row (``labels_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features), or (n_samples, n_samples) when
            ``affinity="precomputed"``
        y : ignored

        Returns
        -------
        labels : ndarray of shape (n_samples,)
            ``labels_``: the cluster of each row of ``X``.
        """
        return self.fit(X).labels_

    def _affinity(self, X):
        n = X.shape[0]
        if self.affinity == "precomputed":
            if X.shape != (n, n):
                raise ValueError(
                    f"affinity='precomputed' needs a square similarity matrix, got X of shape "
                    f"{X.shape}."
                )
            if not np.allclose(X, X.T):
                raise ValueError("affinity='precomputed': X must be a symmetric matrix.")
            # a graph needs non-negative weights; the kernel relaxation takes any symmetric
            # PSD kernel matrix, negative entries included (its PSD check is in _embed)
            if self.laplacian != "kernel" and np.any(X < 0):
                raise ValueError(
                    f"affinity='precomputed' with laplacian={self.laplacian!r}: X must be a "
                    "non-negative similarity matrix (graph weights); a kernel matrix with "
                    "negative entries needs laplacian='kernel'."
                )
            A = np.array(X, dtype=np.float64)
        # distances computed on X / s (s a power of two: exact) when their squares would leave
        # float64's range; the rbf exponent -gamma s² d'² then over- or underflows correctly
        s = scale_for(X) if self.affinity != "precomputed" else None
        if s is not None:
            X = X / s
        if self.affinity == "rbf":
            d2 = pdist(X, "sqeuclidean")
            if s is None:
                A = squareform(np.exp(-self.gamma * d2))
            else:  # exp(-gamma s² d'²), with 0 · inf read as 0 (duplicate rows)
                with np.errstate(over="ignore", under="ignore", invalid="ignore"):
                    E = np.exp(-(self.gamma * s * s) * d2)
                A = squareform(np.where(d2 > 0, E, 1.0))
        elif self.affinity == "epsilon":
            eps = self.eps if s is None else self.eps / s
            A = squareform((pdist(X) <= eps).astype(np.float64))
        elif self.affinity == "nearest_neighbors":
            k = self.n_neighbors
            if k > n - 1:
                warnings.warn(
                    f"{type(self).__name__}: n_neighbors={k} exceeds n_samples - 1 = {n - 1}; "
                    f"using {n - 1}.",
                    UserWarning,
                    stacklevel=4,
                )
                k = n - 1
            _, idx = cKDTree(X).query(X, k=k + 1)
            A = np.zeros((n, n))
            rows = np.repeat(np.arange(n), k + 1)
            A[rows, idx.ravel()] = 1.0
            A = 0.5 * (A + A.T)
        if self.laplacian != "kernel":
            np.fill_diagonal(A, 0.0)
        return A


def _embed(A, s, laplacian):
    """The ``(n, s)`` spectral embedding of similarity matrix ``A`` and its eigenvalues."""
    n = A.shape[0]
    if laplacian == "kernel":
        w, V = symmetric_eigh(A, subset_by_index=[n - s, n - 1])
        w, V = w[::-1], V[:, ::-1]
        _warn_indefinite(A, w[0])
        return _unit_rows(V), w
    deg = A.sum(axis=1)
    if laplacian == "unnormalized":
        L = -A
        L[np.diag_indices(n)] += deg
        w, V = symmetric_eigh(L, subset_by_index=[0, s - 1])
        return V, w
    if np.any(deg <= 0.0):
        warnings.warn(
            f"SpectralClustering: {int(np.sum(deg <= 0))} point(s) have no neighbour in the "
            "similarity graph; "
            "each forms its own component. Consider a larger gamma^-1, eps or n_neighbors.",
            NumericalWarning,
            stacklevel=4,
        )
        deg = np.where(deg > 0.0, deg, 1.0)
    r = 1.0 / np.sqrt(deg)
    L = -(r[:, None] * A * r[None, :])
    L[np.diag_indices(n)] += 1.0
    w, V = symmetric_eigh(L, subset_by_index=[0, s - 1])
    if laplacian == "shi_malik":
        return V * r[:, None], w  # generalised eigenvectors of L u = λ D u
    return _unit_rows(V), w


def _warn_indefinite(K, largest, tol=1e-8):
    """Warn when the kernel matrix has an eigenvalue below ``-tol`` times its largest in size."""
    smallest = symmetric_eigh(K, subset_by_index=[0, 0], eigvals_only=True)[0]
    size = max(abs(smallest), abs(largest), np.finfo(float).tiny)
    if smallest < -tol * size:
        warnings.warn(
            f"SpectralClustering: the kernel matrix is indefinite (smallest eigenvalue "
            f"{smallest:.3g}, largest {largest:.3g}); the kernel relaxation (laplacian='kernel') "
            "assumes a positive semi-definite kernel, so its embedding has no k-means meaning "
            "for the negative part.",
            NumericalWarning,
            stacklevel=5,
        )


def _unit_rows(V):
    norms = np.linalg.norm(V, axis=1, keepdims=True)
    return V / np.where(norms > 0, norms, 1.0)
