"""Read a CSV file into a design matrix with R-style treatment coding."""

import csv
import math
import os
import warnings
from pathlib import Path

import numpy as np
from sklearn.utils import Bunch

__all__ = ["load_csv"]

#: Field values read as missing (R's ``NA`` and the empty field).
NA_STRINGS = frozenset({"NA", ""})


def _read_rows(path):
    """Return ``(header, rows)`` of a comma-separated file, skipping blank lines."""
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {str(path)!r}")
    with open(path, newline="", encoding="utf-8-sig") as fh:
        rows = [row for row in csv.reader(fh) if row]
    if not rows:
        raise ValueError(f"empty file: {str(path)!r} has no header row")
    header, body = rows[0], rows[1:]
    if not body:
        raise ValueError(f"{str(path)!r} has a header but no data rows")
    for j, name in enumerate(header):
        if name == "":
            raise ValueError(
                f"column {j + 1} of {str(path)!r} has an empty name (row names written by "
                "R's write.csv? write the file with row.names = FALSE)"
            )
    seen, dups = set(), []
    for name in header:
        if name in seen and name not in dups:
            dups.append(name)
        seen.add(name)
    if dups:
        raise ValueError(
            f"duplicated column name(s) in {str(path)!r}: {', '.join(map(repr, dups))}"
        )
    ncol = len(header)
    for i, row in enumerate(body):
        if len(row) != ncol:
            raise ValueError(
                f"row {i + 2} of {str(path)!r} has {len(row)} fields, the header has {ncol}"
            )
    return header, body


def _parse_float(value):
    """Return ``float(value)`` or ``None`` if ``value`` is not a number."""
    if "_" in value:  # float() accepts "1_000"; a CSV reader should not
        return None
    try:
        return float(value)
    except ValueError:
        return None


def _as_numeric(values):
    """Convert a column of strings to floats, or return ``None`` if it is not numeric.

    Missing values must already have been replaced by ``None``; they become NaN.
    """
    out = np.empty(len(values), dtype=float)
    for i, v in enumerate(values):
        if v is None:
            out[i] = math.nan
            continue
        x = _parse_float(v)
        if x is None:
            return None
        out[i] = x
    return out


def _column_list(arg, name, header):
    """Validate a list of column names passed as ``name``."""
    if arg is None:
        return None
    if isinstance(arg, str):
        arg = [arg]
    arg = list(arg)
    missing = [c for c in arg if c not in header]
    if missing:
        raise ValueError(
            f"{name} entr{'y' if len(missing) == 1 else 'ies'} "
            f"{', '.join(map(repr, missing))} not found; available columns: {', '.join(header)}"
        )
    return arg


def load_csv(
    path,
    target,
    *,
    features=None,
    drop=None,
    categorical="onehot",
    na="error",
    max_levels=50,
    as_frame=False,
):
    """Load a CSV file as a numeric design matrix and a target vector.

    The file is read with the standard-library :mod:`csv` module: comma-separated, first row
    is the header, fields may be quoted as R's ``write.csv`` does, and ``NA`` or an empty
    field is a missing value. A column is numeric when every non-missing value parses as a
    number; any other feature column is categorical and is expanded with treatment
    (dummy) coding as R's ``model.matrix`` does by default.

    Parameters
    ----------
    path : str or path-like
        The CSV file.
    target : str
        Name of the response column. Numeric targets are returned as floats (regression);
        other targets as an array of strings (classification).
    features : list of str, optional
        Feature columns, in order. By default every column except ``target`` and those in
        ``drop``.
    drop : list of str, optional
        Columns to leave out (for example an identifier such as ``country``).
    categorical : {"onehot", "error"}, default="onehot"
        What to do with non-numeric feature columns. ``"onehot"`` uses treatment coding:
        the levels are sorted (lexicographically, as R's ``factor()`` does in the C
        locale), the first level is the baseline and gets no column, and the other levels
        get columns named ``<column><level>`` (e.g. ``continentAsia``). A column with a
        single level is dropped with a warning. ``"error"`` raises a ``ValueError`` naming
        the non-numeric columns.
    na : {"error", "drop"}, default="error"
        Missing values in the used columns (features and target) raise a ``ValueError``
        (``"error"``) or remove the incomplete rows (``"drop"``, complete cases).
    max_levels : int, default=50
        Largest number of distinct levels accepted for a categorical feature; more raises a
        ``ValueError`` (such a column is usually an identifier to ``drop``).
    as_frame : bool, default=False
        Also return the encoded features as a pandas DataFrame in ``frame`` (requires
        pandas).

    Returns
    -------
    bunch : sklearn.utils.Bunch
        With attributes

        - ``data``: ndarray of shape (n_samples, n_features), float, the encoded features;
        - ``target``: ndarray of shape (n_samples,), float or strings (object dtype);
        - ``feature_names``: list of str, the columns of ``data``;
        - ``target_name``: str;
        - ``baselines``: dict mapping each dummy-coded column to its baseline level;
        - ``dropped_rows``: int, rows removed by ``na="drop"``;
        - ``frame``: pandas DataFrame of ``data`` with ``feature_names`` as columns when
          ``as_frame=True``, else None;
        - ``filename``: str, the path that was read.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        If the file is empty or has no data rows, has duplicated column names, ``target``
        or an entry of ``features``/``drop`` is not a column, a value is missing with
        ``na="error"``, a feature is non-numeric with ``categorical="error"``, or a
        categorical feature has more than ``max_levels`` levels.
    ImportError
        If ``as_frame=True`` and pandas is not installed.

    Examples
    --------
    >>> from statlearning.datasets import load_csv
    >>> bunch = load_csv("gapminder.csv", "life_expectancy",
    ...                  drop=["country", "region"], na="drop")  # doctest: +SKIP
    >>> bunch.baselines  # doctest: +SKIP
    {'continent': 'Africa'}
    """
    if categorical not in ("onehot", "error"):
        raise ValueError(f"categorical must be 'onehot' or 'error'; got {categorical!r}")
    if na not in ("error", "drop"):
        raise ValueError(f"na must be 'error' or 'drop'; got {na!r}")
    if isinstance(max_levels, bool) or not isinstance(max_levels, int | np.integer):
        raise TypeError(f"max_levels must be an integer; got {max_levels!r}")
    if max_levels < 2:
        raise ValueError(f"max_levels must be at least 2; got {max_levels}")
    if as_frame:
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError(
                "load_csv(as_frame=True) requires pandas; install it (pip install pandas) "
                "or use as_frame=False"
            ) from exc

    header, rows = _read_rows(path)
    if not isinstance(target, str):
        raise TypeError(f"target must be a column name (str); got {target!r}")
    if target not in header:
        raise ValueError(
            f"target column {target!r} not found; available columns: {', '.join(header)}"
        )
    features = _column_list(features, "features", header)
    drop = _column_list(drop, "drop", header) or []
    if features is None:
        features = [c for c in header if c != target and c not in drop]
    else:
        if target in features:
            raise ValueError(f"the target {target!r} is also listed in features")
        both = [c for c in features if c in drop]
        if both:
            raise ValueError(f"column(s) listed in both features and drop: {both}")
        if len(set(features)) != len(features):
            raise ValueError("features lists a column more than once")
    if target in drop:
        raise ValueError(f"the target {target!r} is listed in drop")
    if not features:
        raise ValueError("no feature columns left to use")

    used = [*features, target]
    index = {name: j for j, name in enumerate(header)}
    columns = {
        name: [None if row[index[name]] in NA_STRINGS else row[index[name]] for row in rows]
        for name in used
    }

    # Missing values over the used columns.
    n_missing = {name: sum(v is None for v in col) for name, col in columns.items()}
    n_missing = {name: k for name, k in n_missing.items() if k}
    dropped_rows = 0
    if n_missing:
        if na == "error":
            detail = ", ".join(f"{name!r} ({k})" for name, k in n_missing.items())
            raise ValueError(
                f"missing values in column(s) {detail}; use na='drop' to keep complete cases"
            )
        keep = [i for i in range(len(rows)) if all(columns[name][i] is not None for name in used)]
        dropped_rows = len(rows) - len(keep)
        if not keep:
            raise ValueError("no complete rows left after dropping missing values (na='drop')")
        columns = {name: [col[i] for i in keep] for name, col in columns.items()}

    # Target: numeric -> float (regression), else strings (classification).
    y = _as_numeric(columns[target])
    if y is None:
        y = np.asarray(columns[target], dtype=object)

    # Features: numeric as is, others treatment-coded.
    numeric = {name: _as_numeric(columns[name]) for name in features}
    non_numeric = [name for name in features if numeric[name] is None]
    if non_numeric and categorical == "error":
        raise ValueError(
            f"non-numeric feature column(s): {', '.join(map(repr, non_numeric))}; "
            "use categorical='onehot' or drop them"
        )
    too_many = {name: len(set(columns[name])) for name in non_numeric}
    too_many = {name: k for name, k in too_many.items() if k > max_levels}
    if too_many:
        name, k = next(iter(too_many.items()))
        raise ValueError(
            f"categorical column {name!r} has {k} distinct levels (more than "
            f"max_levels={max_levels}); is it an identifier? Leave it out with "
            f"drop={list(too_many)!r}"
        )

    blocks, feature_names, baselines = [], [], {}
    for name in features:
        if numeric[name] is not None:
            blocks.append(numeric[name][:, None])
            feature_names.append(name)
            continue
        values = columns[name]
        levels = sorted(set(values))
        if len(levels) < 2:
            warnings.warn(
                f"categorical column {name!r} has a single level {levels[0]!r}; dropped",
                UserWarning,
                stacklevel=2,
            )
            continue
        baselines[name] = levels[0]
        codes = np.asarray(values, dtype=object)
        blocks.append(np.column_stack([(codes == level).astype(float) for level in levels[1:]]))
        feature_names.extend(f"{name}{level}" for level in levels[1:])

    n = len(y)
    X = np.hstack(blocks) if blocks else np.empty((n, 0), dtype=float)
    frame = pd.DataFrame(X, columns=feature_names) if as_frame else None
    return Bunch(
        data=X,
        target=y,
        feature_names=feature_names,
        target_name=target,
        baselines=baselines,
        dropped_rows=dropped_rows,
        frame=frame,
        filename=os.fspath(path),
    )
