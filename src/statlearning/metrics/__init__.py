"""Metrics scikit-learn lacks: the notes' NMSE, NMAE, MAPE and RMSLE, the explained-variance form
of R², misclassification rate, rates for a chosen positive class, a labelled confusion matrix, the
ROC-optimal threshold and the AUC with its standard error, R's adjusted p-values and the
information measures (entropy, KL divergence, cross-entropy). Everything else:
:mod:`sklearn.metrics`."""

from ._classification import (
    ConfusionMatrix,
    confusion_matrix,
    misclassification_rate,
    rates_table,
)
from ._information import cross_entropy, entropy, kl_divergence
from ._multiple_testing import p_adjust
from ._regression import explained_variance_r2, mape, nmae, nmse, rmsle
from ._roc import auc_se, roc_optimal_threshold

__all__ = [
    "ConfusionMatrix",
    "auc_se",
    "confusion_matrix",
    "cross_entropy",
    "entropy",
    "explained_variance_r2",
    "kl_divergence",
    "mape",
    "misclassification_rate",
    "nmae",
    "nmse",
    "p_adjust",
    "rates_table",
    "rmsle",
    "roc_optimal_threshold",
]
