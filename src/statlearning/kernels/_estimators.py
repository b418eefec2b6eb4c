"""What every kernel estimator shares, wherever it lives (kernel machines, kernel PCA, kernel
k-means, kernel Fisher discriminant): the ``kernel=`` parameter and its constraints, reading the
data (numeric check naming the kernel), the training Gram (with the precomputed-Gram checks),
and the Gram between new points and the stored training points.

An estimator using these functions has the parameters ``kernel``, ``gamma``, ``degree`` and
``coef0`` (:data:`KERNEL_CONSTRAINTS`); fitting sets ``kernel_`` and ``X_fit_``."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core.kernel_gram import is_psd
from .._validation import (
    ArrayLike,
    Callable,
    InstanceOf,
    Interval,
    Options,
    validate_kernel_data,
)
from ..exceptions import NumericalWarning, external_stacklevel, warn_unrescaled_scale
from ._base import Kernel
from ._builtin import Precomputed
from ._tools import resolve_kernel

__all__ = [
    "KERNEL_CONSTRAINTS",
    "fitted_kernel",
    "gram_times",
    "gram_to_train",
    "is_precomputed",
    "on_sequences",
    "pairwise_tags",
    "read_X",
    "training_gram",
]

#: Parameter constraints of ``kernel``, ``gamma``, ``degree`` and ``coef0`` (to unpack into an
#: estimator's ``_parameter_constraints``).
KERNEL_CONSTRAINTS = {
    "kernel": [
        Options({"linear", "poly", "rbf", "sigmoid", "laplacian", "cosine", "precomputed"}),
        InstanceOf(Kernel),
        Callable(),
    ],
    "gamma": [
        None,
        Options({"scale", "auto"}),
        Interval(Real, 0, None, closed="neither"),
        ArrayLike(),
    ],
    "degree": [Interval(Integral, 1, None, closed="left")],
    "coef0": [Interval(Real, None, None)],
}


def on_sequences(estimator) -> bool:
    """Whether the estimator's ``kernel`` is a kernel object on sequences (strings).

    Parameters
    ----------
    estimator : object
        An estimator with a ``kernel`` parameter.

    Returns
    -------
    bool
        True for a kernel on sequences, False for a kernel on numbers.
    """
    return isinstance(estimator.kernel, Kernel) and not estimator.kernel.requires_numeric


def read_X(estimator, X, y="no_validation", *, reset=True, **kwargs):
    """Validate the data of a kernel estimator.

    Numbers (an error naming the kernel when they are strings), or, for a kernel on
    sequences, the sequences as an (n, 1) object column.

    Parameters
    ----------
    estimator : object
        The estimator (its ``kernel`` decides what the data may be).
    X : array-like
        The data.
    y : array-like or "no_validation", default="no_validation"
        Targets validated with ``X``.
    reset : bool, default=True
        Whether to set ``n_features_in_`` (fit) or check it (predict).
    **kwargs : dict
        Passed to the validation (``ensure_min_samples``, ...).

    Returns
    -------
    ndarray or tuple
        ``X``, or ``(X, y)`` when ``y`` is validated.
    """
    return validate_kernel_data(
        estimator, X, y, numeric=not on_sequences(estimator), reset=reset, dtype=np.float64,
        **kwargs,
    )  # fmt: skip


def fitted_kernel(estimator, X, sample_weight=None):
    """Resolve the estimator's ``kernel`` on the training data and set ``kernel_``.

    Parameters
    ----------
    estimator : object
        An estimator with the parameters ``kernel``, ``gamma``, ``degree`` and ``coef0``.
    X : ndarray
        The training data (``gamma="scale"`` uses all of it).
    sample_weight : ndarray of shape (n_samples,) or None, default=None
        Row weights of ``gamma="scale"``'s variance.

    Returns
    -------
    Kernel
        The kernel object, also stored as ``estimator.kernel_``.
    """
    estimator.kernel_ = resolve_kernel(
        estimator.kernel,
        gamma=estimator.gamma,
        degree=estimator.degree,
        coef0=estimator.coef0,
        X=X,
        sample_weight=sample_weight,
    )
    return estimator.kernel_


def training_gram(estimator, X, sample_weight=None):
    """Resolve the estimator's ``kernel`` on the training data and return the training Gram.

    Sets ``kernel_`` and ``X_fit_`` (None for a precomputed kernel). A precomputed Gram must
    be square; one that is clearly not positive semi-definite raises a ``NumericalWarning``
    (an ``O(n²)`` check above 500 rows, see ``_core.kernel_gram.is_psd``). A Gram with
    non-finite entries is an error unless the data's scale was already warned about.

    Parameters
    ----------
    estimator : object
        An estimator with the parameters ``kernel``, ``gamma``, ``degree`` and ``coef0``.
    X : ndarray
        The validated training data, or the training Gram for ``kernel="precomputed"``.
    sample_weight : ndarray of shape (n_samples,) or None, default=None
        Row weights of ``gamma="scale"``'s variance.

    Returns
    -------
    ndarray of shape (n_samples, n_samples)
        The training Gram.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernel_methods import KernelRidge
    >>> from statlearning.kernels import training_gram
    >>> model = KernelRidge(kernel="rbf", gamma=1.0)
    >>> training_gram(model, np.array([[0.0], [1.0]])).round(4)
    array([[1.    , 0.3679],
           [0.3679, 1.    ]])
    >>> model.kernel_.gamma
    1.0
    """
    name = type(estimator).__name__
    kernel = fitted_kernel(estimator, X, sample_weight)
    if isinstance(kernel, Precomputed):
        if X.shape[0] != X.shape[1]:
            raise ValueError(
                f"{name}: with kernel='precomputed', X must be the square training Gram "
                f"matrix; got shape {X.shape}."
            )
        # O(n²): symmetry, diagonal and a Rayleigh–Ritz bound (exact up to 500 rows)
        if not is_psd(X, tol=1e-8, exact=False):
            warnings.warn(
                f"{name}: the precomputed kernel matrix is not symmetric positive "
                "semi-definite (not a Mercer kernel on this sample); the fit may be "
                "meaningless.",
                NumericalWarning,
                stacklevel=external_stacklevel(),
            )
        estimator.X_fit_ = None
        return np.array(X, dtype=np.float64)
    estimator.X_fit_ = X
    K = kernel(X)
    # one pass, no n × n mask (an inf or NaN entry propagates to the sum)
    if not np.isfinite(K.sum()) and not warn_unrescaled_scale(estimator, X, "X"):
        raise ValueError(
            f"{name}: the Gram matrix of the kernel {kernel!r} on X has non-finite entries "
            "(NaN or infinite: the kernel's values leave float64's range); use a kernel or "
            "parameters whose values stay finite, or rescale X."
        )
    return K


def gram_to_train(estimator, X, n_train=None):
    """The Gram between new points and the training points of a fitted kernel estimator.

    Parameters
    ----------
    estimator : object
        A fitted estimator (``kernel_``, ``X_fit_``).
    X : array-like
        New points, or their precomputed Gram against the training points.
    n_train : int or None, default=None
        The number of training points, checked against a precomputed Gram; None: the rows
        of ``estimator.dual_coef_``.

    Returns
    -------
    ndarray of shape (n_samples, n_train)
        ``K(X, training points)``.
    """
    check_is_fitted(estimator, "kernel_")
    X = read_X(estimator, X, reset=False)
    if n_train is None:
        n_train = estimator.dual_coef_.shape[0]
    if isinstance(estimator.kernel_, Precomputed):
        if X.shape[1] != n_train:
            raise ValueError(
                f"{type(estimator).__name__}: with kernel='precomputed', X must be the Gram "
                f"matrix against the {n_train} training points, of shape (n_samples, "
                f"{n_train}); got shape {X.shape}."
            )
        return X
    return estimator.kernel_(X, estimator.X_fit_)


def gram_times(estimator, X, coef, *, kernel=None):
    """``K(X, training points) @ coef`` for a fitted kernel estimator, in row chunks.

    The Gram is computed in row chunks of about 64 MB, never whole.

    Parameters
    ----------
    estimator : object
        A fitted estimator (``kernel_``, ``X_fit_``).
    X : array-like
        New points, or their precomputed Gram against the training points.
    coef : ndarray of shape (n_train, ...)
        One row per training point.
    kernel : Kernel or None, default=None
        The kernel evaluated (None: ``estimator.kernel_``).

    Returns
    -------
    ndarray of shape (n_samples, ...)
        The product.
    """
    check_is_fitted(estimator, "kernel_")
    if isinstance(estimator.kernel_, Precomputed):
        return gram_to_train(estimator, X, coef.shape[0]) @ coef
    kernel = estimator.kernel_ if kernel is None else kernel
    X = read_X(estimator, X, reset=False)
    n_train = estimator.X_fit_.shape[0]
    step = max((1 << 23) // max(n_train, 1), 1)
    out = np.empty((X.shape[0], *coef.shape[1:]))
    for s in range(0, X.shape[0], step):
        out[s : s + step] = kernel(X[s : s + step], estimator.X_fit_) @ coef
    return out


def is_precomputed(estimator) -> bool:
    """Whether the estimator's ``kernel`` says its ``X`` is a Gram matrix.

    Parameters
    ----------
    estimator : object
        An estimator with a ``kernel`` parameter.

    Returns
    -------
    bool
        True for ``kernel="precomputed"`` or a :class:`Precomputed` object.
    """
    return estimator.kernel == "precomputed" or isinstance(estimator.kernel, Precomputed)


def pairwise_tags(estimator, tags):
    """Mark a precomputed-kernel estimator as pairwise (scikit-learn's checks feed it Grams).

    Parameters
    ----------
    estimator : object
        An estimator with a ``kernel`` parameter.
    tags : sklearn.utils.Tags
        The tags from ``super().__sklearn_tags__()``.

    Returns
    -------
    sklearn.utils.Tags
        ``tags``, with ``input_tags.pairwise`` set.
    """
    tags.input_tags.pairwise = is_precomputed(estimator)
    return tags
