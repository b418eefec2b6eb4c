"""Benchmark workloads of the unsupervised families (loaded by ``workloads.py``).

Fit time is what matters here; the runner also times ``predict``, which in these adapters only
returns the accuracy statistic below (no work). ``y`` is all zeros (the clusterers and PCA
ignore it), so the runner's scale is 1 and ``rtol`` bounds an absolute difference:

* KMeans (k-means++, ``n_init=1``, seed 0 on both sides; the two libraries draw different
  seeds): ``predict`` returns ``log(inertia_)``, so ``rtol=0.01`` means inertia within 1%;
* PCA(32): ``predict`` returns ``log(explained_variance_)``; ``rtol=1e-6``;
* DBSCAN: ``predict`` returns the labels renumbered by order of first appearance (noise stays
  −1), so identical partitions give 0 (adjusted Rand = 1).
"""

from __future__ import annotations

import numpy as np

from workloads import Adapter, Workload

__all__ = ["WORKLOADS"]


def _blobs(rng, n_samples, n_features, n_centers, box, std):
    centers = rng.uniform(-box, box, size=(n_centers, n_features))  # drawn first: n-free
    which = rng.integers(n_centers, size=n_samples)
    X = centers[which]
    X += std * rng.standard_normal((n_samples, n_features))
    return X, np.zeros(n_samples)


def blobs_20(rng: np.random.Generator, n_samples: int, n_features: int):
    """20 well-separated Gaussian blobs (centres uniform in [−50, 50]^p, sd 1)."""
    return _blobs(rng, n_samples, n_features, 20, 50.0, 1.0)


def blobs_10_dense(rng: np.random.Generator, n_samples: int, n_features: int):
    """10 Gaussian blobs (centres uniform in [−20, 20]^p, sd 1) for DBSCAN."""
    return _blobs(rng, n_samples, n_features, 10, 20.0, 1.0)


def gaussian_noise(rng: np.random.Generator, n_samples: int, n_features: int):
    """Dense standard normal ``X`` (MNIST-sized: 70,000 × 784 = 419 MiB)."""
    return rng.standard_normal((n_samples, n_features)), np.zeros(n_samples)


def _canonical(labels) -> np.ndarray:
    labels = np.asarray(labels)
    out = np.full(labels.shape, -1.0)
    _, first = np.unique(labels, return_index=True)
    order = np.argsort(first)
    uniq = labels[np.sort(first)]
    mapping = dict(zip(uniq.tolist(), range(len(order)), strict=True))
    keep = labels >= 0
    out[keep] = [mapping[v] for v in labels[keep].tolist()]
    # renumber so that noise (−1) does not take a number
    valid = np.unique(out[keep], return_inverse=True)[1] if keep.any() else []
    out[keep] = valid
    return out


class _Side:
    """Adapter over an estimator factory and the statistic its ``predict`` returns."""

    def __init__(self, label, build, statistic):
        self.label = label
        self.build = build
        self.statistic = statistic

    def fit(self, X, y) -> Adapter:
        self.estimator_ = self.build().fit(X)
        return self

    def predict(self, X):
        return self.statistic(self.estimator_)


def _ours_kmeans():
    from statlearning.cluster import KMeans

    return KMeans(20, n_init=1, random_state=0)


def _peer_kmeans():
    from sklearn.cluster import KMeans

    return KMeans(20, n_init=1, random_state=0)


def _ours_pca():
    from statlearning.decomposition import PCA

    return PCA(32)


def _peer_pca():
    from sklearn.decomposition import PCA

    return PCA(32)


def _ours_dbscan():
    from statlearning.cluster import DBSCAN

    return DBSCAN(eps=0.2, min_samples=5)


def _peer_dbscan():
    from sklearn.cluster import DBSCAN

    return DBSCAN(eps=0.2, min_samples=5)


def _log_inertia(est):
    return np.array([np.log(est.inertia_)])


def _log_variance(est):
    return np.log(est.explained_variance_)


def _labels(est):
    return _canonical(est.labels_)


WORKLOADS: list[Workload] = [
    Workload(
        name="kmeans_500k_x3",
        description="KMeans(20, k-means++, n_init=1), 500,000 × 3, 20 blobs; vs scikit-learn "
        "KMeans(20, n_init=1); accuracy: log inertia",
        n_samples=500_000,
        n_features=3,
        ours=lambda: _Side("statlearning KMeans(20, n_init=1)", _ours_kmeans, _log_inertia),
        peer=lambda: _Side("sklearn KMeans(20, n_init=1)", _peer_kmeans, _log_inertia),
        data=blobs_20,
        rtol=0.01,
    ),
    Workload(
        name="pca32_70k_x784",
        description="PCA(32), 70,000 × 784 standard normal; vs scikit-learn PCA(32); "
        "accuracy: log explained variances",
        n_samples=70_000,
        n_features=784,
        ours=lambda: _Side("statlearning PCA(32)", _ours_pca, _log_variance),
        peer=lambda: _Side("sklearn PCA(32)", _peer_pca, _log_variance),
        data=gaussian_noise,
        rtol=1e-6,
    ),
    Workload(
        name="dbscan_50k_x2",
        description="DBSCAN(eps=0.2, min_samples=5), 50,000 × 2, 10 blobs; vs scikit-learn "
        "DBSCAN; accuracy: labels (renumbered by first appearance)",
        n_samples=50_000,
        n_features=2,
        ours=lambda: _Side("statlearning DBSCAN(eps=0.2, min_samples=5)", _ours_dbscan, _labels),
        peer=lambda: _Side("sklearn DBSCAN(eps=0.2, min_samples=5)", _peer_dbscan, _labels),
        data=blobs_10_dense,
        rtol=1e-12,
    ),
]
