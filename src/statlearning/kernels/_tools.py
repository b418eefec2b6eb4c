"""Resolving a kernel estimator's ``kernel=`` argument; Gram matrices by name; the Mercer check;
centring in feature space (seed 002 (12.12–12.18))."""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core.kernel_gram import is_psd
from .._core.scaling import scale_for
from .._validation import validate_data
from ..base import StatBase, TransformerMixin, fit_context
from ._base import Kernel, Rescaled, as_numeric
from ._builtin import (
    RBF,
    CallableKernel,
    Cosine,
    Laplacian,
    Linear,
    Polynomial,
    Precomputed,
    Sigmoid,
)

__all__ = ["KernelCenterer", "center_kernel", "is_mercer", "pairwise_kernel", "resolve_kernel"]

#: The kernel names an estimator's ``kernel=`` accepts (scikit-learn's strings).
KERNEL_NAMES = ("linear", "poly", "rbf", "sigmoid", "laplacian", "cosine", "precomputed")


def _variance(X, sample_weight):
    """Variance of all entries of ``X`` (each row weighted by ``sample_weight``)."""
    if not X.size:
        return 0.0
    if sample_weight is None:
        return float(X.var())
    w = np.asarray(sample_weight, dtype=np.float64)
    total = w.sum() * X.shape[1]
    if not total > 0:
        return 0.0
    mean = float(w @ X.sum(axis=1)) / total
    return float(w @ ((X - mean) ** 2).sum(axis=1)) / total


def _resolve_gamma(gamma, X, kernel, sample_weight=None):
    if isinstance(gamma, str):
        if X is None:
            raise ValueError(f"gamma={gamma!r} needs the training data X to be resolved.")
        X = np.asarray(X, dtype=np.float64)
        p = X.shape[1] if X.ndim == 2 else 1
        if gamma == "scale":
            var = _variance(X.reshape(X.shape[0], -1), sample_weight)
            return 1.0 / (p * var) if var > 0 else 1.0
        if gamma == "auto":
            return 1.0 / p
        raise ValueError(f"gamma must be 'scale', 'auto' or a positive number; got {gamma!r}.")
    if gamma is None:
        if X is None:
            raise ValueError("gamma=None (1 / n_features) needs the training data X.")
        X = np.asarray(X)
        return 1.0 / (X.shape[1] if X.ndim == 2 else 1)
    if kernel == "rbf" and np.ndim(gamma) == 1:
        return np.asarray(gamma, dtype=np.float64)
    if isinstance(gamma, bool) or not isinstance(gamma, numbers.Real):
        raise ValueError(f"gamma must be 'scale', 'auto' or a positive number; got {gamma!r}.")
    return float(gamma)


def _extreme_scale(gamma, X):
    """The power of two by which ``gamma="scale"`` rescales extreme ``X``, or None.

    ``γ = 1/(p·Var(X))`` makes the named kernels functions of ``x / sd(X)``, so they are the
    same on ``X / s``; near the ends of float64 ``Var(X)`` and ``‖x − y‖²`` are not
    representable on ``X`` itself (``Var = inf`` gave γ = 0, ``Var = 0`` gave γ = 1)."""
    if not (isinstance(gamma, str) and gamma == "scale") or X is None:
        return None
    X = np.asarray(X)
    if X.dtype.kind not in "fiu" or X.ndim != 2:
        return None
    return scale_for(X)


def resolve_kernel(kernel, *, gamma=None, degree=3, coef0=1.0, X=None, sample_weight=None):
    """The kernel object an estimator's ``kernel=`` argument stands for.

    Parameters
    ----------
    kernel : str, Kernel or callable
        One of scikit-learn's names ``"linear"``, ``"poly"``, ``"rbf"``, ``"sigmoid"``,
        ``"laplacian"``, ``"cosine"``, ``"precomputed"``; a kernel object (returned as is, the
        other arguments ignored); or a callable ``f(X, Y)`` returning the Gram matrix.
    gamma : {"scale", "auto"}, float, array-like or None, default=None
        For the named kernels with a γ: ``"scale"`` is ``1 / (n_features · X.var())``
        (scikit-learn's SVC default; 1 when the variance is 0), ``"auto"`` and None are
        ``1 / n_features``; a vector (one γ per feature) is accepted for ``"rbf"``. With
        ``"scale"`` on data beyond about ``1e±60`` the kernel is returned as
        :class:`Rescaled` (γ resolved on ``X`` divided by a power of two), so that neither γ
        nor the squared distances leave float64's range.
    degree : int, default=3
        Degree of ``"poly"``.
    coef0 : float, default=1.0
        Offset of ``"poly"`` and ``"sigmoid"``.
    X : array-like of shape (n_samples, n_features) or None, default=None
        The training data, needed by ``gamma="scale"``, ``"auto"`` and None.
    sample_weight : array-like of shape (n_samples,) or None, default=None
        Row weights of the variance of ``gamma="scale"`` (a weight is a repetition count).

    Returns
    -------
    Kernel
        The kernel object.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import resolve_kernel
    >>> resolve_kernel("rbf", gamma="auto", X=np.zeros((3, 4)))
    RBF(gamma=0.25)
    """
    if isinstance(kernel, Kernel):
        return kernel
    if isinstance(kernel, str):
        if kernel == "linear":
            return Linear()
        if kernel == "cosine":
            return Cosine()
        if kernel == "precomputed":
            return Precomputed()
        if kernel not in KERNEL_NAMES:
            raise ValueError(
                f"Unknown kernel {kernel!r}; expected one of {', '.join(map(repr, KERNEL_NAMES))}, "
                "a kernel object or a callable."
            )
        s = _extreme_scale(gamma, X)
        if s is not None:  # γ = 1/Var(X) and the distances would leave float64: rescale
            X = np.asarray(X, dtype=np.float64) / s
        g = _resolve_gamma(gamma, X, kernel, sample_weight)
        if kernel == "rbf":
            k = RBF(gamma=g)
        elif kernel == "laplacian":  # γ·‖x − y‖₁ = (γ' / s)·‖x/s − y/s‖₁ for γ = γ'/s²
            k = Laplacian(gamma=g if s is None else g / s)
        elif kernel == "poly":
            k = Polynomial(degree=degree, gamma=g, coef0=coef0)
        else:
            k = Sigmoid(gamma=g, coef0=coef0)
        return k if s is None else Rescaled(k, s)
    if callable(kernel):
        return CallableKernel(kernel)
    raise TypeError(
        f"kernel must be a name ({', '.join(KERNEL_NAMES)}), a kernel object or a callable; "
        f"got {type(kernel).__name__}."
    )


def pairwise_kernel(X, Y=None, kernel="rbf", **params):
    """The Gram matrix ``K[i, j] = k(X[i], Y[j])`` of a kernel given by name or object.

    Parameters
    ----------
    X : array-like of shape (n_samples_X, n_features)
        First set of points.
    Y : array-like of shape (n_samples_Y, n_features) or None, default=None
        Second set; None means ``X``.
    kernel : str, Kernel or callable, default="rbf"
        As in :func:`resolve_kernel`.
    **params : dict
        ``gamma``, ``degree``, ``coef0`` for a named kernel (``gamma`` defaults to
        ``1 / n_features`` as in scikit-learn's ``pairwise_kernels``).

    Returns
    -------
    ndarray of shape (n_samples_X, n_samples_Y)
        The Gram matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import pairwise_kernel
    >>> pairwise_kernel(np.array([[0.0], [1.0]]), kernel="rbf", gamma=1.0).round(4)
    array([[1.    , 0.3679],
           [0.3679, 1.    ]])
    """
    unknown = set(params) - {"gamma", "degree", "coef0"}
    if unknown:
        raise TypeError(
            f"pairwise_kernel got unexpected parameter(s) {sorted(unknown)}; the named kernels "
            "take gamma, degree and coef0."
        )
    k = resolve_kernel(kernel, X=X if isinstance(kernel, str) else None, **params)
    return k(X, Y)


def is_mercer(kernel, X, *, tol=1e-8):
    """Whether the sample Gram matrix of ``kernel`` on ``X`` is symmetric positive semi-definite.

    Parameters
    ----------
    kernel : str, Kernel or callable
        As in :func:`resolve_kernel` (named kernels with their default parameters); with
        ``"precomputed"``, ``X`` is the Gram matrix.
    X : array-like of shape (n_samples, n_features)
        The sample.
    tol : float, default=1e-8
        Relative tolerance: the Gram matrix passes when it is symmetric to ``tol · max|K|`` and
        its smallest eigenvalue is ≥ ``−tol · max|λ|``.

    Returns
    -------
    bool
        True when the sample Gram matrix is (numerically) positive semi-definite.

    Notes
    -----
    A sample cannot prove a kernel positive definite, only refute it: the sigmoid kernel with
    γ = r = 1 on x = 1, 2 has Gram eigenvalues −0.013248 and 1.977185 (seed 000 §2.14).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import Sigmoid, is_mercer
    >>> is_mercer(Sigmoid(gamma=1.0, coef0=1.0), np.array([[1.0], [2.0]]))
    False
    >>> is_mercer("rbf", np.array([[1.0], [2.0]]))
    True
    """
    K = gram_of(kernel, X)
    return is_psd(K, tol=tol)


def gram_of(kernel, X):
    """The training Gram of ``kernel`` (named kernels with default parameters) on ``X``."""
    k = resolve_kernel(kernel, X=X if isinstance(kernel, str) else None)
    return k(X)


def center_kernel(K, *, copy=True):
    """The training Gram matrix centred in feature space: ``K − 1K − K1 + 1K1``, ``1 = 11ᵀ/n``.

    Parameters
    ----------
    K : array-like of shape (n_samples, n_samples)
        Gram matrix of the training points.
    copy : bool, default=True
        False centres ``K`` in place when it is already a float64 array (no second ``n × n``
        matrix: what a large Gram needs).

    Returns
    -------
    ndarray of shape (n_samples, n_samples)
        The Gram matrix of the centred features φ(xᵢ) − φ̄ (seed 002 (12.12–12.16)).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import center_kernel
    >>> center_kernel(np.array([[2.0, 0.0], [0.0, 2.0]]))
    array([[ 1., -1.],
           [-1.,  1.]])
    """
    K = as_numeric(K, "K", "center_kernel")
    if K.shape[0] != K.shape[1]:
        raise ValueError(f"center_kernel needs a square Gram matrix; got shape {K.shape}.")
    rows = K.mean(axis=0)
    cols = K.mean(axis=1)
    total = rows.mean()
    Kc = K.copy() if copy else K
    Kc -= rows[None, :]
    Kc -= cols[:, None]
    Kc += total
    return Kc


class KernelCenterer(TransformerMixin, StatBase):
    """Centre Gram matrices in feature space, training and test (seed 002 (12.12–12.18)).

    ``fit(K)`` takes the training Gram; ``transform(K_test)`` takes ``K(test, train)`` of
    shape (n_test, n_train) and returns
    ``K_c(t, xⱼ) = K(t, xⱼ) − κ(t) − κ(xⱼ) + k̄``, with κ(xⱼ) the training column means,
    κ(t) the row means of ``K_test`` and k̄ the grand mean of the training Gram.

    Attributes
    ----------
    K_fit_rows_ : ndarray of shape (n_train,)
        Column means κ(xⱼ) of the training Gram.
    K_fit_all_ : float
        Grand mean k̄ of the training Gram.
    n_features_in_ : int
        Number of training points (columns of the Gram matrices).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import KernelCenterer
    >>> KernelCenterer().fit_transform(np.array([[2.0, 0.0], [0.0, 2.0]]))
    array([[ 1., -1.],
           [-1.,  1.]])
    """

    def __init__(self):
        pass

    @fit_context
    def fit(self, K, y=None):
        """Learn the column and grand means of the training Gram matrix.

        Parameters
        ----------
        K : array-like of shape (n_train, n_train)
            Training Gram matrix.
        y : None
            Ignored.

        Returns
        -------
        self : KernelCenterer
            The fitted centerer.
        """
        K = validate_data(self, K, dtype=np.float64)
        if K.shape[0] != K.shape[1]:
            raise ValueError(f"KernelCenterer.fit needs a square Gram matrix; got shape {K.shape}.")
        self.K_fit_rows_ = K.mean(axis=0)
        self.K_fit_all_ = float(self.K_fit_rows_.mean())
        return self

    def transform(self, K):
        """Centre ``K(points, train)`` with the training means.

        Parameters
        ----------
        K : array-like of shape (n_samples, n_train)
            Gram matrix between the points and the training points.

        Returns
        -------
        ndarray of shape (n_samples, n_train)
            The centred Gram matrix.
        """
        check_is_fitted(self)
        K = validate_data(self, K, dtype=np.float64, reset=False, copy=True)
        rows = K.mean(axis=1)
        K -= self.K_fit_rows_[None, :]
        K -= rows[:, None]
        K += self.K_fit_all_
        return K

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = True
        return tags
