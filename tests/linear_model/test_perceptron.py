"""Perceptron (Rosenblatt's update) and LeastSquaresClassifier (OLS on class indicators)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from statlearning._core.perceptron import perceptron_epochs
from statlearning.exceptions import ConvergenceWarning, RankDeficientWarning
from statlearning.linear_model import LeastSquaresClassifier, LinearRegression, Perceptron


@pytest.fixture(scope="module")
def separable():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 2))
    margin = X @ [1.0, -2.0] + 0.3
    keep = np.abs(margin) > 0.2
    return X[keep], np.where(margin[keep] > 0, "pos", "neg")


def test_update_rule_by_hand():
    # shuffle=False visits the rows in order; labels s = (−1, +1, +1)
    X = np.array([[1.0, 0.0], [0.0, 1.0], [2.0, 2.0]])
    s = np.array([-1.0, 1.0, 1.0])
    coef, b, epochs, separated = perceptron_epochs(X, s, np.zeros(2), 0.0, 0.5, 1, True, False, 0)
    # row 0: f = 0 ≤ 0 → w = −0.5·(1, 0), b = −0.5; row 1: f = −0.5 → w = (−0.5, 0.5), b = 0;
    # row 2: f = −1 + 1 + 0 = 0 → w = (0.5, 1.5), b = 0.5
    np.testing.assert_allclose(coef, [0.5, 1.5])
    assert b == 0.5 and epochs == 1 and not separated


def test_separable_data_are_separated(separable):
    X, y = separable
    clf = Perceptron(random_state=0).fit(X, y)
    assert clf.separated_ and clf.n_iter_ < clf.max_iter
    np.testing.assert_array_equal(clf.predict(X), y)
    assert list(clf.classes_) == ["neg", "pos"] and clf.coef_.shape == (1, 2)
    np.testing.assert_array_equal(clf.predict(X) == "pos", clf.decision_function(X) > 0)


def test_same_seed_same_fit_and_learning_rate_only_scales(separable):
    X, y = separable
    a = Perceptron(random_state=3).fit(X, y)
    b = Perceptron(random_state=3).fit(X, y)
    np.testing.assert_array_equal(a.coef_, b.coef_)
    c = Perceptron(random_state=3, learning_rate=0.25).fit(X, y)
    np.testing.assert_allclose(c.coef_, 0.25 * a.coef_)
    np.testing.assert_array_equal(c.predict(X), a.predict(X))


def test_non_separable_data_warn():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 1, 0, 1])
    with pytest.warns(ConvergenceWarning, match="not separated"):
        clf = Perceptron(max_iter=20, random_state=0).fit(X, y)
    assert clf.n_iter_ == 20 and not clf.separated_


def test_one_vs_rest_for_three_classes():
    rng = np.random.default_rng(1)
    centres = np.array([[0.0, 5.0], [5.0, -3.0], [-5.0, -3.0]])
    y = np.repeat([0, 1, 2], 30)
    X = centres[y] + rng.normal(scale=0.5, size=(90, 2))
    clf = Perceptron(random_state=0).fit(X, y)
    assert clf.coef_.shape == (3, 2) and clf.intercept_.shape == (3,)
    assert clf.decision_function(X).shape == (90, 3)
    np.testing.assert_array_equal(clf.predict(X), y)


def test_no_intercept_goes_through_the_origin(separable):
    X, y = separable
    clf = Perceptron(fit_intercept=False, random_state=0, max_iter=50)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf.fit(X, y)
    assert clf.intercept_[0] == 0.0


def test_perceptron_bad_input(separable):
    X, y = separable
    with pytest.raises(ValueError, match="learning_rate"):
        Perceptron(learning_rate=0.0).fit(X, y)
    with pytest.raises(ValueError, match="only one class"):
        Perceptron().fit(X, np.zeros(len(X)))


# ------------------------------------------------------------------- least-squares classifier


def test_least_squares_classifier_equals_linear_regression_on_indicators():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 3))
    y = rng.choice(["x", "y", "z"], size=60)
    w = rng.uniform(0.5, 2, 60)
    clf = LeastSquaresClassifier().fit(X, y, sample_weight=w)
    for c, label in enumerate(clf.classes_):
        ols = LinearRegression().fit(X, (y == label).astype(float), sample_weight=w)
        np.testing.assert_allclose(clf.coef_[c], ols.coef_, rtol=1e-10)
        assert clf.intercept_[c] == pytest.approx(ols.intercept_, rel=1e-10)
    scores = clf.decision_function(X)
    np.testing.assert_allclose(scores.sum(axis=1), 1.0)  # indicators sum to one
    np.testing.assert_array_equal(clf.predict(X), clf.classes_[scores.argmax(axis=1)])


def test_least_squares_threshold():
    t = np.array([36.5, 36.6, 36.8, 36.9, 37.0, 37.2, 37.5, 37.6, 39.5])[:, None]
    y = np.array([0, 0, 0, 1, 0, 1, 1, 1, 1])
    clf = LeastSquaresClassifier().fit(t, y)
    fitted = clf.decision_function(t) + 0.5
    np.testing.assert_array_equal(clf.predict(t), (fitted > 0.5).astype(int))
    strict = LeastSquaresClassifier(decision_threshold=0.6).fit(t, y)
    np.testing.assert_array_equal(strict.predict(t), (fitted > 0.6).astype(int))
    with pytest.raises(ValueError, match="two classes only"):
        LeastSquaresClassifier(decision_threshold=0.3).fit(t, np.arange(9) % 3)


def test_least_squares_aliased_column():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 2))
    X = np.column_stack([X, 2 * X[:, 0]])
    y = (X[:, 0] > 0).astype(int)
    with pytest.warns(RankDeficientWarning, match="x2"):
        clf = LeastSquaresClassifier().fit(X, y)
    assert np.isnan(clf.coef_[0, 2])
    assert np.all(np.isfinite(clf.decision_function(X)))


@pytest.mark.parametrize("estimator", [Perceptron(random_state=0), LeastSquaresClassifier()])
def test_no_training_data_stored(estimator):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(257, 3))
    y = (X[:, 0] + 0.1 * rng.normal(size=257) > 0).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        estimator.fit(X, y)
    for name, value in vars(estimator).items():
        if isinstance(value, np.ndarray):
            assert 257 not in value.shape, name


def test_least_squares_zero_label_is_welling_sign_of_zero():
    # Welling's LMS classifier predicts sign(wᵀx − α) with sign(0) = +1: a sample exactly on the
    # boundary goes to the positive class with zero_label="positive", to classes_[0] by default
    X = np.array([[-2.0], [2.0], [0.0], [0.0]])
    y = np.array(["neg", "pos", "neg", "pos"])
    strict = LeastSquaresClassifier().fit(X, y)
    welling = LeastSquaresClassifier(zero_label="positive").fit(X, y)
    assert strict.decision_function([[0.0]])[0] == 0.0
    assert strict.predict([[0.0], [1.0]]).tolist() == ["neg", "pos"]
    assert welling.predict([[0.0], [-1.0]]).tolist() == ["pos", "neg"]
