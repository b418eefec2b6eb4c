"""GaussianMixture: scikit-learn (oracle) with the same initialisation, the notes' EM updates,
the EM monotonicity guarantee, information criteria, sampling and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_blobs
from sklearn.mixture import GaussianMixture as SklearnGaussianMixture

from statlearning.exceptions import ConvergenceWarning, NumericalWarning
from statlearning.mixture import GaussianMixture

COV_TYPES = ["full", "tied", "diag", "spherical"]


@pytest.fixture(scope="module")
def blobs():
    X, _ = make_blobs(400, n_features=3, centers=3, cluster_std=[1.0, 1.5, 0.7], random_state=0)
    return X


@pytest.mark.parametrize("covariance_type", COV_TYPES)
def test_same_loglik_as_sklearn_from_same_init(blobs, covariance_type):
    X = blobs
    start = SklearnGaussianMixture(3, covariance_type=covariance_type, random_state=0).fit(X)
    init = dict(
        weights_init=np.full(3, 1 / 3),
        means_init=start.means_ + 0.7,
        precisions_init=start.precisions_,
        covariance_type=covariance_type,
        tol=1e-8,
        max_iter=300,
    )
    oracle = SklearnGaussianMixture(3, **init).fit(X)
    ours = GaussianMixture(3, **init).fit(X)
    assert ours.converged_ and ours.n_iter_ == oracle.n_iter_
    assert abs(ours.lower_bound_ - oracle.lower_bound_) < 1e-6
    assert abs(ours.score(X) - oracle.score(X)) < 1e-6
    np.testing.assert_allclose(ours.means_, oracle.means_, atol=1e-6)
    np.testing.assert_allclose(ours.covariances_, oracle.covariances_, atol=1e-6)
    np.testing.assert_allclose(ours.precisions_cholesky_, oracle.precisions_cholesky_, atol=1e-5)
    np.testing.assert_allclose(ours.score_samples(X), oracle.score_samples(X), atol=1e-6)
    np.testing.assert_allclose(ours.predict_proba(X), oracle.predict_proba(X), atol=1e-6)
    assert ours.aic(X) == pytest.approx(oracle.aic(X), abs=1e-3)
    assert ours.bic(X) == pytest.approx(oracle.bic(X), abs=1e-3)


def test_em_updates_by_hand():
    # Seed 001 part 2, Algorithm 13, one iteration on x = (0, 1, 3, 4), K = 2, π = (½, ½),
    # μ = (0, 4), σ² = (1, 1): the responsibilities are p_{1|i} = 1 / (1 + exp(4 x_i − 8)).
    x = np.array([0.0, 1.0, 3.0, 4.0])
    p1 = 1.0 / (1.0 + np.exp(4 * x - 8))
    n1 = p1.sum()
    mu1 = (p1 * x).sum() / n1
    var1 = (p1 * (x - mu1) ** 2).sum() / n1  # with the NEW mean, 1/n_k normaliser
    model = GaussianMixture(
        2,
        weights_init=[0.5, 0.5],
        means_init=[[0.0], [4.0]],
        precisions_init=[[[1.0]], [[1.0]]],
        reg_covar=0.0,
        max_iter=1,
    )
    with pytest.warns(ConvergenceWarning):
        model.fit(x[:, None])
    assert n1 == pytest.approx(2.0)  # symmetry: both components have n_k = 2
    np.testing.assert_allclose(model.weights_, [n1 / 4, 1 - n1 / 4])
    np.testing.assert_allclose(model.means_.ravel(), [mu1, 4 - mu1])
    np.testing.assert_allclose(model.covariances_.ravel(), [var1, var1])
    # The E-step's log-likelihood at the initial parameters, written out.
    dens = 0.5 * np.exp(-0.5 * x**2) / np.sqrt(2 * np.pi) + 0.5 * np.exp(
        -0.5 * (x - 4) ** 2
    ) / np.sqrt(2 * np.pi)
    assert model.loglik_path_[0] == pytest.approx(np.log(dens).mean())


@settings(max_examples=15, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 10_000),
    k=st.integers(1, 4),
    covariance_type=st.sampled_from(COV_TYPES),
    init_params=st.sampled_from(["kmeans", "random"]),
)
def test_em_loglik_never_decreases(seed, k, covariance_type, init_params):
    X = np.random.default_rng(seed).standard_normal((60, 2)) * [1.0, 3.0]
    model = GaussianMixture(
        k,
        covariance_type=covariance_type,
        init_params=init_params,
        tol=1e-10,
        max_iter=50,
        random_state=seed,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("ignore", NumericalWarning)  # collapsed random components
        model.fit(X)
    path = model.loglik_path_
    assert len(path) == model.n_iter_
    assert np.all(np.diff(path) >= -1e-10 * np.abs(path[1:]).clip(1))


def test_predict_and_proba_consistent(blobs):
    model = GaussianMixture(3, random_state=0).fit(blobs)
    proba = model.predict_proba(blobs)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(model.predict(blobs), proba.argmax(axis=1))
    np.testing.assert_array_equal(model.fit_predict(blobs), model.predict(blobs))
    assert model.score(blobs) == pytest.approx(model.score_samples(blobs).mean())


def test_n_init_keeps_the_best(blobs):
    one = GaussianMixture(3, init_params="random", random_state=1).fit(blobs)
    many = GaussianMixture(3, init_params="random", n_init=4, random_state=1).fit(blobs)
    assert many.lower_bound_ >= one.lower_bound_ - 1e-12


def test_sample_recovers_the_mixture():
    model = GaussianMixture(2, covariance_type="diag", random_state=0)
    model.fit(
        np.r_[
            np.random.default_rng(0).normal(0, 1, (200, 2)),
            np.random.default_rng(1).normal(8, 1, (200, 2)),
        ]
    )
    Xs, labels = model.sample(4000)
    assert Xs.shape == (4000, 2) and np.bincount(labels).sum() == 4000
    for k in range(2):
        np.testing.assert_allclose(Xs[labels == k].mean(axis=0), model.means_[k], atol=0.15)
        np.testing.assert_allclose(Xs[labels == k].var(axis=0), model.covariances_[k], rtol=0.15)


def test_singular_covariance_warns():
    # The second component is a single repeated point: only reg_covar keeps it invertible.
    X = np.r_[np.random.default_rng(0).normal(size=(30, 2)), np.full((10, 2), 20.0)]
    with pytest.warns(NumericalWarning, match="singular"):
        model = GaussianMixture(2, random_state=0).fit(X)
    assert np.all(np.isfinite(model.precisions_cholesky_))


def test_bad_input():
    X = np.random.default_rng(0).normal(size=(5, 2))
    with pytest.raises(ValueError, match="n_components=6"):
        GaussianMixture(6).fit(X)
    with pytest.raises(ValueError, match="covariance_type"):
        GaussianMixture(covariance_type="general").fit(X)
    with pytest.raises(ValueError, match="weights_init"):
        GaussianMixture(2, weights_init=[0.7, 0.7]).fit(X)
    with pytest.raises(ValueError, match="means_init"):
        GaussianMixture(2, means_init=np.zeros((2, 3))).fit(X)
    with pytest.raises(ValueError, match="precisions_init"):
        GaussianMixture(2, precisions_init=np.zeros((2, 2))).fit(X)
    with pytest.raises(ValueError, match="positive definite"):
        GaussianMixture(1, precisions_init=-np.eye(2)[None]).fit(X)
    with pytest.raises(ValueError, match="NaN"):
        GaussianMixture().fit(np.array([[0.0, 1.0], [np.nan, 2.0], [3.0, 1.0]]))
