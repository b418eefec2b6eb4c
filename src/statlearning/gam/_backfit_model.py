"""``method="backfitting"`` of the GAM estimators: R gam's local scoring behind the estimator.

The terms (``ss``, ``lo``, ``l``, ``f``) become the specs of
:func:`~statlearning.gam._backfitting.local_scoring`; the fitted model keeps only what
prediction needs (knots, coefficients, loess vertices) and the numbers of ``summary(gam)``:
the sequential "Anova for Parametric Effects" (``anova.lm`` on the final weighted linear fit:
sums of squares of the QR effects per term against the working residual mean square) and
the "Anova for Nonparametric Effects" (gam's ``nl.chisq`` over the dispersion: an F test on
``nl.df`` and the residual degrees of freedom when the dispersion is estimated, χ² when it is
known, binomial and Poisson).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

import numpy as np
from scipy import stats

from ..exceptions import NumericalWarning
from ..inference import Summary
from ..inference._format import format_pval, format_real, render_table, signif_stars
from ._backfitting import local_scoring
from ._terms import FactorTerm, LinearTerm, LoessTerm, SmoothingSplineTerm

__all__ = [
    "BackfitSummary",
    "backfit_summary",
    "fit_backfitting",
    "term_name",
    "warn_separation",
]

_R_FAMILY = {"gaussian": "gaussian", "binomial": "binomial", "poisson": "poisson", "gamma": "Gamma"}


def term_name(t, names) -> str:
    """The term as R's gam formula writes it: ``s(x1, 4)``, ``lo(x1, span = 0.5)``, ``x2``,
    ``factor(g)``."""
    nm = names[t.j]
    if isinstance(t, SmoothingSplineTerm):
        return f"s({nm}, {t.df:g})"
    if isinstance(t, LoessTerm):
        deg = "" if t.degree == 1 else f", degree = {t.degree}"
        return f"lo({nm}, span = {t.span:g}{deg})"
    if isinstance(t, FactorTerm):
        return f"factor({nm})"
    return nm


def _spec(t):
    if isinstance(t, SmoothingSplineTerm):
        return ("ss", t.j, float(t.df))
    if isinstance(t, LoessTerm):
        return ("lo", t.j, float(t.span), int(t.degree))
    if isinstance(t, FactorTerm):
        return ("f", t.j)
    return ("l", t.j)


def warn_separation(owner, fam, mu):
    """A :class:`NumericalWarning` when a binomial fit has probabilities numerically 0 or 1."""
    eps = 10 * np.finfo(float).eps
    if fam.name == "binomial" and np.any((mu < eps) | (mu > 1 - eps)):
        warnings.warn(
            f"{owner}: fitted probabilities numerically 0 or 1 occurred (the classes are "
            "separated, at least in part); the fits of the separating terms are not finite "
            "estimates.",
            NumericalWarning,
        )


def fit_backfitting(est, X, y, w, fam, lnk, terms, names):
    """Fit ``terms`` by local scoring and store the fitted attributes on ``est``."""
    owner = type(est).__name__
    bad = [
        t
        for t in terms
        if not isinstance(t, (SmoothingSplineTerm, LoessTerm, LinearTerm, FactorTerm))
    ]
    if bad:
        raise ValueError(
            f"{owner}: method='backfitting' takes ss(), lo(), l() and f() terms; got "
            f"{bad[0]!r} (use method='pirls' for s() and te(); gam's s(x, df) is ss(j, df))."
        )
    for t in terms:
        if isinstance(t, FactorTerm) and not np.all(X[:, t.j] == np.round(X[:, t.j])):
            raise ValueError(
                f"{owner}: f() term on column {names[t.j]!r} needs integer or categorical "
                "values with method='backfitting'."
            )
    try:
        fit = local_scoring(
            X, [_spec(t) for t in terms], y, family=fam, link=lnk, sample_weight=w,
            weighted_start=False,
        )  # fmt: skip
    except ValueError as exc:
        raise ValueError(str(exc).replace("local_scoring:", f"{owner}:", 1)) from None
    n = y.size
    est.family_, est.link_ = fam.name, lnk.name
    est._term_names = [term_name(t, names) for t in terms]
    est.intercept_ = float(fit.intercept)
    est.coef_ = np.concatenate([np.atleast_1d(fit.linear_coef[c]) for c in _columns(terms)])
    est.edf_ = np.asarray(fit.edf, dtype=np.float64)
    est.smoothing_params_ = np.array(
        [t.smoother.lam for t in fit._terms if t.kind == "ss"], dtype=np.float64
    )
    est.deviance_ = float(fit.deviance)
    est.null_deviance_ = float(fit.null_deviance)
    est.deviance_explained_ = (
        (est.null_deviance_ - est.deviance_) / est.null_deviance_
        if est.null_deviance_ > 0
        else float("nan")
    )
    est.df_resid_ = float(fit.df_residual)
    est.n_obs_ = int(n)
    est.n_iter_ = int(fit.n_iter)
    est.gcv_score_ = est.reml_score_ = float("nan")
    est.cov_params_ = None
    rdf = est.df_resid_
    phihat = fit.working_rss / rdf if rdf > 0 else float("inf")
    est.scale_ = 1.0 if fam.dispersion_fixed else float(phihat)
    est.aic_ = float(fam.aic(y, fit.mu, w, fit.deviance, n - rdf))
    warn_separation(owner, fam, fit.mu)
    est._scale_known = bool(fam.dispersion_fixed)
    est._anova = _anova(fit, est, rdf, phihat)
    # prediction needs the smoothers, coefficients and column means only
    est._local = replace(fit, term_fits=None, eta=None, mu=None, working_weights=None, effects=None)
    est._scale_known = bool(fam.dispersion_fixed)
    return est


def _columns(terms):
    seen, out = set(), []
    for t in terms:
        if t.j not in seen:
            seen.add(t.j)
            out.append(t.j)
    return out


def _anova(fit, est, rdf, phihat):
    """The two tables of ``summary(gam::gam)``."""
    k = len(est._term_names)
    kept_terms = fit.assign
    ss = np.array([np.sum(fit.effects[kept_terms == i] ** 2) for i in range(k)])
    df = np.array([np.count_nonzero(kept_terms == i) for i in range(k)], dtype=float)
    ms_res = fit.working_rss / rdf if rdf > 0 else float("nan")
    smooth = [i for i, t in enumerate(fit._terms) if t.smoother is not None]
    chiorf = bool(est._scale_known)
    disp = 1.0 if chiorf else phihat
    nl_df = fit.nl_df[smooth]
    chisq = fit.nl_chisq[smooth] / disp
    if chiorf:
        nonpar = {"Npar Df": nl_df, "Npar Chisq": chisq, "P(Chi)": stats.chi2.sf(chisq, nl_df)}
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            Fn = chisq / nl_df
        pn = stats.f.sf(Fn, nl_df, rdf) if rdf > 0 else np.full(len(smooth), np.nan)
        nonpar = {"Npar Df": nl_df, "Npar F": Fn, "Pr(F)": pn}
    return {
        "ss_df": (ss, df),
        "residual": (rdf, fit.working_rss, ms_res),
        "smooth_rows": smooth,
        "nonpar": nonpar,
    }


def _parametric_table(names, ss, df, residual):
    """``anova.lm``'s rows; consecutive terms of one name (the dummies of a formula's factor)
    are one row, as R's term."""
    rows, groups = [], []
    for i, nm in enumerate(names):
        if rows and rows[-1] == nm:
            groups[-1].append(i)
        else:
            rows.append(nm)
            groups.append([i])
    ss = np.array([ss[g].sum() for g in groups])
    df = np.array([df[g].sum() for g in groups])
    rdf, _, ms_res = residual
    with np.errstate(divide="ignore", invalid="ignore"):
        ms = ss / df
        F = ms / ms_res
    p = stats.f.sf(F, df, rdf) if rdf > 0 else np.full(len(rows), np.nan)
    starts = [g[0] for g in groups]
    return rows, starts, {"Df": df, "Sum Sq": ss, "Mean Sq": ms, "F value": F, "Pr(>F)": p}


def backfit_summary(est):
    """``summary(gam::gam)`` of a backfitted estimator."""
    a = est._anova
    rows, starts, param = _parametric_table(est._term_names, *a["ss_df"], a["residual"])
    stats_ = {
        "n_obs": est.n_obs_,
        "df_resid": est.df_resid_,
        "deviance": est.deviance_,
        "null_deviance": est.null_deviance_,
        "df_null": est.n_obs_ - 1,
        "dispersion": est.scale_,
        "aic": est.aic_,
        "deviance_explained": est.deviance_explained_,
        "n_iter": est.n_iter_,
    }
    return BackfitSummary(
        coef_table=None,
        stats=stats_,
        title="",
        formula=f"{getattr(est, '_target_name', 'y')} ~ " + " + ".join(rows),
        kind="other",
        term_names=rows,
        edf=np.array(
            [est.edf_[i:j].sum() for i, j in zip(starts, [*starts[1:], None], strict=True)]
        ),
        parametric_anova=param,
        residual_row=a["residual"],
        smooth_rows=[starts.index(i) for i in a["smooth_rows"]],
        nonparametric_anova=a["nonpar"],
        family=_R_FAMILY[est.family_],
    )


@dataclass
class BackfitSummary(Summary):
    """:class:`~statlearning.inference.Summary` of a backfitted additive model, laid out as
    ``print(summary(gam::gam))``.

    ``parametric_anova`` maps ``Df, Sum Sq, Mean Sq, F value, Pr(>F)`` to one value per term
    (``residual_row``: residual df, sum of squares and mean square); ``nonparametric_anova``
    maps ``Npar Df`` and ``Npar F, Pr(F)`` (or ``Npar Chisq, P(Chi)``) to one value per
    smoother (``smooth_rows``: their positions in ``term_names``); ``edf`` the degrees of
    freedom per term (linear part plus ``Npar Df``).
    """

    term_names: list | None = None
    edf: np.ndarray | None = None
    parametric_anova: dict | None = None
    residual_row: tuple | None = None
    smooth_rows: list | None = None
    nonparametric_anova: dict | None = None
    family: str = "gaussian"

    def to_text(self) -> str:
        """Return the summary in the layout of R's ``print.summary.Gam``.

        Returns
        -------
        str
            Formula, dispersion, deviances with their degrees of freedom, AIC and the two
            anova tables.
        """
        s = self.stats
        f4 = lambda v: format_real([v], 4)[0].strip()  # noqa: E731
        out = [f"Call: {self.call}" if self.call else f"Formula: {self.formula}", ""]
        out.append(
            f"(Dispersion Parameter for {self.family} family taken to be {f4(s['dispersion'])})"
        )
        out.append("")
        out.append(
            f"    Null Deviance: {f4(s['null_deviance'])} on {s['df_null']:g} degrees of freedom"
        )
        out.append(
            f"Residual Deviance: {f4(s['deviance'])} on {f4(s['df_resid'])} degrees of freedom"
        )
        out.append(f"AIC: {f4(s['aic'])} ")
        out.append("")
        out.append(f"Number of Local Scoring Iterations: {s['n_iter']} ")
        out.append("")
        pa = self.parametric_anova
        rows = []
        stars = signif_stars(pa["Pr(>F)"])
        for i in range(len(self.term_names)):
            rows.append(
                [format_real([pa["Df"][i]], 4)[0].strip()]
                + [format_real([pa[c][i]], 5)[0].strip() for c in ("Sum Sq", "Mean Sq", "F value")]
                + [format_pval([pa["Pr(>F)"][i]], 3)[0].strip(), stars[i]]
            )
        rdf, rss, ms = self.residual_row
        rows.append([format_real([rdf], 4)[0].strip(), f4(rss), f4(ms), "", "", ""])
        out.append("Anova for Parametric Effects")
        out.append(render_table([*pa, ""], rows, [*self.term_names, "Residuals"]))
        if self.smooth_rows:
            na = self.nonparametric_anova
            cols = list(na)
            stars = signif_stars(na[cols[2]])
            rows = [
                [
                    f"{na[cols[0]][i]:.1f}",
                    format_real([na[cols[1]][i]], 4)[0].strip(),
                    format_pval([na[cols[2]][i]], 3)[0].strip(),
                    stars[i],
                ]
                for i in range(len(self.smooth_rows))
            ]
            out += ["", "Anova for Nonparametric Effects"]
            out.append(
                render_table([*cols, ""], rows, [self.term_names[i] for i in self.smooth_rows])
            )
        out.append("---")
        out.append("Signif. codes:  0 '***' 0.001 '**' 0.01 '*' 0.05 '.' 0.1 ' ' 1")
        return "\n".join(out)
