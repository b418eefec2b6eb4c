"""The compiled GLM loss: value differences and gradient against the family objects."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning._core.families import get_family
from statlearning._core.glm_loss import (
    FAMILY_CODES,
    LINK_CODES,
    UNCONSTRAINED_LINKS,
    glm_loss_gradient,
    supports,
)
from statlearning._core.links import get_link

RNG = np.random.default_rng(17)
N, P = 60, 3
X = RNG.normal(size=(N, P))
W = RNG.uniform(0.5, 2.0, N)
W[:4] = 0.0  # rows left out
OFFSET = RNG.normal(scale=0.1, size=N)
Y = {
    "gaussian": RNG.normal(2.0, 1.0, N),
    "binomial": RNG.integers(0, 5, N) / 4.0,
    "poisson": RNG.poisson(2.0, N).astype(float),
    "gamma": RNG.gamma(3.0, 1.0, N),
    "inverse_gaussian": RNG.gamma(3.0, 1.0, N),
}
PAIRS = sorted(UNCONSTRAINED_LINKS)


def _call(family, link, beta, b0):
    return glm_loss_gradient(
        X, Y[family], W, OFFSET, beta, b0, FAMILY_CODES[family], LINK_CODES[link]
    )


def _half_deviance(family, link, beta, b0):
    mu = get_link(link).inverse(X @ beta + b0 + OFFSET)
    return 0.5 * get_family(family).deviance(Y[family], mu, W)


def _point(link):
    beta = np.array([0.2, -0.1, 0.05])
    b0 = {"identity": 2.0, "log": 0.6}.get(link, 0.1)
    return beta, b0


@pytest.mark.parametrize(("family", "link"), PAIRS)
def test_loss_differences_are_half_deviance_differences(family, link):
    beta, b0 = _point(link)
    other = beta + np.array([0.05, 0.02, -0.03])
    ours = _call(family, link, other, b0 + 0.01)[0] - _call(family, link, beta, b0)[0]
    ref = _half_deviance(family, link, other, b0 + 0.01) - _half_deviance(family, link, beta, b0)
    assert ours == pytest.approx(ref, rel=1e-10, abs=1e-12)


@pytest.mark.parametrize(("family", "link"), PAIRS)
def test_gradient_matches_finite_differences(family, link):
    beta, b0 = _point(link)
    _, g0, g = _call(family, link, beta, b0)
    theta = np.r_[b0, beta]
    h = 1e-6
    numeric = []
    for j in range(theta.size):
        e = np.zeros(theta.size)
        e[j] = h
        up, down = theta + e, theta - e
        numeric.append(
            (_call(family, link, up[1:], up[0])[0] - _call(family, link, down[1:], down[0])[0])
            / (2 * h)
        )
    np.testing.assert_allclose(np.r_[g0, g], numeric, rtol=1e-6, atol=1e-7)


def test_gaussian_identity_loss_is_half_the_weighted_rss():
    beta, b0 = _point("identity")
    resid = Y["gaussian"] - (X @ beta + b0 + OFFSET)
    loss, g0, g = _call("gaussian", "identity", beta, b0)
    assert loss == pytest.approx(0.5 * np.sum(W * resid**2), rel=1e-12)
    np.testing.assert_allclose(np.r_[g0, g], -np.r_[W @ resid, X.T @ (W * resid)], rtol=1e-12)


def test_zero_weight_rows_are_skipped_even_when_invalid():
    y = Y["gamma"].copy()
    y[:4] = np.nan  # never read: weight zero
    loss, g0, g = glm_loss_gradient(
        X, y, W, OFFSET, np.zeros(P), 0.5, FAMILY_CODES["gamma"], LINK_CODES["log"]
    )
    assert np.isfinite(loss) and np.isfinite(g0) and np.all(np.isfinite(g))


def test_supported_pairs():
    assert supports("poisson", "log") and supports("binomial", "probit")
    assert not supports("gamma", "inverse") and not supports("poisson", "identity")
    assert not supports("inverse_gaussian", "inverse_squared")
