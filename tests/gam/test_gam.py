"""GAMRegressor and GAMClassifier: terms, bases, criteria and errors."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from statlearning._core import penalised_bases as pb
from statlearning._core.families import get_family
from statlearning._core.links import get_link
from statlearning._solvers.pirls import Penalty, _Problem
from statlearning.exceptions import RankDeficientWarning
from statlearning.gam import GAMClassifier, GAMRegressor, Terms, f, l, lo, s, ss, te


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(
        {
            "x1": rng.uniform(size=n),
            "x2": rng.uniform(size=n),
            "g": pd.Categorical(rng.choice(["u", "v", "w"], size=n)),
        }
    )
    eff = X["g"].map({"u": 0.0, "v": 0.5, "w": -0.5}).to_numpy(float)
    y = np.sin(2 * np.pi * X["x1"]) + 2 * X["x2"] + eff + rng.normal(scale=0.3, size=n)
    return X, y


def test_terms_add_and_print():
    terms = s(0) + s("x2", n_basis=5, basis="bs") + f("g") + l(3) + te(0, 1)
    assert isinstance(terms, Terms) and len(terms) == 5
    assert repr(terms) == (
        "s(0, n_basis=10) + s('x2', n_basis=5, basis='bs') + f('g') + l(3) + te(0, 1, n_basis=5)"
    )
    assert s(0) == s(0) and hash(s(0)) == hash(s(0))


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: s(0, n_basis=2), "n_basis must be an integer >= 3"),
        (lambda: s(0, basis="xx"), "basis must be one of"),
        (lambda: s(0, lam=-1.0), "lam must be a non-negative number"),
        (lambda: s(1.5), "integer index or a column name"),
        (lambda: ss(0, df=0), "df must be a positive number"),
        (lambda: lo(0, span=2), r"span must be in \(0, 1\]"),
        (lambda: te(0, 0), "the two columns must differ"),
    ],
)
def test_term_constructor_errors(build, message):
    with pytest.raises((ValueError, TypeError), match=message):
        build()


def test_cr_basis_is_cardinal_and_penalty_integrates_curvature():
    x = np.linspace(0, 1, 101)
    knots = pb.cr_knots(x, 6)
    X = pb.cr_basis(knots, knots)
    np.testing.assert_allclose(X, np.eye(6), atol=1e-12)  # values at the knots
    beta = knots**2  # not a natural spline, but its interpolant's curvature is finite
    S = pb.cr_penalty(knots)
    fine = np.linspace(0, 1, 20001)
    curve = pb.cr_basis(fine, knots) @ beta
    second = np.gradient(np.gradient(curve, fine), fine)
    np.testing.assert_allclose(beta @ S @ beta, np.trapezoid(second**2, fine), rtol=1e-3)
    # linear beyond the end knots
    out = pb.cr_basis(np.array([-2.0, -1.0, 0.0, 1.0, 2.0, 3.0]), knots) @ beta
    assert np.isclose(out[1] - out[0], out[2] - out[1], rtol=1e-9)
    assert np.isclose(out[4] - out[3], out[5] - out[4], rtol=1e-9)
    # ... continuing the end slope of the spline
    np.testing.assert_allclose(
        out[2] - out[1], (curve[1] - curve[0]) / (fine[1] - fine[0]), rtol=1e-3
    )


def test_sum_to_zero_constraint_centres_each_smooth():
    X, y = _data()
    model = GAMRegressor([s("x1"), s("x2"), f("g")]).fit(X, y)
    for term in ("s(x1)", "s(x2)"):
        values, se = model.partial_dependence(term, X)
        assert abs(values.mean()) < 1e-10
        assert np.all(se > 0)
    eta = model.intercept_ + sum(model.partial_dependence(t, X)[0] for t in range(3))
    np.testing.assert_allclose(eta, model.predict(X), rtol=1e-12)


@pytest.mark.parametrize("criterion", ["gcv", "reml"])
@pytest.mark.parametrize("family", ["gaussian", "poisson", "binomial", "gamma"])
def test_criterion_gradient_is_exact(family, criterion):
    """The analytic gradient of GCV/UBRE/REML in log λ against central differences."""
    rng = np.random.default_rng(1)
    n = 200
    x1, x2 = rng.uniform(size=n), rng.uniform(size=n)
    eta = np.sin(2 * np.pi * x1) + x2
    y = {
        "gaussian": eta + rng.normal(scale=0.3, size=n),
        "poisson": rng.poisson(np.exp(eta)),
        "binomial": rng.binomial(1, 1 / (1 + np.exp(-eta))),
        "gamma": rng.gamma(2.0, np.exp(eta) / 2.0),
    }[family].astype(float)
    cols, pens, start = [np.ones((n, 1))], [], 1
    for x in (x1, x2):
        k = pb.cr_knots(x, 8)
        B = pb.cr_basis(x, k)
        S, _ = pb.scale_penalty(pb.cr_penalty(k), B)
        Z = pb.sum_to_zero(B)
        cols.append(B @ Z)
        pens.append(Penalty(start, start + 7, Z.T @ S @ Z))
        start += 7
    fam = get_family(family)
    link = get_link("log" if family == "gamma" else fam.canonical_link)
    prob = _Problem(np.hstack(cols), y, np.ones(n), fam, link, pens, criterion, None)
    rho = np.array([0.5, 2.0])
    _, grad, _ = prob.criterion_at(rho)
    h = 1e-5
    num = []
    for j in range(2):
        e = np.zeros(2)
        e[j] = h
        num.append(
            (prob.criterion_at(rho + e, False)[0] - prob.criterion_at(rho - e, False)[0]) / (2 * h)
        )
    tol = 1e-5 if link.name == fam.canonical_link or family == "gaussian" else 5e-2
    np.testing.assert_allclose(grad, num, rtol=tol, atol=1e-7 * abs(prob.criterion_at(rho)[0]))


def test_fixed_smoothing_parameter():
    X, y = _data()
    free = GAMRegressor([s("x1"), s("x2")]).fit(X, y)
    fixed = GAMRegressor([s("x1", lam=1e4), s("x2")]).fit(X, y)
    assert fixed.smoothing_params_[0] == 1e4
    assert fixed.edf_[0] < free.edf_[0]
    huge = GAMRegressor([s("x1", lam=1e12), s("x2", lam=1e12)]).fit(X, y)
    np.testing.assert_allclose(huge.edf_, [1.0, 1.0], atol=1e-4)  # the linear null space


def test_auto_terms_from_frame_and_array():
    X, y = _data()
    X["flag"] = X["x1"] > 0.5
    X["few"] = np.arange(len(X)) % 3
    X["const"] = 1.0
    model = GAMRegressor().fit(X, y)
    assert [repr(t) for t in model.terms_] == [
        "s(0, n_basis=10)",
        "s(1, n_basis=10)",
        "f(2)",
        "f(3)",
        "l(4)",
    ]
    assert model.edf_.shape == (5,)
    assert model.summary().coef_table.names == ["(Intercept)", "gv", "gw", "flagTrue", "few"]


def test_unseen_level_names_the_column():
    X, y = _data()
    model = GAMRegressor([s("x1"), f("g")]).fit(X, y)
    new = X.head(3).copy()
    new["g"] = pd.Categorical(["u", "zz", "v"])
    with pytest.raises(ValueError, match=r"column 'g' has level\(s\) \['zz'\] not seen at fit"):
        model.predict(new)
    arr = np.column_stack([X["x1"], X["g"].cat.codes])
    m2 = GAMRegressor([s(0), f(1)]).fit(arr, y)
    with pytest.raises(ValueError, match="column 'x1' has level"):
        m2.predict(np.array([[0.5, 7.0]]))


def test_bad_terms():
    X, y = _data()
    with pytest.raises(ValueError, match="term column index 5 is out of range"):
        GAMRegressor([s(5)]).fit(X, y)
    with pytest.raises(ValueError, match="term column 'nope' is not a column"):
        GAMRegressor([s("nope")]).fit(X, y)
    with pytest.raises(ValueError, match="has 3 distinct value"):
        GAMRegressor([s("g")]).fit(X.assign(g=X["g"].cat.codes), y)
    assert np.isfinite(GAMRegressor([s("x1", basis="tp")]).fit(X, y).edf_).all()
    with pytest.raises(ValueError, match="backfitting smoother"):
        GAMRegressor([ss("x1")]).fit(X, y)
    with pytest.warns(RankDeficientWarning, match=r"aliased: x2\)"):
        aliased = GAMRegressor([s("x1"), l("x2"), l("x2")]).fit(X, y)
    assert np.isnan(aliased.coef_[-1]) and aliased.edf_[-1] == 0
    reference = GAMRegressor([s("x1"), l("x2")]).fit(X, y)
    np.testing.assert_allclose(aliased.predict(X), reference.predict(X), rtol=1e-10)
    assert "NA" in str(aliased.summary())
    with pytest.raises(ValueError, match="unknown term"):
        GAMRegressor([s("x1")]).fit(X, y).partial_dependence("s(x9)", X)
    with pytest.raises(ValueError, match="y must be"):
        GAMRegressor([s("x1")], family="poisson").fit(X, y)


def test_backfitting_method():
    X, y = _data()
    with pytest.raises(ValueError, match="takes ss\\(\\), lo\\(\\), l\\(\\) and f\\(\\)"):
        GAMRegressor([s("x1")], method="backfitting").fit(X, y)


def test_classifier_binary_only_and_weights():
    X, y = _data()
    labels = np.where(y > np.median(y), "high", "low")
    clf = GAMClassifier([s("x1"), s("x2"), f("g")]).fit(X, labels)
    proba = clf.predict_proba(X)
    assert proba.shape == (len(X), 2) and np.allclose(proba.sum(axis=1), 1)
    assert np.mean(clf.predict(X) == labels) > 0.8
    with pytest.raises(ValueError, match="Only binary classification is supported"):
        GAMClassifier().fit(X, np.arange(len(X)) % 3)
    # integer weights are repeated rows
    w = np.arange(len(X)) % 3
    rep = np.repeat(np.arange(len(X)), w)
    a = GAMClassifier([s("x1"), s("x2")]).fit(X, labels, sample_weight=w)
    b = GAMClassifier([s("x1"), s("x2")]).fit(X.iloc[rep], labels[rep])
    np.testing.assert_allclose(a.smoothing_params_, b.smoothing_params_, rtol=1e-5)
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X), atol=1e-7)


def test_prediction_beyond_the_data_is_linear_and_finite():
    X, y = _data()
    model = GAMRegressor([s("x1"), s("x2")]).fit(X[["x1", "x2"]], y)
    new = pd.DataFrame({"x1": [1.5, 2.0, 2.5], "x2": [0.5, 0.5, 0.5]})
    p = model.predict(new)
    assert np.all(np.isfinite(p))
    np.testing.assert_allclose(p[2] - p[1], p[1] - p[0], rtol=1e-9)


def test_summary_layout():
    X, y = _data()
    text = str(GAMRegressor([s("x1"), s("x2"), f("g")], criterion="reml").fit(X, y).summary())
    for piece in (
        "Family: gaussian",
        "Link function: identity",
        "Parametric coefficients:",
        "Approximate significance of smooth terms:",
        "edf Ref.df",
        "R-sq.(adj) =",
        "-REML =",
        "n = 300",
    ):
        assert piece in text
