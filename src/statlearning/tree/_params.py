"""Hyper-parameter rules shared by the trees and the tree ensembles."""

from __future__ import annotations

import math
from numbers import Integral


def resolve_max_features(max_features, n_features: int) -> int:
    """Number of columns drawn at each split, the one rule for every tree-based estimator.

    ``None``: all ``n_features``; ``"sqrt"``: :math:`\\lfloor\\sqrt p\\rfloor`; ``"log2"``:
    :math:`\\lfloor\\log_2 p\\rfloor`; an integer: itself (``ValueError`` above ``p``); a float
    ``f``: ``max(1, int(f * p))``, scikit-learn's rule (the product truncated, so
    ``0.29 * 100`` in floating point, 28.999999999999996, gives 28), at least one column.

    R's ``randomForest`` has only an integer ``mtry`` with defaults ``floor(sqrt(p))``
    (classification) and ``max(floor(p/3), 1)`` (regression): ``"sqrt"`` and the float
    ``1/3`` give exactly these (``int(p * (1/3)) == p // 3`` holds for every ``p`` below
    10⁵, checked exhaustively).
    """
    if max_features is None:
        return n_features
    if max_features == "sqrt":
        return max(1, math.isqrt(n_features))
    if max_features == "log2":
        return max(1, int(math.log2(n_features)))
    if isinstance(max_features, Integral):
        if max_features > n_features:
            raise ValueError(
                f"max_features={max_features} exceeds the number of features ({n_features})."
            )
        return int(max_features)
    return max(1, int(max_features * n_features))
