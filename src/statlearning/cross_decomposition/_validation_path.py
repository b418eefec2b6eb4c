"""Cross-validated RMSEP of a path of component models, as R's ``pls`` (``validation="CV"``).

Both :class:`PLSRegression` and :class:`PCRegression` fit, on each training segment, the whole
path of models with ``0, 1, …, M`` components at once (they are nested), predict every row of
the data with each, and accumulate ``pls``'s quantities (``mvrCv``, ``MSEP.mvr``):

* ``PRESS_a`` = the sum over the held-out rows of the squared prediction errors;
  ``PRESS_0`` is ``pls``'s ``var(y) n² / (n − 1)`` (the leave-one-out PRESS of the mean,
  whatever the segments);
* ``RMSEP_CV(a) = √(PRESS_a / n)``;
* ``adjCV(a) = √(MSEP_CV(a) + MSEP_train(a) − Σ_k n_k·SSE_k(a) / n²)`` for ``a ≥ 1`` (Mevik &
  Cederkvist's bias-corrected estimate; ``SSE_k`` is the squared error of segment ``k``'s model
  on all ``n`` rows) and ``adjCV(0) = RMSEP_CV(0)``.

The number of components is chosen by :func:`statlearning._core.selection.select_index` from
the pooled ``MSEP_CV`` (averaged over the responses) with the standard error of the mean of the
per-segment mean squared errors (``sd / √K``, the package's convention); ``pls``'s
``selectNcomp(method="onesigma")`` uses instead the spread of the per-row errors.
"""

from __future__ import annotations

import numpy as np
from sklearn.model_selection import check_cv

from .._core.selection import select_index

__all__ = ["cross_validate_path"]


def _segments(cv, X):
    folds = list(check_cv(cv).split(X))
    if len(folds) < 2:
        raise ValueError(f"cv: at least 2 segments are needed; got {len(folds)}.")
    return folds


def max_components_cv(cv, X, n_max: int) -> tuple[list, int]:
    """The segments and ``pls``'s cap ``min(n_max, n − longest segment − 1)``."""
    folds = _segments(cv, X)
    n = X.shape[0]
    k = min(n_max, n - max(len(test) for _, test in folds) - 1)
    if k < 1:
        raise ValueError(
            f"cv: the training segments of {n} samples leave no room for a component "
            "(pls caps the number of components at n_samples − longest segment − 1)."
        )
    return folds, k


def cross_validate_path(fit_path, X, Y, folds, k, full_coefs, full_intercepts, *, rule="min"):
    """``pls``'s CV statistics for 0…k components and the chosen number.

    Parameters
    ----------
    fit_path : callable
        ``fit_path(X_train, Y_train, k) -> (coefs (k, p, m), intercepts (k, m))`` on raw data.
    X, Y : ndarray of shape (n, p) and (n, m)
    folds : list of (train, test) index arrays
    k : int
        Largest number of components.
    full_coefs, full_intercepts : ndarray
        The path fitted on all rows (for ``MSEP_train`` of ``adjCV``).
    rule : {"min", "1se"}

    Returns
    -------
    validation : dict
        ``"n_components"`` (0…k), ``"RMSEP"`` and ``"adjCV"`` (``(m, k + 1)``), ``"MSEP"``
        (pooled, averaged over responses, ``(k + 1,)``), ``"MSEP_se"`` (the standard error of
        the mean of the segments' MSEs), ``"n_segments"``.
    best : int
        The chosen number of components.
    """
    n, m = Y.shape
    press = np.zeros((m, k + 1))
    adj = np.zeros((m, k))
    fold_mse = np.zeros((len(folds), k + 1))
    for f, (train, test) in enumerate(folds):
        coefs, intercepts = fit_path(X[train], Y[train], k)
        err0 = (Y[test] - Y[train].mean(axis=0)) ** 2
        fold_mse[f, 0] = err0.mean()
        for a in range(k):
            err = (X @ coefs[a] + intercepts[a] - Y) ** 2
            press[:, a + 1] += err[test].sum(axis=0)
            adj[:, a] += len(test) * err.sum(axis=0)
            fold_mse[f, a + 1] = err[test].mean()
    press[:, 0] = Y.var(axis=0, ddof=1) * n**2 / (n - 1)
    msep_cv = press / n
    msep_train = np.empty((m, k + 1))
    msep_train[:, 0] = Y.var(axis=0)
    for a in range(k):
        msep_train[:, a + 1] = ((X @ full_coefs[a] + full_intercepts[a] - Y) ** 2).mean(axis=0)
    adj_msep = msep_cv.copy()
    adj_msep[:, 1:] += msep_train[:, 1:] - adj / n**2
    pooled = msep_cv.mean(axis=0)
    se = fold_mse.std(axis=0, ddof=1) / np.sqrt(len(folds))
    best = select_index(pooled, se, rule=rule)
    validation = {
        "n_components": np.arange(k + 1),
        "RMSEP": np.sqrt(msep_cv),
        "adjCV": np.sqrt(np.clip(adj_msep, 0.0, None)),
        "MSEP": pooled,
        "MSEP_se": se,
        "n_segments": len(folds),
    }
    return validation, best
