"""Learning-theory bounds: Hoeffding, the union bound over a finite class, Sauer's lemma, the VC
generalisation gap, and the sample sizes they imply (seed 001 §1.2.3, eqs. 1.11–1.22)."""

from ._bounds import (
    growth_function_bound,
    hoeffding_bound,
    sample_size,
    union_bound,
    vc_bound,
)

__all__ = [
    "growth_function_bound",
    "hoeffding_bound",
    "sample_size",
    "union_bound",
    "vc_bound",
]
