"""AdaBoostClassifier (SAMME) against scikit-learn's SAMME with stumps, and its contract."""

import numpy as np
import pytest
from sklearn import ensemble as sk_ensemble
from sklearn import tree as sk_tree
from sklearn.utils.estimator_checks import parametrize_with_checks

from statlearning.ensemble._weight_boosting import AdaBoostClassifier
from statlearning.tree import DecisionTreeClassifier


def _data(K, seed=1, n=200):
    """Continuous features stored exactly in float32 (scikit-learn's trees use float32)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3)).astype(np.float32).astype(np.float64)
    score = X[:, 0] + X[:, 1] ** 2 + 0.5 * rng.standard_normal(n)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, K + 1)[1:-1]))
    return X, y


@pytest.mark.parametrize("K", [2, 3, 4])
@pytest.mark.parametrize("learning_rate", [1.0, 0.5])
def test_matches_sklearn_samme(K, learning_rate):
    X, y = _data(K)
    Xt, _ = _data(K, seed=2)
    ours = AdaBoostClassifier(n_estimators=40, learning_rate=learning_rate).fit(X, y)
    ref = sk_ensemble.AdaBoostClassifier(
        n_estimators=40, learning_rate=learning_rate, random_state=0
    ).fit(X, y)
    assert len(ours.estimators_) == len(ref.estimators_) == 40
    np.testing.assert_allclose(ours.estimator_weights_, ref.estimator_weights_, rtol=1e-10)
    np.testing.assert_allclose(ours.estimator_errors_, ref.estimator_errors_, rtol=1e-10)
    for ZZ in (X, Xt):
        np.testing.assert_allclose(ours.decision_function(ZZ), ref.decision_function(ZZ),
                                   atol=1e-10)
        np.testing.assert_allclose(ours.predict_proba(ZZ), ref.predict_proba(ZZ), atol=1e-10)
        np.testing.assert_array_equal(ours.predict(ZZ), ref.predict(ZZ))
    for a, b in zip(ours.staged_predict_proba(Xt), ref.staged_predict_proba(Xt), strict=True):
        np.testing.assert_allclose(a, b, atol=1e-10)
    for a, b in zip(ours.staged_predict(Xt), ref.staged_predict(Xt), strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(ours.feature_importances_, ref.feature_importances_, atol=1e-10)


@pytest.mark.parametrize("K", [2, 3])
def test_compiled_votes_equal_the_per_learner_votes(K):
    X, y = _data(K)
    Xt, _ = _data(K, seed=2)
    ours = AdaBoostClassifier(n_estimators=30, estimator=DecisionTreeClassifier(max_depth=2))
    ours.fit(X, y)
    ref = sk_ensemble.AdaBoostClassifier(
        n_estimators=30, estimator=sk_tree.DecisionTreeClassifier(max_depth=2), random_state=0
    ).fit(X, y)
    *_, staged = ours.staged_decision_function(Xt)  # one learner at a time
    np.testing.assert_array_equal(ours.decision_function(Xt), staged)
    # the same trees give scikit-learn's sums to the last bit
    np.testing.assert_array_equal(ours.decision_function(Xt), ref.decision_function(Xt))


def test_sample_weight_matches_sklearn():
    X, y = _data(3, seed=4)
    w = np.random.default_rng(0).uniform(0.2, 3.0, size=y.size)
    ours = AdaBoostClassifier(n_estimators=20).fit(X, y, sample_weight=w)
    ref = sk_ensemble.AdaBoostClassifier(n_estimators=20, random_state=0).fit(
        X, y, sample_weight=w)
    np.testing.assert_allclose(ours.estimator_weights_, ref.estimator_weights_, rtol=1e-10)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), atol=1e-10)


def test_binary_weights_are_adaboost_m1():
    """K = 2: alpha = log((1 - err)/err) and the error of round 1 is the stump's error."""
    X, y = _data(2)
    ada = AdaBoostClassifier(n_estimators=5).fit(X, y)
    err = ada.estimator_errors_
    np.testing.assert_allclose(ada.estimator_weights_, np.log((1 - err) / err), rtol=1e-12)
    stump = DecisionTreeClassifier(max_depth=1).fit(X, y)
    assert err[0] == pytest.approx(np.mean(stump.predict(X) != y))


def test_perfect_fit_stops_early():
    X = np.arange(20, dtype=float).reshape(-1, 1)
    y = np.where(X[:, 0] < 7.5, "a", "b")
    ada = AdaBoostClassifier(n_estimators=10).fit(X, y)
    ref = sk_ensemble.AdaBoostClassifier(n_estimators=10).fit(X, y)
    assert len(ada.estimators_) == len(ref.estimators_) == 1
    np.testing.assert_array_equal(ada.estimator_weights_, ref.estimator_weights_)
    np.testing.assert_array_equal(ada.estimator_errors_, ref.estimator_errors_)
    np.testing.assert_array_equal(ada.predict(X), y)
    np.testing.assert_allclose(ada.predict_proba(X), ref.predict_proba(X), atol=1e-12)


def test_worse_than_random_first_learner_raises():
    X = np.zeros((40, 1))
    y = np.tile([0, 1], 20)
    with pytest.raises(ValueError, match="no better than chance"):
        AdaBoostClassifier().fit(X, y)


def test_staged_and_labels():
    X, y = _data(3)
    labels = np.array(["low", "mid", "high"])[y]
    ada = AdaBoostClassifier(n_estimators=15).fit(X, labels)
    staged = list(ada.staged_predict(X))
    assert len(staged) == 15
    np.testing.assert_array_equal(staged[-1], ada.predict(X))
    assert set(ada.predict(X)) <= set(labels)
    np.testing.assert_allclose(ada.predict_proba(X).sum(axis=1), 1.0)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_non_finite_X(bad):
    X, y = _data(2)
    X[3, 1] = bad
    with pytest.raises(ValueError, match=r"NaN|infinity"):
        AdaBoostClassifier().fit(X, y)


def test_single_class_and_parameters():
    X, _ = _data(2)
    with pytest.raises(ValueError, match="class"):
        AdaBoostClassifier().fit(X, np.ones(X.shape[0]))
    for params in ({"learning_rate": 0.0}, {"learning_rate": -1.0}, {"n_estimators": 0}):
        with pytest.raises(ValueError, match=next(iter(params))):
            AdaBoostClassifier(**params).fit(X, np.arange(X.shape[0]) % 2)


@parametrize_with_checks(
    [AdaBoostClassifier(n_estimators=10),
     AdaBoostClassifier(DecisionTreeClassifier(max_depth=2), n_estimators=5,
                        learning_rate=0.5)],
    legacy=True,
)
def test_sklearn_compatible(estimator, check):
    check(estimator)
