"""Choosing one candidate from cross-validated errors: the minimum or the one-standard-error rule.

Every estimator that picks a model from a cross-validation curve calls :func:`select_index`:
:func:`statlearning.model_selection.one_standard_error_rule`, ``LassoCV``/``ElasticNetCV``,
``DecisionTreeRegressorCV``/``DecisionTreeClassifierCV``, ``WrapperSelector``,
``BestSubsetSelector`` and ``StepwiseSelector``. The convention, in one place:

* **Errors**: lower is better (callers holding scores, higher is better, pass ``-score``).
  ``NaN`` errors are never chosen.
* **Standard error**: the standard error of the mean error over the ``K`` folds,
  ``sd / √K`` with ``sd`` the standard deviation of the fold errors with ``ddof = 1`` (R's
  ``cv.glmnet`` ``cvsd``; :class:`statlearning.model_selection.CVEstimate`'s ``se``). The tree
  classes pass rpart's ``xstd`` instead, so that their choice is rpart's.
* **Simpler**: the candidate with the smaller ``complexity`` (callers map "larger penalty",
  "fewer splits", "fewer features" to a smaller key).
* ``rule="min"``: the smallest error; exact ties go to the simplest candidate, then to the
  first one.
* ``rule="1se"``: with ``b`` the ``"min"`` choice, the simplest candidate whose error is at
  most ``error[b] + se[b]`` (Breiman et al. 1984 §3.4.3; ESL §7.10; ISLR §6.1.3); a relative
  slack of ``1e-12`` absorbs rounding, so a candidate exactly on the bound qualifies. Ties in
  complexity go to the smaller error, then to the first candidate.

A continuous tuning parameter (a bandwidth, a smoothing parameter) is chosen by
:func:`minimise_on_grid`: the criterion on a grid, then Brent's method between the best grid
point's neighbours (``KernelDensity``, ``KernelRegression``, ``SmoothingSpline``).
:func:`golden_section_fmin` is the same search as R's smoothing-spline code runs it
(``sbart``'s Forsythe–Malcolm–Moler ``fmin``), for results that must follow R's path.
"""

from __future__ import annotations

import numpy as np
from scipy import optimize

#: Relative slack on the one-standard-error bound (rounding of equal errors).
ONE_SE_RTOL = 1e-12

RULES = ("min", "1se")


def select_index(error, se=None, complexity=None, *, rule="min") -> int:
    """Index of the chosen candidate (see the module docstring for the convention).

    Parameters
    ----------
    error : array-like of shape (n_candidates,)
        Mean cross-validated error of each candidate (lower is better).
    se : array-like of shape (n_candidates,), optional
        Standard error of each mean; required for ``rule="1se"``.
    complexity : array-like of shape (n_candidates,), optional
        Smaller is simpler. Default: the candidate order (the first is the simplest).
    rule : {"min", "1se"}, default="min"

    Returns
    -------
    int

    Raises
    ------
    ValueError
        When every error is NaN, for an unknown ``rule``, or for ``rule="1se"`` when the
        standard error of the best candidate is not finite (fewer than two folds).
    """
    err = np.asarray(error, dtype=np.float64).ravel()
    if err.size == 0 or np.all(np.isnan(err)):
        raise ValueError("no candidate has a finite cross-validated error")
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}; got {rule!r}")
    cx = (
        np.arange(err.size, dtype=np.float64)
        if complexity is None
        else np.asarray(complexity, dtype=np.float64).ravel()
    )
    if cx.shape != err.shape:
        raise ValueError("complexity must have one entry per candidate")
    err = np.where(np.isnan(err), np.inf, err)
    best = _simplest(np.flatnonzero(err == err.min()), err, cx)
    if rule == "min":
        return best
    if se is None:
        raise ValueError("rule='1se' needs the standard errors")
    s = np.asarray(se, dtype=np.float64).ravel()
    if s.shape != err.shape:
        raise ValueError("se must have one entry per candidate")
    if not np.isfinite(s[best]):
        raise ValueError(
            "the one-standard-error rule needs the standard error of the best candidate, "
            "which is undefined (at least two folds are needed)"
        )
    bound = err[best] + s[best]
    within = np.flatnonzero(err <= bound + ONE_SE_RTOL * abs(bound))
    return _simplest(within, err, cx)


def _simplest(candidates, err, cx) -> int:
    """The candidate of smallest complexity; ties by smaller error, then the first."""
    order = np.lexsort((candidates, err[candidates], cx[candidates]))
    return int(candidates[order[0]])


def minimise_on_grid(func, grid, *, xatol: float) -> tuple[float, float]:
    """``(x, func(x))`` minimising ``func`` over ``[grid[0], grid[-1]]``: the grid's best
    point, refined by bounded Brent between its neighbours to ``xatol`` (kept only when it
    improves on the grid). ``NaN`` values are never chosen.

    Parameters
    ----------
    func : callable
        ``float -> float``.
    grid : array-like of float
        Increasing.
    xatol : float
        Brent's absolute tolerance on ``x``.
    """
    grid = np.asarray(grid, dtype=np.float64)
    values = np.array([func(g) for g in grid], dtype=np.float64)
    k = int(np.nanargmin(np.where(np.isnan(values), np.inf, values)))
    lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, grid.size - 1)]
    res = optimize.minimize_scalar(
        func, bounds=(lo, hi), method="bounded", options={"xatol": xatol, "maxiter": 500}
    )
    if res.fun <= values[k]:
        return float(res.x), float(res.fun)
    return float(grid[k]), float(values[k])


#: ``(3 − √5)/2``, the golden-section fraction of Brent's ``localmin``.
_GOLD = 0.381966011250105151795413165634
#: R's ``BIG_f``: criteria at least this large force golden-section steps.
_BIG = 1e100


def golden_section_fmin(func, a: float, b: float, *, tol: float, eps: float, max_iter: int = 500):
    """Brent's ``localmin`` (golden section with parabolic steps) on ``[a, b]``, evaluation by
    evaluation as the ``fmin`` of Forsythe, Malcolm and Moler that R's ``sbart`` (the search of
    ``smooth.spline`` and of the gam package's ``s()``) runs, so that R's tolerances give R's
    answer.

    The search stops when ``|x − (a + b)/2| ≤ 2·tol₁ − (b − a)/2`` with
    ``tol₁ = eps·|x| + tol/3``, or after ``max_iter`` iterations.

    Returns
    -------
    x : float
        The best point found.
    fx : float
        ``func(x)``.
    last : float
        The last point evaluated (R's ``sbart`` leaves its fit at this point).
    """
    v = w = x = a + _GOLD * (b - a)
    fv = fw = fx = func(x)
    d = e = 0.0
    u = x
    for _ in range(max_iter):
        xm = 0.5 * (a + b)
        tol1 = eps * abs(x) + tol / 3.0
        tol2 = 2.0 * tol1
        if abs(x - xm) <= tol2 - 0.5 * (b - a):
            break
        golden = abs(e) <= tol1 or max(fx, fv, fw) >= _BIG
        if not golden:  # a parabola through (v, w, x)
            r = (x - w) * (fx - fv)
            q = (x - v) * (fx - fw)
            p = (x - v) * q - (x - w) * r
            q = 2.0 * (q - r)
            if q > 0.0:
                p = -p
            q = abs(q)
            r, e = e, d
            if abs(p) >= abs(0.5 * q * r) or q == 0.0 or p <= q * (a - x) or p >= q * (b - x):
                golden = True
            else:
                d = p / q
                if (x + d) - a < tol2 or b - (x + d) < tol2:
                    d = tol1 if xm - x >= 0 else -tol1
        if golden:
            e = (a - x) if x >= xm else (b - x)
            d = _GOLD * e
        u = x + (d if abs(d) >= tol1 else (tol1 if d >= 0 else -tol1))
        fu = func(u)
        if not np.isfinite(fu):
            fu = 2.0 * _BIG  # R: "non-finite value; using BIG value"
        if fu <= fx:
            if u >= x:
                a = x
            else:
                b = x
            v, fv, w, fw, x, fx = w, fw, x, fx, u, fu
        else:
            if u < x:
                a = u
            else:
                b = u
            if fu <= fw or w == x:
                v, fv, w, fw = w, fw, u, fu
            elif fu <= fv or v == x or v == w:
                v, fv = u, fu
    return float(x), float(fx), float(u)
