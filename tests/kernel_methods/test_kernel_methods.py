"""KernelRidge, KernelLogisticRegression and PrototypeFeatures against independent fits."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pytest
from scipy import optimize, special
from sklearn.kernel_ridge import KernelRidge as SkKernelRidge
from sklearn.linear_model import LogisticRegression as SkLogisticRegression
from sklearn.pipeline import make_pipeline

from statlearning.exceptions import ConvergenceWarning, NumericalWarning
from statlearning.kernel_methods import KernelLogisticRegression, KernelRidge, PrototypeFeatures
from statlearning.kernels import RBF, Linear, Polynomial, Sigmoid, Spectrum
from statlearning.linear_model import LogisticRegression, Ridge

RNG = np.random.default_rng(7)
X = RNG.normal(size=(70, 3))
y = X @ [1.0, -2.0, 0.5] + np.sin(2 * X[:, 0]) + 0.3 * RNG.normal(size=70)
W = RNG.uniform(0.2, 2.0, size=70)
XT = RNG.normal(size=(15, 3))


# ----- kernel ridge ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kernel", "params"),
    [
        ("linear", {}),
        ("rbf", {"gamma": 0.4}),
        ("poly", {"gamma": 0.3, "degree": 3, "coef0": 1.0}),
        ("laplacian", {"gamma": 0.2}),
        ("cosine", {}),
    ],
)
@pytest.mark.parametrize("weighted", [False, True])
def test_kernel_ridge_matches_scikit_learn(kernel, params, weighted):
    w = W if weighted else None
    ours = KernelRidge(alpha=0.5, kernel=kernel, **params).fit(X, y, sample_weight=w)
    theirs = SkKernelRidge(alpha=0.5, kernel=kernel, **params).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.dual_coef_, theirs.dual_coef_, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(ours.predict(XT), theirs.predict(XT), rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_primal_equals_dual_on_the_linear_kernel(fit_intercept, weighted):
    w = W if weighted else None
    dual = KernelRidge(alpha=2.0, fit_intercept=fit_intercept).fit(X + 3.0, y, sample_weight=w)
    primal = Ridge(alpha=2.0, fit_intercept=fit_intercept).fit(X + 3.0, y, sample_weight=w)
    np.testing.assert_allclose(dual.predict(XT + 3.0), primal.predict(XT + 3.0), rtol=1e-10)
    np.testing.assert_allclose(dual.dual_coef_ @ (X + 3.0), primal.coef_, rtol=1e-9)
    assert dual.intercept_ == pytest.approx(primal.intercept_, rel=1e-9, abs=1e-12)
    if fit_intercept:
        assert abs(dual.dual_coef_.sum()) < 1e-10  # Σc = 0 with an unpenalised intercept


def test_intercept_with_a_nonlinear_kernel_is_the_centred_solution():
    """Direct minimisation of Σw(y − b − Kc)² + α cᵀKc over (b, c) gives the same fit."""
    kern = RBF(gamma=0.5)
    K = kern(X)
    model = KernelRidge(alpha=0.3, kernel=kern, fit_intercept=True).fit(X, y, sample_weight=W)
    A = np.column_stack([np.ones(70), K])
    P = np.zeros((71, 71))
    P[1:, 1:] = 0.3 * K
    lhs = A.T @ (W[:, None] * A) + P
    sol = np.linalg.lstsq(lhs, A.T @ (W * y), rcond=None)[0]
    np.testing.assert_allclose(model.predict(X), A @ sol, rtol=1e-8, atol=1e-8)


def test_notes_penalised_bias_is_kernel_plus_one():
    """The notes' constant feature: K + 1 with a penalised bias, as ridge on [1, X]."""
    model = KernelRidge(alpha=1.5, kernel=Linear() + 1.0).fit(X, y)
    Z = np.column_stack([np.ones(70), X])
    beta = np.linalg.solve(Z.T @ Z + 1.5 * np.eye(4), Z.T @ y)
    np.testing.assert_allclose(model.predict(XT), np.column_stack([np.ones(15), XT]) @ beta)


def test_multi_output_and_precomputed():
    Y = np.column_stack([y, -y, y**2])
    ours = KernelRidge(alpha=0.1, kernel="rbf", gamma=0.2, fit_intercept=True).fit(X, Y)
    assert ours.predict(XT).shape == (15, 3)
    for j in range(3):
        one = KernelRidge(alpha=0.1, kernel="rbf", gamma=0.2, fit_intercept=True).fit(X, Y[:, j])
        np.testing.assert_allclose(ours.predict(XT)[:, j], one.predict(XT), rtol=1e-12)
    K, KT = RBF(0.2)(X), RBF(0.2)(XT, X)
    pre = KernelRidge(alpha=0.1, kernel="precomputed").fit(K, y)
    direct = KernelRidge(alpha=0.1, kernel="rbf", gamma=0.2).fit(X, y)
    np.testing.assert_allclose(pre.predict(KT), direct.predict(XT), rtol=1e-12)
    with pytest.raises(ValueError, match="square training Gram"):
        KernelRidge(kernel="precomputed").fit(K[:, :10], y)
    with pytest.raises(ValueError, match="features"):  # wrong width at predict time
        pre.predict(KT[:, :10])


def test_bad_input_and_numerical_trouble():
    K = Sigmoid(gamma=1.0, coef0=1.0)(np.array([[1.0], [2.0], [3.0]]))
    with pytest.warns(NumericalWarning, match="not symmetric positive"):
        KernelRidge(alpha=1.0, kernel="precomputed").fit(K, [1.0, 2.0, 3.0])
    with pytest.warns(NumericalWarning, match="not positive definite"):
        KernelRidge(alpha=0.0, kernel=Sigmoid(gamma=2.0, coef0=1.0)).fit(X, y)
    with pytest.raises(ValueError, match="numeric for the kernel"):
        KernelRidge(kernel="rbf").fit([["a", "b"], ["c", "d"]], [1.0, 2.0])
    with pytest.raises(ValueError, match="alpha"):
        KernelRidge(alpha=-1.0).fit(X, y)
    with pytest.raises(ValueError, match="kernel"):
        KernelRidge(kernel="gaussian").fit(X, y)


# ----- kernel logistic regression -------------------------------------------------------------


def _penalised_logistic(F, codes, C, n_classes, w=None):
    """C Σ w ℓ + ½‖B‖² over explicit features F (unpenalised intercepts), by trust-exact."""
    n, p = F.shape
    w = np.ones(n) if w is None else w
    rows = 1 if n_classes == 2 else n_classes
    Y = np.eye(n_classes)[codes]

    def fun(v):
        P = v.reshape(rows, p + 1)
        eta = P[:, 0] + F @ P[:, 1:].T
        if n_classes == 2:
            e = eta[:, 0]
            loss = np.logaddexp(0, e) - codes * e
            r = special.expit(e) - codes
            R = r[:, None]
        else:
            loss = special.logsumexp(eta, axis=1) - (Y * eta).sum(axis=1)
            R = special.softmax(eta, axis=1) - Y
        G = np.column_stack([(w[:, None] * R).sum(axis=0), (w[:, None] * R).T @ F]) * C
        G[:, 1:] += P[:, 1:]
        return C * float(w @ loss) + 0.5 * float((P[:, 1:] ** 2).sum()), G.ravel()

    res = optimize.minimize(
        fun, np.zeros(rows * (p + 1)), jac=True, method="L-BFGS-B",
        options={"maxiter": 20000, "gtol": 1e-11, "ftol": 1e-15},
    )  # fmt: skip
    P = res.x.reshape(rows, p + 1)
    return lambda G: P[:, 0] + G @ P[:, 1:].T


def _quadratic_features(A, gamma, coef0):
    """Explicit map of (γ xᵀy + r)²: [r, √(2rγ) x, γ x⊗x]."""
    outer = np.einsum("ij,ik->ijk", A, A).reshape(len(A), -1)
    return np.column_stack([np.full(len(A), coef0), np.sqrt(2 * coef0 * gamma) * A, gamma * outer])


@pytest.mark.parametrize("n_classes", [2, 3])
def test_kernel_logistic_equals_explicit_feature_map_fit(n_classes):
    codes = np.digitize(X[:, 0] + 0.8 * X[:, 1] ** 2 + 0.5 * RNG.normal(size=70),
                        np.quantile(X[:, 0], np.linspace(0, 1, n_classes + 1)[1:-1]))  # fmt: skip
    labels = np.array(["a", "b", "c"])[codes]
    ours = KernelLogisticRegression(C=2.0, kernel="poly", gamma=0.5, degree=2, coef0=1.0, tol=1e-13)
    ours.fit(X, labels, sample_weight=W)
    ref = _penalised_logistic(_quadratic_features(X, 0.5, 1.0), codes, 2.0, n_classes, W)
    expected = ref(_quadratic_features(XT, 0.5, 1.0))
    got = ours.decision_function(XT)
    if n_classes == 2:
        np.testing.assert_allclose(got, expected[:, 0], atol=2e-6)
    else:  # softmax scores are defined up to a common shift
        np.testing.assert_allclose(
            got - got.mean(axis=1, keepdims=True),
            expected - expected.mean(axis=1, keepdims=True),
            atol=2e-6,
        )
    assert list(ours.classes_) == ["a", "b", "c"][:n_classes]
    np.testing.assert_allclose(ours.predict_proba(XT).sum(axis=1), 1.0)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_linear_kernel_is_scikit_learns_l2_logistic(n_classes):
    codes = np.digitize(X[:, 0] - X[:, 2], [-0.5, 0.5][: n_classes - 1])
    ours = KernelLogisticRegression(C=0.7, kernel="linear", tol=1e-13).fit(X, codes)
    theirs = SkLogisticRegression(C=0.7, tol=1e-12, max_iter=100000).fit(X, codes)
    np.testing.assert_allclose(ours.predict_proba(XT), theirs.predict_proba(XT), atol=1e-6)


def test_kernel_logistic_precomputed_and_rbf_agree():
    codes = (X[:, 0] * X[:, 1] > 0).astype(int)
    direct = KernelLogisticRegression(C=5.0, kernel="rbf", gamma=0.7).fit(X, codes)
    pre = KernelLogisticRegression(C=5.0, kernel="precomputed").fit(RBF(0.7)(X), codes)
    np.testing.assert_allclose(
        pre.decision_function(RBF(0.7)(XT, X)), direct.decision_function(XT), atol=1e-10
    )
    assert direct.score(X, codes) > 0.9
    with pytest.raises(ValueError, match="C"):
        KernelLogisticRegression(C=0.0).fit(X, codes)
    with pytest.raises(ValueError, match="class"):
        KernelLogisticRegression().fit(X, np.zeros(70))


# ----- prototype features ---------------------------------------------------------------------


def test_xor_reaches_100_percent():
    rng = np.random.default_rng(0)
    corners = np.array(list(itertools.product([0.0, 1.0], repeat=2)))
    Xx = np.repeat(corners, 25, axis=0) + 0.1 * rng.normal(size=(100, 2))
    yx = np.logical_xor(Xx[:, 0] > 0.5, Xx[:, 1] > 0.5).astype(int)
    linear = LogisticRegression(penalty="l1", C=10.0, solver="cd").fit(Xx, yx)
    assert linear.score(Xx, yx) < 0.8  # no linear separation of XOR
    model = make_pipeline(
        PrototypeFeatures(kernel="rbf", gamma=2.0),
        LogisticRegression(penalty="l1", C=1.0, solver="cd"),
    )
    with warnings.catch_warnings():
        # the L1 logistic fit reports its inner coordinate-descent cap on these separable
        # features although its outer iterations stop after 5; the fit itself is checked below
        warnings.simplefilter("ignore", ConvergenceWarning)
        model.fit(Xx, yx)
    assert model.score(Xx, yx) == 1.0
    coef = model[-1].coef_
    assert np.count_nonzero(coef) < 100  # the L1 model keeps few prototypes
    Xnew = corners + 0.05
    np.testing.assert_array_equal(model.predict(Xnew), [0, 1, 1, 0])


def test_prototype_subset_and_precomputed():
    feats = PrototypeFeatures(kernel=Polynomial(degree=2), prototypes=10, random_state=0).fit(X)
    assert feats.prototypes_.shape == (10, 3)
    np.testing.assert_allclose(
        feats.transform(XT), Polynomial(degree=2)(XT, X[feats.prototype_indices_])
    )
    pre = PrototypeFeatures(kernel="precomputed", prototypes=10, random_state=0).fit(RBF()(X))
    np.testing.assert_allclose(pre.transform(RBF()(XT, X)), RBF()(XT, X[pre.prototype_indices_]))
    with pytest.raises(ValueError, match="n_samples = 70"):
        PrototypeFeatures(prototypes=71).fit(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        PrototypeFeatures(kernel=Sigmoid()).fit(X).transform(XT)  # any kernel is a feature map
    assert math.isfinite(float(feats.transform(XT).sum()))


def test_string_kernel_through_a_precomputed_gram():
    seqs = ["TCGGTTTAACGGATTATGGTAC", "TCGGTCCAACGGATAATGGAAC", "TCGGCGATTTAACGGATCGATTTATGGTAC"]
    kern = Spectrum(k=3)
    model = KernelRidge(alpha=1.0, kernel="precomputed").fit(kern(seqs), [1.0, 0.0, 1.0])
    K = kern(seqs)
    np.testing.assert_allclose(model.dual_coef_, np.linalg.solve(K + np.eye(3), [1.0, 0.0, 1.0]))
    np.testing.assert_allclose(model.predict(kern(seqs[:1], seqs)), K[:1] @ model.dual_coef_)
    # the strings straight into the kernel object: the same fit
    direct = KernelRidge(alpha=1.0, kernel=kern).fit(seqs, [1.0, 0.0, 1.0])
    np.testing.assert_allclose(direct.dual_coef_, model.dual_coef_, rtol=1e-12)
    np.testing.assert_allclose(direct.predict(seqs[:1]), model.predict(kern(seqs[:1], seqs)))
    with pytest.raises(ValueError, match="must be numeric for the kernel 'rbf'"):
        KernelRidge(kernel="rbf").fit(np.array(seqs)[:, None], [1.0, 0.0, 1.0])


def test_string_kernel_objects_take_strings_as_the_explicit_kmer_map():
    """KernelLogisticRegression and PrototypeFeatures with Spectrum(2) on strings equal the
    linear kernel on the 2-mer counts."""
    from itertools import product

    rng = np.random.default_rng(5)
    seqs = ["".join(rng.choice(list("ACGT"), rng.integers(8, 20))) for _ in range(40)]
    y = np.array([int(s.count("G") + s.count("C") > len(s) / 2) for s in seqs])
    kmers = {"".join(t): j for j, t in enumerate(product("ACGT", repeat=2))}
    phi = np.zeros((len(seqs), len(kmers)))
    for i, s in enumerate(seqs):
        for j in range(len(s) - 1):
            phi[i, kmers[s[j : j + 2]]] += 1
    ours = KernelLogisticRegression(kernel=Spectrum(2), C=0.1).fit(seqs, y)
    ref = KernelLogisticRegression(kernel="linear", C=0.1).fit(phi, y)
    np.testing.assert_allclose(ours.predict_proba(seqs), ref.predict_proba(phi), atol=1e-8)
    feats = PrototypeFeatures(kernel=Spectrum(2), prototypes=6, random_state=0).fit(seqs)
    idx = feats.prototype_indices_
    np.testing.assert_allclose(feats.transform(seqs), phi @ phi[idx].T)


def test_prototype_gamma_scale_uses_every_training_row():
    """gamma='scale' is 1 / (n_features · Var(X)) over all of X (it once used the first row)."""
    Xw = X * np.array([1.0, 5.0, 10.0])
    feats = PrototypeFeatures(prototypes=5, random_state=0).fit(Xw)
    assert feats.kernel_.gamma == pytest.approx(1.0 / (3 * Xw.var()), rel=1e-12)
    np.testing.assert_allclose(
        feats.transform(XT), RBF(gamma=1.0 / (3 * Xw.var()))(XT, Xw[feats.prototype_indices_])
    )


@pytest.mark.parametrize("s", [1e300, 1e-300])
@pytest.mark.parametrize(
    "make",
    [
        lambda: KernelRidge(kernel="rbf", gamma="scale", alpha=0.1),
        lambda: KernelLogisticRegression(gamma="scale"),
        lambda: PrototypeFeatures(kernel="poly", gamma="scale", degree=2),
    ],
)
def test_gamma_scale_at_extreme_scales_is_the_unscaled_fit(make, s):
    """With gamma='scale' the kernels are functions of x / sd(X): the fit on X·s is the fit on
    X, exactly (the kernel is resolved on X divided by a power of two)."""
    target = (y > 0).astype(int) if "Logistic" in repr(make()) else y
    ref = make().fit(X, target)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = make().fit(X * s, target)
    out = "transform" if hasattr(est, "transform") else "decision_function"
    out = out if hasattr(est, out) else "predict"
    np.testing.assert_allclose(getattr(est, out)(XT * s), getattr(ref, out)(XT), rtol=1e-9)


def test_non_finite_gram():
    """A Gram matrix that overflows names the data's scale when that is the cause, and the
    kernel otherwise."""
    with pytest.warns(NumericalWarning, match=r"largest \|X\|.*data's scale"):
        KernelRidge(kernel="linear").fit(X * 1e300, y)
    with pytest.raises(ValueError, match=r"Gram matrix of the kernel Polynomial.*non-finite"):
        KernelRidge(kernel=Polynomial(degree=200, gamma=10.0)).fit(X, y)


def test_kernel_logistic_c_whose_penalty_overflows_is_refused():
    """C = 5e-324 made 1/C infinite and IRLS failed with LinAlgError (found by fuzzing)."""
    with pytest.raises(ValueError, match=r"C=5e-324 is too small"):
        KernelLogisticRegression(C=5e-324).fit(X[:4], [0, 2, 1, 2])


def test_precomputed_gram_check_is_cheap_and_catches_clear_indefiniteness():
    """Above 500 rows the precomputed Gram's PSD check is O(n²) (symmetry, diagonal and a
    LOBPCG Ritz value, an upper bound of the smallest eigenvalue): a PSD Gram passes in
    silence, one with a clearly negative eigenvalue warns."""
    rng = np.random.default_rng(11)
    Z = rng.normal(size=(900, 4))
    t = Z[:, 0] + 0.1 * rng.normal(size=900)
    K = RBF(0.5)(Z)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumericalWarning)
        KernelRidge(alpha=0.1, kernel="precomputed").fit(K, t)
    v = rng.normal(size=900)
    v /= np.linalg.norm(v)
    top = np.linalg.eigvalsh(K)[-1]
    indefinite = K - 0.02 * top * np.outer(v, v)
    assert np.linalg.eigvalsh(indefinite)[0] < -1e-3 * top
    with pytest.warns(NumericalWarning, match="not symmetric positive semi-definite"):
        KernelRidge(alpha=0.1, kernel="precomputed").fit(indefinite, t)
    S = Sigmoid(gamma=0.5, coef0=1.0)(Z)
    with pytest.warns(NumericalWarning, match="not symmetric positive semi-definite"):
        KernelRidge(alpha=0.1, kernel="precomputed").fit(S, t)
