"""GLMRegressor and binary LogisticRegression on Dask collections: distributed IRLS gives the
in-memory fit to 1e-10 on any chunking.

Every fit runs on a local cluster of two worker processes; the data are chunked by rows
unevenly, in one chunk, and in one-row chunks (tiny data). Checked: coefficients, standard
errors, p-values, deviances, AIC, dispersion, the iteration count and the whole summary (exact
deviance-residual quantiles included); offsets and weights; L2 penalties; the in-memory errors
for NaN in a chunk and for a response outside the family's domain; the separation warning.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from statlearning.exceptions import ConvergenceWarning, NumericalWarning, RankDeficientWarning
from statlearning.linear_model import GLMRegressor, LogisticRegression

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")

pytestmark = pytest.mark.dask

UNEVEN = (90, 3, 70, 40)
INFERENCE = ("bse_", "tvalues_", "pvalues_", "cov_params_")
STATS = ("intercept_", "deviance_", "null_deviance_", "aic_", "bic_", "loglik_", "dispersion_")


def data(n=203, p=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    w = rng.uniform(0.5, 2.0, n)
    w[::17] = 0.0  # zero weights drop out of every count, as in R
    off = rng.normal(scale=0.1, size=n)
    eta = 0.3 + X @ np.linspace(0.5, -0.3, p)
    y = {
        "poisson": rng.poisson(np.exp(eta)).astype(float),
        "binomial": (rng.uniform(size=n) < 1 / (1 + np.exp(-eta))).astype(float),
        "gamma": rng.gamma(2.0, np.exp(eta) / 2.0),
        "gaussian": eta + rng.normal(size=n),
        "inverse_gaussian": rng.wald(np.exp(0.3 * eta), 5.0),
    }
    return X, y, w, off


def chunked(a, rows):
    return da.from_array(a, chunks=(rows, *a.shape[1:]))


def assert_same_fit(ours, ref, tol=1e-10, inference=True):
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=tol, atol=tol)
    np.testing.assert_allclose(ours.intercept_, ref.intercept_, rtol=tol, atol=tol)
    assert ours.n_iter_ == ref.n_iter_
    assert ours.deviance_ == pytest.approx(ref.deviance_, rel=tol, abs=tol)
    if not inference:
        return
    for attr in INFERENCE:
        np.testing.assert_allclose(
            getattr(ours, attr), getattr(ref, attr), rtol=tol, atol=tol, err_msg=attr
        )
    for attr in STATS:
        assert np.asarray(getattr(ours, attr)) == pytest.approx(
            np.asarray(getattr(ref, attr)), rel=tol, abs=tol
        ), attr
    assert (ours.n_obs_, ours.df_resid_, ours.rank_) == (ref.n_obs_, ref.df_resid_, ref.rank_)
    np.testing.assert_array_equal(ours.aliased_, ref.aliased_)
    np.testing.assert_allclose(ours._residual_quantiles, ref._residual_quantiles, rtol=tol)
    assert str(ours.summary()) == str(ref.summary())


@pytest.mark.parametrize(
    ("family", "weighted"),
    [("binomial", False), ("binomial", True), ("poisson", True), ("gamma", True),
     ("gaussian", False)],
)  # fmt: skip
def test_glm_equals_in_memory_fit(client, family, weighted):
    X, ys, w, _ = data()
    y = ys[family]
    kw = {"sample_weight": w} if weighted else {}
    ref = GLMRegressor(family=family).fit(X, y, **kw)
    dkw = {k: chunked(v, UNEVEN) for k, v in kw.items()}
    ours = GLMRegressor(family=family).fit(chunked(X, UNEVEN), chunked(y, UNEVEN), **dkw)
    assert_same_fit(ours, ref)


@pytest.mark.parametrize(("family", "link"), [("gamma", "log"), ("inverse_gaussian", None)])
def test_glm_links_and_offset_in_one_chunk(client, family, link):
    """Non-canonical links and an offset (the null deviance is then a second IRLS fit)."""
    X, ys, w, off = data()
    y = ys[family]
    ref = GLMRegressor(family=family, link=link).fit(X, y, sample_weight=w, offset=off)
    ours = GLMRegressor(family=family, link=link).fit(
        chunked(X, 203), chunked(y, 203), sample_weight=chunked(w, 203),
        offset=chunked(off, 203),
    )  # fmt: skip
    assert_same_fit(ours, ref)
    assert "offset(offset)" in str(ours.summary())


@pytest.mark.parametrize("fit_intercept", [False])
def test_glm_one_row_chunks_on_tiny_data(client, fit_intercept):
    X, ys, w, off = data(n=9, p=2, seed=3)
    ref = GLMRegressor(family="poisson", fit_intercept=fit_intercept).fit(
        X, ys["poisson"], sample_weight=w, offset=off
    )
    ours = GLMRegressor(family="poisson", fit_intercept=fit_intercept).fit(
        chunked(X, 1), chunked(ys["poisson"], 1), sample_weight=chunked(w, 1),
        offset=chunked(off, 1),
    )  # fmt: skip
    assert_same_fit(ours, ref)


def test_glm_ridge_equals_in_memory_irls(client):
    X, ys, w, _ = data()
    ref = GLMRegressor(family="poisson", alpha=0.05, solver="irls").fit(X, ys["poisson"], w)
    ours = GLMRegressor(family="poisson", alpha=0.05).fit(
        chunked(X, UNEVEN), chunked(ys["poisson"], UNEVEN), chunked(w, UNEVEN)
    )
    assert_same_fit(ours, ref, inference=False)
    assert ours.null_deviance_ == pytest.approx(ref.null_deviance_, rel=1e-10)
    # solver="auto" fits by L-BFGS in memory: the same optimum, to the optimiser's tolerance
    auto = GLMRegressor(family="poisson", alpha=0.05).fit(X, ys["poisson"], w)
    np.testing.assert_allclose(ours.coef_, auto.coef_, rtol=1e-5, atol=1e-6)


def test_glm_aliased_column_takes_the_final_tsqr(client):
    """A dependent column: the iterations switch to R's QR, from TSQR factors of the blocks."""
    X, ys, _, _ = data()
    X = np.column_stack([X, X[:, 0] - X[:, 1]])
    with pytest.warns(RankDeficientWarning, match="x3"):
        ref = GLMRegressor(family="gamma").fit(X, ys["gamma"])
    with pytest.warns(RankDeficientWarning, match="x3"):
        ours = GLMRegressor(family="gamma").fit(chunked(X, 60), chunked(ys["gamma"], 60))
    assert ours.aliased_[-1]
    assert_same_fit(ours, ref)


def test_glm_dataframe_names_and_lazy_predictions(client):
    X, ys, _, off = data()
    frame = pd.DataFrame(X, columns=["age", "dose", "mass"]).assign(count=ys["poisson"], t=off)
    ref = GLMRegressor(family="poisson").fit(frame.iloc[:, :3], frame["count"], offset=frame["t"])
    dframe = dd.from_pandas(frame, npartitions=3)
    ours = GLMRegressor(family="poisson").fit(
        dframe.iloc[:, :3], dframe["count"], offset=dframe["t"]
    )
    assert_same_fit(ours, ref)
    assert "count ~ age + dose + mass + offset(t)" in str(ours.summary())
    pred = ours.predict(dframe.iloc[:, :3])
    assert type(pred).__module__.startswith("dask.array")
    np.testing.assert_allclose(pred.compute(), ref.predict(frame.iloc[:, :3]), rtol=1e-10)


@pytest.mark.parametrize("where", ["X", "y", "offset"])
def test_glm_nan_in_a_chunk_gives_the_in_memory_error(client, where):
    X, ys, _, off = data()
    y = ys["poisson"]
    if where == "X":
        X[[120, 150], 1] = np.nan
    elif where == "y":
        y[130] = np.nan
    else:
        off[77] = np.inf
    with pytest.raises(ValueError) as in_memory:
        GLMRegressor(family="poisson").fit(X, y, offset=off)
    with pytest.raises(ValueError) as distributed:
        GLMRegressor(family="poisson").fit(chunked(X, 50), chunked(y, 50), offset=chunked(off, 50))
    assert str(distributed.value) == str(in_memory.value)


def test_glm_response_outside_the_domain(client):
    X, ys, _, _ = data()
    y = ys["gamma"].copy()
    y[99] = -1.0
    with pytest.raises(ValueError) as in_memory:
        GLMRegressor(family="gamma").fit(X, y)
    with pytest.raises(ValueError) as distributed:
        GLMRegressor(family="gamma").fit(chunked(X, 50), chunked(y, 50))
    assert str(distributed.value) == str(in_memory.value)


def test_glm_refuses_what_needs_the_rows(client):
    X, ys, _, _ = data()
    Xd, yd = chunked(X, 50), chunked(ys["poisson"], 50)
    with pytest.raises(ValueError, match="l1_ratio > 0 does not fit on Dask"):
        GLMRegressor(family="poisson", alpha=0.1, l1_ratio=0.5).fit(Xd, yd)
    with pytest.raises(ValueError, match="solver='lbfgs' does not fit on Dask"):
        GLMRegressor(family="poisson", alpha=0.1, solver="lbfgs").fit(Xd, yd)


def test_glm_non_convergence_warns_as_in_memory(client):
    X, ys, _, _ = data()
    with pytest.warns(ConvergenceWarning, match="IRLS"):
        ref = GLMRegressor(family="gamma", max_iter=2).fit(X, ys["gamma"])
    with pytest.warns(ConvergenceWarning, match="IRLS"):
        ours = GLMRegressor(family="gamma", max_iter=2).fit(
            chunked(X, 50), chunked(ys["gamma"], 50)
        )
    assert_same_fit(ours, ref)


# ----------------------------------------------------------------------------------------------
# LogisticRegression


def labels(y):
    return np.where(y > 0.5, "yes", "no")


@pytest.mark.parametrize(
    ("penalty", "C", "weighted"),
    [(None, 1.0, False), (None, 1.0, True), ("l2", 0.05, True), ("l2", 3.0, False)],
    ids=["mle", "mle-weighted", "C=0.05-weighted", "C=3"],
)
def test_logistic_equals_in_memory_fit(client, penalty, C, weighted):
    X, ys, w, _ = data()
    y = labels(ys["binomial"])
    kw = {"sample_weight": w} if weighted else {}
    ref = LogisticRegression(penalty=penalty, C=C, solver="newton").fit(X, y, **kw)
    dkw = {k: chunked(v, UNEVEN) for k, v in kw.items()}
    ours = LogisticRegression(penalty=penalty, C=C).fit(
        chunked(X, UNEVEN), chunked(y, UNEVEN), **dkw
    )
    np.testing.assert_array_equal(ours.classes_, ref.classes_)
    assert ours.solver_ == "newton"
    assert_same_fit(ours, ref, inference=penalty is None)


def test_logistic_one_row_chunks_and_lazy_predictions(client):
    X, ys, w, _ = data(n=12, p=2, seed=1)
    y = ys["binomial"]
    ref = LogisticRegression().fit(X, y, sample_weight=w)
    ours = LogisticRegression().fit(chunked(X, 1), chunked(y, 1), sample_weight=chunked(w, 1))
    assert_same_fit(ours, ref)
    proba = ours.predict_proba(chunked(X, 4))
    assert type(proba).__module__.startswith("dask.array")
    np.testing.assert_allclose(proba.compute(), ref.predict_proba(X), rtol=1e-10)


def test_logistic_separation_is_not_hidden(client):
    X, _, _, _ = data()
    y = (X[:, 0] > 0).astype(int)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ref = LogisticRegression().fit(X, y)
    assert any("separated" in str(c.message) for c in caught)
    with pytest.warns(ConvergenceWarning, match="could not be proved free of"):
        with pytest.warns(NumericalWarning, match="numerically 0 or 1"):
            ours = LogisticRegression().fit(chunked(X, 50), chunked(y, 50))
    assert ours.n_iter_ == ref.n_iter_


def test_logistic_certificate_clears_a_converged_extreme_fit(client):
    """A fit with a large |η| but no separation: the two-pass certificate proves it, as in
    memory, and no separation warning is raised."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(300, 2)) * np.array([8.0, 1.0])
    y = (rng.uniform(size=300) < 1 / (1 + np.exp(-3 * X[:, 0]))).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        ref = LogisticRegression().fit(X, y)
        ours = LogisticRegression().fit(chunked(X, 70), chunked(y, 70))
    assert_same_fit(ours, ref)


def test_logistic_refuses_what_needs_the_rows(client):
    X, ys, _, _ = data()
    Xd = chunked(X, 50)
    with pytest.raises(ValueError, match="IRLS"):
        LogisticRegression(penalty="l1", solver="cd").fit(Xd, chunked(ys["binomial"], 50))
    with pytest.raises(ValueError, match="3 classes"):
        LogisticRegression().fit(Xd, chunked(np.arange(203) % 3, 50))


@pytest.mark.parametrize("where", ["X", "y", "y-two-labels"])
def test_logistic_nan_in_a_chunk_gives_the_in_memory_error(client, where):
    X, ys, _, _ = data()
    y = ys["binomial"]
    if where == "X":
        X[[120, 150], 1] = np.nan
    elif where == "y":  # three distinct values, NaN among them
        y[130] = np.nan
    else:  # only NaN and one label: two "classes"
        y[:] = 1.0
        y[[5, 130]] = np.nan
    with pytest.raises(ValueError) as in_memory:
        LogisticRegression().fit(X, y)
    with pytest.raises(ValueError) as distributed:
        LogisticRegression().fit(chunked(X, 50), chunked(y, 50))
    assert str(distributed.value) == str(in_memory.value)


def test_logistic_passes_over_the_data(client, compute_calls, monkeypatch):
    """A pass over y for the labels, one over X for the validation, the sums and R's starting
    point, one per iteration (the last also reads the fit statistics), then the residual
    quantiles (one pass on data this small)."""
    X, ys, w, _ = data()
    y = labels(ys["binomial"])
    ours = LogisticRegression().fit(
        chunked(X, UNEVEN), chunked(y, UNEVEN), sample_weight=chunked(w, UNEVEN)
    )
    assert len(compute_calls) == ours.n_iter_ + 3
    monkeypatch.undo()
    ref = LogisticRegression(solver="newton").fit(X, y, sample_weight=w)
    assert_same_fit(ours, ref)
    assert str(ours.summary()) == str(ref.summary())


def test_glm_statistics_read_with_the_last_iteration(client, compute_calls):
    """The first pass (validation, sums, R's starting point), one per iteration (the last
    also reads the fit statistics), then the residual quantiles (one pass on data this
    small)."""
    X, ys, w, _ = data()
    ours = GLMRegressor(family="poisson").fit(
        chunked(X, UNEVEN), chunked(ys["poisson"], UNEVEN), sample_weight=chunked(w, UNEVEN)
    )
    assert len(compute_calls) == ours.n_iter_ + 2
    ref = GLMRegressor(family="poisson").fit(X, ys["poisson"], sample_weight=w)
    assert_same_fit(ours, ref)
