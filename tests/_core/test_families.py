"""GLM families: deviances, their derivatives, R's AIC and starting values."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from statlearning._core.families import FAMILIES, get_family
from statlearning._core.links import LINKS

RNG = np.random.default_rng(7)
N = 30


def _sample(name):
    """(y, mu, w) inside the family's domain."""
    if name == "gaussian":
        return RNG.normal(size=N), RNG.normal(size=N), RNG.uniform(0.5, 2, N)
    if name == "binomial":
        trials = RNG.integers(1, 8, N).astype(float)
        y = RNG.integers(0, 9, N) % (trials + 1) / trials
        return y, RNG.uniform(0.05, 0.95, N), trials
    if name == "poisson":
        return RNG.poisson(3.0, N).astype(float), RNG.uniform(0.5, 6, N), RNG.integers(1, 4, N)
    return RNG.gamma(2.0, 1.0, N), RNG.uniform(0.5, 4, N), RNG.uniform(0.5, 2, N)


def test_every_contract_family_is_there():
    assert set(FAMILIES) == {"gaussian", "binomial", "poisson", "gamma", "inverse_gaussian"}
    for name, fam in FAMILIES.items():
        assert get_family(name) is fam and get_family(fam) is fam
        assert fam.canonical_link in fam.links
        assert set(fam.links) <= set(LINKS)
    assert {n for n, f in FAMILIES.items() if f.dispersion_fixed} == {"binomial", "poisson"}
    assert get_family("gamma").r_name == "Gamma"
    assert get_family("inverse_gaussian").r_name == "inverse.gaussian"
    assert get_family("inverse_gaussian").canonical_link == "inverse_squared"


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_unit_deviance_is_zero_at_the_data_and_positive_elsewhere(name):
    fam = get_family(name)
    y, mu, _ = _sample(name)
    if name == "binomial":
        y = np.clip(y, 0.01, 0.99)  # a perfect fit needs an interior μ
    np.testing.assert_allclose(fam.unit_deviance(y, y), 0.0, atol=1e-12)
    d = fam.unit_deviance(y, mu)
    assert np.all(d[y != mu] > 0)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_unit_deviance_derivative_is_the_score(name):
    """∂d/∂μ = −2 (y − μ) / V(μ): the deviance and the variance function agree."""
    fam = get_family(name)
    y, mu, _ = _sample(name)
    h = 1e-6 * np.maximum(1.0, np.abs(mu))
    numeric = (fam.unit_deviance(y, mu + h) - fam.unit_deviance(y, mu - h)) / (2 * h)
    np.testing.assert_allclose(numeric, -2 * (y - mu) / fam.variance(mu), rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_deviance_weights_and_ignores_zero_weight_rows(name):
    fam = get_family(name)
    y, mu, w = _sample(name)
    w = np.asarray(w, float)
    assert fam.deviance(y, mu, w) == pytest.approx(np.sum(w * fam.unit_deviance(y, mu)))
    assert fam.deviance(y, mu) == pytest.approx(np.sum(fam.unit_deviance(y, mu)))
    w0 = w.copy()
    w0[:5] = 0
    assert fam.deviance(y, mu, w0) == pytest.approx(fam.deviance(y[5:], mu[5:], w[5:]))


def test_gaussian_aic_is_minus_twice_the_normal_loglik():
    fam = get_family("gaussian")
    y, mu, w = _sample("gaussian")
    dev = fam.deviance(y, mu, w)
    sigma = np.sqrt(dev / N)
    ll = np.sum(stats.norm.logpdf(y, mu, sigma / np.sqrt(w)))
    assert fam.aic(y, mu, w, dev, 3) == pytest.approx(-2 * ll + 2 + 2 * 3, rel=1e-12)
    # a zero weight is a removed row (R's formula would give +inf)
    w0 = w.copy()
    w0[0] = 0
    dev0 = fam.deviance(y, mu, w0)
    assert fam.aic(y, mu, w0, dev0, 3) == pytest.approx(fam.aic(y[1:], mu[1:], w[1:], dev0, 3))


def test_binomial_aic_counts_successes_out_of_trials():
    fam = get_family("binomial")
    y, mu, trials = _sample("binomial")
    dev = fam.deviance(y, mu, trials)
    ll = np.sum(stats.binom.logpmf(np.round(y * trials), trials, mu))
    assert fam.aic(y, mu, trials, dev, 2) == pytest.approx(-2 * ll + 4, rel=1e-12)


def test_poisson_aic_and_non_integer_counts():
    fam = get_family("poisson")
    y, mu, w = _sample("poisson")
    dev = fam.deviance(y, mu, w)
    ll = np.sum(w * stats.poisson.logpmf(y, mu))
    assert fam.aic(y, mu, w, dev, 2) == pytest.approx(-2 * ll + 4, rel=1e-12)
    assert fam.aic(y + 0.5, mu, w, dev, 2) == np.inf  # R: dpois is -Inf for non-integers


def test_gamma_aic_uses_the_deviance_dispersion():
    fam = get_family("gamma")
    y, mu, w = _sample("gamma")
    dev = fam.deviance(y, mu, w)
    disp = dev / w.sum()
    ll = np.sum(w * stats.gamma.logpdf(y, a=1 / disp, scale=mu * disp))
    assert fam.aic(y, mu, w, dev, 2) == pytest.approx(-2 * ll + 2 + 4, rel=1e-12)


def test_inverse_gaussian_aic_uses_the_deviance_dispersion():
    fam = get_family("inverse_gaussian")
    y, mu, _ = _sample("inverse_gaussian")
    dev = fam.deviance(y, mu)
    lam = N / dev  # shape = 1 / dispersion
    ll = np.sum(stats.invgauss.logpdf(y, mu=mu / lam, scale=lam))
    assert fam.aic(y, mu, None, dev, 2) == pytest.approx(-2 * ll + 2 + 4, rel=1e-12)


def test_starting_means_are_r_mustart():
    y = np.array([0.0, 0.5, 1.0])
    w = np.array([1.0, 4.0, 2.0])
    np.testing.assert_allclose(get_family("binomial").starting_mu(y, w), (w * y + 0.5) / (w + 1))
    np.testing.assert_allclose(get_family("poisson").starting_mu(y), y + 0.1)
    for name in ("gaussian", "gamma", "inverse_gaussian"):
        start = get_family(name).starting_mu(y)
        np.testing.assert_array_equal(start, y)
        assert start is not y


@pytest.mark.parametrize(
    ("name", "good", "bad"),
    [
        ("binomial", [0.0, 0.3, 1.0], [0.5, 1.2]),
        ("binomial", [0.0, 1.0], [-0.1]),
        ("poisson", [0.0, 3.0], [-1.0]),
        ("gamma", [0.1, 3.0], [0.0]),
        ("inverse_gaussian", [0.1, 3.0], [-2.0]),
    ],
)
def test_valid_y(name, good, bad):
    fam = get_family(name)
    assert fam.valid_y(np.array(good))
    assert not fam.valid_y(np.array(good + bad))


def test_valid_mu():
    assert get_family("binomial").valid_mu(np.array([0.1, 0.9]))
    assert not get_family("binomial").valid_mu(np.array([0.1, 1.0]))
    assert not get_family("poisson").valid_mu(np.array([0.0]))
    assert not get_family("gamma").valid_mu(np.array([np.inf]))
    assert get_family("gaussian").valid_mu(np.array([-5.0]))
    assert get_family("inverse_gaussian").valid_mu(np.array([-1.0]))  # R: validmu is TRUE


def test_unknown_family_is_a_clear_error():
    with pytest.raises(ValueError, match=r"unknown family 'tweedie'.*'poisson'"):
        get_family("tweedie")


def test_binomial_deviance_and_aic_of_binary_responses_follow_r():
    """0/1 responses with prior weights as numbers of trials (as LogisticRegression uses it)."""
    binomial = get_family("binomial")
    y = np.array([0.0, 1.0, 1.0, 0.0, 1.0])
    mu = np.array([0.2, 0.7, 0.9, 0.4, 0.5])
    dev = -2 * np.sum(y * np.log(mu) + (1 - y) * np.log(1 - mu))
    assert binomial.deviance(y, mu) == pytest.approx(dev, rel=1e-14)
    assert binomial.aic(y, mu, np.ones(5), dev, 2) == pytest.approx(dev + 4, rel=1e-14)
    w = np.array([1.0, 2.0, 3.0, 0.0, 1.0])  # integer prior weights = numbers of trials
    ll = stats.binom.logpmf(w * y, w, mu)[w > 0].sum()
    assert binomial.aic(y, mu, w, None, 2) == pytest.approx(-2 * ll + 4, rel=1e-14)
    assert binomial.deviance(y, mu, w) == pytest.approx(
        -2 * np.sum(w * (y * np.log(mu) + (1 - y) * np.log(1 - mu))), rel=1e-14
    )
