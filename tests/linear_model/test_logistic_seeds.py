"""The notes' worked examples of linear classification (seed-notes/seed_004.md E10–E12 and
seed-notes/seed_000_003.md §2.5): every number below is the one the catalogue verified."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from statlearning.datasets import load_gapminder
from statlearning.exceptions import ConvergenceWarning, NumericalWarning
from statlearning.linear_model import LeastSquaresClassifier, LinearRegression, LogisticRegression

# Zwaan, Table 3.1 (decimal commas in the notes): body temperature, healthy (0) / sick (1)
TEMPERATURE = np.array([36.5, 36.6, 36.8, 36.9, 37.0, 37.2, 37.5, 37.6, 39.5])
SICK = np.array([0, 0, 0, 1, 0, 1, 1, 1, 1])


def _printed(value, expected, decimals):
    assert round(float(value), decimals) == pytest.approx(expected, abs=0.51 * 10.0**-decimals)


@pytest.fixture(scope="module")
def gapminder():
    bunch = load_gapminder(year=2011)
    cols = [bunch.feature_names.index(c) for c in ("infant_mortality", "fertility")]
    return bunch.data[:, cols], (bunch.target > 72.45).astype(int)


@pytest.fixture(scope="module")
def e12(gapminder):
    return LogisticRegression().fit(*gapminder)


def test_e10_classes_split_at_the_median(gapminder):
    _, y = gapminder
    assert y.sum() == 83 and (1 - y).sum() == 83


def test_e10_ols_classifier_is_least_squares_on_the_indicator(gapminder):
    X, y = gapminder
    clf = LeastSquaresClassifier().fit(X, y)
    ols = LinearRegression().fit(X, y)
    np.testing.assert_allclose(clf.coef_[0], ols.coef_, rtol=1e-12)
    assert clf.intercept_[0] == pytest.approx(ols.intercept_, rel=1e-12)
    np.testing.assert_array_equal(clf.predict(X), (ols.predict(X) > 0.5).astype(int))
    # "roughly linearly separable": the 0.5 contour misclassifies few countries
    assert (clf.predict(X) == y).mean() > 0.85


def test_e11_logit_arithmetic():
    model = LogisticRegression().fit(TEMPERATURE[:, None], SICK)
    model.intercept_[:] = 0.68
    model.coef_[:] = 0.0
    # the notes print 0.663; e^0.68 / (1 + e^0.68) = 0.66374 (the catalogue's 0.6637)
    _printed(model.predict_proba([[0.0]])[0, 1], 0.6637, 4)


def test_e12_coefficients_and_standard_errors(e12):
    _printed(e12.intercept_[0], 4.5873, 4)
    _printed(e12.coef_[0, 0], -0.22499, 5)
    _printed(e12.coef_[0, 1], -0.06495, 5)
    _printed(e12.bse_[0], 1.0092, 4)
    _printed(e12.bse_[1], 0.0501, 4)
    # R's 0.494949 (information at the last IRLS weights) is the catalogue's 0.4950 to 1e-4
    assert e12.bse_[2] == pytest.approx(0.4950, abs=1e-4)


def test_e12_likelihood_and_aic(e12):
    _printed(e12.loglik_, -39.08, 2)
    _printed(e12.aic_, 84.17, 2)
    assert e12.aic_ == pytest.approx(e12.deviance_ + 6, rel=1e-14)


def test_e12_prediction_uses_fertility_4_not_24(e12):
    # the notes print "[1, 15, 24]" but their exponent 0.9526322 is β̂·(1, 15, 4)
    _printed(e12.decision_function([[15.0, 4.0]])[0], 0.9526322, 7)
    _printed(e12.predict_proba([[15.0, 4.0]])[0, 1], 0.7216, 4)
    assert e12.predict([[15.0, 4.0]])[0] == 1  # p̂ > γ = 0.5


def test_body_temperature_linear_fit_leaves_the_unit_interval():
    clf = LeastSquaresClassifier().fit(TEMPERATURE[:, None], SICK)
    _printed(clf.intercept_[0], -12.170814, 6)
    _printed(clf.coef_[0, 0], 0.341291, 6)
    fitted = clf.decision_function(TEMPERATURE[:, None]) + 0.5
    expected = [0.286315, 0.320444, 0.388702, 0.422831, 0.456960, 0.525219, 0.627606, 0.661735]
    np.testing.assert_allclose(fitted[:8], expected, atol=5.1e-7)
    _printed(fitted[8], 1.310188, 6)  # > 1: not a probability
    _printed((0.5 - clf.intercept_[0]) / clf.coef_[0, 0], 37.1261, 4)


def test_body_temperature_logistic_fit():
    model = LogisticRegression().fit(TEMPERATURE[:, None], SICK)
    _printed(model.intercept_[0], -370.3301, 4)
    _printed(model.coef_[0, 0], 10.01721, 5)
    _printed(model.deviance_ / 2, 2.261150, 6)  # negative log-likelihood
    _printed(-model.intercept_[0] / model.coef_[0, 0], 36.9694, 4)  # p = 0.5 boundary
    p = model.predict_proba(TEMPERATURE[:, None])[:, 1]
    expected = [0.008996, 0.024122, 0.154886, 0.332909, 0.576071, 0.909710, 0.995108, 0.998198]
    np.testing.assert_allclose(p[:8], expected, atol=5.1e-7)
    assert p[8] > 1 - 1e-9
    centred = LogisticRegression().fit(TEMPERATURE[:, None] - TEMPERATURE.mean(), SICK)
    _printed(centred.coef_[0, 0], 10.0172, 4)
    _printed(centred.intercept_[0], 3.2005, 4)


def test_body_temperature_without_the_healthy_37_is_separable():
    keep = TEMPERATURE != 37.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)
        with pytest.warns(ConvergenceWarning, match="separated"):
            LogisticRegression().fit(TEMPERATURE[keep, None], SICK[keep])


def test_plain_gradient_ascent_on_raw_temperatures_is_slow():
    # rule (3.41) with α = 0.001 on unnormalised temperatures: far from the MLE after 2000 steps
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        slow = LogisticRegression(solver="gd", learning_rate=0.001, max_iter=2000).fit(
            TEMPERATURE[:, None], SICK
        )
    assert abs(slow.coef_[0, 0] - 10.01721) > 5.0
    # on centred and scaled temperatures the same rule converges
    z = (TEMPERATURE - TEMPERATURE.mean()) / TEMPERATURE.std()
    fast = LogisticRegression(solver="gd", learning_rate=0.1, max_iter=20_000).fit(z[:, None], SICK)
    _printed(fast.coef_[0, 0] / TEMPERATURE.std(), 10.0172, 3)
