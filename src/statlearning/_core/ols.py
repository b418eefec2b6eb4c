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
from scipy import stats


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
    i = 1 if fit_intercept else 0
    if fit_intercept:
        fbar = f.mean() if w is None else float(w @ f) / w.sum()
        dev = f - fbar
        mss = float(dev @ dev) if w is None else float(w @ (dev * dev))
    else:
        mss = float(f @ f) if w is None else float(w @ (f * f))
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
    f_p = float(stats.f.sf(fstat, df_model, df_resid)) if not np.isnan(fstat) else nan
    sum_log_w = 0.0 if w is None else float(np.log(w).sum())
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
        "residual_quantiles": np.quantile(wr, [0.0, 0.25, 0.5, 0.75, 1.0]) if n else None,
    }
