"""The printable summary of a component regression, as R's ``summary(plsr(...))``."""

from __future__ import annotations

import numpy as np

from ..inference._format import format_real

__all__ = ["ComponentSummary"]


def _table(row_names, col_names, values, digits=4) -> list[str]:
    """Rows of a numeric matrix as R's ``print(matrix, digits=4)``: each column formatted
    jointly, right-aligned, two spaces apart."""
    values = np.asarray(values, dtype=np.float64)
    cells = np.empty(values.shape, dtype=object)
    for j in range(values.shape[1]):
        cells[:, j] = [c.strip() for c in format_real(values[:, j], digits)]
    label_width = max(len(r) for r in row_names)
    widths = [max(len(c), *(len(x) for x in cells[:, j])) for j, c in enumerate(col_names)]
    lines = [
        " " * label_width
        + "".join("  " + c.rjust(w) for c, w in zip(col_names, widths, strict=True))
    ]
    for i, name in enumerate(row_names):
        lines.append(
            name.ljust(label_width)
            + "".join("  " + cells[i, j].rjust(w) for j, w in enumerate(widths))
        )
    return lines


class ComponentSummary:
    """Variance explained (and the cross-validated RMSEP) of a fitted component regression.

    Parameters
    ----------
    estimator : PLSRegression or PCRegression
        Fitted.
    method : str
        R's name of the fit method (``"oscorespls"``, ``"simpls"``, ``"kernelpls"``,
        ``"svdpc"``).

    Attributes
    ----------
    explained : ndarray of shape (1 + n_targets, M)
        Cumulative percentages of the variance of ``X`` (row 0) and of each response explained
        by ``1, …, M`` components (R's training table).
    rmsep : dict or None
        The estimator's ``validation_`` when it was cross-validated.
    chosen : tuple of (int, str) or None
        With ``rmsep``: the number of components chosen and the rule (``rule``).
    """

    def __init__(self, estimator, method: str):
        self.method = method
        self.n_samples, self.n_features, self.n_targets = estimator._dims
        self.explained = 100 * np.cumsum(estimator._explained, axis=1)
        self.rmsep = getattr(estimator, "validation_", None)
        self.n_segments = None if self.rmsep is None else self.rmsep["n_segments"]
        self.chosen = (estimator.n_components_, estimator._rule) if self.rmsep else None
        names = getattr(estimator, "feature_names_in_", None)
        self.response_names = (
            ["y"] if self.n_targets == 1 else [f"y{j + 1}" for j in range(self.n_targets)]
        )
        self.columns = [f"{a + 1} comps" for a in range(self.explained.shape[1])]
        self._names = names

    def to_frame(self):
        """Return the training table as a pandas DataFrame.

        Returns
        -------
        pandas.DataFrame
            Rows ``X`` and the responses, columns ``"1 comps"``, …: cumulative % explained.
        """
        import pandas as pd

        return pd.DataFrame(self.explained, index=["X", *self.response_names], columns=self.columns)

    def __str__(self) -> str:
        lines = [
            f"Data: \tX dimension: {self.n_samples} {self.n_features} ",
            f"\tY dimension: {self.n_samples} {self.n_targets}",
            f"Fit method: {self.method}",
            f"Number of components considered: {self.explained.shape[1]}",
        ]
        if self.rmsep is not None:
            lines += ["", "VALIDATION: RMSEP", f"Cross-validated using {self.n_segments} segments."]
            cols = ["(Intercept)"] + [f"{a} comps" for a in self.rmsep["n_components"][1:]]
            for j, name in enumerate(self.response_names):
                if self.n_targets > 1:
                    lines.append(f"\nResponse: {name} ")
                values = np.vstack([self.rmsep["RMSEP"][j], self.rmsep["adjCV"][j]])
                lines += _table(["CV", "adjCV"], cols, values)
            k, rule = self.chosen
            lines.append(f"\nChosen by CV (rule={rule!r}): {k} component(s)")
        lines += ["", "TRAINING: % variance explained"]
        lines += _table(["X", *self.response_names], self.columns, self.explained)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.__str__()
