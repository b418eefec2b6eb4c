"""Welling's checkable statements (seed 002; the text has no worked numerical example): an odd
k never ties between two classes, and the size of the polynomial feature space."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from statlearning.kernels import Polynomial
from statlearning.neighbors import KNeighborsClassifier


def test_l253_odd_k_never_ties_with_two_classes():
    rng = np.random.default_rng(253)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] + 0.5 * rng.normal(size=60) > 0).astype(int)
    grid = rng.normal(size=(2000, 2))
    for k in (1, 3, 5, 7):
        p = KNeighborsClassifier(k).fit(X, y).predict_proba(grid)[:, 1]
        assert not np.any(p == 0.5)
    p_even = KNeighborsClassifier(4).fit(X, y).predict_proba(grid)[:, 1]
    assert np.any(p_even == 0.5)  # an even k can tie


def _monomials(x, degree):
    """The explicit map of (xᵀy + 1)^degree: √(multinomial) · Π x_i^{a_i}, Σ a_i ≤ degree."""
    d = len(x)
    feats = []
    for powers in itertools.product(range(degree + 1), repeat=d):
        rest = degree - sum(powers)
        if rest < 0:
            continue
        coef = math.factorial(degree) / (
            math.factorial(rest) * math.prod(math.factorial(a) for a in powers)
        )
        feats.append(math.sqrt(coef) * math.prod(xi**a for xi, a in zip(x, powers, strict=True)))
    return np.array(feats)


@pytest.mark.parametrize("d, degree", [(2, 2), (3, 3), (4, 2)])
def test_l1225_polynomial_kernel_feature_count(d, degree):
    # L1225: (n + d)!/(n! d!) monomials of degree ≤ n in d variables span the polynomial kernel
    rng = np.random.default_rng(d * 10 + degree)
    x, z = rng.normal(size=d), rng.normal(size=d)
    phi_x, phi_z = _monomials(x, degree), _monomials(z, degree)
    assert len(phi_x) == math.comb(degree + d, d)
    k = Polynomial(degree=degree, gamma=1.0, coef0=1.0)(x[None], z[None])[0, 0]
    assert phi_x @ phi_z == pytest.approx(k, rel=1e-12)
