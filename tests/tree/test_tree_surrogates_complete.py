"""use_surrogates=True (the default) / "always": surrogate splits searched on complete data,
as rpart always does.

Reference: tests/reference/rpart/make_rpart_complete_surrogate_reference.R (rpart 4.1.19):
the seed 004 E29 / E31 trees grown on the complete gapminder-2011 data, then ``predict`` on
the training rows with infant mortality missing in every 5th row and fertility in every 7th.
"""

import json

import numpy as np
import pandas as pd
import pytest

from conftest import REFERENCE
from statlearning.tree import DecisionTreeClassifier, DecisionTreeRegressor

DIR = REFERENCE / "rpart"
REF = json.loads((DIR / "rpart_complete_surrogates.json").read_text())
RPART_DEFAULTS = {"min_samples_split": 20, "min_samples_leaf": 7, "cp": 0.01}


@pytest.fixture(scope="module")
def data():
    d = pd.read_csv(DIR / "gapminder2011.csv")
    X = d[["infant_mortality", "fertility"]].to_numpy(float)
    Q = X.copy()
    Q[::5, 0] = np.nan
    Q[::7, 1] = np.nan
    return X, d["life_expectancy"].to_numpy(float), d["le_class"].to_numpy(), Q


def _surrogates(tree):
    """(threshold, adj) of the first surrogate of every internal node, sorted."""
    internal = np.flatnonzero(tree.children_left >= 0)
    has = tree.surrogate_feature[internal, 0] >= 0
    rows = internal[has]
    return sorted(zip(tree.surrogate_threshold[rows, 0], tree.surrogate_adj[rows, 0],
                      strict=True))


def _r_surrogates(splits):
    rows = [(t, a) for t, a, c in zip(splits["index"], splits["adj"], splits["count"],
                                      strict=True) if c == 0]
    return sorted(rows)


def test_regression_predicts_missing_rows_as_rpart(data):
    X, y, _, Q = data
    est = DecisionTreeRegressor(use_surrogates="always", **RPART_DEFAULTS).fit(X, y)
    np.testing.assert_allclose(est.predict(Q), REF["regression"]["predict"], rtol=0,
                               atol=1e-10)
    np.testing.assert_allclose(_surrogates(est.tree_), _r_surrogates(REF["regression"]["splits"]),
                               rtol=1e-12)
    # the same tree with the cheaper rule, which has no surrogates and sends a missing value
    # to the larger child instead
    fast = DecisionTreeRegressor(use_surrogates="missing", **RPART_DEFAULTS).fit(X, y)
    np.testing.assert_array_equal(fast.tree_.feature, est.tree_.feature)
    np.testing.assert_array_equal(fast.predict(X), est.predict(X))
    assert fast.tree_.surrogate_feature is None
    assert np.abs(fast.predict(Q) - est.predict(Q)).max() > 1.0


def test_classification_predicts_missing_rows_as_rpart(data):
    X, _, labels, Q = data
    est = DecisionTreeClassifier(use_surrogates="always", **RPART_DEFAULTS).fit(X, labels)
    high = list(est.classes_).index("high")
    np.testing.assert_allclose(est.predict_proba(Q)[:, high],
                               REF["classification"]["prob_high"], rtol=0, atol=1e-12)
    np.testing.assert_allclose(_surrogates(est.tree_),
                               _r_surrogates(REF["classification"]["splits"]), rtol=1e-12)


@pytest.mark.parametrize("Est", [DecisionTreeRegressor, DecisionTreeClassifier])
def test_default_searches_surrogates_as_rpart(Est, data):
    """Single trees follow rpart by default: surrogates on complete data too (compiled), the
    same tree arrays as ``"always"`` and rpart's predictions of rows with missing values."""
    X, y, labels, Q = data
    target = y if Est is DecisionTreeRegressor else labels
    default = Est(**RPART_DEFAULTS).fit(X, target)
    always = Est(use_surrogates="always", **RPART_DEFAULTS).fit(X, target)
    for name in ("feature", "threshold", "surrogate_feature", "surrogate_threshold",
                 "surrogate_left", "surrogate_agreement", "surrogate_adj", "majority_left",
                 "rpart_left"):
        np.testing.assert_array_equal(getattr(default.tree_, name), getattr(always.tree_, name))
    if Est is DecisionTreeRegressor:
        np.testing.assert_allclose(default.predict(Q), REF["regression"]["predict"], rtol=0,
                                   atol=1e-10)
    else:
        high = list(default.classes_).index("high")
        np.testing.assert_allclose(default.predict_proba(Q)[:, high],
                                   REF["classification"]["prob_high"], rtol=0, atol=1e-12)


def test_always_with_no_surrogates_is_the_fast_path(data):
    X, y, _, _ = data
    a = DecisionTreeRegressor(use_surrogates="always", max_surrogates=0, **RPART_DEFAULTS)
    b = DecisionTreeRegressor(**RPART_DEFAULTS)
    np.testing.assert_array_equal(a.fit(X, y).tree_.threshold, b.fit(X, y).tree_.threshold)


def test_use_surrogates_rejects_other_strings():
    with pytest.raises(ValueError, match="use_surrogates"):
        DecisionTreeRegressor(use_surrogates="sometimes").fit([[0.0], [1.0]], [0.0, 1.0])
