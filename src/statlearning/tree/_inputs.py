"""Categorical columns of the tree estimators: which they are, and their level codes.

A categorical column reaches the builder as float codes ``0 … q-1`` (``NaN`` for missing):
the index of the value in the column's ``categories_`` (a DataFrame's categories, mapped by
value, or the sorted distinct non-negative integer codes of a numeric column).
"""

from __future__ import annotations

import numpy as np


def _is_frame(X) -> bool:
    return hasattr(X, "columns") and hasattr(X, "dtypes") and hasattr(X, "iloc")


def _is_category(dtype) -> bool:
    return str(dtype) == "category"


def _fmt(value) -> str:
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def resolve_categorical(categorical_features, X, *, frame_only=False):
    """Boolean mask of the categorical columns of ``X`` (``None`` when there are none).

    ``frame_only``: resolve only for a DataFrame (before validation, which needs its category
    columns coded); other inputs are resolved after validation.
    """
    frame = _is_frame(X)
    if not frame and (frame_only or categorical_features is None):
        return None
    n_features = len(X.columns) if frame else X.shape[1]
    if categorical_features is None:
        if not frame:
            return None
        mask = np.array([_is_category(dt) for dt in X.dtypes], dtype=bool)
        return mask if mask.any() else None
    spec = np.asarray(categorical_features)
    if spec.ndim != 1:
        raise ValueError("categorical_features must be a 1-D list of indices or a boolean mask.")
    if spec.dtype == bool:
        if spec.size != n_features:
            raise ValueError(f"categorical_features has {spec.size} entries as a boolean mask "
                             f"but X has {n_features} features.")
        return spec.copy() if spec.any() else None
    if spec.dtype.kind in "OUS" and frame:
        cols = [str(c) for c in X.columns]
        missing = [str(s) for s in spec if str(s) not in cols]
        if missing:
            raise ValueError(f"categorical_features names unknown column(s) {missing}.")
        spec = np.array([cols.index(str(s)) for s in spec], dtype=np.int64)
    if spec.size and spec.dtype.kind not in "iu":
        raise ValueError("categorical_features must hold column indices (int), a boolean mask, "
                         "or column names of a DataFrame.")
    spec = spec.astype(np.int64)
    if np.any((spec < 0) | (spec >= n_features)):
        raise ValueError(f"categorical_features indices must lie in [0, {n_features}); got "
                         f"{spec.tolist()}.")
    mask = np.zeros(n_features, dtype=bool)
    mask[spec] = True
    return mask if mask.any() else None


def encode_frame(X, mask, categories=None):
    """Replace a DataFrame's categorical ``category`` columns by float level codes.

    At fit (``categories=None``) the levels are the column's categories; at prediction the
    values are mapped to the stored ``categories`` and a level never seen raises. Returns the
    (copied) frame and ``{column index: levels}`` of the columns converted.
    """
    if mask is None or not _is_frame(X):
        return X, {}
    import pandas as pd

    out, levels = None, {}
    for j in np.flatnonzero(mask):
        col = X.iloc[:, j]
        if not _is_category(col.dtype):
            continue
        if categories is None:
            cats = np.asarray(col.cat.categories)
            codes = np.asarray(col.cat.codes)
        else:
            cats = categories[j]
            codes = np.asarray(pd.Index(cats).get_indexer(np.asarray(col, dtype=object)))
            unseen = (codes < 0) & np.asarray(col.notna())
            if unseen.any():
                value = np.asarray(col)[np.flatnonzero(unseen)[0]]
                raise ValueError(f"Categorical column {X.columns[j]!r} has level {value!r} "
                                 "not seen at fit.")
        if out is None:
            out = X.copy()
        out[X.columns[j]] = np.where(codes < 0, np.nan, codes.astype(np.float64))
        levels[int(j)] = cats
    return (X if out is None else out), levels


def encode_columns(X, est, frame_levels, *, reset, names):
    """Code the numeric categorical columns of validated ``X`` (and record the levels)."""
    mask = est.is_categorical_
    if not mask.any():
        return X
    X = X.copy()
    for j in np.flatnonzero(mask):
        name = repr(str(names[j])) if names is not None else str(j)
        if j in frame_levels:
            if reset:
                est.categories_[j] = frame_levels[j]
            continue
        col = X[:, j]
        ok = ~np.isnan(col)
        if reset:
            v = col[ok]
            if np.any(v < 0) or np.any(v != np.floor(v)):
                raise ValueError(f"Categorical column {name} must hold non-negative integer "
                                 "codes (or NaN).")
            est.categories_[j] = np.unique(v)
        cats = est.categories_[j]
        pos = np.searchsorted(cats, col[ok])
        pos_c = np.minimum(pos, max(cats.size - 1, 0))
        unseen = (pos >= cats.size) | (cats[pos_c] != col[ok])
        if unseen.any():
            raise ValueError(f"Categorical column {name} has level "
                             f"{_fmt(col[ok][unseen][0])} not seen at fit.")
        col[ok] = pos
        X[:, j] = col
    return X
