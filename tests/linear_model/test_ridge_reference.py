"""Ridge against R: MASS::lm.ridge and glmnet (tests/reference/ridge)."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from conftest import REFERENCE
from statlearning.linear_model import Ridge, RidgeCV

HERE = REFERENCE / "ridge"


@pytest.fixture(scope="module")
def ridge_reference() -> dict:
    return json.loads((HERE / "ridge_reference.json").read_text())


def _read(ref):
    with open(HERE / ref["data_file"], newline="") as fh:
        rows = list(csv.DictReader(fh))
    X = np.array([[float(r[c]) for c in ref["predictors"]] for r in rows])
    y = np.array([float(r[ref["response"]]) for r in rows])
    return X, y


def test_reference_records_versions(ridge_reference):
    assert ridge_reference["r_version"].startswith("R version")
    assert ridge_reference["mass_version"] and ridge_reference["glmnet_version"]


def test_lm_ridge_scales_are_population_standard_deviations(ridge_reference):
    ref = ridge_reference["lm_ridge"]
    X, _ = _read(ref)
    np.testing.assert_allclose(X.std(axis=0), ref["scales"], rtol=1e-13)


@pytest.mark.parametrize("solver", ["cholesky", "svd", "dual"])
def test_lm_ridge_coefficients(ridge_reference, solver):
    """lm.ridge's lambda is our alpha on X scaled by its population standard deviations."""
    ref = ridge_reference["lm_ridge"]
    X, y = _read(ref)
    s = X.std(axis=0)
    for lam, expected in zip(ref["lambda"], ref["coef"], strict=True):
        if lam == 0 and solver == "dual":
            continue  # the dual form needs alpha > 0 (and p < n here anyway)
        m = Ridge(alpha=lam, solver=solver).fit(X / s, y)
        ours = np.concatenate([[m.intercept_], m.coef_ / s])
        np.testing.assert_allclose(ours, expected, rtol=1e-8, err_msg=f"lambda={lam}")


def test_lm_ridge_gcv(ridge_reference):
    """MASS's GCV is RSS/(n − df)² with df = tr H − 1 (it leaves out the intercept)."""
    ref = ridge_reference["lm_ridge"]
    X, y = _read(ref)
    Xs = X / X.std(axis=0)
    n = y.size
    alphas = [a for a in ref["lambda"] if a > 0]
    cv = RidgeCV(alphas=alphas, criterion="gcv").fit(Xs, y)
    d = np.linalg.svd(Xs - Xs.mean(axis=0), compute_uv=False)
    for j, a in enumerate(alphas):
        df = np.sum(d**2 / (d**2 + a))
        ours_gcv = cv.criterion_path_[j]  # n·RSS/(n − 1 − df)²
        rss = ours_gcv * (n - 1 - df) ** 2 / n
        mass = ref["gcv"][ref["lambda"].index(a)]
        assert rss / (n - df) ** 2 == pytest.approx(mass, rel=1e-8)


def test_glmnet_ridge_lambda_mapping(ridge_reference):
    """glmnet(alpha = 0, standardize = FALSE) with lambda λ is Ridge(alpha = n λ / sd_y)."""
    ref = ridge_reference["glmnet_ridge"]
    X, y = _read(ref)
    n = y.size
    sd_y = y.std()
    assert sd_y == pytest.approx(ref["sd_y"], rel=1e-14)
    for lam, expected in zip(ref["lambda"], ref["coef"], strict=True):
        m = Ridge(alpha=n * lam / sd_y).fit(X, y)
        ours = np.concatenate([[m.intercept_], m.coef_])
        # glmnet is iterative, run here to thresh = 1e-30: it reaches the closed form
        np.testing.assert_allclose(ours, expected, rtol=1e-10, err_msg=f"lambda={lam}")
