"""SmoothingSpline against R's smooth.spline (tests/reference/splines) and its own contract."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from conftest import REFERENCE
from statlearning._core import smoothing_spline as ss
from statlearning.smoothing import SmoothingSpline

REF = json.loads((REFERENCE / "splines" / "splines_reference.json").read_text())
SS = REF["smooth_spline"]
SIM1 = pd.read_csv(REFERENCE / "splines" / "data_sim1.csv")
SIM3 = pd.read_csv(REFERENCE / "splines" / "data_sim3.csv")
GM = pd.read_csv(REFERENCE / "lm" / "gapminder2011.csv")

EXACT = {  # λ given directly or through df / spar: everything to 1e-6 or better
    "sim1_df5": (SIM1, {"df": 5}, None),
    "sim1_df12_w": (SIM1, {"df": 12}, "w"),
    "sim1_spar05": (SIM1, {"spar": 0.5}, None),
    "sim1_spar12": (SIM1, {"spar": 1.2}, None),
    "sim1_lambda": (SIM1, {"lam": 1e-4}, None),
    "sim3_df8_nknots": (SIM3, {"df": 8, "all_knots": False}, None),
}
CRITERION = {  # λ by GCV / LOOCV: the criterion is flat at its minimum
    "sim1_gcv": (SIM1, {}, None),
    "sim1_gcv_w": (SIM1, {}, "w"),
    "sim3_cv": (SIM3, {"criterion": "loocv"}, None),
    "sim3_gcv_nknots": (SIM3, {"all_knots": False}, None),
}


def _fit(data, kwargs, weight):
    w = None if weight is None else data[weight].to_numpy()
    return SmoothingSpline(**kwargs).fit(data["x"].to_numpy(), data["y"].to_numpy(), w)


@pytest.mark.parametrize("case", sorted(EXACT))
def test_given_df_spar_lambda_match_r(case):
    data, kwargs, weight = EXACT[case]
    ref = SS[case]
    model = _fit(data, kwargs, weight)
    assert model.lam_ == pytest.approx(ref["lambda"], rel=1e-6)
    assert model.df_ == pytest.approx(ref["df"], abs=1e-6)
    np.testing.assert_allclose(model.predict(np.array(ref["x"])), ref["y"], rtol=0, atol=1e-6)
    np.testing.assert_allclose(model.leverages_, ref["lev"], atol=1e-6)
    xnew = np.array(ref["xnew"])  # inside and beyond the boundary (linear extrapolation)
    for deriv, key in enumerate(("pred", "pred_d1", "pred_d2")):
        np.testing.assert_allclose(model.predict(xnew, deriv=deriv), ref[key], atol=1e-6)
    if "spar" in kwargs:
        assert model.spar_ == pytest.approx(kwargs["spar"], abs=1e-12)
    else:
        assert model.gcv_ == pytest.approx(ref["cv_crit"], rel=1e-8)


@pytest.mark.parametrize("case", sorted(CRITERION))
def test_gcv_and_loocv_match_r(case):
    data, kwargs, weight = CRITERION[case]
    ref = SS[case]
    model = _fit(data, kwargs, weight)
    sd = np.std(data["y"])
    # our minimiser is at least as good as R's (tight control.spar), to rounding
    assert model.criterion_ <= ref["crit"] * (1 + 1e-10)
    # GCV: fitted values to 1e-5 sd and df to 1e-4; the LOOCV score is flatter still (R's
    # minimum and ours differ by 2e-11 in the score and 7e-4 in df)
    loo = kwargs.get("criterion") == "loocv"
    np.testing.assert_allclose(
        model.predict(np.array(ref["x"])), ref["y"], atol=(5e-5 if loo else 1e-5) * sd
    )
    assert model.df_ == pytest.approx(ref["df"], abs=1e-3 if loo else 1e-4)
    score = model.cv_ if loo else model.gcv_
    assert score == pytest.approx(ref["cv_crit"], rel=1e-8)


def test_seed_e27_spar_fits_go_from_interpolation_to_the_line():
    """Seed 004, E27: LE ~ fertility (Gapminder 2011) with spar 0, 0.5, 1, 1.5."""
    x, y = GM["fertility"].to_numpy(), GM["life_expectancy"].to_numpy()
    dfs = []
    for spar, ref in zip((0.0, 0.5, 1.0, 1.5), SS["gm_spar"], strict=True):
        model = SmoothingSpline(spar=spar).fit(x, y)
        assert model.lam_ == pytest.approx(ref["lambda"], rel=1e-6)
        assert model.df_ == pytest.approx(ref["df"], abs=1e-6)
        np.testing.assert_allclose(
            model.predict(np.array(ref["x"])), ref["y"], atol=1e-6 * np.std(y)
        )
        dfs.append(model.df_)
    assert dfs == sorted(dfs, reverse=True)
    n_unique = np.unique(x).size
    assert dfs[0] > 0.95 * n_unique  # spar = 0: 129 of 131 df, near interpolation
    assert 2.0 < dfs[-1] < 2.2  # spar = 1.5: essentially the least-squares line
    line = np.polyfit(x, y, 1)
    grid = np.linspace(x.min(), x.max(), 7)
    gap = SmoothingSpline(spar=1.5).fit(x, y).predict(grid) - np.polyval(line, grid)
    assert np.max(np.abs(gap)) < 0.1 * np.std(y)


def test_leverages_equal_the_smoother_matrix_diagonal():
    rng = np.random.default_rng(1)
    x = np.sort(rng.uniform(size=30))
    y = np.sin(5 * x) + rng.normal(scale=0.1, size=30)
    model = SmoothingSpline(df=6).fit(x, y)
    S = np.column_stack([SmoothingSpline(lam=model.lam_).fit(x, e).predict(x) for e in np.eye(30)])
    np.testing.assert_allclose(np.diag(S), model.leverages_, atol=1e-10)
    assert np.trace(S) == pytest.approx(6.0, abs=1e-9)


def test_bands_and_extrapolation():
    x, y = SIM1["x"].to_numpy(), SIM1["y"].to_numpy()
    model = SmoothingSpline(df=6).fit(x, y)
    xs = np.array([-5.0, 0.0, 5.0, 10.0, 15.0])
    fit, lower, upper = model.predict_interval(xs, level=0.9545)
    assert np.all(np.isfinite(fit)) and np.all(lower < fit) and np.all(fit < upper)
    np.testing.assert_allclose(fit, model.predict(xs))
    # at the data: var = sigma² S_ii / w_i (Wahba's Bayesian band)
    ux = np.unique(np.round(x, 6))
    f, lo, _ = model.predict_interval(ux, level=0.6826894921370859)
    np.testing.assert_allclose(
        f - lo, model.sigma_ * np.sqrt(model.leverages_ / SS_w(x)), rtol=1e-8
    )
    # linear beyond the boundary
    far = model.predict(np.array([12.0, 13.0, 14.0]))
    assert far[2] - far[1] == pytest.approx(far[1] - far[0], rel=1e-10)
    _, plo, phi = model.predict_interval(xs, kind="prediction")
    assert np.all(phi - plo > upper - lower)


def SS_w(x):
    _, counts = np.unique(np.round(x, 6), return_counts=True)
    return counts.astype(float)


@pytest.mark.parametrize(
    ("kwargs", "X", "message"),
    [
        ({}, np.ones((10, 2)), "one predictor"),
        ({}, np.array([1.0, 2.0, 3.0, 1.0, 2.0]), "at least four unique x"),
        ({"df": 8}, np.arange(6.0), "exceeds the number of unique x"),
        ({"df": 3, "spar": 0.5}, np.arange(6.0), "at most one of df, lam and spar"),
        ({"criterion": "aic"}, np.arange(6.0), "criterion"),
    ],
)
def test_bad_input_is_named(kwargs, X, message):
    with pytest.raises(ValueError, match=message):
        SmoothingSpline(**kwargs).fit(X, np.arange(len(X), dtype=float))


def test_estimator_contract_for_a_one_feature_model():
    """scikit-learn's common checks skip one-dimensional estimators (as its
    IsotonicRegression); the contract is checked here."""
    x = np.linspace(0, 1, 40)
    y = np.cos(4 * x)
    est = SmoothingSpline(df=5)
    with pytest.raises(NotFittedError):
        est.predict(x)
    assert est.fit(x, y) is est
    assert clone(est).get_params() == est.get_params()
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(est)).predict(x), est.predict(x))
    np.testing.assert_allclose(est.predict(x[:, None]), est.predict(x))
    assert est.n_features_in_ == 1
    twice = SmoothingSpline(df=5).fit(np.r_[x, x], np.r_[y, y])
    weighted = SmoothingSpline(df=5).fit(x, y, sample_weight=np.full(40, 2.0))
    np.testing.assert_allclose(twice.predict(x), weighted.predict(x), atol=1e-10)
    assert est.score(x, y) > 0.99
    frame = pd.DataFrame({"fert": x})
    fitted = SmoothingSpline(df=5).fit(frame, y)
    assert list(fitted.feature_names_in_) == ["fert"]


def test_large_n_uses_the_band():
    rng = np.random.default_rng(0)
    x = rng.uniform(size=200_000)
    y = np.sin(8 * x) + rng.normal(scale=0.3, size=x.size)
    model = SmoothingSpline(lam=1e-6).fit(x, y)
    assert model.coef_.size == np.unique(np.round(x, 9)).size + 2 or model.coef_.size > 1000
    assert np.abs(model.predict(np.array([0.5])) - np.sin(4.0)) < 0.05


def test_penalty_band_exact_third_matches_dense_integral():
    knots = np.r_[[0.0] * 3, np.linspace(0, 1, 6), [1.0] * 3]
    band = ss.penalty_band(knots, third=1 / 3)
    from scipy.interpolate import BSpline

    nb = knots.size - 4
    t = np.linspace(0, 1, 20001)
    B2 = BSpline(knots, np.eye(nb), 3)(t, nu=2)
    dense = np.trapezoid(B2[:, :, None] * B2[:, None, :], t, axis=0)
    for d in range(4):
        np.testing.assert_allclose(band[3 - d, d:], np.diag(dense, d), rtol=1e-6, atol=1e-6)


def test_plot_fit_draws_the_bayesian_band():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from statlearning.plot import plot_fit

    x, y = GM["fertility"].to_numpy(), GM["life_expectancy"].to_numpy()
    model = SmoothingSpline(df=5).fit(x, y)
    ax = plot_fit(model, x, y)
    fit, lower, upper = (line.get_ydata() for line in ax.get_lines()[:3])
    grid = ax.get_lines()[0].get_xdata()
    _, lo, _ = model.predict_interval(grid, level=0.9544997361036416)
    np.testing.assert_allclose(lower, lo, rtol=1e-10)
    np.testing.assert_allclose(upper - fit, fit - lower, rtol=1e-10)
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="band must be"):
        plot_fit(model, x, y, band="3se")


@pytest.mark.parametrize("df", [1.5, 2.0])
def test_df_at_or_below_the_line_is_refused(df):
    """The trace of a smoothing spline exceeds 2 (the least-squares line is its limit)."""
    x = np.array([0.12573022, -0.13210486, 0.64042265, 0.10490012])
    y = np.array([-0.40993915, 0.22949019, 1.9444227, 1.05198108])
    with pytest.raises(ValueError, match=r"SmoothingSpline: df=.* choose df > 2"):
        SmoothingSpline(df=df).fit(x, y)


def test_lambda_beyond_floating_point_is_a_clear_error():
    x = np.array([0.12573022, -0.13210486, 0.64042265, 0.10490012])
    y = np.array([-0.40993915, 0.22949019, 1.9444227, 1.05198108])
    # a trace above the number of unique x (10 of 4 here) is rounding, not a fit
    with pytest.raises(ValueError, match=r"SmoothingSpline: spar=-5\.0 gives lambda="):
        SmoothingSpline(spar=-5.0).fit(x, y)


def test_smoothing_spline_predicts_points_in_any_order():
    rng = np.random.default_rng(1)
    x = rng.uniform(size=3000)
    model = SmoothingSpline().fit(x[:, None], np.sin(6 * x) + rng.normal(0, 0.3, x.size))
    new = rng.uniform(-0.2, 1.2, 4000)
    order = np.argsort(new)
    for deriv in (0, 1, 2):
        np.testing.assert_array_equal(
            model.predict(new[:, None], deriv=deriv)[order],
            model.predict(new[order, None], deriv=deriv),
        )
