"""SVC, NuSVC, SVR and NuSVR against R's e1071::svm (libsvm) on committed fixtures.

libsvm keeps its kernel cache in single precision, so its dual coefficients sit up to ~5e-6·C
from the exact optimum. Ours, at ``tol=1e-8``, must (1) have libsvm's support vectors, (2) lie
within 1e-7 of the exact optimum — the KKT system of the solution's active set re-solved in
double precision here — and satisfy the KKT conditions, and (3) lie within 2e-5·C of libsvm's
coefficients, intercepts and decision values.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn import svm as sk
from svm_checks import (
    active_set_residual,
    assert_classifier_kkt,
    assert_regressor_kkt,
    exact_on_active_set,
    pair_coefficients,
)

from conftest import REFERENCE
from statlearning.kernels import pairwise_kernel
from statlearning.svm import SVC, SVR, NuSVC, NuSVR

DIR = REFERENCE / "svm"
CASES = json.loads((DIR / "svm_reference.json").read_text())["cases"]
KERNELS = {"linear": "linear", "radial": "rbf", "polynomial": "poly"}


def _data(case):
    rows = np.genfromtxt(DIR / case["data"], delimiter=",", names=True, dtype=None, encoding=None)
    X = np.column_stack([rows["x1"], rows["x2"]]).astype(np.float64)
    return X, rows["y"]


def _estimator(case):
    a = case["args"]
    params = {"kernel": KERNELS[a["kernel"]], "tol": 1e-8}
    for r_name, name in (("gamma", "gamma"), ("degree", "degree"), ("coef0", "coef0")):
        if r_name in a:
            params[name] = a[r_name]
    if a["type"] == "C-classification":
        weights = a.get("class.weights")
        cw = None if weights is None else dict(zip(("a", "b"), weights, strict=True))
        return SVC(C=a["cost"], class_weight=cw, **params)
    if a["type"] == "nu-classification":
        return NuSVC(nu=a["nu"], **params)
    if a["type"] == "nu-regression":
        return NuSVR(nu=a["nu"], C=a["cost"], **params)
    return SVR(C=a["cost"], epsilon=a["epsilon"], **params)


def _kernel(est, X):
    return pairwise_kernel(X, kernel=est.kernel, gamma=est.gamma, degree=est.degree,
                           coef0=est.coef0)  # fmt: skip


def _scale(case):
    a = case["args"]
    if a["type"] == "nu-classification":
        return 1.0
    return a["cost"] * max(a.get("class.weights", [1.0]))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_libsvm(case):
    X, y = _data(case)
    est = _estimator(case).fit(X, y)
    scale = _scale(case)
    np.testing.assert_array_equal(est.support_, np.array(case["index"]) - 1)
    coefs = np.array(case["coefs"])
    rho = np.array(case["rho"])
    if isinstance(est, SVR | NuSVR):
        np.testing.assert_allclose(est.dual_coef_[0], coefs[:, 0], rtol=0, atol=2e-5 * scale)
        np.testing.assert_allclose(est.intercept_, -rho, rtol=0, atol=2e-5 * scale)
        np.testing.assert_allclose(est.predict(X), case["predictions"], rtol=0, atol=2e-5 * scale)
        return
    assert est.classes_.tolist() == case["labels"]
    np.testing.assert_array_equal(est.n_support_, case["n_sv"])
    binary = len(est.classes_) == 2
    ours = -est.dual_coef_ if binary else est.dual_coef_
    np.testing.assert_allclose(ours.T, coefs, rtol=0, atol=2e-5 * scale)
    np.testing.assert_allclose(est.intercept_ if binary else -est.intercept_, rho, rtol=0,
                               atol=2e-5 * scale)  # fmt: skip
    dec = -est.decision_function(X)[:, None] if binary else est.set_params(
        decision_function_shape="ovo").decision_function(X)  # fmt: skip
    np.testing.assert_allclose(dec, case["decision_values"], rtol=0, atol=2e-5 * scale)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_exact_optimum_and_kkt(case):
    """Our dual solution is the exact optimum of its active set (1e-7) and satisfies the KKT
    conditions (to 1e-7 on the margins)."""
    X, y = _data(case)
    est = _estimator(case).fit(X, y)
    K = _kernel(est, X)
    if isinstance(est, SVR | NuSVR):
        beta = np.zeros(X.shape[0])
        beta[est.support_] = est.dual_coef_[0]
        upper = np.full(X.shape[0], est.C)
        epsilon = getattr(est, "epsilon", None)
        if epsilon is None:  # ν: the fitted tube, |y − f| on the free support vectors
            free = (beta != 0) & (np.abs(beta) < est.C * (1 - 1e-9))
            epsilon = float(np.median(np.abs(y - est.predict(X))[free]))
            assert np.mean(np.abs(beta) > 0) >= est.nu - 1e-9  # ν bounds the SV fraction
            assert np.mean(np.abs(y - est.predict(X)) > epsilon + 1e-7) <= est.nu + 1e-9
        target = y - np.sign(beta) * epsilon
        solved = exact_on_active_set(K, target, beta, upper)
        if solved is None:
            assert active_set_residual(K, target, beta, est.intercept_[0], upper) <= 1e-7
        else:
            np.testing.assert_allclose(beta, solved[0], rtol=0, atol=1e-7)
            assert abs(est.intercept_[0] - solved[1]) <= 1e-7
        assert_regressor_kkt(K, y, beta, est.intercept_[0], upper, epsilon, 1e-7)
        return
    n_classes = len(est.classes_)
    codes = np.searchsorted(est.classes_, y)
    k = 0
    for a in range(n_classes):
        for c in range(a + 1, n_classes):
            rows = np.flatnonzero((codes == a) | (codes == c))
            beta_sv, index = pair_coefficients(est, a, c)
            beta = np.zeros(X.shape[0])
            beta[index] = beta_sv
            y_pm = np.where(codes == a, 1.0, -1.0)
            if isinstance(est, NuSVC):  # the C-SVM with C = 1/r: the bound is max |coef|
                upper = np.full(X.shape[0], np.abs(beta).max())
            else:
                upper = est.C * est.class_weight_[codes]
            Ks = K[np.ix_(rows, rows)]
            b_ours = -est.intercept_[0] if n_classes == 2 else est.intercept_[k]
            solved = exact_on_active_set(Ks, y_pm[rows], beta[rows], upper[rows])
            if solved is None:  # β not unique: ours must solve the active set's equations
                res = active_set_residual(Ks, y_pm[rows], beta[rows], b_ours, upper[rows])
                assert res <= 1e-7
            else:
                np.testing.assert_allclose(beta[rows], solved[0], rtol=0, atol=1e-7)
                assert abs(b_ours - solved[1]) <= 1e-7
            assert_classifier_kkt(Ks, y_pm[rows], beta[rows], b_ours, upper[rows], 1e-7)
            k += 1


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_matches_scikit_learn(case):
    """scikit-learn's SVC/NuSVC/SVR (libsvm) on the same data: same support vectors and
    coefficients within libsvm's single-precision error."""
    X, y = _data(case)
    est = _estimator(case)
    params = {k: v for k, v in est.get_params().items() if k != "loss"}
    peer = getattr(sk, type(est).__name__)(**params).fit(X, y)
    est.fit(X, y)
    np.testing.assert_array_equal(est.support_, peer.support_)
    scale = _scale(case)
    np.testing.assert_allclose(est.dual_coef_, peer.dual_coef_, rtol=0, atol=2e-5 * scale)
    np.testing.assert_allclose(est.intercept_, peer.intercept_, rtol=0, atol=2e-5 * scale)
    if isinstance(est, SVR | NuSVR):
        np.testing.assert_allclose(est.predict(X), peer.predict(X), rtol=0, atol=2e-5 * scale)
    else:
        np.testing.assert_allclose(est.decision_function(X), peer.decision_function(X), rtol=0,
                                   atol=2e-5 * scale)  # fmt: skip
        np.testing.assert_array_equal(est.predict(X), peer.predict(X))
