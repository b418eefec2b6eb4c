"""KernelFisherDiscriminant: the linear-kernel identity with LDA (MASS's scalings), the notes'
scatter matrices and generalised eigenproblem (seed 002 (13.11–13.21)), priors, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import linalg
from sklearn.datasets import load_iris

from statlearning.discriminant_analysis import (
    KernelFisherDiscriminant,
    LinearDiscriminantAnalysis,
)
from statlearning.kernels import RBF

X_IRIS, Y_IRIS = load_iris(return_X_y=True)
t = np.linspace(0, 2 * np.pi, 60, endpoint=False)
RINGS = np.r_[np.c_[np.cos(t), np.sin(t)], 3 * np.c_[np.cos(t), np.sin(t)]]
RINGS = RINGS + np.random.default_rng(0).normal(scale=0.15, size=RINGS.shape)
Y_RINGS = np.repeat(["inner", "outer"], 60)


def _match_signs(A, B):
    return A * np.sign(np.sum(A * B, axis=0))


def test_linear_kernel_spans_lda_space():
    lda = LinearDiscriminantAnalysis().fit(X_IRIS, Y_IRIS)
    kfd = KernelFisherDiscriminant("linear", reg=1e-6).fit(X_IRIS, Y_IRIS)
    # the primal directions w = Σ αᵢ xᵢ are MASS's scalings (unit within-class variance)
    W = X_IRIS.T @ kfd.dual_coef_
    np.testing.assert_allclose(_match_signs(W, lda.scalings_), lda.scalings_, rtol=0, atol=1e-6)
    np.testing.assert_allclose(kfd.singular_values_, lda.svd_, rtol=1e-7)
    np.testing.assert_allclose(kfd.explained_variance_ratio_, lda.explained_variance_ratio_)
    z_lda = lda.transform(X_IRIS)
    np.testing.assert_allclose(_match_signs(kfd.transform(X_IRIS), z_lda), z_lda, rtol=0, atol=1e-6)
    # the Gaussian classifier on the projections is LDA's
    np.testing.assert_allclose(kfd.predict_proba(X_IRIS), lda.predict_proba(X_IRIS), atol=1e-6)
    np.testing.assert_array_equal(kfd.predict(X_IRIS), lda.predict(X_IRIS))


def test_directions_solve_the_notes_generalised_eigenproblem():
    """S_B α = λ (S_W + βI) α with the kernel scatters written as (13.16–13.19)."""
    X, y = X_IRIS[::3], Y_IRIS[::3]
    beta = 0.05
    kfd = KernelFisherDiscriminant("rbf", gamma=0.3, reg=beta).fit(X, y)
    K = RBF(0.3)(X)
    n = K.shape[0]
    kappa = K.mean(axis=0)
    S_B = np.zeros((n, n))
    S_W = K @ K
    for c in np.unique(y):
        Nc = np.sum(y == c)
        kc = K[y == c].mean(axis=0)
        S_B += Nc * (np.outer(kc, kc) - np.outer(kappa, kappa))
        S_W -= Nc * np.outer(kc, kc)
    lam, V = linalg.eigh(S_B, S_W + beta * np.eye(n))
    V = V[:, ::-1][:, :2]
    lam = lam[::-1][:2]
    alpha = kfd.dual_coef_
    for j in range(2):
        v = V[:, j] / np.linalg.norm(V[:, j])
        a = alpha[:, j] / np.linalg.norm(alpha[:, j])
        assert abs(abs(v @ a) - 1) < 1e-8
        J = (alpha[:, j] @ S_B @ alpha[:, j]) / (
            alpha[:, j] @ (S_W + beta * np.eye(n)) @ alpha[:, j]
        )
        np.testing.assert_allclose(J, lam[j], rtol=1e-8)
    # normalisation: αᵀ(S_W + βI)α / (n − K) = I
    np.testing.assert_allclose(
        alpha.T @ (S_W + beta * np.eye(n)) @ alpha / (n - 3), np.eye(2), atol=1e-8
    )


def test_rbf_kernel_separates_rings_where_lda_cannot():
    kfd = KernelFisherDiscriminant("rbf", gamma=1.0, reg=1e-2).fit(RINGS, Y_RINGS)
    rng = np.random.default_rng(5)
    angle = rng.uniform(0, 2 * np.pi, 100)
    radius = np.repeat([1.0, 3.0], 50)
    X_new = radius[:, None] * np.c_[np.cos(angle), np.sin(angle)]
    y_new = np.repeat(["inner", "outer"], 50)
    assert np.mean(kfd.predict(X_new) == y_new) == 1.0
    lda = LinearDiscriminantAnalysis().fit(RINGS, Y_RINGS)
    assert np.mean(lda.predict(X_new) == y_new) < 0.75
    proba = kfd.predict_proba(X_new)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(kfd.classes_[np.argmax(proba, axis=1)], kfd.predict(X_new))


def test_priors_shift_the_log_odds_by_their_ratio():
    base = KernelFisherDiscriminant("rbf", gamma=0.5).fit(RINGS, Y_RINGS)
    skew = KernelFisherDiscriminant("rbf", gamma=0.5, priors=[0.8, 0.2]).fit(RINGS, Y_RINGS)
    probe = np.array([[0.0, 2.0], [1.8, 0.4], [0.5, 0.5]])
    odds = lambda p: p[:, 1] - p[:, 0]  # noqa: E731
    # two classes: one direction whatever the weights, so only the prior term moves
    np.testing.assert_allclose(
        odds(skew.predict_log_proba(probe)) - odds(base.predict_log_proba(probe)),
        np.log(0.2 / 0.8) - np.log(0.5 / 0.5),
        atol=1e-8,
    )
    np.testing.assert_allclose(skew.priors_, [0.8, 0.2])


def test_precomputed_kernel_and_n_components():
    ref = KernelFisherDiscriminant("rbf", gamma=0.2).fit(X_IRIS, Y_IRIS)
    pre = KernelFisherDiscriminant("precomputed").fit(RBF(0.2)(X_IRIS), Y_IRIS)
    X_new = X_IRIS[::7] + 0.1
    np.testing.assert_allclose(
        pre.transform(RBF(0.2)(X_new, X_IRIS)), ref.transform(X_new), rtol=0, atol=1e-8
    )
    one = KernelFisherDiscriminant("rbf", gamma=0.2, n_components=1).fit(X_IRIS, Y_IRIS)
    assert one.transform(X_new).shape == (X_new.shape[0], 1)
    np.testing.assert_allclose(
        np.abs(one.transform(X_new)[:, 0]), np.abs(ref.transform(X_new)[:, 0]), atol=1e-8
    )
    assert list(one.get_feature_names_out()) == ["kernelfisherdiscriminant0"]


def test_training_projections_collapse_on_their_class_means():
    """A full-rank Gram lets α put every training point on its class mean (S_W^Φ singular
    there): the within-class variance lives in the β term only (the notes' overfitting)."""
    s = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    X = np.r_[np.c_[np.cos(s), np.sin(s)], 3 * np.c_[np.cos(s), np.sin(s)]]
    y = np.repeat([0, 1], 40)
    kfd = KernelFisherDiscriminant("rbf", gamma=1.0, reg=0.1).fit(X, y)
    z = kfd.transform(X)[:, 0]
    for c, m in zip(kfd.classes_, kfd.means_[:, 0], strict=True):
        np.testing.assert_allclose(z[y == c], m, atol=1e-8 * abs(m))


def test_bad_input():
    with pytest.raises(ValueError, match="n_components=3 cannot exceed n_classes - 1 = 2"):
        KernelFisherDiscriminant(n_components=3).fit(X_IRIS, Y_IRIS)
    with pytest.raises(ValueError, match=r"S_W \+ reg·I is numerically singular .* use reg > 0"):
        KernelFisherDiscriminant("rbf", gamma=1.0, reg=0.0).fit(X_IRIS, Y_IRIS)
    with pytest.raises(ValueError, match="1 class"):
        KernelFisherDiscriminant().fit(X_IRIS[:10], Y_IRIS[:10])


def test_default_gamma_scale_does_not_depend_on_the_units_of_x():
    """gamma="scale" (the default) resolves γ on X / 2^k at extreme scales (kernels.Rescaled),
    so the fit at X × 1e±300 is the fit at X."""
    ref = KernelFisherDiscriminant().fit(X_IRIS, Y_IRIS)
    assert ref.kernel_.gamma == pytest.approx(1.0 / (4 * X_IRIS.var()))
    for factor in (1e300, 1e-300):
        model = KernelFisherDiscriminant().fit(X_IRIS * factor, Y_IRIS)
        np.testing.assert_array_equal(model.predict(X_IRIS * factor), ref.predict(X_IRIS))
        np.testing.assert_allclose(
            model.transform(X_IRIS[::9] * factor), ref.transform(X_IRIS[::9]), atol=1e-8
        )
