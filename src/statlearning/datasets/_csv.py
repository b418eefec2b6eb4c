"""Read a data file into a design matrix with R-style treatment coding.

pandas reads the file (:func:`pandas.read_csv`, or :func:`pandas.read_parquet` /
:func:`pandas.read_excel` by the file's extension when their readers are installed); this module
decides which columns are numeric and what is missing (with errors naming the column, the
values and their rows), and codes the categorical columns as R's ``model.matrix`` does.
"""

import codecs
import csv
import os
import warnings
from pathlib import Path

import numpy as np
from sklearn.utils import Bunch

from ._design import TableDesign, design_matrix

__all__ = ["load_csv", "read_table"]

#: Delimiters the CSV sniffer may choose (when ``sep`` is not given and the header row does
#: not split on commas).
SEPARATORS = (",", ";", "\t", "|")

#: A column is numeric when at least this share of its non-missing cells are numbers.
NUMERIC_SHARE = 0.9

#: A categorical column with at least this share of numbers is read with a warning.
MOSTLY_NUMBERS = 0.5

#: File extensions read by other pandas readers, with the package each needs.
OTHER_FORMATS = {
    ".parquet": ("parquet", "pyarrow"),
    ".pq": ("parquet", "pyarrow"),
    ".xlsx": ("excel", "openpyxl"),
    ".xlsm": ("excel", "openpyxl"),
    ".xls": ("excel", "xlrd"),
    ".ods": ("excel", "odf"),
}

_SEP_NAMES = {",": "','", ";": "';'", "\t": "tab", "|": "'|'"}


def _describe_sep(sep):
    return _SEP_NAMES.get(sep, repr(sep))


def _check_path(path):
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{str(path)!r} is a directory, not a CSV file")
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {str(path)!r}")
    return path


def _decode_error(path, encoding, exc):
    byte = exc.object[exc.start : exc.start + 1]
    return ValueError(
        f"cannot read {str(path)!r} as {encoding}: byte 0x{byte.hex()} at position {exc.start} "
        f"is not valid {encoding}; give the file's encoding, e.g. encoding='latin-1' or "
        "'cp1252'"
    )


def _codec(encoding):
    if not isinstance(encoding, str):
        raise TypeError(f"encoding must be a string; got {encoding!r}")
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        raise ValueError(
            f"unknown encoding {encoding!r}; name a codec Python knows, e.g. encoding='latin-1'"
        ) from None
    return "utf-8-sig" if name == "utf-8" else encoding  # a byte-order mark is not a name


def _header_row(path, sep, encoding):
    """The first row of the file as pandas reads it (names as written, duplicates kept)."""
    import pandas as pd

    try:
        first = pd.read_csv(
            path, sep=sep, header=None, nrows=1, dtype=str, keep_default_na=False,
            encoding=encoding, skip_blank_lines=True, engine="python",
        )  # fmt: skip
    except UnicodeDecodeError as exc:
        raise _decode_error(path, encoding, exc) from None
    except pd.errors.EmptyDataError:
        raise ValueError(f"empty file: {str(path)!r} has no header row") from None
    except (pd.errors.ParserError, csv.Error) as exc:
        raise ValueError(f"cannot parse the header row of {str(path)!r}: {exc}") from None
    return [str(v) for v in first.iloc[0].tolist()]


def _sniff(path, header, encoding):
    """The delimiter when the header does not split on commas: Python's ``csv.Sniffer`` (the
    sniffer of ``pandas.read_csv(sep=None, engine="python")``) on the header line, among
    :data:`SEPARATORS`; ``","`` when it finds none."""
    if len(header) > 1 or not any(s in header[0] for s in SEPARATORS[1:]):
        return ","
    with open(path, encoding=encoding, newline="") as fh:
        line = next((line for line in fh if line.strip()), "")
    try:
        return csv.Sniffer().sniff(line, delimiters="".join(SEPARATORS)).delimiter
    except csv.Error:
        return ","


def _check_header(path, header):
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


def _read_other(path, kind, package):
    """A parquet or Excel file through pandas, or an error naming the missing reader."""
    import pandas as pd

    try:
        if kind == "parquet":
            frame = pd.read_parquet(path)
        else:
            frame = pd.read_excel(path, engine=package)
    except ImportError:
        install = "odfpy" if package == "odf" else package
        raise ImportError(
            f"reading {str(path)!r} needs the {kind} reader {install!r}, which is not "
            f"installed: pip install {install} (or save the data as CSV)"
        ) from None
    except (OSError, ValueError, KeyError) as exc:
        raise ValueError(f"cannot read {str(path)!r} as a {kind} file: {exc}") from None
    frame.columns = [str(c) for c in frame.columns]
    _check_header(path, list(frame.columns))
    if len(frame) == 0:
        raise ValueError(f"{str(path)!r} has a header but no data rows")
    return frame


def _read_frame(path, sep, encoding, na_values, decimal, dtype=None):
    """Return ``(frame, sep)``: every column of the file as pandas reads it.

    CSV files go through :func:`pandas.read_csv`: the delimiter is ``sep``, else a comma
    unless the header row does not split on commas, when :func:`_sniff` chooses it; a UTF-8
    byte-order mark is skipped, quoted fields are R's ``write.csv``'s. Parquet and Excel
    files (by extension) go through their pandas readers (``sep`` is then ``None``).
    ``dtype`` (a mapping of column to type) reads some columns as given, e.g. as text.
    """
    import pandas as pd

    path = _check_path(path)
    other = OTHER_FORMATS.get(path.suffix.lower())
    if other is not None:
        return _read_other(path, *other), None
    encoding = _codec(encoding)
    header = _header_row(path, "," if sep is None else sep, encoding)
    if sep is None:
        sep = _sniff(path, header, encoding)
        if sep != ",":
            header = _header_row(path, sep, encoding)
    _check_header(path, header)
    try:
        frame = pd.read_csv(
            path,
            sep=sep,
            encoding=encoding,
            na_values=na_values,
            decimal=decimal,
            header=0,
            names=header,
            skip_blank_lines=True,
            engine="c" if len(sep) == 1 else "python",
            low_memory=False,
            dtype=dtype,
        )
    except UnicodeDecodeError as exc:
        raise _decode_error(path, encoding, exc) from None
    except pd.errors.EmptyDataError:
        raise ValueError(f"empty file: {str(path)!r} has no header row") from None
    except pd.errors.ParserError as exc:
        detail = str(exc).replace("Error tokenizing data. C error: ", "").strip()
        raise ValueError(
            f"cannot parse {str(path)!r} with delimiter {_describe_sep(sep)}: {detail}"
        ) from None
    if len(frame) == 0:
        raise ValueError(f"{str(path)!r} has a header but no data rows")
    return frame, sep


def _rows_text(rows, limit=5):
    shown = ", ".join(str(r) for r in rows[:limit])
    more = f" and {len(rows) - limit} more" if len(rows) > limit else ""
    return f"row{'s' if len(rows) > 1 else ''} {shown}{more}"


def _bad_tokens_error(name, column, bad):
    """The error for the non-numeric cells ``bad`` (a boolean mask) of a numeric column."""
    import pandas as pd

    tokens = {}
    for i in np.flatnonzero(bad):
        tokens.setdefault(str(column[i]), []).append(int(i) + 2)  # the header is row 1
    listing = "; ".join(f"{tok!r} ({_rows_text(rows)})" for tok, rows in list(tokens.items())[:5])
    if len(tokens) > 5:
        listing += f"; and {len(tokens) - 5} more distinct values"
    values = pd.Series(list(tokens), dtype=object)
    commas = pd.to_numeric(values.str.replace(",", ".", regex=False), errors="coerce")
    hint = (
        "decimal commas? give decimal=','"
        if commas.notna().all()
        else "mark them as missing with na_values= or correct the file"
    )
    return ValueError(
        f"column {name!r} is numeric but has {int(bad.sum())} non-numeric value(s): "
        f"{listing}; {hint}"
    )


def _column_values(name, column, decimal):
    """Return ``(values, numeric)``: floats with NaN for missing, or strings with None.

    A column is numeric when at least :data:`NUMERIC_SHARE` of its non-missing cells parse as
    numbers; its other cells are then an error. Infinite values count as missing.
    """
    import pandas as pd

    kind = column.dtype.kind
    if kind in "iuf":
        values = np.array(column.to_numpy(dtype=float, na_value=np.nan), copy=True)
    elif kind == "b":
        return np.array(column.astype(object).map(str).to_numpy(dtype=object)), False
    else:
        present = column.notna().to_numpy()
        text = column.astype(object)
        if decimal != ".":
            text = text.where(~present, text.astype(str).str.replace(decimal, ".", regex=False))
        parsed = np.array(
            pd.to_numeric(text, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
        )
        numbers = present & ~np.isnan(parsed)
        n_present = int(present.sum())
        if n_present == 0 or numbers.sum() < NUMERIC_SHARE * n_present:
            commas = pd.to_numeric(
                column[present].astype(str).str.replace(",", ".", regex=False), errors="coerce"
            )
            if decimal == "." and n_present and commas.notna().mean() >= NUMERIC_SHARE:
                example = column[present & np.isnan(parsed)].iloc[0]
                raise ValueError(
                    f"column {name!r} holds numbers written with commas (e.g. {example!r}); "
                    "decimal commas? give decimal=','; thousands separators? remove them"
                )
            values = np.array(column.astype(object).to_numpy(dtype=object), copy=True)
            values[~present] = None
            if n_present and numbers.sum() >= MOSTLY_NUMBERS * n_present:
                odd = list(dict.fromkeys(map(str, column[present & ~numbers])))[:3]
                warnings.warn(
                    f"column {name!r} is read as categorical although "
                    f"{numbers.sum() / n_present:.0%} of its values are numbers (the others "
                    f"include {', '.join(map(repr, odd))}); if it is numeric, mark those as "
                    "missing with na_values=",
                    UserWarning,
                    stacklevel=4,
                )
            return values, False
        bad = present & ~numbers
        if bad.any():
            raise _bad_tokens_error(name, column.to_numpy(dtype=object), bad)
        values = parsed
    values[np.isinf(values)] = np.nan
    return values, True


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


def _missing(values):
    import pandas as pd

    return pd.isna(values)


def read_table(path, *, sep=None, encoding="utf-8", na_values=None, decimal="."):
    """Read a CSV file into a DataFrame with :func:`load_csv`'s rules, without encoding it.

    Numeric columns (at least 90 % numbers, the others an error naming them) are floats with
    NaN for missing values; every other column holds strings with ``None`` for missing (a
    factor of a model formula).

    Returns
    -------
    frame : pandas.DataFrame
    sep : str
        The delimiter used.
    """
    import pandas as pd

    if isinstance(na_values, str):
        na_values = [na_values]
    raw, sep = _read_frame(path, sep, encoding, na_values, decimal)
    columns = {name: _column_values(name, raw[name], decimal)[0] for name in raw.columns}
    return pd.DataFrame(columns, index=raw.index), sep


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
    sep=None,
    encoding="utf-8",
    na_values=None,
    decimal=".",
):
    """Load a CSV file as a numeric design matrix and a target vector.

    The file is parsed by :func:`pandas.read_csv` (a ``.parquet`` or ``.xlsx``/``.xls``/
    ``.ods`` file by :func:`pandas.read_parquet` / :func:`pandas.read_excel`, when their
    reader, pyarrow or openpyxl, xlrd, odfpy, is installed; an ``ImportError`` names it
    otherwise): the first row is the header, fields may be quoted as R's ``write.csv``
    does, blank lines are skipped and a row with fewer fields than the header has missing
    values in the rest (R's ``read.csv``, ``fill = TRUE``). Missing
    values are pandas' default tokens (the empty field, ``NA``, ``N/A``, ``NaN``, ``nan``,
    ``NULL``, ``#N/A``, ``None``, …), the tokens in ``na_values``, and infinite numbers
    (``inf``, ``-Inf``, ``Infinity``).

    A column is numeric when at least 90 % of its non-missing cells parse as numbers; any
    other cell of such a column (``?``, ``' NA'``, a decimal comma) is an error naming the
    column, the values and their rows (the header being row 1), never a silent category. Any
    other feature column is categorical (with a warning when half or more of its cells are
    numbers) and is expanded with treatment (dummy) coding as R's ``model.matrix`` does by
    default.

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
        Also return the encoded features as a pandas DataFrame in ``frame``.
    sep : str, optional
        The delimiter. By default a comma, unless the header row does not split on commas:
        then Python's ``csv.Sniffer`` (as ``pandas.read_csv(sep=None)``) chooses among ``;``,
        tab and ``|`` from the header line.
    encoding : str, default="utf-8"
        The file's text encoding (a UTF-8 byte-order mark is skipped). A file that is not
        valid in it is an error naming the file, the byte and its position.
    na_values : str or list of str, optional
        Further cell values read as missing (e.g. ``"?"`` or ``"-999"``).
    decimal : str, default="."
        The decimal mark of numbers (``","`` for ``1,5``).

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
        - ``missing_values``: dict mapping each column used (the features, then the target)
          to its number of missing cells in the file's rows;
        - ``frame``: pandas DataFrame of ``data`` with ``feature_names`` as columns when
          ``as_frame=True``, else None;
        - ``filename``: str, the path that was read;
        - ``sep``: str, the delimiter used;
        - ``design``: the encoding (feature columns and categorical levels), which applies
          the same coding to new rows of the table.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    IsADirectoryError
        If ``path`` is a directory.
    ValueError
        If the file is empty, has no data rows, cannot be decoded with ``encoding`` or
        parsed, has duplicated column names, ``target`` or an entry of ``features``/``drop``
        is not a column, a numeric column has non-numeric cells, a value is missing with
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
    if sep is not None and (not isinstance(sep, str) or not sep or sep in "\n\r\"'"):
        raise ValueError(f"sep must be a delimiter such as ',', ';' or '\\t'; got {sep!r}")
    if not isinstance(decimal, str) or len(decimal) != 1 or decimal.isalnum():
        raise ValueError(f"decimal must be one character such as '.' or ','; got {decimal!r}")
    if sep is not None and sep == decimal:
        raise ValueError(f"sep and decimal must differ; both are {sep!r}")
    if isinstance(na_values, str):
        na_values = [na_values]
    if as_frame:
        try:
            import pandas as pd
        except ImportError as exc:
            raise ImportError(
                "load_csv(as_frame=True) requires pandas; install it (pip install pandas) "
                "or use as_frame=False"
            ) from exc
    if not isinstance(target, str):
        raise TypeError(f"target must be a column name (str); got {target!r}")

    raw, sep = _read_frame(path, sep, encoding, na_values, decimal)
    header = list(raw.columns)
    if target not in header:
        hint = ""
        if len(header) == 1 and any(s in header[0] for s in SEPARATORS[1:]):
            hint = " (is the delimiter right? give it, e.g. sep=';')"
        raise ValueError(
            f"target column {target!r} not found; available columns: {', '.join(header)}{hint}"
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
    columns, numeric = {}, {}
    for name in used:
        columns[name], numeric[name] = _column_values(name, raw[name], decimal)
    del raw

    # Missing values over the used columns.
    missing = {name: _missing(columns[name]) for name in used}
    n_missing = {name: int(m.sum()) for name, m in missing.items() if m.any()}
    dropped_rows = 0
    if n_missing:
        if na == "error":
            detail = ", ".join(f"{name!r} ({k})" for name, k in n_missing.items())
            raise ValueError(
                f"missing values (NA, NaN, inf or empty) in column(s) {detail}; use "
                "na='drop' to keep complete cases"
            )
        incomplete = np.logical_or.reduce([missing[name] for name in n_missing])
        dropped_rows = int(incomplete.sum())
        if dropped_rows == len(incomplete):
            raise ValueError("no complete rows left after dropping missing values (na='drop')")
        columns = {name: col[~incomplete] for name, col in columns.items()}

    # Target: numeric -> float (regression), else strings (classification).
    y = columns[target]

    # Features: numeric as is, others treatment-coded.
    non_numeric = [name for name in features if not numeric[name]]
    if non_numeric and categorical == "error":
        raise ValueError(
            f"non-numeric feature column(s): {', '.join(map(repr, non_numeric))}; "
            "use categorical='onehot' or drop them"
        )
    levels = {name: sorted(set(columns[name])) for name in non_numeric}
    too_many = {name: len(lv) for name, lv in levels.items() if len(lv) > max_levels}
    if too_many:
        name, k = next(iter(too_many.items()))
        raise ValueError(
            f"categorical column {name!r} has {k} distinct levels (more than "
            f"max_levels={max_levels}); is it an identifier? Leave it out with "
            f"drop={list(too_many)!r}"
        )

    baselines = {}
    for name in non_numeric:
        if len(levels[name]) < 2:
            warnings.warn(
                f"categorical column {name!r} has a single level {levels[name][0]!r}; dropped",
                UserWarning,
                stacklevel=2,
            )
        else:
            baselines[name] = levels[name][0]
    X, feature_names = design_matrix({name: columns[name] for name in features}, features, levels)
    frame = pd.DataFrame(X, columns=feature_names) if as_frame else None
    return Bunch(
        data=X,
        target=y,
        feature_names=feature_names,
        target_name=target,
        baselines=baselines,
        dropped_rows=dropped_rows,
        missing_values={name: int(m.sum()) for name, m in missing.items()},
        frame=frame,
        filename=os.fspath(path),
        sep=sep,
        design=TableDesign(list(features), {name: list(lv) for name, lv in levels.items()}),
    )
