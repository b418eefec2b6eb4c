"""SVC, NuSVC and SVR: the notes' worked example, ν's bounds, the squared-slack SVR, the
one-vs-one layout, probabilities, bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import svm as sk
from sklearn.datasets import make_blobs, make_classification
from svm_checks import assert_classifier_kkt

from statlearning.exceptions import ConvergenceWarning, NumericalWarning
from statlearning.kernels import RBF, Linear, Spectrum, pairwise_kernel
from statlearning.svm import SVC, SVR, NuSVC

# Seed 003, Vandin Exercise 4: eight points in the plane and their optimal duals
EX4_X = np.array([[0.2, -1.4], [-2.1, 1.7], [0.9, 1.0], [-1.0, -3.1], [-0.2, -1.0],
                  [-0.2, 1.3], [2.0, -1.0], [0.5, 2.1]])  # fmt: skip
EX4_Y = np.array([-1, 1, 1, -1, -1, 1, -1, 1])
EX4_ALPHA = np.array([0, 0, 0.5, 0, 0.25, 0, 0.25, 0])


def test_seed003_exercise4_hard_margin():
    """α = (0.5, 0.25, 0.25) on x3, x5, x7; w = (0, 1); b = 0; margin 1/‖w‖ = 1."""
    svc = SVC(kernel="linear", C=np.inf, tol=1e-10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        svc.fit(EX4_X, EX4_Y)
    alpha = np.zeros(8)
    alpha[svc.support_] = np.abs(svc.dual_coef_[0])
    np.testing.assert_allclose(alpha, EX4_ALPHA, atol=1e-12)
    assert sorted(svc.support_ + 1) == [3, 5, 7]
    np.testing.assert_allclose(svc.coef_, [[0.0, 1.0]], atol=1e-12)
    np.testing.assert_allclose(svc.intercept_, [0.0], atol=1e-12)
    assert 1.0 / np.linalg.norm(svc.coef_) == pytest.approx(1.0, abs=1e-12)
    # functional margins y_i f(x_i) = (1.4, 1.7, 1, 3.1, 1, 1.3, 1, 2.1)
    np.testing.assert_allclose(EX4_Y * svc.decision_function(EX4_X),
                               [1.4, 1.7, 1, 3.1, 1, 1.3, 1, 2.1], atol=1e-12)  # fmt: skip
    # the notes' f(x) = wᵀx − b: b_notes = −intercept_ (= 0 here), classes_[1] = +1
    assert svc.classes_.tolist() == [-1, 1]


def test_seed003_exercise4_moved_points_two_support_vectors():
    """Part (B): x7 → (0.9, −1) and x5 → (−0.2, −1.5) give the same plane with two SVs."""
    X = EX4_X.copy()
    X[6] = [0.9, -1.0]
    X[4] = [-0.2, -1.5]
    svc = SVC(kernel="linear", C=np.inf, tol=1e-10).fit(X, EX4_Y)
    assert sorted(svc.support_ + 1) == [3, 7]
    np.testing.assert_allclose(np.abs(svc.dual_coef_[0]), [0.5, 0.5], atol=1e-12)
    np.testing.assert_allclose(svc.coef_, [[0.0, 1.0]], atol=1e-12)


def test_hard_margin_not_separable_warns():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 1, 0, 1])
    with pytest.warns(NumericalWarning, match="not separable"):
        SVC(kernel="linear", C=np.inf).fit(X, y)


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly"])
def test_kkt_at_every_solution(kernel):
    X, y = make_classification(80, 4, random_state=1)
    svc = SVC(kernel=kernel, C=0.7, gamma=0.3, coef0=1.0, tol=1e-6).fit(X, y)
    K = pairwise_kernel(X, kernel=kernel, gamma=0.3, degree=3, coef0=1.0)
    beta = np.zeros(80)
    beta[svc.support_] = -svc.dual_coef_[0]  # libsvm's sign: classes_[0] is +1
    y_pm = np.where(y == 0, 1.0, -1.0)
    assert_classifier_kkt(K, y_pm, beta, -svc.intercept_[0], np.full(80, 0.7), 1e-5)


def test_nu_bounds_fractions_of_errors_and_support_vectors():
    """ν ≥ fraction of margin errors and ν ≤ fraction of support vectors (Schölkopf et al.)."""
    X, y = make_classification(200, 5, flip_y=0.1, random_state=0)
    for nu in (0.1, 0.3, 0.6):
        clf = NuSVC(nu=nu, tol=1e-8).fit(X, y)
        margin = np.where(y == clf.classes_[1], 1, -1) * clf.decision_function(X)
        errors = np.mean(margin < 1 - 1e-6)
        assert errors <= nu + 1e-9
        assert clf.support_.size / X.shape[0] >= nu - 1e-9


def test_nu_equals_c_svm_with_c_one_over_r():
    """The ν-SVM solution is the C-SVM with C = 1/r (Chang & Lin 2001): bounded multipliers
    of the stored (C-scaled) coefficients are exactly 1/r."""
    X, y = make_classification(150, 4, flip_y=0.1, random_state=3)
    nu = NuSVC(nu=0.35, tol=1e-10).fit(X, y)
    C = np.abs(nu.dual_coef_).max()
    svc = SVC(C=C, tol=1e-10).fit(X, y)
    np.testing.assert_array_equal(nu.support_, svc.support_)
    np.testing.assert_allclose(nu.dual_coef_, svc.dual_coef_, atol=1e-7 * C)
    np.testing.assert_allclose(nu.decision_function(X), svc.decision_function(X), atol=1e-7)


def test_notes_nu_is_c_one_over_nu_n():
    """Seed 000 (Zupan): the notes' ν-SVM is the C-SVM with C = 1/(νN), documented as such;
    the primal objective ½‖w‖² + (1/(νN)) Σξ scales to νN·½‖w‖² + Σξ."""
    X, y = make_classification(100, 5, random_state=2)
    nu_notes = 0.2
    svc = SVC(kernel="linear", C=1 / (nu_notes * 100), tol=1e-10).fit(X, y)
    xi = np.maximum(0, 1 - np.where(y == 1, 1, -1) * svc.decision_function(X))
    # every point with ξ > 0 has α = C: at most the bounded support vectors are margin errors
    assert np.sum(xi > 1e-6) <= np.sum(np.isclose(np.abs(svc.dual_coef_), svc.C))


def test_nu_infeasible_error():
    X = np.arange(10.0)[:, None]
    y = np.array([0] * 8 + [1] * 2)
    with pytest.raises(ValueError, match=r"nu=0\.5 is infeasible"):
        NuSVC(nu=0.5).fit(X, y)
    NuSVC(nu=0.4).fit(X, y)  # 2·min(8, 2)/10 = 0.4 is feasible
    # sample weights are part of the class balance: still an error
    with pytest.raises(ValueError, match=r"nu=0\.4 is infeasible"):
        NuSVC(nu=0.4).fit(X, y, sample_weight=np.r_[np.ones(8), 0.5, 0.5])


def test_nu_made_infeasible_by_class_weight_is_the_end_of_the_path():
    """Class weights that leave no feasible ν give the C → 0 limit of the weighted C-SVM:
    the constant decision for the heavier class; the unweighted pairs are untouched."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 2)) + np.repeat([[0, 0], [3, 0], [0, 3]], 20, axis=0)
    y = np.repeat([0, 1, 2], 20)
    cw = {0: 1000.0, 1: 1.0, 2: 1.0}
    with pytest.warns(UserWarning, match="class_weight leaves no feasible nu"):
        clf = NuSVC(nu=0.5, class_weight=cw, kernel="linear", tol=1e-10).fit(X, y)
    assert np.all(clf.predict(rng.normal(size=(30, 2)) * 5) == 0)
    np.testing.assert_array_equal(clf.intercept_[:2], [1.0, 1.0])  # pairs (0, 1), (0, 2)
    assert clf.n_support_[0] == 0
    # pair (1, 2) has equal class weights: the same fit as without class weights
    ref = NuSVC(nu=0.5, kernel="linear", tol=1e-10).fit(X[y > 0], y[y > 0])
    np.testing.assert_allclose(clf.intercept_[2], -ref.intercept_[0], atol=1e-9)
    np.testing.assert_allclose(clf.coef_[2], -ref.coef_[0], atol=1e-9)
    # two classes: intercept_ follows scikit-learn's sign (positive means classes_[1])
    with pytest.warns(UserWarning, match="class_weight leaves no feasible nu"):
        two = NuSVC(nu=0.5, class_weight={0: 1e-4, 1: 1000.0}).fit(X[:40], y[:40])
    np.testing.assert_array_equal(two.intercept_, [1.0])
    assert np.all(two.predict(X) == 1)


def test_squared_epsilon_insensitive_is_kernel_ridge_at_epsilon_zero():
    """ε = 0, squared slacks: the closed form [K + I/C, 1; 1ᵀ, 0][β; b] = [y; 0]."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.sin(X[:, 0]) + 0.1 * rng.normal(size=40)
    C = 2.5
    svr = SVR(loss="squared_epsilon_insensitive", epsilon=0.0, C=C, gamma=0.4, tol=1e-10)
    svr.fit(X, y)
    K = pairwise_kernel(X, kernel="rbf", gamma=0.4)
    A = np.block([[K + np.eye(40) / C, np.ones((40, 1))], [np.ones((1, 40)), np.zeros((1, 1))]])
    sol = np.linalg.solve(A, np.concatenate([y, [0.0]]))
    beta = np.zeros(40)
    beta[svr.support_] = svr.dual_coef_[0]
    np.testing.assert_allclose(beta, sol[:40], atol=1e-8)
    np.testing.assert_allclose(svr.intercept_, [sol[40]], atol=1e-8)


def test_squared_epsilon_insensitive_bias_formula():
    """Seed 002: b = y_i − Σ_j β_j K_ij − sign(β_i) ε − β_i / C for every support vector."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 2))
    y = X[:, 0] - X[:, 1] ** 2 + 0.1 * rng.normal(size=30)
    svr = SVR(loss="squared_epsilon_insensitive", epsilon=0.2, C=3.0, gamma=0.5, tol=1e-10)
    svr.fit(X, y)
    K = pairwise_kernel(X, kernel="rbf", gamma=0.5)
    beta = np.zeros(30)
    beta[svr.support_] = svr.dual_coef_[0]
    sv = svr.support_
    b = y[sv] - K[sv] @ beta - np.sign(beta[sv]) * 0.2 - beta[sv] / 3.0
    np.testing.assert_allclose(b, svr.intercept_[0], atol=1e-8)
    inside = np.setdiff1d(np.arange(30), sv)
    assert np.all(np.abs(y[inside] - svr.predict(X[inside])) <= 0.2 + 1e-8)


@pytest.mark.parametrize("shape", ["ovr", "ovo"])
def test_multiclass_decision_function_as_scikit_learn(shape):
    X, y = make_blobs(120, 3, centers=4, cluster_std=2.5, random_state=0)
    ours = SVC(decision_function_shape=shape, tol=1e-8).fit(X, y)
    peer = sk.SVC(decision_function_shape=shape, tol=1e-8).fit(X, y)
    np.testing.assert_allclose(ours.decision_function(X), peer.decision_function(X), atol=1e-5)
    np.testing.assert_array_equal(ours.predict(X), peer.predict(X))
    ours.set_params(break_ties=True, decision_function_shape="ovr")
    peer.set_params(break_ties=True, decision_function_shape="ovr")
    np.testing.assert_array_equal(ours.predict(X), peer.predict(X))


def test_string_labels_and_class_weight_balanced():
    X, y = make_blobs(90, 2, centers=3, cluster_std=3.0, random_state=2)
    labels = np.array(["x", "y", "z"])[y]
    keep = np.r_[np.flatnonzero(y != 2), np.flatnonzero(y == 2)[:8]]
    ours = SVC(class_weight="balanced", tol=1e-8).fit(X[keep], labels[keep])
    peer = sk.SVC(class_weight="balanced", tol=1e-8).fit(X[keep], labels[keep])
    np.testing.assert_array_equal(ours.support_, peer.support_)
    np.testing.assert_allclose(ours.dual_coef_, peer.dual_coef_, atol=1e-4)
    np.testing.assert_array_equal(ours.predict(X), peer.predict(X))


def test_probabilities_are_calibrated_distributions():
    X, y = make_blobs(150, 2, centers=3, cluster_std=1.0, random_state=0)
    clf = SVC(probability=True, random_state=0).fit(X, y)
    P = clf.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    assert np.all(P > 0)
    assert np.mean(np.argmax(P, axis=1) == y) > 0.8
    peer = sk.SVC(probability=True, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        Q = peer.fit(X, y).predict_proba(X)
    assert np.abs(P - Q).max() < 0.1  # different CV folds, same method
    assert not hasattr(SVC().fit(X, y), "predict_proba")


def test_kernel_objects_and_precomputed_agree():
    X, y = make_classification(60, 5, random_state=4)
    a = SVC(kernel=RBF(gamma=0.3), tol=1e-9).fit(X, y)
    b = SVC(kernel="rbf", gamma=0.3, tol=1e-9).fit(X, y)
    K = pairwise_kernel(X, kernel="rbf", gamma=0.3)
    c = SVC(kernel="precomputed", tol=1e-9).fit(K, y)
    d = SVC(kernel=RBF(gamma=0.15) + RBF(gamma=0.15), C=0.5, gamma=0.3, tol=1e-9).fit(X, y)
    e = SVC(kernel=RBF(gamma=[0.3] * 5), tol=1e-9).fit(X, y)
    for other in (a, c, e):
        np.testing.assert_array_equal(other.support_, b.support_)
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), atol=1e-10)
    np.testing.assert_allclose(c.decision_function(K), b.decision_function(X), atol=1e-10)
    np.testing.assert_allclose(e.decision_function(X), b.decision_function(X), atol=1e-10)
    # 2·RBF(0.15) ≠ RBF(0.3); check the composite against its own Gram instead
    Kd = 2 * pairwise_kernel(X, kernel="rbf", gamma=0.15)
    f = SVC(kernel="precomputed", C=0.5, tol=1e-9).fit(Kd, y)
    np.testing.assert_allclose(d.decision_function(X), f.decision_function(Kd), atol=1e-9)
    assert SVC(kernel=Linear()).fit(X, y).coef_.shape == (1, 5)


def test_solver_options_do_not_change_the_solution():
    """Shrinking on/off and a cache of four columns reach the same optimum."""
    X, y = make_classification(300, 6, random_state=5)
    ref = SVC(tol=1e-9).fit(X, y)
    for params in ({"shrinking": False}, {"cache_size": 1e-6}):
        other = SVC(tol=1e-9, **params).fit(X, y)
        np.testing.assert_array_equal(other.support_, ref.support_)
        np.testing.assert_allclose(other.dual_coef_, ref.dual_coef_, atol=1e-7)


def test_max_iter_warns():
    X, y = make_classification(100, 4, random_state=0)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        SVC(max_iter=3).fit(X, y)


def test_sample_weight_equals_repetition_and_zero_weight_drops():
    X, y = make_classification(40, 5, random_state=6)
    w = np.arange(40) % 3
    a = SVC(tol=1e-9).fit(X, y, sample_weight=w)
    b = SVC(tol=1e-9).fit(np.repeat(X, w, axis=0), np.repeat(y, w))
    np.testing.assert_allclose(a.decision_function(X), b.decision_function(X), atol=1e-8)
    assert not np.isin(np.flatnonzero(w == 0), a.support_).any()


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("C", [0.0, -1.0])
def test_nonpositive_c(C):
    with pytest.raises(ValueError, match="'C'"):
        SVC(C=C).fit([[0.0], [1.0]], [0, 1])
    with pytest.raises(ValueError, match="'C'"):
        SVR(C=C).fit([[0.0], [1.0]], [0, 1])


def test_nu_out_of_range():
    with pytest.raises(ValueError, match="'nu'"):
        NuSVC(nu=1.5).fit([[0.0], [1.0]], [0, 1])


def test_precomputed_gram_of_wrong_shape():
    with pytest.raises(ValueError, match="square Gram matrix"):
        SVC(kernel="precomputed").fit(np.ones((4, 3)), [0, 1, 0, 1])
    K = np.eye(4)
    clf = SVC(kernel="precomputed").fit(K, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="features"):
        clf.predict(np.ones((2, 5)))


def test_non_psd_precomputed_warns():
    x = np.array([1.0, 2.0])
    K = np.tanh(1.0 * np.outer(x, x) + 1.0)  # the catalogue's sigmoid counter-example
    with pytest.warns(NumericalWarning, match="not positive semi-definite"):
        SVC(kernel="precomputed").fit(K, [0, 1])


def test_strings_in_numeric_kernel():
    with pytest.raises(ValueError, match=r"column 0 is not numeric \(row 0 holds 'a'\)"):
        SVC().fit([["a", "b"], ["c", "d"]], [0, 1])


def test_unknown_kernel_lists_names():
    with pytest.raises(ValueError, match=r"'kernel'.*rbf"):
        SVC(kernel="gaussian").fit([[0.0], [1.0]], [0, 1])


@pytest.mark.parametrize("scale", [1e300, 1e-300])
@pytest.mark.parametrize(
    "make",
    [
        lambda: SVC(tol=1e-9),
        lambda: NuSVC(nu=0.4, tol=1e-9),
        lambda: SVR(tol=1e-9),
        lambda: SVC(kernel="poly", tol=1e-9),
    ],
)
def test_gamma_scale_is_scale_invariant_at_the_ends_of_float64(make, scale):
    """With gamma='scale' the fit on X × 1e±300 equals the unscaled fit (rtol 1e-8)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    a = make().fit(X, y)
    b = make().fit(X * scale, y)
    np.testing.assert_array_equal(a.support_, b.support_)
    np.testing.assert_allclose(b.dual_coef_, a.dual_coef_, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(b.support_vectors_, a.support_vectors_ * scale, rtol=1e-15)
    if isinstance(a, SVR):
        np.testing.assert_allclose(b.predict(X * scale), a.predict(X), rtol=1e-8, atol=1e-10)
    else:
        np.testing.assert_allclose(b.decision_function(X * scale), a.decision_function(X),
                                   rtol=1e-8, atol=1e-10)  # fmt: skip


def _dna(n, rng):
    """Random DNA-like sequences of lengths 15-30; label: the motif "GATC" occurs."""
    seqs = ["".join(rng.choice(list("ACGT"), rng.integers(15, 31))) for _ in range(n)]
    for i in range(0, n, 3):  # plant the motif in a third of them
        s = seqs[i]
        at = rng.integers(0, len(s) - 4)
        seqs[i] = s[:at] + "GATC" + s[at + 4 :]
    return seqs, np.array(["motif" if "GATC" in s else "none" for s in seqs])


def _kmer_counts(seqs, k):
    """The spectrum kernel's explicit feature map: counts of every k-mer over ACGT."""
    from itertools import product

    kmers = {"".join(t): j for j, t in enumerate(product("ACGT", repeat=k))}
    out = np.zeros((len(seqs), len(kmers)))
    for i, s in enumerate(seqs):
        for j in range(len(s) - k + 1):
            out[i, kmers[s[j : j + k]]] += 1
    return out


def test_strings_straight_into_a_string_kernel_equal_the_explicit_kmer_map():
    """SVC/SVR(kernel=Spectrum(3)) on strings ≡ the linear kernel on 3-mer counts."""
    rng = np.random.default_rng(7)
    seqs, y = _dna(60, rng)
    test, _ = _dna(15, rng)
    phi, phi_test = _kmer_counts(seqs, 3), _kmer_counts(test, 3)
    ours = SVC(kernel=Spectrum(3), C=0.05, tol=1e-10).fit(seqs, y)
    ref = SVC(kernel="linear", C=0.05, tol=1e-10).fit(phi, y)
    np.testing.assert_array_equal(ours.support_, ref.support_)
    np.testing.assert_allclose(ours.dual_coef_, ref.dual_coef_, atol=1e-9)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, atol=1e-9)
    np.testing.assert_allclose(
        ours.decision_function(test), ref.decision_function(phi_test), atol=1e-8
    )
    assert ours.n_features_in_ == 1 and ours.support_vectors_[0, 0] == seqs[ours.support_[0]]
    # one (n, 1) object column is the same input
    column = SVC(kernel=Spectrum(3), C=0.05, tol=1e-10).fit(
        np.array(seqs, dtype=object)[:, None], y
    )
    np.testing.assert_array_equal(column.predict(test), ours.predict(test))
    # regression on the GC count, and a composite kernel of string kernels
    target = np.array([s.count("G") + s.count("C") for s in seqs], dtype=float)
    reg = SVR(kernel=Spectrum(3), C=0.1, epsilon=0.5, tol=1e-10).fit(seqs, target)
    reg_ref = SVR(kernel="linear", C=0.1, epsilon=0.5, tol=1e-10).fit(phi, target)
    np.testing.assert_allclose(reg.predict(test), reg_ref.predict(phi_test), atol=1e-8)
    both = SVC(kernel=Spectrum(3) + 2.0 * Spectrum(2), C=0.05, tol=1e-10).fit(seqs, y)
    both_ref = SVC(kernel="linear", C=0.05, tol=1e-10)
    both_ref.fit(np.hstack([phi, np.sqrt(2.0) * _kmer_counts(seqs, 2)]), y)
    np.testing.assert_allclose(both.intercept_, both_ref.intercept_, atol=1e-9)


def test_strings_to_a_numeric_kernel_are_a_clear_error():
    rng = np.random.default_rng(7)
    seqs, y = _dna(12, rng)
    for kernel in ("rbf", Spectrum(3) + Linear()):
        with pytest.raises(ValueError, match="must be numeric for the kernel"):
            SVC(kernel=kernel).fit(seqs, y)
    with pytest.raises(ValueError, match="must be numeric for the kernel"):
        SVC(kernel="linear").fit(np.array(seqs)[:, None], y)
    fitted = SVC(kernel=Spectrum(3)).fit(seqs, y)
    with pytest.raises(ValueError, match="one column"):
        fitted.predict(np.array(seqs[:4]).reshape(2, 2))


def test_precomputed_kernel_object_is_pairwise_in_cross_validation():
    from sklearn.model_selection import cross_val_score
    from sklearn.utils import get_tags

    from statlearning.kernels import RBF, Precomputed

    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    K = RBF(gamma=0.5)(X)
    for kernel in ("precomputed", Precomputed()):
        assert get_tags(SVC(kernel=kernel)).input_tags.pairwise
        # the Gram is sliced by rows and columns, so the folds equal those on X
        on_gram = cross_val_score(SVC(kernel=kernel), K, y, cv=3)
        on_x = cross_val_score(SVC(kernel="rbf", gamma=0.5), X, y, cv=3)
        np.testing.assert_array_equal(on_gram, on_x)
