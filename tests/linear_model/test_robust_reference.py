"""LADRegressor against quantreg::rq and HuberRegressor against MASS::rlm
(tests/reference/lad, tests/reference/huber)."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from conftest import REFERENCE
from statlearning.linear_model import HuberRegressor, LADRegressor

LAD = json.loads((REFERENCE / "lad" / "lad_reference.json").read_text())
HUBER = json.loads((REFERENCE / "huber" / "huber_reference.json").read_text())


def _read(folder, data_file, predictors, response, weights=None):
    with open(REFERENCE / folder / data_file, newline="") as fh:
        rows = list(csv.DictReader(fh))
    X = np.array([[float(r[c]) for c in predictors] for r in rows])
    y = np.array([float(r[response]) for r in rows])
    w = None if weights is None else np.array([float(r[weights]) for r in rows])
    return X, y, w


def test_references_record_versions():
    assert LAD["r_version"].startswith("R version") and LAD["quantreg_version"]
    assert HUBER["r_version"].startswith("R version") and HUBER["mass_version"]


@pytest.mark.parametrize("case", LAD["cases"])
def test_lad_matches_quantreg_rq(case):
    ref = LAD[case]
    assert ref["warnings"] == []  # rq found these solutions unique
    X, y, w = _read("lad", ref["data_file"], ref["predictors"], ref["response"],
                    ref["weights_column"])
    m = LADRegressor(fit_intercept=ref["intercept"]).fit(X, y, sample_weight=w)
    ours = np.concatenate([[m.intercept_], m.coef_]) if ref["intercept"] else m.coef_
    np.testing.assert_allclose(ours, ref["coefficients"], rtol=1e-10)
    assert m.objective_ == pytest.approx(ref["objective"], rel=1e-12)
    assert m.unique_


@pytest.mark.parametrize("fit", HUBER["fits"], ids=lambda f: f"k={f['k']}")
@pytest.mark.parametrize("solver", ["lbfgs", "irls"])
def test_huber_matches_mass_rlm_at_its_scale(fit, solver):
    assert fit["converged"]
    X, y, _ = _read("huber", HUBER["data_file"], HUBER["predictors"], HUBER["response"])
    m = HuberRegressor(delta=fit["k"] * fit["s"], solver=solver).fit(X, y)
    np.testing.assert_allclose(
        np.concatenate([[m.intercept_], m.coef_]), fit["coefficients"], rtol=1e-9
    )
