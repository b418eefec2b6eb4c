"""Naive Bayes classifiers against R's e1071::naiveBayes (tests/reference/naive_bayes,
produced by make_naive_bayes_reference.R)."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from conftest import REFERENCE
from statlearning.naive_bayes import CategoricalNB, GaussianNB, MixedNB

RTOL = 1e-8
HERE = REFERENCE / "naive_bayes"
REF = json.loads((HERE / "naive_bayes_reference.json").read_text())


def _read(file, columns):
    with open(HERE / file, newline="") as fh:
        rows = list(csv.DictReader(fh))
    X = np.array([[float(r[c]) if r[c] != "" else np.nan for c in columns] for r in rows])
    return X, rows


def _case(name):
    ref = REF[name]
    X, rows = _read(ref["data_file"], ref["features"])
    y = np.array([r[ref["label"]] for r in rows])
    Xnew, _ = _read(ref["newdata_file"], ref["features"])
    return ref, X, y, Xnew


def _close(actual, expected, rtol=RTOL, atol=0.0):
    np.testing.assert_allclose(actual, np.asarray(expected, dtype=float), rtol=rtol, atol=atol)


def test_gaussian_iris_matches_e1071():
    ref, X, y, Xnew = _case("iris")
    model = GaussianNB(ddof=1, var_smoothing=0.0).fit(X, y)
    assert list(model.classes_) == ref["classes"]
    _close(model.class_count_, ref["apriori"])
    for j, name in enumerate(ref["features"]):
        _close(model.theta_[:, j], ref["tables"][name]["means"])
        _close(np.sqrt(model.var_[:, j]), ref["tables"][name]["sds"])
    _close(model.predict_proba(Xnew), ref["posterior"], atol=1e-15)
    assert list(model.predict(Xnew)) == ref["class"]


@pytest.mark.parametrize("name", ["titanic", "titanic_l1", "biopsy"])
def test_categorical_matches_e1071(name):
    ref, X, y, Xnew = _case(name)
    model = CategoricalNB(alpha=ref["laplace"]).fit(X, y)
    assert list(model.classes_) == ref["classes"]
    _close(model.class_count_, ref["apriori"])
    for j, feature in enumerate(ref["features"]):
        n_levels = len(ref["factor_levels"][feature])
        # the CSV holds R's 1-based level codes; every level occurs in the data
        np.testing.assert_array_equal(model.categories_[j], np.arange(1, n_levels + 1))
        _close(np.exp(model.feature_log_prob_[j]), ref["tables"][feature])
    _close(model.predict_proba(Xnew), ref["posterior"], atol=1e-15)
    assert list(model.predict(Xnew)) == ref["class"]


def test_biopsy_missing_values_are_left_out_of_tables_and_prediction():
    ref, X, y, Xnew = _case("biopsy")
    assert np.isnan(X).sum() == 16
    model = CategoricalNB(alpha=1.0).fit(X, y)
    j = ref["features"].index("V6")
    observed = ~np.isnan(X[:, j])
    for k, label in enumerate(model.classes_):
        assert model.category_count_[j][k].sum() == np.sum(observed & (y == label))
    rows = np.flatnonzero(~observed)
    # a missing feature contributes nothing: the same as leaving that column out
    without = CategoricalNB(alpha=1.0).fit(np.delete(X, j, axis=1), y)
    _close(
        model.predict_log_likelihood(Xnew[rows]),
        without.predict_log_likelihood(np.delete(Xnew[rows], j, axis=1)),
        rtol=1e-12,
    )


def test_mixed_matches_e1071():
    ref, X, y, Xnew = _case("mixed")
    cat = [ref["features"].index(c) for c in ref["categorical"]]
    model = MixedNB(categorical_features=cat, alpha=ref["laplace"], ddof=1, var_smoothing=0.0)
    model.fit(X, y)
    assert list(model.classes_) == ref["classes"]
    for j, name in enumerate(ref["numeric"]):
        _close(model.theta_[:, j], ref["tables"][name]["means"])
        _close(np.sqrt(model.var_[:, j]), ref["tables"][name]["sds"])
    for j, name in enumerate(ref["categorical"]):
        _close(np.exp(model.feature_log_prob_[j]), ref["tables"][name])
    _close(model.predict_proba(Xnew), ref["posterior"], atol=1e-15)
    assert list(model.predict(Xnew)) == ref["class"]


def test_mixed_from_dataframe_with_named_categorical_column():
    pd = pytest.importorskip("pandas")
    ref, X, y, _ = _case("mixed")
    frame = pd.DataFrame(X, columns=ref["features"])
    by_name = MixedNB(categorical_features=ref["categorical"], alpha=1.0, ddof=1).fit(frame, y)
    by_index = MixedNB(categorical_features=[3], alpha=1.0, ddof=1).fit(X, y)
    _close(by_name.predict_proba(frame), by_index.predict_proba(X), rtol=1e-14)


def test_reference_records_versions():
    assert REF["r_version"].startswith("R version")
    assert REF["e1071_version"] and REF["mass_version"]
