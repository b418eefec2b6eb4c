"""Private optimisers. Each takes callables or arrays from ``_core`` and returns a
:class:`SolverResult`; none knows about estimators."""

from ._result import SolverResult

__all__ = ["SolverResult"]
