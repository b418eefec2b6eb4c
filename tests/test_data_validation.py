"""The shared data validation: errors that name the column, and numeric-string targets."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from statlearning.cluster import KMeans
from statlearning.linear_model import LinearRegression, LogisticRegression


def _frame():
    rng = np.random.default_rng(0)
    return pd.DataFrame({"a": rng.normal(size=8), "b": rng.normal(size=8)}), rng.normal(size=8)


def test_text_column_is_named():
    X, y = _frame()
    X.insert(1, "colour", list("rgbrgbrg"))
    with pytest.raises(ValueError, match=r"^LinearRegression: column 'colour' is not numeric"):
        LinearRegression().fit(X, y)


def test_text_category_column_is_named():
    X, y = _frame()
    X["g"] = pd.Categorical(list("aabbaabb"))
    with pytest.raises(ValueError, match=r"column 'g' is categorical \(categories 'a', 'b'\)"):
        LinearRegression().fit(X, y)


def test_object_array_column_is_counted_from_zero():
    X, y = _frame()
    A = X.to_numpy().astype(object)
    A[5, 1] = "n/a"
    with pytest.raises(ValueError, match=r"column 1 is not numeric \(row 5 holds 'n/a'\)"):
        LinearRegression().fit(A, y)


@pytest.mark.parametrize("as_frame", [True, False])
def test_nan_names_the_column_in_one_sentence(as_frame):
    X, y = _frame()
    X.loc[[2, 6], "b"] = np.nan
    data = X if as_frame else X.to_numpy()
    label = "'b'" if as_frame else "1"
    with pytest.raises(ValueError) as info:
        LinearRegression().fit(data, y)
    message = str(info.value)
    assert message.startswith(f"LinearRegression: column {label} contains NaN in 2 rows")
    assert "first: row 2" in message
    assert "http" not in message and message.count(". ") == 0


def test_nan_at_predict_and_inf_in_unsupervised_fit_are_named():
    X, y = _frame()
    model = LinearRegression().fit(X, y)
    X.loc[4, "a"] = np.nan
    with pytest.raises(ValueError, match=r"column 'a' contains NaN in 1 row \(first: row 4\)"):
        model.predict(X)
    A = np.ones((6, 3))
    A[3, 2] = -np.inf
    with pytest.raises(ValueError, match=r"^KMeans: column 2 contains infinity in 1 row"):
        KMeans(n_clusters=2, n_init=1).fit(A)


def test_nan_in_y_is_named():
    X, y = _frame()
    y[3] = np.nan
    with pytest.raises(ValueError, match=r"^LinearRegression: y contains NaN in 1 row"):
        LinearRegression().fit(X, y)
    labels = np.array([0, 1] * 4, dtype=float)
    labels[5] = np.nan
    with pytest.raises(ValueError, match=r"^LogisticRegression: y contains NaN"):
        LogisticRegression().fit(X, labels)


def test_numeric_string_target_is_converted():
    X, y = _frame()
    text = np.array([repr(float(v)) for v in y])
    np.testing.assert_allclose(
        LinearRegression().fit(X, text).coef_, LinearRegression().fit(X, y).coef_, rtol=1e-12
    )
    as_object = pd.Series(text, dtype=object)
    np.testing.assert_allclose(
        LinearRegression().fit(X, as_object).coef_, LinearRegression().fit(X, y).coef_
    )


def test_text_target_of_a_regressor_is_an_error_naming_y():
    X, y = _frame()
    text = np.array([repr(float(v)) for v in y])
    text[6] = "high"
    with pytest.raises(ValueError, match=r"y must be numeric .*row 6 holds 'high'"):
        LinearRegression().fit(X, text)


def test_classifier_string_labels_still_work():
    X, _ = _frame()
    labels = np.array(["no", "yes"] * 4)
    model = LogisticRegression().fit(X, labels)
    assert list(model.classes_) == ["no", "yes"]


def test_every_module_validates_through_the_shared_function():
    """A module importing scikit-learn's ``validate_data`` would bypass the named-column errors."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parents[1] / "src" / "statlearning"
    offenders = []
    for path in package.rglob("*.py"):
        if path.name == "_validation.py" and path.parent == package:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sklearn"):
                if any(alias.name == "validate_data" for alias in node.names):
                    offenders.append(str(path.relative_to(package)))
    assert offenders == []
