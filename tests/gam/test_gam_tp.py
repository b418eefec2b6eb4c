"""mgcv's thin plate regression splines (``bs = "tp"``) against smoothCon and gam
(tests/reference/gam/make_gam_tp_reference.R)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from conftest import REFERENCE
from statlearning._core.penalised_bases import ThinPlate
from statlearning.gam import GAMRegressor, f, s

REF = json.loads((REFERENCE / "gam" / "gam_tp_reference.json").read_text())
SIM = pd.read_csv(REFERENCE / "gam" / "sim.csv", skipinitialspace=True)
X = SIM[["x1", "x2", "f"]]


def _same_up_to_column_signs(X, S, ref):
    Xr, Sr = np.array(ref["X"]), np.array(ref["S"])
    sign = np.sign(np.sum(X * Xr, axis=0))
    np.testing.assert_allclose(X * sign, Xr, rtol=0, atol=1e-9)
    np.testing.assert_allclose(S * np.outer(sign, sign), Sr, rtol=0, atol=1e-10 * np.abs(Sr).max())


@pytest.mark.parametrize("key", ["k10", "k6"])
def test_basis_and_penalty_match_smoothcon(key):
    ref = REF["bases"][key]
    tp = ThinPlate(SIM.x1.to_numpy(), ref["k"])
    assert tp.shift[0] == pytest.approx(ref["shift"], rel=1e-14) and tp.M == ref["null_dim"]
    _same_up_to_column_signs(tp.basis(SIM.x1.to_numpy()), tp.S, ref)


def test_two_dimensional_basis_matches_smoothcon():
    ref = REF["basis_2d"]
    xz = SIM[["x1", "x2"]].to_numpy()
    tp = ThinPlate(xz, ref["k"])
    assert tp.M == ref["null_dim"] == 3
    _same_up_to_column_signs(tp.basis(xz), tp.S, ref)


@pytest.mark.parametrize(
    ("key", "terms", "criterion"),
    [
        ("reml", [s("x1", basis="tp"), s("x2", basis="tp"), f("f")], "reml"),
        ("gcv", [s("x1", n_basis=6, basis="tp"), s("x2", basis="tp"), f("f")], "gcv"),
    ],
)
def test_fit_matches_mgcv(key, terms, criterion):
    ref = REF[key]
    model = GAMRegressor(terms, criterion=criterion).fit(X, SIM.y_gauss)
    np.testing.assert_allclose(model.predict(X), ref["fitted"], rtol=0, atol=1e-4)
    np.testing.assert_allclose(model.edf_[:2], ref["edf"], atol=1e-3)
    np.testing.assert_allclose(np.log(model.smoothing_params_), np.log(ref["sp"]), atol=0.01)
    if "link_new" in ref:
        new = pd.DataFrame({"x1": [0.05, 0.5, 0.93], "x2": [0.2, 0.4, 0.8], "f": ["a", "b", "c"]})
        np.testing.assert_allclose(model.predict(new), ref["link_new"], atol=1e-4)


def test_formula_s_defaults_to_thin_plate():
    pytest.importorskip("formulaic")
    from statlearning.formula import gam

    fit = gam("y_gauss ~ s(x1) + s(x2) + f", SIM, method="REML")
    np.testing.assert_allclose(fit.predict(SIM), REF["reml"]["fitted"], rtol=0, atol=1e-4)


def test_thin_plate_knot_subset_and_bad_k():
    rng = np.random.default_rng(0)
    x = rng.uniform(size=300)
    tp = ThinPlate(x, 10, max_knots=50)
    assert tp.knots.shape[0] == 50
    B = tp.basis(np.r_[x, -1.0, 2.0])
    assert B.shape == (302, 10) and np.all(np.isfinite(B))
    with pytest.raises(ValueError, match="k <= 4"):
        ThinPlate(x[:4], 6)
    with pytest.raises(ValueError, match="fewer than the basis dimension"):
        GAMRegressor([s(0, basis="tp")]).fit(np.c_[np.arange(20) % 5], np.arange(20.0))


def test_bivariate_thin_plate_fit_matches_mgcv():
    """mgcv's gam(y ~ s(x1, x2, bs = "tp", k = 20) + f, method = "REML")."""
    ref = REF["reml_2d"]
    model = GAMRegressor([s(("x1", "x2"), n_basis=20, basis="tp"), f("f")], criterion="reml")
    model.fit(X, SIM.y_gauss)
    np.testing.assert_allclose(model.predict(X), ref["fitted"], rtol=0, atol=1e-4)
    assert model.edf_[0] == pytest.approx(ref["edf"], abs=1e-3)
    np.testing.assert_allclose(np.log(model.smoothing_params_), np.log(ref["sp"]), atol=0.01)
    new = pd.DataFrame({"x1": [0.05, 0.5, 0.93], "x2": [0.2, 0.4, 0.8], "f": ["a", "b", "c"]})
    np.testing.assert_allclose(model.predict(new), ref["link_new"], atol=1e-4)
    assert "s(x1,x2)" in str(model.summary())
    with pytest.raises(ValueError, match="takes two of them and basis='tp'"):
        s(("x1", "x2"))
    pytest.importorskip("formulaic")
    from statlearning.formula import gam

    fit = gam("y_gauss ~ s(x1, x2, k = 20) + f", SIM, method="REML")
    np.testing.assert_allclose(fit.predict(SIM), model.predict(X), atol=1e-10)
