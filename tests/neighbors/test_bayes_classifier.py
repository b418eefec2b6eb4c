"""Tests of BayesClassifier: posteriors and decisions against closed forms, the Bayes error
rate by integration and by Monte Carlo, the Gaussian plug-in, and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.special import expit
from scipy.stats import multivariate_normal, norm, uniform
from sklearn.discriminant_analysis import QuadraticDiscriminantAnalysis

from statlearning.exceptions import InvalidParameterError, NumericalWarning
from statlearning.neighbors import BayesClassifier, BayesErrorRate

X1 = np.array([[-1.0], [0.0], [2.0], [3.0]])
Y1 = np.array([0, 0, 1, 1])


def two_normals(priors=(0.5, 0.5)):
    return BayesClassifier([norm(0, 1), norm(2, 1)], priors=list(priors)).fit(X1, Y1)


def test_posterior_and_decision_match_the_closed_form():
    bayes = two_normals()
    x = np.linspace(-3, 5, 41)[:, None]
    # log f1 - log f0 = 2x - 2, so P(Y=1|x) = expit(2x - 2); the boundary is x = 1
    assert_allclose(bayes.predict_proba(x)[:, 1], expit(2 * x[:, 0] - 2), rtol=1e-12)
    assert_array_equal(bayes.predict(x), (x[:, 0] > 1).astype(int))
    assert bayes.predict([[1.0]])[0] == 0  # exact tie: the first class
    assert_allclose(np.exp(bayes.predict_log_proba(x)).sum(axis=1), 1.0)


def test_fit_records_classes_and_learns_nothing_from_given_densities():
    bayes = BayesClassifier([norm(0, 1), norm(2, 1)], priors=[0.5, 0.5])
    a = bayes.fit(X1, Y1).predict_proba([[0.3]])
    b = bayes.fit(X1[::-1] + 100.0, Y1[::-1]).predict_proba([[0.3]])
    assert_array_equal(a, b)
    assert_array_equal(bayes.classes_, [0, 1])
    # priors=None: the class proportions of y
    assert_allclose(
        BayesClassifier([norm(0, 1), norm(2, 1)]).fit(X1, [0, 1, 1, 1]).priors_, [0.25, 0.75]
    )


def test_densities_follow_the_sorted_labels():
    bayes = BayesClassifier([norm(0, 1), norm(2, 1)], priors=[0.5, 0.5])
    bayes.fit(X1, np.array(["low", "low", "up", "up"])[::-1])
    assert_array_equal(bayes.classes_, ["low", "up"])
    assert_array_equal(bayes.predict([[-1.0], [3.0]]), ["low", "up"])


@pytest.mark.parametrize("priors", [(0.5, 0.5), (0.7, 0.3)])
def test_bayes_error_rate_one_dimension(priors):
    bayes = two_normals(priors)
    pi0, pi1 = priors
    x_star = 1 + np.log(pi0 / pi1) / 2  # boundary: pi0 phi(x) = pi1 phi(x - 2)
    exact = pi0 * norm.sf(x_star) + pi1 * norm.cdf(x_star - 2)
    res = bayes.bayes_error_rate()
    assert isinstance(res, BayesErrorRate) and res.method == "integrate"
    assert abs(res.rate - exact) <= res.std_error < 1e-5  # the bound is honest and small
    mc = bayes.bayes_error_rate("monte_carlo", n_samples=50_000, random_state=0)
    assert mc.method == "monte_carlo"
    assert abs(mc.rate - exact) < 4 * mc.std_error
    assert mc == bayes.bayes_error_rate("monte_carlo", n_samples=50_000, random_state=0)


def test_bayes_error_rate_two_and_three_dimensions():
    """Equal-covariance Gaussians, equal priors: the error is Φ(−Δ/2) (Δ: Mahalanobis)."""
    S = np.array([[1.0, 0.3], [0.3, 0.5]])
    m0, m1 = np.zeros(2), np.array([1.0, 0.5])
    delta = np.sqrt((m1 - m0) @ np.linalg.solve(S, m1 - m0))
    bayes = BayesClassifier([multivariate_normal(m0, S), multivariate_normal(m1, S)], [0.5, 0.5])
    bayes.fit(np.vstack([m0, m1]), [0, 1])
    res = bayes.bayes_error_rate()
    assert abs(res.rate - norm.cdf(-delta / 2)) <= res.std_error < 1e-5
    S3 = np.diag([1.0, 2.0, 0.5])
    m3 = np.array([1.0, -1.0, 0.5])
    delta3 = np.sqrt(m3 @ np.linalg.solve(S3, m3))
    bayes3 = BayesClassifier(
        [multivariate_normal(np.zeros(3), S3), multivariate_normal(m3, S3)], [0.5, 0.5]
    ).fit(np.vstack([np.zeros(3), m3]), [0, 1])
    mc = bayes3.bayes_error_rate(n_samples=40_000, random_state=1)  # auto: Monte Carlo
    assert mc.method == "monte_carlo"
    assert abs(mc.rate - norm.cdf(-delta3 / 2)) < 4 * mc.std_error


def test_callable_densities_and_uniform_monte_carlo():
    dens = [lambda X: norm.pdf(X[:, 0]), lambda X: norm.pdf(X[:, 0], loc=2)]
    bayes = BayesClassifier(dens, priors=[0.5, 0.5]).fit(X1, Y1)
    assert_allclose(bayes.predict_proba([[0.5]]), two_normals().predict_proba([[0.5]]))
    exact = norm.cdf(-1.0)
    res = bayes.bayes_error_rate()
    assert abs(res.rate - exact) <= res.std_error < 1e-5
    with pytest.raises(ValueError, match="bounds"):
        bayes.bayes_error_rate("monte_carlo")
    mc = bayes.bayes_error_rate("monte_carlo", bounds=[(-9, 11)], n_samples=60_000, random_state=2)
    assert abs(mc.rate - exact) < 4 * mc.std_error


def test_integration_box_that_misses_mass_is_reported():
    bayes = two_normals()
    with pytest.warns(NumericalWarning, match="integrate to"):
        res = bayes.bayes_error_rate(bounds=[(-1, 3)])
    assert res.std_error > 0.1  # the missing mass (about 0.16) is part of the bound


def test_zero_density_everywhere_falls_back_to_the_priors():
    bayes = BayesClassifier([uniform(0, 1), uniform(2, 1)], priors=[0.3, 0.7])
    bayes.fit([[0.5], [2.5]], [0, 1])
    with pytest.warns(NumericalWarning, match="every class density is 0"):
        proba = bayes.predict_proba([[1.5], [0.5]])
    assert_allclose(proba, [[0.3, 0.7], [1.0, 0.0]])
    with pytest.warns(NumericalWarning, match="every class density is 0"):
        assert bayes.predict([[1.5], [0.5]]).tolist() == [1, 0]  # the larger prior, then f


def test_gaussian_plug_in_matches_maximum_likelihood_and_qda():
    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(0, 1, (60, 2)), rng.normal([2, 1], [1.5, 0.5], (40, 2))])
    y = np.repeat(["a", "b"], [60, 40])
    bayes = BayesClassifier().fit(X, y)
    for k, c in enumerate(["a", "b"]):
        Xk = X[y == c]
        assert_allclose(bayes.means_[k], Xk.mean(axis=0))
        assert_allclose(bayes.covariances_[k], np.cov(Xk.T, ddof=0), rtol=1e-6)
    assert_allclose(bayes.priors_, [0.6, 0.4])
    qda = QuadraticDiscriminantAnalysis(store_covariance=True).fit(X, y)
    if np.allclose(qda.covariance_[0], np.cov(X[y == "a"].T, ddof=0)):  # scikit-learn >= 1.9
        assert_allclose(bayes.predict_proba(X), qda.predict_proba(X), rtol=1e-6, atol=1e-9)
    manual = np.column_stack(
        [
            0.6 * multivariate_normal(bayes.means_[0], bayes.covariances_[0]).pdf(X),
            0.4 * multivariate_normal(bayes.means_[1], bayes.covariances_[1]).pdf(X),
        ]
    )
    assert_allclose(bayes.predict_proba(X), manual / manual.sum(axis=1, keepdims=True), rtol=1e-10)


def test_singular_fitted_covariance_is_regularised_with_a_warning():
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0], [5.0, 0.0], [6.0, 1.0], [5.0, 2.0]])
    with pytest.warns(NumericalWarning, match="singular"):
        bayes = BayesClassifier().fit(X, [0, 0, 0, 1, 1, 1])
    assert_array_equal(bayes.predict(X), [0, 0, 0, 1, 1, 1])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"class_densities": [norm(0, 1)]}, "1 entries but y has 2 classes"),
        ({"class_densities": [norm(0, 1), "normal"]}, r"class_densities\[1\]"),
        ({"class_densities": [norm(0, 1), norm(1, 1)], "priors": [0.5, 0.3]}, "sum to 1"),
        ({"class_densities": [norm(0, 1), norm(1, 1)], "priors": [1.2, -0.2]}, "non-negative"),
        ({"class_densities": [norm(0, 1), norm(1, 1)], "priors": [1.0]}, r"shape \(2,\)"),
        ({"class_densities": [norm(0, 1), lambda X: -np.ones(len(X))]}, "NaN, negative"),
    ],
)
def test_bad_densities_and_priors(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        BayesClassifier(**kwargs).fit(X1, Y1)


def test_density_of_the_wrong_dimension_is_rejected():
    X2 = np.hstack([X1, X1])
    with pytest.raises(ValueError, match=r"class_densities\[0\] returned 2 values"):
        BayesClassifier([norm(0, 1), norm(2, 1)]).fit(X2, Y1)


def test_bad_parameters_and_methods():
    with pytest.raises(InvalidParameterError, match="'class_densities'"):
        BayesClassifier(class_densities=norm(0, 1)).fit(X1, Y1)
    with pytest.raises(ValueError, match="Unknown label type"):
        BayesClassifier().fit(X1, [0.5, 1.5, 2.5, 0.1])
    bayes = two_normals()
    with pytest.raises(ValueError, match="method must be"):
        bayes.bayes_error_rate("exact")
    with pytest.raises(ValueError, match="bounds must be 1"):
        bayes.bayes_error_rate(bounds=[(1, 0)])
    with pytest.raises(ValueError, match="n_samples"):
        bayes.bayes_error_rate("monte_carlo", n_samples=1)
    S3 = np.eye(3)
    bayes3 = BayesClassifier([multivariate_normal(np.zeros(3), S3)] * 2, [0.5, 0.5])
    bayes3.fit(np.eye(3)[:2], [0, 1])
    with pytest.raises(ValueError, match="1 or 2 features"):
        bayes3.bayes_error_rate("integrate")


def test_no_warning_on_regular_use():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        two_normals().bayes_error_rate()
        two_normals().predict_proba(np.linspace(-50, 50, 11)[:, None])


def test_breast_cancer_features_on_very_different_scales_fit_without_linalg_error():
    """Areas ~1e5 beside ratios ~1e-3: SciPy's multivariate_normal called the fitted
    covariance singular. The fit is now the fit on standardised data, rescaled."""
    from statlearning.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    raw = BayesClassifier().fit(X, y)
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    std = BayesClassifier().fit(Z, y)
    np.testing.assert_array_equal(raw.predict(X), std.predict(Z))
    assert_allclose(raw.predict_log_proba(X), std.predict_log_proba(Z), atol=1e-6)
    assert np.mean(raw.predict(X) == y) > 0.95
    for k, dens in enumerate(std.class_densities_):  # SciPy agrees where it can factorise
        ref = multivariate_normal(std.means_[k], std.covariances_[k]).logpdf(Z)
        assert_allclose(dens.logpdf(Z), ref, rtol=1e-8, atol=1e-8)
