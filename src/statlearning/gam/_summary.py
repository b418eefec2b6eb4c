"""``summary()`` of an additive model, as mgcv's ``summary.gam``.

Parametric coefficients: Wald tests with the Bayesian covariance ``Vp`` (t on the residual
degrees of freedom ``n − Σ edf`` when the scale is estimated, z otherwise). Smooth terms:
Wood's (2013) test of ``f_j = 0`` as mgcv 1.8's ``testStat(type = 0)``: with ``R_j`` the
triangular factor of the term's columns of the weighted model matrix's QR factor and ``V =
R_j Vp_j R_jᵀ``, the statistic is ``T = β̂ᵀR_jᵀ V^{r-} R_j β̂`` where the rank-``r`` pseudo
inverse ``V^{r-}`` has ``r`` the term's alternative edf ``tr(2F − F²)`` (its fractional part
handled by Wood's 2 × 2 block, averaged over the two signs). Its reference is a weighted sum
of χ²₁ variables (scale known), or that sum against ``χ²_k/k`` with ``k`` the rounded
residual degrees of freedom (scale estimated; printed as ``F = T/r``). mgcv evaluates these
tail probabilities with Davies' algorithm (accuracy 2e-5); here the χ² part is exact and
the rest is integrated by Gauss quadrature (see ``_mixture_sf``), agreeing with mgcv's
p-values to about 1e-5. ``Ref.df`` is ``r``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg
from scipy import stats as _stats

from .._core.linalg import symmetric_eigh
from ..inference import Summary
from ..inference._format import format_pval, format_real, render_table, signif_stars

__all__ = ["GAMSummary", "smooth_test"]


_HERMITE = np.polynomial.hermite_e.hermegauss(96)
_LEGENDRE = np.polynomial.legendre.leggauss(64)


def _mixture_sf(x, val, k0=None):
    """``P(Σ_j val_j χ²_1 > x · χ²_{k0}/k0)`` (``k0=None``: ``> x``).

    In mgcv's reference distributions every weight but the last two is 1, so the sum is
    ``χ²_m + c₁Z₁² + c₂Z₂²``: the χ²_m tail is exact and the two normal variables are
    integrated by Gauss–Hermite quadrature (one of them exactly when ``m = 0``); the
    ``χ²_{k0}/k0`` denominator by Gauss–Legendre quadrature over its probability scale.
    """
    val = np.asarray(val, float)
    if k0 is None:
        scale = np.array([1.0])
        wk = np.array([1.0])
    else:
        u, wk = _LEGENDRE
        scale = _stats.chi2.ppf((u + 1) / 2, k0) / k0
        wk = wk / 2
    t, wt = _HERMITE
    wt = wt / np.sqrt(2 * np.pi)
    y = x * scale  # one threshold per node of the denominator
    if val.size == 1:
        p = _stats.chi2.sf(y / val[0], 1)
    elif val.size == 2:
        c1, c2 = max(val), min(val)
        z = (y[:, None] - c2 * t[None, :] ** 2) / c1
        p = _stats.chi2.sf(z, 1) @ wt
    else:
        m = val.size - 2
        c1, c2 = val[-2], val[-1]
        z = y[:, None, None] - c1 * t[None, :, None] ** 2 - c2 * t[None, None, :] ** 2
        p = np.einsum("kij,i,j->k", _stats.chi2.sf(z, m), wt, wt)
    return float(np.clip(np.sum(wk * p), 0.0, 1.0))


def smooth_test(beta, R, V, rank, res_df):
    """mgcv's ``testStat(p, X, V, rank, type = 0, res.df)``: ``(stat, p-value, rank)``.

    ``R`` is the term's columns of the model's triangular factor (any matrix ``X`` with
    ``XᵀX`` the term's block of ``XᵀWX``); ``res_df <= 0`` means a known scale.
    """
    Rx = linalg.qr(R, mode="r")[0][: R.shape[1]]
    Vt = Rx @ V @ Rx.T
    Vt = (Vt + Vt.T) / 2
    ev, vec = symmetric_eigh(Vt, driver="evd")
    order = np.argsort(ev)[::-1]
    ev, vec = ev[order], vec[:, order]
    siv = np.sign(vec[0])
    siv[siv == 0] = 1
    vec = vec * siv
    k = max(0, int(np.floor(rank)))
    nu = abs(rank - k)
    k1 = k + 1 if nu > 0 else k
    r_est = int(np.sum(ev > ev.max() * np.finfo(float).eps ** 0.9))
    if r_est < k1:
        k1 = k = r_est
        nu = 0.0
        rank = float(r_est)
    vec = vec[:, :k1].copy()
    if nu > 0 and k > 0:
        if k > 1:
            vec[:, : k - 1] = vec[:, : k - 1] / np.sqrt(ev[: k - 1])
        b12 = np.sqrt(max(0.5 * nu * (1 - nu), 0.0))
        B = np.array([[1.0, b12], [b12, nu]])
        evm = np.diag(ev[k - 1 : k1] ** -0.5)
        B = evm @ B @ evm
        eb_val, eb_vec = symmetric_eigh(B, driver="evd")
        rB = eb_vec @ np.diag(np.sqrt(eb_val)) @ eb_vec.T
        vec1 = vec.copy()
        vec1[:, k - 1 : k1] = (rB @ np.diag([-1.0, 1.0]) @ vec[:, k - 1 : k1].T).T
        vec[:, k - 1 : k1] = (rB @ vec[:, k - 1 : k1].T).T
    else:
        vec = vec / np.sqrt(ev[0]) if k == 0 else vec / np.sqrt(ev[:k])
        vec1 = vec
        if k == 1:
            rank = 1.0
    Rp = Rx @ beta
    d = float(np.sum((vec.T @ Rp) ** 2))
    d1 = float(np.sum((vec1.T @ Rp) ** 2))
    rank1 = rank
    pval = 2.0
    if nu > 0:
        if k1 == 1:
            rank1 = 1.0
            val = np.array([1.0])
        else:
            val = np.ones(k1)
            rp = nu + 1
            val[k - 1] = (rp + np.sqrt(rp * (2 - rp))) / 2
            val[k1 - 1] = rp - val[k - 1]
        k0 = None if res_df <= 0 else max(1, round(res_df))
        pval = (_mixture_sf(d, val, k0) + _mixture_sf(d1, val, k0)) / 2
    if pval > 1:
        if res_df <= 0:
            pval = (_stats.chi2.sf(d, rank1) + _stats.chi2.sf(d1, rank1)) / 2
        else:
            pval = (
                _stats.f.sf(d / rank1, rank1, res_df) + _stats.f.sf(d1 / rank1, rank1, res_df)
            ) / 2
    return d, float(min(1.0, pval)), float(rank)


@dataclass
class GAMSummary(Summary):
    """:class:`~statlearning.inference.Summary` with mgcv's smooth-term table.

    ``smooth_table`` maps the column names ``edf, Ref.df, F`` (or ``Chi.sq``), ``p-value``
    to arrays, one row per smooth term (``smooth_names``).
    """

    smooth_names: list | None = None
    smooth_table: dict | None = None
    family_text: str = ""

    def to_text(self) -> str:
        """Return the summary as mgcv's ``print.summary.gam`` lays it out.

        Returns
        -------
        str
            Family, link, formula, the parametric coefficient table, the smooth-term table
            and the footer (R-sq.(adj), deviance explained, criterion, scale, n).
        """
        out = [self.family_text, "", "Formula:", self.formula, ""]
        out += ["Parametric coefficients:", self.coef_table.to_text(), ""]
        if self.smooth_names:
            t = self.smooth_table
            cols = list(t)
            rows = []
            pv = t["p-value"]
            stars = signif_stars(pv)
            for i, _ in enumerate(self.smooth_names):
                row = [format_real([t[c][i]], 4)[0].strip() for c in cols[:-1]]
                row.append(format_pval([pv[i]], 3)[0].strip())
                row.append(stars[i])
                rows.append(row)
            out.append("Approximate significance of smooth terms:")
            out.append(render_table([*cols, ""], rows, list(self.smooth_names)))
            out.append("---")
            out.append("Signif. codes:  0 '***' 0.001 '**' 0.01 '*' 0.05 '.' 0.1 ' ' 1")
            out.append("")
        s = self.stats
        line = ""
        if s.get("adj_r_squared") is not None and np.isfinite(s["adj_r_squared"]):
            line = f"R-sq.(adj) = {format_real([s['adj_r_squared']], 3)[0].strip()}   "
        line += f"Deviance explained = {100 * s['deviance_explained']:.3g}%"
        out.append(line)
        crit = s["criterion"]
        out.append(
            f"{crit} = {format_real([s['score']], 5)[0].strip()}  Scale est. = "
            f"{format_real([s['dispersion']], 5)[0].strip()}   n = {s['n_obs']}"
        )
        if self.notes:
            out += ["", *[f"Note: {n}" for n in self.notes]]
        return "\n".join(out)
