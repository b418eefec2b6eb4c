"""Kernel objects: scikit-learn's pairwise kernels, the notes' feature-map identities, the algebra,
the Mercer check and centring."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.metrics.pairwise import pairwise_kernels

from statlearning._core.compiled import numba_threads
from statlearning._core.kernel_gram import gram, gram_diag
from statlearning.kernels import (
    RBF,
    AllSubsets,
    CallableKernel,
    Cosine,
    Exponential,
    KernelCenterer,
    Laplacian,
    Linear,
    Normalized,
    Polynomial,
    Precomputed,
    Sigmoid,
    Spectrum,
    center_kernel,
    is_mercer,
    pairwise_kernel,
    resolve_kernel,
)

RNG = np.random.default_rng(0)
X = RNG.normal(size=(53, 4))
Y = RNG.normal(size=(17, 4))

CASES = [
    (Linear(), "linear", {}),
    (Polynomial(degree=3, gamma=0.4, coef0=1.5), "poly", dict(degree=3, gamma=0.4, coef0=1.5)),
    (RBF(gamma=0.3), "rbf", dict(gamma=0.3)),
    (Laplacian(gamma=0.7), "laplacian", dict(gamma=0.7)),
    (Sigmoid(gamma=0.2, coef0=-0.5), "sigmoid", dict(gamma=0.2, coef0=-0.5)),
    (Cosine(), "cosine", {}),
]


@pytest.mark.parametrize(("kernel", "name", "params"), CASES, ids=[c[1] for c in CASES])
@pytest.mark.parametrize("other", [None, Y], ids=["symmetric", "cross"])
def test_builtin_kernels_match_scikit_learn(kernel, name, params, other):
    expected = pairwise_kernels(X, other, metric=name, **params)
    np.testing.assert_allclose(kernel(X, other), expected, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(kernel.diag(X), np.diag(pairwise_kernels(X, metric=name, **params)))
    np.testing.assert_allclose(
        pairwise_kernel(X, other, kernel=name, **params), expected, atol=1e-13
    )
    spec = kernel.compiled_spec()
    assert spec[0] == name


@pytest.mark.parametrize("name", ["linear", "poly", "rbf", "laplacian", "sigmoid", "cosine"])
def test_blocks_do_not_change_the_gram(name):
    full = gram(X, kernel=name, block_rows=10_000)
    for rows in (1, 7, 52):
        np.testing.assert_allclose(gram(X, kernel=name, block_rows=rows), full, atol=1e-14)
        np.testing.assert_allclose(
            gram(X, Y, kernel=name, block_rows=rows), gram(X, Y, kernel=name)
        )
    K = gram(X, kernel=name, block_rows=7)
    np.testing.assert_array_equal(K, K.T)
    np.testing.assert_allclose(gram_diag(X, kernel=name), np.diag(K), atol=1e-14)


@pytest.mark.parametrize("name", ["linear", "poly", "rbf", "sigmoid", "cosine"])
def test_one_product_and_compiled_passes_equal_the_blocks(name):
    """Above 2**27 multiply-adds the Gram is one BLAS product (syrk when symmetric) and
    compiled passes; the same entries as the row blocks, exactly symmetric, RBF diagonal 1."""
    rng = np.random.default_rng(3)
    A = rng.normal(size=(1300, 100)) / 4
    B = rng.normal(size=(1100, 100)) / 4
    params = dict(kernel=name, gamma=0.05, degree=3, coef0=0.5)
    K = gram(A, **params)  # 1300² · 100 > 2**27: the whole-product path
    np.testing.assert_allclose(K, gram(A, block_rows=333, **params), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(K, K.T)
    assert K.flags.c_contiguous
    if name == "rbf":
        assert np.all(np.diag(K) == 1.0) and K.max() <= 1.0
    np.testing.assert_allclose(gram(A, B, **params), gram(A, B, block_rows=333, **params),
                               rtol=1e-12, atol=1e-12)  # fmt: skip
    with numba_threads(1):
        np.testing.assert_array_equal(gram(A, **params), K)


def test_rbf_diagonal_is_exactly_one_and_distances_clip_at_zero():
    Z = np.vstack([X, X + 1e-9]) * 1e4  # near duplicates: cancellation in ‖x‖² + ‖y‖² − 2xᵀy
    K = RBF(gamma=1e-8)(Z)
    assert np.all(np.diag(K) == 1.0)
    assert K.max() <= 1.0


def test_ard_rbf_scales_each_feature():
    g = np.array([0.1, 2.0, 0.5, 1.0])
    d2 = ((X[:, None, :] - Y[None, :, :]) ** 2 * g).sum(axis=2)
    np.testing.assert_allclose(RBF(gamma=g)(X, Y), np.exp(-d2), rtol=1e-12)
    assert RBF(gamma=g).compiled_spec() is None
    with pytest.raises(ValueError, match="4 features"):
        RBF(gamma=g[:3])(X)


# ----- the notes' feature-map identities -------------------------------------------------


def test_zupan_cubic_map_gives_0_262144():
    def phi(x):
        return np.array([1.0, math.sqrt(3) * x, math.sqrt(3) * x**2, x**3])

    k = Polynomial(degree=3, gamma=1.0, coef0=1.0)(np.array([[0.4]]), np.array([[-0.9]]))[0, 0]
    assert k == pytest.approx(0.262144, abs=1e-15)
    assert phi(0.4) @ phi(-0.9) == pytest.approx(0.262144, abs=1e-15)


def test_vandin_quadratic_map_gives_0_49():
    zeta, gamma = 0.7, 1.3
    u, v = np.array([0.3, -1.2]), np.array([2.0, 0.5])

    def psi(x):  # 1 + d + d² entries
        return np.concatenate(
            [[zeta], math.sqrt(2 * zeta * gamma) * x, gamma * np.outer(x, x).ravel()]
        )

    k = Polynomial(degree=2, gamma=gamma, coef0=zeta)(u[None], v[None])[0, 0]
    assert psi(u).size == 7
    assert k == pytest.approx(0.49, abs=1e-15)
    assert psi(u) @ psi(v) == pytest.approx(0.49, abs=1e-15)


def test_vandin_rbf_series_gives_0_1845195():
    x, y = 0.4, -0.9
    series = math.exp(-(x**2) - y**2) * sum((2 * x * y) ** k / math.factorial(k) for k in range(40))
    k = RBF(gamma=1.0)(np.array([[x]]), np.array([[y]]))[0, 0]
    assert round(series, 7) == 0.1845195
    assert k == pytest.approx(math.exp(-1.69), rel=1e-15)
    assert k == pytest.approx(series, rel=1e-14)


def test_artelt_quadratic_map_gives_4():
    def phi(a):
        r2 = math.sqrt(2)
        return np.array([a[0] ** 2, r2 * a[0] * a[1], a[1] ** 2, r2 * a[0], r2 * a[1], 1.0])

    x, y = np.array([1.0, 2.0]), np.array([3.0, -1.0])
    assert Polynomial(degree=2, gamma=1.0, coef0=1.0)(x[None], y[None])[0, 0] == 4.0
    assert phi(x) @ phi(y) == pytest.approx(4.0, abs=1e-14)


def _welling_features(x, d, R):
    """Seed 002 (B.5) with the factor R^((d−s)/2) inside the root and s ≤ d."""
    n = x.size
    feats = []
    for s in range(d + 1):
        for idx in itertools.product(range(s + 1), repeat=n):
            if sum(idx) != s:
                continue
            coef = math.factorial(d) / (math.factorial(d - s) * math.prod(map(math.factorial, idx)))
            feats.append(math.sqrt(coef * R ** (d - s)) * math.prod(x ** np.array(idx)))
    return np.array(feats)


def test_welling_b5_with_corrected_factor():
    # the catalogue's x, y are unstated; any pair with xᵀy = 12.41508568781955^(1/3) − 2 has
    # the catalogue's kernel value, and the identity is checked on it
    x = np.array([0.5, 0.25, 1.0])
    y = np.array([0.2, 0.6, (12.41508568781955 ** (1 / 3) - 2 - 0.25) / 1.0])
    k = Polynomial(degree=3, gamma=1.0, coef0=2.0)(x[None], y[None])[0, 0]
    fx, fy = _welling_features(x, 3, 2.0), _welling_features(y, 3, 2.0)
    assert fx.size == 20
    assert k == pytest.approx(12.41508568781955, rel=1e-14)
    assert fx @ fy == pytest.approx(k, rel=1e-13)


def test_polynomial_expansion_b4_homogeneous_piece():
    x, y = X[0, :3], X[1, :3]
    for s in range(5):
        total = 0.0
        for idx in itertools.product(range(s + 1), repeat=3):
            if sum(idx) == s:
                multinom = math.factorial(s) / math.prod(map(math.factorial, idx))
                total += multinom * math.prod((x * y) ** np.array(idx))
        expected = Polynomial(degree=max(s, 1), gamma=1.0, coef0=0.0)(x[None], y[None])[0, 0]
        if s == 0:
            assert total == 1.0
        else:
            assert total == pytest.approx(expected, rel=1e-12)


def test_all_subsets_is_the_product_over_subset_features():
    x, y = X[2], X[3]
    feats = lambda v: np.array(  # noqa: E731
        [math.prod(v[list(A)]) for r in range(5) for A in itertools.combinations(range(4), r)]
    )
    assert feats(x).size == 16
    k = AllSubsets()(x[None], y[None])[0, 0]
    assert k == pytest.approx(np.prod(1 + x * y), rel=1e-14)
    assert feats(x) @ feats(y) == pytest.approx(k, rel=1e-12)
    np.testing.assert_allclose(AllSubsets().diag(X), np.diag(AllSubsets()(X)))


def test_spectrum_kernel_on_the_catalogue_sequences():
    s = [
        "TCGGTTTAACGGATTATGGTAC",
        "TCGGTCCAACGGATAATGGAAC",
        "TCGGCGATTTAACGGATCGATTTATGGTAC",
    ]
    np.testing.assert_array_equal(Spectrum(k=2)(s), [[47, 34, 59], [34, 43, 47], [59, 47, 87]])
    np.testing.assert_array_equal(Spectrum(k=3)(s), [[26, 16, 28], [16, 26, 18], [28, 18, 46]])
    np.testing.assert_array_equal(Spectrum(k=3).diag(s), [26, 26, 46])
    np.testing.assert_array_equal(Spectrum(k=3)(s[:1], s[1:]), [[16, 28]])
    with pytest.raises(TypeError, match="strings"):
        Spectrum()([1, 2])


# ----- algebra, Mercer, centring ------------------------------------------------------------


def test_algebra_matches_elementwise_operations():
    k1, k2 = RBF(gamma=0.5), Polynomial(degree=2)
    A, B = k1(X, Y), k2(X, Y)
    np.testing.assert_allclose((k1 + k2)(X, Y), A + B)
    np.testing.assert_allclose((k1 * k2)(X, Y), A * B)
    np.testing.assert_allclose((2.5 * k2)(X, Y), 2.5 * B)
    np.testing.assert_allclose((k2 * 2.5)(X, Y), 2.5 * B)
    np.testing.assert_allclose((Linear() + 1.0)(X, Y), X @ Y.T + 1)
    np.testing.assert_allclose(Exponential(k2)(X, Y), np.exp(B))
    dx, dy = k2.diag(X), k2.diag(Y)
    np.testing.assert_allclose(Normalized(k2)(X, Y), B / np.sqrt(np.outer(dx, dy)))
    for k in (k1 + k2, k1 * k2, 3 * k1, Normalized(k2), Exponential(k1)):
        np.testing.assert_allclose(k.diag(X), np.diag(k(X)), rtol=1e-12)
        assert k.compiled_spec() is None
        assert is_mercer(k, X)
    with pytest.raises(ValueError, match="positive"):
        (-1.0 * k1)(X)


def test_kernels_are_clonable_parameter_holders():
    k = 2.0 * RBF(gamma=0.5) + Polynomial(degree=2)
    params = k.get_params()
    assert params["k1__kernel__gamma"] == 0.5
    k2 = clone(k).set_params(k1__kernel__gamma=1.0)
    assert k.k1.kernel.gamma == 0.5
    assert k2.k1.kernel.gamma == 1.0


@pytest.mark.parametrize(
    "kernel",
    [Linear(), Polynomial(), RBF(0.7), Laplacian(0.3), Cosine(), AllSubsets(), RBF([0.1, 1, 2, 3])],
)
def test_positive_definite_kernels_pass_the_mercer_check(kernel):
    assert is_mercer(kernel, RNG.normal(size=(40, 4)))


def test_sigmoid_counterexample_eigenvalue():
    K = Sigmoid(gamma=1.0, coef0=1.0)(np.array([[1.0], [2.0]]))
    eig = np.linalg.eigvalsh(K)
    assert eig[0] == pytest.approx(-0.013248, abs=5e-7)
    assert eig[1] == pytest.approx(1.977185, abs=5e-7)
    assert not is_mercer(Sigmoid(gamma=1.0, coef0=1.0), np.array([[1.0], [2.0]]))
    assert not is_mercer("precomputed", K)


def test_centring_matches_explicitly_centred_features():
    phi = lambda A: np.column_stack([A, A**2, np.ones(len(A))])  # noqa: E731
    kern = CallableKernel(lambda A, B: phi(A) @ phi(B).T)
    F, Ft = phi(X), phi(Y)
    mean = F.mean(axis=0)
    np.testing.assert_allclose(center_kernel(kern(X)), (F - mean) @ (F - mean).T, atol=1e-10)
    centerer = KernelCenterer().fit(kern(X))
    np.testing.assert_allclose(
        centerer.transform(kern(Y, X)), (Ft - mean) @ (F - mean).T, atol=1e-10
    )


def test_resolve_kernel_strings_and_gamma():
    assert resolve_kernel("rbf", gamma="scale", X=X).gamma == pytest.approx(1 / (4 * X.var()))
    assert resolve_kernel("rbf", gamma="auto", X=X).gamma == 0.25
    assert resolve_kernel("rbf", gamma=None, X=X).gamma == 0.25
    poly = resolve_kernel("poly", gamma=2.0, degree=2, coef0=0.5, X=X)
    assert poly.compiled_spec() == ("poly", 2.0, 2, 0.5)
    sig = resolve_kernel("sigmoid", gamma=0.1, coef0=-1.0)
    assert sig.compiled_spec() == ("sigmoid", 0.1, 1, -1.0)
    assert resolve_kernel("precomputed").compiled_spec()[0] == "precomputed"
    k = RBF()
    assert resolve_kernel(k) is k
    assert resolve_kernel(lambda A, B: A @ B.T).compiled_spec() is None
    with pytest.raises(ValueError, match="Unknown kernel 'gaussian'"):
        resolve_kernel("gaussian")
    with pytest.raises(TypeError, match="kernel must be"):
        resolve_kernel(3)


def test_bad_input_is_named():
    with pytest.raises(TypeError, match="RBF kernel needs numeric X"):
        RBF()([["a", "b"]])
    with pytest.raises(ValueError, match="2-D"):
        Linear()(np.arange(3.0))
    with pytest.raises(ValueError, match="NaN"):
        Linear()([[np.nan]])
    with pytest.raises(ValueError, match="3 features and Y with 2"):
        Linear()(np.ones((2, 3)), np.ones((2, 2)))
    with pytest.raises(ValueError, match="degree"):
        Polynomial(degree=0)(X)
    with pytest.raises(ValueError, match="square"):
        Precomputed().diag(np.ones((2, 3)))
    with pytest.raises(ValueError, match="expected"):
        CallableKernel(lambda A, B: np.ones((1, 1)))(X)


def test_zupan_quadratic_maps_and_gaussian_factorisation():
    u, v = np.array([0.3, -1.1]), np.array([1.7, 0.4])
    r2 = math.sqrt(2)
    six = lambda a: np.array([1, r2 * a[0], r2 * a[1], a[0] ** 2, r2 * a[0] * a[1], a[1] ** 2])  # noqa: E731
    three = lambda a: np.array([a[0] ** 2, a[1] ** 2, r2 * a[0] * a[1]])  # noqa: E731
    inhom = Polynomial(degree=2, gamma=1.0, coef0=1.0)(u[None], v[None])[0, 0]
    hom = Polynomial(degree=2, gamma=1.0, coef0=0.0)(u[None], v[None])[0, 0]
    assert six(u) @ six(v) == pytest.approx(inhom, rel=1e-14)
    assert three(u) @ three(v) == pytest.approx(hom, rel=1e-14)
    sigma = 0.8  # exp(−‖x − x'‖²/2σ²) = exp(−xᵀx/2σ²) exp(xᵀx'/σ²) exp(−x'ᵀx'/2σ²)
    k = RBF(gamma=1 / (2 * sigma**2))(u[None], v[None])[0, 0]
    factored = math.exp(-(u @ u) / (2 * sigma**2) + (u @ v) / sigma**2 - (v @ v) / (2 * sigma**2))
    assert k == pytest.approx(factored, rel=1e-14)


def test_rescaled_kernel_and_gamma_scale_at_extreme_scales():
    from statlearning.kernels import Rescaled

    rng = np.random.default_rng(5)
    A = rng.normal(size=(6, 3))
    k = Rescaled(RBF(gamma=0.7), 2.0**-3)
    np.testing.assert_allclose(k(A), RBF(gamma=0.7 * 64)(A), rtol=1e-12)
    np.testing.assert_allclose(k.diag(A), np.ones(6))
    l1 = np.abs(A[:, None, :] - A[None, :2, :]).sum(axis=2)
    for s in (1e300, 1e-300, 2.0**-900):
        for kernel in ("rbf", "poly", "sigmoid"):  # functions of x / sd(X): scale-free
            ref = resolve_kernel(kernel, gamma="scale", X=A)
            got = resolve_kernel(kernel, gamma="scale", X=A * s)
            assert isinstance(got, Rescaled)
            np.testing.assert_allclose(got(A * s, A[:2] * s), ref(A, A[:2]), rtol=1e-9)
        # the L1 distance grows as s and γ = 1/(p·Var) as 1/s²: γ·‖x − y‖₁ = (γ₁/s)·‖·‖₁
        g = resolve_kernel("laplacian", gamma="scale", X=A).gamma
        got = resolve_kernel("laplacian", gamma="scale", X=A * s)
        np.testing.assert_allclose(got(A * s, A[:2] * s), np.exp(-(g / s) * l1), rtol=1e-9)
    assert isinstance(resolve_kernel("laplacian", gamma="scale", X=A * 1e100).kernel, Laplacian)
    assert not isinstance(resolve_kernel("rbf", gamma="scale", X=A * 1e50), Rescaled)
    assert not isinstance(resolve_kernel("rbf", gamma=1.0, X=A * 1e300), Rescaled)


@pytest.mark.parametrize("name", ["linear", "poly", "rbf", "sigmoid", "laplacian", "cosine"])
def test_gram_at_extreme_scales_is_the_nearest_float64(name):
    """Computed on X / 2^k with the parameters absorbing the factor: no NaN from inf − inf,
    and each entry the float64 value of the kernel."""
    X = np.random.default_rng(0).normal(size=(6, 3))
    Y = np.random.default_rng(1).normal(size=(4, 3))
    for f in (2.0**900, 2.0**-900):
        params = dict(kernel=name, gamma=0.3, degree=2, coef0=1.0)
        K = gram(X * f, Y * f, **params)
        assert not np.isnan(K).any()
        np.testing.assert_allclose(np.diag(gram(X * f, **params)), gram_diag(X * f, **params))
        if name == "cosine":
            np.testing.assert_allclose(K, gram(X, Y, **params), rtol=1e-14)
        elif name == "linear":  # (x/s)ᵀ(y/s)·s²: ±inf, or 0, as float64 holds xᵀy
            np.testing.assert_array_equal(K, np.sign(X @ Y.T) * (np.inf if f > 1 else 0.0))
        elif name in ("rbf", "laplacian"):
            # γ‖x − y‖² is far beyond exp's range (0) or below its resolution (1)
            np.testing.assert_array_equal(K, 0.0 if f > 1 else 1.0)
            np.testing.assert_array_equal(np.diag(gram(X * f, **params)), 1.0)
        elif name == "poly" and f < 1:
            np.testing.assert_array_equal(K, 1.0)
        elif name == "sigmoid":
            expected = np.tanh(1.0) if f < 1 else np.sign(X @ Y.T)
            np.testing.assert_allclose(K, expected, rtol=1e-15)
