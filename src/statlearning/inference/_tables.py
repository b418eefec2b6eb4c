"""Coefficient tables and model summaries printed like R's ``summary(lm)`` / ``summary(glm)``."""

from __future__ import annotations

import html
from dataclasses import dataclass, field

import numpy as np
from scipy import stats as _stats

from ._format import (
    SIGNIF_LEGEND,
    coef_columns,
    format_c,
    format_g,
    format_pval,
    format_real,
    render_table,
    signif_stars,
    zapsmall,
)

FRAME_COLUMNS = ("estimate", "std_error", "statistic", "p_value", "conf_low", "conf_high")


def _require_pandas():
    try:
        import pandas as pd
    except ImportError:  # pragma: no cover - exercised only without pandas
        raise ImportError(
            "to_frame() needs pandas: pip install pandas (or statlearning[test])"
        ) from None
    return pd


@dataclass
class CoefTable:
    """A table of coefficient estimates with standard errors, tests and confidence intervals.

    Rows follow R's order (``(Intercept)`` first). Aliased coefficients are ``NaN`` throughout.
    Usually built by :meth:`from_estimates`; printed as R's ``printCoefmat``.

    Parameters
    ----------
    names : list of str
        Term names, one per row.
    estimate : ndarray of shape (n_terms,)
        Coefficient estimates (R's ``Estimate``).
    std_error : ndarray of shape (n_terms,)
        Their standard errors (R's ``Std. Error``).
    statistic : ndarray of shape (n_terms,)
        Wald statistics ``estimate / std_error`` (R's ``t value`` or ``z value``).
    p_value : ndarray of shape (n_terms,)
        Two-sided p-values of the statistics under the reference distribution.
    conf_low : ndarray of shape (n_terms,)
        Lower confidence limits at ``level``.
    conf_high : ndarray of shape (n_terms,)
        Upper confidence limits at ``level``.
    statistic_name : {"t value", "z value"}, default="t value"
        ``"t value"`` (t tests with ``df`` degrees of freedom) or ``"z value"`` (standard
        normal reference).
    df : float or None, default=None
        Degrees of freedom of the t reference distribution, ``None`` for z.
    level : float, default=0.95
        Confidence level of ``conf_low``/``conf_high``.
    """

    names: list
    estimate: np.ndarray
    std_error: np.ndarray
    statistic: np.ndarray
    p_value: np.ndarray
    conf_low: np.ndarray
    conf_high: np.ndarray
    statistic_name: str = "t value"
    df: float | None = None
    level: float = 0.95

    @classmethod
    def from_estimates(cls, names, estimate, std_error, *, df=None, level=0.95):
        """Build the table from estimates and standard errors.

        With ``df`` the statistic is Student's t on ``df`` degrees of freedom (R's
        ``summary.lm``), otherwise a standard normal z (R's ``summary.glm`` for known
        dispersion). Intervals use the same reference distribution (R's ``confint.lm``).

        Parameters
        ----------
        names : iterable of str
            Term names, one per coefficient.
        estimate : array-like of shape (n_terms,)
            Coefficient estimates; ``NaN`` marks an aliased coefficient.
        std_error : array-like of shape (n_terms,)
            Standard errors of the estimates.
        df : float, default=None
            Residual degrees of freedom of the t reference distribution; ``None`` uses the
            standard normal.
        level : float, default=0.95
            Confidence level of the intervals ``estimate ± q · std_error``, with ``q`` the
            ``(1 + level) / 2`` quantile of the reference distribution.

        Returns
        -------
        CoefTable
            The table with statistics, two-sided p-values and intervals filled in.
        """
        est = np.asarray(estimate, dtype=np.float64)
        se = np.asarray(std_error, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            stat = est / se
        dist = _stats.norm if df is None else _stats.t(df)
        p = 2.0 * dist.sf(np.abs(stat))
        q = dist.ppf(0.5 + level / 2.0)
        return cls(
            names=list(names),
            estimate=est,
            std_error=se,
            statistic=stat,
            p_value=p,
            conf_low=est - q * se,
            conf_high=est + q * se,
            statistic_name="z value" if df is None else "t value",
            df=None if df is None else float(df),
            level=float(level),
        )

    @property
    def p_name(self) -> str:
        """R's heading of the p-value column: ``"Pr(>|t|)"`` or ``"Pr(>|z|)"``."""
        return "Pr(>|z|)" if self.statistic_name.startswith("z") else "Pr(>|t|)"

    def to_frame(self):
        """Return the table as a pandas DataFrame.

        Returns
        -------
        pandas.DataFrame
            One row per term (index named ``"term"``), with columns ``estimate, std_error,
            statistic, p_value, conf_low, conf_high``; aliased terms are ``NaN``.
        """
        pd = _require_pandas()
        data = {c: getattr(self, c) for c in FRAME_COLUMNS}
        return pd.DataFrame(data, index=pd.Index(self.names, name="term"))

    def __len__(self) -> int:
        return len(self.names)

    def to_text(self, digits: int = 4, signif_legend: bool = True, exact: bool = False) -> str:
        """Return the table as R's ``printCoefmat`` prints it.

        Parameters
        ----------
        digits : int, default=4
            Significant digits of the estimate, standard error and statistic columns (R's
            ``digits``); p-values get ``max(1, min(5, digits - 1))``.
        signif_legend : bool, default=True
            Print the legend of the significance codes below the table. The stars
            themselves are shown whenever a p-value is at most 0.1, whatever this says.
        exact : bool, default=False
            Keep R's trailing spaces (the padding of the stars column), so that the text
            equals R's output character for character; by default lines are stripped.

        Returns
        -------
        str
            The table, rows separated by newlines; aliased terms print as ``NA``.
        """
        est, se, stat = coef_columns(self.estimate, self.std_error, self.statistic, digits)
        dig_tst = max(1, min(5, digits - 1))
        pv = format_pval(self.p_value, dig_tst)
        stars = signif_stars(self.p_value)
        star_w = max((len(s) for s in stars), default=0)
        header = ["Estimate", "Std. Error", self.statistic_name, self.p_name]
        rows = []
        for i in range(len(self.names)):
            row = [est[i], se[i], stat[i], pv[i]]
            if np.isnan(self.estimate[i]):
                row = ["NA"] * 4
            rows.append(row)
        text = render_table(header, rows, self.names).split("\n")
        if star_w:
            text = [text[0] + " " * (star_w + 1)] + [
                line + " " + s.ljust(star_w) for line, s in zip(text[1:], stars, strict=True)
            ]
            text.append("---")
            if signif_legend:
                text.append(SIGNIF_LEGEND)
        return "\n".join(line if exact else line.rstrip() for line in text)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return self.to_text(signif_legend=False)

    def _html_rows(self) -> str:
        cells = []
        for i, name in enumerate(self.names):
            vals = [getattr(self, c)[i] for c in FRAME_COLUMNS]
            tds = "".join(f"<td>{'NA' if np.isnan(v) else f'{v:.6g}'}</td>" for v in vals)
            cells.append(f"<tr><th>{html.escape(str(name))}</th>{tds}</tr>")
        return "".join(cells)

    def _repr_html_(self) -> str:
        pct = f"{100 * self.level:g}%"
        head = "".join(
            f"<th>{h}</th>"
            for h in (
                "",
                "Estimate",
                "Std. Error",
                html.escape(self.statistic_name),
                html.escape(self.p_name),
                f"{pct} low",
                f"{pct} high",
            )
        )
        return (
            '<table class="statlearning-coeftable">'
            f"<thead><tr>{head}</tr></thead><tbody>{self._html_rows()}</tbody></table>"
        )


@dataclass
class Summary:
    """A fitted model's summary: a :class:`CoefTable` and fit statistics, printed like R.

    Built by the estimators' ``summary()``; ``print(summary)`` shows R's ``summary.lm`` /
    ``summary.glm`` layout.

    Parameters
    ----------
    coef_table : CoefTable
        The coefficient table.
    stats : dict
        Fit statistics; keys where they apply: ``n_obs, df_model, df_resid, sigma, r_squared,
        adj_r_squared, f_statistic, f_pvalue, loglik, aic, bic, deviance, null_deviance, df_null,
        dispersion, n_iter``. The printed footer also reads ``loglik_df`` (``kind="lm"``) and
        ``family`` (``kind="glm"``).
    title : str, default=""
        First line of the printed summary (omitted when empty).
    formula : str, default=""
        The model in R's formula notation, e.g. ``"y ~ x0 + x1"`` (omitted when empty).
    residual_quantiles : ndarray of shape (5,) or None, default=None
        Min, 1Q, median, 3Q, max of the (weighted) residuals; ``None`` prints no residual
        block.
    residual_label : str, default="Residuals"
        Heading of the residual block, e.g. ``"Deviance Residuals"``.
    kind : {"lm", "glm", "other"}, default="lm"
        Chooses the footer: R's ``print.summary.lm`` (residual standard error, R², F test),
        ``print.summary.glm`` (dispersion, deviances, AIC, iterations) or one ``key: value``
        line per statistic.
    notes : list of str, default=[]
        Extra lines printed at the end, each prefixed ``Note:`` (warnings such as aliased
        coefficients).
    call : str, default=""
        R's call of the model (``lm(formula = y ~ x, data = data)``, lines broken as R
        breaks them). When given, the summary prints exactly as R's ``print(summary(fit))``
        does, character for character (trailing spaces included): the ``Call:`` block in
        place of the title and formula, R's residual block (``Deviance Residuals:`` as R
        4.2 prints it for ``kind="glm"``) and R's footer without our log-likelihood line
        and notes.
    n_deleted : int, default=0
        Observations removed for missing values; R prints ``(k observations deleted due
        to missingness)`` below the residual standard error or the deviances.
    """

    coef_table: CoefTable
    stats: dict
    title: str = ""
    formula: str = ""
    residual_quantiles: np.ndarray | None = None
    residual_label: str = "Residuals"
    kind: str = "lm"
    notes: list = field(default_factory=list)
    call: str = ""
    n_deleted: int = 0

    def to_frame(self):
        """Return the coefficient table as a pandas DataFrame.

        Returns
        -------
        pandas.DataFrame
            ``coef_table.to_frame()``: one row per term, columns ``estimate, std_error,
            statistic, p_value, conf_low, conf_high``.
        """
        return self.coef_table.to_frame()

    def _footer_lm(self) -> list[str]:
        s = self.stats
        lines = [
            f"Residual standard error: {format_real([s['sigma']], 4)[0]} on "
            f"{s['df_resid']:g} degrees of freedom"
        ]
        if not np.isnan(s.get("r_squared", np.nan)):
            lines.append(
                f"Multiple R-squared:  {format_c(s['r_squared'])},\t"
                f"Adjusted R-squared:  {format_c(s['adj_r_squared'])}"
            )
        if not np.isnan(s.get("f_statistic", np.nan)):
            p = format_pval([s["f_pvalue"]], 4)[0]
            lines.append(
                f"F-statistic: {format_c(s['f_statistic'])} on {s['df_model']:g} and "
                f"{s['df_resid']:g} DF,  p-value: {p}"
            )
        if "loglik" in s:
            lines.append(
                f"Log-likelihood: {format_g(s['loglik'], 6)} (df={s.get('loglik_df', np.nan):g}),"
                f"  AIC: {format_g(s['aic'], 6)},  BIC: {format_g(s['bic'], 6)}"
            )
        return lines

    def _footer_glm(self) -> list[str]:
        """R's ``print.summary.glm`` footer: dispersion, deviances, AIC, iterations.

        Needs the stats ``family`` (R's spelling), ``dispersion``, ``null_deviance``,
        ``df_null``, ``deviance`` and ``df_resid``; ``aic`` and ``n_iter`` are printed when
        present. Without the required keys the generic footer is printed.
        """
        s = self.stats
        required = ("family", "dispersion", "null_deviance", "df_null", "deviance", "df_resid")
        if any(k not in s for k in required):
            return self._footer_generic()
        disp = s["dispersion"]
        disp_text = "NaN" if np.isnan(disp) else format_real([disp], 7)[0].strip()
        devs = format_real([s["null_deviance"], s["deviance"]], 5)
        dfs = [f"{s['df_null']:g}", f"{s['df_resid']:g}"]
        width = max(len(d) for d in dfs)
        dfs = [d.rjust(width) for d in dfs]
        lines = [
            f"(Dispersion parameter for {s['family']} family taken to be {disp_text})",
            "",
            f"    Null deviance: {devs[0]}  on {dfs[0]}  degrees of freedom",
            f"Residual deviance: {devs[1]}  on {dfs[1]}  degrees of freedom",
        ]
        if "aic" in s:
            lines.append(f"AIC: {format_real([s['aic']], 5)[0].strip()}")
        if "n_iter" in s:
            lines += ["", f"Number of Fisher Scoring iterations: {s['n_iter']}"]
        return lines

    def _footer_generic(self) -> list[str]:
        return [
            f"{k}: {format_g(v, 6) if isinstance(v, float) else v}" for k, v in self.stats.items()
        ]

    def to_text(self) -> str:
        """Return the summary as text (what ``print(summary)`` shows).

        Returns
        -------
        str
            Title, formula, residual quantiles, the coefficient table with significance
            stars, the footer chosen by ``kind`` and the notes, separated by newlines.
        """
        if self.call:
            return self._to_text_r()
        out = []
        if self.title:
            out.append(self.title)
        if self.formula:
            out += ["", "Formula:", self.formula]
        if self.residual_quantiles is not None:
            vals = format_real(zapsmall(self.residual_quantiles, 5), 4)  # R: digits + 1
            names = ["Min", "1Q", "Median", "3Q", "Max"]
            w = [max(len(a), len(b)) for a, b in zip(names, vals, strict=True)]
            out += [
                "",
                f"{self.residual_label}:",
                " ".join(n.rjust(k) for n, k in zip(names, w, strict=True)),
                " ".join(v.rjust(k) for v, k in zip(vals, w, strict=True)),
            ]
        n_na = int(np.isnan(self.coef_table.estimate).sum())
        head = "Coefficients:"
        if n_na:
            head += f" ({n_na} not defined because of singularities)"
        out += ["", head, self.coef_table.to_text()]
        out.append("")
        if self.kind == "lm":
            out += self._footer_lm()
        elif self.kind == "glm":
            out += self._footer_glm()
        else:
            out += self._footer_generic()
        if self.notes:
            out.append("")
            out += [f"Note: {n}" for n in self.notes]
        return "\n".join(out)

    def _missing_line(self) -> list[str]:
        if not self.n_deleted:
            return []
        what = "observation" if self.n_deleted == 1 else "observations"
        return [f"  ({self.n_deleted} {what} deleted due to missingness)"]

    def _to_text_r(self) -> str:
        """R's ``print(summary(fit))`` (``print.summary.lm`` / ``print.summary.glm``)."""
        glm = self.kind == "glm"
        out = ["", "Call:", *self.call.split("\n"), ""]
        if glm:
            out.append("Deviance Residuals: ")
        else:
            out.append(f"{self.residual_label}:")
        if self.residual_quantiles is not None:
            vals = format_real(zapsmall(self.residual_quantiles, 5), 4)
            names = ["Min", "1Q", "Median", "3Q", "Max"]
            w = max(len(v) for v in [*vals, *names])
            gap = " " * (2 if glm else 1)
            out += ["".join(n.rjust(w) + gap for n in names)]
            out += ["".join(v.rjust(w) + gap for v in vals)]
        n_na = int(np.isnan(self.coef_table.estimate).sum())
        head = "Coefficients:"
        if n_na:
            head = f"Coefficients: ({n_na} not defined because of singularities)"
        out += ["", head, self.coef_table.to_text(exact=True), ""]
        s = self.stats
        if glm:
            footer = self._footer_glm()
            at = next((i for i, line in enumerate(footer) if line.startswith("Residual dev")), 0)
            out += [*footer[: at + 1], *self._missing_line(), *footer[at + 1 :]]
        else:
            out.append(
                f"Residual standard error: {format_real([s['sigma']], 4)[0].strip()} on "
                f"{s['df_resid']:g} degrees of freedom"
            )
            out += self._missing_line()
            if not np.isnan(s.get("f_statistic", np.nan)):
                p = format_pval([s["f_pvalue"]], 4)[0]
                out.append(
                    f"Multiple R-squared:  {format_c(s['r_squared'])},\t"
                    f"Adjusted R-squared:  {format_c(s['adj_r_squared'])} "
                )
                out.append(
                    f"F-statistic: {format_c(s['f_statistic'])} on {s['df_model']:g} and "
                    f"{s['df_resid']:g} DF,  p-value: {p}"
                )
        out.append("")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        stats_rows = "".join(
            f"<tr><th>{html.escape(k)}</th><td>{format_g(v, 6) if isinstance(v, float) else v}"
            "</td></tr>"
            for k, v in self.stats.items()
        )
        notes = "".join(f"<p><em>Note:</em> {html.escape(n)}</p>" for n in self.notes)
        title = f"<h4>{html.escape(self.title)}</h4>" if self.title else ""
        formula = f"<p><code>{html.escape(self.formula)}</code></p>" if self.formula else ""
        return (
            f'<div class="statlearning-summary">{title}{formula}'
            f"{self.coef_table._repr_html_()}"
            f'<table class="statlearning-stats"><tbody>{stats_rows}</tbody></table>{notes}</div>'
        )
