"""The built-in kernels: the five of scikit-learn's strings, the Laplacian, the notes' all-subsets
and spectrum (string) kernels, precomputed Gram matrices and user callables.

The Gram matrices of the numeric kernels are computed by :func:`statlearning._core.kernel_gram.gram`
(row blocks, BLAS), the one Gram implementation of the package.
"""

from __future__ import annotations

import numbers
from collections import Counter

import numpy as np
from scipy import sparse

from .._core.kernel_gram import gram, gram_diag
from ._base import Kernel, as_numeric

__all__ = [
    "RBF",
    "AllSubsets",
    "CallableKernel",
    "Cosine",
    "Laplacian",
    "Linear",
    "Polynomial",
    "Precomputed",
    "Sigmoid",
    "Spectrum",
]


def _scalar(value, name, owner, *, positive=True):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
        raise ValueError(f"{owner}: {name} must be a finite number; got {value!r}.")
    if positive and value <= 0:
        raise ValueError(f"{owner}: {name} must be > 0; got {value!r}.")
    return float(value)


class _GramKernel(Kernel):
    """A kernel evaluated by the shared Gram routine of ``_core``."""

    _name = ""

    def _params(self):  # (gamma, degree, coef0) for gram()
        return 1.0, 1, 0.0

    def _gram(self, X, Y):
        gamma, degree, coef0 = self._params()
        return gram(X, Y, kernel=self._name, gamma=gamma, degree=degree, coef0=coef0)

    def _diag(self, X):
        gamma, degree, coef0 = self._params()
        return gram_diag(X, kernel=self._name, gamma=gamma, degree=degree, coef0=coef0)

    def _spec(self):
        gamma, degree, coef0 = self._params()
        return (self._name, float(gamma), degree, float(coef0))


class Linear(_GramKernel):
    """The linear kernel ``k(x, y) = xᵀy``.

    Notes
    -----
    Kernel ridge regression with this kernel and no intercept is ridge regression (primal ≡
    dual, seed 000 §2.11). R's kernlab: ``vanilladot()``; scikit-learn: ``"linear"``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import Linear
    >>> Linear()(np.array([[1.0, 2.0], [3.0, -1.0]]))
    array([[ 5.,  1.],
           [ 1., 10.]])
    """

    _name = "linear"

    def __init__(self):
        pass


class Polynomial(_GramKernel):
    """The polynomial kernel ``k(x, y) = (γ xᵀy + r)^d``.

    Parameters
    ----------
    degree : int, default=3
        The degree d ≥ 1.
    gamma : float, default=1.0
        The scale γ > 0 of the inner product.
    coef0 : float, default=1.0
        The offset r ≥ 0 (r = 0: the homogeneous kernel).

    Notes
    -----
    The notes' parameterisations map to ours as follows: Zupan's ``(xᵀx' + 1)ⁿ`` is
    ``Polynomial(degree=n, gamma=1, coef0=1)``; Vandin's ``(ζ + γ⟨x, x'⟩)^Q`` is
    ``Polynomial(degree=Q, gamma=γ, coef0=ζ)``; Welling's ``(R + xᵀy)^d`` (seed 002 B.3) is
    ``Polynomial(degree=d, gamma=1, coef0=R)``. Its explicit feature map (B.5) has the factor
    ``R^((d−s)/2)`` inside the square root and runs over ``s ≤ d`` (the printed ``R^(d−s)`` and
    ``s < d`` are misprints). R's kernlab ``polydot(degree, scale, offset)`` is
    ``Polynomial(degree, gamma=scale, coef0=offset)``; scikit-learn's ``"poly"`` takes the same
    ``gamma``, ``degree``, ``coef0``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import Polynomial
    >>> Polynomial(degree=2, gamma=1.0, coef0=1.0)(np.array([[1.0, 2.0]]), np.array([[3.0, -1.0]]))
    array([[4.]])
    """

    _name = "poly"

    def __init__(self, degree=3, gamma=1.0, coef0=1.0):
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0

    def _params(self):
        d = self.degree
        if isinstance(d, bool) or not isinstance(d, numbers.Real) or d < 1 or d != int(d):
            raise ValueError(f"Polynomial: degree must be an integer >= 1; got {d!r}.")
        gamma = _scalar(self.gamma, "gamma", "Polynomial")
        return gamma, int(d), _scalar(self.coef0, "coef0", "Polynomial", positive=False)


class RBF(_GramKernel):
    """The Gaussian (radial basis function) kernel ``k(x, y) = exp(−γ ‖x − y‖²)``.

    Parameters
    ----------
    gamma : float or array-like of shape (n_features,), default=1.0
        γ > 0; one value per feature gives the diagonal (ARD) Gaussian
        ``exp(−Σⱼ γⱼ (xⱼ − yⱼ)²)``.

    Notes
    -----
    γ = 1/(2σ²) for the bandwidth σ of Zupan's and Welling's ``exp(−‖x − x'‖²/2σ²)``; Artelt's
    ``exp(−‖x − x'‖²/γ_A)`` has γ = 1/γ_A; Vandin's ``exp(−γ‖x − x'‖²)`` is ours. R's kernlab
    ``rbfdot(sigma)`` and e1071's ``gamma`` are our γ. The 1-D series
    ``exp(−γ(x − x')²) = e^{−γx²} e^{−γx'²} Σₖ (2γ)ᵏ xᵏx'ᵏ / k!`` is the infinite feature map.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import RBF
    >>> round(float(RBF(gamma=1.0)(np.array([[0.4]]), np.array([[-0.9]]))[0, 0]), 7)
    0.1845195
    """

    _name = "rbf"

    def __init__(self, gamma=1.0):
        self.gamma = gamma

    def _gamma(self, n_features=None):
        g = np.asarray(self.gamma, dtype=np.float64) if not isinstance(self.gamma, str) else None
        if g is None or g.ndim > 1 or not np.all(np.isfinite(g)) or np.any(g <= 0):
            raise ValueError(
                f"RBF: gamma must be a positive number or a vector of positive numbers; "
                f"got {self.gamma!r}."
            )
        if g.ndim == 1 and n_features is not None and g.size != n_features:
            raise ValueError(
                f"RBF: gamma has {g.size} values but X has {n_features} features (a vector "
                "gamma needs one value per feature)."
            )
        return float(g) if g.ndim == 0 else g

    def _gram(self, X, Y):
        return gram(X, Y, kernel="rbf", gamma=self._gamma(X.shape[1]))

    def _diag(self, X):
        self._gamma(X.shape[1])
        return np.ones(X.shape[0])

    def _spec(self):
        g = self._gamma()
        if isinstance(g, np.ndarray):
            return None
        return ("rbf", g, 1, 0.0)


class Laplacian(_GramKernel):
    """The Laplacian kernel ``k(x, y) = exp(−γ ‖x − y‖₁)`` (L1 distance, as scikit-learn).

    Parameters
    ----------
    gamma : float, default=1.0
        γ > 0.

    Notes
    -----
    scikit-learn's ``laplacian_kernel`` is the same function. R's kernlab ``laplacedot(sigma)``
    uses the Euclidean norm, ``exp(−σ‖x − y‖₂)``, a different kernel.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import Laplacian
    >>> Laplacian(gamma=0.5)(np.array([[0.0, 0.0]]), np.array([[1.0, -1.0]])).round(4)
    array([[0.3679]])
    """

    _name = "laplacian"

    def __init__(self, gamma=1.0):
        self.gamma = gamma

    def _params(self):
        return _scalar(self.gamma, "gamma", "Laplacian"), 1, 0.0


class Sigmoid(_GramKernel):
    """The sigmoid (hyperbolic tangent) kernel ``k(x, y) = tanh(γ xᵀy + r)``; not positive definite.

    Parameters
    ----------
    gamma : float, default=1.0
        The slope γ.
    coef0 : float, default=0.0
        The offset r.

    Notes
    -----
    Not a Mercer kernel: with x = 1, 2 and γ = r = 1 (Vandin's ``tanh(γxᵀx' + ζ)``, γ = 1,
    ζ = 1) the Gram matrix has the eigenvalue −0.013248 (:func:`is_mercer` reports it). Boily's
    ``tanh(κxᵀw − δ)`` is ``Sigmoid(gamma=κ, coef0=−δ)``; kernlab's ``tanhdot(scale, offset)``
    is ``Sigmoid(gamma=scale, coef0=offset)``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import Sigmoid
    >>> Sigmoid(gamma=1.0, coef0=1.0)(np.array([[1.0], [2.0]])).round(6)
    array([[0.964028, 0.995055],
           [0.995055, 0.999909]])
    """

    _name = "sigmoid"

    def __init__(self, gamma=1.0, coef0=0.0):
        self.gamma = gamma
        self.coef0 = coef0

    def _params(self):
        gamma = _scalar(self.gamma, "gamma", "Sigmoid", positive=False)
        return gamma, 1, _scalar(self.coef0, "coef0", "Sigmoid", positive=False)


class Cosine(_GramKernel):
    """The cosine kernel ``k(x, y) = xᵀy / (‖x‖ ‖y‖)`` (0 where a norm is 0, as scikit-learn).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import Cosine
    >>> Cosine()(np.array([[1.0, 0.0]]), np.array([[1.0, 1.0]])).round(4)
    array([[0.7071]])
    """

    _name = "cosine"

    def __init__(self):
        pass


class AllSubsets(Kernel):
    """The all-subsets kernel ``k(x, y) = ∏ᵢ (1 + xᵢ yᵢ)`` (seed 002 B.6).

    Notes
    -----
    Its feature map has one feature per subset A of the coordinates, ``φ_A(x) = ∏_{i ∈ A} xᵢ``
    (2^p features, the empty product being 1); the product form evaluates their inner product
    in O(p).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import AllSubsets
    >>> AllSubsets()(np.array([[1.0, 2.0]]), np.array([[3.0, -1.0]]))
    array([[-4.]])
    """

    def __init__(self):
        pass

    def _gram(self, X, Y):
        Y = X if Y is None else Y
        K = np.ones((X.shape[0], Y.shape[0]))
        for j in range(X.shape[1]):  # one n × m pass per feature, no n × m × p tensor
            K *= 1.0 + np.multiply.outer(X[:, j], Y[:, j])
        return K

    def _diag(self, X):
        return np.prod(1.0 + X * X, axis=1)


def _as_strings(X, name):
    arr = np.asarray(X, dtype=object)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise ValueError(
            f"The Spectrum kernel needs {name} as a sequence of strings (or one column of "
            f"them); got shape {arr.shape}."
        )
    bad = [v for v in arr if not isinstance(v, str)]
    if bad:
        raise TypeError(
            f"The Spectrum kernel needs strings in {name}; got {type(bad[0]).__name__} {bad[0]!r}."
        )
    return arr


class Spectrum(Kernel):
    """The k-spectrum string kernel: the number of shared length-k substrings.

    ``K(s, t) = Σ_u c_u(s) c_u(t)``, with ``c_u(s)`` the number of occurrences of the substring
    u of length k in s (overlapping occurrences count), seed 000 §1.13.

    Parameters
    ----------
    k : int, default=3
        Substring length, ≥ 1.

    Notes
    -----
    Inputs are sequences of strings (or a one-column array of them). kernlab's
    ``stringdot(type="spectrum")`` is no reference (it has known bugs).

    Examples
    --------
    >>> from statlearning.kernels import Spectrum
    >>> Spectrum(k=2)(["abab", "bab"])
    array([[5., 3.],
           [3., 2.]])
    """

    _numeric = False

    def _requires_numeric(self):
        return False

    def __init__(self, k=3):
        self.k = k

    def _k(self):
        k = self.k
        if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
            raise ValueError(f"Spectrum: k must be an integer >= 1; got {k!r}.")
        return int(k)

    def _counts(self, strings, vocab):
        k = self._k()
        rows, cols, vals = [], [], []
        for i, s in enumerate(strings):
            counts = Counter(s[j : j + k] for j in range(len(s) - k + 1))
            for sub, c in counts.items():
                rows.append(i)
                cols.append(vocab.setdefault(sub, len(vocab)))
                vals.append(c)
        return rows, cols, vals

    def _gram(self, X, Y):
        X = _as_strings(X, "X")
        vocab: dict = {}
        rx = self._counts(X, vocab)
        ry = rx if Y is None else self._counts(_as_strings(Y, "Y"), vocab)
        shape = (len(vocab),)
        A = sparse.csr_matrix((rx[2], (rx[0], rx[1])), shape=(len(X), *shape), dtype=np.float64)
        if Y is None:
            B = A
        else:
            B = sparse.csr_matrix((ry[2], (ry[0], ry[1])), shape=(len(Y), *shape), dtype=np.float64)
        return np.asarray((A @ B.T).toarray(), dtype=np.float64)

    def _diag(self, X):
        X = _as_strings(X, "X")
        k = self._k()
        return np.array(
            [
                float(
                    sum(
                        c * c for c in Counter(s[j : j + k] for j in range(len(s) - k + 1)).values()
                    )
                )
                for s in X
            ]
        )


class Precomputed(Kernel):
    """A precomputed kernel: ``X`` already is the Gram matrix (``Y`` is ignored).

    At fit time ``X`` is the square training Gram ``K(train, train)``; at prediction time
    ``K(test, train)``, of shape (n_test, n_train).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import Precomputed
    >>> Precomputed()(np.eye(2))
    array([[1., 0.],
           [0., 1.]])
    """

    def __init__(self):
        pass

    def _check(self, X, Y):
        return as_numeric(X, "X", "Precomputed"), None

    def _gram(self, X, Y):
        return np.array(X, dtype=np.float64)

    def _diag(self, X):
        if X.shape[0] != X.shape[1]:
            raise ValueError(
                f"Precomputed: the diagonal needs a square Gram matrix; got shape {X.shape}."
            )
        return np.diag(X).copy()

    def _spec(self):
        return ("precomputed", 1.0, 1, 0.0)


class CallableKernel(Kernel):
    """A user's function ``func(X, Y) → Gram matrix`` as a kernel object.

    Parameters
    ----------
    func : callable
        Called as ``func(X, Y)`` with two 2-D arrays; returns the ``(len(X), len(Y))`` Gram
        matrix (the convention of scikit-learn's ``SVC(kernel=callable)``).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernels import CallableKernel
    >>> CallableKernel(lambda A, B: (A @ B.T) ** 2)(np.array([[1.0, 2.0]]))
    array([[25.]])
    """

    def __init__(self, func):
        self.func = func

    def _gram(self, X, Y):
        Y = X if Y is None else Y
        K = np.asarray(self.func(X, Y), dtype=np.float64)
        if K.shape != (X.shape[0], Y.shape[0]):
            raise ValueError(
                f"The kernel function returned shape {K.shape}; expected "
                f"{(X.shape[0], Y.shape[0])} (len(X), len(Y))."
            )
        return K

    def _diag(self, X):
        step = 256
        out = np.empty(X.shape[0])
        for s in range(0, X.shape[0], step):
            block = X[s : s + step]
            out[s : s + step] = np.diag(self._gram(block, block))
        return out
