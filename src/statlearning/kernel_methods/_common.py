"""What every kernel machine of this package shares: the ``kernel=`` parameter and its
constraints, reading the data (numeric check naming the kernel), the training Gram, and the Gram
between new points and the stored training points (with the precomputed-shape checks)."""

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
from ..kernels import Kernel, Precomputed, resolve_kernel

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
    """Whether ``kernel`` is a kernel object on sequences (strings), not on numbers."""
    return isinstance(estimator.kernel, Kernel) and not estimator.kernel.requires_numeric


def read_X(estimator, X, y="no_validation", *, reset=True, **kwargs):
    """The validated data: numbers (an error naming the kernel when they are strings), or the
    sequences of a kernel on sequences as an (n, 1) object column."""
    return validate_kernel_data(
        estimator, X, y, numeric=not on_sequences(estimator), reset=reset, dtype=np.float64,
        **kwargs,
    )  # fmt: skip


def fitted_kernel(estimator, X, sample_weight=None):
    """Resolve ``estimator.kernel`` on the training data (``gamma="scale"`` uses all of it)
    and set ``kernel_``."""
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
    """Resolve ``estimator.kernel`` on the training data; return the kernel and the Gram.

    Sets ``kernel_`` and, unless the kernel is precomputed, ``X_fit_``.
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
    """Validated ``X`` → ``K(X, training points)`` of shape (n, n_train).

    ``n_train`` (the number of training points, checked against a precomputed Gram) defaults
    to the rows of ``estimator.dual_coef_``.
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
    """``K(X, training points) @ coef`` (``coef`` has one row per training point), the Gram
    computed in row chunks of about 64 MB; ``kernel`` (default ``estimator.kernel_``) is the
    kernel evaluated."""
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
    """Whether the estimator's ``kernel`` says its ``X`` is a Gram matrix."""
    return estimator.kernel == "precomputed" or isinstance(estimator.kernel, Precomputed)


def pairwise_tags(estimator, tags):
    """Mark a precomputed-kernel estimator as pairwise (scikit-learn's checks feed it Grams)."""
    tags.input_tags.pairwise = is_precomputed(estimator)
    return tags
