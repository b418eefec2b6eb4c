"""Batch gradient descent with a fixed step, Armijo backtracking, or exact line search.

The update is the notes' rule ``x ← x − t ∇f(x)``, the plain step rule
:class:`~statlearning._solvers.steps.SGD` applied to the full gradient. The step ``t`` is

* ``"fixed"``: the given learning rate ``t = η`` every iteration;
* ``"armijo"``: backtracking from ``t0`` by ``shrink`` until
  ``f(x − t g) ≤ f(x) − c t ‖g‖²`` (sufficient decrease);
* ``"exact"``: for a quadratic ``f(x) = ½ xᵀHx − bᵀx`` (``hessp(v) = Hv``), the minimiser along
  ``−g``: ``t = gᵀg / gᵀHg``.

Iteration stops when ``‖∇f(x)‖₂ ≤ tol · max(1, ‖∇f(x₀)‖₂)``. Divergence (a non-finite or
exploding objective) raises ``FloatingPointError`` so the caller can report it clearly.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ._result import SolverResult
from .steps import SGD


def gradient_descent(
    fun: Callable[[np.ndarray], float],
    grad: Callable[[np.ndarray], np.ndarray],
    x0: np.ndarray,
    *,
    step: str = "armijo",
    learning_rate: float = 1.0,
    hessp: Callable[[np.ndarray], np.ndarray] | None = None,
    tol: float = 1e-8,
    max_iter: int = 1000,
    armijo_c: float = 1e-4,
    shrink: float = 0.5,
    record_history: bool = False,
) -> SolverResult:
    """Minimise ``fun`` by gradient descent from ``x0``; see the module docstring."""
    if step not in ("fixed", "armijo", "exact"):
        raise ValueError(f"step must be 'fixed', 'armijo' or 'exact'; got {step!r}")
    if step == "exact" and hessp is None:
        raise ValueError("exact line search needs hessp (the objective must be quadratic)")
    x = np.array(x0, dtype=np.float64)
    rule = SGD(learning_rate)
    g = np.ascontiguousarray(grad(x), dtype=np.float64)
    f = fun(x)
    f0 = f
    threshold = tol * max(1.0, float(np.linalg.norm(g)))
    history = [f] if record_history else []
    for it in range(1, max_iter + 1):
        gnorm2 = float(g @ g)
        if np.sqrt(gnorm2) <= threshold:
            return SolverResult(x, it - 1, True, history)
        if step == "fixed":
            t = learning_rate
        elif step == "exact":
            curv = float(g @ hessp(g))
            if curv <= 0.0:  # flat direction of a PSD quadratic: cannot improve along it
                return SolverResult(x, it - 1, True, history)
            t = gnorm2 / curv
        else:
            t = _backtrack(fun, grad, x, f, g, gnorm2, learning_rate, armijo_c, shrink)
            if t == 0.0:  # no step decreases f or ‖∇f‖ measurably: stop at machine precision
                return SolverResult(x, it - 1, bool(np.sqrt(gnorm2) <= threshold), history)
        rule.learning_rate = t
        rule.update([x], [g])
        f = fun(x)
        if not np.isfinite(f) or (step == "fixed" and abs(f) > 1e12 * max(1.0, abs(f0))):
            raise FloatingPointError(
                f"gradient descent diverged at iteration {it} (objective {f:.3g}); "
                "the step size is too large"
            )
        g = np.ascontiguousarray(grad(x), dtype=np.float64)
        if record_history:
            history.append(f)
    converged = np.linalg.norm(g) <= threshold
    return SolverResult(x, max_iter, bool(converged), history)


def _backtrack(fun, grad, x, f, g, gnorm2, t, c, shrink) -> float:
    """Armijo backtracking; ``0.0`` when no acceptable step exists above 1e-20.

    Near a minimiser the required decrease ``c t ‖g‖²`` falls below the rounding error of
    ``f``; a step whose change in ``f`` is within that rounding is then accepted when it reduces
    the gradient norm, so that tight tolerances remain reachable.
    """
    noise = 64 * np.finfo(np.float64).eps * max(1.0, abs(f))
    while t >= 1e-20:
        x_new = x - t * g
        f_new = fun(x_new)
        if f_new <= f - c * t * gnorm2:
            return t
        if abs(f_new - f) <= noise and float(np.linalg.norm(grad(x_new))) ** 2 < gnorm2:
            return t
        t *= shrink
    return 0.0
