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
