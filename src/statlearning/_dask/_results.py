"""Results of fitted estimators on Dask collections: lazy predictions, per-column moments and
per-block results, columns lined up with the rows, and scores from block sums.

Part of :mod:`statlearning._dask` (which re-exports every public name here); the passes go
through that module's primitives, looked up on it at call time (``_dask.compute`` is the one
place a result is brought to the client).
"""

from __future__ import annotations

import numpy as np

from .. import _dask
from .._core.grouped_moments import block_class_moments, merge_class_moments

__all__ = [
    "aligned_column",
    "column_moments",
    "linear_predictor",
    "predict_blocks",
    "score",
    "stack_blocks",
]


def _linear_block(X, offset, coef, intercept):
    return X @ coef + intercept


def linear_predictor(estimator, X):
    """``X @ coef_ + intercept_`` as a lazy Dask array (aliased coefficients count as zero)."""
    rows = _dask.row_blocks(estimator, X, reset=False)
    coef = np.where(np.isnan(estimator.coef_), 0.0, estimator.coef_)
    return rows.X.map_blocks(
        _linear_block,
        0,
        coef,
        float(estimator.intercept_),
        drop_axis=1,
        dtype=np.float64,
    )


def _call_method(X, estimator, method, names):
    if names is not None:  # the estimator was fitted on named columns
        import pandas as pd

        X = pd.DataFrame(X, columns=names)
    return getattr(estimator, method)(X)


def predict_blocks(estimator, X, method: str, n_columns: int | None = None, dtype=np.float64):
    """``estimator.<method>(X)`` as a lazy Dask array computed block by block.

    Parameters
    ----------
    estimator : fitted estimator (small: it travels with every task)
    X : dask Array or DataFrame
    method : str
        ``"predict"``, ``"predict_proba"``, ...
    n_columns : int, optional
        Columns of a 2-D result (``None``: one value per row).
    dtype : dtype, default=float64

    Returns
    -------
    dask.array.Array
    """
    rows = _dask.row_blocks(estimator, X, reset=False)
    names = rows.names if hasattr(estimator, "feature_names_in_") else None
    args = (_call_method, estimator, method, names)
    if n_columns is None:
        return rows.X.map_blocks(*args, drop_axis=1, dtype=dtype)
    return rows.X.map_blocks(*args, chunks=(rows.X.chunks[0], (n_columns,)), dtype=dtype)


# ----------------------------------------------------------------------------------------------
# Column moments and per-block results (PCA, k-means, Gaussian mixtures)


def _column_moments_block(X, offset):
    return block_class_moments(X, np.zeros(X.shape[0], dtype=np.int64))


def _column_moments_result(moments):
    _, wsum, means, ss = moments
    p = means.shape[1]
    if not wsum.shape[0]:  # no rows
        return 0.0, np.zeros(p), np.zeros(p)
    return float(wsum[0, 0]) if p else 0.0, means[0], ss[0]


def column_moments(rows: _dask.RowBlocks):
    """Delayed ``(n, means, centred sums of squares)`` of the columns of ``rows.X``.

    One pass; the blocks are merged by Chan's update
    (:func:`statlearning._core.grouped_moments.merge_class_moments`).
    """
    import dask

    moments = _dask.map_reduce(_column_moments_block, merge_class_moments, [rows.X], rows.offsets)
    return dask.delayed(_column_moments_result, pure=True)(moments)


def stack_blocks(parts, chunks, dtype):
    """One lazy 1-D Dask array from delayed per-block arrays of lengths ``chunks``."""
    import dask.array as da

    return da.concatenate(
        [
            da.from_delayed(part, shape=(int(c),), dtype=dtype)
            for part, c in zip(parts, chunks, strict=True)
        ]
    )


# ----------------------------------------------------------------------------------------------
# Further columns lined up with the rows


def aligned_column(estimator, rows: _dask.RowBlocks, values, what: str):
    """``values`` as a float64 Dask array with the row chunks of ``rows`` (``None`` stays
    ``None``).

    Parameters
    ----------
    estimator : estimator
        Named in the errors.
    rows : RowBlocks
    values : dask Array or Series, NumPy array, scalar or None
        One value per row (an offset, say); a scalar is repeated.
    what : str
        The argument's name, for the errors.

    Returns
    -------
    dask.array.Array of shape (n,) or None
    """
    if values is None:
        return None
    if not _dask.is_dask_collection(values) and np.ndim(values) == 0:
        import dask.array as da

        return da.full(rows.n, float(values), chunks=(rows.X.chunks[0],))
    return _dask._aligned(values, rows.X.chunks[0], rows.n, type(estimator).__name__, what)


# ----------------------------------------------------------------------------------------------
# Scores from block sums


def _r2_block(pred, y, w, offset):
    """The weighted moments ``(Σw, ȳ_w, Σw(y − ȳ_w)²)`` of a block's ``y`` (merged by
    :func:`statlearning._core.ols.merge_moments`) and its ``Σw(y − ŷ)²``."""
    w = np.ones(y.shape[0]) if w is None else w
    total = float(w.sum())
    mean = float(w @ y) / total if total else 0.0
    dev = y - mean
    r = y - pred
    return (total, mean, float(w @ (dev * dev))), float(w @ (r * r))


def _merge_r2(a, b):
    from .._core.ols import merge_moments

    return merge_moments(a[0], b[0]), a[1] + b[1]


def _accuracy_block(pred, y, w, offset):
    hit = np.asarray(pred == y, dtype=np.float64)
    if w is None:
        return float(hit.sum()), float(hit.size)
    return float(w @ hit), float(w.sum())


def _add_pair(a, b):
    return a[0] + b[0], a[1] + b[1]


def score(estimator, X, y, sample_weight=None, metric="r2") -> float:
    """R² or accuracy of ``estimator.predict(X)`` against ``y`` from block sums (one pass).

    R² is scikit-learn's ``r2_score`` (``1`` for a perfect fit of a constant ``y``, ``0`` for
    an imperfect one): the weighted moments of ``y`` merge pairwise (no cancellation), the
    residual sum of squares adds. Accuracy is scikit-learn's ``accuracy_score``. The
    validation pass runs with it (NaN or infinity give the in-memory fit's errors).

    Parameters
    ----------
    estimator : fitted estimator
    X : dask Array or DataFrame
    y, sample_weight : dask Array or Series, NumPy array, or None
    metric : {"r2", "accuracy"}

    Returns
    -------
    float
    """
    labels = metric == "accuracy"
    rows = _dask.row_blocks(estimator, X, y, sample_weight, reset=False, labels=labels)
    pred = estimator.predict(X)
    if not _dask.is_dask_collection(pred):  # pragma: no cover - every predict here is lazy
        import dask.array as da

        pred = da.from_array(np.asarray(pred))
    pred = pred.rechunk((rows.X.chunks[0],))
    fn, combine = (_accuracy_block, _add_pair) if labels else (_r2_block, _merge_r2)
    job = _dask.map_reduce(fn, combine, [pred, rows.y, rows.w], rows.offsets)
    checks, result = _dask.compute(_dask.check_blocks(rows), job)
    _dask.raise_for_bad_blocks(estimator, rows, checks, rescales=False)
    if labels:
        return result[0] / result[1]
    (_, _, total), rss = result
    if total == 0:
        return 1.0 if rss == 0 else 0.0
    return 1.0 - rss / total
