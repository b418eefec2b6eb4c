"""KernelPCA: kernlab's kpca and scikit-learn's KernelPCA on fixed data, the linear-kernel
identity with PCA, centring against explicit feature maps, and bad input."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.decomposition import KernelPCA as SkKernelPCA

from statlearning.decomposition import PCA, KernelPCA, retained_components
from statlearning.exceptions import NumericalWarning
from statlearning.kernels import RBF, pairwise_kernel

REF = Path(__file__).resolve().parents[1] / "reference" / "kernel_decomposition"
DATA = np.loadtxt(REF / "iris_kpca.csv", delimiter=",", skiprows=1)
KPCA_REF = json.loads((REF / "kpca_reference.json").read_text())
TEST_ROWS = np.array(KPCA_REF["test_rows"])
TRAIN_ROWS = np.setdiff1d(np.arange(DATA.shape[0]), TEST_ROWS)
XTR, XTE = DATA[TRAIN_ROWS], DATA[TEST_ROWS]

# kernlab's kernels as ours: rbfdot(sigma) = RBF(gamma=sigma), polydot(degree, scale, offset)
KERNELS = {
    "rbf": {"kernel": "rbf", "gamma": 0.2},
    "poly": {"kernel": "poly", "degree": 2, "gamma": 0.5, "coef0": 1.0},
    "linear": {"kernel": "linear"},
}


def _match_signs(A, B):
    """``A`` with each column's sign chosen to agree with ``B``."""
    return A * np.sign(np.sum(A * B, axis=0))


@pytest.mark.parametrize("solver", ["dense", "arpack", "randomized"])
@pytest.mark.parametrize("name", list(KERNELS))
def test_matches_kernlab_kpca(name, solver):
    ref = KPCA_REF["kpca"][name]
    k = ref["features"]
    model = KernelPCA(k, eigen_solver=solver, random_state=0, **KERNELS[name]).fit(XTR)
    root_n = np.sqrt(XTR.shape[0])
    # kernlab's eig = λ/N (the eigenvalues of K^c / N): our explained_variance_
    eig = np.array(ref["eig"])
    np.testing.assert_allclose(model.explained_variance_, eig, rtol=1e-8, atol=0)
    # rotated = K^c pcv = √N × our scores; pcv = √N × dual_coef_
    rotated = np.array(ref["rotated"])
    scores = _match_signs(model.fit_transform(XTR) * root_n, rotated)
    atol = 1e-8 * np.abs(rotated).max()
    np.testing.assert_allclose(scores, rotated, rtol=0, atol=atol)
    np.testing.assert_allclose(
        _match_signs(model.transform(XTR) * root_n, rotated), rotated, rtol=0, atol=atol
    )
    pcv = np.array(ref["pcv"])
    np.testing.assert_allclose(
        _match_signs(model.dual_coef_ * root_n, pcv), pcv, rtol=0, atol=1e-8 * np.abs(pcv).max()
    )
    # predict(fit, newdata): the test points centred with the training statistics
    predicted = np.array(ref["predict"])
    ours = model.transform(XTE) * root_n * np.sign(np.sum(model.transform(XTR) * rotated, axis=0))
    np.testing.assert_allclose(ours, predicted, rtol=0, atol=1e-8 * np.abs(predicted).max())


@pytest.mark.parametrize("name", list(KERNELS))
def test_matches_scikit_learn(name):
    params = KERNELS[name]
    k = KPCA_REF["kpca"][name]["features"]
    ours = KernelPCA(k, **params).fit(XTR)
    theirs = SkKernelPCA(k, eigen_solver="dense", **params).fit(XTR)
    scale = theirs.eigenvalues_[0]
    np.testing.assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=0, atol=1e-10 * scale)
    z_theirs = theirs.transform(XTE)
    z_ours = _match_signs(ours.transform(XTE), z_theirs)
    np.testing.assert_allclose(z_ours, z_theirs, rtol=0, atol=1e-9 * np.abs(z_theirs).max())
    vecs = _match_signs(ours.eigenvectors_, theirs.eigenvectors_)
    np.testing.assert_allclose(vecs, theirs.eigenvectors_, rtol=0, atol=1e-9)


def test_inverse_transform_matches_scikit_learn():
    ours = KernelPCA(3, kernel="rbf", gamma=0.2, fit_inverse_transform=True, alpha=0.1).fit(XTR)
    theirs = SkKernelPCA(
        3, kernel="rbf", gamma=0.2, fit_inverse_transform=True, alpha=0.1, eigen_solver="dense"
    ).fit(XTR)
    signs = np.sign(np.sum(ours.transform(XTE) * theirs.transform(XTE), axis=0))
    Z = theirs.transform(XTE)
    np.testing.assert_allclose(
        ours.inverse_transform(Z * signs), theirs.inverse_transform(Z), rtol=1e-8, atol=1e-10
    )
    # the pre-images are close to the points for a good fit
    rec = ours.inverse_transform(ours.transform(XTE))
    assert np.abs(rec - XTE).mean() < 0.5


def test_linear_kernel_equals_pca():
    pca = PCA().fit(XTR)
    kpca = KernelPCA().fit(XTR)  # every positive eigenvalue: rank 4
    assert kpca.n_components_ == 4
    n = XTR.shape[0]
    np.testing.assert_allclose(
        kpca.explained_variance_, pca.explained_variance_ * (n - 1) / n, rtol=1e-10
    )
    for X in (XTR, XTE):
        z_pca = pca.transform(X)
        np.testing.assert_allclose(
            _match_signs(kpca.transform(X), z_pca), z_pca, rtol=0, atol=1e-10
        )


def test_zero_eigenvalues_are_dropped():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 2)) @ rng.normal(size=(2, 5))  # rank 2
    assert KernelPCA().fit(X).n_components_ == 2
    assert KernelPCA(kernel="rbf").fit(X).n_components_ == 29  # centring removes one


def _poly2_features(X):
    """Explicit feature map of (xᵀy + 1)²: 1, √2 xᵢ, xᵢ², √2 xᵢxⱼ (i < j)."""
    n, p = X.shape
    cols = [np.ones(n)]
    cols += [np.sqrt(2) * X[:, i] for i in range(p)]
    cols += [X[:, i] ** 2 for i in range(p)]
    cols += [np.sqrt(2) * X[:, i] * X[:, j] for i in range(p) for j in range(i + 1, p)]
    return np.column_stack(cols)


def test_test_centring_equals_explicit_features():
    """Seed 002 (12.17–12.18): the centred test kernel is the centred feature vectors' Gram,
    so projections equal PCA's on the explicit degree-2 features."""
    k = 6
    kpca = KernelPCA(k, kernel="poly", degree=2, gamma=1.0, coef0=1.0).fit(XTR)
    Ftr, Fte = _poly2_features(XTR), _poly2_features(XTE)
    pca = PCA(k, svd_solver="full").fit(Ftr)
    z_pca = pca.transform(Fte)
    z = _match_signs(kpca.transform(XTE), z_pca)
    np.testing.assert_allclose(z, z_pca, rtol=0, atol=1e-8 * np.abs(z_pca).max())
    # the centred test Gram itself
    C = Fte - Ftr.mean(axis=0)
    Kc_explicit = C @ (Ftr - Ftr.mean(axis=0)).T
    K = pairwise_kernel(XTE, XTR, kernel="poly", degree=2, gamma=1.0, coef0=1.0)
    Ktr = pairwise_kernel(XTR, kernel="poly", degree=2, gamma=1.0, coef0=1.0)
    Kc = K - K.mean(axis=1, keepdims=True) - Ktr.mean(axis=0) + Ktr.mean()
    np.testing.assert_allclose(Kc, Kc_explicit, rtol=0, atol=1e-10 * np.abs(Kc).max())


def test_solvers_agree_and_precomputed_kernel():
    ref = KernelPCA(5, kernel="rbf", gamma=0.3, eigen_solver="dense").fit(XTR)
    for solver in ("arpack", "randomized"):
        other = KernelPCA(5, kernel="rbf", gamma=0.3, eigen_solver=solver, random_state=1)
        other.fit(XTR)
        np.testing.assert_allclose(other.eigenvalues_, ref.eigenvalues_, rtol=1e-9)
        np.testing.assert_allclose(other.transform(XTE), ref.transform(XTE), atol=1e-8)
    pre = KernelPCA(5, kernel="precomputed").fit(RBF(0.3)(XTR))
    np.testing.assert_allclose(
        pre.transform(RBF(0.3)(XTE, XTR)), ref.transform(XTE), rtol=0, atol=1e-10
    )


@pytest.mark.parametrize("rule", ["cumulative:0.9", "kaiser", "elbow", 0.9])
def test_retention_rules(rule):
    full = KernelPCA(kernel="rbf", gamma=0.2).fit(XTR)
    model = KernelPCA(rule, kernel="rbf", gamma=0.2).fit(XTR)
    if isinstance(rule, str):
        expected = retained_components(full.eigenvalues_, rule)
    else:
        expected = int(
            np.searchsorted(np.cumsum(full.eigenvalues_) / full.eigenvalues_.sum(), 0.9) + 1
        )
    assert model.n_components_ == expected
    np.testing.assert_allclose(model.eigenvalues_, full.eigenvalues_[:expected])


def test_n_components_larger_than_rank_is_an_error():
    with pytest.raises(ValueError, match=r"n_components=5 is larger than the rank .* \(4 positive"):
        KernelPCA(5).fit(XTR)
    with pytest.raises(ValueError, match=r"n_components=200 must be between 1 and n_samples"):
        KernelPCA(200, kernel="rbf").fit(XTR)
    with pytest.raises(ValueError, match="needs an integer n_components"):
        KernelPCA("kaiser", eigen_solver="arpack").fit(XTR)
    with pytest.raises(ValueError, match="precomputed"):
        KernelPCA(kernel="precomputed", fit_inverse_transform=True).fit(RBF(0.3)(XTR))
    with pytest.raises(ValueError, match="fit_inverse_transform=True"):
        KernelPCA(2).fit(XTR).inverse_transform(np.zeros((1, 2)))


@pytest.mark.parametrize("n_components", [None, 2])
def test_indefinite_kernel_warns(n_components):
    X = np.linspace(-2, 2, 40).reshape(-1, 1)
    with pytest.warns(NumericalWarning, match="not positive semi-definite"):
        model = KernelPCA(n_components, kernel="sigmoid", gamma=2.0, coef0=-1.0).fit(X)
    assert np.all(model.eigenvalues_ > 0)


def test_psd_kernels_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumericalWarning)
        KernelPCA(3, kernel="rbf").fit(XTR)
        KernelPCA(kernel="poly", degree=3).fit(XTR)


@pytest.mark.parametrize("kernel", ["linear", "cosine"])
@pytest.mark.parametrize("factor", [1e300, 1e-300, 1e100])
def test_homogeneous_kernels_at_extreme_scales_are_fitted_on_rescaled_data(kernel, factor):
    """Linear (degree 2 in X) and cosine (degree 0) kernels: the fit on X / 2^k mapped back;
    scores exact, eigenvalues whose square float64 cannot hold named in a warning."""
    X = DATA[:60, :4] - DATA[:60, :4].mean(axis=0)
    T = DATA[60:70, :4]
    ref = KernelPCA(3, kernel=kernel).fit(X)
    unit = factor if kernel == "linear" else 1.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model = KernelPCA(3, kernel=kernel)
        Z = model.fit_transform(X * factor)
    np.testing.assert_allclose(Z / unit, ref.transform(X), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(model.transform(T * factor) / unit, ref.transform(T), atol=1e-12)
    np.testing.assert_allclose(model.dual_coef_ * unit, ref.dual_coef_, rtol=1e-10)
    np.testing.assert_allclose(model.explained_variance_ratio_, ref.explained_variance_ratio_)
    overflow = kernel == "linear" and factor != 1e100
    messages = [str(w.message) for w in caught if issubclass(w.category, NumericalWarning)]
    assert bool(messages) == overflow
    if overflow:
        assert "eigenvalues_" in messages[0] and "data scale" in messages[0]
        assert np.all(model.eigenvalues_ == (np.inf if factor > 1 else 0.0))
    else:
        np.testing.assert_allclose(model.eigenvalues_ / unit / unit, ref.eigenvalues_)
