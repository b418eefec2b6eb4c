"""BestSubsetSelector and StepwiseSelector against R's leaps::regsubsets and step().

The numbers come from ``tests/reference/subsets/make_subsets_reference.R``.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from conftest import REFERENCE
from statlearning.feature_selection import BestSubsetSelector, StepwiseSelector
from statlearning.linear_model import GLMRegressor, LogisticRegression

DIR = REFERENCE / "subsets"
REF = json.loads((DIR / "subsets_reference.json").read_text())
RTOL = 1e-8


def load(name):
    df = pd.read_csv(DIR / f"{name}.csv", dtype=str).astype(float)
    y_col = "mpg" if name == "mtcars" else "y"
    return df.drop(columns=y_col), df[y_col].to_numpy(dtype=float)


def test_versions_recorded():
    assert REF["r_version"].startswith("R version 4.")
    assert REF["leaps_version"]


def _check_rows(rows, case):
    """Rows for sizes 1..p against summary(regsubsets): variables and every criterion."""
    assert len(rows) == len(case["rss"])
    for row, vars_r, rss, rsq, adjr2, cp, bic in zip(
        rows,
        case["variables"],
        case["rss"],
        case["rsq"],
        case["adjr2"],
        case["cp"],
        case["bic"],
        strict=True,
    ):
        assert sorted(row["variables"]) == sorted(vars_r)
        np.testing.assert_allclose(row["rss"], rss, rtol=RTOL)
        np.testing.assert_allclose(row["r2"], rsq, rtol=RTOL)
        np.testing.assert_allclose(row["adjr2"], adjr2, rtol=RTOL)
        np.testing.assert_allclose(row["cp"], cp, rtol=RTOL, atol=1e-8)
        np.testing.assert_allclose(row["bic"], bic, rtol=RTOL)


CASES = [c for c in REF["regsubsets"]]
IDS = [f"{c['data']}-{c['method']}" for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_regsubsets(case):
    X, y = load(case["data"])
    if case["method"] == "exhaustive":
        for method in ("exhaustive", "branch_and_bound"):
            est = BestSubsetSelector(criterion="cp", method=method).fit(X, y)
            _check_rows(est.path_[1:], case)
            assert est.best_size_ == int(np.argmin(case["cp"])) + 1
    else:
        est = StepwiseSelector(direction=case["method"], criterion="cp").fit(X, y)
        rows = sorted(est.path_, key=lambda r: r["size"])[1:]
        _check_rows(rows, case)
        assert est.best_size_ == int(np.argmin(case["cp"])) + 1


def test_best_subset_bic_and_adjr2_choice_mtcars():
    case = next(c for c in CASES if c["data"] == "mtcars" and c["method"] == "exhaustive")
    X, y = load("mtcars")
    for criterion, pick in (("bic", np.argmin), ("adjr2", np.argmax)):
        est = BestSubsetSelector(criterion=criterion).fit(X, y)
        chosen = case["variables"][int(pick(case[criterion]))]
        assert sorted(est.get_feature_names_out()) == sorted(chosen)
        assert est.transform(X).shape == (len(y), len(chosen))


STEPS = REF["step"]
STEP_IDS = [f"{c['data']}-{c['family']}-{c['direction']}" for c in STEPS]


@pytest.mark.parametrize("case", STEPS, ids=STEP_IDS)
def test_step(case):
    X, y = load(case["data"])
    if case["family"] == "lm":
        est = None
    elif case["family"] == "poisson":
        est = GLMRegressor(family="poisson")
    else:
        est = LogisticRegression()
    sel = StepwiseSelector(
        direction=case["direction"], criterion="aic", estimator=est, stop="criterion"
    ).fit(X, y)
    assert [sorted(r["variables"]) for r in sel.path_] == [sorted(m) for m in case["models"]]
    rtol = RTOL if est is None else 1e-7
    np.testing.assert_allclose([r["aic"] for r in sel.path_], case["aic"], rtol=rtol)
    assert sorted(sel.get_feature_names_out()) == sorted(case["final"])
