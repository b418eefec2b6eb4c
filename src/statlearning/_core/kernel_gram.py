"""The Gram matrix of the built-in kernels (the one Gram implementation).

Every kernel machine of the package (the objects of :mod:`statlearning.kernels`, the SVMs,
kernel ridge and kernel logistic regression) evaluates its built-in kernels here. The inner
products come from BLAS; squared distances are ``‖x‖² + ‖y‖² − 2xᵀy`` clipped at 0 (exactly 0
on the diagonal of a symmetric Gram), the L1 distances of the Laplacian kernel are SciPy's
``cdist(..., "cityblock")`` per block, so nothing of size ``n × m × p`` is ever formed. A
symmetric Gram (``Y`` is None) computes only one triangle and mirrors it: half the
multiply-adds.

Small Grams are computed in row blocks of about 16 MB on one BLAS thread (a threaded BLAS
spends longer waking its workers than computing a thin product). Above ``2**27``
multiply-adds the Gram is one product on every BLAS thread (``syrk`` when symmetric), turned
into kernel values in place by one parallel compiled pass (``_gram_kernels``: the kernel's
argument, and the mirror) and NumPy's ``exp``/``tanh``/``power`` on row chunks in threads:
no memory beyond the output.

Kernels (γ = ``gamma``, d = ``degree``, r = ``coef0``):

=============  ====================================
``linear``     xᵀy
``poly``       (γ xᵀy + r)^d
``rbf``        exp(−γ ‖x − y‖²); γ a scalar or one value per feature (ARD: Σⱼ γⱼ (xⱼ − yⱼ)²)
``sigmoid``    tanh(γ xᵀy + r)
``laplacian``  exp(−γ ‖x − y‖₁)
``cosine``     xᵀy / (‖x‖ ‖y‖)  (0 when either norm is 0, as scikit-learn)
=============  ====================================

``gamma=None`` means ``1 / n_features`` (scikit-learn's ``pairwise_kernels`` default).

Data near the ends of float64 (``scaling.scale_for``: beyond about ``1e±60``) are divided by a
power of two ``s`` first (exact), and the kernel's parameters absorb it: γs² for ``rbf``,
``poly`` and ``sigmoid``, γs for ``laplacian``, a factor s² on the ``linear`` Gram, nothing
for ``cosine``. Squared distances and inner products then stay in range, and every entry is
the float64 value nearest the kernel's (``exp(−γ‖x − y‖²)`` is 0 between distinct points and
1 on the diagonal when γs² overflows, where computing on ``X`` itself gives ``NaN``).
"""

from __future__ import annotations

import warnings
from concurrent.futures import ThreadPoolExecutor

import numba
import numpy as np
from scipy.linalg import blas
from scipy.sparse.linalg import lobpcg
from scipy.spatial.distance import cdist

from ._gram_kernels import COSINE, LINEAR, POLY, RBF, SIGMOID, finish_rect, finish_symmetric
from .compiled import single_blas_thread
from .linalg import symmetric_eigh
from .scaling import scale_for, times

__all__ = ["KERNELS", "gram", "gram_diag", "is_psd", "resolve_gamma"]

#: The kernel names :func:`gram` evaluates.
KERNELS = ("linear", "poly", "rbf", "sigmoid", "laplacian", "cosine")

# Bytes of one block of the output (and of its temporaries) when block_rows is None.
_BLOCK_BYTES = 1 << 24
# Above this many multiply-adds (n · m · p) the Gram is one product on every BLAS thread and
# compiled passes over the whole output (below it, blocks on one BLAS thread are faster).
_WHOLE_PRODUCT = 1 << 27


def resolve_gamma(gamma, n_features: int, kernel: str):
    """``gamma`` as a float (or, for ``rbf``, possibly a length-``n_features`` vector)."""
    if gamma is None:
        return 1.0 / max(n_features, 1)
    g = np.asarray(gamma, dtype=np.float64)
    if g.ndim == 0:
        return float(g)
    if kernel != "rbf":
        raise ValueError(f"gamma must be a scalar for the {kernel!r} kernel; got shape {g.shape}.")
    if g.shape != (n_features,):
        raise ValueError(
            f"gamma has {g.size} values but X has {n_features} features; a vector gamma needs "
            "one value per feature."
        )
    return g


def _as_matrix(A, name: str) -> np.ndarray:
    A = np.asarray(A, dtype=np.float64)
    if A.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array; got {A.ndim} dimension(s).")
    return A


def _block_size(block_rows, n_cols: int) -> int:
    if block_rows is not None:
        return max(int(block_rows), 1)
    return max(_BLOCK_BYTES // (8 * max(n_cols, 1)), 16)


def _times_gamma(block, gamma):
    """``block *= gamma`` in place, keeping 0 where ``gamma`` is infinite (γs² overflowed:
    a zero inner product or distance stays 0, not ``NaN``)."""
    if np.isinf(gamma):
        np.multiply(block, gamma, out=block, where=block != 0.0)
    else:
        block *= gamma


def _transform(block, kernel, gamma, degree, coef0, sq_rows=None, sq_cols=None):
    """Turn a block of inner products into kernel values, in place where possible."""
    if kernel == "linear":
        return block
    if kernel == "poly":
        _times_gamma(block, gamma)
        block += coef0
        return np.power(block, degree, out=block)
    if kernel == "sigmoid":
        _times_gamma(block, gamma)
        block += coef0
        return np.tanh(block, out=block)
    if kernel == "rbf":
        block *= -2.0
        block += sq_rows[:, None]
        block += sq_cols[None, :]
        np.maximum(block, 0.0, out=block)
        _times_gamma(block, -gamma)
        return np.exp(block, out=block)
    if kernel == "cosine":
        block *= sq_rows[:, None]
        block *= sq_cols[None, :]
        return block
    raise ValueError(f"Unknown kernel {kernel!r}; expected one of {', '.join(KERNELS)}.")


def _row_terms(A, kernel):
    """Per-row quantities the transform needs: squared norms (rbf) or inverse norms (cosine)."""
    if kernel == "rbf":
        return np.einsum("ij,ij->i", A, A)
    if kernel == "cosine":
        norms = np.sqrt(np.einsum("ij,ij->i", A, A))
        inv = np.zeros_like(norms)
        np.divide(1.0, norms, out=inv, where=norms > 0)
        return inv
    return None


def gram(X, Y=None, *, kernel, gamma=None, degree=3, coef0=1.0, block_rows=None) -> np.ndarray:
    """The Gram matrix ``K[i, j] = k(X[i], Y[j])`` of a built-in kernel.

    Parameters
    ----------
    X : ndarray of shape (n, p)
    Y : ndarray of shape (m, p) or None
        None means ``Y = X`` (symmetric Gram, computed by halves).
    kernel : {"linear", "poly", "rbf", "sigmoid", "laplacian", "cosine"}
    gamma : float, ndarray of shape (p,) or None
        A vector is allowed for ``"rbf"`` only (ARD); None means ``1 / p``.
    degree : float, default=3
    coef0 : float, default=1.0
    block_rows : int or None
        Rows of ``X`` per block; None sizes blocks to about 16 MB.

    Returns
    -------
    ndarray of shape (n, m)
    """
    X = _as_matrix(X, "X")
    symmetric = Y is None
    Y = X if symmetric else _as_matrix(Y, "Y")
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"X has {X.shape[1]} features but Y has {Y.shape[1]}; a Gram matrix needs the same "
            "features on both sides."
        )
    if kernel not in KERNELS:
        raise ValueError(f"Unknown kernel {kernel!r}; expected one of {', '.join(KERNELS)}.")
    gamma = resolve_gamma(gamma, X.shape[1], kernel)
    X, Y, gamma, factor = _rescaled(X, None if symmetric else Y, gamma, kernel)
    if symmetric:
        Y = X
    if isinstance(gamma, np.ndarray):  # ARD: scale column j by sqrt(gamma_j), then gamma = 1
        root = np.sqrt(gamma)
        X = X * root
        Y = X if symmetric else Y * root
        gamma = 1.0
    n, m = X.shape[0], Y.shape[0]
    if n == 0 or m == 0:
        return np.empty((n, m))
    step = _block_size(block_rows, m)
    whole = kernel != "laplacian" and block_rows is None and n * m * X.shape[1] > _WHOLE_PRODUCT
    out = None if whole else np.empty((n, m))  # the whole-product path allocates its own
    if kernel == "laplacian":
        for s in range(0, n, step):
            e = min(s + step, n)
            lo = s if symmetric else 0
            block = cdist(X[s:e], Y[lo:], "cityblock")
            _times_gamma(block, -gamma)
            out[s:e, lo:] = np.exp(block, out=block)
        if symmetric:
            _mirror_upper(out, step)
        return out
    rows = _row_terms(X, kernel)
    cols = rows if symmetric else _row_terms(Y, kernel)
    if whole:
        out = _whole(X, Y, symmetric, kernel, gamma, degree, coef0, rows, cols)
    else:
        # one BLAS thread for block products (a threaded BLAS spends longer waking its
        # workers than computing a thin product on a busy machine)
        with single_blas_thread():
            _fill_blocks(out, X, Y, symmetric, step, kernel, gamma, degree, coef0, rows, cols)
        if symmetric:
            _mirror_upper(out, step)
    if factor is not None:
        with np.errstate(over="ignore", under="ignore"):
            out *= factor
    return out


def _rescaled(X, Y, gamma, kernel):
    """``X / s``, ``Y / s`` and the parameters that give the same kernel on them, for data
    whose squares would leave float64 (``s`` a power of two; unchanged otherwise). Returns
    ``(X, Y, gamma, factor)``: ``factor`` multiplies the Gram (``s²`` for the linear kernel,
    else None)."""
    s = scale_for(X, Y)
    if s is None:
        return X, Y, gamma, None
    X = X / s
    Y = None if Y is None else Y / s
    if kernel == "linear":
        return X, Y, gamma, times(1.0, s, 2)
    if kernel == "cosine":
        return X, Y, gamma, None
    return X, Y, times(gamma, s, 1 if kernel == "laplacian" else 2), None


def _whole(X, Y, symmetric, kernel, gamma, degree, coef0, rows, cols):
    """A large Gram as one BLAS product on every BLAS thread (``syrk``, half the
    multiply-adds, for a symmetric Gram), the kernel's argument by one compiled parallel pass
    in place (mirroring a symmetric Gram), and NumPy's elementwise function on row chunks in
    threads. Memory: the output (and the row terms)."""
    code = _CODES[kernel]
    none = np.zeros(0)
    rows = none if rows is None else rows
    if symmetric:
        # syrk fills the upper triangle of a Fortran-ordered C = XXᵀ: the lower triangle of
        # its C-ordered transpose, which the compiled pass completes and mirrors
        out = blas.dsyrk(1.0, X.T, trans=1).T
        finish_symmetric(out, rows, code, float(gamma), float(coef0))
    else:
        out = np.empty((X.shape[0], Y.shape[0]))
        np.matmul(X, Y.T, out=out)
        if kernel != "linear":
            cols = none if cols is None else cols
            finish_rect(out, rows, cols, code, float(gamma), float(coef0))
    elementwise = _ELEMENTWISE.get(kernel)
    if elementwise is not None:
        _threaded_rows(out, lambda part: elementwise(part, degree))
    return out


_CODES = {"linear": LINEAR, "poly": POLY, "rbf": RBF, "sigmoid": SIGMOID, "cosine": COSINE}
_ELEMENTWISE = {
    "rbf": lambda a, _: np.exp(a, out=a),
    "poly": lambda a, degree: np.power(a, degree, out=a),
    "sigmoid": lambda a, _: np.tanh(a, out=a),
}


def _threaded_rows(out, function):
    """``function(out[s:e])`` on row chunks, in numba's current number of threads (NumPy's
    ufuncs release the GIL)."""
    threads = max(1, min(numba.get_num_threads(), out.shape[0]))
    if threads == 1:
        function(out)
        return
    bounds = np.linspace(0, out.shape[0], 4 * threads + 1).astype(int)
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda k: function(out[bounds[k] : bounds[k + 1]]), range(4 * threads)))


def _fill_blocks(out, X, Y, symmetric, step, kernel, gamma, degree, coef0, rows, cols):
    """``out[s:e, lo:]`` for every row block (``lo = s`` when symmetric, else 0)."""
    n = X.shape[0]
    for s in range(0, n, step):
        e = min(s + step, n)
        lo = s if symmetric else 0
        block = X[s:e] @ Y[lo:].T
        if kernel == "rbf" and symmetric:
            # xᵀx = ‖x‖² exactly, so the diagonal distance is exactly 0
            idx = np.arange(e - s)
            block[idx, idx] = rows[s:e]
        out[s:e, lo:] = _transform(
            block,
            kernel,
            gamma,
            degree,
            coef0,
            None if rows is None else rows[s:e],
            None if cols is None else cols[lo:],
        )


def _mirror_upper(out: np.ndarray, step: int) -> None:
    """Copy the upper triangle of a square matrix into its lower triangle, by row blocks."""
    n = out.shape[0]
    for s in range(0, n, step):
        e = min(s + step, n)
        # rows e: and columns s:e lie below the diagonal blocks already filled
        out[e:, s:e] = out[s:e, e:].T
        # within the diagonal block
        blk = out[s:e, s:e]
        lower = np.tril_indices(e - s, -1)
        blk[lower] = blk.T[lower]


def gram_diag(X, *, kernel, gamma=None, degree=3, coef0=1.0) -> np.ndarray:
    """The diagonal ``k(X[i], X[i])`` of the symmetric Gram, without forming it.

    Parameters
    ----------
    X : ndarray of shape (n, p)
    kernel : {"linear", "poly", "rbf", "sigmoid", "laplacian", "cosine"}
    gamma : float, ndarray of shape (p,) or None
    degree : float, default=3
    coef0 : float, default=1.0

    Returns
    -------
    ndarray of shape (n,)
    """
    X = _as_matrix(X, "X")
    if kernel not in KERNELS:
        raise ValueError(f"Unknown kernel {kernel!r}; expected one of {', '.join(KERNELS)}.")
    gamma = resolve_gamma(gamma, X.shape[1], kernel)
    n = X.shape[0]
    if kernel in ("rbf", "laplacian"):
        return np.ones(n)
    X, _, gamma, factor = _rescaled(X, None, gamma, kernel)
    sq = np.einsum("ij,ij->i", X, X)
    if kernel == "linear":
        if factor is not None:
            with np.errstate(over="ignore", under="ignore"):
                sq *= factor
        return sq
    if kernel == "cosine":
        return (sq > 0).astype(np.float64)
    _times_gamma(sq, gamma)
    sq += coef0
    if kernel == "poly":
        return sq**degree
    return np.tanh(sq)


def is_psd(K, *, tol=1e-8, exact=True):
    """Whether a square matrix is symmetric positive semi-definite to relative ``tol``.

    Parameters
    ----------
    K : ndarray of shape (n, n)
    tol : float, default=1e-8
        Symmetric to ``tol · max|K|``; smallest eigenvalue ``≥ −tol`` times the scale (the
        largest ``|λ|``, or ``‖K‖_F ≥ |λ|max`` for the cheap check).
    exact : bool, default=True
        True: every eigenvalue (``O(n³)``). False, for matrices of more than
        ``_EXACT_ROWS`` rows: the diagonal, then a Rayleigh–Ritz estimate of the smallest
        eigenvalue (LOBPCG, a few block iterations, ``O(n²)`` each). A Ritz value is never
        below the smallest eigenvalue, so a negative one proves the matrix indefinite: a
        clearly indefinite matrix is caught, a barely indefinite one may pass.

    Returns
    -------
    bool
    """
    K = np.asarray(K, dtype=np.float64)
    if K.ndim != 2 or K.shape[0] != K.shape[1]:
        raise ValueError(f"A Gram matrix must be square; got shape {K.shape}.")
    if K.size == 0:
        return True
    n = K.shape[0]
    scale = float(np.abs(K).max())
    if not _symmetric(K, tol * max(scale, np.finfo(float).tiny)):
        return False
    if exact or n <= _EXACT_ROWS:
        eig = symmetric_eigh(0.5 * (K + K.T), eigvals_only=True, driver="evd")
        return bool(eig[0] >= -tol * max(np.abs(eig).max(), np.finfo(float).tiny))
    bound = tol * max(float(np.linalg.norm(K)), np.finfo(float).tiny)
    if float(np.diag(K).min()) < -bound:
        return False
    return _lowest_ritz_value(K) >= -bound


#: Matrices up to this many rows get the exact PSD check whatever ``exact`` says.
_EXACT_ROWS = 500
#: Block size and iterations of the LOBPCG estimate of the smallest eigenvalue.
_RITZ_BLOCK = 4
_RITZ_ITERATIONS = 40


def _symmetric(K, atol) -> bool:
    """``|K − Kᵀ| ≤ atol`` everywhere, by row blocks (no ``n × n`` temporary)."""
    n = K.shape[0]
    step = max(_BLOCK_BYTES // (8 * n), 1)
    for s in range(0, n, step):
        e = min(s + step, n)
        if np.abs(K[s:e] - K[:, s:e].T).max() > atol:
            return False
    return True


def _lowest_ritz_value(K) -> float:
    """The smallest Ritz value of LOBPCG (fixed start, a few iterations) for the symmetric
    ``K``: an upper bound of its smallest eigenvalue, converged or not."""
    n = K.shape[0]
    start = np.random.default_rng(0).standard_normal((n, min(_RITZ_BLOCK, n // 4)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # not converging is expected: the bound holds anyway
        values = lobpcg(K, start, largest=False, maxiter=_RITZ_ITERATIONS, tol=1e-6)[0]
    return float(np.min(values))
