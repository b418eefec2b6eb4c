"""KernelKMeans: the linear-kernel identity with KMeans, explicit feature maps, the objective's
trace form (seed 002 (11.10)), weights, predict, and bad input."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning.cluster import KernelKMeans, KMeans, kmeans_plusplus
from statlearning.exceptions import ConvergenceWarning
from statlearning.kernels import RBF, Polynomial

RNG = np.random.default_rng(0)
BLOBS = np.r_[
    RNG.normal(size=(120, 2)),
    RNG.normal(size=(100, 2)) + 4,
    RNG.normal(size=(80, 2)) + np.array([0.0, 5.0]),
]
t = np.linspace(0, 2 * np.pi, 80, endpoint=False)
RINGS = np.r_[np.c_[np.cos(t), np.sin(t)], 4 * np.c_[np.cos(t), np.sin(t)]]
RINGS = RINGS + np.random.default_rng(1).normal(scale=0.1, size=RINGS.shape)


def _seeds(X, k, seed, w=None):
    """The k-means++ centres KernelKMeans draws: through the cumulative weights, walking
    through the points by K_ii, then by Σ_j w_j K_ij (linear kernel)."""
    w = np.ones(X.shape[0]) if w is None else w
    K = X @ X.T
    order = np.lexsort((K @ w, np.diag(K)))
    return kmeans_plusplus(X, k, sample_weight=w, random_state=seed, order=order)[0]


@pytest.mark.parametrize("seed", range(4))
def test_linear_kernel_equals_kmeans_from_the_same_seeds(seed):
    km = KMeans(4, init=_seeds(BLOBS, 4, seed), tol=0).fit(BLOBS)
    kkm = KernelKMeans(4, kernel="linear", n_init=1, random_state=seed).fit(BLOBS)
    np.testing.assert_array_equal(kkm.labels_, km.labels_)
    assert kkm.n_iter_ == km.n_iter_
    np.testing.assert_allclose(kkm.inertia_path_, km.inertia_path_, rtol=1e-12)
    np.testing.assert_allclose(kkm.inertia_, km.inertia_, rtol=1e-12)
    # the means: μ_c = Σ_j dual_coef_[j, c] x_j
    np.testing.assert_allclose(kkm.dual_coef_.T @ BLOBS, km.cluster_centers_, atol=1e-12)
    new = RNG.normal(size=(50, 2)) * 3
    np.testing.assert_array_equal(kkm.predict(new), km.predict(new))


def test_kernel_kmeanspp_seeding_picks_the_same_rows():
    K = BLOBS @ BLOBS.T
    w = np.random.default_rng(5).integers(1, 4, size=BLOBS.shape[0]).astype(float)
    order = np.random.default_rng(6).permutation(BLOBS.shape[0])
    for seed in range(3):
        _, idx = kmeans_plusplus(BLOBS, 5, random_state=seed)
        _, idx_gram = kmeans_plusplus(K, 5, random_state=seed, gram=True)
        np.testing.assert_array_equal(idx_gram, idx)
        _, idx = kmeans_plusplus(BLOBS, 5, sample_weight=w, random_state=seed, order=order)
        _, idx_gram = kmeans_plusplus(
            K, 5, sample_weight=w, random_state=seed, gram=True, order=order
        )
        np.testing.assert_array_equal(idx_gram, idx)


def test_weighted_seeding_draws_as_repeated_rows():
    """A row of weight w takes the same random numbers as w repeated rows kept together."""
    w = np.random.default_rng(7).integers(0, 4, size=BLOBS.shape[0])
    rows = np.repeat(np.arange(BLOBS.shape[0]), w)
    for seed in range(5):
        _, idx_w = kmeans_plusplus(BLOBS, 6, sample_weight=w.astype(float), random_state=seed)
        _, idx_r = kmeans_plusplus(BLOBS[rows], 6, sample_weight=np.ones(rows.size),
                                   random_state=seed)  # fmt: skip
        np.testing.assert_array_equal(idx_w, rows[idx_r])
        assert np.all(w[idx_w] > 0)
    with pytest.raises(ValueError, match="order must be a permutation"):
        kmeans_plusplus(BLOBS, 3, order=np.zeros(BLOBS.shape[0], dtype=int))


@pytest.mark.parametrize("init", ["k-means++", "random"])
def test_fit_does_not_depend_on_row_order_and_weights_are_repetitions(init):
    w = np.random.default_rng(8).integers(0, 4, size=BLOBS.shape[0])
    rows = np.repeat(np.arange(BLOBS.shape[0]), w)
    perm = np.random.default_rng(9).permutation(BLOBS.shape[0])
    new = RNG.normal(size=(40, 2)) * 3
    for seed in range(3):
        params = dict(n_clusters=4, kernel="rbf", gamma=0.3, init=init, n_init=3)
        repeated = KernelKMeans(**params, random_state=seed).fit(BLOBS[rows])
        weighted = KernelKMeans(**params, random_state=seed)
        weighted.fit(BLOBS[perm], sample_weight=w[perm].astype(float))
        shuffled = KernelKMeans(**params, random_state=seed).fit(BLOBS[perm][::-1])
        plain = KernelKMeans(**params, random_state=seed).fit(BLOBS)
        np.testing.assert_array_equal(weighted.predict(new), repeated.predict(new))
        np.testing.assert_allclose(weighted.inertia_, repeated.inertia_, rtol=1e-10)
        np.testing.assert_array_equal(shuffled.labels_, plain.labels_[perm][::-1])


def _poly2_features(X):
    """Feature map of (xᵀy + 1)² = ⟨x̃ ⊗ x̃, ỹ ⊗ ỹ⟩ with x̃ = (1, x)."""
    Xt = np.column_stack([np.ones(len(X)), X])
    return np.einsum("ni,nj->nij", Xt, Xt).reshape(len(X), -1)


def test_polynomial_kernel_equals_kmeans_on_explicit_features():
    F = _poly2_features(BLOBS)
    start = np.random.default_rng(3).choice(BLOBS.shape[0], size=3, replace=False)
    km = KMeans(3, init=F[start], tol=0).fit(F)
    first = np.argmin(((F[:, None, :] - F[start][None]) ** 2).sum(-1), axis=1)
    kkm = KernelKMeans(3, kernel="poly", degree=2, gamma=1.0, coef0=1.0, init=first).fit(BLOBS)
    np.testing.assert_array_equal(kkm.labels_, km.labels_)
    np.testing.assert_allclose(kkm.inertia_, km.inertia_, rtol=1e-10)
    new = RNG.normal(size=(40, 2)) * 3
    np.testing.assert_array_equal(kkm.predict(new), km.predict(_poly2_features(new)))


def test_inertia_is_the_trace_form_of_the_objective():
    """Seed 002 (11.10): C = tr K − Σ_c (1/N_c) Σ_{j,l ∈ C_c} K_jl."""
    kkm = KernelKMeans(2, kernel="rbf", gamma=2.0, random_state=0).fit(RINGS)
    K = RBF(2.0)(RINGS)
    Z = np.eye(2)[kkm.labels_]
    L = np.diag(1 / Z.sum(axis=0))
    trace_form = np.trace(K) - np.trace(np.sqrt(L) @ Z.T @ K @ Z @ np.sqrt(L))
    np.testing.assert_allclose(kkm.inertia_, trace_form, rtol=1e-12)
    np.testing.assert_allclose(kkm.cluster_weights_, Z.sum(axis=0))
    assert np.all(np.diff(kkm.inertia_path_) <= 1e-9 * kkm.inertia_path_[0])


def test_rbf_kernel_separates_concentric_rings():
    kkm = KernelKMeans(2, kernel="rbf", gamma=2.0, random_state=0).fit(RINGS)
    truth = np.repeat([0, 1], 80)
    agree = np.mean(kkm.labels_ == truth)
    assert max(agree, 1 - agree) == 1.0
    km = KMeans(2, random_state=0).fit(RINGS)
    agree = np.mean(km.labels_ == truth)
    assert max(agree, 1 - agree) < 0.9  # Voronoi cells cannot separate the rings


def test_weights_equal_repeated_rows_from_the_same_partition():
    w = np.random.default_rng(2).integers(0, 4, size=BLOBS.shape[0]).astype(float)
    start = np.random.default_rng(4).integers(0, 3, size=BLOBS.shape[0])
    weighted = KernelKMeans(3, kernel="rbf", gamma=0.3, init=start).fit(BLOBS, sample_weight=w)
    rows = np.repeat(np.arange(BLOBS.shape[0]), w.astype(int))
    repeated = KernelKMeans(3, kernel="rbf", gamma=0.3, init=start[rows]).fit(BLOBS[rows])
    np.testing.assert_array_equal(weighted.labels_[rows], repeated.labels_)
    np.testing.assert_allclose(weighted.inertia_, repeated.inertia_, rtol=1e-10)
    new = RNG.normal(size=(30, 2)) * 3
    np.testing.assert_array_equal(weighted.predict(new), repeated.predict(new))
    # weighted seeding runs and gives a partition
    seeded = KernelKMeans(3, kernel="rbf", gamma=0.3, random_state=0)
    assert seeded.fit(BLOBS, sample_weight=w).labels_.shape == (BLOBS.shape[0],)


def test_precomputed_kernel_and_threads_give_the_same_fit():
    ref = KernelKMeans(3, kernel="rbf", gamma=0.5, random_state=0).fit(BLOBS)
    pre = KernelKMeans(3, kernel="precomputed", random_state=0).fit(RBF(0.5)(BLOBS))
    np.testing.assert_array_equal(pre.labels_, ref.labels_)
    new = RNG.normal(size=(30, 2)) * 3
    np.testing.assert_array_equal(pre.predict(RBF(0.5)(new, BLOBS)), ref.predict(new))
    threaded = KernelKMeans(3, kernel="rbf", gamma=0.5, random_state=0, n_jobs=2).fit(BLOBS)
    np.testing.assert_array_equal(threaded.labels_, ref.labels_)
    assert threaded.inertia_ == ref.inertia_


def test_kernel_object_and_tol():
    model = KernelKMeans(3, kernel=Polynomial(2, gamma=0.5), tol=1e-3, random_state=0).fit(BLOBS)
    assert model.n_iter_ >= 1 and np.isfinite(model.inertia_)


def test_bad_input_and_non_convergence():
    with pytest.raises(ValueError, match="n_samples=3 should be >= n_clusters=4"):
        KernelKMeans(4).fit(BLOBS[:3])
    with pytest.raises(ValueError, match=r"init: initial labels must have shape \(300,\)"):
        KernelKMeans(3, init=np.zeros(5, dtype=int)).fit(BLOBS)
    with pytest.raises(ValueError, match="init: initial labels must be integers in 0"):
        KernelKMeans(3, init=np.full(300, 3)).fit(BLOBS)
    with pytest.raises(ValueError, match="square training Gram"):
        KernelKMeans(3, kernel="precomputed").fit(BLOBS)
    with pytest.warns(ConvergenceWarning):
        KernelKMeans(3, kernel="rbf", max_iter=1, n_init=1, random_state=0).fit(RINGS)
