"""The bases against R's splines::bs, splines::ns, poly, cut and lm (tests/reference/splines)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from conftest import REFERENCE
from statlearning._core import splines
from statlearning.preprocessing import (
    BSplineFeatures,
    NaturalSplineFeatures,
    PolynomialFeatures,
    StepFeatures,
    TruncatedPowerFeatures,
    fit_basis,
)

REF = json.loads((REFERENCE / "splines" / "splines_reference.json").read_text())
BASES, FITS = REF["bases"], REF["lm_fits"]
GM = pd.read_csv(REFERENCE / "lm" / "gapminder2011.csv")
X = GM[["fertility"]]
Y = GM["life_expectancy"]
NEWX = pd.DataFrame({"fertility": BASES["newx"]})


def close(a, b, tol=1e-10):
    np.testing.assert_allclose(
        np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=tol, atol=tol
    )


@pytest.mark.parametrize(
    ("transformer", "train", "new"),
    [
        (PolynomialFeatures(4, orthogonal=True), "poly4", "poly4_new"),
        (BSplineFeatures(df=6), "bs_df6", "bs_df6_new"),
        (BSplineFeatures(knots=[2, 3.5, 5], degree=2), "bs_knots_deg2", "bs_knots_deg2_new"),
        (BSplineFeatures(df=5, include_intercept=True), "bs_df5_int", None),
        (BSplineFeatures(df=5, boundary_knots=[1.5, 6]), "bs_bk", None),
        (NaturalSplineFeatures(df=4), "ns_df4", "ns_df4_new"),
        (NaturalSplineFeatures(knots=[2, 3.5, 5]), "ns_knots", None),
        (NaturalSplineFeatures(df=1), "ns_df1", None),
        (NaturalSplineFeatures(df=5, include_intercept=True), "ns_df5_int", None),
    ],
    ids=repr,
)
def test_basis_matrices_match_r(transformer, train, new):
    fitted = transformer.fit(X)
    close(fitted.transform(X), BASES[train])
    if new is not None:  # new data, beyond the boundary knots too (R's extrapolation)
        close(fitted.transform(NEWX), BASES[new])


def test_poly_recurrence_and_knots_match_r():
    poly = PolynomialFeatures(4, orthogonal=True).fit(X)
    close(poly.alpha_[0], BASES["poly4_alpha"])
    close(poly.norm2_[0], BASES["poly4_norm2"])
    close(BSplineFeatures(df=6).fit(X).knots_[0], BASES["bs_df6_knots"])
    close(NaturalSplineFeatures(df=4).fit(X).knots_[0], BASES["ns_df4_knots"])


@pytest.mark.parametrize(
    ("kwargs", "key"),
    [
        ({"n_bins": 4}, "cut4"),
        ({"breaks": [0, 2, 3, 5, 8]}, "cut_breaks"),
        ({"n_bins": 4, "right": True}, "cut_right"),
    ],
)
def test_step_intervals_match_r_cut(kwargs, key):
    Z = StepFeatures(**kwargs).fit_transform(X)
    codes = Z @ np.arange(1, Z.shape[1] + 1) + 1  # first interval is the baseline
    np.testing.assert_array_equal(codes, BASES[key])


@pytest.mark.parametrize(
    ("basis", "key"),
    [
        (PolynomialFeatures(4, orthogonal=True), "poly4"),
        (PolynomialFeatures(4), "poly4_raw"),
        (BSplineFeatures(df=6), "bs_df6"),
        (NaturalSplineFeatures(df=4), "ns_df4"),
        (StepFeatures(4), "cut4"),
    ],
    ids=repr,
)
def test_lm_on_basis_matches_r_with_se_bands(basis, key):
    ref = FITS[key]
    model = fit_basis(X, Y, basis)
    ols = model.steps[-1][1]
    close(np.r_[ols.intercept_, ols.coef_], ref["coefficients"])
    close(ols.bse_, ref["std_error"])
    if "fit" in ref:
        fit, lower, upper = model.predict_interval(NEWX)
        close(fit, ref["fit"])
        close(lower, ref["lower"])
        close(upper, ref["upper"])
        _, se = model.standard_error(NEWX)
        close(se, ref["se_fit"])
    assert model.summary().coef_table.to_frame().index[1].startswith("fertility_")


def test_truncated_power_spans_the_bspline_space():
    """The notes' basis (K + 4 coefficients for the cubic, K + 2 for the linear spline) gives
    the fit of the B-spline basis with the same knots."""
    knots = [2.0, 3.5, 5.0]
    a = fit_basis(X, Y, TruncatedPowerFeatures(knots=knots)).predict(NEWX)
    b = fit_basis(X, Y, BSplineFeatures(knots=knots)).predict(NEWX)
    close(a, b, 1e-8)
    assert TruncatedPowerFeatures(knots=knots, degree=1).fit(X).n_output_features_ == 1 + 3


def test_columns_are_expanded_separately_and_named():
    data = GM[["infant_mortality", "fertility"]]
    bs = BSplineFeatures(df=4).fit(data)
    Z = bs.transform(data)
    assert Z.shape == (len(data), 8)
    close(Z[:, 4:], BSplineFeatures(df=4).fit_transform(data[["fertility"]]))
    assert list(bs.get_feature_names_out())[:2] == ["infant_mortality_bs1", "infant_mortality_bs2"]
    per_column = BSplineFeatures(knots=[[20.0, 40.0], [3.0]]).fit(data)
    assert per_column.n_output_features_ == 5 + 4


@pytest.mark.parametrize(
    ("transformer", "message"),
    [
        (BSplineFeatures(df=2), "df=2 is too small"),
        (NaturalSplineFeatures(df=1, include_intercept=True), "df=1 is too small"),
        (BSplineFeatures(df=4, boundary_knots=[3, 1]), "boundary_knots"),
        (StepFeatures(breaks=[3, 1, 2]), "strictly increasing"),
        (PolynomialFeatures(degree=3, orthogonal=True), "less than the number of unique"),
        (BSplineFeatures(knots=[[1.0], [2.0], [3.0]]), "one array for every column"),
    ],
    ids=repr,
)
def test_bad_parameters_are_named(transformer, message):
    data = np.array([[0.0], [1.0], [2.0], [1.0], [0.0]])
    with pytest.raises(ValueError, match=message):
        transformer.fit(data)


def test_constant_column_is_named():
    with pytest.raises(ValueError, match="column 1 is constant"):
        NaturalSplineFeatures(df=3).fit(np.column_stack([np.arange(5.0), np.ones(5)]))


def test_new_data_beyond_the_boundary_is_finite():
    for t in (
        BSplineFeatures(df=6),
        NaturalSplineFeatures(df=4),
        StepFeatures(4),
        PolynomialFeatures(3, orthogonal=True),
    ):
        Z = t.fit(X).transform(pd.DataFrame({"fertility": [-10.0, 50.0]}))
        assert np.all(np.isfinite(Z))


def test_core_linear_continuation_of_ns():
    knots, boundary = np.array([0.4]), np.array([0.0, 1.0])
    x = np.array([1.0, 2.0, 3.0])
    Z = splines.ns_basis(x, knots, boundary)
    np.testing.assert_allclose(Z[2] - Z[1], Z[1] - Z[0], atol=1e-14)


def test_logistic_regression_on_a_basis():
    """The notes' logistic extension: a spline basis under an unpenalised logistic fit."""
    from statlearning.linear_model import LogisticRegression

    high = (Y > Y.median()).astype(int)
    model = fit_basis(X, high, NaturalSplineFeatures(df=3), estimator=LogisticRegression())
    fit, lower, upper = model.predict_interval(NEWX)
    assert np.all((0 <= lower) & (lower <= fit) & (fit <= upper) & (upper <= 1))
    table = model.summary().coef_table.to_frame()
    assert list(table.index) == ["(Intercept)", "fertility_ns1", "fertility_ns2", "fertility_ns3"]
