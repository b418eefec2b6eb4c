"""Private spline helpers of ``statlearning._core.splines``."""

from __future__ import annotations

import numpy as np


def test_in_sorted_order_evaluates_sorted_points_and_restores_their_order():
    from statlearning._core.splines import in_sorted_order

    x = np.random.default_rng(0).uniform(size=500)
    seen = []

    def evaluate(v):
        seen.append(v)
        return np.column_stack([v, 2 * v]), v**2

    cols, squares = in_sorted_order(evaluate, x)
    assert np.all(np.diff(seen[0]) >= 0)  # the evaluation saw the points sorted
    np.testing.assert_array_equal(cols, np.column_stack([x, 2 * x]))
    np.testing.assert_array_equal(squares, x**2)
    ordered = np.sort(x)
    assert in_sorted_order(lambda v: v is ordered, ordered) is True  # sorted: no copy
