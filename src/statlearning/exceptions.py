"""Warnings and exceptions raised by statlearning.

One vocabulary for the whole library: scikit-learn's :class:`ConvergenceWarning` and
:class:`NotFittedError` are re-exported so that users catch a single class whichever library
raised it.
"""

import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn.exceptions import ConvergenceWarning, DataConversionWarning, NotFittedError

__all__ = [
    "ConvergenceWarning",
    "DataConversionWarning",
    "InvalidParameterError",
    "ModelFileError",
    "NotFittedError",
    "NumericalWarning",
    "RankDeficientWarning",
    "VersionMismatchWarning",
    "external_stacklevel",
    "warn_aliased",
    "warn_data_scale",
    "warn_not_converged",
    "warn_unrescaled_scale",
]


class InvalidParameterError(ValueError, TypeError):
    """A hyper-parameter has a value or a type that the estimator does not accept.

    It subclasses both :class:`ValueError` and :class:`TypeError`, as scikit-learn's own
    parameter errors do, so either ``except`` clause catches it.
    """


class RankDeficientWarning(UserWarning):
    """The design matrix is rank deficient: some coefficients are not estimable (R's ``NA``)."""


class NumericalWarning(RuntimeWarning):
    """A computation is numerically unreliable (near-singular system, perfect fit, ...)."""


class ModelFileError(ValueError):
    """A model file cannot be loaded: unreadable, corrupted, or holding a type not trusted."""


class VersionMismatchWarning(UserWarning):
    """A model file was written by another version of statlearning than the one loading it."""


_PACKAGE_DIR = str(Path(__file__).resolve().parent)


def external_stacklevel() -> int:
    """Stack level of the first frame outside statlearning, for :func:`warnings.warn`.

    Called by the function that issues the warning, it makes the warning point at the user's
    line (the call of ``fit``), however deep inside the package the warning is raised.

    Returns
    -------
    int
        The ``stacklevel`` to pass to :func:`warnings.warn` in the caller.
    """
    frame, level = sys._getframe(2), 2
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame, level = frame.f_back, level + 1
    return level


def _owner(estimator) -> str:
    """The name messages use: the estimator's class name, or the text given (a function)."""
    return estimator if isinstance(estimator, str) else type(estimator).__name__


def warn_not_converged(
    estimator,
    algorithm,
    *,
    max_iter,
    unit="iterations",
    tol=None,
    advice="increase max_iter",
    stacklevel=None,
):
    """Issue the :class:`ConvergenceWarning` of an iterative fit that stopped at its cap.

    The message reads ``"<Estimator>: <algorithm> did not converge in max_iter=<n> <unit>
    (tol=<tol>); <advice>."``, naming the estimator by its class (so that a subclass names
    itself) and the parameter to change.

    Parameters
    ----------
    estimator : object or str
        The estimator (its ``type(estimator).__name__`` is used) or, for a function, its name.
    algorithm : str
        What did not converge (``"Lloyd's algorithm"``, ``"EM"``, ``"IRLS"``).
    max_iter : int
        The cap that was reached.
    unit : str, default="iterations"
        What ``max_iter`` counts (``"iterations"``, ``"epochs"``, ``"passes"``).
    tol : float, optional
        Shown when given.
    advice : str, default="increase max_iter"
        The remedy, naming the parameter to change (``"increase max_iter or raise tol"``).
    stacklevel : int, optional
        As :func:`warnings.warn`, counted from the caller of this function. Default: the
        first frame outside statlearning (:func:`external_stacklevel`).
    """
    shown_tol = "" if tol is None else f" (tol={tol})"
    warnings.warn(
        f"{_owner(estimator)}: {algorithm} did not converge in max_iter={max_iter} "
        f"{unit}{shown_tol}; {advice}.",
        ConvergenceWarning,
        stacklevel=external_stacklevel() if stacklevel is None else stacklevel + 1,
    )


def warn_aliased(estimator, names, *, consequence=None, stacklevel=None):
    """Issue the :class:`RankDeficientWarning` of a design with aliased columns (R's ``NA``).

    The message reads ``"<Estimator>: <k> coefficient(s) not defined because of singularities
    (aliased: a, b); <consequence>."``, R's wording followed by what the estimator does.

    Parameters
    ----------
    estimator : object or str
        The estimator (its ``type(estimator).__name__`` is used) or a function's name.
    names : sequence of str
        The aliased terms, in design order.
    consequence : str, optional
        Defaults to ``"their coef_ entries are NaN and predict ignores them"``.
    stacklevel : int, optional
        As :func:`warnings.warn`, counted from the caller of this function. Default: the
        first frame outside statlearning (:func:`external_stacklevel`).
    """
    names = [str(n) for n in names]
    if consequence is None:
        consequence = "their coef_ entries are NaN and predict ignores them"
    warnings.warn(
        f"{_owner(estimator)}: {len(names)} coefficient(s) not defined because of "
        f"singularities (aliased: {', '.join(names)}); {consequence}.",
        RankDeficientWarning,
        stacklevel=external_stacklevel() if stacklevel is None else stacklevel + 1,
    )


def warn_data_scale(estimator, quantities, magnitude, *, stacklevel=None):
    """Issue the :class:`NumericalWarning` of results that float64 cannot hold at the data's scale.

    Scale-equivariant methods compute on rescaled data, so their main results are exact at any
    scale; a few quantities (sums of squares, squared distances) grow as the square of the
    data and leave float64's range (about ``1e±308``) although the data do not. The message
    reads ``"<Estimator>: <quantities> cannot be represented in float64 at this data scale
    (largest |value| <m>): the data's scale is the problem ...; rescale the data ..."``.

    Parameters
    ----------
    estimator : object or str
        The estimator (its ``type(estimator).__name__`` is used) or a function's name.
    quantities : sequence of str
        The attributes affected (``["inertia_"]``, ``["rss_", "deviance_"]``).
    magnitude : float
        The largest absolute value of the data concerned.
    stacklevel : int, optional
        As :func:`warnings.warn`, counted from the caller of this function. Default: the
        first frame outside statlearning (:func:`external_stacklevel`).
    """
    warnings.warn(
        f"{_owner(estimator)}: {', '.join(quantities)} cannot be represented in float64 at "
        f"this data scale (largest |value| {magnitude:.3g}; its square is out of range): the "
        "data's scale is the problem, they are set to the nearest float64 (inf or 0) and the "
        "other results are exact; rescale the data (for example to unit variance) to get them.",
        NumericalWarning,
        stacklevel=external_stacklevel() if stacklevel is None else stacklevel + 1,
    )


#: Beyond ``2**±500`` (about ``1e±150``) squares of the data leave float64's range.
_SQUARE_LIMIT = 2.0**500


def warn_unrescaled_scale(estimator, data, name="X", *, stacklevel=None) -> bool:
    """Warn (:class:`NumericalWarning`) when the squares of ``data`` leave float64's range.

    For an estimator that computes with the squares of its input and does not rescale it.
    Scale-equivariant estimators rescale extreme data themselves and need no such warning;
    the others (variances in naive Bayes and discriminant analysis, impurities of regression
    trees, cross-validated penalty paths) get wrong answers when the squares overflow to
    ``inf`` or underflow to ``0``, so they say that the data's scale is the problem.

    Parameters
    ----------
    estimator : object or str
        The estimator (its ``type(estimator).__name__`` is used) or a function's name.
    data : ndarray
        The validated input (``NaN`` entries are ignored).
    name : str, default="X"
        How the message names the input (``"X"``, ``"y"``).
    stacklevel : int, optional
        As :func:`warnings.warn`, counted from the caller of this function. Default: the
        first frame outside statlearning (:func:`external_stacklevel`).

    Returns
    -------
    bool
        Whether the warning was issued.
    """
    a = np.asarray(data)
    if a.size == 0 or a.dtype.kind != "f":
        return False
    m = float(max(np.max(a), -np.min(a)))  # NumPy's max/min are several times nanmax's speed
    if np.isnan(m):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN input
            m = float(max(np.nanmax(a), -np.nanmin(a)))
    if not (np.isfinite(m) and m > 0 and (m > _SQUARE_LIMIT or m < 1.0 / _SQUARE_LIMIT)):
        return False
    warnings.warn(
        f"{_owner(estimator)}: the largest |{name}| is {m:.3g}; beyond about 1e±150 the squares "
        "this estimator computes (variances, sums of squares) overflow or underflow float64 "
        "and it does not rescale its input, so the results are unreliable: the data's scale "
        f"is the problem; rescale {name} (for example to unit variance).",
        NumericalWarning,
        stacklevel=external_stacklevel() if stacklevel is None else stacklevel + 1,
    )
    return True
