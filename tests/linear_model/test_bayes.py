"""BayesianLinearRegression: closed-form posterior, ridge identity, evidence maximisation."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize

from statlearning.exceptions import ConvergenceWarning, InvalidParameterError, NumericalWarning
from statlearning.linear_model import BayesianLinearRegression, Ridge


def _data(n=50, p=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * [1.0, 3.0, 0.5][:p] + 2.0
    y = 1.5 + X @ rng.normal(size=p) + rng.normal(scale=0.7, size=n)
    w = rng.uniform(0.5, 2.0, size=n)
    return X, y, w


def _joint_posterior(X, y, w, alpha, sigma2, fit_intercept):
    """Hand computation on θ = (b0, β): precision AᵀWA/σ² + diag(0, αI), flat on b0."""
    A = np.hstack([np.ones((y.size, 1)), X]) if fit_intercept else X
    P = np.eye(A.shape[1]) * alpha
    if fit_intercept:
        P[0, 0] = 0.0
    prec = A.T @ (w[:, None] * A) / sigma2 + P
    cov = np.linalg.inv(prec)
    mean = cov @ (A.T @ (w * y)) / sigma2
    return mean, cov


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_posterior_matches_hand_computation(fit_intercept, weighted):
    X, y, w = _data()
    sw = w if weighted else None
    ww = w if weighted else np.ones(y.size)
    m = BayesianLinearRegression(alpha=0.8, sigma2=0.4, fit_intercept=fit_intercept)
    m.fit(X, y, sample_weight=sw)
    mean, cov = _joint_posterior(X, y, ww, 0.8, 0.4, fit_intercept)
    ours = np.concatenate([[m.intercept_], m.coef_]) if fit_intercept else m.coef_
    np.testing.assert_allclose(ours, mean, rtol=1e-10)
    np.testing.assert_allclose(m.posterior_cov_, cov, rtol=1e-9, atol=1e-14)
    assert (m.alpha_, m.sigma2_, m.n_iter_) == (0.8, 0.4, 1)
    # predictive: mean x̃ᵀθ, variance σ² + x̃ᵀ P x̃ (the noise is included)
    Xn = X[:4] + 0.5
    A = np.hstack([np.ones((4, 1)), Xn]) if fit_intercept else Xn
    mu, sd = m.predict(Xn, return_std=True)
    np.testing.assert_allclose(mu, A @ mean, rtol=1e-10)
    np.testing.assert_allclose(sd, np.sqrt(0.4 + np.einsum("ij,jk,ik->i", A, cov, A)), rtol=1e-9)
    np.testing.assert_allclose(m.predict(Xn), mu)


def test_predictive_mean_is_ridge_with_sigma2_alpha():
    # seed 001: the MAP / posterior mean is ridge with λ = σ²·α (eq. 4.32)
    X, y, w = _data(seed=1)
    m = BayesianLinearRegression(alpha=2.5, sigma2=0.3).fit(X, y, sample_weight=w)
    r = Ridge(alpha=0.3 * 2.5).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(m.coef_, r.coef_, rtol=1e-10)
    assert m.intercept_ == pytest.approx(r.intercept_, rel=1e-10)


def _log_evidence(log_params, X, y, w, fit_intercept):
    """Log marginal likelihood with a flat intercept prior, computed by brute force."""
    alpha, sigma2 = np.exp(log_params)
    A = np.hstack([np.ones((y.size, 1)), X]) if fit_intercept else X
    mean, cov = _joint_posterior(X, y, w, alpha, sigma2, fit_intercept)
    beta = mean[1:] if fit_intercept else mean
    r = y - A @ mean
    N, p = w.sum(), X.shape[1]
    # ∫ N(y | Aθ, σ²W⁻¹)^(w) p(β) dθ by the Laplace identity (exact for a Gaussian)
    log_joint = (
        -0.5 * N * np.log(2 * np.pi * sigma2) - (w @ r**2) / (2 * sigma2)
        + 0.5 * p * np.log(alpha / (2 * np.pi)) - 0.5 * alpha * beta @ beta
    )
    _, logdet = np.linalg.slogdet(cov)
    return log_joint + 0.5 * A.shape[1] * np.log(2 * np.pi) + 0.5 * logdet


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_evidence_maximisation_reaches_the_maximum(fit_intercept):
    X, y, w = _data(n=40, seed=2)
    m = BayesianLinearRegression(estimate_hyperparameters=True, tol=1e-12,
                                 fit_intercept=fit_intercept).fit(X, y, sample_weight=w)
    assert 1 <= m.n_iter_ < 300
    at = np.log([m.alpha_, m.sigma2_])
    assert m.log_evidence_ == pytest.approx(_log_evidence(at, X, y, w, fit_intercept), rel=1e-10)
    best = optimize.minimize(lambda v: -_log_evidence(v, X, y, w, fit_intercept), np.zeros(2),
                             method="Nelder-Mead", options={"xatol": 1e-10, "fatol": 1e-13})
    np.testing.assert_allclose(at, best.x, atol=1e-5)
    assert m.log_evidence_ >= -best.fun - 1e-9
    # the posterior is the one at the estimated hyperparameters
    fixed = BayesianLinearRegression(alpha=m.alpha_, sigma2=m.sigma2_,
                                     fit_intercept=fit_intercept).fit(X, y, sample_weight=w)
    np.testing.assert_allclose(m.coef_, fixed.coef_, rtol=1e-12)


def test_matches_sklearn_bayesian_ridge_without_intercept():
    """BayesianRidge's lambda_ is our alpha_, its alpha_ our 1/sigma2_ (no hyperpriors)."""
    from sklearn.linear_model import BayesianRidge

    X, y, _ = _data(n=60, seed=3)
    sk = BayesianRidge(fit_intercept=False, alpha_1=0.0, alpha_2=0.0, lambda_1=0.0,
                       lambda_2=0.0, tol=1e-14, max_iter=100_000).fit(X, y)
    ours = BayesianLinearRegression(fit_intercept=False, estimate_hyperparameters=True,
                                    tol=1e-13, max_iter=10_000).fit(X, y)
    assert ours.alpha_ == pytest.approx(sk.lambda_, rel=1e-8)
    assert ours.sigma2_ == pytest.approx(1.0 / sk.alpha_, rel=1e-8)
    np.testing.assert_allclose(ours.coef_, sk.coef_, rtol=1e-8)
    np.testing.assert_allclose(ours.posterior_cov_, sk.sigma_, rtol=1e-7)
    _, sd = ours.predict(X[:5], return_std=True)
    _, sk_sd = sk.predict(X[:5], return_std=True)
    np.testing.assert_allclose(sd, sk_sd, rtol=1e-7)


def test_integer_weights_equal_repeated_rows_in_the_evidence():
    X, y, _ = _data(n=30, seed=4)
    k = np.random.default_rng(1).integers(0, 4, size=30)
    a = BayesianLinearRegression(estimate_hyperparameters=True, tol=1e-12)
    a.fit(X, y, sample_weight=k)
    b = BayesianLinearRegression(estimate_hyperparameters=True, tol=1e-12)
    b.fit(np.repeat(X, k, axis=0), np.repeat(y, k))
    assert a.alpha_ == pytest.approx(b.alpha_, rel=1e-9)
    assert a.sigma2_ == pytest.approx(b.sigma2_, rel=1e-9)
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-9)


def test_degenerate_evidence_warns_and_keeps_the_given_values():
    X, _, _ = _data(n=10, seed=5)
    with pytest.warns(NumericalWarning, match="no finite maximiser.*constant"):
        m = BayesianLinearRegression(alpha=2.0, sigma2=3.0, estimate_hyperparameters=True).fit(
            X, np.full(10, 4.0)
        )
    assert (m.alpha_, m.sigma2_) == (2.0, 3.0)
    assert m.intercept_ == pytest.approx(4.0)
    rng = np.random.default_rng(0)
    with pytest.warns(NumericalWarning, match="interpolate"):
        BayesianLinearRegression(estimate_hyperparameters=True).fit(
            rng.normal(size=(5, 8)), rng.normal(size=5)
        )


def test_convergence_warning():
    X, y, _ = _data(seed=6)
    with pytest.warns(ConvergenceWarning, match="max_iter=1"):
        m = BayesianLinearRegression(estimate_hyperparameters=True, max_iter=1).fit(X, y)
    assert m.n_iter_ == 1


@pytest.mark.parametrize(
    ("params", "match"),
    [({"alpha": 0.0}, "alpha"), ({"sigma2": -1.0}, "sigma2"), ({"max_iter": 0}, "max_iter"),
     ({"estimate_hyperparameters": "yes"}, "estimate_hyperparameters")],
)
def test_bad_parameters(params, match):
    X, y, _ = _data()
    with pytest.raises(InvalidParameterError, match=match):
        BayesianLinearRegression(**params).fit(X, y)
