"""p_adjust against R's p.adjust (tests/reference/p_adjust, made by make_p_adjust_reference.R)."""

import json
from pathlib import Path

import numpy as np
import pytest

from statlearning.metrics import p_adjust
from statlearning.metrics._multiple_testing import P_ADJUST_METHODS

REF = json.loads(
    (Path(__file__).parents[1] / "reference" / "p_adjust" / "p_adjust_reference.json").read_text()
)
CASES = REF["cases"]


def _vector(values):
    return np.array([np.nan if v is None else v for v in values], dtype=np.float64)


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("method", P_ADJUST_METHODS)
def test_matches_r(case, method):
    c = CASES[case]
    n = c["n"]
    got = p_adjust(_vector(c["p"]), method=method, n=n)
    want = _vector(c["adjusted"][method])
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got, want, rtol=1e-15, atol=1e-15)


def test_shape_is_kept_and_ties_equal():
    p = np.array([[0.01, 0.04], [0.04, 0.3]])
    out = p_adjust(p, method="hochberg")
    assert out.shape == p.shape
    assert out[0, 1] == out[1, 0]


def test_monotone_in_p():
    rng = np.random.default_rng(0)
    p = rng.uniform(size=40)
    order = np.argsort(p)
    for method in P_ADJUST_METHODS:
        adjusted = p_adjust(p, method=method)[order]
        assert np.all(np.diff(adjusted) >= -1e-15), method
        assert np.all(adjusted >= p[order] - 1e-15), method


def test_all_missing_gives_all_missing():
    assert np.all(np.isnan(p_adjust([np.nan, np.nan], method="BH")))


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"p": [0.1, 1.2]}, r"\[0, 1\]"),
        ({"p": [0.1, -0.1]}, r"\[0, 1\]"),
        ({"p": [0.1, 0.2], "method": "sidak"}, "method must be one of"),
        ({"p": [0.1, 0.2, 0.3], "n": 2}, "n=2 is smaller"),
        ({"p": [0.1, 0.2], "n": 2.5}, "whole number"),
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        p_adjust(**kwargs)
