"""Naive Bayes decision threshold (seed 002, eq. 6.9–6.11: ``S₁ > S₀ + θ``) and the ROC curve
traced by sweeping it (seed 002 L359)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import special
from sklearn.metrics import roc_curve

from statlearning.linear_model import LogisticRegression
from statlearning.naive_bayes import BernoulliNB, CategoricalNB, GaussianNB, MixedNB, MultinomialNB


def _data(kind, n=80, seed=0):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, 3))
    y = np.where(z[:, 0] + 0.8 * rng.normal(size=n) > 0, "spam", "ham")
    if kind == "gaussian":
        return z, y
    if kind == "counts":
        return rng.poisson(np.exp(0.5 * z)), y
    if kind == "binary":
        return (z > 0).astype(float), y
    levels = np.digitize(z, [-0.5, 0.5]).astype(float)
    if kind == "categorical":
        return levels, y
    return np.column_stack([z[:, :2], levels[:, 2]]), y  # mixed


MODELS = [
    (GaussianNB, {}, "gaussian"),
    (GaussianNB, {"ddof": 1, "var_smoothing": 0.0}, "gaussian"),
    (MultinomialNB, {}, "counts"),
    (BernoulliNB, {}, "binary"),
    (CategoricalNB, {}, "categorical"),
    (MixedNB, {"categorical_features": [2]}, "mixed"),
]
IDS = [f"{cls.__name__}-{i}" for i, (cls, _, _) in enumerate(MODELS)]


@pytest.mark.parametrize(("cls", "params", "kind"), MODELS, ids=IDS)
def test_decision_function_is_log_posterior_odds(cls, params, kind):
    X, y = _data(kind)
    model = cls(**params).fit(X, y)
    d = model.decision_function(X)
    assert d.shape == (X.shape[0],)
    joint = model.predict_joint_log_proba(X)
    np.testing.assert_array_equal(d, joint[:, 1] - joint[:, 0])  # S₁ − S₀
    log_p = model.predict_log_proba(X)
    np.testing.assert_allclose(d, log_p[:, 1] - log_p[:, 0], rtol=1e-12, atol=1e-12)
    # θ = 0 (t = 1/2) is the maximum a posteriori rule
    half = cls(**params, decision_threshold=0.5).fit(X, y)
    np.testing.assert_array_equal(half.predict(X), model.predict(X))


@pytest.mark.parametrize(("cls", "params", "kind"), MODELS, ids=IDS)
def test_threshold_is_the_notes_rule(cls, params, kind):
    X, y = _data(kind)
    model = cls(**params).fit(X, y)
    joint = model.predict_joint_log_proba(X)
    for t in (0.1, 0.3, 0.5, 0.75, 0.95):
        theta = special.logit(t)
        rule = np.where(joint[:, 1] > joint[:, 0] + theta, model.classes_[1], model.classes_[0])
        got = model.set_params(decision_threshold=t).predict(X)
        np.testing.assert_array_equal(got, rule)
        # and on the posterior scale: classes_[1] exactly when P(classes_[1] | x) > t
        p1 = model.predict_proba(X)[:, 1]
        clear = np.abs(p1 - t) > 1e-12
        np.testing.assert_array_equal(got[clear], model.classes_[(p1[clear] > t).astype(int)])


@pytest.mark.parametrize(("cls", "params", "kind"), MODELS, ids=IDS)
def test_sweeping_theta_traces_roc_curve(cls, params, kind):
    """Every point of scikit-learn's ROC of ``decision_function`` is reached by some θ."""
    X, y = _data(kind)
    model = cls(**params).fit(X, y)
    score = model.decision_function(X)
    positive = y == model.classes_[1]
    fpr, tpr, thresholds = roc_curve(positive, score, drop_intermediate=False)
    distinct = np.unique(score)[::-1]
    np.testing.assert_array_equal(thresholds[1:], distinct)
    # roc_curve counts score ≥ s_i; the strict rule reaches it with θ just below s_i
    below = np.append(distinct[1:], distinct[-1] - 1.0)
    for i, (hi, lo) in enumerate(zip(distinct, below, strict=True)):
        theta = 0.5 * (hi + lo)
        t = special.expit(theta)
        assert lo < special.logit(t) < hi  # the round trip stays between the two scores
        pred = model.set_params(decision_threshold=t).predict(X) == model.classes_[1]
        assert pred[positive].mean() == tpr[i + 1]
        assert pred[~positive].mean() == fpr[i + 1]
    # θ = +∞ (t = 1) predicts no positive: roc_curve's first point (0, 0)
    none = model.set_params(decision_threshold=1.0).predict(X) == model.classes_[1]
    assert not none.any() and (fpr[0], tpr[0]) == (0.0, 0.0)
    # θ = −∞ (t = 0) predicts every sample positive: the last point (1, 1)
    every = model.set_params(decision_threshold=0.0).predict(X) == model.classes_[1]
    assert every.all() and (fpr[-1], tpr[-1]) == (1.0, 1.0)


def test_infinite_log_odds_under_alpha_zero():
    """With ``alpha=0`` a word never seen in a class makes that class impossible (±∞ odds):
    even θ = −∞ (t = 0) cannot predict an impossible class, and t = 1 never predicts the
    second class, whatever its odds."""
    X = np.array([[1, 0], [1, 1], [1, 0], [0, 1], [0, 0], [0, 1]], dtype=float)
    y = np.array([0, 0, 0, 1, 1, 1])
    model = BernoulliNB(alpha=0.0).fit(X, y)
    q = np.array([[1.0, 1.0], [0.0, 0.0]])  # x₁ = 1 never seen in class 1, x₁ = 0 never in 0
    d = model.decision_function(q)
    np.testing.assert_array_equal(d, [-np.inf, np.inf])
    np.testing.assert_array_equal(model.set_params(decision_threshold=0.0).predict(q), [0, 1])
    np.testing.assert_array_equal(model.set_params(decision_threshold=1.0).predict(q), [0, 0])


def test_zero_likelihood_under_both_classes_is_an_error():
    X = np.array([[1, 0], [1, 0], [0, 0], [0, 0]], dtype=float)
    model = BernoulliNB(alpha=0.0).fit(X, [0, 0, 1, 1])
    with pytest.raises(ValueError, match=r"zero likelihood under every class"):
        model.decision_function([[0.0, 1.0]])  # feature 2 never 1 in either class


def test_multiclass_decision_function_and_threshold_refusal():
    X, _ = _data("gaussian")
    y3 = np.digitize(X[:, 0], [-0.4, 0.4])
    model = GaussianNB().fit(X, y3)
    np.testing.assert_array_equal(model.decision_function(X), model.predict_joint_log_proba(X))
    for cls, kind in ((GaussianNB, "gaussian"), (MultinomialNB, "counts"), (MixedNB, "mixed")):
        Xk, _ = _data(kind)
        with pytest.raises(ValueError, match="Only binary classification is supported"):
            cls(decision_threshold=0.3).fit(Xk, y3)


@pytest.mark.parametrize("bad", [-0.1, 1.5, np.nan, "high"])
def test_bad_threshold_names_the_parameter(bad):
    X, y = _data("gaussian")
    with pytest.raises((ValueError, TypeError), match="decision_threshold"):
        GaussianNB(decision_threshold=bad).fit(X, y)


def test_multi_class_tag_follows_the_threshold():
    from sklearn.utils import get_tags

    for cls in (GaussianNB, BernoulliNB, MultinomialNB, CategoricalNB, MixedNB):
        assert get_tags(cls()).classifier_tags.multi_class
        assert not get_tags(cls(decision_threshold=0.2)).classifier_tags.multi_class


def test_same_rule_as_logistic_regression():
    """The threshold means the same in every classifier that has one: on equal log odds,
    GaussianNB and LogisticRegression predict the same classes."""
    X, y = _data("gaussian")
    nb = GaussianNB(decision_threshold=0.7).fit(X, y)
    lr = LogisticRegression(decision_threshold=0.7).fit(X, y)
    for model in (nb, lr):
        cut = special.logit(0.7)
        expect = model.classes_[(model.decision_function(X) > cut).astype(int)]
        np.testing.assert_array_equal(model.predict(X), expect)
