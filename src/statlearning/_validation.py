"""Declarative hyper-parameter constraints, checked once at the start of ``fit``.

Each estimator declares a class attribute ``_parameter_constraints``: a mapping from parameter name
to a list of accepted constraints. A value is valid when it satisfies at least one of them. The
special entry ``None`` accepts ``None``. For example::

    _parameter_constraints = {
        "solver": [Options({"qr", "svd", "normal", "gd"})],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "fit_intercept": [Boolean()],
        "random_state": [RandomState()],
    }

:func:`validate_params` raises :class:`~statlearning.exceptions.InvalidParameterError` (both a
``ValueError`` and a ``TypeError``) with a message naming the estimator, the parameter, the accepted
values and the value given.
"""

from __future__ import annotations

import functools
import inspect
import numbers
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable as _CallableABC
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np
from sklearn.utils import validation as _sk_validation

from .exceptions import InvalidParameterError, external_stacklevel

__all__ = [
    "CV",
    "DEPRECATED",
    "ArrayLike",
    "Boolean",
    "Callable",
    "InstanceOf",
    "Interval",
    "NJobs",
    "Options",
    "RandomState",
    "check_alphas",
    "check_constraint_keys",
    "check_finite_columns",
    "check_sample_weight",
    "non_finite_message",
    "renamed_parameter",
    "validate_data",
    "validate_kernel_data",
    "validate_params",
    "validate_sequences",
]


class _Constraint(ABC):
    """Base class: ``is_satisfied_by(value)`` and a human-readable ``__str__``."""

    @abstractmethod
    def is_satisfied_by(self, value) -> bool:
        """Whether ``value`` meets the constraint."""


def _is_bool(value) -> bool:
    return isinstance(value, bool | np.bool_)


@dataclass(frozen=True)
class Interval(_Constraint):
    """A number of type ``kind`` (``Integral`` or ``Real``) in an interval.

    Parameters
    ----------
    kind : {numbers.Integral, numbers.Real}
        ``Real`` accepts integers too; booleans are never accepted.
    left, right : float or None
        Bounds; ``None`` means unbounded on that side.
    closed : {"left", "right", "both", "neither"}
        Which bounds belong to the interval.
    """

    kind: type
    left: float | None
    right: float | None
    closed: str = "both"

    def __post_init__(self):
        if self.kind not in (Integral, Real):
            raise ValueError("Interval kind must be numbers.Integral or numbers.Real")
        if self.closed not in ("left", "right", "both", "neither"):
            raise ValueError("closed must be 'left', 'right', 'both' or 'neither'")

    def is_satisfied_by(self, value) -> bool:
        if not isinstance(value, self.kind) or _is_bool(value):
            return False
        if isinstance(value, Real) and value != value:  # NaN (np.isnan fails on big ints)
            return False
        if self.left is not None:
            if value < self.left or (value == self.left and self.closed in ("right", "neither")):
                return False
        if self.right is not None:
            if value > self.right or (value == self.right and self.closed in ("left", "neither")):
                return False
        return True

    def __str__(self) -> str:
        kind = "an int" if self.kind is Integral else "a float"
        lo = "-inf" if self.left is None else repr(self.left)
        hi = "inf" if self.right is None else repr(self.right)
        lb = "[" if self.closed in ("left", "both") and self.left is not None else "("
        rb = "]" if self.closed in ("right", "both") and self.right is not None else ")"
        return f"{kind} in the range {lb}{lo}, {hi}{rb}"


class Options(_Constraint):
    """One of a fixed set of values (typically strings)."""

    def __init__(self, options: Iterable):
        self.options = frozenset(options)

    def is_satisfied_by(self, value) -> bool:
        try:
            return value in self.options and not _is_bool(value)
        except TypeError:  # unhashable value
            return False

    def __str__(self) -> str:
        return "one of {" + ", ".join(repr(o) for o in sorted(self.options, key=repr)) + "}"


class Boolean(_Constraint):
    """``True`` or ``False`` (Python or NumPy booleans)."""

    def is_satisfied_by(self, value) -> bool:
        return _is_bool(value)

    def __str__(self) -> str:
        return "a bool"


class RandomState(_Constraint):
    """``None``, an int seed, or a :class:`numpy.random.RandomState` / ``Generator`` instance."""

    def is_satisfied_by(self, value) -> bool:
        return (
            value is None
            or (isinstance(value, Integral) and not _is_bool(value))
            or isinstance(value, np.random.RandomState | np.random.Generator)
        )

    def __str__(self) -> str:
        return "None, an int or a numpy random state"


class NJobs(_Constraint):
    """A non-zero int, as scikit-learn's ``n_jobs`` (``-1``: every core, ``-2``: all but one).

    Combine with ``None`` (the library's default thread count) in the constraint list.
    """

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, Integral) and not _is_bool(value) and value != 0

    def __str__(self) -> str:
        return "a non-zero int"


class Callable(_Constraint):
    """Any callable."""

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, _CallableABC)

    def __str__(self) -> str:
        return "a callable"


class ArrayLike(_Constraint):
    """A list, tuple or ndarray (contents are validated by the estimator itself)."""

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, list | tuple | np.ndarray) or hasattr(value, "__array__")

    def __str__(self) -> str:
        return "an array-like"


class InstanceOf(_Constraint):
    """An instance of the given type(s)."""

    def __init__(self, *types: type):
        self.types = types

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, self.types)

    def __str__(self) -> str:
        names = " or ".join(t.__name__ for t in self.types)
        return f"an instance of {names}"


class CV(_Constraint):
    """A cross-validation scheme: an int ``K >= 2`` (K folds), a scikit-learn splitter (an
    object with ``split``) or an iterable of ``(train, test)`` index pairs.

    Parameters
    ----------
    fold_ids : bool, default=False
        The estimator also takes an array giving the fold of every row (rpart's ``xval``);
        only the message changes, as arrays are iterables.
    """

    def __init__(self, fold_ids: bool = False):
        self.fold_ids = fold_ids

    def is_satisfied_by(self, value) -> bool:
        if isinstance(value, Integral) and not _is_bool(value):
            return value >= 2
        if _is_bool(value) or isinstance(value, str | bytes | Real):
            return False
        return hasattr(value, "split") or isinstance(value, Iterable)

    def __str__(self) -> str:
        ids = ", an array of fold ids" if self.fold_ids else ""
        return (
            f"an int >= 2 (the number of folds){ids}, a cross-validation splitter or an "
            "iterable of (train, test) splits"
        )


def _describe(constraints) -> str:
    parts = ["None" if c is None else str(c) for c in constraints]
    if len(parts) == 1:
        return parts[0]
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def _unknown_keys_message(owner: str, unknown, params) -> str:
    listed = ", ".join(map(repr, unknown))
    known = ", ".join(map(repr, params)) or "none"
    verb = "is not a parameter" if len(unknown) == 1 else "are not parameters"
    return (
        f"{owner}: _parameter_constraints names {listed}, which {verb} of __init__ (its "
        f"parameters: {known}); rename or remove the constraint."
    )


def check_constraint_keys(cls) -> None:
    """Check, when a class is defined, that its ``_parameter_constraints`` name parameters.

    Classes without an ``__init__`` of their own (abstract bases sharing constraints with their
    subclasses) and ``__init__`` with ``*args``/``**kwargs`` are not checked.

    Raises
    ------
    TypeError
        Naming the class, the unknown keys and the parameters of ``__init__``.
    """
    constraints = getattr(cls, "_parameter_constraints", None) or {}
    init = cls.__init__
    if not constraints or init is object.__init__:
        return
    signature = inspect.signature(init)
    kinds = {p.kind for p in signature.parameters.values()}
    if kinds & {inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD}:
        return
    params = [p for p in signature.parameters if p != "self"]
    unknown = [key for key in constraints if key not in params]
    if unknown:
        raise TypeError(_unknown_keys_message(cls.__qualname__, unknown, params))


@functools.cache
def _parameter_names(cls) -> tuple[str, ...]:
    """The keyword parameters of ``cls.__init__``: the names ``get_params(deep=False)`` reads,
    found once per class (``get_params`` inspects the signature on every call, about 13 µs,
    which every ``fit`` paid)."""
    init = cls.__init__
    if init is object.__init__:
        return ()
    return tuple(
        sorted(
            p.name
            for p in inspect.signature(init).parameters.values()
            if p.name != "self" and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
        )
    )


def validate_params(estimator, constraints: Mapping[str, list] | None = None) -> None:
    """Check every hyper-parameter of ``estimator`` against its declared constraints.

    Parameters
    ----------
    estimator : BaseEstimator
        Its ``get_params(deep=False)`` values are checked.
    constraints : mapping, optional
        Defaults to ``type(estimator)._parameter_constraints``. Parameters without an entry are
        not checked; an entry ``"no_validation"`` skips one explicitly.

    Raises
    ------
    InvalidParameterError
        Naming the estimator, the parameter, the accepted values and what was given.
    TypeError
        When a constraint names something that is not a parameter of the estimator (a
        misspelt or renamed key would otherwise leave its parameter unchecked).
    """
    if constraints is None:
        constraints = getattr(type(estimator), "_parameter_constraints", {})
    params = {name: getattr(estimator, name) for name in _parameter_names(type(estimator))}
    name = type(estimator).__name__
    unknown = [key for key in constraints if key not in params]
    if unknown:
        raise TypeError(_unknown_keys_message(name, unknown, list(params)))
    for param, accepted in constraints.items():
        if accepted == "no_validation":
            continue
        value = params[param]
        if any(c is None and value is None for c in accepted):
            continue
        real = [c for c in accepted if c is not None]
        if any(c.is_satisfied_by(value) for c in real):
            continue
        raise InvalidParameterError(
            f"{name}: parameter {param!r} must be {_describe(accepted)}; got {value!r}"
            f" (of type {type(value).__name__})."
        )


def check_sample_weight(sample_weight, n_samples: int, *, estimator_name: str = "") -> np.ndarray:
    """Validate ``sample_weight``: a 1-D array of ``n_samples`` finite, non-negative numbers.

    ``None`` gives unit weights. At least one weight must be positive.

    Returns
    -------
    ndarray of shape (n_samples,), float64
        A new array (the caller's array is never modified).
    """
    prefix = f"{estimator_name}: " if estimator_name else ""
    if sample_weight is None:
        return np.ones(n_samples, dtype=np.float64)
    if isinstance(sample_weight, numbers.Number):
        sample_weight = np.full(n_samples, float(sample_weight))  # checked below
    try:
        w = np.array(sample_weight, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{prefix}sample_weight must be numeric: {exc}") from None
    if w.ndim != 1:
        raise ValueError(
            f"{prefix}sample_weight must be 1-D with shape ({n_samples},); got shape {w.shape}."
        )
    if w.shape[0] != n_samples:
        raise ValueError(
            f"{prefix}sample_weight has {w.shape[0]} entries but X has {n_samples} samples."
        )
    if not np.all(np.isfinite(w)):
        raise ValueError(f"{prefix}sample_weight contains NaN or infinite values.")
    if np.any(w < 0):
        raise ValueError(f"{prefix}sample_weight must be non-negative; got negative values.")
    if not np.any(w > 0):
        raise ValueError(f"{prefix}sample_weight is zero for every sample.")
    return w


def check_alphas(alphas, owner: str, *, allow_zero: bool = True) -> np.ndarray:
    """Validate a grid of penalties: a non-empty 1-D array of finite numbers ``>= 0`` (``> 0``
    when ``allow_zero=False``).

    Parameters
    ----------
    alphas : array-like
    owner : str
        Estimator or function named in the error messages.
    allow_zero : bool, default=True

    Returns
    -------
    ndarray of shape (n_alphas,), float64, in the given order.
    """
    try:
        a = np.asarray(alphas, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        raise ValueError(f"{owner}: alphas must be numbers; got {alphas!r}") from None
    if a.size == 0:
        raise ValueError(f"{owner}: alphas is empty.")
    bad = (a <= 0) if not allow_zero else (a < 0)
    if not np.all(np.isfinite(a)) or np.any(bad):
        sign = "non-negative" if allow_zero else "positive (> 0)"
        raise ValueError(f"{owner}: alphas must be finite and {sign}; got {a}.")
    return a


#: Default of a parameter kept only for its deprecated spelling.
DEPRECATED = "deprecated"


def _same_value(a, b) -> bool:
    """``a == b`` for parameter values, arrays included (element-wise, then all)."""
    try:
        return bool(np.array_equal(a, b)) if _is_array(a) or _is_array(b) else bool(a == b)
    except (TypeError, ValueError):
        return a is b


def _is_array(value) -> bool:
    return isinstance(value, np.ndarray | list | tuple)


def renamed_parameter(estimator, old: str, new: str):
    """The value of the renamed parameter ``new``, honouring its deprecated name ``old``.

    The estimator keeps both in ``__init__``: ``new`` with the real default and ``old`` with
    the default :data:`DEPRECATED`. Setting ``old`` still works, with a ``FutureWarning``
    (scikit-learn's deprecation style); setting both to different values is an error.

    Returns
    -------
    The value to use.
    """
    old_value = getattr(estimator, old)
    new_value = getattr(estimator, new)
    if isinstance(old_value, str) and old_value == DEPRECATED:
        return new_value
    name = type(estimator).__name__
    default = inspect.signature(type(estimator).__init__).parameters[new].default
    if not _same_value(new_value, default) and not _same_value(new_value, old_value):
        raise ValueError(
            f"{name}: parameter {old!r} is the deprecated name of {new!r}; set only "
            f"{new}= (got {old}={old_value!r} and {new}={new_value!r})."
        )
    warnings.warn(
        f"{name}: parameter {old!r} was renamed to {new!r} and will be removed in a future "
        f"release; use {new}={old_value!r}.",
        FutureWarning,
        stacklevel=external_stacklevel(),
    )
    return old_value


# ----------------------------------------------------------------------------------------------
# Data validation: scikit-learn's ``validate_data`` with messages that name the column.


def validate_data(estimator, X="no_validation", y="no_validation", **check_params):
    """scikit-learn's ``validate_data``, with errors that name the column.

    Every estimator validates its data through this function. It adds, over scikit-learn's:

    * a ``y`` of numeric strings (``"1.5"``) is converted to numbers when ``y_numeric=True``
      (a regressor); text that is not a number is an error naming ``y`` and the value;
    * a non-numeric column of ``X`` (text, a category of text) and NaN or infinite values are
      reported in one sentence naming the estimator and the column: its name for a DataFrame,
      ``column j`` (counted from 0) for an array, with the number of rows and the first one.

    Parameters
    ----------
    estimator : estimator
        Named in the messages; receives ``n_features_in_`` and ``feature_names_in_``.
    X, y : array-like, sparse matrix or DataFrame, or ``"no_validation"``
        As scikit-learn's.
    **check_params
        Passed on (``dtype``, ``reset``, ``ensure_all_finite``, ``y_numeric``, ...).

    Returns
    -------
    The validated ``X``, ``y`` or ``(X, y)``, as scikit-learn's.

    Raises
    ------
    ValueError
        Naming the column of ``X`` (or ``y``) whose values are not numbers, NaN or infinite.
    """
    if check_params.get("y_numeric") and not _is_skipped(y):
        y = _numeric_target(estimator, y)
    try:
        return _sk_validation.validate_data(estimator, X, y, **check_params)
    except TypeError as exc:
        if hasattr(X, "tocsr") and "sparse" in str(exc).lower():
            name = _name(estimator)
            raise TypeError(
                f"{name}: X is a sparse matrix, which {name} does not accept; pass a dense "
                "array (X.toarray())."
            ) from exc
        raise
    except ValueError as exc:
        message = _explain_bad_data(estimator, X, y, check_params)
        if message is None:
            raise
        raise ValueError(message) from exc


def validate_sequences(estimator, X, y="no_validation", **check_params):
    """:func:`validate_data` for the input of a kernel on sequences (strings).

    ``X`` is a sequence of objects (a list, 1-D array or Series of strings) or one column of
    them (an ``(n, 1)`` array or DataFrame); it is returned as an ``(n, 1)`` object array
    (``n_features_in_ = 1``), unconverted: the kernel checks its values.

    Parameters
    ----------
    estimator : estimator
        Receives ``n_features_in_`` (and ``feature_names_in_`` for a DataFrame).
    X : array-like of shape (n_samples,) or (n_samples, 1)
        The sequences.
    y : array-like or ``"no_validation"``
        As :func:`validate_data`.
    **check_params
        Passed on (``reset``, ``y_numeric``, ...); ``dtype`` is always None.

    Returns
    -------
    The validated ``X`` or ``(X, y)``.
    """
    if not hasattr(X, "iloc") or getattr(X, "ndim", 2) == 1:
        X = np.asarray(X, dtype=object)
        if X.ndim == 1:
            X = X.reshape(-1, 1)
    if X.ndim != 2 or X.shape[1] != 1:
        raise ValueError(
            f"{_name(estimator)}: a kernel on sequences needs X as a sequence of strings or one "
            f"column of them; got shape {X.shape}."
        )
    check_params["dtype"] = None
    return validate_data(estimator, X, y, **check_params)


def validate_kernel_data(estimator, X, y="no_validation", *, numeric=True, **check_params):
    """The data of a kernel machine: numbers for a numeric kernel, else sequences.

    With ``numeric=False`` (the kernel works on sequences) this is :func:`validate_sequences`;
    otherwise :func:`validate_data`, whose error for text names the estimator's ``kernel`` and
    points to the kernels on sequences.

    Parameters
    ----------
    estimator : estimator
        With a ``kernel`` parameter (named in the message).
    X : array-like
        The data.
    y : array-like or ``"no_validation"``
        As :func:`validate_data`.
    numeric : bool, default=True
        Whether the kernel needs numbers (``Kernel.requires_numeric``).
    **check_params
        Passed on.

    Returns
    -------
    The validated ``X`` or ``(X, y)``.
    """
    if not numeric:
        check_params.pop("dtype", None)
        check_params.pop("order", None)
        return validate_sequences(estimator, X, y, **check_params)
    try:
        return validate_data(estimator, X, y, **check_params)
    except ValueError as exc:
        text = str(exc)
        if "could not convert string" in text or "dtype='numeric'" in text or "not numeric" in text:
            raise ValueError(
                f"{_name(estimator)}: X must be numeric for the kernel {estimator.kernel!r}; "
                f"it holds strings ({exc}). A kernel on sequences "
                "(statlearning.kernels.Spectrum) takes them directly."
            ) from None
        raise


def _is_skipped(value) -> bool:
    return value is None or (isinstance(value, str) and value == "no_validation")


def _name(estimator) -> str:
    return type(estimator).__name__


def _numeric_target(estimator, y):
    """``y`` as float64 when it holds numeric strings; an error naming ``y`` for other text."""
    kind = getattr(getattr(y, "dtype", None), "kind", None)
    if kind is None:
        try:
            kind = np.asarray(y).dtype.kind
        except (TypeError, ValueError):
            return y
    if kind not in "USO":
        return y
    values = np.asarray(y, dtype=object)
    flat = values.ravel()
    out = np.empty(flat.shape, dtype=np.float64)
    for i, value in enumerate(flat):
        try:
            out[i] = np.nan if value is None else float(value)
        except (TypeError, ValueError):
            raise ValueError(
                f"{_name(estimator)}: y must be numeric for a regression; row {i} holds "
                f"{value!r}, which is not a number."
            ) from None
    return out.reshape(values.shape)


def _rows_phrase(rows: np.ndarray) -> str:
    return _count_phrase(rows.size, int(rows[0]))


def _count_phrase(count: int, first: int) -> str:
    return f"{count} row{'s' if count != 1 else ''} (first: row {first})"


def non_finite_message(owner: str, label: str, kind: str, count: int, first: int) -> str:
    """The sentence :func:`validate_data` raises for NaN or infinite values.

    Parameters
    ----------
    owner : str
        The estimator's name.
    label : str
        ``"column 'a'"``, ``"column 3"`` or ``"y"``.
    kind : {"NaN", "infinity"}
    count, first : int
        How many rows hold such values, and the first of them (counted from 0).

    Returns
    -------
    str
    """
    phrase = _count_phrase(count, first)
    if label == "y":
        return f"{owner}: y contains {kind} in {phrase}; drop those rows first."
    if kind == "NaN":
        return (
            f"{owner}: {label} contains NaN in {phrase}; {owner} does not accept missing "
            "values, so drop or impute them first."
        )
    return f"{owner}: {label} contains infinity in {phrase}; replace or drop them first."


def _finiteness(check_params) -> str:
    """What the check demands: ``"finite"``, ``"no-nan"`` (infinite allowed) or ``"none"``."""
    value = check_params.get("ensure_all_finite", check_params.get("force_all_finite", True))
    if value is False:
        return "none"
    if value == "allow-nan":
        return "no-inf"
    return "finite"


def _explain_bad_data(estimator, X, y, check_params) -> str | None:
    """One sentence naming what is wrong in ``X`` or ``y``, or ``None`` when nothing is found."""
    try:
        if not _is_skipped(X):
            message = _explain_columns(estimator, X, check_params)
            if message is not None:
                return message
        if not _is_skipped(y):
            return _explain_target(estimator, y)
    except Exception:  # the diagnosis must never hide the original error
        return None
    return None


def _columns(X):
    """``(label, values)`` for each column of a 2-D ``X``: DataFrame names or ``column j``."""
    if hasattr(X, "columns") and hasattr(X, "iloc"):
        for j, name in enumerate(X.columns):
            yield f"column {name!r}", X.iloc[:, j]
        return
    if hasattr(X, "tocsc"):  # sparse: only the stored values can be bad
        csc = X.tocsc()
        for j in range(csc.shape[1]):
            yield (
                f"column {j}",
                csc.data[csc.indptr[j] : csc.indptr[j + 1]],
                (csc.indices[csc.indptr[j] : csc.indptr[j + 1]]),
            )
        return
    array = np.asarray(X) if not isinstance(X, np.ndarray) else X
    if array.ndim != 2:
        return
    for j in range(array.shape[1]):
        yield f"column {j}", array[:, j]


def _explain_columns(estimator, X, check_params) -> str | None:
    dtype = check_params.get("dtype", "numeric")
    finiteness = _finiteness(check_params)
    name = _name(estimator)
    for entry in _columns(X):
        label, values = entry[0], entry[1]
        rows_of = entry[2] if len(entry) == 3 else None
        column_dtype = getattr(values, "dtype", None)
        if getattr(column_dtype, "name", "") == "category":
            categories = list(values.cat.categories)
            if dtype is not None and not _all_numbers(np.asarray(categories, dtype=object)):
                shown = ", ".join(map(repr, categories[:3])) + (
                    ", ..." if len(categories) > 3 else ""
                )
                return (
                    f"{name}: {label} is categorical (categories {shown}); "
                    "encode it as numbers first (one-hot or codes)."
                )
            values = np.asarray(values, dtype=np.float64)
        values = np.asarray(values)
        if values.dtype.kind in "USO" and dtype is not None:
            bad = _first_non_number(values)
            if bad is not None:
                row, value = bad
                if isinstance(value, np.generic):
                    value = value.item()  # 'a', not np.str_('a')
                return (
                    f"{name}: {label} is not numeric (row {row} holds {value!r}); "
                    "encode text columns as numbers first (one-hot or codes)."
                )
            values = np.array([np.nan if v is None else float(v) for v in values])
        if values.dtype.kind not in "fc" or finiteness == "none":
            continue
        positions = rows_of if rows_of is not None else np.arange(values.size)
        nan_rows = positions[np.isnan(values)]
        if nan_rows.size and finiteness == "finite":
            return non_finite_message(name, label, "NaN", nan_rows.size, int(nan_rows[0]))
        inf_rows = positions[np.isinf(values)]
        if inf_rows.size and finiteness in ("finite", "no-inf"):
            return non_finite_message(name, label, "infinity", inf_rows.size, int(inf_rows[0]))
    return None


def _all_numbers(values: np.ndarray) -> bool:
    return _first_non_number(values) is None


def _first_non_number(values: np.ndarray):
    """``(row, value)`` of the first entry that is not a number (``None`` counts as missing)."""
    for i, value in enumerate(values.ravel()):
        if value is None or isinstance(value, numbers.Number):
            continue
        try:
            float(value)
        except (TypeError, ValueError):
            return i, value
    return None


def _explain_target(estimator, y) -> str | None:
    values = np.asarray(y)
    if values.dtype.kind == "O":
        try:
            values = values.astype(np.float64)
        except (TypeError, ValueError):
            return None
    if values.dtype.kind not in "fc":
        return None
    name = _name(estimator)
    flat = values.reshape(values.shape[0], -1) if values.ndim > 1 else values[:, None]
    for kind, mask in (("NaN", np.isnan(flat)), ("infinity", np.isinf(flat))):
        rows = np.flatnonzero(mask.any(axis=1))
        if rows.size:
            return non_finite_message(name, "y", kind, rows.size, int(rows[0]))
    return None


def check_finite_columns(X: np.ndarray, owner: str, *, names=None, advice: str = "") -> None:
    """Raise the named-column ``ValueError`` when a validated float ``X`` holds NaN or infinity.

    For estimators that validate with ``ensure_all_finite=False`` (to treat some columns
    themselves) and refuse non-finite values afterwards.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    owner : str
        The estimator's name, which starts the message.
    names : array-like of str, optional
        Column names (``feature_names_in_``); ``column j`` otherwise.
    advice : str, default=""
        Replaces the default remedy at the end of the message.
    """
    if X.dtype.kind != "f" or np.all(np.isfinite(X)):
        return
    bad = ~np.isfinite(X)
    j = int(np.flatnonzero(bad.any(axis=0))[0])
    label = f"column {names[j]!r}" if names is not None else f"column {j}"
    rows = np.flatnonzero(bad[:, j])
    what = "NaN" if np.isnan(X[rows[0], j]) else "infinity"
    remedy = advice or "drop or impute those rows first"
    raise ValueError(f"{owner}: {label} contains {what} in {_rows_phrase(rows)}; {remedy}.")
