"""Local scoring with modified backfitting against R's gam package (tests/reference/gam_backfit)."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from conftest import REFERENCE
from statlearning._core import smoothing_spline as ss
from statlearning._core.selection import golden_section_fmin
from statlearning.exceptions import ConvergenceWarning
from statlearning.gam._backfitting import local_scoring

HERE = REFERENCE / "gam_backfit"
REF = json.loads((HERE / "gam_backfit_reference.json").read_text())
DATA = pd.read_csv(HERE / "data_gam.csv")
SMALL = pd.read_csv(HERE / "data_small.csv")
X = DATA[["x1", "x2", "f"]].to_numpy(float)
NEW = np.column_stack([REF["new_x1"], REF["new_x2"], REF["new_f"]])
NEW_LO = np.column_stack([[0.5, 2.5, 5.55, 8.0], NEW[1:5, 1:]])

#: case -> (X, specs, y, family, weights, new rows) as the R script's formulas
CASES = {
    "gaussian": (X, [("ss", 0, 4), ("l", 1)], DATA.y, "gaussian", None, NEW),
    "gaussian_two": (X, [("ss", 0, 4), ("ss", 1, 5), ("f", 2)], DATA.y, "gaussian", None, NEW),
    "gaussian_weighted": (X, [("ss", 0, 6), ("l", 1)], DATA.y, "gaussian", DATA.w, NEW),
    "gaussian_small": (
        SMALL[["x1", "x2"]].to_numpy(float), [("ss", 0, 3), ("l", 1)], SMALL.y, "gaussian",
        None, NEW[1:5, :2],
    ),
    "binomial": (X, [("ss", 0, 4), ("l", 1)], DATA.yb, "binomial", None, NEW),
    "poisson": (X, [("ss", 0, 4), ("ss", 1, 3)], DATA.yc, "poisson", None, NEW),
    "loess": (X, [("lo", 0, 0.5, 1), ("l", 1)], DATA.y, "gaussian", None, NEW_LO),
    "loess_mixed": (
        X, [("lo", 0, 0.3, 2), ("ss", 1, 4), ("f", 2)], DATA.y, "gaussian", None, NEW_LO,
    ),
}  # fmt: skip
SPLINE_CASES = [c for c in CASES if not c.startswith("loess")]


def _fit(case, **kw):
    Xc, specs, y, family, w, _ = CASES[case]
    w = None if w is None else np.asarray(w, float)
    return local_scoring(Xc, specs, np.asarray(y, float), family=family, sample_weight=w, **kw)


def _columns(values):
    return np.array(values, dtype=float).T


@pytest.mark.parametrize("case", sorted(CASES))
def test_terms_match_gam(case):
    ref = REF["cases"][case]
    fit = _fit(case)
    assert fit.converged
    np.testing.assert_allclose(fit.mu, ref["fitted"], rtol=0, atol=1e-6)
    np.testing.assert_allclose(fit.eta, ref["eta"], rtol=0, atol=1e-6)
    np.testing.assert_allclose(fit.term_fits, _columns(ref["terms"]), rtol=0, atol=1e-6)
    assert fit.intercept == pytest.approx(ref["constant"], abs=1e-8)
    smooth = [k for k, spec in enumerate(CASES[case][1]) if spec[0] in ("ss", "lo")]
    # gam lists nl.df of a model with both kinds of smoother in its own order
    np.testing.assert_allclose(
        np.sort(fit.nl_df[smooth]), np.sort(np.atleast_1d(ref["nl_df"])), rtol=0, atol=1e-8
    )
    assert fit.df_residual == pytest.approx(ref["df_residual"], abs=1e-8)
    assert fit.deviance == pytest.approx(ref["deviance"], rel=1e-6)
    assert fit.null_deviance == pytest.approx(ref["null_deviance"], rel=1e-12)
    coef = np.concatenate([[fit.intercept_coef], *fit.linear_coef.values()])
    np.testing.assert_allclose(coef, ref["coefficients"], rtol=0, atol=1e-6)


@pytest.mark.parametrize("case", SPLINE_CASES)
def test_spline_predictions_at_new_rows(case):
    """gam's predict refits each smoother at the last spar its search tried (up to ~3e-4 away
    here, see the next test); ours evaluate the fitted model."""
    ref = REF["cases"][case]
    fit = _fit(case)
    new = CASES[case][5]
    terms = fit.predict_terms(new)
    np.testing.assert_allclose(terms, _columns(ref["new_terms"]), rtol=0, atol=1e-3)
    np.testing.assert_allclose(fit.intercept + terms.sum(axis=1), ref["new_link"], atol=1e-3)
    np.testing.assert_allclose(fit.predict_terms(CASES[case][0]), fit.term_fits, atol=1e-12)


def test_gam_prediction_is_the_refit_at_the_last_spar_tried():
    """The whole gap between gam's predict and ours: gam's gam.s(xeval=) refits the spline to
    the final partial residuals and leaves it at the last spar of sbart's search."""
    ref = REF["cases"]["gaussian"]
    fit = _fit("gaussian")
    y = DATA.y.to_numpy()
    x = X[:, 0]
    slope = fit.linear_coef[0][0]
    smooth = fit.term_fits[:, 0] - slope * (x - x.mean())  # the nonlinear part, gam's $smooth
    z = (y - fit.eta) + smooth
    ux, inv = np.unique(x, return_inverse=True)
    xin = (ux - ux[0]) / (ux[-1] - ux[0])
    knots = ss.smoothing_knots(xin, all_knots=False, rule="gam")
    w = np.bincount(inv, minlength=ux.size).astype(float)
    system = ss.SplineSystem.build(xin, np.bincount(inv, weights=z) / w, w, 0.0, knots)

    def crit(spar):
        return 3.0 + (5.0 - ss.df_and_rss(system, ss.lambda_from_spar(system.ratio, spar))[0]) ** 2

    best, _, last = golden_section_fmin(crit, **ss.GAM_SPAR_SEARCH)
    assert abs(best - last) < 1e-4
    refit = ss.solve_band(system, ss.lambda_from_spar(system.ratio, last), leverages=False)
    xs = (NEW[:, 0] - ux[0]) / (ux[-1] - ux[0])
    gam_refit = ss.row_values(*ss.extrapolated_rows(knots, xs), refit.coef)
    expected = _columns(ref["new_terms"])[:, 0] - slope * (NEW[:, 0] - x.mean())
    np.testing.assert_allclose(gam_refit, expected, rtol=0, atol=1e-7)


@pytest.mark.parametrize("case", ["loess", "loess_mixed"])
def test_loess_predictions_at_new_rows_match_gam(case):
    """lo() terms are loess on R's interpolation surface: new rows are evaluated on it as gam
    does (its refit at the final partial residuals reproduces the last update exactly, and a
    model mixing s() and lo() leaves its splines at the last spar tried, as gam's general.wam)."""
    ref = REF["cases"][case]
    fit = _fit(case)
    new = CASES[case][5]
    np.testing.assert_allclose(fit.predict_terms(new), _columns(ref["new_terms"]), atol=1e-6)
    np.testing.assert_allclose(
        fit.intercept + fit.predict_terms(new).sum(axis=1), ref["new_link"], atol=1e-6
    )


def test_loess_surface_is_within_five_percent_of_the_direct_fit():
    """The interpolation surface against loess computed exactly at every point (R's
    surface = "direct", LocalRegression): the same smoother to a few percent of the
    response's spread."""
    from statlearning._core.loess import local_fit

    fit = _fit("loess")
    x, y = X[:, 0], DATA.y.to_numpy()
    z = (y - fit.eta) + fit.term_fits[:, 0] - fit.linear_coef[0][0] * (x - x.mean())
    ux, inv = np.unique(x, return_inverse=True)
    w = np.bincount(inv).astype(float)
    direct = local_fit(ux[:, None], np.bincount(inv, weights=z) / w, w, ux[:, None], 0.5, 1)
    P = np.column_stack([np.ones(ux.size), ux])
    beta = np.linalg.lstsq(P * np.sqrt(w)[:, None], direct * np.sqrt(w), rcond=None)[0]
    surface = fit.term_fits[:, 0] - fit.linear_coef[0][0] * (x - x.mean())
    gap = np.max(np.abs((direct - P @ beta)[inv] - surface))
    assert 1e-3 < gap < 0.05 * np.std(y, ddof=1)


def test_exact_df_match_gives_the_trace_exactly():
    exact = _fit("gaussian_two", df_match="exact")
    np.testing.assert_allclose(exact.nl_df[:2], [3.0, 4.0], rtol=0, atol=1e-9)
    np.testing.assert_allclose(exact.edf, [4.0, 5.0, 2.0], atol=1e-9)
    gam = _fit("gaussian_two")
    np.testing.assert_allclose(exact.mu, gam.mu, atol=1e-4)


def test_fit_reconstructs_the_additive_predictor():
    fit = _fit("poisson")
    np.testing.assert_allclose(fit.intercept + fit.term_fits.sum(axis=1), fit.eta, atol=1e-12)
    assert fit.n_iter == len(fit.bf_iter) and fit.n_iter > 2


def test_zero_weights_are_left_out():
    w = np.ones(X.shape[0])
    w[::7] = 0.0
    y = DATA.y.to_numpy()
    fit = local_scoring(X, [("ss", 0, 4), ("l", 1)], y, sample_weight=w)
    keep = w > 0
    sub = local_scoring(X[keep], [("ss", 0, 4), ("l", 1)], y[keep])
    # the smoother keeps the zero-weight x among its unique values (gam does too), so the
    # knots differ a little; the fit is close, and the df bookkeeping is gam's
    np.testing.assert_allclose(fit.mu[keep], sub.mu, atol=0.05)
    assert fit.df_residual == pytest.approx(keep.sum() - 3 - fit.nl_df[0], abs=1e-9)
    # the rows with zero weight are predicted from the fitted model
    np.testing.assert_allclose(fit.intercept + fit.term_fits.sum(axis=1), fit.eta, atol=1e-12)


def test_aliased_linear_column_gets_nan():
    Xd = np.column_stack([X, X[:, 1]])
    fit = local_scoring(Xd, [("ss", 0, 4), ("l", 1), ("l", 3)], DATA.y.to_numpy())
    ref = _fit("gaussian")
    assert np.isnan(fit.linear_coef[3][0])
    np.testing.assert_allclose(fit.mu, ref.mu, atol=1e-10)
    assert fit.edf[2] == 0.0


def test_binomial_proportions_with_trials():
    """Proportions weighted by their trials are the rows expanded into Bernoulli trials."""
    rng = np.random.default_rng(3)
    trials = rng.integers(1, 6, X.shape[0])
    succ = rng.binomial(trials, 1 / (1 + np.exp(-np.sin(X[:, 0]))))
    fit = local_scoring(
        X, [("ss", 0, 3)], succ / trials, family="binomial", sample_weight=trials.astype(float)
    )
    rows = np.repeat(np.arange(X.shape[0]), trials)
    yb = np.concatenate(
        [np.r_[np.ones(s), np.zeros(t - s)] for s, t in zip(succ, trials, strict=True)]
    )
    expanded = local_scoring(X[rows], [("ss", 0, 3)], yb, family="binomial", tol=1e-10)
    first = np.r_[0, np.cumsum(trials)[:-1]]
    np.testing.assert_allclose(expanded.mu[first], fit.mu, atol=1e-6)
    np.testing.assert_allclose(expanded.nl_df, fit.nl_df, atol=1e-6)


def test_non_convergence_warns():
    with pytest.warns(ConvergenceWarning, match="local scoring did not converge"):
        local_scoring(X, [("ss", 0, 4)], DATA.yc.to_numpy(), family="poisson", max_iter=2)
    with pytest.warns(ConvergenceWarning, match="backfitting did not converge"):
        local_scoring(X, [("ss", 0, 4), ("ss", 1, 4)], DATA.y.to_numpy(), bf_max_iter=1)


@pytest.mark.parametrize(
    ("specs", "match"),
    [
        ([], "non-empty list"),
        ([("s", 0, 4)], "tuple starting with"),
        ([("ss", 0)], "must have 3 entries"),
        ([("ss", 5, 4)], "names column 5"),
        ([("ss", 0, 0.5)], "df must be a number >= 1"),
        ([("lo", 0, 0.0, 1)], "span must be positive"),
        ([("lo", 0, 0.5, 3)], "degree must be 1 or 2"),
        ([("lo", 0, 0.01, 1)], "neighbours"),
        ([("ss", 0, 150)], "allow df <"),
        ([("f", 1)], "integer factor codes"),
    ],
)
def test_bad_specs(specs, match):
    with pytest.raises(ValueError, match=match):
        local_scoring(X, specs, DATA.y.to_numpy())


def test_bad_data():
    y = DATA.y.to_numpy()
    with pytest.raises(ValueError, match="at least 4 unique values"):
        local_scoring(np.c_[np.arange(200) % 3], [("ss", 0, 2)], y)
    with pytest.raises(ValueError, match="NaN or infinity"):
        local_scoring(np.where(X == X[0, 0], np.nan, X), [("l", 0)], y)
    with pytest.raises(ValueError, match="sample_weight"):
        local_scoring(X, [("l", 0)], y, sample_weight=-np.ones(200))
    with pytest.raises(ValueError, match=r"between 0 and 1|binomial"):
        local_scoring(X, [("l", 0)], y, family="binomial")
    with pytest.raises(ValueError, match="link 'sqrt' is not available"):
        local_scoring(X, [("l", 0)], DATA.yb.to_numpy(), family="binomial", link="sqrt")
    with pytest.raises(ValueError, match="df_match"):
        local_scoring(X, [("l", 0)], y, df_match="approx")
    fit = _fit("gaussian_two")
    with pytest.raises(ValueError, match="unseen in the fit"):
        fit.predict_terms(np.c_[NEW[:, :2], np.full(NEW.shape[0], 7.0)])
    with pytest.raises(ValueError, match="3 columns"):
        fit.predict_terms(NEW[:, :2])
    with pytest.raises(ValueError, match="NaN or infinity"):
        fit.predict_terms(np.where(NEW == NEW[0, 0], np.inf, NEW))


def test_intercept_only_linear_terms_are_a_weighted_regression():
    y = DATA.y.to_numpy()
    w = DATA.w.to_numpy()
    fit = local_scoring(X, [("l", 0), ("f", 2)], y, sample_weight=w)
    A = np.column_stack([np.ones(200), X[:, 0], X[:, 2] == 1, X[:, 2] == 2])
    beta = np.linalg.lstsq(A * np.sqrt(w)[:, None], y * np.sqrt(w), rcond=None)[0]
    np.testing.assert_allclose(fit.mu, A @ beta, atol=1e-10)
    assert fit.bf_iter == [1, 1] and fit.converged
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(fit.edf, [1.0, 2.0])
