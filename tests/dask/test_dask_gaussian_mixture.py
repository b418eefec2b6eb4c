"""GaussianMixture on Dask collections: from the same initial parameters, the in-memory EM
(weights, means, covariances, lower bound, iterations) to 1e-10 for every covariance type on
uneven, single and one-row chunks; Dask k-means initialisation; lazy predictions."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from statlearning.exceptions import ConvergenceWarning
from statlearning.mixture import GaussianMixture

da = pytest.importorskip("dask.array")

pytestmark = pytest.mark.dask

PRECISIONS = {
    "full": np.array([np.eye(3)] * 3),
    "tied": np.eye(3),
    "diag": np.ones((3, 3)),
    "spherical": np.ones(3),
}


def data(n_per=100, seed=0):
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [0.0, 4.0, 1.0]])
    return np.vstack([rng.normal(size=(n_per, 3)) * [1.0, 0.5, 2.0] + c for c in centres]) + 2.0


def chunked(a, rows):
    return da.from_array(a, chunks=(rows, *a.shape[1:]))


def assert_same(ours, ref):
    assert ours.n_iter_ == ref.n_iter_
    assert ours.converged_ == ref.converged_
    for attr in ("weights_", "means_", "covariances_", "precisions_cholesky_", "loglik_path_"):
        np.testing.assert_allclose(
            getattr(ours, attr), getattr(ref, attr), rtol=1e-10, atol=1e-12, err_msg=attr
        )
    np.testing.assert_allclose(ours.lower_bound_, ref.lower_bound_, rtol=1e-10)


CASES = [(ct, (150, 7, 143)) for ct in PRECISIONS] + [("full", 300), ("tied", 1), ("diag", 1)]


@pytest.mark.parametrize(
    ("covariance_type", "rows"),
    CASES,
    ids=[f"{ct}-{'one-row' if r == 1 else 'single' if r == 300 else 'uneven'}" for ct, r in CASES],
)
def test_equals_in_memory_em(client, covariance_type, rows):
    X = data() if rows != 1 else data(n_per=5, seed=2)
    n = X.shape[0]
    params = dict(
        covariance_type=covariance_type,
        weights_init=[0.3, 0.3, 0.4],
        means_init=X[[0, n // 2, n - 1]],
        precisions_init=PRECISIONS[covariance_type],
        tol=1e-8,
        max_iter=25 if rows != 1 else 6,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ref = GaussianMixture(3, **params).fit(X)
        ours = GaussianMixture(3, **params).fit(chunked(X, rows))
    assert_same(ours, ref)


def test_kmeans_initialisation_and_lazy_outputs(client):
    X = data(seed=1)
    Xd = chunked(X, 70)
    ours = GaussianMixture(3, random_state=0)
    labels = ours.fit_predict(Xd)
    ref = GaussianMixture(3, random_state=0).fit(X)
    # k-means|| and in-memory k-means++ seeds reach the same partition here: the same optimum
    np.testing.assert_allclose(ours.lower_bound_, ref.lower_bound_, rtol=1e-8)
    for method in ("predict", "predict_proba", "score_samples"):
        lazy = getattr(ours, method)(Xd)
        assert type(lazy).__module__.startswith("dask.array"), method
        np.testing.assert_allclose(lazy.compute(), getattr(ours, method)(X), rtol=1e-12)
    np.testing.assert_allclose(ours.score(Xd), ours.score(X), rtol=1e-12)
    np.testing.assert_array_equal(labels.compute(), ours.predict(X))
    random = GaussianMixture(3, init_params="random", random_state=0, max_iter=5).fit(Xd)
    assert np.all(np.diff(random.loglik_path_) > -1e-12)  # EM never decreases it


def test_nan_in_a_chunk_gives_the_in_memory_error(client):
    X = data()
    X[250, 2] = np.nan
    with pytest.raises(ValueError) as in_memory:
        GaussianMixture(2).fit(X)
    with pytest.raises(ValueError) as distributed:
        GaussianMixture(2).fit(chunked(X, 100))
    assert str(distributed.value) == str(in_memory.value)
