"""The printable importance table of a fitted PCA, as R's ``summary(prcomp(...))``."""

from __future__ import annotations

import numpy as np

from ..inference._format import format_real

__all__ = ["PCASummary"]

ROWS = ("Standard deviation", "Proportion of Variance", "Cumulative Proportion")


class PCASummary:
    """Importance of the principal components (R's ``summary(prcomp(...))``).

    Parameters
    ----------
    std_devs : ndarray of shape (n_components,)
        Standard deviations of the components (R's ``sdev``, divisor ``n − 1``).
    total_variance : float
        Total variance of the (centred, optionally scaled) data: the proportions divide by it.
    names : list of str, optional
        Column names; ``PC1, PC2, …`` by default.

    Attributes
    ----------
    importance : ndarray of shape (3, n_components)
        Rows: standard deviation, proportion of variance, cumulative proportion (unrounded;
        R rounds the proportions to 5 decimals before printing).
    columns : list of str
        The component names, ``names`` or ``PC1, PC2, …``.
    """

    def __init__(self, std_devs, total_variance: float, names=None):
        sd = np.asarray(std_devs, dtype=np.float64)
        prop = sd**2 / total_variance
        self.importance = np.vstack([sd, prop, np.cumsum(prop)])
        self.columns = list(names) if names is not None else [f"PC{i + 1}" for i in range(sd.size)]

    def to_frame(self):
        """Return the table as a pandas DataFrame.

        Returns
        -------
        pandas.DataFrame
            ``importance`` (unrounded) with R's row names ``"Standard deviation"``,
            ``"Proportion of Variance"``, ``"Cumulative Proportion"`` and one column per
            component.
        """
        import pandas as pd

        return pd.DataFrame(self.importance, index=list(ROWS), columns=self.columns)

    def __str__(self) -> str:
        # R: importance <- rbind(sdev, round(prop, 5), round(cumprop, 5)), printed with 4 digits
        shown = self.importance.copy()
        shown[1:] = np.round(shown[1:], 5)
        cells = []
        for j, name in enumerate(self.columns):
            col = [c.strip() for c in format_real(shown[:, j], 4)]
            width = max(len(name), *(len(c) for c in col))
            cells.append([name.rjust(width)] + [c.rjust(width) for c in col])
        label_width = max(len(r) for r in ROWS)
        lines = ["Importance of components:"]
        lines.append(" " * label_width + " " + " ".join(c[0] for c in cells))
        for i, row in enumerate(ROWS):
            lines.append(row.ljust(label_width) + " " + " ".join(c[i + 1] for c in cells))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.__str__()

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{c}</th>" for c in self.columns)
        body = "".join(
            f"<tr><th>{row}</th>"
            + "".join(f"<td>{v:.5g}</td>" for v in self.importance[i])
            + "</tr>"
            for i, row in enumerate(ROWS)
        )
        return f"<table><tr><th></th>{head}</tr>{body}</table>"
