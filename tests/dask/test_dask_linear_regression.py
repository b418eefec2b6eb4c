"""LinearRegression on Dask collections: the in-memory fit to 1e-10 on any chunking.

Every fit runs on a local cluster of two worker processes; the data are chunked by rows
unevenly, in one chunk, and in one-row chunks (tiny data). Checked: coefficients, standard
errors, p-values, deviance, AIC and the whole summary (exact residual quantiles included), the
in-memory error for NaN in a chunk, column names from a Dask DataFrame, lazy predictions, and
that no training data are stored on the estimator.
"""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

from statlearning.exceptions import RankDeficientWarning
from statlearning.linear_model import LinearRegression

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")

pytestmark = pytest.mark.dask

ATTRIBUTES = ("coef_", "bse_", "tvalues_", "pvalues_", "cov_params_")
STATS = (
    "intercept_",
    "deviance_",
    "sigma_",
    "r_squared_",
    "adj_r_squared_",
    "f_statistic_",
    "f_pvalue_",
    "loglik_",
    "aic_",
    "bic_",
)


def data(n=203, p=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) + rng.normal(size=p)
    y = 3.0 + X @ rng.normal(size=p) + rng.normal(size=n)
    w = rng.uniform(0.2, 2.0, size=n)
    w[::17] = 0.0  # zero weights drop out of every count, as in R
    return X, y, w


def assert_same_fit(ours, ref, tol=1e-10):
    for attr in ATTRIBUTES:
        np.testing.assert_allclose(
            getattr(ours, attr), getattr(ref, attr), rtol=tol, atol=tol, err_msg=attr
        )
    for attr in STATS:
        assert getattr(ours, attr) == pytest.approx(getattr(ref, attr), rel=tol, abs=tol), attr
    np.testing.assert_array_equal(ours.aliased_, ref.aliased_)
    assert (ours.n_obs_, ours.df_resid_, ours.rank_) == (ref.n_obs_, ref.df_resid_, ref.rank_)
    np.testing.assert_allclose(
        ours._residual_quantiles, ref._residual_quantiles, rtol=tol, atol=tol
    )
    assert str(ours.summary()) == str(ref.summary())


def chunked(a, rows):
    return da.from_array(a, chunks=(rows, *a.shape[1:]))


CHUNKINGS = {"uneven": (90, 3, 70, 40), "single": 203, "even": 50}


@pytest.mark.parametrize(
    ("solver", "weighted", "chunks"),
    [("qr", w, c) for w in (False, True) for c in CHUNKINGS]
    + [("normal", True, "uneven"), ("gd", False, "uneven"), ("svd", True, "uneven")],
)
def test_equals_in_memory_fit(client, solver, weighted, chunks):
    X, y, w = data()
    rows = CHUNKINGS[chunks]
    sw = w if weighted else None
    ref = LinearRegression(solver=solver).fit(X, y, sample_weight=sw)
    ours = LinearRegression(solver=solver).fit(
        chunked(X, rows), chunked(y, rows), sample_weight=None if sw is None else chunked(w, rows)
    )
    assert_same_fit(ours, ref)


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_one_row_chunks_on_tiny_data(client, fit_intercept):
    X, y, w = data(n=9, p=2, seed=4)
    ref = LinearRegression(fit_intercept=fit_intercept).fit(X, y, sample_weight=w)
    ours = LinearRegression(fit_intercept=fit_intercept).fit(
        chunked(X, 1), chunked(y, 1), sample_weight=chunked(w, 1)
    )
    assert_same_fit(ours, ref)


def test_aliased_column_as_in_memory(client):
    X, y, _ = data()
    X = np.column_stack([X, X[:, 0] + 2 * X[:, 1]])  # dependent on earlier columns
    with pytest.warns(RankDeficientWarning, match="x4"):
        ref = LinearRegression().fit(X, y)
    with pytest.warns(RankDeficientWarning, match="x4"):
        ours = LinearRegression().fit(chunked(X, 60), chunked(y, 60))
    assert ours.aliased_[-1]
    assert_same_fit(ours, ref)


@pytest.mark.parametrize("values", ["normal", "ties", "heavy tails"])
def test_exact_quantiles_through_counting_passes(client, monkeypatch, values):
    """NumPy's quantiles exactly, also when the values are narrowed down in several passes."""
    from statlearning import _dask

    monkeypatch.setattr(_dask, "SELECT_CAP", 5)
    monkeypatch.setattr(_dask, "SELECT_BINS", 64)  # at most 12 passes
    monkeypatch.setattr(_dask, "FIRST_BINS", 16)
    rng = np.random.default_rng(1)
    v = {
        "normal": rng.normal(size=601),
        "ties": np.r_[np.zeros(300), 1e-300, np.round(rng.normal(size=200), 1)],
        "heavy tails": rng.standard_cauchy(400) ** 3,
    }[values]
    blocks = list(chunked(v, 37).to_delayed().ravel())
    probs = [0.0, 0.1, 0.25, 0.5, 0.75, 1.0]
    got = _dask.exact_quantiles(blocks, v.size, probs, v.min(), v.max())
    np.testing.assert_array_equal(got, np.quantile(v, probs))


def test_exact_quantiles_of_normal_values_in_two_passes(client, compute_calls):
    """Bins equally wide in value first: one counting pass, then one collecting pass."""
    from statlearning import _dask

    v = np.random.default_rng(2).normal(size=200_000)
    blocks = list(chunked(v, 50_000).to_delayed().ravel())
    probs = [0.0, 0.25, 0.5, 0.75, 1.0]
    got = _dask.exact_quantiles(blocks, v.size, probs, v.min(), v.max())
    np.testing.assert_array_equal(got, np.quantile(v, probs))
    assert len(compute_calls) == 2


def test_dataframe_names_and_lazy_predictions(client):
    X, y, w = data()
    frame = pd.DataFrame(X, columns=["age", "dose", "height", "mass"]).assign(resp=y, w=w)
    ref = LinearRegression().fit(frame.iloc[:, :4], frame["resp"], sample_weight=frame["w"])
    dframe = dd.from_pandas(frame, npartitions=3)
    ours = LinearRegression().fit(dframe.iloc[:, :4], dframe["resp"], sample_weight=dframe["w"])
    assert_same_fit(ours, ref)
    assert list(ours.feature_names_in_) == ["age", "dose", "height", "mass"]
    assert "resp ~ age + dose + height + mass" in str(ours.summary())
    pred = ours.predict(dframe.iloc[:, :4])
    assert type(pred).__module__.startswith("dask.array")  # lazy
    np.testing.assert_allclose(pred.compute(), ref.predict(frame.iloc[:, :4]), rtol=1e-10)


def test_array_gives_x_names_and_y(client):
    X, y, _ = data()
    ours = LinearRegression().fit(chunked(X, 50), chunked(y, 50))
    assert not hasattr(ours, "feature_names_in_")
    assert "y ~ x0 + x1 + x2 + x3" in str(ours.summary())


@pytest.mark.parametrize("where", ["X", "y"])
def test_nan_in_a_chunk_gives_the_in_memory_error(client, where):
    X, y, _ = data()
    if where == "X":
        X[[120, 150], 2] = np.nan
    else:
        y[130] = np.inf
    with pytest.raises(ValueError) as in_memory:
        LinearRegression().fit(X, y)
    with pytest.raises(ValueError) as distributed:
        LinearRegression().fit(chunked(X, 50), chunked(y, 50))
    assert str(distributed.value) == str(in_memory.value)
    assert "row 1" in str(distributed.value)  # a global row number, not a row of the chunk


def test_bad_weights_and_shapes(client):
    X, y, w = data()
    w[5] = -1.0
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        LinearRegression().fit(chunked(X, 50), chunked(y, 50), sample_weight=chunked(w, 50))
    with pytest.raises(ValueError, match="X has 203 rows but y has 200"):
        LinearRegression().fit(chunked(X, 50), chunked(y[:200], 50))


@pytest.mark.parametrize("fit_intercept", [True, False])
def test_svd_minimum_norm_on_a_rank_deficient_design(client, fit_intercept):
    """solver='svd': the SVD of the TSQR factor of the centred rows gives the in-memory
    minimum-norm solution and pseudo-inverse covariance (no NaN coefficient)."""
    X, y, w = data()
    X = np.column_stack([X, X[:, 0] + 2 * X[:, 1]])
    with pytest.warns(RankDeficientWarning, match="minimum-norm"):
        ref = LinearRegression(solver="svd", fit_intercept=fit_intercept).fit(X, y, w)
    with pytest.warns(RankDeficientWarning, match="minimum-norm"):
        ours = LinearRegression(solver="svd", fit_intercept=fit_intercept).fit(
            chunked(X, (90, 3, 70, 40)), chunked(y, (90, 3, 70, 40)), chunked(w, (90, 3, 70, 40))
        )
    assert not np.isnan(ours.coef_).any()
    assert_same_fit(ours, ref)


def test_extreme_scales_are_an_error_not_a_silent_loss(client):
    X, y, _ = data()
    X[:, 1] *= 2.0**230  # in memory such a column is rescaled exactly; blockwise it is not
    with pytest.raises(ValueError, match=r"column 1 has magnitude .* beyond 2\*\*±200"):
        LinearRegression().fit(chunked(X, 50), chunked(y, 50))


def test_no_training_data_stored(client):
    X, y, w = data()
    ours = LinearRegression().fit(chunked(X, 50), chunked(y, 50), sample_weight=chunked(w, 50))
    for name, value in vars(ours).items():
        assert not type(value).__module__.startswith("dask"), name
        assert np.size(value) < X.shape[0], name


def test_unsupported_estimator_says_so(client):
    from statlearning.linear_model import Lasso

    X, y, _ = data()
    with pytest.raises(TypeError, match="Lasso does not fit on Dask collections"):
        Lasso().fit(chunked(X, 50), chunked(y, 50))


def test_numpy_fit_does_not_import_dask():
    code = (
        "import sys, numpy as np\n"
        "from statlearning.linear_model import LinearRegression\n"
        "LinearRegression().fit(np.arange(20.).reshape(10, 2) ** 2, np.arange(10.))\n"
        "print('dask' in sys.modules, 'distributed' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_without_a_cluster_uses_the_local_scheduler():
    """No client: Dask's default scheduler runs the same passes."""
    X, y, _ = data()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        import dask

        with dask.config.set(scheduler="synchronous"):
            ours = LinearRegression().fit(chunked(X, 64), chunked(y, 64))
    assert_same_fit(ours, LinearRegression().fit(X, y))


@pytest.mark.parametrize("fit_intercept", [True, False])
@pytest.mark.parametrize("rows", [(90, 3, 70, 40), 1], ids=["uneven", "one-row"])
def test_ridge_equals_in_memory_fit(client, fit_intercept, rows):
    from statlearning.linear_model import Ridge

    X, y, w = data() if rows != 1 else data(n=11, p=2, seed=7)
    ref = Ridge(alpha=2.0, fit_intercept=fit_intercept).fit(X, y, sample_weight=w)
    ours = Ridge(alpha=2.0, fit_intercept=fit_intercept).fit(
        chunked(X, rows), chunked(y, rows), sample_weight=chunked(w, rows)
    )
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-10, atol=1e-12)
    assert ours.intercept_ == pytest.approx(ref.intercept_, rel=1e-10, abs=1e-12)
    assert ours.solver_ == ref.solver_ == "cholesky"


def test_ridge_refuses_what_needs_the_data_in_memory(client):
    from statlearning.linear_model import Ridge

    X, y, _ = data()
    with pytest.raises(ValueError, match="solver='svd' does not fit on Dask"):
        Ridge(solver="svd").fit(chunked(X, 50), chunked(y, 50))


def _die_once(block, marker):
    """Kill this worker process the first time a block reaches it (fault injection)."""
    import os

    if block.shape[0] and not os.path.exists(marker):
        with open(marker, "w"):
            pass
        os._exit(1)
    return block


@pytest.mark.slow
def test_worker_killed_mid_fit_is_recomputed(client, tmp_path):
    """A worker process that dies mid-fit: Dask reruns its tasks elsewhere (or on the restarted
    worker) and the fit is the in-memory one, never a silently different answer."""
    X, y, _ = data()
    marker = str(tmp_path / "killed")
    Xd = chunked(X, 50).map_blocks(_die_once, marker, dtype=np.float64)
    ours = LinearRegression().fit(Xd, chunked(y, 50))
    assert (tmp_path / "killed").exists()  # a worker did die
    assert_same_fit(ours, LinearRegression().fit(X, y))
    client.wait_for_workers(2, timeout=60)  # the nanny restarted it for the other tests
