"""Limited-memory BFGS (with optional box constraints) through SciPy's L-BFGS-B.

:func:`lbfgs` is a thin, uniform wrapper around ``scipy.optimize.minimize(method="L-BFGS-B")``:
the objective returns its value and gradient together (``jac=True``), iteration stops when the
largest component of the projected gradient is at most ``tol`` (SciPy's ``gtol``) or when the
relative decrease of the objective falls below ``64 · eps`` (SciPy's ``ftol``, i.e. the objective
can no longer be decreased measurably), and the result is a :class:`SolverResult`.

It never warns: the estimator that calls it decides, from ``converged``, whether to raise a
``ConvergenceWarning`` that names itself.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence

import numpy as np
from scipy import optimize

from .._core.compiled import single_blas_thread
from ._result import SolverResult

__all__ = ["lbfgs"]

_FTOL = 64 * np.finfo(np.float64).eps


def lbfgs(
    fun_and_grad: Callable[[np.ndarray], tuple[float, np.ndarray]],
    x0,
    *,
    max_iter: int = 1000,
    tol: float = 1e-8,
    bounds: Sequence[tuple[float | None, float | None]] | None = None,
    max_fun: int = 15000,
    ftol: float = _FTOL,
    blas_flops: int | None = None,
) -> SolverResult:
    """Minimise a smooth function by L-BFGS-B.

    Parameters
    ----------
    fun_and_grad : callable
        ``fun_and_grad(x) -> (f, g)``: the objective value (a float) and its gradient (an array
        of the shape of ``x``).
    x0 : array-like of shape (k,)
        Starting point (not modified).
    max_iter : int, default=1000
        Maximum number of L-BFGS iterations (SciPy's ``maxiter``).
    tol : float, default=1e-8
        Stop when ``max_j |proj g_j| ≤ tol`` (SciPy's ``gtol``).
    bounds : sequence of (low, high) pairs, optional
        Box constraints, one pair per coordinate; ``None`` means unbounded on that side.
    max_fun : int, default=15000
        Maximum number of objective evaluations (SciPy's ``maxfun``).
    ftol : float, default=64·eps
        Stop when the relative decrease of the objective is at most ``ftol`` (SciPy's
        ``ftol``; SciPy's own default, ``2.2e-9``, is what scikit-learn's MLP uses).
    blas_flops : int, optional
        Multiply-adds of the products of one evaluation of ``fun_and_grad``: below
        :func:`~statlearning._core.compiled.single_blas_thread`'s bound the whole minimisation
        runs on one BLAS thread (L-BFGS-B's own vector operations are tiny: on a busy two-core
        machine threads made each of its steps cost ~5 ms with 101 unknowns). ``None``: BLAS
        as it is.

    Returns
    -------
    SolverResult
        ``x`` the minimiser (the last iterate if not converged), ``n_iter`` SciPy's ``nit``,
        ``converged`` SciPy's ``success`` (False when the iteration cap was hit or the line
        search failed), ``history`` empty.
    """
    x0 = np.array(x0, dtype=np.float64, copy=True).ravel()
    limit = contextlib.nullcontext() if blas_flops is None else single_blas_thread(blas_flops)
    with limit:
        res = optimize.minimize(
            fun_and_grad,
            x0,
            method="L-BFGS-B",
            jac=True,
            bounds=bounds,
            options={
                "maxiter": int(max_iter),
                "maxfun": int(max_fun),
                "gtol": float(tol),
                "ftol": float(ftol),
            },
        )
    return SolverResult(np.asarray(res.x, dtype=np.float64), int(res.nit), bool(res.success))
