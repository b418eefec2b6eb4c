"""Class labels of the classifiers in this subpackage."""

from __future__ import annotations

import numpy as np

__all__ = ["encode_labels"]


def encode_labels(y: np.ndarray, owner: str) -> tuple[np.ndarray, np.ndarray]:
    """``classes_`` (sorted, as :func:`numpy.unique`) and integer codes of validated 1-D labels.

    Any label type is accepted (integers, strings, booleans, integral floats); a float target
    with non-integral values is a regression target and is refused, as is a single class.

    Raises
    ------
    ValueError
        ``"Unknown label type: continuous"`` (scikit-learn's wording) for non-integral floats;
        a message naming ``y`` when it holds fewer than two classes.
    """
    if y.dtype.kind == "f" and np.any(y != np.floor(y)):
        raise ValueError(
            f"Unknown label type: continuous. {owner} is a classifier: y must hold class "
            "labels, and a float y with non-integral values looks like a regression target."
        )
    classes, codes = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(
            f"{owner}: y has only one class ({classes[0]!r}); a classifier needs at least 2 "
            "classes."
        )
    return classes, codes.reshape(-1).astype(np.intp)
