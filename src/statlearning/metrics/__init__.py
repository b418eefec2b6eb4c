"""Metrics scikit-learn lacks: the notes' NMSE, NMAE, MAPE and RMSLE, misclassification rate,
rates for a chosen positive class, a labelled confusion matrix, the ROC-optimal threshold and the
AUC with its standard error. Everything else: :mod:`sklearn.metrics`."""

from ._classification import (
    ConfusionMatrix,
    confusion_matrix,
    misclassification_rate,
    rates_table,
)
from ._regression import mape, nmae, nmse, rmsle
from ._roc import auc_se, roc_optimal_threshold

__all__ = [
    "ConfusionMatrix",
    "auc_se",
    "confusion_matrix",
    "mape",
    "misclassification_rate",
    "nmae",
    "nmse",
    "rates_table",
    "rmsle",
    "roc_optimal_threshold",
]
