"""The common return type of every solver."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass
class SolverResult:
    """What a solver found.

    Attributes
    ----------
    x : ndarray
        The minimiser (or the last iterate when ``converged`` is False).
    n_iter : int
        Iterations performed.
    converged : bool
        Whether the stopping rule was met before the iteration cap.
    history : list of float
        Objective value after each iteration (empty when not recorded).
    """

    x: np.ndarray
    n_iter: int
    converged: bool
    history: list = field(default_factory=list)
