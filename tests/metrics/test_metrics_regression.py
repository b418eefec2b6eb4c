"""NMSE, NMAE, MAPE (as seed 004 defines it) and RMSLE, with their domains."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import mean_absolute_percentage_error, r2_score, root_mean_squared_log_error

from statlearning.metrics import mape, nmae, nmse, rmsle

Y = np.array([3.0, 5.0, 2.5, 7.0, 4.0])
P = np.array([2.5, 5.5, 2.0, 8.0, 4.5])


def test_nmse_is_one_minus_r2():
    assert nmse(Y, P) == pytest.approx(1 - r2_score(Y, P), rel=1e-14)
    assert nmse(Y, np.full(5, Y.mean())) == pytest.approx(1.0)


def test_nmae_by_hand():
    # |e| = .5,.5,.5,1,.5 → 3; |y − ȳ| with ȳ = 4.3: 1.3,.7,1.8,2.7,.3 → 6.8
    assert nmae(Y, P) == pytest.approx(3.0 / 6.8, rel=1e-14)


def test_mape_as_the_notes_define_it():
    expected = np.mean(np.abs(Y - P) / Y)
    assert mape(Y, P) == pytest.approx(expected, rel=1e-14)
    assert mape(Y, P) == pytest.approx(mean_absolute_percentage_error(Y, P), rel=1e-14)
    # no absolute value on y: a negative response gives a negative term
    assert mape([-2.0, 2.0], [-1.0, 1.0]) == pytest.approx(0.0)
    assert mape([-2.0], [-1.0]) == pytest.approx(-0.5)


def test_rmsle_matches_scikit_learn_and_allows_negative_values_above_minus_one():
    assert rmsle(Y, P) == pytest.approx(root_mean_squared_log_error(Y, P), rel=1e-14)
    assert rmsle([-0.5, 1.0], [0.0, 1.0]) == pytest.approx(np.sqrt(np.log(2) ** 2 / 2))


@pytest.mark.parametrize(
    ("func", "y", "p", "match"),
    [
        (mape, [1.0, 0.0, 2.0], [1.0, 1.0, 2.0], "zero at 1 position"),
        (rmsle, [1.0, -1.0], [1.0, 1.0], "y_true > -1"),
        (rmsle, [1.0, 1.0], [1.0, -2.0], "y_pred > -1"),
        (nmse, [2.0, 2.0], [1.0, 2.0], "constant"),
        (nmae, [2.0, 2.0], [1.0, 2.0], "constant"),
        (nmse, [1.0, 2.0], [1.0], "different lengths"),
        (nmae, [1.0, np.nan], [1.0, 1.0], "NaN"),
        (mape, [], [], "empty"),
    ],
)
def test_bad_input(func, y, p, match):
    with pytest.raises(ValueError, match=match):
        func(y, p)


def hypercube_edge(fraction, dim):
    """Edge of the sub-cube holding ``fraction`` of a uniform unit hypercube: fraction^(1/d)."""
    return fraction ** (1.0 / dim)


def test_seed004_e19_curse_of_dimensionality():
    # seed 004 E19: a neighbourhood holding 1/3 of the data has edge 0.333, 0.577, 0.896
    got = [hypercube_edge(1 / 3, d) for d in (1, 2, 10)]
    np.testing.assert_allclose(got, [0.333, 0.577, 0.896], atol=5e-4)
    # and it holds that fraction of uniform points (Monte Carlo, 200,000 points in 10-D)
    pts = np.random.default_rng(0).uniform(size=(200_000, 10))
    inside = np.all(pts <= got[2], axis=1).mean()
    assert inside == pytest.approx(1 / 3, abs=0.005)
