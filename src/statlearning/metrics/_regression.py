"""Regression error measures the notes define and scikit-learn lacks: NMSE, NMAE, MAPE, RMSLE."""

from __future__ import annotations

import numpy as np


def _check_pair(y_true, y_pred) -> tuple[np.ndarray, np.ndarray]:
    y_true = np.asarray(y_true, dtype=np.float64)
    y_pred = np.asarray(y_pred, dtype=np.float64)
    if y_true.ndim != 1 or y_pred.ndim != 1:
        raise ValueError(
            f"y_true and y_pred must be 1-D; got shapes {y_true.shape} and {y_pred.shape}"
        )
    if y_true.shape != y_pred.shape:
        raise ValueError(
            f"y_true and y_pred have different lengths: {y_true.shape[0]} and {y_pred.shape[0]}"
        )
    if y_true.size == 0:
        raise ValueError("y_true is empty")
    for name, v in (("y_true", y_true), ("y_pred", y_pred)):
        if not np.all(np.isfinite(v)):
            raise ValueError(f"{name} contains NaN or infinity")
    return y_true, y_pred


def nmse(y_true, y_pred) -> float:
    """Normalised mean squared error ``Σ (yᵢ − ŷᵢ)² / Σ (yᵢ − ȳ)²``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Observed and predicted responses (finite).

    Returns
    -------
    float
        ``1 − R²``: 0 for a perfect fit, 1 for the constant predictor ``ȳ``.

    Notes
    -----
    Seed 004 §1.2: :math:`\\mathrm{NMSE} = \\sum_i e_i^2 / \\sum_i (y_i - \\bar y)^2`. A constant
    ``y_true`` has no spread to normalise by: ``ValueError``.
    """
    y_true, y_pred = _check_pair(y_true, y_pred)
    denom = np.sum((y_true - y_true.mean()) ** 2)
    if denom == 0:
        raise ValueError("nmse is undefined when y_true is constant (zero total sum of squares)")
    return float(np.sum((y_true - y_pred) ** 2) / denom)


def nmae(y_true, y_pred) -> float:
    """Normalised mean absolute error ``Σ |yᵢ − ŷᵢ| / Σ |yᵢ − ȳ|`` (seed 004 §1.2).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Observed and predicted responses (finite).

    Returns
    -------
    float
        0 for a perfect fit, 1 for the constant predictor ``ȳ``.

    Notes
    -----
    :math:`\\mathrm{NMAE} = \\sum_i |e_i| / \\sum_i |y_i - \\bar y|` (the mean, not the median, in
    the denominator, as the notes write it). Constant ``y_true``: ``ValueError``.
    """
    y_true, y_pred = _check_pair(y_true, y_pred)
    denom = np.sum(np.abs(y_true - y_true.mean()))
    if denom == 0:
        raise ValueError(
            "nmae is undefined when y_true is constant (zero total absolute deviation)"
        )
    return float(np.sum(np.abs(y_true - y_pred)) / denom)


def mape(y_true, y_pred) -> float:
    """Mean absolute percentage error as the notes define it: ``(1/N) Σ |yᵢ − ŷᵢ| / yᵢ``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Observed and predicted responses (finite).

    Returns
    -------
    float
        A fraction (no ×100).

    Notes
    -----
    Seed 004 §1.2 writes :math:`\\mathrm{MAPE} = \\frac1N \\sum_i |e_i| / y_i` with **no absolute
    value on** :math:`y_i` **and no factor 100**; this function follows it, so a negative
    ``y_true`` contributes a negative term (the measure is meant for positive responses).
    scikit-learn's ``mean_absolute_percentage_error`` divides by ``max(|yᵢ|, eps)`` instead;
    the two agree when every ``yᵢ > 0``. A zero in ``y_true`` raises ``ValueError`` rather than
    returning infinity.
    """
    y_true, y_pred = _check_pair(y_true, y_pred)
    zero = np.flatnonzero(y_true == 0)
    if zero.size:
        raise ValueError(
            f"mape divides by y_true, which is zero at {zero.size} position(s) "
            f"(first index {zero[0]})"
        )
    return float(np.mean(np.abs(y_true - y_pred) / y_true))


def rmsle(y_true, y_pred) -> float:
    """Root mean squared logarithmic error ``sqrt(mean((log(1 + ŷ) − log(1 + y))²))``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Observed and predicted responses (finite); every value must exceed −1.

    Returns
    -------
    float
        Non-negative; 0 for a perfect fit.

    Notes
    -----
    :math:`\\sqrt{\\frac1n \\sum_i (\\log(1 + \\hat y_i) - \\log(1 + y_i))^2}`. Seed 001 (l. 2688)
    prints it without the ``1/n`` and the ``+1``; this is the standard form (scikit-learn's
    ``root_mean_squared_log_error``). Values ``≤ −1`` raise ``ValueError``.
    """
    y_true, y_pred = _check_pair(y_true, y_pred)
    for name, v in (("y_true", y_true), ("y_pred", y_pred)):
        bad = np.flatnonzero(v <= -1)
        if bad.size:
            raise ValueError(
                f"rmsle needs {name} > -1 (log(1 + y)); {bad.size} value(s) are <= -1 "
                f"(first index {bad[0]}: {v[bad[0]]!r})"
            )
    return float(np.sqrt(np.mean((np.log1p(y_pred) - np.log1p(y_true)) ** 2)))


def explained_variance_r2(y_true, y_pred) -> float:
    """The explained-variance form of R²: ``Σ (ŷᵢ − ȳ)² / Σ (yᵢ − ȳ)²``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Observed and fitted responses (finite).

    Returns
    -------
    float
        The ratio of the fitted values' sum of squares about ``ȳ`` to the total sum of squares.

    Notes
    -----
    Seed 001 (7.6): :math:`R^2 = \\sum_i (f(x_i) - \\bar y)^2 / \\sum_i (y_i - \\bar y)^2`.
    It equals the general
    :math:`R^2 = 1 - \\sum_i (y_i - f(x_i))^2 / \\sum_i (y_i - \\bar y)^2` (7.5,
    scikit-learn's ``r2_score``) only for least-squares fits with an intercept on their own
    training data, where it lies in [0, 1]; for any other prediction it can exceed 1 and says
    nothing about fit quality, which is why (7.5) is the R² of the package's scorers. It is not
    scikit-learn's ``explained_variance_score`` (``1 − Var(y − ŷ)/Var(y)``). Constant ``y_true``:
    ``ValueError``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.metrics import explained_variance_r2
    >>> y = np.array([1.0, 2.0, 4.0, 3.0])
    >>> round(explained_variance_r2(y, np.array([1.2, 2.1, 3.5, 3.2])), 6)
    0.668
    """
    y_true, y_pred = _check_pair(y_true, y_pred)
    ybar = y_true.mean()
    denom = np.sum((y_true - ybar) ** 2)
    if denom == 0:
        raise ValueError(
            "explained_variance_r2 is undefined when y_true is constant (zero total sum of squares)"
        )
    return float(np.sum((y_pred - ybar) ** 2) / denom)
