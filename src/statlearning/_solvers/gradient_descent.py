"""Batch gradient descent with a fixed step, Armijo backtracking, a strong Wolfe line search,
or exact line search.

The update is the notes' rule ``x ← x − t ∇f(x)``, the plain step rule
:class:`~statlearning._solvers.steps.SGD` applied to the full gradient. The step ``t`` is

* ``"fixed"``: the given learning rate ``t = η`` every iteration;
* ``"armijo"``: backtracking from ``t0`` by ``shrink`` until
  ``f(x − t g) ≤ f(x) − c t ‖g‖²`` (sufficient decrease);
* ``"wolfe"``: a step satisfying the strong Wolfe conditions (:func:`strong_wolfe`, Nocedal &
  Wright's Algorithms 3.5 and 3.6), tried first at ``t0``: sufficient decrease with ``c1`` and
  the curvature condition ``|∇f(x − t g)ᵀg| ≤ c2 ‖g‖²``, so that the step is neither too short
  nor too long; Armijo backtracking is the fallback if it fails;
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
    wolfe_c2: float = 0.9,
    record_history: bool = False,
) -> SolverResult:
    """Minimise ``fun`` by gradient descent from ``x0``; see the module docstring.

    ``armijo_c`` is the sufficient-decrease constant of the Armijo and Wolfe searches (``c1``)
    and ``wolfe_c2`` the curvature constant of the Wolfe search (``0 < c1 < c2 < 1``).
    """
    if step not in ("fixed", "armijo", "wolfe", "exact"):
        raise ValueError(f"step must be 'fixed', 'armijo', 'wolfe' or 'exact'; got {step!r}")
    if step == "wolfe" and not 0.0 < armijo_c < wolfe_c2 < 1.0:
        raise ValueError(
            f"the Wolfe constants need 0 < c1 < c2 < 1; got c1={armijo_c!r}, c2={wolfe_c2!r}"
        )
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
            t = 0.0
            if step == "wolfe":
                found = strong_wolfe(
                    fun, grad, x, -g, f=f, g=g, t0=learning_rate, c1=armijo_c, c2=wolfe_c2
                )
                t = 0.0 if found is None else found[0]
            if t == 0.0:
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


def _interpolate(a_lo, f_lo, d_lo, a_hi, f_hi, d_hi):
    """Minimiser of the cubic matching ``φ`` and ``φ'`` at both ends (Nocedal & Wright eq.
    3.59), kept inside the middle 80 % of the interval, else the midpoint."""
    width = a_hi - a_lo
    a = np.nan
    if width != 0.0:
        d1 = d_lo + d_hi - 3.0 * (f_lo - f_hi) / (a_lo - a_hi)
        disc = d1 * d1 - d_lo * d_hi
        if disc >= 0.0:
            d2 = np.copysign(np.sqrt(disc), width)
            denom = d_hi - d_lo + 2.0 * d2
            if denom != 0.0:
                a = a_hi - width * (d_hi + d2 - d1) / denom
    lo, hi = min(a_lo, a_hi), max(a_lo, a_hi)
    margin = 0.1 * (hi - lo)
    if not np.isfinite(a) or a < lo + margin or a > hi - margin:
        a = 0.5 * (a_lo + a_hi)
    return a


def strong_wolfe(fun, grad, x, p, *, f=None, g=None, t0=1.0, c1=1e-4, c2=0.9, t_max=1e10,
                 max_iter=50):  # fmt: skip
    """A step ``t`` along the descent direction ``p`` satisfying the strong Wolfe conditions.

    With ``φ(t) = f(x + t p)``: sufficient decrease ``φ(t) ≤ φ(0) + c1 t φ'(0)`` and curvature
    ``|φ'(t)| ≤ c2 |φ'(0)|`` (Nocedal & Wright, *Numerical Optimization*, 2nd ed., §3.1).
    Algorithm 3.5 tries ``t0`` and doubles the step (up to ``t_max``) until it brackets an
    acceptable step; Algorithm 3.6 ("zoom") shrinks the bracket by safeguarded cubic
    interpolation (eq. 3.59), keeping at its low end the best step that satisfies sufficient
    decrease.

    Parameters
    ----------
    fun, grad : callable
        The objective and its gradient.
    x, p : ndarray
        The point and a descent direction (``∇f(x)ᵀp < 0``).
    f, g : float and ndarray, optional
        ``fun(x)`` and ``grad(x)`` when already known.
    t0 : float
        The first trial step.
    c1, c2 : float
        The constants, ``0 < c1 < c2 < 1``.
    t_max : float
        The largest step tried.
    max_iter : int
        Cap on the trial steps (function and gradient evaluations).

    Returns
    -------
    (t, f_t, g_t) or None
        The step with the objective and gradient there, or ``None`` when ``p`` is not a
        descent direction or no acceptable step was found within ``max_iter`` trials.
    """
    f0 = fun(x) if f is None else f
    g0 = grad(x) if g is None else g
    d0 = float(g0 @ p)
    if not d0 < 0.0:
        return None
    evals = 0

    def phi(t):
        nonlocal evals
        evals += 1
        xt = x + t * p
        ft = fun(xt)
        gt = np.asarray(grad(xt), dtype=np.float64)
        return ft, gt, float(gt @ p)

    def zoom(lo, f_lo, d_lo, hi, f_hi, d_hi):
        while evals < max_iter:
            t = _interpolate(lo, f_lo, d_lo, hi, f_hi, d_hi)
            ft, gt, dt = phi(t)
            if not np.isfinite(ft) or ft > f0 + c1 * t * d0 or ft >= f_lo:
                hi, f_hi, d_hi = t, ft, dt
            else:
                if abs(dt) <= -c2 * d0:
                    return t, ft, gt
                if dt * (hi - lo) >= 0.0:
                    hi, f_hi, d_hi = lo, f_lo, d_lo
                lo, f_lo, d_lo = t, ft, dt
            if abs(hi - lo) <= 1e-16 * max(abs(lo), abs(hi)):
                break
        return None

    t_prev, f_prev, d_prev = 0.0, f0, d0
    t = min(float(t0), t_max)
    while evals < max_iter:
        ft, gt, dt = phi(t)
        if not np.isfinite(ft) or ft > f0 + c1 * t * d0 or (evals > 1 and ft >= f_prev):
            return zoom(t_prev, f_prev, d_prev, t, ft, dt)
        if abs(dt) <= -c2 * d0:
            return t, ft, gt
        if dt >= 0.0:
            return zoom(t, ft, dt, t_prev, f_prev, d_prev)
        if t >= t_max:
            return None
        t_prev, f_prev, d_prev = t, ft, dt
        t = min(2.0 * t, t_max)
    return None
