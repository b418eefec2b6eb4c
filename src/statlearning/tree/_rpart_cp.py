"""rpart's node complexities (``partition.c``, ``fix_cp.c``), compiled with numba.

rpart does not compute the exact weakest-link sequence: while it grows the tree it gives every
node a complexity from its children's, in one bottom-up pass (a child collapses first when its
own complexity is below the node's). A node whose complexity does not exceed
:math:`\\alpha = cp \\cdot R(root)` is turned into a leaf, and a node is not even split when
its risk, or the bound its parent passes down, does not exceed :math:`\\alpha`. The cp table,
``prune.rpart`` and the cross-validation (``xval.c``) all read these complexities, each
clamped to its parent's (``fix_cp``). They equal the weakest-link alphas except when a
subtree's best pruning is not reached by collapsing one child at a time; then rpart's CP
column differs from the exact sequence and so does ours, following rpart.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def rpart_complexity(left, right, risk, alpha, limit):
    """``(complexity, keep)`` of every node for rpart's ``alpha`` (on the risk scale).

    ``limit`` is ``alpha`` widened by a relative 1e-12 (the comparisons ``<= alpha`` of rpart,
    robust to the last-bit differences of risks summed in another order).

    ``keep[t]`` is False for a split rpart does not make (it and its subtree become a leaf);
    ``complexity`` is rpart's ``me->complexity`` after ``fix_cp``: ``alpha`` at leaves, the
    computed value (at most ``alpha``) at removed splits, clamped to the parent's value.
    Children have larger ids than their parent.
    """
    n = left.size
    cx = np.full(n, alpha)
    keep = np.zeros(n, dtype=np.bool_)
    bound = np.empty(n)
    nsplit = np.zeros(n, dtype=np.int64)
    sumrisk = np.empty(n)
    state = np.zeros(n, dtype=np.int8)
    stack = np.empty(n + 1, dtype=np.int64)
    sp = 1
    stack[0] = 0
    bound[0] = risk[0]
    while sp > 0:
        t = stack[sp - 1]
        if state[t] == 0:
            tempcp = risk[t] if t == 0 else min(risk[t], bound[t])
            if left[t] == -1 or tempcp <= limit:
                cx[t] = alpha
                nsplit[t] = 0
                sumrisk[t] = risk[t]
                sp -= 1
                continue
            state[t] = 1
            bound[left[t]] = tempcp - alpha
            stack[sp] = left[t]
            sp += 1
        elif state[t] == 1:
            lt = left[t]
            tempcp = (risk[t] - sumrisk[lt]) / (nsplit[lt] + 1)
            tempcp2 = risk[t] - risk[lt]
            if tempcp < tempcp2:
                tempcp = tempcp2
            if tempcp > bound[t]:
                tempcp = bound[t]
            state[t] = 2
            bound[right[t]] = tempcp - alpha
            stack[sp] = right[t]
            sp += 1
        else:
            lt = left[t]
            rt = right[t]
            lr = sumrisk[lt]
            rr = sumrisk[rt]
            ls = nsplit[lt]
            rs = nsplit[rt]
            tempcp = (risk[t] - (lr + rr)) / (ls + rs + 1)
            if cx[rt] > cx[lt]:
                if tempcp > cx[lt]:
                    lr = risk[lt]
                    ls = 0
                    tempcp = (risk[t] - (lr + rr)) / (ls + rs + 1)
                    if tempcp > cx[rt]:
                        rr = risk[rt]
                        rs = 0
            elif tempcp > cx[rt]:
                rr = risk[rt]
                rs = 0
                tempcp = (risk[t] - (lr + rr)) / (ls + rs + 1)
                if tempcp > cx[lt]:
                    lr = risk[lt]
                    ls = 0
            cx[t] = (risk[t] - (lr + rr)) / (ls + rs + 1)
            if cx[t] <= limit:
                nsplit[t] = 0
                sumrisk[t] = risk[t]
            else:
                keep[t] = True
                nsplit[t] = ls + rs + 1
                sumrisk[t] = lr + rr
            sp -= 1
    # fix_cp: no node more complex than its parent (children follow their parent in id order)
    for t in range(n):
        if keep[t]:
            for c in (left[t], right[t]):
                if cx[c] > cx[t]:
                    cx[c] = cx[t]
    return cx, keep


def alpha_limit(alpha: float, root_risk: float) -> float:
    """``alpha`` widened by a relative 1e-12 (and 1e-12 of the root risk)."""
    return alpha * (1 + 1e-12) + 1e-12 * abs(root_risk)
