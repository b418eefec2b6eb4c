"""Learning-theory bounds against their formulas (seed 001 eqs. 1.11–1.22)."""

import math

import pytest

from statlearning.theory import (
    growth_function_bound,
    hoeffding_bound,
    sample_size,
    union_bound,
    vc_bound,
)


def test_hoeffding_and_union():
    assert hoeffding_bound(200, 0.1) == pytest.approx(2 * math.exp(-2 * 200 * 0.01), rel=1e-15)
    assert union_bound(200, 0.1, 50) == pytest.approx(100 * math.exp(-4.0), rel=1e-15)
    assert hoeffding_bound(1, 0.01) > 1  # vacuous, returned as computed


@pytest.mark.parametrize("n, d", [(0, 3), (2, 3), (3, 3), (10, 3), (50, 7), (7, 0)])
def test_growth_is_sauers_sum(n, d):
    assert growth_function_bound(n, d) == sum(math.comb(n, i) for i in range(min(n, d) + 1))
    if n <= d:
        assert growth_function_bound(n, d) == 2**n
    elif d > 0:
        assert growth_function_bound(n, d) <= (n * math.e / d) ** d


def test_vc_gap_formula_and_closed_form_is_looser():
    n, d, delta = 5000, 4, 0.05
    growth = sum(math.comb(2 * n, i) for i in range(d + 1))
    want = math.sqrt((8 * math.log(growth) + 8 * math.log(4 / delta)) / n)
    assert vc_bound(n, d, delta) == pytest.approx(want, rel=1e-14)
    closed = math.sqrt((8 * d * (math.log(2 * n / d) + 1) + 8 * math.log(4 / delta)) / n)
    assert vc_bound(n, d, delta, form="closed") == pytest.approx(closed, rel=1e-14)
    assert vc_bound(n, d, delta) <= closed
    # the gap is the ε at which the probability bound (1.21) equals δ
    eps = vc_bound(n, d, delta)
    assert 4 * growth * math.exp(-n * eps**2 / 8) == pytest.approx(delta, rel=1e-10)


@pytest.mark.parametrize(
    "eps, delta, size", [(0.05, 0.05, None), (0.1, 0.01, 1), (0.02, 0.1, 10**6)]
)
def test_sample_size_finite_is_smallest(eps, delta, size):
    n = sample_size(eps, delta, n_hypotheses=size)
    h = 1 if size is None else size
    assert h * hoeffding_bound(n, eps) <= delta
    assert n == 1 or h * hoeffding_bound(n - 1, eps) > delta
    assert n == math.ceil(math.log(2 * h / delta) / (2 * eps**2))


@pytest.mark.parametrize("eps, delta, d", [(0.1, 0.05, 3), (0.2, 0.1, 10), (0.05, 0.05, 1)])
def test_sample_size_vc_is_smallest(eps, delta, d):
    n = sample_size(eps, delta, vc_dim=d)
    assert vc_bound(n, d, delta) <= eps
    assert vc_bound(n - 1, d, delta) > eps


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: hoeffding_bound(0, 0.1), "n must be an integer"),
        (lambda: hoeffding_bound(10, 0.0), r"eps must be a number in \(0, 1\]"),
        (lambda: union_bound(10, 0.1, 0), "n_hypotheses"),
        (lambda: vc_bound(10, 2, 1.0), r"delta must be a number in \(0, 1\)"),
        (lambda: vc_bound(10, 2, 0.1, form="x"), "form"),
        (lambda: growth_function_bound(5, -1), "vc_dim"),
        (lambda: sample_size(0.1, 0.1, n_hypotheses=3, vc_dim=2), "not both"),
        (lambda: hoeffding_bound(True, 0.1), "n must be an integer"),
    ],
)
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
