"""Terms leaving out margins or naming variables out of order, coded and named as R's ``lm``.

References: tests/reference/formula/make_term_order_reference.R (R 4.2.2).
"""

from __future__ import annotations

import pickle
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("formulaic")

from statlearning.formula import FormulaTransformer, lm

REF = Path(__file__).resolve().parents[1] / "reference" / "formula"
DATA = pd.read_csv(REF / "terms.csv")
COEF = pd.read_csv(REF / "term_order_coefficients.csv")


@pytest.mark.parametrize("formula", list(dict.fromkeys(COEF["formula"])))
def test_coefficients_equal_r(formula):
    """Names, values and aliasing (R's NA: y ~ g:h codes both factors by all levels)."""
    expected = COEF[COEF["formula"] == formula]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = lm(formula, DATA).summary().to_frame()
    aliased = expected["estimate"].isna()
    assert any("aliased" in str(w.message) for w in caught) == aliased.any()
    assert list(table.index) == list(expected["name"])
    np.testing.assert_allclose(table.iloc[:, 0], expected["estimate"], rtol=1e-10, atol=1e-12)


def test_reordered_term_keeps_its_order_on_new_data():
    t = FormulaTransformer("y ~ h + g:h + x:g").fit(DATA)
    assert list(t.term_columns_) == ["h", "h:g", "g:x"]
    assert t.term_columns_["h:g"] == ["hu:gb", "hv:gb", "hu:gc", "hv:gc"]
    new = DATA.iloc[::-1].reset_index(drop=True)
    back = pickle.loads(pickle.dumps(t))
    design = back.transform(new)
    np.testing.assert_array_equal(design, t.transform(new))
    column = list(t.get_feature_names_out()).index("hv:gb")
    expected = ((new["h"] == "v") & (new["g"] == "b")).to_numpy(dtype=float)
    np.testing.assert_array_equal(design[:, column], expected)
