"""Bootstrap: R's boot (SE, percentile/normal/BCa intervals), OLS SE against the analytic SE,
the batched OLS path against plain refits, and the .632 / .632+ error on a hand-computed case."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from joblib import parallel_config
from sklearn.neighbors import KNeighborsRegressor

from conftest import REFERENCE, as_float_array
from statlearning.exceptions import NumericalWarning, RankDeficientWarning
from statlearning.linear_model import LinearRegression
from statlearning.model_selection import bootstrap, bootstrap_error, jackknife
from statlearning.model_selection._bootstrap import (
    _LOSSES,
    bootstrap_error_from_indices,
)

BOOT = REFERENCE / "boot"


@pytest.fixture(scope="module")
def boot_case():
    ref = json.loads((BOOT / "boot_reference.json").read_text())
    data = np.loadtxt(BOOT / "boot_data.csv", delimiter=",", skiprows=1)
    return ref, data


def cor_and_ratio(X, y):
    u, v = X[:, 0], X[:, 1]
    return [np.corrcoef(u, v)[0, 1], v.mean() / u.mean()]


@pytest.fixture(scope="module")
def ours_bca(boot_case):
    _, data = boot_case
    return bootstrap(cor_and_ratio, data, n_resamples=20_000, ci="bca", random_state=0)


def test_boot_deterministic_parts(boot_case, ours_bca):
    ref, data = boot_case
    np.testing.assert_allclose(ours_bca.estimate, ref["t0"], rtol=1e-14)
    # the jackknife acceleration does not depend on the resamples: exact agreement
    np.testing.assert_allclose(ours_bca.acceleration, ref["acceleration_jack"], rtol=1e-10)
    jack = jackknife(cor_and_ratio, data)
    np.testing.assert_allclose(jack.se, ref["jackknife_se"], rtol=1e-10)


def test_boot_monte_carlo_parts(boot_case, ours_bca):
    # Both sides use 20,000 resamples from different generators. The relative Monte-Carlo error
    # of a bootstrap SE is about 1/sqrt(2B) = 0.5% per side; we allow 4%. An interval end point
    # (a 2.5% or 97.5% quantile) has Monte-Carlo SD of about 0.03 SE per side; we allow 0.15 SE.
    ref, _ = boot_case
    se = np.array(ref["se"])
    np.testing.assert_allclose(ours_bca.se, se, rtol=0.04)
    np.testing.assert_allclose(ours_bca.ci_low, ref["bca_low"], atol=0.15 * se.min())
    np.testing.assert_allclose(ours_bca.ci_high, ref["bca_high"], atol=0.15 * se.min())
    # BCa moves the correlation's interval well away from the percentile one, as in R
    assert ref["perc_low"][0] - ref["bca_low"][0] > 0.5 * se[0]
    assert ours_bca.ci_low[0] < ref["perc_low"][0] - 0.3 * se[0]


def test_boot_percentile_and_normal(boot_case):
    ref, data = boot_case
    se = np.array(ref["se"])
    perc = bootstrap(cor_and_ratio, data, n_resamples=20_000, random_state=1)
    np.testing.assert_allclose(perc.ci_low, ref["perc_low"], atol=0.15 * se.min())
    np.testing.assert_allclose(perc.ci_high, ref["perc_high"], atol=0.15 * se.min())
    norm = bootstrap(cor_and_ratio, data, n_resamples=20_000, ci="normal", random_state=1)
    np.testing.assert_allclose(norm.ci_low, ref["norm_low"], atol=0.1 * se.min())
    np.testing.assert_allclose(norm.ci_high, ref["norm_high"], atol=0.1 * se.min())
    np.testing.assert_allclose(norm.replicates, perc.replicates)
    width = norm.ci_high - norm.ci_low
    np.testing.assert_allclose(width, 2 * 1.959963984540054 * norm.se, rtol=1e-12)


def simulated(seed, n=200, p=4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) @ np.triu(np.ones((p, p)))
    y = 1.0 + X @ np.linspace(-1, 1, p) + rng.normal(size=n)
    return X, y


@pytest.mark.parametrize("seed", range(5))
def test_residual_bootstrap_se_matches_analytic(seed):
    # Residual bootstrap: the ideal (B → ∞) SE is exactly sqrt((n - k)/n) × the analytic SE.
    # With B = 4000 the Monte-Carlo relative error is about 1.1%; tolerance 5%.
    X, y = simulated(seed)
    fit = LinearRegression().fit(X, y)
    res = bootstrap(
        LinearRegression(),
        X,
        y,
        attribute="coef_",
        kind="residual",
        n_resamples=4000,
        random_state=seed,
    )
    ideal = fit.bse_[1:] * np.sqrt((200 - 5) / 200)
    np.testing.assert_allclose(res.se, ideal, rtol=0.05)


@pytest.mark.parametrize("seed", range(5))
def test_pairs_bootstrap_se_matches_analytic(seed):
    # Pairs bootstrap estimates the sandwich SE, which for homoscedastic errors and n = 500
    # agrees with the analytic SE to a few percent; Monte-Carlo error with B = 2000 is 1.6%.
    X, y = simulated(seed, n=500)
    fit = LinearRegression().fit(X, y)
    res = bootstrap(
        LinearRegression(), X, y, attribute="coef_", n_resamples=2000, random_state=seed
    )
    np.testing.assert_allclose(res.se, fit.bse_[1:], rtol=0.12)


@pytest.mark.parametrize("kind", ["pairs", "residual"])
@pytest.mark.parametrize("attribute", ["coef_", "intercept_"])
def test_batched_ols_equals_refits(kind, attribute):
    X, y = simulated(9, n=60, p=3)
    fast = bootstrap(
        LinearRegression(), X, y, attribute=attribute, kind=kind, n_resamples=50, random_state=3
    )

    class Wrapped(LinearRegression):  # not LinearRegression itself: takes the general path
        pass

    slow = bootstrap(
        Wrapped(), X, y, attribute=attribute, kind=kind, n_resamples=50, random_state=3
    )
    np.testing.assert_allclose(fast.replicates, slow.replicates, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(fast.estimate, slow.estimate, rtol=1e-12)


def test_batched_bca_equals_general_path():
    X, y = simulated(10, n=40, p=2)

    def stat(X, y):
        return LinearRegression().fit(X, y).coef_

    fast = bootstrap(
        LinearRegression(), X, y, attribute="coef_", ci="bca", n_resamples=300, random_state=0
    )
    slow = bootstrap(stat, X, y, ci="bca", n_resamples=300, random_state=0)
    np.testing.assert_allclose(fast.acceleration, slow.acceleration, rtol=1e-8)
    np.testing.assert_allclose(fast.ci_low, slow.ci_low, rtol=1e-9)


def test_n_jobs_and_random_state_do_not_change_the_result():
    x = np.random.default_rng(0).exponential(size=(40, 1))
    a = bootstrap(lambda X, y: X.mean(axis=0), x, n_resamples=200, random_state=5)
    with parallel_config(backend="threading"):  # threads: no worker start-up in the test
        b = bootstrap(lambda X, y: X.mean(axis=0), x, n_resamples=200, random_state=5, n_jobs=2)
    np.testing.assert_array_equal(a.replicates, b.replicates)
    c = bootstrap(lambda X, y: X.mean(axis=0), x, n_resamples=200, random_state=6)
    assert not np.array_equal(a.replicates, c.replicates)
    assert a.replicates.shape == (200, 1)
    assert a.bias == pytest.approx(a.replicates.mean() - x.mean())


def test_bad_input():
    x = np.arange(10.0)[:, None]
    with pytest.raises(ValueError, match="kind"):
        bootstrap(lambda X, y: X.mean(), x, kind="wild")
    with pytest.raises(ValueError, match="ci must"):
        bootstrap(lambda X, y: X.mean(), x, ci="studentized")
    with pytest.raises(ValueError, match="residual"):
        bootstrap(lambda X, y: X.mean(), x, x[:, 0], kind="residual")
    with pytest.raises(ValueError, match="pairs"):
        bootstrap(LinearRegression(), x, x[:, 0], attribute="coef_", kind="residual", ci="bca")
    with pytest.raises(ValueError, match="level"):
        bootstrap(lambda X, y: X.mean(), x, level=95)
    with pytest.raises(ValueError, match="n_resamples"):
        bootstrap(lambda X, y: X.mean(), x, n_resamples=1)
    with pytest.raises(ValueError, match="attribute"):
        bootstrap(LinearRegression(), x, x[:, 0])


def test_bca_warns_when_estimate_is_outside_the_replicates():
    x = np.arange(1.0, 11.0)[:, None]
    with pytest.warns(NumericalWarning, match="BCa"):
        res = bootstrap(lambda X, y: X.min(), x, n_resamples=200, ci="bca", random_state=0)
    assert np.isnan(res.ci_low).all() and np.isnan(res.ci_high).all()


# --- .632 / .632+ -------------------------------------------------------------------------

# Hand computation with 1-NN regression on x = (0, 1, 2, 3), y = (0, 1, 3, 2), squared loss:
# the full fit interpolates (apparent error 0); γ = mean over all (i, j) of (yᵢ − yⱼ)² = 40/16.
# Resamples (row indices) and their out-of-bag predictions:
#   [0,0,1,2] → x=3 predicted y(2)=3: loss (2−3)² = 1
#   [1,2,3,3] → x=0 predicted y(1)=1: loss 1
#   [0,3,3,0] → x=1 predicted y(0)=0: loss 1;  x=2 predicted y(3)=2: loss 1
#   [2,2,3,3] → x=0 predicted 3: loss 9;  x=1 predicted 3: loss 4
# Err(1) = mean over i of the mean OOB loss = ((1+9)/2 + (1+4)/2 + 1 + 1)/4 = 2.375.
# .632 = 0.632 × 2.375 = 1.501. .632+: R = (2.375 − 0)/(2.5 − 0) = 0.95,
# w = 0.632/(1 − 0.368 × 0.95) = 0.632/0.6504, estimate = w × 2.375.
TINY_X = np.array([[0.0], [1.0], [2.0], [3.0]])
TINY_Y = np.array([0.0, 1.0, 3.0, 2.0])
TINY_IDX = np.array([[0, 0, 1, 2], [1, 2, 3, 3], [0, 3, 3, 0], [2, 2, 3, 3]])


@pytest.mark.parametrize(
    ("method", "expected"),
    [("oob", 2.375), (".632", 0.632 * 2.375), (".632+", 0.632 / 0.6504 * 2.375)],
)
def test_632_plus_hand_computed(method, expected):
    res = bootstrap_error_from_indices(
        KNeighborsRegressor(n_neighbors=1),
        TINY_X,
        TINY_Y,
        TINY_IDX,
        _LOSSES["squared_error"],
        method,
    )
    assert res.apparent_error == 0.0
    assert res.no_information_error == pytest.approx(2.5, rel=1e-12)
    assert res.oob_error == pytest.approx(2.375, rel=1e-12)
    assert res.error == pytest.approx(expected, rel=1e-12)
    if method == ".632+":
        assert res.relative_overfitting == pytest.approx(0.95, rel=1e-12)


def test_632_plus_caps_at_no_information_rate():
    # labels independent of X: the .632+ estimate is (close to) the no-information error
    from sklearn.neighbors import KNeighborsClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 2))
    y = rng.choice(["a", "b"], size=60)
    res = bootstrap_error(
        KNeighborsClassifier(1), X, y, method=".632+", n_resamples=50, random_state=0
    )
    p = np.mean(y == "a")
    assert res.no_information_error == pytest.approx(2 * p * (1 - p), rel=1e-12)
    assert res.apparent_error == 0.0
    assert res.error <= res.no_information_error + 1e-12
    plain = bootstrap_error(
        KNeighborsClassifier(1), X, y, method=".632", n_resamples=50, random_state=0
    )
    assert res.error > plain.error


def test_bootstrap_error_bad_input():
    with pytest.raises(ValueError, match="method"):
        bootstrap_error(LinearRegression(), TINY_X, TINY_Y, method=".5")
    with pytest.raises(ValueError, match="scoring"):
        bootstrap_error(LinearRegression(), TINY_X, TINY_Y, scoring="r2")


def test_residual_bootstrap_of_any_regressor_and_dataframes():
    import pandas as pd

    from statlearning.linear_model import Ridge

    X, y = simulated(11, n=50, p=2)
    frame = pd.DataFrame(X, columns=["a", "b"])
    res = bootstrap(
        Ridge(alpha=1.0),
        frame,
        pd.Series(y),
        attribute="coef_",
        kind="residual",
        n_resamples=100,
        random_state=0,
    )
    assert res.replicates.shape == (100, 2)
    # residual resamples keep X: with alpha → 0 they reproduce OLS's residual bootstrap
    ols = bootstrap(
        LinearRegression(),
        X,
        y,
        attribute="coef_",
        kind="residual",
        n_resamples=100,
        random_state=0,
    )
    tiny = bootstrap(
        Ridge(alpha=1e-10),
        X,
        y,
        attribute="coef_",
        kind="residual",
        n_resamples=100,
        random_state=0,
    )
    np.testing.assert_allclose(tiny.replicates, ols.replicates, rtol=1e-6)
    pairs = bootstrap(lambda X, y: X["a"].mean(), frame, n_resamples=100, random_state=0)
    idx = np.random.RandomState(0).randint(0, 50, size=(100, 50))
    np.testing.assert_allclose(pairs.replicates[:, 0], X[idx, 0].mean(axis=1), rtol=1e-12)


# --- aliased coefficients in some resamples (R's NA) and sparse X ---------------------------

ALIASED = REFERENCE / "boot_aliased"


def _aliased_case():
    data = np.loadtxt(ALIASED / "data.csv", delimiter=",", skiprows=1)
    ref = json.loads((ALIASED / "boot_aliased_reference.json").read_text())
    return data[:, :4], data[:, 4], ref


@pytest.mark.parametrize("attribute", ["coef_", "intercept_"])
def test_aliased_replicates_are_nan_and_summaries_use_the_others_as_R(attribute):
    X, y, ref = _aliased_case()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = bootstrap(
            LinearRegression(), X, y, attribute=attribute, n_resamples=200, random_state=0
        )
    messages = [str(w.message) for w in caught if issubclass(w.category, NumericalWarning)]
    if attribute == "coef_":  # the dummy's coefficient is NA in 23 resamples; one warning
        assert len(messages) == 1 and "component 3 in 23 of 200" in messages[0]
    else:
        assert messages == []
    assert not any(issubclass(w.category, RankDeficientWarning) for w in caught)
    cols = slice(1, None) if attribute == "coef_" else slice(0, 1)
    expected = as_float_array(ref["replicates"])[:, cols]
    np.testing.assert_array_equal(np.isnan(res.replicates), np.isnan(expected))
    np.testing.assert_allclose(res.replicates, expected, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(res.se, np.array(ref["se"])[cols], rtol=1e-9)
    np.testing.assert_allclose(res.bias, np.array(ref["bias"])[cols], rtol=1e-7, atol=1e-12)
    assert np.all(np.isfinite(res.ci_low)) and np.all(res.ci_low < res.ci_high)


def test_a_coefficient_aliased_in_every_resample_gives_nan_summaries_not_an_error():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 2))
    X = np.column_stack([X, X[:, 0] + X[:, 1]])
    y = X[:, 0] + rng.normal(size=30)
    for ci in ("percentile", "normal", "bca"):
        with pytest.warns(NumericalWarning, match="component 2 in 40 of 40"):
            res = bootstrap(
                LinearRegression(), X, y, attribute="coef_", n_resamples=40, random_state=0, ci=ci
            )
        assert np.all(np.isnan([res.se[2], res.ci_low[2], res.ci_high[2], res.bias[2]]))
        assert np.all(np.isfinite(res.se[:2])) and np.all(np.isfinite(res.ci_low[:2]))


def test_sparse_X_is_resampled_by_rows():
    import scipy.sparse as sp

    X = sp.random(30, 4, density=0.5, random_state=0, format="coo")
    y = np.arange(30.0)
    res = bootstrap(lambda A, b: np.array([A.sum(), b.sum()]), X, y, n_resamples=20, random_state=0)
    assert res.replicates.shape == (20, 2) and np.all(np.isfinite(res.se))
    from statlearning.linear_model import Lasso

    with pytest.raises(TypeError, match=r"^Lasso: X is a sparse matrix"):
        bootstrap(Lasso(alpha=0.1), X, y, attribute="coef_", n_resamples=5, random_state=0)
