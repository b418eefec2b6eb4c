"""From a table's columns to the numeric design a model is fitted on (R's treatment coding).

One implementation of the encoding: :func:`statlearning.datasets.load_csv` builds its design
matrix with :func:`design_matrix`, and :class:`TableDesign` applies the same encoding, with the
levels remembered, to new data (the command line's saved models put it before the model, so
that ``statlearning predict`` reads new CSV files exactly as ``fit`` read the training file).
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin

__all__ = ["TableDesign", "design_matrix"]


def design_matrix(columns, features, levels):
    """The encoded design: numeric columns as they are, categorical ones treatment-coded.

    Parameters
    ----------
    columns : mapping of str to ndarray
        Each feature's values: floats (NaN for missing) for a numeric column, strings (None
        for missing) for a categorical one.
    features : list of str
        The feature columns, in order.
    levels : mapping of str to list of str
        The sorted levels of each categorical feature; the first is the baseline (no column),
        each other level gets a 0/1 column named ``<column><level>``. A column with a single
        level gives no column. A missing value gives NaN in every column of its feature.

    Returns
    -------
    X : ndarray of shape (n_rows, n_columns)
    names : list of str
    """
    n = len(next(iter(columns.values()))) if columns else 0
    blocks, names = [], []
    for name in features:
        values = columns[name]
        if name not in levels:
            blocks.append(np.asarray(values, dtype=np.float64)[:, None])
            names.append(name)
            continue
        lv = levels[name]
        if len(lv) < 2:
            continue
        values = np.asarray(values, dtype=object)
        block = np.column_stack([values == level for level in lv[1:]]).astype(np.float64)
        block[np.array([v is None for v in values], dtype=bool)] = np.nan
        blocks.append(block)
        names.extend(f"{name}{level}" for level in lv[1:])
    X = np.hstack(blocks) if blocks else np.empty((n, 0), dtype=np.float64)
    return X, names


class TableDesign(TransformerMixin, BaseEstimator):
    """The encoding of a table that a model was fitted on, applied to new rows.

    Parameters
    ----------
    features : list of str
        The table's feature columns, in order.
    levels : dict of str to list of str, default=None
        The levels of the categorical features (first = baseline), as at fitting; the other
        features are numeric.

    Attributes
    ----------
    feature_names_out_ : list of str
        The columns of the design (``continentAsia`` for level ``Asia`` of ``continent``).

    Notes
    -----
    :meth:`transform` takes a pandas DataFrame with (at least) the feature columns, in any
    order; missing columns, non-numeric cells in a numeric column and levels unseen at fitting
    are errors naming the column (and the levels with their rows); a missing value gives a row
    of NaN in that feature's columns.
    """

    def __init__(self, features, levels=None):
        self.features = features
        self.levels = levels

    def fit(self, X=None, y=None):
        """Nothing to learn: the encoding is given.

        Parameters
        ----------
        X, y : ignored

        Returns
        -------
        self
        """
        self.feature_names_out_ = self._names()
        return self

    def __sklearn_is_fitted__(self):
        return True

    def _names(self):
        levels = self.levels or {}
        empty = {name: np.array([None], dtype=object) for name in self.features}
        return design_matrix(empty, list(self.features), levels)[1]

    def get_feature_names_out(self, input_features=None):
        """The design's column names.

        Parameters
        ----------
        input_features : ignored

        Returns
        -------
        ndarray of str
        """
        return np.asarray(self._names(), dtype=object)

    def transform(self, X):
        """Encode the feature columns of a table.

        Parameters
        ----------
        X : pandas.DataFrame
            New rows with the feature columns (others are ignored).

        Returns
        -------
        pandas.DataFrame
            The design, float columns named as at fitting, in the input's row order.
        """
        import pandas as pd

        from ._csv import _column_values, _rows_text

        if not isinstance(X, pd.DataFrame):
            raise TypeError(
                f"TableDesign.transform takes a DataFrame with the columns "
                f"{', '.join(self.features)}; got {type(X).__name__}"
            )
        levels = self.levels or {}
        missing = [c for c in self.features if c not in X.columns]
        if missing:
            raise ValueError(
                f"column{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))} "
                f"missing from the new data; the model was fitted on {', '.join(self.features)}"
            )
        columns = {}
        for name in self.features:
            if name in levels:
                raw = X[name]
                present = raw.notna().to_numpy()
                values = np.empty(len(raw), dtype=object)
                values[present] = raw[present].astype(str).to_numpy()
                known = set(levels[name])
                unseen = {}
                for i, v in enumerate(values):
                    if v is not None and v not in known:
                        unseen.setdefault(v, []).append(i + 2)  # the header is row 1
                if unseen:
                    listing = "; ".join(
                        f"{lv!r} ({_rows_text(r)})" for lv, r in list(unseen.items())[:5]
                    )
                    raise ValueError(
                        f"column {name!r} has level(s) unseen when the model was fitted: "
                        f"{listing}; the fitted levels are {', '.join(map(repr, levels[name]))}"
                    )
                columns[name] = values
            else:
                values, numeric = _column_values(name, X[name], ".")
                if not numeric:
                    raise ValueError(
                        f"column {name!r} was numeric when the model was fitted but is not "
                        f"in the new data (values such as {values[values != None][0]!r})"  # noqa: E711
                    )
                columns[name] = values
        data, names = design_matrix(columns, list(self.features), levels)
        return pd.DataFrame(data, columns=names, index=X.index)
