"""Optimisation helpers for small problems: quadratic programming with a KKT report.

:func:`solve_qp` minimises :math:`\\tfrac12 x^\\top Q x + c^\\top x` under linear constraints
(HiGHS for convex problems, exact active-set enumeration for small non-convex ones) and
returns a :class:`QPResult` with the multipliers of every constraint and the residuals of the
KKT conditions (seed 001 part 2, §A.5–A.6).
"""

from ._qp import QPResult, solve_qp

__all__ = ["QPResult", "solve_qp"]
