"""Growth tables of the compiled tree grower (:mod:`._grow`): the node arrays are reserved
for the whole tree up to a cap and doubled past it."""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["node_tables_doubled"]


@njit(cache=True, nogil=True)
def node_tables_doubled(ints, floats, values, nodex, cap_max):
    """The node arrays with twice the rows, at most ``cap_max`` (the first rows copied; the
    rest is written when its node is added)."""
    cap = ints.shape[0]
    new = min(2 * cap, cap_max)
    ints2 = np.empty((new, ints.shape[1]), dtype=np.int32)
    floats2 = np.empty((new, floats.shape[1]))
    values2 = np.empty((new, values.shape[1]))
    ints2[:cap] = ints
    floats2[:cap] = floats
    values2[:cap] = values
    majority, rpart_left, cat_l, cat_r = nodex
    rows = majority.shape[0]
    new_rows = new if rows > 0 else 0  # none when they are not recorded
    majority2 = np.empty(new_rows, dtype=np.int8)
    rpart_left2 = np.empty(new_rows, dtype=np.bool_)
    cat_l2 = np.empty((new_rows, cat_l.shape[1]), dtype=np.uint64)
    cat_r2 = np.empty((new_rows, cat_l.shape[1]), dtype=np.uint64)
    majority2[:rows] = majority
    rpart_left2[:rows] = rpart_left
    cat_l2[:rows] = cat_l
    cat_r2[:rows] = cat_r
    return ints2, floats2, values2, (majority2, rpart_left2, cat_l2, cat_r2)
