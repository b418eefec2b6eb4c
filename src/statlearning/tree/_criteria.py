"""Split criteria: names, codes and the per-node statistics every node stores.

Each node stores its prediction (``value``), its weighted size and its impurity, so that a
subtree can later be collapsed into its root without revisiting the data. The risk used by
rpart's ``cp`` is the node's weighted SSE (regression) or weighted misclassification count
(classification), whatever criterion chose the splits.
"""

from __future__ import annotations

import numpy as np

from ._splitter import (
    ABSOLUTE_ERROR,
    ENTROPY,
    GINI,
    MISCLASSIFICATION,
    SQUARED_ERROR,
    node_summary,
)

CLASSIFICATION_CRITERIA = {
    "gini": GINI,
    "entropy": ENTROPY,
    "misclassification": MISCLASSIFICATION,
}
REGRESSION_CRITERIA = {"squared_error": SQUARED_ERROR, "absolute_error": ABSOLUTE_ERROR}


def weighted_median(y: np.ndarray, w: np.ndarray) -> float:
    """Weighted median; the midpoint of the two middle values when the weight splits exactly."""
    order = np.argsort(y, kind="mergesort")
    ys = y[order]
    cw = np.cumsum(w[order])
    half = 0.5 * cw[-1]
    k = min(int(np.searchsorted(cw, half)), y.size - 1)
    if cw[k] == half and k + 1 < y.size:
        return float(0.5 * (ys[k] + ys[k + 1]))
    return float(ys[k])


def node_stats(y, codes, w, idx, crit, n_classes):
    """``(value, weighted_n, impurity, risk)`` of the node holding rows ``idx``.

    ``value`` is the weighted mean (squared error), the weighted median (absolute error) or the
    vector of class proportions (classification). ``impurity`` is per unit weight (variance,
    mean absolute deviation, gini, entropy or misclassification rate); ``risk`` is the
    weighted SSE for regression and the weighted misclassification count for classification.
    """
    value, wn, imp, risk = node_summary(y, codes, w, idx, crit, n_classes)
    if crit != ABSOLUTE_ERROR:
        return value, wn, imp, risk
    ww, yy = w[idx], y[idx]
    med = weighted_median(yy, ww)
    return np.array([med]), wn, float(np.dot(ww, np.abs(yy - med)) / wn), risk
