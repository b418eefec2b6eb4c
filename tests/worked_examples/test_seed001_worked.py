"""Artelt's worked examples and exercises (seed 001 parts 1 and 2) that the estimator tests do
not already assert: ROC endpoints, the sigmoid at the boundary, impurity maxima, elastic-net
grouping (Fig. 4.8), Exercises 4.13.4 and 5.6.3, and the Bernoulli MLE of part 2 E25."""

from __future__ import annotations

import math

import numpy as np
import pytest

from statlearning.bayes import BetaBernoulli
from statlearning.linear_model import ElasticNet, Lasso, LinearRegression, LogisticRegression
from statlearning.metrics import auc_se, entropy, rates_table
from statlearning.tree import DecisionTreeClassifier


@pytest.fixture(scope="module")
def binary():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(120, 3))
    y = (X @ [1.0, -1.0, 0.5] + rng.normal(size=120) > 0).astype(int)
    return X, y


def test_e5_roc_endpoints_under_the_strict_rule(binary):
    # "predict 1 if p > t": t = 0 gives (FPR, TPR) = (1, 1), t = 1 gives (0, 0). The notes name
    # the extreme cases the other way round (part 1 Appendix A, line 2823).
    X, y = binary
    p = LogisticRegression().fit(X, y).predict_proba(X)[:, 1]
    at0, at1 = rates_table(y, (p > 0).astype(int), 1), rates_table(y, (p > 1).astype(int), 1)
    assert (at0["fpr"], at0["tpr"]) == (1.0, 1.0)
    assert (at1["fpr"], at1["tpr"]) == (0.0, 0.0)
    # with the strict rule, TPR = 1 at t = 0 needs every positive score above 0
    scores = np.where(y == 1, 0.7, 0.2)
    scores[np.flatnonzero(y == 1)[0]] = 0.0
    assert rates_table(y, (scores > 0).astype(int), 1)["tpr"] < 1.0
    # AUC: 1 for perfectly ranked scores, 0.5 for constant scores (ties count one half)
    assert auc_se(y, y + 0.1, method="hanley_mcneil")[0] == 1.0
    assert auc_se(y, np.full(len(y), 0.3), method="hanley_mcneil")[0] == 0.5


def test_e9_sigmoid_is_one_half_at_the_boundary(binary):
    # sgd(0) = 0.5, so p > 0.5 ⇔ wᵀx + b > 0; and p = g(wᵀx + b) with g' = g(1 − g)
    X, y = binary
    model = LogisticRegression().fit(X, y)
    f = model.decision_function(X)
    p = model.predict_proba(X)[:, 1]
    np.testing.assert_allclose(p, 1 / (1 + np.exp(-f)), rtol=1e-12)
    np.testing.assert_array_equal(model.predict(X), (f > 0).astype(int))
    w = model.coef_.ravel()
    on_boundary = -model.intercept_[0] * w / (w @ w)
    assert model.predict_proba(on_boundary[None])[0, 1] == pytest.approx(0.5, abs=1e-12)
    h = 1e-6
    x0 = X[:1]
    step = np.outer([1.0], w / (w @ w)) * h  # moves wᵀx + b by h
    up, down = (model.predict_proba(x0 + step)[0, 1], model.predict_proba(x0 - step)[0, 1])
    g = model.predict_proba(x0)[0, 1]
    assert (up - down) / (2 * h) == pytest.approx(g * (1 - g), rel=1e-6)


def test_e10_gini_and_entropy_maxima():
    # the same argmax (the uniform node) and minimum (pure nodes), not the same maximum value:
    # Gini 0.5, entropy ln 2 = 0.6931 (part 1 Appendix A, line 2432)
    assert entropy([0.5, 0.5]) == pytest.approx(math.log(2), rel=1e-15)
    assert round(entropy([0.5, 0.5]), 4) == 0.6931
    assert entropy([1.0, 0.0]) == 0.0
    X = np.arange(4.0)[:, None]
    gini = DecisionTreeClassifier(criterion="gini").fit(X, [0, 0, 1, 1]).tree_
    assert gini.impurity[0] == 0.5 and np.all(gini.impurity[1:] == 0.0)
    p = np.linspace(0.01, 0.99, 99)
    ginis, ents = 2 * p * (1 - p), [entropy([q, 1 - q]) for q in p]
    assert p[np.argmax(ginis)] == p[np.argmax(ents)] == pytest.approx(0.5)


def test_e15_elastic_net_groups_the_noisy_copies():
    # Fig. 4.8: features 0–2 original, 3 and 4 = feature 2 + Gaussian noise; the elastic net
    # selects 2, 3 and 4 together, the lasso drops some of them (noise level and λ are not
    # given: 0.1 and the values below are ours)
    rng = np.random.default_rng(15)
    n = 200
    Z = rng.normal(size=(n, 3))
    copies = Z[:, [2, 2]] + 0.1 * rng.normal(size=(n, 2))
    X = np.column_stack([Z, copies])
    y = Z @ [1.0, -1.0, 2.0] + rng.normal(size=n)
    for alpha in (0.05, 0.3):
        lasso = Lasso(alpha=alpha).fit(X, y)
        enet = ElasticNet(alpha=alpha, l1_ratio=0.3).fit(X, y)
        assert np.count_nonzero(lasso.coef_[2:]) < 3
        assert np.all(enet.coef_[2:] > 0.3)
        assert np.ptp(enet.coef_[2:]) < 0.3  # similar weights for the correlated group


def test_ex_4_13_4_centred_data_have_zero_intercept():
    rng = np.random.default_rng(4134)
    X = rng.normal(size=(50, 3)) + np.array([5.0, -2.0, 10.0])
    y = X @ [1.0, 2.0, -1.0] + 7.0 + rng.normal(size=50)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    centred = LinearRegression().fit(Xc, yc)
    assert abs(centred.intercept_) < 1e-12
    np.testing.assert_allclose(centred.coef_, LinearRegression().fit(X, y).coef_, rtol=1e-10)


def test_ex_5_6_3_plus_minus_one_loss_is_the_negative_log_likelihood(binary):
    # Σ log(1 + exp(−y' f)) with y' = 2y − 1 ∈ {−1, 1} equals the NLL (5.7),
    # −Σ [y log σ(f) + (1 − y) log(1 − σ(f))]
    X, y = binary
    model = LogisticRegression().fit(X, y)
    f = model.decision_function(X)
    margin_loss = np.sum(np.logaddexp(0.0, -(2 * y - 1) * f))
    p = model.predict_proba(X)[:, 1]
    nll = -np.sum(y * np.log(p) + (1 - y) * np.log1p(-p))
    assert margin_loss == pytest.approx(nll, rel=1e-12)
    assert margin_loss == pytest.approx(-model.loglik_, rel=1e-10)


def test_pt2_e25_bernoulli_mle_is_the_posterior_mode_under_a_flat_prior():
    # D = (0,0,0,0,1,1,1,1,1,1): L(p) = p⁶(1 − p)⁴ (the notes' B.128 lists 8 factors; there
    # are 10, part 2 §6 line 5601), maximised at p = 0.6 = the posterior mode under Beta(1, 1)
    data = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    model = BetaBernoulli(a=1.0, b=1.0).fit(data)
    a, b = model.posterior_["a"], model.posterior_["b"]
    assert (a, b) == (7.0, 5.0)
    assert (a - 1) / (a + b - 2) == pytest.approx(0.6, rel=1e-15)
    # the evidence under a flat prior is ∫ p⁶(1 − p)⁴ dp = B(7, 5)
    assert model.log_evidence_ == pytest.approx(
        math.log(math.gamma(7) * math.gamma(5) / math.gamma(12))
    )
    grid = np.linspace(0, 1, 100_001)
    assert grid[np.argmax(grid**6 * (1 - grid) ** 4)] == pytest.approx(0.6, abs=1e-5)


@pytest.mark.parametrize("method", ["enumerate", "auto"])
def test_pt2_e18_linear_programme_optimum(method):
    """Part 2 E18: max x1 + 2 x2 s.t. x >= 0, x1 + x2 = 42 has its optimum at (0, 42)."""
    from statlearning.optimize import solve_qp

    if method == "auto":
        pytest.importorskip("highspy")

    res = solve_qp(
        np.zeros((2, 2)), np.array([-1.0, -2.0]),
        A_eq=np.array([[1.0, 1.0]]), b_eq=np.array([42.0]),
        bounds=[(0, None), (0, None)], method=method,
    )  # fmt: skip
    assert res.status == "optimal"
    np.testing.assert_allclose(res.x, [0.0, 42.0], atol=1e-9)
    assert res.fun == pytest.approx(-84.0, abs=1e-9)
