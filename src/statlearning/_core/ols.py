"""Fit statistics of a (weighted) least-squares fit, with R's conventions.

With prior weights ``w`` (R's ``weights``), residuals ``r = y − ŷ`` and ``n`` the number of
observations with ``w > 0`` (R drops zero-weight rows from every count):

* ``RSS = Σ w r²``, ``σ̂² = RSS / (n − rank)``;
* with an intercept ``MSS = Σ w (ŷ − ȳ_w)²``, without one ``MSS = Σ w ŷ²`` (uncentred, as R);
* ``R² = MSS / (MSS + RSS)``, ``R²_adj = 1 − (1 − R²)(n − i)/(n − rank)`` with ``i = 1`` when an
  intercept is fitted;
* ``F = (MSS / (rank − i)) / σ̂²`` on ``(rank − i, n − rank)`` degrees of freedom;
* ``log L = ½ (Σ log w − n (log 2π + 1 − log n + log RSS))`` (R's ``logLik.lm``), with
  ``rank + 1`` parameters (the variance counts): ``AIC = −2 log L + 2(rank + 1)``,
  ``BIC = −2 log L + log(n)(rank + 1)``.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .linalg import augmented_design, triangular_factor_in_place


def ols_statistics(residuals, fitted, sample_weight, rank: int, fit_intercept: bool) -> dict:
    """Fit statistics from residuals and fitted values (see the module docstring).

    Returns
    -------
    dict
        ``n_obs, df_model, df_resid, rss, sigma, r_squared, adj_r_squared, f_statistic,
        f_pvalue, loglik, loglik_df, aic, bic, deviance, residual_quantiles``.
        Quantities that are undefined (no residual degrees of freedom, no regressor besides
        the intercept) are ``NaN``.
    """
    r = np.asarray(residuals, dtype=np.float64)
    f = np.asarray(fitted, dtype=np.float64)
    if sample_weight is None:
        w = None
        n = r.size
        rss = float(r @ r)
        wr = r
    else:
        pos = sample_weight > 0
        w, r, f = sample_weight[pos], r[pos], f[pos]
        n = r.size
        wr = np.sqrt(w) * r
        rss = float(wr @ wr)
    if fit_intercept:
        fbar = f.mean() if w is None else float(w @ f) / w.sum()
        dev = f - fbar
        mss = float(dev @ dev) if w is None else float(w @ (dev * dev))
    else:
        mss = float(f @ f) if w is None else float(w @ (f * f))
    sum_log_w = 0.0 if w is None else float(np.log(w).sum())
    quantiles = np.quantile(wr, [0.0, 0.25, 0.5, 0.75, 1.0]) if n else None
    return ols_statistics_from_sums(n, rss, mss, sum_log_w, rank, fit_intercept, quantiles)


def ols_statistics_from_sums(
    n: int,
    rss: float,
    mss: float,
    sum_log_w: float,
    rank: int,
    fit_intercept: bool,
    residual_quantiles=None,
) -> dict:
    """:func:`ols_statistics` from its sufficient statistics (for data held in blocks).

    Parameters
    ----------
    n : int
        Observations with positive weight.
    rss : float
        ``Σ w r²``.
    mss : float
        ``Σ w (ŷ − ȳ_w)²`` with an intercept, ``Σ w ŷ²`` without one.
    sum_log_w : float
        ``Σ log w`` over the positive weights (0 without weights).
    rank : int
    fit_intercept : bool
    residual_quantiles : ndarray of shape (5,), optional
        Minimum, quartiles and maximum of the weighted residuals ``√w r``.

    Returns
    -------
    dict
        As :func:`ols_statistics`.
    """
    i = 1 if fit_intercept else 0
    df_resid = n - rank
    df_model = rank - i
    nan = float("nan")
    with np.errstate(divide="ignore", invalid="ignore"):
        # float64, not Python floats: an exact fit (rss = 0) gives F = inf as R does
        sigma2 = np.float64(rss) / df_resid if df_resid > 0 else nan
        total = mss + rss
        r2 = mss / total if (df_model > 0 and total > 0) else nan
        adj = 1.0 - (1.0 - r2) * (n - i) / df_resid if df_resid > 0 else nan
        fstat = (mss / df_model) / sigma2 if df_model > 0 and df_resid > 0 else nan
    # special.fdtrc is stats.f.sf without its argument handling (about 40 µs a call)
    f_p = float(special.fdtrc(df_model, df_resid, fstat)) if not np.isnan(fstat) else nan
    with np.errstate(divide="ignore"):
        loglik = 0.5 * (sum_log_w - n * (np.log(2 * np.pi) + 1.0 - np.log(n) + np.log(rss)))
    k = rank + 1
    return {
        "n_obs": n,
        "df_model": df_model,
        "df_resid": df_resid,
        "rss": rss,
        "sigma": float(np.sqrt(sigma2)),
        "r_squared": float(r2),
        "adj_r_squared": float(adj),
        "f_statistic": float(fstat),
        "f_pvalue": f_p,
        "loglik": float(loglik),
        "loglik_df": k,
        "aic": float(-2.0 * loglik + 2.0 * k),
        "bic": float(-2.0 * loglik + np.log(n) * k),
        "deviance": rss,
        "residual_quantiles": residual_quantiles,
    }


# ----------------------------------------------------------------------------------------------
# The same statistics from blocks of rows (data that do not fit in memory): every block gives a
# small summary, and summaries merge associatively, so the blocks may be reduced in any tree.


def block_r_factor(X, y, sqrt_w, fit_intercept: bool) -> np.ndarray:
    """The triangular factor of the QR decomposition of one block's ``[A | y]``.

    The factors of two blocks merge by :func:`merge_r_factors`; the merged factor ``R`` of all
    rows has the column norms and inner products of ``[A | y]`` itself, so R's aliasing rule
    and the least-squares solution computed from ``R`` are those of the full design (TSQR).
    """
    return triangular_factor_in_place(augmented_design(X, y, sqrt_w, fit_intercept))


def merge_r_factors(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The triangular factor of two stacked blocks from theirs."""
    return np.linalg.qr(np.vstack([a, b]), mode="r")


def merge_moments(a, b):
    """Merge ``(W, mean, M2)`` summaries of weighted values (Chan et al.'s pairwise update).

    ``W = Σ w``, ``mean = Σ w v / W`` and ``M2 = Σ w (v − mean)²``: merging adds the
    between-part term ``δ² W_a W_b / W`` instead of subtracting large sums, so no digits cancel.
    """
    wa, ma, sa = a
    wb, mb, sb = b
    w = wa + wb
    if wa == 0 or wb == 0:
        return (w, ma if wb == 0 else mb, sa + sb)
    delta = mb - ma
    return (w, ma + delta * wb / w, sa + sb + delta * delta * wa * wb / w)


def _moments(values, weights=None):
    if values.size == 0:
        return (0.0, 0.0, 0.0)
    total = float(values.size if weights is None else weights.sum())
    mean = float(values.mean() if weights is None else weights @ values / total)
    dev = values - mean
    return (total, mean, float(dev @ dev if weights is None else weights @ (dev * dev)))


def block_fit_sums(X, y, w, coef, intercept: float) -> dict:
    """One block's share of :func:`ols_statistics_from_sums` (merge by :func:`merge_fit_sums`).

    ``coef`` has zeros at aliased columns. Returns the count, ``Σ w r²``, ``Σ w ŷ²``, ``Σ log w``
    and the weighted moments of ŷ over positive-weight rows, the unweighted moments of ŷ over
    every row (the perfect-fit check), the extreme weighted residuals and positive weights.
    """
    f = X @ coef + intercept
    r = y - f
    fa = f
    if w is not None:
        pos = w > 0
        w, r, f = w[pos], r[pos], f[pos]
        wr = np.sqrt(w) * r
    else:
        wr = r
    return {
        "n": wr.size,
        "rss": float(wr @ wr),
        "ssf": float(f @ f) if w is None else float(w @ (f * f)),
        "sum_log_w": 0.0 if w is None else float(np.log(w).sum()),
        "fitted_w": _moments(f, w),
        "fitted_all": _moments(fa),
        "wr_min": float(wr.min()) if wr.size else np.inf,
        "wr_max": float(wr.max()) if wr.size else -np.inf,
        "w_min": float(w.min()) if w is not None and w.size else np.inf,
        "w_max": float(w.max()) if w is not None and w.size else -np.inf,
    }


def merge_fit_sums(a: dict, b: dict) -> dict:
    """Merge two :func:`block_fit_sums` summaries."""
    out = {k: a[k] + b[k] for k in ("n", "rss", "ssf", "sum_log_w")}
    out["fitted_w"] = merge_moments(a["fitted_w"], b["fitted_w"])
    out["fitted_all"] = merge_moments(a["fitted_all"], b["fitted_all"])
    for k in ("wr_min", "w_min"):
        out[k] = min(a[k], b[k])
    for k in ("wr_max", "w_max"):
        out[k] = max(a[k], b[k])
    return out


def block_weighted_residuals(X, y, w, coef, intercept: float) -> np.ndarray:
    """``√w (y − ŷ)`` of one block's positive-weight rows (the residuals R's summary shows)."""
    r = y - (X @ coef + intercept)
    if w is None:
        return r
    pos = w > 0
    return np.sqrt(w[pos]) * r[pos]
