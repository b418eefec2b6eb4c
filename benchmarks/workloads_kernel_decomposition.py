"""Benchmark workloads of kernel PCA (loaded by ``workloads.py``).

``predict`` returns ``log(eigenvalues_)`` of the fitted model (no work), so with ``y`` all
zeros ``rtol`` bounds the difference of the log eigenvalues: the two libraries agree when they
find the same leading eigenvalues of the same centred Gram matrix. Both sides use the RBF
kernel with scikit-learn's default γ = 1 / n_features.

* ``kpca_rbf10_5k_x50``: the dense LAPACK solver for the 10 leading eigenpairs on both sides;
* ``kpca_rbf10_rand_20k_x50``: the randomised solver (7 power iterations, 10 oversamples on
  both sides; the random draws differ). Eigenvalues 6–10 of these data lie in a bulk with gaps
  under 1%, where neither randomised solver converges: on 5,000 rows, against the exact
  eigenvalues, both are off by about 1.1% (ours 1.15e-2, scikit-learn's 1.11e-2 in log), so
  ``rtol=0.02``; they differ from each other by about 4e-4.

Kernel k-means has no peer in scikit-learn; its cost is measured by ``kernel_kmeans_cost``
below (``python benchmarks/workloads_kernel_decomposition.py``): time per Lloyd iteration and
the peak memory, which is the Gram matrix (``8n²`` bytes).
"""

from __future__ import annotations

import numpy as np

from workloads import Adapter, Workload

__all__ = ["WORKLOADS"]


def gaussian_mixture_50(rng: np.random.Generator, n_samples: int, n_features: int):
    """Five Gaussian clusters (centres uniform in [−2, 2]^p, sd 1): a Gram with a spectrum
    that decays, unlike pure noise."""
    centers = rng.uniform(-2, 2, size=(5, n_features))
    X = centers[rng.integers(5, size=n_samples)] + rng.standard_normal((n_samples, n_features))
    return X, np.zeros(n_samples)


class _Side:
    """Adapter: fit a kernel PCA; ``predict`` returns its log eigenvalues."""

    def __init__(self, label, build):
        self.label = label
        self.build = build

    def fit(self, X, y) -> Adapter:
        self.estimator_ = self.build().fit(X)
        return self

    def predict(self, X):
        return np.log(self.estimator_.eigenvalues_)


def _ours(solver):
    def build():
        from statlearning.decomposition import KernelPCA

        return KernelPCA(10, kernel="rbf", eigen_solver=solver, random_state=0)

    return build


def _peer(solver):
    def build():
        from sklearn.decomposition import KernelPCA

        return KernelPCA(10, kernel="rbf", eigen_solver=solver, random_state=0)

    return build


WORKLOADS: list[Workload] = [
    Workload(
        name="kpca_rbf10_5k_x50",
        description="KernelPCA(10, rbf, dense eigensolver), 5,000 × 50, five Gaussian clusters; "
        "vs scikit-learn KernelPCA; accuracy: log eigenvalues",
        n_samples=5_000,
        n_features=50,
        ours=lambda: _Side("statlearning KernelPCA(10, rbf, dense)", _ours("dense")),
        peer=lambda: _Side("sklearn KernelPCA(10, rbf, dense)", _peer("dense")),
        data=gaussian_mixture_50,
        rtol=1e-8,
    ),
    Workload(
        name="kpca_rbf10_rand_20k_x50",
        description="KernelPCA(10, rbf, randomized eigensolver), 20,000 × 50, five Gaussian "
        "clusters; vs scikit-learn KernelPCA; accuracy: log eigenvalues",
        n_samples=20_000,
        n_features=50,
        ours=lambda: _Side("statlearning KernelPCA(10, rbf, randomized)", _ours("randomized")),
        peer=lambda: _Side("sklearn KernelPCA(10, rbf, randomized)", _peer("randomized")),
        data=gaussian_mixture_50,
        rtol=0.02,
    ),
]


def kernel_kmeans_cost(n=10_000, p=10, k=8, n_jobs=None):
    """Fit ``KernelKMeans(k, rbf, n_init=1)`` on ``n`` points; print the Gram time, the time
    per Lloyd iteration and the traced peak memory of a fit from the data."""
    import time
    import tracemalloc

    from statlearning.cluster import KernelKMeans
    from statlearning.kernels import RBF

    rng = np.random.default_rng(0)
    X, _ = gaussian_mixture_50(rng, n, p)
    KernelKMeans(k, n_init=1, random_state=0).fit(X[:500])  # compile the kernels
    t0 = time.perf_counter()
    K = RBF(1.0 / p)(X)
    gram = time.perf_counter() - t0
    # the Lloyd iterations alone (a precomputed-kernel fit would add its O(n³) PSD check)
    from statlearning._core.compiled import numba_threads
    from statlearning.cluster._kernel_kmeans import _lloyd, _Partition

    w = np.ones(n)
    model = KernelKMeans(k, n_init=1, random_state=0)
    labels, path = model._initial_labels(K, np.diag(K).copy(), w, np.random.RandomState(0))
    t0 = time.perf_counter()
    with numba_threads(1 if n_jobs is None else n_jobs):
        n_iter = _lloyd(_Partition(K, np.diag(K).copy(), w, k), labels, path, 300, 0.0)[3]
    lloyd = time.perf_counter() - t0
    del K
    tracemalloc.start()
    model = KernelKMeans(k, n_init=1, random_state=0, n_jobs=n_jobs).fit(X)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    print(
        f"KernelKMeans({k}, rbf) n={n:,} p={p} n_jobs={n_jobs}: Gram {gram:.2f} s; "
        f"{n_iter} iterations in {lloyd:.2f} s = {lloyd / n_iter * 1e3:.1f} ms "
        f"per iteration; traced peak of a fit {peak / 2**20:,.0f} MiB (the Gram: "
        f"{8 * n * n / 2**20:,.0f} MiB)"
    )


if __name__ == "__main__":
    kernel_kmeans_cost()
