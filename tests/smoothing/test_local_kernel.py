"""LocalRegression against R's loess (surface = "direct") and KernelRegression against
statsmodels' local-constant KernelReg and a leave-one-out computed by hand."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from conftest import REFERENCE
from statlearning.exceptions import NumericalWarning
from statlearning.smoothing import KernelRegression, LocalRegression

LOESS = json.loads((REFERENCE / "splines" / "splines_reference.json").read_text())["loess"]
SIM1 = pd.read_csv(REFERENCE / "splines" / "data_sim1.csv")
SIM2 = pd.read_csv(REFERENCE / "splines" / "data_sim2.csv")
CASES = sorted(k for k, v in LOESS.items() if "degree" in v)
NEW1 = pd.DataFrame({"x": [0.5, 3.3, 9.1]})
NEW2 = pd.DataFrame({"x1": [-1.0, 0.0, 1.5], "x2": [5.0, 25.0, 40.0]})


@pytest.mark.parametrize("case", CASES)
def test_loess_matches_r(case):
    ref = LOESS[case]
    params = {"span": ref["span"], "degree": ref["degree"], "family": ref["family"]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)  # R warns too (span 0.3, degree 2)
        one = LocalRegression(**params).fit(SIM1[["x"]], SIM1["y"])
        two = LocalRegression(**params).fit(SIM2[["x1", "x2"]], SIM2["y"])
    np.testing.assert_allclose(one.predict(SIM1[["x"]]), ref["fitted_1d"], rtol=0, atol=1e-8)
    np.testing.assert_allclose(one.predict(NEW1), ref["pred_1d"], rtol=0, atol=1e-8)
    np.testing.assert_allclose(two.predict(SIM2[["x1", "x2"]]), ref["fitted_2d"], atol=1e-8)
    np.testing.assert_allclose(two.predict(NEW2), ref["pred_2d"], rtol=0, atol=1e-8)


def test_loess_weights_and_wide_span_match_r():
    model = LocalRegression(span=0.75, weights="precision")
    model.fit(SIM1[["x"]], SIM1["y"], sample_weight=SIM1["w"])
    np.testing.assert_allclose(
        model.predict(SIM1[["x"]]), LOESS["weighted"]["fitted_1d"], atol=1e-8
    )
    wide = LocalRegression(span=1.5, degree=1).fit(SIM1[["x"]], SIM1["y"])
    np.testing.assert_allclose(wide.predict(SIM1[["x"]]), LOESS["span_gt1"]["fitted_1d"], atol=1e-8)


def test_loess_robust_fit_downweights_outliers():
    model = LocalRegression(family="symmetric").fit(SIM2[["x1", "x2"]], SIM2["y"])
    assert np.all(model.robustness_weights_[[6, 32, 70]] < 0.05)
    assert np.median(model.robustness_weights_) > 0.8


def test_loess_bad_input():
    X = np.random.default_rng(0).normal(size=(30, 5))
    with pytest.raises(ValueError, match=r"span=0\.01 is too small"):
        LocalRegression(span=0.01).fit(X[:, :1], X[:, 0])
    with pytest.warns(NumericalWarning, match="near singular"):
        LocalRegression(span=0.1, degree=2).fit(X[:, :2], X[:, 0])


def _loo_by_hand(x, y, h):
    pred = []
    for i in range(x.size):
        k = np.exp(-((x - x[i]) ** 2) / (2 * h * h))
        k[i] = 0.0
        pred.append(k @ y / k.sum())
    return float(np.mean((y - np.array(pred)) ** 2))


def test_kernel_regression_matches_statsmodels_local_constant():
    kernreg = pytest.importorskip("statsmodels.nonparametric.kernel_regression")
    x, y = SIM1["x"].to_numpy(), SIM1["y"].to_numpy()
    grid = np.linspace(-1, 11, 25)
    ours = KernelRegression(bandwidth=0.4).fit(x[:, None], y).predict(grid[:, None])
    theirs = kernreg.KernelReg(y, x, var_type="c", reg_type="lc", bw=[0.4]).fit(grid)[0]
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def test_kernel_regression_cv_bandwidth_is_the_loocv_minimum():
    x, y = SIM1["x"].to_numpy(), SIM1["y"].to_numpy()
    model = KernelRegression().fit(x[:, None], y)
    h = model.bandwidth_
    assert model.cv_score_ == pytest.approx(_loo_by_hand(x, y, h), rel=1e-10)
    for factor in (0.98, 1.02):  # a local minimum of the exact LOOCV score
        assert _loo_by_hand(x, y, h * factor) > model.cv_score_


def test_kernel_regression_is_stable_far_from_the_data():
    x = np.array([0.0, 1.0, 2.0, 3.0])
    y = np.array([1.0, 2.0, 3.0, 4.0])
    model = KernelRegression(bandwidth=0.1).fit(x[:, None], y)
    np.testing.assert_allclose(model.predict([[-1e6], [1e6], [1.0]]), [1.0, 4.0, 2.0])


def test_kernel_regression_integer_weights_repeat_rows():
    x, y = SIM1["x"].to_numpy()[:40], SIM1["y"].to_numpy()[:40]
    w = np.where(np.arange(40) % 3 == 0, 2.0, 1.0)
    weighted = KernelRegression().fit(x[:, None], y, sample_weight=w)
    repeated = KernelRegression().fit(
        np.repeat(x, w.astype(int))[:, None], np.repeat(y, w.astype(int))
    )
    assert weighted.bandwidth_ == pytest.approx(repeated.bandwidth_, rel=1e-5)


@pytest.mark.parametrize(
    "params",
    [
        {"span": 0.3, "degree": 2},
        {"span": 0.5, "degree": 1, "family": "symmetric"},
        {"span": 0.75, "degree": 0},
        {"span": 1.4, "degree": 1},
    ],
)
def test_frequency_weights_are_repeated_rows(params):
    """The default weights: an integer weight is that many copies of the row, in 1-D and in
    2-D (normalisation by the trimmed SD of the repeated sample)."""
    rng = np.random.default_rng(7)
    counts = rng.integers(0, 4, SIM2.shape[0])
    for cols in (["x1"], ["x1", "x2"]):
        X = SIM2[cols].to_numpy()
        y = SIM2["y"].to_numpy()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NumericalWarning)
            weighted = LocalRegression(**params).fit(X, y, sample_weight=counts)
            repeated = LocalRegression(**params).fit(X.repeat(counts, 0), y.repeat(counts))
        np.testing.assert_allclose(weighted.scale_, repeated.scale_, rtol=1e-14)
        np.testing.assert_allclose(weighted.predict(X), repeated.predict(X), atol=1e-10)
        new = X[:5] + 0.1
        np.testing.assert_allclose(weighted.predict(new), repeated.predict(new), atol=1e-10)


def test_weights_precision_and_frequency_coincide_without_weights():
    a = LocalRegression(span=0.4, weights="precision").fit(SIM1[["x"]], SIM1["y"])
    b = LocalRegression(span=0.4).fit(SIM1[["x"]], SIM1["y"], sample_weight=np.ones(len(SIM1)))
    np.testing.assert_allclose(a.predict(SIM1[["x"]]), b.predict(SIM1[["x"]]), atol=1e-12)
    # precision weights keep R's row count: the weighted R fit differs from the frequency fit
    w = np.random.default_rng(0).integers(1, 5, len(SIM1)).astype(float)
    p = LocalRegression(span=0.4, weights="precision").fit(SIM1[["x"]], SIM1["y"], sample_weight=w)
    f = LocalRegression(span=0.4).fit(SIM1[["x"]], SIM1["y"], sample_weight=w)
    assert np.max(np.abs(p.predict(SIM1[["x"]]) - f.predict(SIM1[["x"]]))) > 1e-3


def test_frequency_weights_count_the_neighbourhood_in_weight():
    x = np.arange(10.0)[:, None]
    y = np.arange(10.0) ** 2
    with pytest.raises(ValueError, match=r"no neighbours of the 0\.5 observations"):
        LocalRegression(span=0.5).fit(x, y, sample_weight=np.full(10, 0.05))
    # halving every weight halves the count: the same fit as span halved on unit weights
    half = LocalRegression(span=0.8, degree=1).fit(x, y, sample_weight=np.full(10, 0.5))
    unit = LocalRegression(span=0.8, degree=1).fit(x, y)
    np.testing.assert_allclose(half.predict(x), unit.predict(x), atol=1e-12)


def test_repeated_sample_helpers():
    from statlearning._core.loess import repeated_median, trimmed_sd

    rng = np.random.default_rng(1)
    v = rng.normal(size=(23, 3))
    c = rng.integers(0, 5, 23)
    expanded = v.repeat(c, axis=0)
    for j in range(3):
        assert repeated_median(v[:, j], c.astype(float)) == np.median(expanded[:, j])
    assert repeated_median(v[:-1, 0], np.ones(22)) == np.median(v[:-1, 0])
    trim = int(np.ceil(0.1 * expanded.shape[0]))
    core = np.sort(expanded, axis=0)[trim : expanded.shape[0] - trim]
    np.testing.assert_allclose(trimmed_sd(v, c.astype(float)), core.std(axis=0, ddof=1))


def test_robustness_weights_ignore_rounding_residuals():
    """A robust fit that interpolates the data: residuals are rounding noise, so every point
    keeps weight 1 (the weights are not drawn from the noise)."""
    rng = np.random.RandomState(42)
    X = rng.rand(15, 30)
    y = rng.randint(0, 3, size=15).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        model = LocalRegression(span=0.5, degree=1, family="symmetric").fit(X, y)
    np.testing.assert_array_equal(model.robustness_weights_, 1.0)
