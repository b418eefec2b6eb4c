"""The single minimum / one-standard-error choice shared by every cross-validated selector."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning._core.selection import select_index


def test_min_prefers_the_simplest_on_exact_ties():
    err = [3.0, 1.0, 2.0, 1.0]
    assert select_index(err) == 1
    assert select_index(err, complexity=[0, 5, 1, 2]) == 3
    assert select_index([np.nan, 2.0, 2.0]) == 1


def test_one_se_bound_and_simplest_within():
    err = np.array([1.30, 1.10, 1.00, 1.05, 1.40])
    se = np.array([0.1, 0.1, 0.12, 0.1, 0.1])
    # bound 1.12: candidates 1, 2, 3; simplest by index order is 1
    assert select_index(err, se, rule="1se") == 1
    # reversed complexity: the simplest is the last within (3)
    assert select_index(err, se, complexity=-np.arange(5), rule="1se") == 3


def test_one_se_counts_a_candidate_on_the_bound():
    # 0.1 + 0.2 is 0.30000000000000004 in floating point: equal to the bound up to rounding
    err = np.array([0.3, 0.1])
    se = np.array([0.0, 0.2])
    assert select_index(err, se, rule="1se") == 0


def test_one_se_ties_in_complexity_go_to_the_smaller_error():
    err = np.array([1.0, 1.08, 1.05])
    se = np.full(3, 0.1)
    assert select_index(err, se, complexity=[2, 1, 1], rule="1se") == 2


def test_one_se_needs_a_standard_error():
    with pytest.raises(ValueError, match="two folds"):
        select_index([1.0, 2.0], [np.nan, np.nan], rule="1se")
    with pytest.raises(ValueError, match="standard errors"):
        select_index([1.0, 2.0], rule="1se")
    with pytest.raises(ValueError, match="rule"):
        select_index([1.0, 2.0], rule="2se")
    with pytest.raises(ValueError, match="finite"):
        select_index([np.nan, np.nan])
