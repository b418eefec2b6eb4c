"""Tests of the simulators with a known Bayes classifier, and the notes' kNN-versus-least-squares
comparison on ESL's mixture (seed 004, E9) with the Bayes error as the reference line."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.integrate import cubature
from scipy.stats import multivariate_normal

from statlearning.datasets._simulators import (
    GaussianMixtureDensity,
    make_islr_classification,
    make_mixture,
)
from statlearning.linear_model import LinearRegression
from statlearning.neighbors import BayesClassifier, KNeighborsClassifier


def _population_sample(bayes, n, seed):
    """``n`` labelled draws from the population of a fitted two-class BayesClassifier."""
    rng = np.random.RandomState(seed)
    counts = rng.multinomial(n, bayes.priors_)
    X = np.vstack(
        [
            d.rvs(size=c, random_state=rng)
            for d, c in zip(bayes.class_densities_, counts, strict=True)
        ]
    )
    return X, np.repeat([0, 1], counts)


@pytest.mark.parametrize("make", [make_mixture, make_islr_classification])
def test_shapes_balance_and_determinism(make):
    X, y = make(random_state=0)
    assert X.shape == (200, 2) and y.shape == (200,)
    assert_array_equal(y, np.repeat([0, 1], 100))  # class 0 first, as in ESL
    X2, _ = make(random_state=0)
    assert_array_equal(X, X2)
    assert not np.array_equal(X, make(random_state=1)[0])
    Xo, yo = make(7, random_state=0)
    assert Xo.shape == (7, 2) and yo.sum() == 4
    X3, _, bayes = make(random_state=0, return_bayes=True)
    assert_array_equal(X3, X)
    assert isinstance(bayes, BayesClassifier)
    assert_allclose(bayes.priors_, [0.5, 0.5])
    with pytest.raises(ValueError, match="n_samples"):
        make(1)


def test_mixture_means_follow_esl():
    """10 means per class from N((1,0), I) and N((0,1), I), drawn before the points."""
    _, _, small = make_mixture(20, random_state=5, return_bayes=True)
    _, _, large = make_mixture(2000, random_state=5, return_bayes=True)
    for a, b in zip(small.class_densities_, large.class_densities_, strict=True):
        assert_array_equal(a.means, b.means)
        assert_allclose(a.cov, np.eye(2) / 5)
        assert a.means.shape == (10, 2)
    means = [
        np.vstack(
            [
                make_mixture(2, random_state=s, return_bayes=True)[2].class_densities_[k].means
                for s in range(60)
            ]
        )
        for k in (0, 1)
    ]
    se = 4 / np.sqrt(600)
    assert_allclose(means[0].mean(axis=0), [1, 0], atol=se)
    assert_allclose(means[1].mean(axis=0), [0, 1], atol=se)
    assert_allclose(means[0].var(axis=0), [1, 1], atol=0.25)


def test_mixture_points_come_from_the_mixture_density():
    X, y, bayes = make_mixture(20_000, random_state=6, return_bayes=True)
    for k in (0, 1):
        dens = bayes.class_densities_[k]
        Xk = X[y == k]
        se = np.sqrt(np.var(Xk, axis=0) / len(Xk))
        assert_allclose(Xk.mean(axis=0), dens.means.mean(axis=0), atol=4 * se.max())
        # the average log density of the points is what the mixture itself produces
        ll = dens.logpdf(Xk)
        ll_model = dens.logpdf(dens.rvs(size=40_000, random_state=7 + k))
        se = np.sqrt(ll.var() / ll.size + ll_model.var() / ll_model.size)
        assert abs(ll.mean() - ll_model.mean()) < 4 * se
        wrong = GaussianMixtureDensity(dens.means, np.eye(2))  # variance 1 instead of 1/5
        assert wrong.logpdf(Xk).mean() < ll.mean() - 20 * se


def test_gaussian_mixture_density():
    means = np.array([[0.0, 0.0], [2.0, 1.0], [-1.0, 3.0]])
    cov = np.array([[0.5, 0.1], [0.1, 0.3]])
    w = np.array([0.2, 0.5, 0.3])
    dens = GaussianMixtureDensity(means, cov, w)
    pts = np.random.default_rng(8).normal(size=(50, 2)) * 2
    manual = sum(wi * multivariate_normal(m, cov).pdf(pts) for wi, m in zip(w, means, strict=True))
    assert_allclose(dens.pdf(pts), manual, rtol=1e-12)
    total = cubature(lambda x: dens.pdf(x), [-np.inf] * 2, [np.inf] * 2, rtol=1e-9)
    assert abs(total.estimate - 1) < 1e-7
    draws = dens.rvs(size=40_000, random_state=9)
    assert_array_equal(draws, dens.rvs(size=40_000, random_state=9))
    assert_allclose(draws.mean(axis=0), w @ means, atol=0.03)
    assert "3 components" in repr(dens)


def test_islr_simulation_has_a_curved_bayes_boundary():
    X, y, bayes = make_islr_classification(20_000, random_state=10, return_bayes=True)
    assert_allclose(np.cov(X[y == 1].T), [[2.0, 0.5], [0.5, 0.5]], atol=0.08)
    assert_allclose(X[y == 0].mean(axis=0), [0, 0], atol=0.05)
    # log f1 - log f0 is quadratic: the decision flips twice along a line through the classes
    t = np.linspace(-6, 6, 241)
    line = np.column_stack([t, np.full_like(t, 0.5)])
    flips = np.count_nonzero(np.diff(bayes.predict(line)))
    assert flips == 2


@pytest.mark.parametrize("make", [make_mixture, make_islr_classification])
def test_bayes_rule_error_on_a_large_sample_equals_the_bayes_error_rate(make):
    _, _, bayes = make(random_state=11, return_bayes=True)
    rate = bayes.bayes_error_rate()
    assert rate.method == "integrate" and rate.std_error < 1e-5
    mc = bayes.bayes_error_rate("monte_carlo", n_samples=60_000, random_state=12)
    assert abs(mc.rate - rate.rate) < 4 * mc.std_error
    Xt, yt = _population_sample(bayes, 40_000, 13)
    err = np.mean(bayes.predict(Xt) != yt)
    assert abs(err - rate.rate) < 4 * np.sqrt(rate.rate * (1 - rate.rate) / yt.size)


def test_knn_versus_least_squares_on_the_mixture():
    """Seed 004, E9: OLS (ŷ > 0.5), 1-NN and 15-NN on ESL's mixture, N = 200.

    Robust facts only: 1-NN has no training error; every rule's test error is at least the
    Bayes error (up to the sampling error of the test set); OLS's boundary is a line, so it
    cannot be the Bayes rule of this mixture.
    """
    X, y, bayes = make_mixture(200, random_state=14, return_bayes=True)
    Xt, yt = _population_sample(bayes, 20_000, 15)
    eta = bayes.bayes_error_rate().rate
    tol = 4 * np.sqrt(eta * (1 - eta) / yt.size)

    ols = LinearRegression().fit(X, y)
    nn1 = KNeighborsClassifier(1).fit(X, y)
    nn15 = KNeighborsClassifier(15).fit(X, y)
    assert nn1.score(X, y) == 1.0
    errors = {
        "ols": np.mean((ols.predict(Xt) > 0.5) != yt),
        "1nn": 1 - nn1.score(Xt, yt),
        "15nn": 1 - nn15.score(Xt, yt),
        "bayes": 1 - bayes.score(Xt, yt),
    }
    assert abs(errors["bayes"] - eta) < tol
    for name in ("ols", "1nn", "15nn"):
        assert errors[name] > eta - tol, name
    assert errors["1nn"] > errors["15nn"] - tol  # 1-NN overfits (variance)
