"""Feature selection: best subset and stepwise selection for linear models and GLMs (R's
``leaps`` and ``step``), and filters (mutual information, the f-score, the index of dispersion,
Relief/ReliefF) with permutation-null p-values, wrappers scored on held-out data and embedded
selection from a lasso path."""

from sklearn.pipeline import make_pipeline

from .._registry import register_model
from ..linear_model import LinearRegression
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


def best_subset_ols():
    """Best subset by BIC (leaps), then least squares on the chosen features."""
    return make_pipeline(BestSubsetSelector(criterion="bic"), LinearRegression())


register_model(
    "best_subset_ols",
    best_subset_ols,
    task="regression",
    description="Best subset by BIC (leaps), then least squares on the chosen features",
    family="feature_selection",
)
