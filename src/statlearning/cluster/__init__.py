"""Clustering: k-means (Lloyd or Elkan, greedy k-means++, mini-batch), kernel k-means, DBSCAN,
agglomerative (hierarchical) clustering and spectral clustering.

:class:`KMeans` follows R's ``kmeans(..., algorithm = "Lloyd")`` and scikit-learn's
``KMeans``; :class:`DBSCAN` counts the point itself in ``min_samples`` (the notes' formula)
and offers the notes' deterministic nearest-core-point rule for border points;
:class:`AgglomerativeClustering` reproduces R's ``hclust`` and SciPy's ``linkage`` with
O(n²) memory; :class:`SpectralClustering` uses the eigenvectors of the smallest Laplacian
eigenvalues.
"""

from ._agglomerative import AgglomerativeClustering
from ._dbscan import DBSCAN
from ._kernel_kmeans import KernelKMeans
from ._kmeans import KMeans, kmeans_plusplus
from ._minibatch_kmeans import MiniBatchKMeans
from ._spectral import SpectralClustering

__all__ = [
    "DBSCAN",
    "AgglomerativeClustering",
    "KMeans",
    "KernelKMeans",
    "MiniBatchKMeans",
    "SpectralClustering",
    "kmeans_plusplus",
]
