"""LinearDiscriminantAnalysis and QuadraticDiscriminantAnalysis against MASS::lda / MASS::qda
(tests/reference/discriminant, produced by make_discriminant_reference.R)."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from conftest import REFERENCE
from statlearning.datasets import load_biopsy
from statlearning.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)

RTOL = 1e-8
HERE = REFERENCE / "discriminant"
REF = json.loads((HERE / "discriminant_reference.json").read_text())
CASES = REF["cases"]


def _data(case):
    ref = REF[case]
    with open(HERE / ref["data_file"], newline="") as fh:
        rows = list(csv.DictReader(fh))
    X = np.array([[float(r[f]) for f in ref["features"]] for r in rows])
    y = np.array([r[ref["label"]] for r in rows])
    return X, y


def _close(actual, expected, rtol=RTOL, atol=0.0):
    np.testing.assert_allclose(actual, np.asarray(expected, dtype=float), rtol=rtol, atol=atol)


def _align_signs(actual, expected):
    """Columns of a scaling are defined up to sign: flip ours to MASS's."""
    expected = np.asarray(expected, dtype=float)
    signs = np.sign(np.sum(actual * expected, axis=0))
    return actual * signs, signs


def test_biopsy_fixture_is_the_bundled_data():
    X, y = _data("biopsy")
    Xb, yb = load_biopsy(complete_cases=True, return_X_y=True)
    np.testing.assert_array_equal(X, Xb)
    np.testing.assert_array_equal(y, yb.astype(str))


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("fit", ["lda", "lda_equal_priors"])
@pytest.mark.parametrize("solver", ["svd", "eigen"])
def test_lda_matches_mass(case, fit, solver):
    ref = REF[case][fit]
    X, y = _data(case)
    priors = None if fit == "lda" else ref["prior"]
    model = LinearDiscriminantAnalysis(solver=solver, priors=priors).fit(X, y)
    assert list(model.classes_) == REF[case]["levels"]
    _close(model.priors_, ref["prior"])
    _close(model.class_count_, ref["counts"])
    _close(model.means_, ref["means"])
    scalings, signs = _align_signs(model.scalings_, ref["scaling"])
    _close(scalings, ref["scaling"])
    _close(model.svd_, ref["svd"])
    _close(model.explained_variance_ratio_, ref["proportion_of_trace"])
    _close(model.predict_proba(X), ref["posterior"], atol=1e-15)
    assert list(model.predict(X)) == ref["class"]
    _close(model.transform(X) * signs, ref["x"], atol=1e-12)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("fit", ["qda", "qda_equal_priors"])
def test_qda_matches_mass(case, fit):
    ref = REF[case][fit]
    X, y = _data(case)
    priors = None if fit == "qda" else ref["prior"]
    model = QuadraticDiscriminantAnalysis(priors=priors).fit(X, y)
    assert list(model.classes_) == REF[case]["levels"]
    _close(model.priors_, ref["prior"])
    _close(model.class_count_, ref["counts"])
    _close(model.means_, ref["means"])
    _close(model.covariances_, ref["covariances"])
    _close(model.log_det_, ref["ldet"])
    _close(model.predict_proba(X), ref["posterior"], atol=1e-15)
    assert list(model.predict(X)) == ref["class"]


def test_reference_records_versions():
    assert REF["r_version"].startswith("R version")
    assert REF["mass_version"]
