"""Power-of-two rescaling of data whose magnitude would overflow or underflow the arithmetic.

Squared norms, Gram products and sums of squares leave float64's range long before the data
do: ``(1e300)² = inf`` and ``(1e-300)² = 0``. A scale-equivariant method can instead compute
on ``X / s`` and map its results back (coefficients by ``1/s``, centres and distances by
``s``, sums of squares by ``s²``). With ``s`` a power of two, dividing by it is exact in
floating point (it changes the exponent only), so the rescaled problem is the original one up
to representation and the results map back without rounding.

Data whose largest magnitude lies within ``[2**-SAFE_EXPONENT, 2**SAFE_EXPONENT]`` (about
``6e-61`` to ``1.6e60``) are left alone: their fourth powers are still normal numbers, so every
method is exact on them as it is. The check costs one pass over the data (a maximum and a
minimum, no temporary array). Outside that range the factor brings the largest magnitude into
``[0.5, 1)``.

``scale_for`` gives one factor for all columns (for distance-based methods, which are
equivariant only under a common factor); ``column_scales`` one per column (for linear models,
whose coefficients absorb any column scaling).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from ._scaling_kernels import column_max_abs, flat_max_abs, flat_max_abs_finite
from ._scaling_kernels import column_variances as _column_variances
from .compiled import single_blas_thread

__all__ = [
    "SAFE_EXPONENT",
    "LinearRescaling",
    "column_scales",
    "finite_max_abs",
    "linear_rescaling",
    "max_abs",
    "scale_for",
    "scale_for_magnitude",
    "scaled_sum_of_squares",
    "times",
    "validated_magnitude",
]

#: Magnitudes within ``2**±SAFE_EXPONENT`` are computed on as they are.
SAFE_EXPONENT = 200
#: Column maxima of matrices this large are taken in one compiled pass.
_COMPILED_MIN_SIZE = 1 << 16
#: The largest magnitude of arrays this large is taken in one compiled pass (below it, NumPy's
#: max and min on data in cache are faster: 0.4 ms against 0.6 ms on 50,000 × 10).
_COMPILED_FLAT_MIN_SIZE = 1 << 21
_HIGH = 2.0**SAFE_EXPONENT
_LOW = 2.0**-SAFE_EXPONENT


def max_abs(a, axis=None):
    """Largest absolute value (over ``axis``) without a temporary array; 0 for empty input.

    A column containing ``NaN`` gives ``NaN``, except in the compiled passes over a large
    C-ordered array, which pass ``NaN`` entries over (either way such a column is not rescaled
    on their account)."""
    a = np.asarray(a, dtype=np.float64)
    if a.size == 0:
        return 0.0 if axis is None else np.zeros(np.delete(a.shape, axis))
    if a.flags.c_contiguous:
        if axis is None and a.size >= _COMPILED_FLAT_MIN_SIZE:  # one read, not max and min
            return flat_max_abs(a.reshape(-1))
        if axis == 0 and a.ndim == 2 and a.size >= _COMPILED_MIN_SIZE:
            return column_max_abs(a)  # one read instead of NumPy's two column-wise reductions
    return np.maximum(np.max(a, axis=axis), -np.min(a, axis=axis))


def finite_max_abs(a) -> float:
    """Largest absolute value of ``a``, or ``NaN`` when some entry is ``NaN`` or infinite.

    One read of the data serves both the finiteness check of validation and the magnitude
    that :func:`scale_for_magnitude` turns into a factor (validate with
    ``ensure_all_finite=False``, then call this).

    Parameters
    ----------
    a : ndarray of float64

    Returns
    -------
    float
    """
    a = np.asarray(a, dtype=np.float64)
    if a.size == 0:
        return 0.0
    if a.flags.c_contiguous and a.size >= _COMPILED_FLAT_MIN_SIZE:
        return float(flat_max_abs_finite(a.reshape(-1)))
    m = float(np.maximum(np.max(a), -np.min(a)))  # NaN propagates; an infinity gives inf
    return m if math.isfinite(m) else math.nan


def validated_magnitude(validate, X, owner: str):
    """``(X, m)``: ``X`` validated and its largest magnitude, finiteness checked in the same read.

    Validation's own finiteness check is a pass over the data, and so is the magnitude that
    decides a rescaling (:func:`scale_for_magnitude`); this validates with
    ``ensure_all_finite=False`` and checks finiteness with :func:`finite_max_abs` instead,
    one read for both (1.7 ms of a 26 ms ``PCA(5)`` fit of 100,000 × 100).

    Parameters
    ----------
    validate : callable
        ``validate(X, **params)`` returns the validated array; called once with
        ``ensure_all_finite=False`` and, only when ``X`` holds ``NaN`` or an infinity, once
        more with the default check so that its message (naming the column) is raised.
    X : array-like
    owner : str
        The estimator's name, for the message when the validation itself does not raise.

    Returns
    -------
    X : ndarray
    m : float
        The largest magnitude; or, when one sum of squares (BLAS on one thread: 22 against
        37 ms for 10⁸ entries) proves every entry finite and the largest magnitude within
        ``2**±SAFE_EXPONENT``, the root of that sum, a bound on it inside the range (either
        way :func:`scale_for_magnitude` finds no rescaling needed).
    """
    Xv = validate(X, ensure_all_finite=False)
    m = _magnitude_within_range(Xv)
    if m is not None:
        return Xv, m
    m = finite_max_abs(Xv)
    if math.isnan(m):  # the validation's own message, naming the column
        validate(X)
        raise ValueError(f"{owner}: X contains NaN or infinite values.")
    return Xv, m


def _magnitude_within_range(a) -> float | None:
    """``√Σ a²`` when that sum shows every entry finite and the largest magnitude ``m`` inside
    ``[2**-SAFE_EXPONENT, 2**SAFE_EXPONENT]``, else ``None``.

    ``m² ≤ Σ a² ≤ N m²``: a finite sum (a ``NaN`` or an infinity makes it ``NaN`` or ``inf``)
    of at most ``_HIGH² / 2`` bounds ``m`` above, and one of at least ``2 N _LOW²`` bounds it
    below (the factors of 2 absorb the sum's rounding). Near-zero, huge or non-finite data
    fail the test and take the exact pass, and so do small arrays (there the exact pass is as
    fast)."""
    if a.dtype != np.float64 or not a.flags.c_contiguous or a.size < _COMPILED_MIN_SIZE:
        return None
    flat = a.reshape(-1)
    # one BLAS thread: threads left spinning after the product slow the next parallel region
    # (a k-means predict of 10,000 × 100 took 10 ms instead of 0.8)
    with single_blas_thread(), np.errstate(over="ignore", invalid="ignore"):
        total = float(np.dot(flat, flat))
    if not (2.0 * flat.size * _LOW * _LOW <= total <= 0.5 * _HIGH * _HIGH):  # NaN fails too
        return None
    return math.sqrt(total)


def _power_of_two(m):
    """``2**e`` with ``m · 2**-e`` in ``[0.5, 1)`` (1 where ``m`` is 0 or not finite)."""
    m = np.asarray(m, dtype=np.float64)
    ok = np.isfinite(m) & (m > 0)
    _, e = np.frexp(np.where(ok, m, 1.0))
    return np.where(ok, np.ldexp(1.0, e), 1.0)


def _outside(m) -> bool:
    m = np.asarray(m, dtype=np.float64)
    return bool(np.any(np.isfinite(m) & (m > 0) & ((m > _HIGH) | (m < _LOW))))


def scale_for(*arrays) -> float | None:
    """One power-of-two factor for all the arrays, or ``None`` when none is needed.

    Parameters
    ----------
    *arrays : array-like
        Data on one scale (a training matrix, its queries, centres). ``None`` entries are
        skipped, and so are ``NaN`` values.

    Returns
    -------
    float or None
        ``s = 2**e`` such that the largest magnitude divided by ``s`` is in ``[0.5, 1)``;
        ``None`` when the largest magnitude is already within ``2**±SAFE_EXPONENT`` (or the
        data are all zero).
    """
    m = max((max_abs(a) for a in arrays if a is not None), default=0.0)
    if np.isnan(m):  # missing values (where an estimator allows them) are passed over
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all NaN
            m = max(float(np.nanmax(np.abs(a), initial=0.0)) for a in arrays if a is not None)
    return scale_for_magnitude(m)


def scale_for_magnitude(m) -> float | None:
    """:func:`scale_for` of data whose largest magnitude ``m`` is known.

    Parameters
    ----------
    m : float

    Returns
    -------
    float or None
    """
    if not _outside(m):
        return None
    return float(_power_of_two(m))


def column_scales(X) -> np.ndarray | None:
    """One power-of-two factor per column, or ``None`` when no column needs one.

    Parameters
    ----------
    X : ndarray of shape (n, p)

    Returns
    -------
    ndarray of shape (p,) or None
        ``d_j = 2**e_j`` bringing column ``j``'s largest magnitude into ``[0.5, 1)`` (1 for an
        all-zero column); ``None`` when every column is within ``2**±SAFE_EXPONENT``.
    """
    m = max_abs(X, axis=0)
    if not _outside(m):
        return None
    return _power_of_two(m)


def column_variances(X) -> np.ndarray:
    """``np.var(X, axis=0)`` (the same numbers) without its temporary copy of ``X``.

    Parameters
    ----------
    X : ndarray of shape (n, p), float64

    Returns
    -------
    ndarray of shape (p,)
    """
    if X.dtype != np.float64 or not X.flags.c_contiguous or X.shape[0] == 0:
        return np.var(X, axis=0)
    return _column_variances(X)


def scaled_sum_of_squares(r, weights=None) -> tuple[float, float]:
    """``Σ wᵢ rᵢ²`` as ``(s, q)`` with the sum equal to ``s² · q``, neither over- nor underflowing.

    Parameters
    ----------
    r : ndarray of shape (n,)
    weights : ndarray of shape (n,), optional

    Returns
    -------
    s : float
        A power of two (1 when ``r`` is within range).
    q : float
        ``Σ wᵢ (rᵢ/s)²``.
    """
    s = scale_for(r)
    rs = r if s is None else r / s
    q = float(rs @ rs) if weights is None else float(weights @ (rs * rs))
    return (1.0 if s is None else s), q


def times(value, s, power=1):
    """``value · s**power`` for a rescaling factor ``s`` (``None``: unchanged) and an integer
    ``power ≥ 0``, overflowing to ``inf`` and underflowing to 0 silently (the caller warns,
    naming the data's scale)."""
    if s is None:
        return value
    out = np.asarray(value, dtype=np.float64)
    with np.errstate(over="ignore", under="ignore"):
        for _ in range(power):
            out = out * s
    return float(out) if out.ndim == 0 else out


def log_scale(s) -> float:
    """``log(s)`` (0 for ``None``), for log-likelihoods of rescaled data."""
    return 0.0 if s is None else math.log(s)


@dataclass(frozen=True)
class LinearRescaling:
    """A linear model fitted on ``X`` divided column by column by ``x_scale`` and on ``y`` (and
    the offset) divided by ``y_scale``, all powers of two.

    The coefficients of the original problem are those of the rescaled one times
    :meth:`coef_factors` (``y_scale / x_scale``, and ``y_scale`` for the intercept): exactly,
    since the rescaling only changes exponents.
    """

    x_scale: np.ndarray
    y_scale: float = 1.0

    def apply(self, X, y=None, offset=None):
        """``(X / x_scale, y / y_scale, offset / y_scale)`` (``None`` entries stay ``None``)."""
        X = X / self.x_scale
        t = self.y_scale
        if t != 1.0:
            y = None if y is None else y / t
            offset = None if offset is None else offset / t
        return X, y, offset

    def coef_factors(self, fit_intercept: bool) -> np.ndarray:
        """Factor of every coefficient, intercept first when fitted (R's order)."""
        f = self.y_scale / self.x_scale
        return np.concatenate([[self.y_scale], f]) if fit_intercept else f


def linear_rescaling(X, y=None) -> LinearRescaling | None:
    """The rescaling a linear model needs for ``X`` (and ``y``, when given), or ``None``.

    Parameters
    ----------
    X : ndarray of shape (n, p)
    y : ndarray of shape (n,), optional
        Pass it only when the model is equivariant in ``y`` (least squares, the Gaussian
        family with the identity link).

    Returns
    -------
    LinearRescaling or None
        ``None`` when every column of ``X`` and ``y`` lies within ``2**±SAFE_EXPONENT`` (the
        common case: one pass over the data).
    """
    d = column_scales(X)
    t = None if y is None else scale_for(y)
    if d is None and t is None:
        return None
    return LinearRescaling(np.ones(X.shape[1]) if d is None else d, 1.0 if t is None else t)
