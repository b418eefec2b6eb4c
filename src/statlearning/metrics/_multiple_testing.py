"""Adjusted p-values for multiple comparisons, as R's ``p.adjust``."""

from __future__ import annotations

import numpy as np

__all__ = ["P_ADJUST_METHODS", "p_adjust"]

#: The methods of :func:`p_adjust` (R's names, ``"fdr"`` being R's alias of ``"BH"``).
P_ADJUST_METHODS = ("holm", "hochberg", "hommel", "bonferroni", "BH", "BY", "fdr", "none")


def p_adjust(p, method="holm", n=None):
    """Adjust p-values for multiple comparisons, exactly as R's ``p.adjust``.

    Parameters
    ----------
    p : array-like of float
        p-values in [0, 1]; NaN marks a missing value and stays NaN in the result. Any shape:
        the adjustment treats the values as one family, and the result keeps the shape.
    method : {"holm", "hochberg", "hommel", "bonferroni", "BH", "BY", "fdr", "none"}, \
default="holm"
        R's methods and R's default. ``"fdr"`` is R's alias of ``"BH"``.
    n : int or None, default=None
        The number of comparisons; None means the number of non-missing p-values (R's default
        ``n = length(p)`` after dropping the NAs). It may exceed that number (the other tests'
        p-values are then taken as unknown), never be below it.

    Returns
    -------
    ndarray of float
        The adjusted p-values, the shape of ``p``.

    Notes
    -----
    With :math:`p_{(1)} \\le \\dots \\le p_{(m)}` the ordered non-missing p-values and
    :math:`n \\ge m` the number of comparisons:

    * Bonferroni: :math:`\\min(1, n p_i)`.
    * Holm (step-down): :math:`\\tilde p_{(i)} = \\min\\{1, \\max_{j \\le i} (n - j + 1)
      p_{(j)}\\}`.
    * Hochberg (step-up): :math:`\\tilde p_{(i)} = \\min\\{1, \\min_{j \\ge i} (n - j + 1)
      p_{(j)}\\}`.
    * Benjamini–Hochberg (false discovery rate): :math:`\\tilde p_{(i)} = \\min\\{1,
      \\min_{j \\ge i} n p_{(j)} / j\\}`; Benjamini–Yekutieli multiplies by
      :math:`q = \\sum_{k=1}^{n} 1/k` (valid under any dependence).
    * Hommel: the closed-testing procedure based on Simes' test, computed with R's algorithm
      (requires ``n`` equal to the number of non-missing values or pads with ones as R does).

    Hochberg and Hommel control the family-wise error under independence or positive
    dependence; Holm and Bonferroni always. Ties are handled as R does (the adjusted values of
    tied p-values are equal).

    Examples
    --------
    >>> from statlearning.metrics import p_adjust
    >>> p_adjust([0.01, 0.02, 0.03, 0.04, 0.05], method="BH").round(4)
    array([0.05, 0.05, 0.05, 0.05, 0.05])
    >>> p_adjust([0.01, 0.04, float("nan")], method="bonferroni")
    array([0.02, 0.08,  nan])
    """
    if method not in P_ADJUST_METHODS:
        raise ValueError(
            f"method must be one of {', '.join(map(repr, P_ADJUST_METHODS))}; got {method!r}."
        )
    p_in = np.asarray(p, dtype=np.float64)
    flat = p_in.ravel()
    present = ~np.isnan(flat)
    values = flat[present]
    if np.any((values < 0) | (values > 1)):
        raise ValueError("p must hold probabilities in [0, 1] (or NaN for a missing value).")
    m = values.size
    if n is None:
        n = m
    elif isinstance(n, bool) or not float(n).is_integer():
        raise ValueError(f"n must be a whole number of comparisons; got {n!r}.")
    n = int(n)
    if n < m:
        raise ValueError(
            f"n={n} is smaller than the number of non-missing p-values ({m}); n counts the "
            "comparisons, at least those given."
        )
    out = np.full(flat.shape, np.nan)
    if m > 0:
        out[present] = _adjust(values, method, n)
    return out.reshape(p_in.shape)


def _adjust(p: np.ndarray, method: str, n: int) -> np.ndarray:
    m = p.size
    if method == "none" or n <= 1:
        return p.copy()
    if method == "bonferroni":
        return np.minimum(1.0, n * p)
    if method == "holm":
        order = np.argsort(p, kind="stable")
        i = np.arange(1, m + 1)
        adjusted = np.minimum(1.0, np.maximum.accumulate((n - i + 1) * p[order]))
        return _unsort(adjusted, order)
    if method == "hommel":
        if n > 2:
            return _hommel(p, n)
        method = "hochberg"  # as R: Hommel's procedure is Hochberg's for two comparisons
    # the step-up methods walk from the largest p-value down
    order = np.argsort(-p, kind="stable")
    i = np.arange(m, 0, -1)
    if method == "hochberg":
        scaled = (n + 1 - i) * p[order]
    else:  # BH, fdr, BY
        scaled = n / i * p[order]
        if method == "BY":
            scaled = scaled * np.sum(1.0 / np.arange(1, n + 1))
    adjusted = np.minimum(1.0, np.minimum.accumulate(scaled))
    return _unsort(adjusted, order)


def _unsort(sorted_values: np.ndarray, order: np.ndarray) -> np.ndarray:
    out = np.empty_like(sorted_values)
    out[order] = sorted_values
    return out


def _hommel(p: np.ndarray, n: int) -> np.ndarray:
    """R's Hommel algorithm; missing comparisons (n > m) enter as p-values of one, as in R."""
    m = p.size
    full = np.concatenate([p, np.ones(n - m)]) if n > m else p
    order = np.argsort(full, kind="stable")
    ps = full[order]
    i = np.arange(1, n + 1)
    q = np.full(n, np.min(n * ps / i))
    pa = q.copy()
    for k in range(n - 1, 1, -1):
        head = n - k + 1  # positions 1 .. n-k+1 (R's i1)
        q1 = np.min(k * ps[head:] / np.arange(2, k + 1))
        q[:head] = np.minimum(k * ps[:head], q1)
        q[head:] = q[head - 1]
        pa = np.maximum(pa, q)
    adjusted = _unsort(np.maximum(pa, ps), order)
    return adjusted[:m]
