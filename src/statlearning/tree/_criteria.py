"""Split criteria: names, codes and the per-node statistics every node stores.

Each node stores its prediction (``value``), its weighted size and its impurity, so that a
subtree can later be collapsed into its root without revisiting the data. The risk used by
rpart's ``cp`` is the node's weighted SSE (regression) or weighted misclassification count
(classification), whatever criterion chose the splits.
"""

from __future__ import annotations

from ._splitter import (
    ABSOLUTE_ERROR,
    CHI2,
    ENTROPY,
    GAIN_RATIO,
    GINI,
    MISCLASSIFICATION,
    SQUARED_ERROR,
)

CLASSIFICATION_CRITERIA = {
    "gini": GINI,
    "entropy": ENTROPY,
    "misclassification": MISCLASSIFICATION,
    "gain_ratio": GAIN_RATIO,
    "chi2": CHI2,
}
#: Criteria whose node impurity is the entropy (reported in bits on scikit-learn's scale).
ENTROPY_IMPURITY = ("entropy", "gain_ratio")
REGRESSION_CRITERIA = {"squared_error": SQUARED_ERROR, "absolute_error": ABSOLUTE_ERROR}
