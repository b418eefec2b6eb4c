"""Warnings and exceptions raised by statlearning.

One vocabulary for the whole library: scikit-learn's :class:`ConvergenceWarning` and
:class:`NotFittedError` are re-exported so that users catch a single class whichever library
raised it.
"""

from sklearn.exceptions import ConvergenceWarning, DataConversionWarning, NotFittedError

__all__ = [
    "ConvergenceWarning",
    "DataConversionWarning",
    "InvalidParameterError",
    "NotFittedError",
    "NumericalWarning",
    "RankDeficientWarning",
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
