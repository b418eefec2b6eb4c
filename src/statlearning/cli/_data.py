"""Load the data of a command: a CSV file, a bundled data set, or the embedded default."""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field

import numpy as np

__all__ = [
    "DATASETS",
    "DEFAULT_DATASET",
    "Data",
    "check_target",
    "detect_task",
    "load_data",
    "load_formula_data",
]

DEFAULT_DATASET = "gapminder"

#: Data sets available through ``--dataset`` and their task.
DATASETS = {
    "gapminder": "regression",
    "diabetes": "regression",
    "iris": "classification",
    "wine": "classification",
    "breast_cancer": "classification",
    "biopsy": "classification",
}

#: At most this many distinct integer values make a numeric target a class label (auto task).
MAX_CLASSES = 10
#: ... provided there are more than this many rows.
MIN_ROWS_FOR_CLASSES = 50


@dataclass
class Data:
    """A design matrix and a target, with what the commands print about them."""

    X: np.ndarray
    y: np.ndarray
    feature_names: list[str]
    target_name: str
    source: str
    baselines: dict = field(default_factory=dict)
    dropped_rows: int = 0
    notes: list[str] = field(default_factory=list)
    design: object = None  # the table's encoding (TableDesign; a FormulaTransformer with --formula)
    formula: str = ""  # --formula: the design is the formula's
    table: object = None  # --formula: the file's rows and columns (less --drop), a DataFrame
    variables: object = None  # --formula: the complete rows of ``table`` without the target
    #: Missing cells per column in the rows read (before ``--na drop``), target included.
    missing: dict = field(default_factory=dict)
    rows_read: int = 0  # rows read from the file (0: as many as analysed)

    def cv_X(self):
        """What cross-validation fits on: ``X``, or with a formula the table of its variables
        (each fit then builds the formula's design from its own training rows)."""
        return self.X if self.variables is None else self.variables

    @property
    def n(self) -> int:
        return self.X.shape[0]

    @property
    def p(self) -> int:
        return self.X.shape[1]

    def frame(self):
        """Return ``(X, y)`` as a pandas DataFrame and Series when pandas is installed."""
        try:
            import pandas as pd
        except ImportError:
            return self.X, self.y
        X = pd.DataFrame(self.X, columns=self.feature_names)
        return X, pd.Series(self.y, name=self.target_name)


def _split_names(text):
    return [name.strip() for name in text.split(",") if name.strip()] if text else []


def _gapminder():
    from .. import datasets

    g = datasets.load_gapminder(year=2011)
    col = {name: j for j, name in enumerate(g.feature_names)}
    lgdppc = np.log(g.data[:, col["gdp"]] / g.data[:, col["population"]])
    levels = sorted(set(g.continent))
    dummies = [(g.continent == level).astype(float) for level in levels[1:]]
    X = np.column_stack(
        [g.data[:, col["infant_mortality"]], g.data[:, col["fertility"]], lgdppc, *dummies]
    )
    names = ["infant_mortality", "fertility", "lgdppc", *(f"continent{lv}" for lv in levels[1:])]
    source = "gapminder 2011 (embedded default; lgdppc = log(gdp/population))"
    return X, g.target, names, "life_expectancy", source, {"continent": levels}


def _sklearn(name, loader, target_name, labels=True):
    b = loader()
    y = np.asarray(b.target_names, dtype=object)[b.target] if labels else b.target
    names = [str(f).replace(" ", "_") for f in b.feature_names]
    return b.data, y, names, target_name, f"{name} (scikit-learn)", {}  # no factors


def _builtin(name):
    from .. import datasets  # imported on use: ``statlearning --help`` stays fast

    if name == "gapminder":
        return _gapminder()
    if name == "diabetes":
        return _sklearn(name, datasets.load_diabetes, "progression", labels=False)
    if name == "iris":
        return _sklearn(name, datasets.load_iris, "species")
    if name == "wine":
        return _sklearn(name, datasets.load_wine, "cultivar")
    if name == "breast_cancer":
        return _sklearn(name, datasets.load_breast_cancer, "diagnosis")
    b = datasets.load_biopsy(complete_cases=True)
    source = "biopsy (MASS; complete cases, 16 rows with missing V6 left out)"
    return b.data, b.target, list(b.feature_names), b.target_name, source, {}


def _drop_builtin(X, names, baselines, drop, dataset):
    """Remove the columns in ``drop`` (a feature, or a categorical column and its dummies)."""
    keep = np.ones(len(names), dtype=bool)
    for column in drop:
        if column in baselines:
            hits = [j for j, nm in enumerate(names) if nm.startswith(column)]
        else:
            hits = [j for j, nm in enumerate(names) if nm == column]
        if not hits:
            dummies = [nm for nm in names if any(map(nm.startswith, baselines))]
            available = [*baselines, *(nm for nm in names if nm not in dummies)]
            raise ValueError(
                f"--drop column {column!r} not found in the {dataset} data; available columns: "
                f"{', '.join(available)}"
            )
        keep[hits] = False
    if not keep.any():
        raise ValueError("no feature columns left to use")
    baselines = {c: b for c, b in baselines.items() if c not in drop}
    return X[:, keep], [nm for nm, k in zip(names, keep, strict=True) if k], baselines


def load_data(
    path=None,
    *,
    dataset=None,
    target=None,
    drop=None,
    na="error",
    sep=None,
    encoding="utf-8",
    na_values=None,
    decimal=".",
):
    """Load the data a command works on.

    Parameters
    ----------
    path : str, optional
        A CSV file, read with :func:`statlearning.datasets.load_csv`; needs ``target``.
    dataset : str, optional
        One of :data:`DATASETS`. With neither ``path`` nor ``dataset`` the embedded default
        (Gapminder 2011) is used.
    target : str, optional
        The response column of the CSV file. With a bundled data set it may only name that
        data set's own target.
    drop : str, optional
        Comma-separated columns to leave out.
    na : {"error", "drop"}, default="error"
        Missing values in a CSV file: an error, or drop the incomplete rows.
    sep, encoding, na_values, decimal
        How to read the CSV file, as in :func:`statlearning.datasets.load_csv`
        (``na_values`` comma-separated).

    Returns
    -------
    Data
    """
    drop = _split_names(drop)
    _dataset_name(path, dataset)
    if path is None:
        name = _dataset_name(path, dataset)
        X, y, names, target_name, source, levels = _builtin(name)
        baselines = {column: lv[0] for column, lv in levels.items()}
        if target is not None and target != target_name:
            raise ValueError(
                f"--target {target!r} does not apply to the {name} data, whose target is "
                f"{target_name!r}; pass a CSV file to choose the target"
            )
        if drop:
            X, names, baselines = _drop_builtin(X, names, baselines, drop, name)
        data = Data(X, y, names, target_name, source, baselines)
        data.design = _builtin_design(names, {c: levels[c] for c in baselines})
        return data

    from .. import datasets

    if target is None:
        raise ValueError(f"a data file needs --target COL (the response column of {path!r})")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            bunch = datasets.load_csv(
                path,
                target,
                drop=drop or None,
                na=na,
                sep=_separator(sep),
                encoding=encoding,
                na_values=_split_names(na_values) or None,
                decimal=decimal,
            )
        except ValueError as exc:  # speak of the command-line options, not the arguments
            raise ValueError(_as_options(str(exc))) from None
    notes = [_as_options(str(w.message).splitlines()[0]) for w in caught]
    if bunch.data.shape[1] == 0:
        raise ValueError("no feature columns left to use")
    if sep is None and bunch.sep not in (",", None):
        notes.append(f"delimiter {_SEP_NAMES.get(bunch.sep, repr(bunch.sep))} detected (--sep)")
    data = Data(
        bunch.data,
        bunch.target,
        list(bunch.feature_names),
        bunch.target_name,
        str(path),
        dict(bunch.baselines),
        int(bunch.dropped_rows),
        notes,
        bunch.design,
    )
    data.missing = dict(bunch.get("missing_values", {}))
    data.rows_read = data.n + data.dropped_rows
    return data


def _dataset_name(path, dataset):
    """The bundled data set a command reads (``None`` for a file); checks ``--dataset``."""
    if path is not None and dataset is not None:
        raise ValueError("give either a data file or --dataset, not both")
    if path is not None:
        return None
    name = dataset or DEFAULT_DATASET
    if name not in DATASETS:
        raise ValueError(f"unknown dataset {name!r}; choose from {', '.join(DATASETS)}")
    return name


def _builtin_table(name):
    """A bundled data set as a DataFrame of its columns (gapminder: the 2011 rows, raw)."""
    import pandas as pd

    from .. import datasets

    if name == "gapminder":
        frame = datasets.load_gapminder(year=2011, as_frame=True).frame
        return frame.drop(columns=["year"]).reset_index(drop=True), "gapminder 2011 (embedded)"
    X, y, names, target_name, source, _ = _builtin(name)
    frame = pd.DataFrame(X, columns=names)
    frame[target_name] = y
    return frame, source


def load_formula_data(
    path=None,
    *,
    formula,
    dataset=None,
    target=None,
    drop=None,
    na="error",
    sep=None,
    encoding="utf-8",
    na_values=None,
    decimal=".",
):
    """Load the data of a command whose design is a model formula (``--formula``).

    The response is the formula's left-hand side (``--target``, when given, must name it);
    the features are the columns of the formula's design
    (:class:`statlearning.formula.FormulaTransformer`: factors treatment coded, ``poly``,
    ``bs``, ``ns``, interactions), with R's names. Missing values in the columns the formula
    reads are an error (``na="error"``) or remove those rows (``na="drop"``, R's
    ``na.omit``). Other arguments as :func:`load_data`.

    Returns
    -------
    Data
        With ``formula`` and ``table`` (every row and column of the file but ``drop``) set.
    """
    from ..formula import FormulaTransformer
    from ..formula._deparse import deparse
    from ..formula._design import (
        check_columns,
        design_array,
        expand_dot,
        materialize,
        split_formula,
        split_offsets,
        variables,
    )

    lhs, rhs = split_formula(formula)
    if split_offsets(rhs)[1]:
        raise ValueError(
            "--formula takes no offset() term (an offset is part of lm/glm fits in "
            "statlearning.formula, not of every model's design)"
        )
    if lhs is None or lhs.kind != "name":
        raise ValueError(
            f"--formula needs one response column on its left, as in 'y ~ x1 + x2'; got {formula!r}"
        )
    if target is not None and target != lhs.value:
        raise ValueError(
            f"--target {target!r} differs from the response {lhs.value!r} of --formula; "
            "leave --target out (the formula names the response)"
        )
    target = lhs.value
    notes = []
    name = _dataset_name(path, dataset)
    if path is None:
        frame, source = _builtin_table(name)
    else:
        from ..datasets._csv import read_table

        try:
            frame, used_sep = read_table(
                path,
                sep=_separator(sep),
                encoding=encoding,
                na_values=_split_names(na_values) or None,
                decimal=decimal,
            )
        except ValueError as exc:
            raise ValueError(_as_options(str(exc))) from None
        source = str(path)
        if sep is None and used_sep not in (",", None):
            notes.append(f"delimiter {_SEP_NAMES.get(used_sep, repr(used_sep))} detected (--sep)")
    if target not in frame.columns:
        raise ValueError(
            f"the response {target!r} of --formula is not a column of the data; available "
            f"columns: {', '.join(map(str, frame.columns))}"
        )
    drop = _split_names(drop)
    unknown = [c for c in drop if c not in frame.columns]
    if unknown:
        raise ValueError(f"--drop column(s) {', '.join(map(repr, unknown))} not in the data")
    frame = frame.drop(columns=drop)
    rhs = expand_dot(rhs, [str(c) for c in frame.columns], {target})
    used = [c for c in frame.columns if c == target or str(c) in variables(rhs)]
    incomplete = frame[used].isna().any(axis=1).to_numpy()
    dropped = int(incomplete.sum())
    if dropped and na == "error":
        counts = frame[used].isna().sum()
        detail = ", ".join(f"{c!r} ({int(k)})" for c, k in counts.items() if k)
        raise ValueError(
            f"missing values (NA, NaN, inf or empty) in column(s) {detail}; use --na drop to "
            "keep complete cases"
        )
    if dropped == len(frame):
        raise ValueError("no complete rows left after dropping missing values (--na drop)")
    # as R's model.frame: the bases (spline knots, polynomials) see every value of their
    # variable, then the incomplete rows are left out
    check_columns("--formula", rhs, frame)
    matrix, spec = materialize(rhs, frame, na_action="ignore")
    design = FormulaTransformer(formula)
    design._store(spec, frame, rhs=rhs)
    X = design_array(design, matrix)[~incomplete]
    table = frame
    frame = frame.loc[~incomplete].reset_index(drop=True)
    if X.shape[1] == 0:
        raise ValueError(f"the formula {formula!r} has no feature columns")
    y = frame[target].to_numpy()
    y = y.astype(float) if y.dtype.kind in "biuf" else y.astype(object)
    notes.insert(0, f"design from the formula {deparse(formula)}: {X.shape[1]} columns")
    if not design.has_intercept_:
        notes.append(
            "the formula drops the intercept: linear_regression fits none; other "
            "models keep their own"
        )
    return Data(
        X,
        y,
        [str(n) for n in design.feature_names_out_],
        target,
        source,
        dropped_rows=dropped,
        notes=notes,
        design=design,
        formula=formula,
        table=table,
        variables=frame.drop(columns=[target]),
        missing={str(c): int(k) for c, k in table[used].isna().sum().items()},
        rows_read=len(table),
    )


def _builtin_design(names, levels):
    """The table encoding of a bundled data set: its columns, a factor for each dummy group."""
    from ..datasets._design import TableDesign

    features = []
    for name in names:
        column = next((c for c in levels if name.startswith(c) and name != c), name)
        if column not in features:
            features.append(column)
    return TableDesign(features, {c: list(lv) for c, lv in levels.items()})


_SEP_NAMES = {";": "';'", "\t": "tab", "|": "'|'", ",": "','"}


def _separator(sep):
    """``--sep``: a character, or ``tab`` / ``\\t`` for the tab."""
    if sep is None:
        return None
    return "\t" if sep.lower() in ("tab", "\\t", "\t") else sep


def _as_options(message):
    message = message.replace("na='drop'", "--na drop")
    for arg in ("na_values", "encoding", "decimal", "sep"):
        message = message.replace(f"{arg}=", "--" + arg.replace("_", "-") + " ")
    message = message.replace("--decimal ','", "--decimal ,")
    message = re.sub(r"drop=\[([^\]]*)\]", lambda m: "--drop " + m[1].replace("'", ""), message)
    message = message.replace("drop entr", "--drop entr")
    return re.sub(r"(--[a-z-]+)  +", r"\1 ", message)


def check_target(y, name):
    """Raise a ``ValueError`` if the target ``y`` takes a single value."""
    if len(np.unique(y)) < 2:
        value = y[0].item() if isinstance(y[0], np.generic) else y[0]
        raise ValueError(
            f"the target {name!r} is constant ({value!r} in all {len(y)} rows): there is "
            "nothing to predict"
        )


def detect_task(y, task="auto"):
    """Choose between regression and classification for the target ``y``.

    Parameters
    ----------
    y : ndarray of shape (n_samples,)
    task : {"auto", "regression", "classification"}, default="auto"

    Returns
    -------
    task : str
        ``"regression"`` or ``"classification"``.
    reason : str
        Why, for the header line.
    """
    numeric = y.dtype.kind in "biuf"
    if numeric:
        values = np.unique(y)
        integer = bool(np.all(np.isfinite(values)) and np.all(values == np.round(values)))
    if task == "regression":
        if not numeric:
            raise ValueError("regression needs a numeric target; the target has text labels")
        return task, "chosen with --task"
    if task == "classification":
        if numeric and not integer:
            raise ValueError(
                "classification needs class labels; the target has non-integer numeric values"
            )
        return task, "chosen with --task"
    if not numeric:
        return "classification", f"auto: non-numeric target, {len(set(y))} classes"
    if integer and len(values) <= MAX_CLASSES and len(y) > MIN_ROWS_FOR_CLASSES:
        return "classification", f"auto: {len(values)} distinct integer values"
    return "regression", "auto: numeric target"
