"""Entropy, KL divergence and cross-entropy against their definitions."""

import math

import numpy as np
import pytest

from statlearning.metrics import cross_entropy, entropy, explained_variance_r2, kl_divergence


def test_entropy_against_definition():
    p = np.array([0.2, 0.5, 0.3, 0.0])
    nats = -sum(v * math.log(v) for v in p if v > 0)
    assert entropy(p) == pytest.approx(nats, rel=1e-15)
    assert entropy(p, base=2) == pytest.approx(nats / math.log(2), rel=1e-15)
    assert entropy([1.0, 1.0, 1.0, 1.0], base=2) == pytest.approx(2.0, rel=1e-15)  # weights


def test_seed000_root_entropy():
    # seed 000 §2.5, Table 3.1's root: 4 and 5 of 9 observations, 0.991076 bits
    assert entropy([4, 5], base=2) == pytest.approx(0.991076, abs=5e-7)


def test_kl_and_cross_entropy():
    p = np.array([0.1, 0.6, 0.3])
    q = np.array([0.3, 0.3, 0.4])
    kl = sum(a * math.log(a / b) for a, b in zip(p, q, strict=True))
    assert kl_divergence(p, q) == pytest.approx(kl, rel=1e-14)
    assert kl_divergence(p, p) == 0.0
    assert cross_entropy(p, q) == pytest.approx(-np.sum(p * np.log(q)), rel=1e-14)
    assert cross_entropy(p, q) == pytest.approx(entropy(p) + kl_divergence(p, q), rel=1e-15)
    assert kl_divergence([0.5, 0.5], [1.0, 0.0]) == np.inf


def test_columns_along_axis():
    P = np.array([[0.5, 0.9], [0.5, 0.1]])
    np.testing.assert_allclose(entropy(P), [entropy(P[:, 0]), entropy(P[:, 1])], rtol=1e-15)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: entropy([0.5, -0.1]), "negative"),
        (lambda: entropy([0.0, 0.0]), "sums to zero"),
        (lambda: entropy([np.nan, 1.0]), "NaN"),
        (lambda: entropy([0.5, 0.5], base=1), "base"),
        (lambda: kl_divergence([0.5, 0.5], [0.2, 0.3, 0.5]), "different shapes"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_explained_variance_r2_equals_r2_for_ols_with_intercept():
    rng = np.random.default_rng(3)
    X = np.column_stack([np.ones(50), rng.normal(size=(50, 2))])
    y = X @ [1.0, 2.0, -1.0] + rng.normal(size=50)
    fitted = X @ np.linalg.lstsq(X, y, rcond=None)[0]
    r2 = 1 - np.sum((y - fitted) ** 2) / np.sum((y - y.mean()) ** 2)
    assert explained_variance_r2(y, fitted) == pytest.approx(r2, rel=1e-12)
    # ... and not for other predictions: it exceeds 1 where R² (7.5) is negative
    assert explained_variance_r2(y, 3 * fitted) > 1


def test_explained_variance_r2_constant_y():
    with pytest.raises(ValueError, match="constant"):
        explained_variance_r2([1.0, 1.0], [1.0, 2.0])
