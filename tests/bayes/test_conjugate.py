"""Conjugate models: closed forms against numerical integration; sequential = batch; BMA."""

import numpy as np
import pytest
from scipy import integrate, stats
from sklearn.base import clone

from statlearning.bayes import (
    BetaBernoulli,
    DirichletCategorical,
    NormalNormal,
    model_average,
)


def test_seed001_e4_beta_bernoulli():
    # seed 001 E4: a = 2, b = 3, D = (1, 0, 1, 1, 0, 1) -> Beta(6, 5), log evidence below
    m = BetaBernoulli(a=2, b=3).fit([1, 0, 1, 1, 0, 1])
    assert m.posterior_ == {"a": 6.0, "b": 5.0}
    assert m.log_evidence_ == pytest.approx(-4.653960350157524, rel=1e-14)
    integrand = lambda t: t**4 * (1 - t) ** 2 * stats.beta(2, 3).pdf(t)  # noqa: E731
    value, _ = integrate.quad(integrand, 0, 1, epsabs=0, epsrel=1e-13)
    assert m.log_evidence_ == pytest.approx(np.log(value), rel=1e-10)
    assert m.predictive_ == pytest.approx(6 / 11)
    assert m.posterior_distribution().mean() == pytest.approx(m.predictive_)
    np.testing.assert_allclose(m.predict_proba(), [5 / 11, 6 / 11])


def test_dirichlet_evidence_equals_integral_over_simplex():
    alpha = np.array([2.0, 1.5, 3.0])
    y = [0, 2, 2, 1, 0, 2]
    m = DirichletCategorical(alpha=alpha).fit(y)
    counts = np.array([2, 1, 3])
    prior = stats.dirichlet(alpha)

    def integrand(p2, p1):
        p = np.array([p1, p2, 1 - p1 - p2])
        if p[2] <= 0:
            return 0.0
        return np.prod(p**counts) * prior.pdf(p)

    value, _ = integrate.dblquad(integrand, 0, 1, 0, lambda p1: 1 - p1, epsabs=0, epsrel=1e-12)
    assert m.log_evidence_ == pytest.approx(np.log(value), rel=1e-10)
    np.testing.assert_array_equal(m.posterior_["alpha"], alpha + counts)
    np.testing.assert_allclose(m.predict_proba(), (alpha + counts) / (alpha + counts).sum())


def test_dirichlet_with_two_categories_is_beta_bernoulli():
    y = [1, 0, 0, 1, 1, 1, 0]
    a = DirichletCategorical(alpha=[3.0, 2.0]).fit(y)  # category 0 first: Beta(b, a)
    b = BetaBernoulli(a=2.0, b=3.0).fit(y)
    assert a.log_evidence_ == pytest.approx(b.log_evidence_, rel=1e-14)
    assert a.predictive_[1] == pytest.approx(b.predictive_, rel=1e-14)


def test_dirichlet_labels():
    m = DirichletCategorical(alpha=0.5, categories=["x", "y", "z"]).fit(["y", "y", "x"])
    np.testing.assert_array_equal(m.categories_, ["x", "y", "z"])
    np.testing.assert_allclose(m.predictive_, np.array([1.5, 2.5, 0.5]) / 4.5)
    with pytest.raises(ValueError, match="'w', which is not among the categories"):
        m.partial_fit(["w"])


def test_normal_evidence_equals_marginal_density_and_integral():
    y = np.array([1.3, 0.2, 2.1, 1.7, 0.9])
    mu0, tau0, sigma = 0.5, 1.5, 0.8
    m = NormalNormal(mu0=mu0, tau0=tau0, sigma=sigma).fit(y)
    n = y.size
    cov = sigma**2 * np.eye(n) + tau0**2 * np.ones((n, n))
    want = stats.multivariate_normal(np.full(n, mu0), cov).logpdf(y)
    assert m.log_evidence_ == pytest.approx(want, rel=1e-13)
    integrand = lambda mu: np.prod(stats.norm(mu, sigma).pdf(y)) * stats.norm(mu0, tau0).pdf(mu)  # noqa: E731
    value, _ = integrate.quad(integrand, -20, 20, epsabs=0, epsrel=1e-13, points=[y.mean()])
    assert m.log_evidence_ == pytest.approx(np.log(value), rel=1e-10)
    # posterior against the textbook precision-weighted form
    precision = 1 / tau0**2 + n / sigma**2
    assert m.posterior_["mu"] == pytest.approx((mu0 / tau0**2 + y.sum() / sigma**2) / precision)
    assert m.posterior_["tau"] == pytest.approx(precision**-0.5)
    assert m.predictive_["sd"] == pytest.approx(np.sqrt(1 / precision + sigma**2))


@pytest.mark.parametrize(
    "model, y",
    [
        (BetaBernoulli(2, 3), [1, 0, 1, 1, 0, 1, 1, 0]),
        (DirichletCategorical(alpha=[1.0, 2.0, 0.5]), [0, 1, 2, 2, 1, 0, 0, 2]),
        (NormalNormal(0.3, 2.0, 1.1), [0.4, -0.3, 1.2, 2.2, 0.1, 0.8, -1.0, 0.5]),
    ],
)
def test_sequential_updates_equal_the_batch_fit(model, y):
    batch = clone(model).fit(y)
    seq = clone(model)
    for start in range(0, len(y), 3):
        seq.partial_fit(y[start : start + 3])
    assert seq.n_samples_ == batch.n_samples_ == len(y)
    assert seq.log_evidence_ == pytest.approx(batch.log_evidence_, rel=1e-12)
    for key, value in batch.posterior_.items():
        np.testing.assert_allclose(seq.posterior_[key], value, rtol=1e-12)
    # the predictive of new data is the ratio of evidences
    head = clone(model).fit(y[:5])
    assert head.log_predictive(y[5:]) == pytest.approx(
        batch.log_evidence_ - head.log_evidence_, rel=1e-12
    )
    assert clone(model).log_evidence(y) == pytest.approx(batch.log_evidence_, rel=1e-14)


def test_model_average_weights_and_prediction():
    ev = np.array([-10.0, -11.0, -12.5])
    prior = np.array([0.2, 0.5, 0.3])
    preds = np.array([[0.1, 0.9], [0.4, 0.6], [0.7, 0.3]])
    avg = model_average(ev, preds, prior=prior)
    w = np.exp(ev) * prior
    w /= w.sum()
    np.testing.assert_allclose(avg.weights, w, rtol=1e-14)
    np.testing.assert_allclose(avg.prediction, w @ preds, rtol=1e-14)
    # evidences far below the float range compare correctly (log space)
    far = model_average(ev - 1e5, preds, prior=prior)
    np.testing.assert_allclose(far.weights, w, rtol=1e-10)
    # a zero prior removes a hypothesis
    assert model_average(ev, preds, prior=[0, 1, 1]).weights[0] == 0.0


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: BetaBernoulli().fit([0, 1, 2]), "0/1"),
        (lambda: BetaBernoulli().fit([0, np.nan]), "NaN"),
        (lambda: BetaBernoulli().fit([[0, 1]]), "1-D"),
        (lambda: BetaBernoulli(a=0).fit([0, 1]), "'a'"),
        (lambda: NormalNormal(sigma=-1).fit([0.0]), "'sigma'"),
        (lambda: DirichletCategorical(alpha=[1.0, 2.0]).fit([0, 1, 2]), "not among"),
        (lambda: DirichletCategorical(alpha=[1.0, -2.0]).fit([0, 1]), "positive"),
        (
            lambda: DirichletCategorical(alpha=[1, 1, 1], categories=["a", "b"]).fit(["a"]),
            "3 values",
        ),
        (lambda: model_average([0.0, 1.0], [0.5]), "one entry per hypothesis"),
        (lambda: model_average([0.0, np.nan], [0.5, 0.5]), "NaN"),
        (lambda: model_average([0.0, 1.0], [0.5, 0.5], prior=[-1, 2]), "non-negative"),
        (lambda: model_average([-np.inf, -np.inf], [0.5, 0.5]), "zero posterior"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_unfitted_predict_raises():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        BetaBernoulli().predict_proba()
