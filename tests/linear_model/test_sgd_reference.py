"""SGDRegressor / SGDClassifier against scikit-learn's solutions on the same data and schedule.

The reference (tests/reference/sgd, made by scikit-learn 1.9.1 with ``shuffle=False``) covers
every loss × penalty × learning rate × averaging combination scikit-learn offers; our
coefficients must agree to 1e-8 relative to their size, with the same ``n_iter_`` and ``t_``.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from statlearning.exceptions import ConvergenceWarning
from statlearning.linear_model import SGDClassifier, SGDRegressor

REF = json.loads(
    (Path(__file__).parents[1] / "reference" / "sgd" / "sgd_reference.json").read_text()
)
X = np.array(REF["X"])
SW = np.array(REF["sample_weight"])


def _id(case):
    params = ",".join(f"{k}={v}" for k, v in case["params"].items())
    extra = ",partial" if "partial_fit" in case else ""
    extra += ",sw" if case.get("sample_weight") else ""
    return f"{case['kind']}[{case['target']}]:{params}{extra}"


CASES = REF["cases"]


def _fit(case):
    cls = SGDRegressor if case["kind"] == "regressor" else SGDClassifier
    y = np.array(REF[case["target"]])
    est = cls(shuffle=False, **{**REF["common"], **case["params"]})
    if "class_weight" in case["params"] and isinstance(case["params"]["class_weight"], dict):
        est.set_params(class_weight={int(k): v for k, v in case["params"]["class_weight"].items()})
    if "partial_fit" in case:
        est.set_params(max_iter=1000)
        h = case["partial_fit"]
        extra = {} if case["kind"] == "regressor" else {"classes": np.unique(y)}
        return est.partial_fit(X[:h], y[:h], **extra).partial_fit(X[h:], y[h:])
    fit = {"sample_weight": SW} if case.get("sample_weight") else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return est.fit(X, y, **fit)


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_same_solution_as_scikit_learn(case):
    expected = case["fit"]
    if expected == "error":  # scikit-learn overflowed: so must we, with a clear error
        with pytest.raises(ValueError, match="overflow"):
            _fit(case)
        return
    est = _fit(case)
    coef = np.asarray(expected["coef"])
    scale = max(1.0, np.abs(coef).max())
    np.testing.assert_allclose(est.coef_, coef, rtol=0, atol=1e-8 * scale)
    np.testing.assert_allclose(est.intercept_, expected["intercept"], rtol=0, atol=1e-8 * scale)
    assert est.n_iter_ == expected["n_iter"]
    assert est.t_ == expected["t"]
