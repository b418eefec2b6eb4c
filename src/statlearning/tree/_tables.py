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
    # element loops: a slice assignment compiles numba's shape-mismatch error path (its
    # string formatting), seconds of the first run for a copy
    for i in range(cap):
        for c in range(ints.shape[1]):
            ints2[i, c] = ints[i, c]
        for c in range(floats.shape[1]):
            floats2[i, c] = floats[i, c]
        for c in range(values.shape[1]):
            values2[i, c] = values[i, c]
    majority, rpart_left, cat_l, cat_r = nodex
    rows = majority.shape[0]
    new_rows = new if rows > 0 else 0  # none when they are not recorded
    majority2 = np.empty(new_rows, dtype=np.int8)
    rpart_left2 = np.empty(new_rows, dtype=np.bool_)
    cat_l2 = np.empty((new_rows, cat_l.shape[1]), dtype=np.uint64)
    cat_r2 = np.empty((new_rows, cat_l.shape[1]), dtype=np.uint64)
    for i in range(rows):
        majority2[i] = majority[i]
        rpart_left2[i] = rpart_left[i]
        for c in range(cat_l.shape[1]):
            cat_l2[i, c] = cat_l[i, c]
            cat_r2[i, c] = cat_r[i, c]
    return ints2, floats2, values2, (majority2, rpart_left2, cat_l2, cat_r2)
