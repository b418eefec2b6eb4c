"""Link functions: derivatives against finite differences, round trips, R's safeguards."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from statlearning._core.links import EPS, LINKS, get_link

# An interior range of μ for each link (inside R's safeguards), for finite differences.
INTERIOR = {
    "identity": (-3.0, 3.0),
    "log": (0.05, 20.0),
    "logit": (0.02, 0.98),
    "probit": (0.02, 0.98),
    "cloglog": (0.02, 0.98),
    "inverse": (0.1, 10.0),
    "inverse_squared": (0.1, 10.0),
    "sqrt": (0.1, 20.0),
}

# The whole domain on which inverse(link(μ)) = μ holds in floating point (R's clamps excluded).
DOMAIN = {
    "identity": st.floats(-1e12, 1e12, allow_nan=False),
    "log": st.floats(1e-14, 1e14),
    "logit": st.floats(1e-12, 1 - 1e-12),
    "probit": st.floats(1e-14, 1 - 1e-14),
    "cloglog": st.floats(1e-14, 1 - 1e-14),
    "inverse": st.floats(1e-10, 1e10),
    "inverse_squared": st.floats(1e-10, 1e10),
    "sqrt": st.floats(0.0, 1e14),
}


def test_every_contract_link_is_there():
    assert set(LINKS) == set(INTERIOR)
    assert get_link("inverse_squared").r_name == "1/mu^2"
    for name, link in LINKS.items():
        assert get_link(name) is link
        assert get_link(link) is link
        assert link.name == name


def _grid(name, n=41):
    lo, hi = INTERIOR[name]
    return np.linspace(lo, hi, n)


@pytest.mark.parametrize("name", sorted(INTERIOR))
def test_derivative_matches_finite_differences(name):
    link = get_link(name)
    mu = _grid(name)
    h = 1e-6 * np.maximum(1.0, np.abs(mu))
    numeric = (link.link(mu + h) - link.link(mu - h)) / (2 * h)
    np.testing.assert_allclose(link.derivative(mu), numeric, rtol=1e-6)


@pytest.mark.parametrize("name", sorted(INTERIOR))
def test_inverse_derivative_matches_finite_differences(name):
    link = get_link(name)
    eta = link.link(_grid(name))
    h = 1e-6 * np.maximum(1.0, np.abs(eta))
    numeric = (link.inverse(eta + h) - link.inverse(eta - h)) / (2 * h)
    np.testing.assert_allclose(link.inverse_derivative(eta), numeric, rtol=1e-6)


@pytest.mark.parametrize("name", sorted(INTERIOR))
def test_derivatives_are_reciprocal(name):
    link = get_link(name)
    mu = _grid(name)
    product = link.derivative(mu) * link.inverse_derivative(link.link(mu))
    np.testing.assert_allclose(product, 1.0, rtol=1e-12)


@pytest.mark.parametrize("name", sorted(DOMAIN))
def test_inverse_undoes_link(name):
    link = get_link(name)

    @settings(max_examples=200, deadline=None)
    @given(st.lists(DOMAIN[name], min_size=1, max_size=20))
    def round_trip(values):
        mu = np.array(values)
        np.testing.assert_allclose(link.inverse(link.link(mu)), mu, rtol=1e-12, atol=1e-300)

    round_trip()


def test_inputs_are_not_modified():
    for link in LINKS.values():
        mu = np.array([0.3, 0.6])
        before = mu.copy()
        link.link(mu)
        link.inverse(mu)
        link.derivative(mu)
        link.inverse_derivative(mu)
        np.testing.assert_array_equal(mu, before)


def test_logit_saturates_as_r():
    logit = get_link("logit")
    eta = np.array([-31.0, -30.0, 30.0, 31.0])
    mu = logit.inverse(eta)
    assert mu[0] == EPS / (1 + EPS)
    assert mu[3] == (1 / EPS) / (1 + 1 / EPS)
    np.testing.assert_allclose(mu[1:3], [np.exp(-30) / (1 + np.exp(-30)), 1 / (1 + np.exp(-30))])
    d = logit.inverse_derivative(eta)
    assert d[0] == d[3] == EPS
    assert d[1] > EPS


def test_floors_and_clamps_as_r():
    assert get_link("log").inverse(np.array([-800.0]))[0] == EPS
    assert get_link("log").inverse_derivative(np.array([-800.0]))[0] == EPS
    probit = get_link("probit")
    assert probit.inverse(np.array([-40.0]))[0] == pytest.approx(EPS, rel=1e-10)
    assert probit.inverse_derivative(np.array([-40.0]))[0] == EPS
    cloglog = get_link("cloglog")
    assert cloglog.inverse(np.array([-50.0]))[0] == EPS
    assert cloglog.inverse(np.array([5.0]))[0] == 1 - EPS
    assert cloglog.inverse_derivative(np.array([800.0]))[0] == EPS


@pytest.mark.parametrize(
    ("name", "bad"),
    [("inverse", 0.0), ("inverse", np.inf), ("inverse_squared", 0.0), ("inverse_squared", -1.0),
     ("sqrt", 0.0), ("sqrt", -2.0)],
)  # fmt: skip
def test_valid_eta_rejects_values_outside_the_domain(name, bad):
    link = get_link(name)
    assert link.valid_eta(np.array([1.0, 2.0]))
    assert not link.valid_eta(np.array([1.0, bad]))


def test_unconstrained_links_accept_any_eta():
    for name in ("identity", "log", "logit", "probit", "cloglog"):
        assert get_link(name).valid_eta(np.array([-50.0, 0.0, 50.0]))


def test_unknown_link_is_a_clear_error():
    with pytest.raises(ValueError, match=r"unknown link 'cauchit'.*'logit'"):
        get_link("cauchit")
    with pytest.raises(ValueError, match="unknown link"):
        get_link(None)


def test_links_compare_by_kind():
    assert get_link("log") == type(get_link("log"))()
    assert get_link("log") != get_link("logit")
    assert len({get_link("log"), type(get_link("log"))()}) == 1
