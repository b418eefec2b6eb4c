"""PCA on Dask collections: the in-memory fit (components up to sign) to 1e-10 for every
solver, on uneven chunks, a single chunk and one-row chunks; lazy ``transform``."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning.decomposition import PCA

da = pytest.importorskip("dask.array")

pytestmark = pytest.mark.dask


def data(n=307, p=5, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, p)) @ rng.normal(size=(p, p)) + 3.0


def chunked(a, rows):
    return da.from_array(a, chunks=(rows, a.shape[1]))


def assert_same(ours, ref):
    assert ours.solver_ == ref.solver_
    assert ours.n_components_ == ref.n_components_
    # up to the sign of each component (both fix it by the largest loading; ties could differ)
    signs = np.sign(np.sum(ours.components_ * ref.components_, axis=1))
    np.testing.assert_allclose(
        ours.components_ * signs[:, None], ref.components_, rtol=1e-10, atol=1e-12
    )
    for attr in ("mean_", "explained_variance_", "explained_variance_ratio_",
                 "singular_values_", "eigenvalues_", "total_variance_"):  # fmt: skip
        np.testing.assert_allclose(
            getattr(ours, attr), getattr(ref, attr), rtol=1e-10, atol=1e-12, err_msg=attr
        )
    if ref.scale_ is not None:
        np.testing.assert_allclose(ours.scale_, ref.scale_, rtol=1e-10)
    return signs


GRAM, GRAM_SCALED = {}, {"scale": True, "whiten": True}
TSQR, TSQR_SCALED = {"svd_solver": "full"}, {"svd_solver": "full", "scale": True,
                                            "n_components": "cumulative:0.9"}  # fmt: skip
CASES = [(GRAM, (150, 7, 150)), (GRAM_SCALED, (150, 7, 150)), (TSQR, (150, 7, 150)),
         (TSQR_SCALED, (150, 7, 150)), (GRAM_SCALED, 307), (TSQR, 307), (GRAM, 1),
         (TSQR_SCALED, 1)]  # fmt: skip


@pytest.mark.parametrize(("params", "rows"), CASES)
def test_equals_in_memory_fit(client, params, rows):
    X = data() if rows != 1 else data(n=23, seed=3)
    ref = PCA(**params).fit(X)
    ours = PCA(**params).fit(chunked(X, rows))
    signs = assert_same(ours, ref)
    scores = ours.transform(chunked(X, 10))
    assert type(scores).__module__.startswith("dask.array")
    np.testing.assert_allclose(scores.compute() * signs, ref.transform(X), rtol=1e-10, atol=1e-10)


def test_randomized_solver_follows_the_in_memory_draws(client):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(300, 700))
    X[:, :6] += 4.0 * rng.normal(size=(300, 1))
    ref = PCA(4, svd_solver="randomized", random_state=0).fit(X)
    ours = PCA(4, svd_solver="randomized", random_state=0).fit(chunked(X, (120, 100, 80)))
    assert ours.solver_ == "randomized"
    # the same subspaces in exact arithmetic (TSQR where the in-memory finder uses LU)
    assert_same(ours, ref)


def test_whitened_scores_have_unit_variance(client):
    X = data(seed=2)
    Z = PCA(3, whiten=True).fit(chunked(X, 100)).transform(chunked(X, 100)).compute()
    np.testing.assert_allclose(np.cov(Z, rowvar=False), np.eye(3), atol=1e-10)


def test_nan_in_a_chunk_gives_the_in_memory_error(client):
    X = data()
    X[250, 3] = np.nan
    with pytest.raises(ValueError) as in_memory:
        PCA().fit(X)
    with pytest.raises(ValueError) as distributed:
        PCA().fit(chunked(X, 100))
    assert str(distributed.value) == str(in_memory.value)


def test_constant_column_with_scale_as_in_memory(client):
    X = data(n=40)
    X[:, 2] = 1.5
    with pytest.raises(ValueError) as in_memory:
        PCA(scale=True).fit(X)
    with pytest.raises(ValueError) as distributed:
        PCA(scale=True).fit(chunked(X, 9))
    assert str(distributed.value) == str(in_memory.value)


def test_dataframe_columns_name_the_features(client):
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    X = data(n=60)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d", "e"])
    ref = PCA(2).fit(frame)
    ours = PCA(2).fit(dd.from_pandas(frame, npartitions=3))
    np.testing.assert_array_equal(ours.feature_names_in_, ref.feature_names_in_)
    signs = assert_same(ours, ref)
    scores = ours.transform(dd.from_pandas(frame, npartitions=2)).compute()
    np.testing.assert_allclose(scores * signs, ref.transform(frame), rtol=1e-10, atol=1e-10)
