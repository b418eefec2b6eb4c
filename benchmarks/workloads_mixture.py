"""Benchmark workloads of the mixture and hierarchical-clustering families.

* ``gmm_full_100k_x10``: ``GaussianMixture(5, covariance_type="full")`` on 100,000 × 10 points
  from five Gaussian components, both libraries started from the same fixed initialisation
  (``weights_init``, ``means_init``, ``precisions_init``), so that they run the same EM
  iterations. ``predict`` is ``score_samples`` (the log-density of every row) on both sides:
  equal initialisation and updates give equal log-densities to rounding, ``rtol=1e-8``.
* ``ward_10k_x10``: Ward ``AgglomerativeClustering(n_clusters=5)`` on 10,000 × 10 Gaussian
  points. ``predict`` returns ``labels_`` renumbered by first appearance, so that identical
  partitions give identical arrays (``rtol=0``: any differing label is a mismatch).
"""

from __future__ import annotations

import numpy as np

from workloads import Workload

N_COMPONENTS = 5
N_FEATURES = 10

_params = np.random.default_rng(20240607)
#: Component means and mixing matrices, fixed independently of ``n_samples``.
TRUE_MEANS = _params.normal(scale=3.0, size=(N_COMPONENTS, N_FEATURES))
MIXING = np.eye(N_FEATURES) + 0.4 * _params.normal(size=(N_COMPONENTS, N_FEATURES, N_FEATURES))
#: The initialisation both libraries start from: perturbed means, equal weights, unit precisions.
INIT = {
    "weights_init": np.full(N_COMPONENTS, 1.0 / N_COMPONENTS),
    "means_init": TRUE_MEANS + _params.normal(scale=1.0, size=TRUE_MEANS.shape),
    "precisions_init": np.repeat(np.eye(N_FEATURES)[None], N_COMPONENTS, axis=0),
}


def gaussian_mixture_data(rng: np.random.Generator, n_samples: int, n_features: int):
    """Five correlated Gaussian components; ``y`` is the component of each row."""
    y = rng.integers(0, N_COMPONENTS, n_samples)
    X = rng.standard_normal((n_samples, n_features))
    for k in range(N_COMPONENTS):
        rows = np.flatnonzero(y == k)
        X[rows] = X[rows] @ MIXING[k] + TRUE_MEANS[k]
    return X, y.astype(np.float64)


def _first_appearance(labels) -> np.ndarray:
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(first.size, dtype=np.intp)
    rank[np.argsort(first)] = np.arange(first.size)
    return rank[inverse].astype(np.float64)


class _Mixture:
    def __init__(self, library: str):
        self.library = library
        self.label = (
            f"{library} GaussianMixture(5, covariance_type='full', same init) + score_samples"
        )

    def fit(self, X, y):
        if self.library == "statlearning":
            from statlearning.mixture import GaussianMixture
        else:
            from sklearn.mixture import GaussianMixture
        self.estimator_ = GaussianMixture(N_COMPONENTS, covariance_type="full", **INIT).fit(X)
        return self

    def predict(self, X):
        return self.estimator_.score_samples(X)


class _Ward:
    def __init__(self, library: str):
        self.library = library
        self.label = f"{library} AgglomerativeClustering(5, linkage='ward')"

    def fit(self, X, y):
        if self.library == "statlearning":
            from statlearning.cluster import AgglomerativeClustering
        else:
            from sklearn.cluster import AgglomerativeClustering
        self.labels_ = AgglomerativeClustering(5, linkage="ward").fit(X).labels_
        return self

    def predict(self, X):
        return _first_appearance(self.labels_)


WORKLOADS: list[Workload] = [
    Workload(
        name="gmm_full_100k_x10",
        description="GaussianMixture(5, full), 100,000 × 10 from 5 Gaussian components, same "
        "initialisation on both sides, vs scikit-learn; predict = score_samples",
        n_samples=100_000,
        n_features=N_FEATURES,
        ours=lambda: _Mixture("statlearning"),
        peer=lambda: _Mixture("sklearn"),
        data=gaussian_mixture_data,
        rtol=1e-8,
    ),
    Workload(
        name="ward_10k_x10",
        description="Ward AgglomerativeClustering(n_clusters=5), 10,000 × 10 Gaussian points, "
        "vs scikit-learn; predict = labels_ renumbered by first appearance (identical "
        "partitions required)",
        n_samples=10_000,
        n_features=10,
        ours=lambda: _Ward("statlearning"),
        peer=lambda: _Ward("sklearn"),
        rtol=0.0,
    ),
]
