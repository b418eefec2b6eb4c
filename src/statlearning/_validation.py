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

import inspect
import numbers
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable as _CallableABC
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

from .exceptions import InvalidParameterError

__all__ = [
    "CV",
    "DEPRECATED",
    "ArrayLike",
    "Boolean",
    "Callable",
    "InstanceOf",
    "Interval",
    "Options",
    "RandomState",
    "check_alphas",
    "check_sample_weight",
    "renamed_parameter",
    "validate_params",
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
    """
    if constraints is None:
        constraints = getattr(type(estimator), "_parameter_constraints", {})
    params = estimator.get_params(deep=False)
    name = type(estimator).__name__
    for param, accepted in constraints.items():
        if accepted == "no_validation" or param not in params:
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
    if new_value != default and new_value != old_value:
        raise ValueError(
            f"{name}: parameter {old!r} is the deprecated name of {new!r}; set only "
            f"{new}= (got {old}={old_value!r} and {new}={new_value!r})."
        )
    warnings.warn(
        f"{name}: parameter {old!r} was renamed to {new!r} and will be removed in a future "
        f"release; use {new}={old_value!r}.",
        FutureWarning,
        stacklevel=3,
    )
    return old_value
