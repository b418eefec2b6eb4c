"""Lloyd's steps with Hamerly's bounds: the same iterations, bit for bit, as screening every row
at every step, and most rows settled once the centres slow down."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from statlearning.cluster import _kmeans


def _blobs(n, p, k_true, seed, spread=1.0, offset=0.0):
    rng = np.random.default_rng(seed)
    centres = 3.0 * rng.standard_normal((k_true, p))
    return offset + spread * (rng.standard_normal((n, p)) + centres[rng.integers(0, k_true, n)])


def _runs(X, init, monkeypatch, threaded=False, max_iter=40):
    """``_lloyd`` with the bounds, and with every row screened at every step (the kernel
    without bounds, chosen by raising the work from which the bounds are used)."""
    bounded = _kmeans._lloyd(X, init, max_iter, 0.0, "lloyd", threaded)
    with monkeypatch.context() as m:
        m.setattr(_kmeans, "SCREEN_WORK", 10**12)
        every = _kmeans._lloyd(X, init, max_iter, 0.0, "lloyd", threaded)
    return bounded, every


def _assert_same(bounded, every):
    for a, b in zip(bounded, every, strict=True):  # centres, labels, inertia, path, n_iter, …
        np.testing.assert_array_equal(a, b)


CASES = {
    # more centres than blobs: the bounds are weak where centres share a blob
    "blobs": lambda: _blobs(6000, 30, 6, 0),
    # integer data and centres: exact ties between distances, settled to the lowest index
    "integer ties": lambda: np.random.default_rng(1).integers(0, 3, (5000, 40)).astype(float),
    # far from the origin: the product's margin is wide, every bound carries it
    "offset 1e6": lambda: _blobs(4000, 25, 5, 2, offset=1e6),
    # tiny and huge scales (the fit rescales; the kernel must hold on its own)
    "scale 1e-150": lambda: _blobs(3000, 20, 4, 3, spread=1e-150),
    "scale 1e150": lambda: _blobs(3000, 20, 4, 4, spread=1e150),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("threaded", [False, True])
def test_bounded_steps_are_the_screened_steps_bit_for_bit(case, threaded, monkeypatch):
    X = CASES[case]()
    k = 12
    assert X.shape[1] * k >= _kmeans.SCREEN_WORK
    rng = np.random.default_rng(5)
    init = X[rng.choice(X.shape[0], k, replace=False)].copy()
    init[1] = init[0]  # two identical centres: every row near them is a tie
    bounded, every = _runs(X, init, monkeypatch, threaded)
    _assert_same(bounded, every)
    assert bounded[4] > 3  # several steps, so the bounds were used


def test_empty_clusters_repaired_as_without_bounds(monkeypatch):
    X = _blobs(3000, 20, 4, 6)
    init = np.vstack([X[:8], np.full((2, 20), 1e3), np.full((2, 20), -1e3)])  # 4 start empty
    bounded, every = _runs(X, init, monkeypatch)
    _assert_same(bounded, every)
    assert np.bincount(bounded[1], minlength=12).min() > 0


def test_bounds_settle_most_rows_once_the_centres_slow_down():
    X = _blobs(8000, 20, 10, 7)
    steps = _kmeans._LloydSteps(X)
    centers = X[np.random.default_rng(8).choice(8000, 10, replace=False)]
    screened = []
    for _ in range(15):
        labels, _, sums, counts = steps.assign(centers)
        centers, shift = _kmeans.updated_centers(centers, sums, counts)
        steps.shifted(shift, labels)
        screened.append(int(steps.screened))
    assert screened[0] == 8000  # the first step screens every row
    assert screened[-1] < 0.2 * 8000, screened


@settings(max_examples=25, deadline=None)
@given(
    n=st.integers(1, 700),
    p=st.integers(10, 40),
    k=st.integers(10, 25),
    seed=st.integers(0, 2**16),
    duplicates=st.booleans(),
)
def test_bounded_fit_equals_the_screened_fit(n, p, k, seed, duplicates):
    rng = np.random.default_rng(seed)
    X = rng.integers(-2, 3, (n, p)).astype(float) if duplicates else rng.standard_normal((n, p))
    k = min(k, n)
    init = X[rng.choice(n, k, replace=False)].copy()
    with pytest.MonkeyPatch.context() as m:
        bounded, every = _runs(X, init, m, max_iter=20)
    _assert_same(bounded, every)
