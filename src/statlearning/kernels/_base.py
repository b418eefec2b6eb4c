"""The kernel base class and the algebra under which kernels are closed (seed 002 App. B).

A kernel object is a scikit-learn parameter holder (``get_params``/``set_params``/``clone``, so
it can be an estimator's parameter and be searched over with ``GridSearchCV``), callable as
``kernel(X, Y=None)`` → Gram matrix, with ``kernel.diag(X)`` and ``kernel.compiled_spec()``.

Sums, products, positive multiples, normalisation and the exponential of positive-definite
kernels are positive definite; ``k1 + k2``, ``k1 * k2``, ``c * k`` and ``k + c`` build them.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator

__all__ = [
    "Constant",
    "Exponential",
    "Kernel",
    "Normalized",
    "Product",
    "Rescaled",
    "Scaled",
    "Sum",
]


def as_numeric(X, name: str, owner: str) -> np.ndarray:
    """``X`` as a finite 2-D float array, or a clear error naming the kernel and argument."""
    try:
        arr = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(
            f"The {owner} kernel needs numeric {name}; it could not be read as numbers ({exc}). "
            "String inputs need a string kernel such as Spectrum."
        ) from None
    if arr.ndim != 2:
        raise ValueError(
            f"The {owner} kernel needs a 2-D {name} (n_samples, n_features); got {arr.ndim} "
            "dimension(s). Reshape a single feature with X.reshape(-1, 1)."
        )
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} passed to the {owner} kernel contains NaN or infinity.")
    return arr


class Kernel(BaseEstimator):
    """Base class of the kernels: a callable Gram-matrix maker with an algebra.

    Subclasses implement ``_gram(X, Y)`` and ``_diag(X)`` on validated input and may
    override ``_spec()``.

    See Also
    --------
    statlearning.kernels.pairwise_kernel : Gram matrix from a kernel name or object.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import RBF, Linear
    >>> k = 2.0 * RBF(gamma=0.5) + Linear()
    >>> k(np.array([[0.0], [1.0]])).round(4)
    array([[2.    , 1.2131],
           [1.2131, 3.    ]])
    """

    #: Whether this kernel itself reads ``X`` as a numeric matrix (False for string kernels and
    #: for composites, whose parts check their own input).
    _numeric = True

    @property
    def requires_numeric(self):
        """Whether the kernel needs ``X`` as a numeric matrix.

        False for kernels on sequences (:class:`~statlearning.kernels.Spectrum`) and for
        combinations of them (with :class:`Constant`): estimators then hand ``X`` — a sequence
        of strings, or one column of them — to the kernel without converting it to numbers.

        Returns
        -------
        bool
            True when some part of the kernel reads numbers.
        """
        return self._requires_numeric()

    def _requires_numeric(self):
        return self._numeric

    def __call__(self, X, Y=None):
        """Gram matrix ``K[i, j] = k(X[i], Y[j])``; ``Y=None`` means ``Y = X``."""
        X, Y = self._check(X, Y)
        return self._gram(X, Y)

    def _check(self, X, Y):
        if not self._numeric:
            return X, Y
        owner = type(self).__name__
        X = as_numeric(X, "X", owner)
        if Y is not None:
            Y = as_numeric(Y, "Y", owner)
            if Y.shape[1] != X.shape[1]:
                raise ValueError(
                    f"The {owner} kernel got X with {X.shape[1]} features and Y with {Y.shape[1]}."
                )
        return X, Y

    def diag(self, X):
        """Diagonal of the Gram matrix ``k(X[i], X[i])``, without forming the matrix.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The points (a sequence of strings for a string kernel).

        Returns
        -------
        ndarray of shape (n_samples,)
            The kernel of each point with itself.
        """
        X, _ = self._check(X, None)
        return self._diag(X)

    def compiled_spec(self):
        """Description of the kernel for compiled solvers, or None.

        Returns
        -------
        tuple or None
            ``(name, gamma, degree, coef0)`` with ``name`` one of ``"linear"``, ``"poly"``,
            ``"rbf"``, ``"sigmoid"``, ``"laplacian"``, ``"cosine"``, ``"precomputed"`` and
            floats ``gamma``, ``coef0``, a number ``degree`` (neutral values where a kernel has
            no such parameter: ``gamma=1.0``, ``degree=1``, ``coef0=0.0``); None for
            composite, string, custom and per-feature-γ kernels, which a solver evaluates by
            calling the kernel.
        """
        return self._spec()

    def _spec(self):
        return None

    def _diag(self, X):
        return np.diag(self._gram(X, None)).copy()

    # the algebra -------------------------------------------------------------------------
    def __add__(self, other):
        if isinstance(other, Kernel):
            return Sum(self, other)
        if isinstance(other, numbers.Real):
            return Sum(self, Constant(float(other)))
        return NotImplemented

    def __radd__(self, other):
        if isinstance(other, numbers.Real):
            return Sum(Constant(float(other)), self)
        return NotImplemented

    def __mul__(self, other):
        if isinstance(other, Kernel):
            return Product(self, other)
        if isinstance(other, numbers.Real):
            return Scaled(float(other), self)
        return NotImplemented

    def __rmul__(self, other):
        if isinstance(other, numbers.Real):
            return Scaled(float(other), self)
        return NotImplemented


def _positive(value, name: str, owner: str) -> float:
    if not isinstance(value, numbers.Real) or not value > 0 or not np.isfinite(value):
        raise ValueError(f"{owner}: {name} must be a positive finite number; got {value!r}.")
    return float(value)


class Constant(Kernel):
    """The constant kernel ``k(x, y) = value`` (a penalised intercept when added to a kernel).

    Parameters
    ----------
    value : float, default=1.0
        The constant, > 0 (a positive multiple of the all-ones feature).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import Constant
    >>> Constant(2.0)(np.zeros((2, 1)))
    array([[2., 2.],
           [2., 2.]])
    """

    _numeric = False

    def _requires_numeric(self):
        return False

    def __init__(self, value=1.0):
        self.value = value

    def _gram(self, X, Y):
        c = _positive(self.value, "value", "Constant")
        m = len(X) if Y is None else len(Y)
        return np.full((len(X), m), c)

    def _diag(self, X):
        return np.full(len(X), _positive(self.value, "value", "Constant"))


class Sum(Kernel):
    """The sum ``k1(x, y) + k2(x, y)`` of two kernels (``k1 + k2``).

    Parameters
    ----------
    k1 : Kernel
        First summand.
    k2 : Kernel
        Second summand.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import Linear, Sum
    >>> Sum(Linear(), Linear())(np.array([[1.0, 2.0]]))
    array([[10.]])
    """

    _numeric = False

    def _requires_numeric(self):
        return self.k1.requires_numeric or self.k2.requires_numeric

    def __init__(self, k1, k2):
        self.k1 = k1
        self.k2 = k2

    def _gram(self, X, Y):
        return self.k1(X, Y) + self.k2(X, Y)

    def _diag(self, X):
        return self.k1.diag(X) + self.k2.diag(X)


class Product(Kernel):
    """The product ``k1(x, y) · k2(x, y)`` of two kernels (``k1 * k2``).

    Parameters
    ----------
    k1 : Kernel
        First factor.
    k2 : Kernel
        Second factor.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import Linear, Product
    >>> Product(Linear(), Linear())(np.array([[1.0, 2.0]]))
    array([[25.]])
    """

    _numeric = False

    def _requires_numeric(self):
        return self.k1.requires_numeric or self.k2.requires_numeric

    def __init__(self, k1, k2):
        self.k1 = k1
        self.k2 = k2

    def _gram(self, X, Y):
        K = self.k1(X, Y)
        K *= self.k2(X, Y)
        return K

    def _diag(self, X):
        return self.k1.diag(X) * self.k2.diag(X)


class Scaled(Kernel):
    """A positive multiple ``c · k(x, y)`` of a kernel (``c * k``).

    Parameters
    ----------
    c : float
        The factor, > 0.
    kernel : Kernel
        The kernel scaled.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import Linear
    >>> (3 * Linear())(np.array([[1.0, 1.0]]))
    array([[6.]])
    """

    _numeric = False

    def _requires_numeric(self):
        return self.kernel.requires_numeric

    def __init__(self, c, kernel):
        self.c = c
        self.kernel = kernel

    def _gram(self, X, Y):
        return _positive(self.c, "c", "Scaled") * self.kernel(X, Y)

    def _diag(self, X):
        return _positive(self.c, "c", "Scaled") * self.kernel.diag(X)


class Normalized(Kernel):
    """The normalised kernel ``k(x, y) / √(k(x, x) k(y, y))`` (unit diagonal).

    Parameters
    ----------
    kernel : Kernel
        The kernel normalised; points with ``k(x, x) = 0`` get 0 rows.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import Linear, Normalized
    >>> Normalized(Linear())(np.array([[3.0, 0.0], [1.0, 1.0]])).round(4)
    array([[1.    , 0.7071],
           [0.7071, 1.    ]])
    """

    _numeric = False

    def _requires_numeric(self):
        return self.kernel.requires_numeric

    def __init__(self, kernel):
        self.kernel = kernel

    @staticmethod
    def _inv_root(d):
        out = np.zeros_like(d)
        np.divide(1.0, np.sqrt(np.maximum(d, 0.0)), out=out, where=d > 0)
        return out

    def _gram(self, X, Y):
        K = self.kernel(X, Y)
        dx = self._inv_root(self.kernel.diag(X))
        dy = dx if Y is None else self._inv_root(self.kernel.diag(Y))
        K *= dx[:, None]
        K *= dy[None, :]
        return K

    def _diag(self, X):
        return (self.kernel.diag(X) > 0).astype(np.float64)


class Exponential(Kernel):
    """The exponential ``exp(k(x, y))`` of a kernel (positive definite when ``k`` is).

    Parameters
    ----------
    kernel : Kernel
        The kernel exponentiated.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import Exponential, Linear
    >>> Exponential(Linear())(np.array([[1.0]])).round(4)
    array([[2.7183]])
    """

    _numeric = False

    def _requires_numeric(self):
        return self.kernel.requires_numeric

    def __init__(self, kernel):
        self.kernel = kernel

    def _gram(self, X, Y):
        return np.exp(self.kernel(X, Y))

    def _diag(self, X):
        return np.exp(self.kernel.diag(X))


class Rescaled(Kernel):
    """A kernel of rescaled inputs, ``k(x / scale, y / scale)``.

    Parameters
    ----------
    kernel : Kernel
        The kernel applied to the rescaled points.
    scale : float
        The divisor of every input, > 0.

    Notes
    -----
    Positive definite when ``kernel`` is (a feature map of ``x / scale``).
    :func:`~statlearning.kernels.resolve_kernel` returns one for ``gamma="scale"`` on data
    whose magnitude is near the ends of float64 (beyond about ``1e±60``): with ``scale`` a
    power of two (exact in floating point) and γ resolved on ``X / scale``, the kernel is the
    one ``gamma="scale"`` defines on ``X``, whose γ itself (``1/Var(X)``) and whose squared
    distances could not be held in float64.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import RBF, Rescaled
    >>> X = np.array([[0.0], [1e300]])
    >>> Rescaled(RBF(gamma=1.0), 2.0**997)(X).round(4)
    array([[1.    , 0.5727],
           [0.5727, 1.    ]])
    """

    def __init__(self, kernel, scale):
        self.kernel = kernel
        self.scale = scale

    def _divided(self, X):
        return None if X is None else X / _positive(self.scale, "scale", "Rescaled")

    def _gram(self, X, Y):
        return self.kernel(self._divided(X), self._divided(Y))

    def _diag(self, X):
        return self.kernel.diag(self._divided(X))
