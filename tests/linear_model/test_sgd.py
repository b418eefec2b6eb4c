"""SGDRegressor / SGDClassifier: the optimum of the convex objectives, the notes' LMS and tanh
classifiers, mini-batches, shuffled fits against scikit-learn, and the fitting API."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import linear_model as sk
from sklearn.datasets import make_classification, make_regression
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

from statlearning.exceptions import ConvergenceWarning, NumericalWarning
from statlearning.linear_model import (
    LeastSquaresClassifier,
    LogisticRegression,
    Ridge,
    SGDClassifier,
    SGDRegressor,
)
from statlearning.svm import SVC

N = 200
ALPHA = 0.01


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N, 3))
    y = 1.0 + X @ np.array([1.0, -2.0, 0.5]) + rng.normal(size=N)
    labels = (X[:, 0] + rng.normal(size=N) > 0).astype(int)
    return X, y, labels


# --- the convex losses reach the exact optimum ------------------------------------------------


def test_squared_error_l2_reaches_ridge_optimum(data):
    # (1/2n)‖y − Xw − b‖² + (α/2)‖w‖²  ⇔  Ridge: ‖y − Xw − b‖² + nα‖w‖²
    X, y, _ = data
    ridge = Ridge(alpha=N * ALPHA).fit(X, y)
    full_batch = SGDRegressor(
        alpha=ALPHA,
        batch_size=N,
        learning_rate="invscaling",
        eta0=0.5,
        power_t=0.25,
        max_iter=3000,
        tol=None,
    ).fit(X, y)
    np.testing.assert_allclose(full_batch.coef_, ridge.coef_, rtol=0, atol=1e-5)
    np.testing.assert_allclose(full_batch.intercept_[0], ridge.intercept_, rtol=0, atol=1e-5)
    # per-sample steps with a decaying ("adaptive") rate get close too
    per_sample = SGDRegressor(
        alpha=ALPHA, learning_rate="adaptive", eta0=0.01, tol=1e-12, max_iter=100_000, shuffle=False
    ).fit(X, y)
    np.testing.assert_allclose(per_sample.coef_, ridge.coef_, rtol=0, atol=1e-4)


def test_log_loss_l2_reaches_logistic_optimum(data):
    # (1/n)Σ log(1 + e^{−s p}) + (α/2)‖w‖²  ⇔  LogisticRegression(penalty="l2", C=1/(nα))
    X, _, labels = data
    logit = LogisticRegression(penalty="l2", C=1.0 / (N * ALPHA)).fit(X, labels)
    sgd = SGDClassifier(
        loss="log_loss",
        alpha=ALPHA,
        batch_size=N,
        learning_rate="invscaling",
        eta0=2.0,
        power_t=0.25,
        max_iter=5000,
        tol=None,
    ).fit(X, labels)
    np.testing.assert_allclose(sgd.coef_, logit.coef_, rtol=0, atol=1e-5)
    np.testing.assert_allclose(sgd.intercept_, logit.intercept_, rtol=0, atol=1e-5)
    np.testing.assert_allclose(sgd.predict_proba(X), logit.predict_proba(X), rtol=0, atol=1e-6)


def test_hinge_l2_reaches_svm_objective(data):
    # (1/n)Σ max(0, 1 − s p) + (α/2)‖w‖²  ⇔  SVC(kernel="linear", C=1/(nα)) (divided by nαC)
    X, _, labels = data
    s = 2.0 * labels - 1.0

    def objective(w, b):
        return np.mean(np.maximum(0.0, 1.0 - s * (X @ w + b))) + 0.5 * ALPHA * w @ w

    svc = SVC(kernel="linear", C=1.0 / (N * ALPHA), tol=1e-8).fit(X, labels)
    best = objective(svc.coef_.ravel(), svc.intercept_[0])
    # the hinge is not smooth: subgradient steps approach the optimum slowly; with the
    # strongly convex objective, the "optimal" rate 1/(α(t0 + t)) (Pegasos' step) and the
    # averaged iterate reach the optimal value to 1e-5 (2.7e-6 here); the minimiser itself
    # converges more slowly (4e-4 after these 20,000 full-batch steps)
    sgd = SGDClassifier(
        alpha=ALPHA,
        batch_size=N,
        learning_rate="optimal",
        max_iter=20000,
        tol=None,
        average=True,
    ).fit(X, labels)
    value = objective(sgd.coef_.ravel(), sgd.intercept_[0])
    assert best - 1e-9 <= value <= best * (1 + 1e-5)
    np.testing.assert_allclose(sgd.coef_, svc.coef_, rtol=0, atol=1e-3)


# --- shuffled fits: the same held-out score as scikit-learn -------------------------------------


@pytest.fixture(scope="module")
def classification():
    X, y = make_classification(10_000, 20, n_informative=8, random_state=0)
    return train_test_split(StandardScaler().fit_transform(X), y, random_state=0)


@pytest.mark.parametrize("loss", ["hinge", "log_loss"])
def test_shuffled_classifier_scores_as_scikit_learn(classification, loss):
    # different shuffles: the held-out accuracies of five seeds agree on average within 1 point
    Xtr, Xte, ytr, yte = classification
    ours = [
        SGDClassifier(loss=loss, random_state=s).fit(Xtr, ytr).score(Xte, yte) for s in range(5)
    ]
    theirs = [
        sk.SGDClassifier(loss=loss, random_state=s).fit(Xtr, ytr).score(Xte, yte) for s in range(5)
    ]
    assert abs(np.mean(ours) - np.mean(theirs)) <= 0.01


@pytest.mark.parametrize("loss", ["hinge", "log_loss", "modified_huber", "perceptron"])
def test_shuffled_averaged_classifier_scores_as_scikit_learn(classification, loss):
    Xtr, Xte, ytr, yte = classification
    ours = SGDClassifier(loss=loss, average=True, random_state=0).fit(Xtr, ytr)
    theirs = sk.SGDClassifier(loss=loss, average=True, random_state=0).fit(Xtr, ytr)
    assert abs(ours.score(Xte, yte) - theirs.score(Xte, yte)) <= 0.01


@pytest.mark.parametrize("loss", ["squared_error", "huber", "epsilon_insensitive"])
def test_shuffled_regressor_scores_as_scikit_learn(loss):
    X, y = make_regression(5000, 20, noise=5.0, random_state=0)
    X = StandardScaler().fit_transform(X)
    y = (y - y.mean()) / y.std()
    Xtr, Xte, ytr, yte = train_test_split(X, y, random_state=0)
    ours = SGDRegressor(loss=loss, random_state=0).fit(Xtr, ytr).score(Xte, yte)
    theirs = sk.SGDRegressor(loss=loss, random_state=0).fit(Xtr, ytr).score(Xte, yte)
    assert abs(ours - theirs) <= 0.01


def test_shuffle_is_reproducible(data):
    X, y, _ = data
    a = SGDRegressor(random_state=3).fit(X, y)
    b = SGDRegressor(random_state=3).fit(X, y)
    c = SGDRegressor(random_state=4).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert not np.array_equal(a.coef_, c.coef_)


# --- the notes' classifiers --------------------------------------------------------------------


def test_lms_update_has_the_corrected_intercept_sign():
    # Welling (7.8)-(7.9) on the cost (1/2N)Σ(Yₙ − wᵀXₙ + α)². The notes print (7.9) as
    # α ← α + η(Yₙ − wᵀXₙ + α): the catalogue's erratum (seed 002, M3: "this sign is wrong",
    # it contradicts the gradient (7.5)) gives α ← α − η(Yₙ − wᵀXₙ + α). With our b = −α that
    # is b ← b + η rₙ, the step we take.
    X = np.array([[1.0, 2.0], [-1.0, 0.5]])
    y = np.array([1, 0])  # ±1 labels: +1, −1
    eta = 0.1
    clf = SGDClassifier(
        loss="squared_error",
        penalty=None,
        learning_rate="constant",
        eta0=eta,
        max_iter=1,
        tol=None,
        shuffle=False,
    ).fit(X, y)
    w, alpha = np.zeros(2), 0.0
    for x_n, y_n in zip(X, [1.0, -1.0], strict=True):
        r = y_n - w @ x_n + alpha
        w = w + eta * r * x_n  # (7.8)
        alpha = alpha - eta * r  # (7.9) corrected
    np.testing.assert_allclose(clf.coef_[0], w, rtol=1e-14)
    np.testing.assert_allclose(clf.intercept_[0], -alpha, rtol=1e-14)


def test_zwaan_single_instance_and_batch_updates():
    # seed 000 (3.21): β_i ← β_i − (α/N)(f_β(x) − y) x_i per instance, and (3.22) the batch
    # update β_i ← β_i − (α/N) Σ_j (f_β(x_j) − y_j) x_ji, the factor 2 absorbed in α; x_0 = 1
    # is our intercept. (3.21) is a per-sample step of rate α/N, (3.22) a full-batch step of
    # rate α along the mean gradient.
    rng = np.random.default_rng(5)
    X, y = rng.normal(size=(6, 2)), rng.normal(size=6)
    a, n = 0.3, 6
    per_instance = SGDRegressor(
        penalty=None, learning_rate="constant", eta0=a / n, max_iter=1, tol=None, shuffle=False
    ).fit(X, y)
    beta = np.zeros(3)
    Z = np.column_stack([np.ones(n), X])
    for z, t in zip(Z, y, strict=True):
        beta = beta - (a / n) * (z @ beta - t) * z
    np.testing.assert_allclose(per_instance.coef_, beta[1:], rtol=1e-14)
    np.testing.assert_allclose(per_instance.intercept_[0], beta[0], rtol=1e-14)
    batch = SGDRegressor(
        penalty=None, learning_rate="constant", eta0=a, batch_size=n, max_iter=3, tol=None
    ).fit(X, y)
    beta = np.zeros(3)
    for _ in range(3):
        beta = beta - (a / n) * Z.T @ (Z @ beta - y)
    np.testing.assert_allclose(batch.coef_, beta[1:], rtol=1e-13)
    np.testing.assert_allclose(batch.intercept_[0], beta[0], rtol=1e-13)


def test_lms_batch_gradient_descent_reaches_least_squares_classifier(data):
    # batch GD (7.6)-(7.7) on ±1 labels converges to the least-squares fit, which is
    # LeastSquaresClassifier's 0/1 indicator fit mapped by s = 2·1[y] − 1
    X, _, labels = data
    lms = SGDClassifier(
        loss="squared_error",
        penalty=None,
        batch_size=N,
        learning_rate="constant",
        eta0=0.5,
        max_iter=2000,
        tol=None,
    ).fit(X, labels)
    lsc = LeastSquaresClassifier().fit(X, labels)
    np.testing.assert_allclose(lms.coef_, 2 * lsc.coef_, rtol=0, atol=1e-10)
    np.testing.assert_allclose(lms.intercept_, 2 * lsc.intercept_ - 1, rtol=0, atol=1e-10)
    np.testing.assert_array_equal(lms.predict(X), lsc.predict(X))


def test_tanh_cost_gradient_and_bound():
    from statlearning._solvers._sgd_kernels import LOSS_CODES, loss_derivative, loss_values

    code = LOSS_CODES["tanh"]
    p = np.linspace(-4, 4, 17)
    for s in (-1.0, 1.0):
        values = np.empty_like(p)
        loss_values(code, np.full_like(p, s), p, 0.0, values)
        assert np.all(np.abs(values) < 1)  # each term in (−1, 1): the cost's range is 2
        h = 1e-6
        up, down = np.empty_like(p), np.empty_like(p)
        loss_values(code, np.full_like(p, s), p + h, 0.0, up)
        loss_values(code, np.full_like(p, s), p - h, 0.0, down)
        numeric = (up - down) / (2 * h)
        exact = [loss_derivative(code, s, pi, 0.0) for pi in p]
        np.testing.assert_allclose(exact, numeric, rtol=0, atol=1e-8)


def test_tanh_cost_classifier_is_robust_to_a_gross_outlier():
    # the bounded cost ignores a far-away mislabelled point that drags the squared cost
    rng = np.random.default_rng(1)
    X = np.vstack([rng.normal(-1.5, 0.5, (40, 1)), rng.normal(1.5, 0.5, (40, 1)), [[40.0]]])
    y = np.r_[np.zeros(40), np.ones(40), 0]
    settings = dict(
        penalty=None, learning_rate="constant", eta0=0.05, max_iter=200, tol=None, random_state=0
    )
    tanh = SGDClassifier(loss="tanh", **settings).fit(X, y)
    assert tanh.score(X[:80], y[:80]) == 1.0
    assert np.sign(tanh.coef_[0, 0]) == 1


def test_perceptron_loss_is_rosenblatts_update():
    from statlearning.linear_model import Perceptron

    X = np.array([[0.0, 0.0], [0.0, 1.0], [2.0, 2.0], [3.0, 2.0], [1.0, 0.2]])
    y = np.array([0, 0, 1, 1, 1])
    ours = SGDClassifier(
        loss="perceptron",
        penalty=None,
        learning_rate="constant",
        eta0=1.0,
        max_iter=50,
        tol=None,
        shuffle=False,
    ).fit(X, y)
    rosenblatt = Perceptron(shuffle=False, max_iter=50).fit(X, y)
    np.testing.assert_allclose(ours.coef_, rosenblatt.coef_)
    np.testing.assert_allclose(ours.intercept_, rosenblatt.intercept_)


# --- mini-batches --------------------------------------------------------------------------------


def test_mini_batch_step_uses_the_mean_gradient():
    rng = np.random.default_rng(2)
    X, y = rng.normal(size=(7, 2)), rng.normal(size=7)
    eta, alpha = 0.05, 0.1
    reg = SGDRegressor(
        alpha=alpha,
        batch_size=3,
        learning_rate="constant",
        eta0=eta,
        max_iter=1,
        tol=None,
        shuffle=False,
    ).fit(X, y)
    w, b = np.zeros(2), 0.0
    for rows in (slice(0, 3), slice(3, 6), slice(6, 7)):
        r = X[rows] @ w + b - y[rows]
        w = (1 - eta * alpha) * w - eta * (X[rows].T @ r) / r.size
        b = b - eta * r.mean()
    np.testing.assert_allclose(reg.coef_, w, rtol=1e-13)
    np.testing.assert_allclose(reg.intercept_[0], b, rtol=1e-13)
    assert reg.t_ == 4.0  # three steps


# --- the fitting API ----------------------------------------------------------------------------


def test_partial_fit_continues_fit(data):
    X, y, _ = data
    settings = dict(tol=None, shuffle=False, learning_rate="invscaling")
    once = SGDRegressor(max_iter=2, **settings).fit(X, y)
    twice = SGDRegressor(**settings).partial_fit(X, y).partial_fit(X, y)
    np.testing.assert_allclose(twice.coef_, once.coef_, rtol=1e-13)
    assert twice.t_ == once.t_ == 2 * N + 1


def test_averaged_partial_fit_continues_the_average(data):
    # scikit-learn restarts a binary averaged model's second partial_fit from intercept 0 (its
    # standard intercept is not kept): ours continues from the last iterate, so that two calls
    # equal one fit of two epochs
    X, _, labels = data
    settings = dict(tol=None, shuffle=False, average=True)
    once = SGDClassifier(max_iter=2, **settings).fit(X, labels)
    twice = SGDClassifier(**settings).partial_fit(X, labels, classes=[0, 1])
    twice.partial_fit(X, labels)
    np.testing.assert_allclose(twice.coef_, once.coef_, rtol=1e-12)
    np.testing.assert_allclose(twice.intercept_, once.intercept_, rtol=1e-12)


def test_warm_start_continues(data):
    X, y, _ = data
    cold = SGDRegressor(max_iter=2, tol=None, shuffle=False, learning_rate="constant")
    cold.fit(X, y)
    warm = SGDRegressor(
        max_iter=1, tol=None, shuffle=False, learning_rate="constant", warm_start=True
    )
    warm.fit(X, y).fit(X, y)
    np.testing.assert_allclose(warm.coef_, cold.coef_, rtol=1e-13)


def test_early_stopping_holds_out_data(data):
    X, y, _ = data
    reg = SGDRegressor(early_stopping=True, random_state=0, max_iter=1000).fit(X, y)
    assert reg.n_iter_ < 1000
    assert reg.t_ < reg.n_iter_ * N + 1  # the held-out rows are not trained on
    assert reg.score(X, y) > 0.8


def test_multiclass_one_vs_all_and_probabilities():
    X, y = make_classification(
        300, 5, n_informative=4, n_redundant=0, n_classes=3, class_sep=2.0, random_state=0
    )
    labels = np.array(["x", "y", "z"])[y]
    clf = SGDClassifier(loss="log_loss", average=True, random_state=0).fit(X, labels)
    assert clf.coef_.shape == (3, 5)
    prob = clf.predict_proba(X)
    np.testing.assert_allclose(prob.sum(axis=1), 1.0)
    np.testing.assert_array_equal(clf.classes_[prob.argmax(axis=1)], clf.predict(X))
    assert clf.score(X, labels) > 0.7
    with pytest.raises(AttributeError, match="predict_proba"):
        SGDClassifier(loss="hinge").fit(X, labels).predict_proba(X)


def test_errors_and_warnings(data):
    X, y, labels = data
    with pytest.raises(ValueError, match="alpha"):
        SGDRegressor(learning_rate="optimal", alpha=0.0).fit(X, y)
    with pytest.raises(ValueError, match="classes="):
        SGDClassifier().partial_fit(X, labels)
    with pytest.raises(ValueError, match="balanced"):
        SGDClassifier(class_weight="balanced").partial_fit(X, labels, classes=[0, 1])
    with pytest.raises(ValueError, match="early_stopping"):
        SGDRegressor(early_stopping=True).partial_fit(X, y)
    with pytest.raises(ValueError, match=r"overflow.*standardise"):
        SGDRegressor(learning_rate="constant", eta0=1e300, penalty=None, tol=None).fit(X, y)
    with pytest.warns(NumericalWarning, match="scale of X"):
        huge = SGDRegressor(random_state=0).fit(X * 1e200, y)
    # fitted on the columns divided by powers of two (largest |x| in [0.5, 1)): a good fit
    assert huge.score(X * 1e200, y) > 0.8
    with pytest.warns(ConvergenceWarning, match="max_iter=2 epochs"):
        SGDRegressor(max_iter=2, tol=1e-3).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SGDRegressor(max_iter=2, tol=None).fit(X, y)  # tol=None: no convergence to claim


def test_sample_weight_scales_the_step():
    # a weight multiplies that sample's step (scikit-learn's definition), so a weight of 2 is
    # not two copies of the row (see the expected failure in tests/test_common.py)
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(5, 2)), rng.normal(size=5)
    weights = np.array([1.0, 2.0, 0.0, 0.5, 3.0])
    eta = 0.05
    reg = SGDRegressor(
        penalty=None, learning_rate="constant", eta0=eta, max_iter=1, tol=None, shuffle=False
    ).fit(X, y, sample_weight=weights)
    w, b = np.zeros(2), 0.0
    for x_i, y_i, s_i in zip(X, y, weights, strict=True):
        step = eta * s_i * (x_i @ w + b - y_i)
        w, b = w - step * x_i, b - step
    np.testing.assert_allclose(reg.coef_, w, rtol=1e-14)
    np.testing.assert_allclose(reg.intercept_[0], b, rtol=1e-14)


# --- the shared step rules -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "rule,eta0", [("momentum", 0.05), ("nesterov", 0.05), ("adagrad", 0.5), ("adam", 0.05)]
)
def test_step_rules_reach_the_ridge_optimum(data, rule, eta0):
    X, y, _ = data
    ridge = Ridge(alpha=N * ALPHA).fit(X, y)
    sgd = SGDRegressor(
        alpha=ALPHA,
        step_rule=rule,
        batch_size=N,
        eta0=eta0,
        learning_rate="constant",
        max_iter=3000,
        tol=None,
    ).fit(X, y)
    np.testing.assert_allclose(sgd.coef_, ridge.coef_, rtol=0, atol=1e-8)
    np.testing.assert_allclose(sgd.intercept_[0], ridge.intercept_, rtol=0, atol=1e-8)


@pytest.mark.parametrize("rule", ["rmsprop", "adadelta"])
def test_step_rules_without_decay_get_near_the_optimum(data, rule):
    # RMSProp's and Adadelta's steps do not shrink with the gradient: they hover near it
    X, y, _ = data
    ridge = Ridge(alpha=N * ALPHA).fit(X, y)
    sgd = SGDRegressor(
        alpha=ALPHA,
        step_rule=rule,
        batch_size=N,
        eta0=0.01,
        learning_rate="constant",
        max_iter=3000,
        tol=None,
    ).fit(X, y)
    np.testing.assert_allclose(sgd.coef_, ridge.coef_, rtol=0, atol=3e-2)


def test_momentum_steps_are_the_shared_rule(data):
    # two full-batch steps equal steps.Momentum applied to the mean gradient of the objective
    from statlearning._solvers.steps import Momentum

    X, y, _ = data
    eta = 0.1
    averaged = SGDRegressor(
        alpha=ALPHA,
        step_rule="momentum",
        batch_size=N,
        eta0=eta,
        learning_rate="constant",
        max_iter=2,
        tol=None,
        average=True,
    ).fit(X, y)
    sgd = SGDRegressor(
        alpha=ALPHA,
        step_rule="momentum",
        batch_size=N,
        eta0=eta,
        learning_rate="constant",
        max_iter=2,
        tol=None,
    ).fit(X, y)
    theta = np.zeros(X.shape[1] + 1)
    rule = Momentum(eta, 0.9)
    iterates = []
    for _ in range(2):
        r = X @ theta[:-1] + theta[-1] - y
        grad = np.append(X.T @ r / N + ALPHA * theta[:-1], r.mean())
        rule.update([theta], [grad])
        iterates.append(theta.copy())
    np.testing.assert_allclose(sgd.coef_, theta[:-1], rtol=1e-12)
    np.testing.assert_allclose(sgd.intercept_[0], theta[-1], rtol=1e-12)
    mean = np.mean(iterates, axis=0)  # average=True: the mean of the iterates
    np.testing.assert_allclose(averaged.coef_, mean[:-1], rtol=1e-12)
    np.testing.assert_allclose(averaged.intercept_[0], mean[-1], rtol=1e-12)


def test_adam_log_loss_reaches_logistic_optimum(data):
    X, _, labels = data
    logit = LogisticRegression(penalty="l2", C=1.0 / (N * ALPHA)).fit(X, labels)
    sgd = SGDClassifier(
        loss="log_loss",
        alpha=ALPHA,
        step_rule="adam",
        batch_size=N,
        eta0=0.05,
        learning_rate="constant",
        max_iter=3000,
        tol=None,
    ).fit(X, labels)
    np.testing.assert_allclose(sgd.coef_, logit.coef_, rtol=0, atol=1e-6)
