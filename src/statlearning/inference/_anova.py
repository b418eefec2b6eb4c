"""Analysis-of-deviance tables printed like R's ``anova(m1, m2, ...)``."""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np

from ._format import SIGNIF_LEGEND, format_pval, format_real, render_table, signif_stars, zapsmall

_TEST_COLUMNS = ("F", "Chisq", "Cp")


@dataclass
class AnovaTable:
    """A comparison of nested fitted models, one row per model.

    Printed as R's ``print.anova`` prints ``anova(m1, m2, ...)``: the heading, one line per
    model, then the table (``printCoefmat`` with 5 significant digits, empty cells for the
    first model's differences, significance stars).

    Parameters
    ----------
    title : str
        ``"Analysis of Deviance Table"`` (GLMs) or ``"Analysis of Variance Table"`` (linear
        models).
    models : list of str
        The models in R's formula notation, in table order.
    columns : list of str
        R's column names, e.g. ``["Resid. Df", "Resid. Dev", "Df", "Deviance", "Pr(>Chi)"]``.
        A last column whose name starts with ``Pr(`` or ``P(`` is printed as p-values with
        significance stars.
    values : ndarray of shape (n_models, n_columns)
        The table's numbers, ``NaN`` where R prints nothing (the first model's differences).
    """

    title: str
    models: list
    columns: list
    values: np.ndarray

    @property
    def row_names(self) -> list[str]:
        """Row labels as R prints them: ``"1"``, ``"2"``, ... one per model."""
        return [str(i + 1) for i in range(len(self.models))]

    def to_frame(self):
        """Return the table as a pandas DataFrame.

        Returns
        -------
        pandas.DataFrame
            ``values`` with R's column names, indexed by model number (1, 2, ...; index named
            ``"model"``); ``NaN`` where R prints nothing.
        """
        try:
            import pandas as pd
        except ImportError:  # pragma: no cover - exercised only without pandas
            raise ImportError("to_frame() needs pandas: pip install pandas") from None
        index = pd.Index(range(1, len(self.models) + 1), name="model")
        return pd.DataFrame(np.asarray(self.values, dtype=float), columns=self.columns, index=index)

    def _heading(self) -> list[str]:
        width = len(str(len(self.models)))
        lines = [self.title, ""]
        lines += [f"Model {str(i + 1).rjust(width)}: {m}" for i, m in enumerate(self.models)]
        return lines

    def to_text(self, digits: int = 5, signif_legend: bool = True) -> str:
        """Return the table as R prints it (``print.anova``).

        Parameters
        ----------
        digits : int, default=5
            Significant digits of the numeric columns (R's ``digits``); test statistics are
            rounded to, and p-values formatted with, ``max(1, min(5, digits - 1))`` digits.
        signif_legend : bool, default=True
            Print the legend of the significance codes below the table. The stars
            themselves are shown whenever a p-value is below 0.1, whatever this says.

        Returns
        -------
        str
            The heading, one ``Model i: formula`` line per model and the table, separated by
            newlines.
        """
        x = np.asarray(self.values, dtype=np.float64)
        cols = list(self.columns)
        nc = len(cols)
        has_p = cols[-1].startswith(("Pr(", "P("))
        tst = [j for j, c in enumerate(cols) if c in _TEST_COLUMNS or c[1:7] == " value"]
        dfs = [j for j, c in enumerate(cols) if c.endswith("Df")]
        plain = [j for j in range(nc - int(has_p)) if j not in tst]
        zap = [j for j in plain if j not in dfs]
        cells = np.full(x.shape, "", dtype=object)
        dig_tst = max(1, min(5, digits - 1))
        for j in plain:
            col = x[:, j]
            ok = ~np.isnan(col)
            if not ok.any():
                continue
            if j in zap:
                col = col.copy()
                col[ok] = zapsmall(col[ok], digits)
            formatted = format_real(col, digits)
            for i in np.flatnonzero(ok):
                cells[i, j] = formatted[i]
        for j in tst:
            col = x[:, j]
            ok = ~np.isnan(col)
            if ok.any():
                formatted = format_real(np.round(col, dig_tst), digits)
                for i in np.flatnonzero(ok):
                    cells[i, j] = formatted[i]
        header = cols
        rows = cells.tolist()
        stars_shown = False
        if has_p:
            p = x[:, -1]
            ok = ~np.isnan(p)
            if ok.any():
                for i, s in zip(np.flatnonzero(ok), format_pval(p[ok], dig_tst), strict=True):
                    rows[i][-1] = s
                if np.any(p[ok] < 0.1):
                    stars = signif_stars(np.where(ok, p, np.nan))
                    width = max(len(s) for s in stars)
                    header = [*cols, ""]
                    rows = [[*r, s.ljust(width)] for r, s in zip(rows, stars, strict=True)]
                    stars_shown = True
        lines = self._heading()
        lines.append(render_table(header, rows, self.row_names))
        if stars_shown:
            lines.append("---")
            if signif_legend:
                lines.append(SIGNIF_LEGEND)
        return "\n".join(line.rstrip() for line in "\n".join(lines).split("\n"))

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{html.escape(c)}</th>" for c in ["", *self.columns])
        body = []
        for name, row in zip(self.row_names, np.asarray(self.values, float), strict=True):
            tds = "".join(f"<td>{'' if np.isnan(v) else f'{v:.6g}'}</td>" for v in row)
            body.append(f"<tr><th>{name}</th>{tds}</tr>")
        models = "".join(f"<li><code>{html.escape(m)}</code></li>" for m in self.models)
        return (
            f'<div class="statlearning-anova"><h4>{html.escape(self.title)}</h4>'
            f"<ol>{models}</ol><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div>"
        )
