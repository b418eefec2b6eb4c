"""Feature selection: best subset and stepwise selection for linear models and GLMs (R's
``leaps`` and ``step``), and filters (mutual information, the f-score, the index of dispersion,
Relief/ReliefF) with permutation-null p-values, wrappers scored on held-out data and embedded
selection from a lasso path."""

from ._filters import (
    FilterSelector,
    ReliefF,
    f_scores,
    mutual_info_scores,
    variance_mean_scores,
)
from ._stepwise import StepwiseSelector
from ._subset import BestSubsetSelector
from ._wrappers import LassoPathSelector, WrapperSelector

__all__ = [
    "BestSubsetSelector",
    "FilterSelector",
    "LassoPathSelector",
    "ReliefF",
    "StepwiseSelector",
    "WrapperSelector",
    "f_scores",
    "mutual_info_scores",
    "variance_mean_scores",
]
