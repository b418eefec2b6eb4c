"""Naive Bayes: the lecture notes' examples, scikit-learn as an oracle, zero probabilities,
missing values and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import naive_bayes as sk

from statlearning.datasets import load_biopsy, load_iris
from statlearning.exceptions import NumericalWarning
from statlearning.naive_bayes import (
    BernoulliNB,
    CategoricalNB,
    GaussianNB,
    MixedNB,
    MultinomialNB,
)

RTOL = 1e-8


def _blobs(n=300, p=4, K=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, K, n)
    X = rng.normal(size=(n, p)) + 1.5 * y[:, None] * rng.normal(size=p)
    return X, y


# --- seed 001, Exercise 2.3.1: Bernoulli naive Bayes by maximum likelihood ----------------------

X_BER = np.array([[1, 0, 1], [1, 1, 1], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 1, 1]], float)
Y_BER = np.array([0, 0, 0, 1, 1, 1])


def test_seed001_bernoulli_ml_estimates_are_class_frequencies():
    model = BernoulliNB(alpha=0.0).fit(X_BER, Y_BER)
    p = np.exp(model.feature_log_prob_)
    np.testing.assert_allclose(p, [[1, 1 / 3, 2 / 3], [1 / 3, 1, 1 / 3]], rtol=1e-15)
    np.testing.assert_allclose(np.exp(model.class_log_prior_), [0.5, 0.5])


def test_seed001_bernoulli_rule_is_the_notes_formula():
    """h(x) = argmax_c Σ_k [x_k log p_k^c + (1 − x_k) log(1 − p_k^c)] + log(n_c/n)."""
    model = BernoulliNB(alpha=0.0).fit(X_BER, Y_BER)
    x = np.array([[1.0, 1.0, 0.0]])
    by_hand = [
        np.log(1.0) + np.log(1 / 3) + np.log(1 / 3) + np.log(0.5),
        np.log(1 / 3) + np.log(1.0) + np.log(2 / 3) + np.log(0.5),
    ]
    np.testing.assert_allclose(model.predict_joint_log_proba(x)[0], by_hand, rtol=1e-14)
    assert model.predict(x)[0] == 1
    # p = 1 makes x_k = 0 impossible for that class: posterior exactly 0, no NaN
    proba = model.predict_proba([[0.0, 1.0, 1.0]])
    np.testing.assert_array_equal(proba, [[0.0, 1.0]])
    assert model.predict_joint_log_proba([[0.0, 1.0, 1.0]])[0, 0] == -np.inf


def test_sample_impossible_under_every_class_raises_instead_of_nan():
    model = BernoulliNB(alpha=0.0).fit(X_BER, Y_BER)
    x = [[0.0, 0.0, 1.0]]  # x_1 = 0 impossible in class 0, x_2 = 0 impossible in class 1
    np.testing.assert_array_equal(model.predict_joint_log_proba(x), [[-np.inf, -np.inf]])
    for method in (model.predict, model.predict_proba, model.predict_log_proba):
        with pytest.raises(ValueError, match=r"rows 0\) have zero likelihood under every class"):
            method(x)
    # any smoothing removes the problem
    assert np.all(np.isfinite(BernoulliNB(alpha=1e-3).fit(X_BER, Y_BER).predict_proba(x)))


def test_bernoulli_binarize_none_requires_binary_input():
    with pytest.raises(ValueError, match=r"binarize=None.*'x1' has value 2"):
        BernoulliNB(binarize=None).fit([[0, 2], [1, 0]], [0, 1])


# --- scikit-learn as an oracle where the conventions coincide -----------------------------------


@pytest.mark.parametrize("weighted", [False, True])
def test_gaussian_matches_sklearn(weighted):
    X, y = _blobs()
    w = np.random.default_rng(1).uniform(0.2, 3.0, y.size) if weighted else None
    ours = GaussianNB().fit(X, y, sample_weight=w)
    ref = sk.GaussianNB().fit(X, y, sample_weight=w)
    np.testing.assert_allclose(ours.theta_, ref.theta_, rtol=RTOL)
    np.testing.assert_allclose(ours.var_, ref.var_, rtol=RTOL)
    np.testing.assert_allclose(ours.class_prior_, ref.class_prior_, rtol=RTOL)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), rtol=RTOL, atol=1e-14)
    np.testing.assert_allclose(
        ours.predict_joint_log_proba(X), ref.predict_joint_log_proba(X), rtol=RTOL
    )


def test_gaussian_iris_matches_sklearn_with_priors():
    X, y = load_iris(return_X_y=True)
    ours = GaussianNB(priors=[0.2, 0.3, 0.5]).fit(X, y)
    ref = sk.GaussianNB(priors=[0.2, 0.3, 0.5]).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), rtol=RTOL, atol=1e-14)
    np.testing.assert_allclose(ours.epsilon_, ref.epsilon_, rtol=1e-12)


def test_gaussian_ddof1_is_the_unbiased_class_variance():
    X, y = _blobs(n=60)
    model = GaussianNB(ddof=1, var_smoothing=0.0).fit(X, y)
    for k in range(3):
        np.testing.assert_allclose(model.var_[k], X[y == k].var(axis=0, ddof=1), rtol=1e-12)


@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_bernoulli_matches_sklearn(alpha):
    X, y = _blobs()
    ours = BernoulliNB(alpha=alpha, binarize=0.3).fit(X, y)
    ref = sk.BernoulliNB(alpha=alpha, binarize=0.3, force_alpha=True).fit(X, y)
    np.testing.assert_allclose(ours.feature_log_prob_, ref.feature_log_prob_, rtol=RTOL)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), rtol=RTOL, atol=1e-14)


@pytest.mark.parametrize("alpha", [1.0, 0.5])
def test_multinomial_matches_sklearn(alpha):
    rng = np.random.default_rng(2)
    y = rng.integers(0, 3, 200)
    X = rng.poisson(1.0 + y[:, None] * np.array([0.5, 2.0, 0.0, 1.0]))
    ours = MultinomialNB(alpha=alpha).fit(X, y)
    ref = sk.MultinomialNB(alpha=alpha, force_alpha=True).fit(X, y)
    np.testing.assert_allclose(ours.feature_log_prob_, ref.feature_log_prob_, rtol=RTOL)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), rtol=RTOL, atol=1e-14)


@pytest.mark.parametrize("alpha", [1.0, 0.3])
def test_categorical_matches_sklearn_when_levels_are_0_to_max(alpha):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    X = np.column_stack([rng.integers(0, 4, 300), (rng.integers(0, 3, 300) + y) % 3])
    ours = CategoricalNB(alpha=alpha, min_categories=[5, 3]).fit(X, y)
    ref = sk.CategoricalNB(alpha=alpha, min_categories=[5, 3], force_alpha=True).fit(X, y)
    for j in range(2):
        np.testing.assert_allclose(
            ours.feature_log_prob_[j], ref.feature_log_prob_[j][:, : ours.categories_[j].size],
            rtol=RTOL,
        )
    np.testing.assert_array_equal(ours.n_categories_, ref.n_categories_)
    np.testing.assert_allclose(ours.predict_proba(X), ref.predict_proba(X), rtol=RTOL, atol=1e-14)


# --- zero probabilities with alpha = 0 -----------------------------------------------------------


def test_multinomial_alpha0_zero_count_gives_posterior_zero_exactly():
    X = np.array([[2, 0, 1], [3, 0, 0], [0, 4, 1], [1, 3, 0]], float)
    y = ["a", "a", "b", "b"]
    model = MultinomialNB(alpha=0.0).fit(X, y)
    assert model.feature_log_prob_[0, 1] == -np.inf  # word 2 never occurs in class a
    proba = model.predict_proba([[1, 1, 0], [0, 0, 1]])
    assert not np.isnan(proba).any()
    np.testing.assert_array_equal(proba[0], [0.0, 1.0])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


# --- seed 004 E35: the tumour example ------------------------------------------------------------

CASE = np.array([[3, 1, 1, 1, 2, 2, 3, 1, 1]], float)  # Figure 34
# Counts implied by Figure 35: every percentage is a multiple of 1/376 (benign) or 1/183
# (malignant) -- the notes trained on an 80% split of 559 rows (seed-notes E35).
BENIGN = [81, 313, 295, 308, 295, 16, 103, 331, 367]
MALIGNANT = [9, 3, 2, 23, 18, 8, 30, 27, 93]
MISSING_BN = {"benign": 9, "malignant": 1}  # BN columns sum to 97.6% and 99.6%


def _figure35_training_set():
    """A training set with exactly the Figure 35 counts for the undiagnosed case's scores."""
    blocks, labels = [], []
    for label, n, counts in (("benign", 376, BENIGN), ("malignant", 183, MALIGNANT)):
        X = np.full((n, 9), 10.0)  # a score not in the case
        for j, c in enumerate(counts):
            X[:c, j] = CASE[0, j]
        X[n - MISSING_BN[label] :, 5] = np.nan  # missing Bare Nuclei, kept in the total
        blocks.append(X)
        labels += [label] * n
    return np.vstack(blocks), np.array(labels)


def test_seed004_e35_reproduces_figure36_from_the_figure35_counts():
    X, y = _figure35_training_set()
    model = CategoricalNB(alpha=0.0, missing="count").fit(X, y)
    np.testing.assert_allclose(np.exp(model.class_log_prior_), [0.673, 0.327], atol=5e-4)
    likelihood = np.exp(model.predict_log_likelihood(CASE))[0]
    np.testing.assert_allclose(likelihood, [9.06e-4, 5.85e-11], rtol=6e-3)  # printed 3 digits
    joint = model.predict_joint_proba(CASE)[0]
    np.testing.assert_allclose(joint, [6.09e-4, 1.92e-11], rtol=6e-3)
    assert joint[1] / joint[0] == pytest.approx(3.15e-8, rel=2e-3)
    assert model.predict(CASE)[0] == "benign"
    # with the default (missing values out of the denominator) Bare Nuclei's share changes
    default = CategoricalNB(alpha=0.0).fit(X, y)
    ratio = np.exp(default.predict_log_likelihood(CASE) - model.predict_log_likelihood(CASE))
    np.testing.assert_allclose(ratio[0], [376 / 367, 183 / 182], rtol=1e-12)


def test_seed004_e35_full_biopsy_tables_match_a_hand_count():
    X, y = load_biopsy(return_X_y=True)  # all 699 rows, 16 missing Bare Nuclei (V6)
    model = CategoricalNB(alpha=0.0).fit(X, y)
    assert list(model.classes_) == ["benign", "malignant"]
    np.testing.assert_array_equal(model.class_count_, [458, 241])
    joint = 1.0
    for k, label in enumerate(model.classes_):
        rows = X[y == label]
        like = 1.0
        for j in range(9):
            col = rows[:, j][~np.isnan(rows[:, j])]
            levels = list(model.categories_[j])
            for level in levels:
                assert model.category_count_[j][k, levels.index(level)] == np.sum(col == level)
            like *= np.sum(col == CASE[0, j]) / col.size
        joint = like * rows.shape[0] / X.shape[0]
        assert model.predict_joint_proba(CASE)[0, k] == pytest.approx(joint, rel=1e-12)
    assert model.predict(CASE)[0] == "benign"


# --- missing values and unseen levels ------------------------------------------------------------


def test_unseen_level_warns_by_default_and_errors_or_is_ignored_on_request():
    X = np.array([[1, 1], [2, 1], [1, 2], [2, 2]], float)
    y = [0, 0, 1, 1]
    new = np.array([[7.0, 1.0]])
    as_missing = CategoricalNB().fit(X, y).predict_proba([[np.nan, 1.0]])
    with pytest.warns(UserWarning, match=r"were skipped.*feature 'x0': level 7\)"):
        np.testing.assert_allclose(CategoricalNB().fit(X, y).predict_proba(new), as_missing)
    with pytest.raises(ValueError, match=r"levels unseen at fit time \(feature 'x0': level 7\)"):
        CategoricalNB(handle_unknown="error").fit(X, y).predict(new)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        CategoricalNB(handle_unknown="ignore").fit(X, y).predict(new)
    with pytest.raises(ValueError, match=r"unseen at fit time \(feature 'x1': level 5\)"):
        MixedNB(categorical_features=[1], handle_unknown="error").fit(X, y).predict([[1, 5]])


def test_gaussian_columns_of_mixed_skip_missing_values():
    X, y = _blobs(n=80, p=3)
    Xm = X.copy()
    Xm[[3, 10, 40], 1] = np.nan
    model = MixedNB(ddof=1).fit(Xm, y)
    for k in range(3):
        col = Xm[y == k, 1]
        assert model.theta_[k, 1] == pytest.approx(np.nanmean(col), rel=1e-13)
        assert model.var_[k, 1] == pytest.approx(np.nanvar(col, ddof=1) + model.epsilon_, rel=1e-12)
    # a missing feature contributes nothing at prediction
    from scipy.stats import norm

    row = Xm[3]
    expected = [
        sum(norm.logpdf(row[j], model.theta_[k, j], np.sqrt(model.var_[k, j])) for j in (0, 2))
        for k in range(3)
    ]
    np.testing.assert_allclose(model.predict_log_likelihood(Xm[[3]])[0], expected, rtol=1e-12)


def test_mixed_without_categorical_features_is_gaussian_nb():
    X, y = _blobs()
    a = MixedNB(ddof=1).fit(X, y)
    b = GaussianNB(ddof=1).fit(X, y)
    np.testing.assert_allclose(a.predict_joint_log_proba(X), b.predict_joint_log_proba(X))


def test_mixed_all_categorical_is_categorical_nb():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 3, size=(100, 3)).astype(float)
    y = rng.integers(0, 2, 100)
    a = MixedNB(categorical_features=[True, True, True], alpha=0.5).fit(X, y)
    b = CategoricalNB(alpha=0.5).fit(X, y)
    np.testing.assert_allclose(a.predict_joint_log_proba(X), b.predict_joint_log_proba(X))


def test_joint_proba_is_prior_times_likelihood():
    X, y = _blobs()
    model = GaussianNB(priors=[0.5, 0.25, 0.25]).fit(X, y)
    np.testing.assert_allclose(
        model.predict_joint_proba(X[:5]),
        np.exp(model.predict_log_likelihood(X[:5])) * model.class_prior_,
        rtol=1e-12,
    )


# --- weights -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "model",
    [GaussianNB(ddof=1), CategoricalNB(alpha=0.5), MixedNB(categorical_features=[0], ddof=1)],
    ids=["gaussian", "categorical", "mixed"],
)
def test_integer_weights_equal_repeated_rows(model):
    rng = np.random.default_rng(5)
    X = np.column_stack([rng.integers(0, 4, 40), rng.normal(size=40)]).astype(float)
    y = rng.integers(0, 2, 40)
    w = rng.integers(0, 4, 40)
    keep = np.repeat(np.arange(40), w)
    a = model.fit(X, y, sample_weight=w).predict_joint_log_proba(X[w > 0])
    b = model.fit(X[keep], y[keep]).predict_joint_log_proba(X[w > 0])
    np.testing.assert_allclose(a, b, rtol=1e-10)


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [GaussianNB, BernoulliNB, MultinomialNB, CategoricalNB, MixedNB])
def test_single_class_is_an_error(cls):
    with pytest.raises(ValueError, match=r"1 class \(only 'a'\).*at least 2 classes"):
        cls().fit([[1.0, 2.0], [2.0, 1.0]], ["a", "a"])


def test_continuous_target_is_rejected():
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        GaussianNB().fit([[1.0], [2.0], [3.0]], [0.5, 1.5, 0.5])


def test_zero_variance_feature_with_var_smoothing_0_is_a_clear_error():
    X = np.array([[1.0, 0.3], [1.0, 0.7], [2.0, 0.1], [3.0, 0.9]])
    y = [0, 0, 1, 1]
    with pytest.raises(ValueError, match=r"feature 'x0' is constant within class 0.*var_smoothing"):
        GaussianNB(var_smoothing=0.0).fit(X, y)
    model = GaussianNB().fit(X, y)  # the default smoothing makes the variance positive
    assert model.var_[0, 0] == pytest.approx(model.epsilon_) and model.epsilon_ > 0
    assert np.all(np.isfinite(model.predict_proba(X)))


def test_class_with_one_sample_and_ddof1_warns_and_uses_epsilon():
    X = np.array([[0.0], [1.0], [5.0]])
    with pytest.warns(NumericalWarning, match="too few for a variance with ddof=1"):
        model = GaussianNB(ddof=1).fit(X, [0, 0, 1])
    assert model.var_[1, 0] == model.epsilon_


@pytest.mark.parametrize(
    ("priors", "match"),
    [
        ([0.5, 0.5, 0.0], "has 3 entries but y has 2 classes"),
        ([1.5, -0.5], "non-negative"),
        ([0.4, 0.4], "must sum to 1"),
    ],
)
def test_bad_priors(priors, match):
    X, y = _blobs(K=2)
    with pytest.raises(ValueError, match=match):
        GaussianNB(priors=priors).fit(X, y)
    with pytest.raises(ValueError, match=match):
        MultinomialNB(priors=priors).fit(np.abs(X), y)
    with (
        pytest.warns(FutureWarning, match="'class_prior' was renamed to 'priors'"),
        pytest.raises(ValueError, match=match.replace("priors", "class_prior")),
    ):
        MultinomialNB(class_prior=priors).fit(np.abs(X), y)


@pytest.mark.parametrize("Model", [BernoulliNB, MultinomialNB, CategoricalNB])
def test_class_prior_is_a_deprecated_alias_of_priors(Model):
    X = np.array([[1, 0, 2], [1, 1, 0], [0, 1, 1], [0, 0, 2], [1, 1, 1], [0, 0, 0]])
    y = [0, 0, 1, 1, 1, 0]
    prior = [0.3, 0.7]
    new = Model(priors=prior).fit(X, y)
    with pytest.warns(FutureWarning, match=f"{Model.__name__}: parameter 'class_prior' was"):
        old = Model(class_prior=prior).fit(X, y)
    np.testing.assert_allclose(new.class_log_prior_, np.log(prior), rtol=1e-15)
    np.testing.assert_array_equal(old.class_log_prior_, new.class_log_prior_)
    np.testing.assert_array_equal(old.predict_proba(X), new.predict_proba(X))
    assert Model().fit(X, y).class_log_prior_ != pytest.approx(np.log(prior))
    with pytest.raises(ValueError, match="set only priors="):
        Model(priors=prior, class_prior=np.array([0.5, 0.5])).fit(X, y)
    with pytest.warns(FutureWarning):  # both names, the same value: accepted
        same = Model(priors=prior, class_prior=np.array(prior)).fit(X, y)
    np.testing.assert_array_equal(same.class_log_prior_, new.class_log_prior_)


def test_negative_counts_and_zero_weight_class_and_alpha0_unobserved_feature():
    with pytest.raises(ValueError, match="Negative values in data passed to X"):
        MultinomialNB().fit([[1.0, -1.0], [0.0, 2.0]], [0, 1])
    with pytest.raises(ValueError, match="class 1 has zero total sample_weight"):
        GaussianNB().fit([[0.0], [1.0], [2.0]], [0, 0, 1], sample_weight=[1, 1, 0])
    X = np.array([[1.0, np.nan], [2.0, np.nan], [1.0, 3.0], [2.0, 4.0]])
    with pytest.raises(ValueError, match="feature 'x1' is never observed in class 0"):
        CategoricalNB(alpha=0.0).fit(X, [0, 0, 1, 1])
    CategoricalNB(alpha=1.0).fit(X, [0, 0, 1, 1])  # smoothing makes it uniform


def test_bad_categorical_features_and_min_categories():
    X, y = _blobs(p=3)
    with pytest.raises(ValueError, match="index out of range for X with 3 columns"):
        MixedNB(categorical_features=[3]).fit(X, y)
    with pytest.raises(ValueError, match="names column 'b', not in X"):
        MixedNB(categorical_features=["b"]).fit(X, y)
    with pytest.raises(ValueError, match="boolean categorical_features has 2 entries"):
        MixedNB(categorical_features=[True, False]).fit(X, y)
    with pytest.raises(ValueError, match="min_categories must be a positive int or an array"):
        CategoricalNB(min_categories=[2, 2]).fit(np.round(X), y)


def test_string_labels_and_nan_in_gaussian_nb_is_rejected():
    X, y = _blobs()
    labels = np.array(["low", "mid", "high"])[y]
    model = GaussianNB().fit(X, labels)
    assert set(model.predict(X)) <= set(labels)
    assert list(model.classes_) == ["high", "low", "mid"]
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        GaussianNB().fit(X, y)


@pytest.mark.parametrize("Model", [GaussianNB, MixedNB])
def test_n_jobs_sets_numba_threads_during_prediction_only(Model, monkeypatch):
    import numba

    from statlearning.naive_bayes import _gaussian

    X, y = _blobs(K=3)
    seen = []
    module = _gaussian  # both models' Gaussian part
    kernel = module.gaussian_log_likelihood

    def spy(*args):
        seen.append(numba.get_num_threads())
        return kernel(*args)

    monkeypatch.setattr(module, "gaussian_log_likelihood", spy)
    before = numba.get_num_threads()
    ref = Model().fit(X, y)
    one = Model(n_jobs=1).fit(X, y)
    np.testing.assert_array_equal(one.predict_proba(X), ref.predict_proba(X))
    assert seen == [1, before]
    assert numba.get_num_threads() == before
    with pytest.raises(ValueError, match="'n_jobs' must be None or a non-zero int"):
        Model(n_jobs=0).fit(X, y)
