"""Fitting on Dask collections: the one module that decides the path and talks to Dask.

An estimator's ``fit`` receives a ``dask.array.Array`` or a ``dask.dataframe`` collection
through :func:`statlearning.base.fit_context`, which hands it to :func:`fit` here; the
estimator's ``_fit_dask`` then asks this module for its sufficient statistics and finishes the
fit with the same ``_core`` functions as the in-memory path. Nothing here imports Dask at
module level, and nothing calls it unless a Dask collection was passed: a collection is
recognised by the module of its type, without importing Dask.

The data stay where Dask keeps them (on the workers of a ``distributed`` cluster, or read chunk
by chunk from disk); each pass maps a function over the row blocks and reduces the per-block
results in a tree, so that only small summaries (a ``(p+2) × (p+2)`` triangle, a few sums,
per-column counts) reach the client:

* :func:`row_blocks` lines up ``X``, ``y`` and the weights as float64 arrays with the same row
  chunks and one column chunk, taking feature names from a DataFrame's columns (a Dask array
  gives ``x0, x1, …`` as a NumPy array does);
* :func:`check_blocks` is the validation pass: per-column counts of NaN and infinite values
  and their first rows, from which the in-memory error message is rebuilt word for word;
* :func:`map_reduce` is the one pass primitive (blocks → ``fn`` → tree of ``combine``);
* :func:`exact_quantiles` selects exact order statistics of a lazy 1-D array without bringing
  it to the client (counting passes over ever narrower value intervals, then the few values of
  the last interval).

What fitted estimators compute on collections (lazy predictions, column moments, scores from
block sums) lives in :mod:`statlearning._dask._results` and is re-exported here.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .._core.class_labels import encode_class_labels
from .._core.grouped_moments import block_class_moments, merge_class_moments
from .._core.scaling import SAFE_EXPONENT
from .._validation import non_finite_message, validate_data

__all__ = [
    "RowBlocks",
    "aligned_column",
    "any_dask",
    "check_blocks",
    "class_moments",
    "column_moments",
    "exact_quantiles",
    "fit",
    "is_dask_collection",
    "linear_predictor",
    "map_blocks",
    "map_reduce",
    "predict_blocks",
    "row_blocks",
    "score",
    "stack_blocks",
]

#: Values of the last interval brought to the client by :func:`exact_quantiles`.
SELECT_CAP = 4096
#: Bins per interval and pass of :func:`exact_quantiles`.
SELECT_BINS = 1024
#: Bins of the first pass of :func:`exact_quantiles`, equally wide in value.
FIRST_BINS = 16384


def is_dask_collection(x) -> bool:
    """Whether ``x`` is a Dask collection (array, DataFrame, Series), without importing Dask."""
    module = type(x).__module__ or ""
    return module == "dask" or module.startswith("dask.")


def _is_dask_array(x) -> bool:
    return is_dask_collection(x) and not hasattr(x, "to_dask_array")


def any_dask(args, kwargs) -> bool:
    """Whether any positional or keyword argument is a Dask collection."""
    return any(is_dask_collection(a) for a in args) or any(
        is_dask_collection(v) for v in kwargs.values()
    )


def fit(estimator, args, kwargs):
    """Fit ``estimator`` on Dask collections through its ``_fit_dask`` method.

    Parameters
    ----------
    estimator : estimator
    args, kwargs
        The arguments of ``fit``.

    Returns
    -------
    estimator

    Raises
    ------
    TypeError
        When the estimator has no distributed fit.
    """
    method = getattr(estimator, "_fit_dask", None)
    if method is None:
        name = type(estimator).__name__
        raise TypeError(
            f"{name} does not fit on Dask collections; pass NumPy arrays or pandas objects "
            "(collection.compute()) or use an estimator that does (LinearRegression, Ridge, "
            "GLMRegressor, LogisticRegression, GaussianNB, MultinomialNB, BernoulliNB, "
            "CategoricalNB, LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis, KMeans, "
            "GaussianMixture, PCA)."
        )
    return method(*args, **kwargs)


@dataclass
class RowBlocks:
    """``X``, ``y`` and weights as Dask arrays with the same row chunks.

    Attributes
    ----------
    X : dask.array.Array of shape (n, p), float64, one column chunk
    y, w : dask.array.Array of shape (n,), or None
    offsets : ndarray of int
        First row of every block.
    names : list of str or None
        Column names of a DataFrame ``X``.
    target_name : str
        A Series' name, else ``"y"``.
    labels : bool
        ``y`` holds class labels.
    """

    X: object
    y: object
    w: object
    offsets: np.ndarray
    names: list | None
    target_name: str
    labels: bool = False

    @property
    def n(self) -> int:
        return int(self.X.shape[0])


def _as_dask_array(obj, owner: str, what: str):
    """A Dask (or NumPy) input as a Dask array with known chunk sizes."""
    import dask.array as da

    if hasattr(obj, "to_dask_array"):  # a dask DataFrame or Series
        with warnings.catch_warnings():  # text labels become an object array, as we want
            warnings.filterwarnings("ignore", "Dask currently has limited support", UserWarning)
            try:
                return obj.to_dask_array(lengths=True)
            except ValueError:
                # Dask fuses small parquet partitions when it counts the rows but not when it
                # converts, so the counts may not line up: count the array's own blocks
                return obj.to_dask_array().compute_chunk_sizes()
    if is_dask_collection(obj):
        if any(np.isnan(c) for c in obj.chunks[0]):
            obj = obj.compute_chunk_sizes()
        return obj
    return da.from_array(np.asarray(obj))


def _check_numeric_frame(X, owner: str) -> None:
    for name, dtype in X.dtypes.items():
        if getattr(dtype, "kind", "O") not in "biuf":
            raise ValueError(
                f"{owner}: column {name!r} is not numeric (dtype {dtype}); encode text "
                "columns as numbers first (one-hot or codes)."
            )


def _aligned(obj, chunks, n: int, owner: str, what: str, numeric: bool = True):
    arr = _as_dask_array(obj, owner, what)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(f"{owner}: {what} must be 1-D; got shape {arr.shape}.")
    if arr.shape[0] != n:
        raise ValueError(
            f"{owner}: X has {n} rows but {what} has {arr.shape[0]}; they must have the same "
            "number of rows."
        )
    if not numeric:  # class labels of any type
        return arr.rechunk((chunks,))
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{owner}: {what} must be numeric; got dtype {arr.dtype}.")
    return arr.astype(np.float64).rechunk((chunks,))


def row_blocks(estimator, X, y=None, sample_weight=None, *, reset=True, labels=False) -> RowBlocks:
    """Line up ``X`` (and ``y``, weights) as float64 Dask arrays with the same row chunks.

    Sets ``n_features_in_`` and ``feature_names_in_`` on ``estimator`` (or checks them when
    ``reset=False``) exactly as :func:`statlearning._validation.validate_data` does for
    in-memory data. Lazy: no data are read except the row counts of a DataFrame's partitions.

    Parameters
    ----------
    estimator : estimator
    X : dask Array or DataFrame of shape (n, p)
    y, sample_weight : dask Array or Series, NumPy array, or None
    reset : bool, default=True
    labels : bool, default=False
        ``y`` holds class labels (of any type, kept as they are) rather than numbers.

    Returns
    -------
    RowBlocks
    """
    owner = type(estimator).__name__
    # a Series' name, never a Dask array's graph key
    target_name = None if _is_dask_array(y) else getattr(y, "name", None)
    names = None
    if hasattr(X, "columns") and hasattr(X, "to_dask_array"):
        _check_numeric_frame(X, owner)
        names = [str(c) for c in X.columns]
        import pandas as pd

        meta = pd.DataFrame({c: pd.Series(dtype=t) for c, t in X.dtypes.items()})
    else:
        if not hasattr(X, "ndim") or X.ndim != 2:
            raise ValueError(
                f"{owner}: X must be 2-D (n_samples, n_features); got "
                f"{getattr(X, 'ndim', '?')} dimensions."
            )
        meta = np.empty((0, X.shape[1]))
    validate_data(estimator, meta, reset=reset, skip_check_array=True)
    arr = _as_dask_array(X, owner, "X")
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{owner}: X must be numeric; got dtype {arr.dtype}.")
    arr = arr.astype(np.float64).rechunk({1: -1})
    chunks = arr.chunks[0]
    n = arr.shape[0]
    yy = None if y is None else _aligned(y, chunks, n, owner, "y", numeric=not labels)
    ww = (
        None
        if sample_weight is None
        else _aligned(sample_weight, chunks, n, owner, "sample_weight")
    )
    offsets = np.concatenate([[0], np.cumsum(chunks)[:-1]]).astype(np.int64)
    return RowBlocks(
        arr, yy, ww, offsets, names, str(target_name) if target_name is not None else "y", labels
    )


def _blocks(arr):
    if arr is None:
        return None
    return list(arr.to_delayed().ravel())


def tree_reduce(parts, combine):
    """One delayed result from a list of delayed ``parts`` combined pairwise in a tree."""
    import dask

    step = dask.delayed(combine, pure=True)
    while len(parts) > 1:
        pairs = [step(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
        if len(parts) % 2:
            pairs.append(parts[-1])
        parts = pairs
    return parts[0]


def map_blocks(fn, arrays, offsets, *args):
    """Delayed ``fn(block, …, offset, *args)`` for every row block of ``arrays``.

    Parameters
    ----------
    fn : callable
        ``fn(*blocks, offset, *args)``: one block of every array in ``arrays`` (``None`` for
        an array that is ``None``) and the block's first row.
    arrays : list of dask arrays (or None) with the same row chunks
    offsets : ndarray of int
    *args
        Passed to every call of ``fn`` (small: they travel with every task).

    Returns
    -------
    list of dask.delayed.Delayed
    """
    import dask

    blocks = [_blocks(a) for a in arrays]
    call = dask.delayed(fn, pure=True)
    return [
        call(*[None if b is None else b[i] for b in blocks], int(offsets[i]), *args)
        for i in range(len(offsets))
    ]


def map_reduce(fn, combine, arrays, offsets, *args):
    """Delayed ``combine`` (associative) over :func:`map_blocks`'s results, in a tree."""
    return tree_reduce(map_blocks(fn, arrays, offsets, *args), combine)


def compute(*delayed_results):
    """Compute several delayed results in one pass over the data (shared reads)."""
    import dask

    return dask.compute(*delayed_results)


# ----------------------------------------------------------------------------------------------
# The validation pass


_NONE = np.iinfo(np.int64).max  # "no such row" in the first-row summaries


def _non_finite_summary(values, offset, finite=None):
    """Per column: NaN count, first NaN row, infinity count, first infinite row.

    ``finite`` marks the columns already known to be finite (their counts are zero): only
    the other columns are scanned, one column at a time (no block-sized mask).
    """
    values = values[:, None] if values.ndim == 1 else values
    out = np.zeros((4, values.shape[1]), dtype=np.int64)
    out[1] = out[3] = _NONE
    for j in range(values.shape[1]) if finite is None else np.flatnonzero(~finite):
        column = values[:, j]
        for row, mask in ((0, np.isnan(column)), (2, np.isinf(column))):
            out[row, j] = np.count_nonzero(mask)
            if out[row, j]:
                out[row + 1, j] = int(np.argmax(mask)) + offset
    return out


def _finite_column_max_abs(X):
    """Per column: the largest ``|x|`` over the finite entries (0 for none), and whether the
    whole column is finite.

    Two reductions over the block (its column maxima and minima) and no block-sized
    temporary; a column that is not finite is scanned again on its own.
    """
    p = X.shape[1]
    if not X.shape[0]:
        return np.zeros(p), np.ones(p, dtype=bool)
    with np.errstate(invalid="ignore"):
        magnitude = np.maximum(X.max(axis=0), -X.min(axis=0))  # NaN or inf propagate
    finite = np.isfinite(magnitude)
    for j in np.flatnonzero(~finite):
        column = X[:, j]
        column = np.abs(column[np.isfinite(column)])
        magnitude[j] = column.max() if column.size else 0.0
    return magnitude, finite


def _check_block(X, y, w, offset):
    magnitude, finite = _finite_column_max_abs(X)
    parts = [_non_finite_summary(X, offset, finite)]
    y = None if y is None else np.asarray(y)
    if y is not None and y.dtype.kind in "fc":
        parts.append(_non_finite_summary(y, offset))
    else:  # no y, or labels that are not floating point: nothing can be NaN
        parts.append(np.zeros((4, 0 if y is None else 1), np.int64))
    if w is None:
        weights = np.zeros(3, np.int64)
    else:
        weights = np.array([(~np.isfinite(w)).sum(), (w < 0).sum(), (w > 0).sum()])
    with np.errstate(invalid="ignore"):
        y_abs = np.abs(y[np.isfinite(y)]) if y is not None and y.dtype.kind in "fc" else None
    magnitudes = np.r_[magnitude, y_abs.max() if y_abs is not None and y_abs.size else 0.0]
    return np.concatenate(parts, axis=1), weights, magnitudes


def _combine_checks(a, b):
    (ca, wa, ma), (cb, wb, mb) = a, b
    c = ca.copy()
    c[0] += cb[0]
    c[2] += cb[2]
    c[1] = np.minimum(ca[1], cb[1])
    c[3] = np.minimum(ca[3], cb[3])
    return c, wa + wb, np.maximum(ma, mb)


def check_blocks(rows: RowBlocks):
    """The delayed validation summary of ``X``, ``y`` and the weights (one pass).

    Compute it with the other statistics of the first pass and give the result to
    :func:`raise_for_bad_blocks` before using them.
    """
    return map_reduce(_check_block, _combine_checks, [rows.X, rows.y, rows.w], rows.offsets)


def raise_for_bad_blocks(estimator, rows: RowBlocks, summary, *, rescales=True) -> None:
    """Raise the in-memory error for NaN/infinity in ``X`` or ``y`` or bad weights.

    The messages are those of :func:`statlearning._validation.validate_data` and
    :func:`statlearning._validation.check_sample_weight`: the first column (in order) with a
    NaN or infinite value, the number of such rows and the first of them.

    With ``rescales=True`` (estimators that rescale data near the ends of float64 in memory,
    :mod:`statlearning._core.scaling`) a column or ``y`` whose magnitude lies outside
    ``2**±SAFE_EXPONENT`` is an error: the blockwise fits do not rescale, and would lose
    accuracy silently.
    """
    owner = type(estimator).__name__
    counts, weights, magnitudes = summary
    p = rows.X.shape[1]
    for j in range(counts.shape[1]):
        if j < p:
            label = f"column {rows.names[j]!r}" if rows.names is not None else f"column {j}"
        else:
            label = "y"
        for row, kind in ((0, "NaN"), (2, "infinity")):
            if counts[row, j]:
                raise ValueError(
                    non_finite_message(
                        owner, label, kind, int(counts[row, j]), int(counts[row + 1, j])
                    )
                )
    if rows.w is not None:
        if weights[0]:
            raise ValueError(f"{owner}: sample_weight contains NaN or infinite values.")
        if weights[1]:
            raise ValueError(f"{owner}: sample_weight must be non-negative; got negative values.")
        if not weights[2]:
            raise ValueError(f"{owner}: sample_weight is zero for every sample.")
    if rows.labels:  # class labels are not data
        magnitudes = magnitudes[: rows.X.shape[1]]
    high, low = 2.0**SAFE_EXPONENT, 2.0**-SAFE_EXPONENT
    extreme = np.flatnonzero((magnitudes > high) | ((magnitudes > 0) & (magnitudes < low)))
    if rescales and extreme.size:
        j = int(extreme[0])
        if j < rows.X.shape[1]:
            label = f"column {rows.names[j]!r}" if rows.names is not None else f"column {j}"
        else:
            label = "y"
        raise ValueError(
            f"{owner}: {label} has magnitude {magnitudes[j]:.3g}, beyond 2**±{SAFE_EXPONENT}; "
            "fits on Dask collections do not rescale such data: multiply it by a power of two "
            "first (exact), or fit in memory."
        )


# ----------------------------------------------------------------------------------------------
# Per-class moments (naive Bayes, discriminant analysis)


def _class_moments_block(X, y, w, offset):
    return block_class_moments(X, y, w)


def class_moments(estimator, X, y, sample_weight=None):
    """The validation pass and the per-class moments of ``X``, in one pass over the blocks.

    Sets ``estimator.classes_`` (the sorted labels, checked as in memory).

    Returns
    -------
    rows : RowBlocks
    wsum, means, ss : ndarray of shape (n_classes, n_features)
        Per-class weights, means and centred sums of squares
        (:func:`statlearning._core.grouped_moments.block_class_moments`).
    """
    rows = row_blocks(estimator, X, y, sample_weight, labels=True)
    moments = map_reduce(
        _class_moments_block, merge_class_moments, [rows.X, rows.y, rows.w], rows.offsets
    )
    checks, (labels, wsum, means, ss) = compute(check_blocks(rows), moments)
    raise_for_bad_blocks(estimator, rows, checks)
    estimator.classes_, _ = encode_class_labels(labels, type(estimator).__name__)
    return rows, wsum, means, ss


# ----------------------------------------------------------------------------------------------
# Exact order statistics of a lazy 1-D array


_MAGNITUDE = np.int64(0x7FFFFFFFFFFFFFFF)


def _keys(values) -> np.ndarray:
    """Integers ordered as the float64 ``values`` (``-0.0`` just below ``+0.0``)."""
    bits = np.ascontiguousarray(values, dtype=np.float64).view(np.int64)
    return np.where(bits < 0, -(bits & _MAGNITUDE) - 1, bits)


def _value(key: int) -> float:
    bits = key if key >= 0 else ((-key - 1) | (1 << 63)) - (1 << 64)
    return float(np.array([bits], dtype=np.int64).view(np.float64)[0])


def _count_block(values, edges_list):
    keys = np.sort(_keys(values))
    return [np.searchsorted(keys, edges, side="right") for edges in edges_list]


def _collect_block(values, intervals):
    keys = _keys(values)
    return [values[(keys > lo) & (keys <= hi)] for lo, hi in intervals]


def _add_lists(a, b):
    return [x + y for x, y in zip(a, b, strict=True)]


def _concat_lists(a, b):
    return [np.concatenate([x, y]) for x, y in zip(a, b, strict=True)]


def _reduce(fn, combine, blocks, *args):
    import dask

    call = dask.delayed(fn, pure=True)
    return tree_reduce([call(b, *args) for b in blocks], combine)


def _value_edges(lo: int, hi: int, low: float, high: float) -> np.ndarray:
    """Keys of :data:`FIRST_BINS` bins equally wide in value from ``low`` to ``high``, with
    ``lo`` first and ``hi`` last (strictly increasing)."""
    with np.errstate(over="ignore", invalid="ignore"):
        values = np.linspace(low, high, FIRST_BINS + 1)[1:-1]
    inner = _keys(values[np.isfinite(values)])
    inner = inner[(inner > lo) & (inner < hi)]
    return np.unique(np.concatenate([[lo], inner, [hi]]).astype(np.int64))


def _edges(lo: int, hi: int) -> np.ndarray:
    span = hi - lo
    steps = min(SELECT_BINS, span)
    return np.array([lo + span * j // steps for j in range(steps + 1)], dtype=np.int64)


def exact_order_statistics(blocks, n, ranks, low, high):
    """The exact ``ranks``-th smallest (0-based) of the values in lazy 1-D ``blocks``.

    The search runs on the float64 values' bit patterns read as ordered integers, so that
    every pass divides the number of representable values left by :data:`SELECT_BINS`
    whatever the data (ties and values near zero included): at most
    ``1 + ⌈64 / log2(SELECT_BINS)⌉`` passes. The first pass counts at :data:`FIRST_BINS`
    edges equally spaced in value instead (the bit patterns crowd near zero, where few
    values lie): for 10⁷ normal values its bins hold at most a few thousand values. Each
    target keeps a half-open key interval ``(lo, hi]`` known to hold it and the number of
    values ``≤ lo``. A pass counts the values
    at ``SELECT_BINS + 1`` edges across the interval (a sorted block and ``searchsorted``, per
    block; the counts are added); the bin holding the target becomes the new interval. Once
    an interval holds at most :data:`SELECT_CAP` values, or a single key, one pass brings
    those values to the client, where the target is selected exactly. Every pass sends only
    counts, never the data: for 10⁷ normal values, one counting pass and one collecting pass.

    Parameters
    ----------
    blocks : list of dask.delayed.Delayed
        1-D arrays whose values together are the ``n`` values.
    n : int
    ranks : sequence of int
    low, high : float
        The minimum and maximum of the values.

    Returns
    -------
    ndarray of float64
    """
    lo0, hi0 = int(_keys(np.array([low]))[0]) - 1, int(_keys(np.array([high]))[0])
    state = {int(k): (lo0, hi0, 0) for k in set(ranks)}
    total = dict.fromkeys(state, n)  # values in (lo, hi]
    found: dict[int, float] = {}
    first = True
    while state:
        for k, (lo, hi, _) in list(state.items()):
            if hi - lo == 1:  # a single key: the target is that value
                found[k] = _value(hi)
                del state[k]
        collect = {k: s for k, s in state.items() if total[k] <= SELECT_CAP}
        refine = {k: s for k, s in state.items() if k not in collect}
        jobs = []
        if collect:
            intervals = [(lo, hi) for lo, hi, _ in collect.values()]
            jobs.append(_reduce(_collect_block, _concat_lists, blocks, intervals))
        edges = [
            _value_edges(lo, hi, low, high) if first else _edges(lo, hi)
            for lo, hi, _ in refine.values()
        ]
        first = False
        if refine:
            jobs.append(_reduce(_count_block, _add_lists, blocks, edges))
        if not jobs:
            continue
        results = list(compute(*jobs))
        if collect:
            for (k, (_, _, below)), chosen in zip(collect.items(), results.pop(0), strict=True):
                found[k] = float(np.partition(chosen, k - below)[k - below])
                del state[k]
        if refine:
            for k, e, counts in zip(refine, edges, results.pop(0), strict=True):
                # counts[j]: values with key ≤ edge j over all blocks (counts[0] = below)
                j = int(np.searchsorted(counts, k, side="right"))  # first edge with count > k
                state[k] = (int(e[j - 1]), int(e[j]), int(counts[j - 1]))
                total[k] = int(counts[j] - counts[j - 1])
    return np.array([found[int(k)] for k in ranks])


def exact_quantiles(blocks, n, probs, low, high):
    """NumPy's default (linear) quantiles of the values in lazy 1-D ``blocks``, exactly.

    ``np.quantile(v, q)`` interpolates between the order statistics ``⌊h⌋`` and ``⌊h⌋ + 1``
    with ``h = (n − 1) q``; those are found by :func:`exact_order_statistics` and combined
    with NumPy's own interpolation.

    Parameters
    ----------
    blocks : list of dask.delayed.Delayed
    n : int
        The number of values.
    probs : sequence of float in [0, 1]
    low, high : float
        The minimum and maximum of ``values``.

    Returns
    -------
    ndarray of float64
    """
    h = (n - 1) * np.asarray(probs, dtype=np.float64)
    below = np.floor(h).astype(np.int64)
    above = np.minimum(below + 1, n - 1)
    ranks = sorted(set(below.tolist()) | set(above.tolist()))
    interior = [k for k in ranks if 0 < k < n - 1]
    order = dict(zip(interior, exact_order_statistics(blocks, n, interior, low, high), strict=True))
    order[0], order[n - 1] = float(low), float(high)
    out = np.empty(h.size)
    for i, (k0, k1, t) in enumerate(zip(below, above, h - below, strict=True)):
        # two ordered values whose np.quantile is a linear interpolation at t
        pair = np.array([order[int(k0)], order[int(k1)]])
        out[i] = np.quantile(pair, t) if k1 > k0 else pair[0]
    return out


# the results of fitted estimators (lazy predictions, column moments, scores): their own module
from ._results import (  # noqa: E402
    aligned_column,
    column_moments,
    linear_predictor,
    predict_blocks,
    score,
    stack_blocks,
)
