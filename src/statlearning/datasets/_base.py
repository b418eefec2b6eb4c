"""Loaders for the data sets used throughout the documentation and the tests."""

import csv
import io
import math
from importlib import resources

import numpy as np
import sklearn.datasets
from sklearn.utils import Bunch

__all__ = [
    "load_biopsy",
    "load_breast_cancer",
    "load_diabetes",
    "load_gapminder",
    "load_iris",
    "load_wine",
]


# --- scikit-learn's bundled data sets ------------------------------------------------------


def load_iris(*, return_X_y=False, as_frame=False):
    """Load Fisher's (Anderson's) iris data: 150 flowers, 4 measurements, 3 species.

    Sepal length and width and petal length and width (cm) of 50 flowers of each of *Iris
    setosa*, *versicolor* and *virginica* (target codes 0, 1, 2 as in ``target_names``).
    This is :func:`sklearn.datasets.load_iris`, returned unchanged.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a Bunch.
    as_frame : bool, default=False
        Return pandas objects (DataFrame/Series) as scikit-learn does.

    Returns
    -------
    sklearn.utils.Bunch or tuple
        Exactly what :func:`sklearn.datasets.load_iris` returns.
    """
    return sklearn.datasets.load_iris(return_X_y=return_X_y, as_frame=as_frame)


def load_wine(*, return_X_y=False, as_frame=False):
    """Load the UCI wine recognition data: 178 wines, 13 chemical measurements, 3 cultivars.

    Chemical analysis (alcohol, malic acid, flavanoids, colour intensity, proline, ...) of
    wines from three cultivars grown in the same region of Italy. This is
    :func:`sklearn.datasets.load_wine`, returned unchanged.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a Bunch.
    as_frame : bool, default=False
        Return pandas objects (DataFrame/Series) as scikit-learn does.

    Returns
    -------
    sklearn.utils.Bunch or tuple
        Exactly what :func:`sklearn.datasets.load_wine` returns.
    """
    return sklearn.datasets.load_wine(return_X_y=return_X_y, as_frame=as_frame)


def load_breast_cancer(*, return_X_y=False, as_frame=False):
    """Load the Wisconsin Diagnostic Breast Cancer data: 569 tumours, 30 features, 2 classes.

    Features of digitised images of fine-needle aspirates (mean, standard error and worst
    value of radius, texture, area, ...); target malignant (0) or benign (1). This is
    :func:`sklearn.datasets.load_breast_cancer`, returned unchanged. For the *Original*
    Wisconsin data (nine cytological scores) see :func:`load_biopsy`.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a Bunch.
    as_frame : bool, default=False
        Return pandas objects (DataFrame/Series) as scikit-learn does.

    Returns
    -------
    sklearn.utils.Bunch or tuple
        Exactly what :func:`sklearn.datasets.load_breast_cancer` returns.
    """
    return sklearn.datasets.load_breast_cancer(return_X_y=return_X_y, as_frame=as_frame)


def load_diabetes(*, return_X_y=False, as_frame=False, scaled=True):
    """Load the diabetes data of Efron et al. (2004): 442 patients, 10 baseline variables.

    Age, sex, body mass index, blood pressure and six blood serum measurements; the target
    measures disease progression one year after baseline. This is
    :func:`sklearn.datasets.load_diabetes`, returned unchanged.

    Parameters
    ----------
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a Bunch.
    as_frame : bool, default=False
        Return pandas objects (DataFrame/Series) as scikit-learn does.
    scaled : bool, default=True
        If True the features are mean-centred and scaled by the standard deviation times
        the square root of ``n_samples``; if False the original values are returned.

    Returns
    -------
    sklearn.utils.Bunch or tuple
        Exactly what :func:`sklearn.datasets.load_diabetes` returns.
    """
    return sklearn.datasets.load_diabetes(return_X_y=return_X_y, as_frame=as_frame, scaled=scaled)


# --- data sets bundled with statlearning ---------------------------------------------------


def _read_bundled(name):
    """Return the header and rows of a CSV file in ``statlearning/datasets/data``."""
    text = (resources.files("statlearning.datasets") / "data" / name).read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    return rows[0], rows[1:]


def _floats(rows, j, na=("", "NA")):
    return np.array([math.nan if r[j] in na else float(r[j]) for r in rows], dtype=float)


def _require_pandas(func):
    try:
        import pandas as pd
    except ImportError as exc:
        raise ImportError(
            f"{func}(as_frame=True) requires pandas; install it (pip install pandas) "
            "or use as_frame=False"
        ) from exc
    return pd


GAPMINDER_DESCR = """\
Gapminder: health and income of 185 countries, 1960-2016
--------------------------------------------------------

The ``gapminder`` data frame of the R package dslabs (version 0.7.4), compiled by
Rafael A. Irizarry from Gapminder (https://www.gapminder.org) for "Introduction to
Data Science". One row per country and year.

Columns
    country           country name (185 countries)
    year              1960-2016
    infant_mortality  infant deaths per 1000 live births
    life_expectancy   life expectancy at birth, in years (the target)
    fertility         average number of children per woman
    population        country population
    gdp               gross domestic product (World Bank development indicators)
    continent         Africa, Americas, Asia, Europe or Oceania
    region            one of 22 geographical regions

Missing values and the complete-cases rule
    The full table has 10545 rows (185 countries x 57 years). life_expectancy is
    always present; infant_mortality is missing in 1453 rows, fertility in 187,
    population in 185 and gdp in 2972 (gdp is not available after 2011).
    ``complete_cases=True`` (the default) drops every row with any missing value,
    leaving 7139 rows covering 1960-2011; ``year=2011`` then gives n = 166
    countries (Africa 49, Asia 40, Europe 39, Americas 29, Oceania 9).
    ``complete_cases=False`` keeps all 10545 rows with NaN for the missing values.
    A ``year`` filter is applied after the complete-cases filter.

Source and licence
    R package dslabs (Irizarry, R. A. and Gill, A., https://CRAN.R-project.org/package=dslabs),
    Artistic License 2.0; the figures were compiled from Gapminder
    (https://www.gapminder.org). Exported with ``data/export_datasets.R``.
"""

BIOPSY_DESCR = """\
Biopsy: the Wisconsin Breast Cancer Database (Original)
-------------------------------------------------------

The ``biopsy`` data frame of the R package MASS: biopsies of breast tumours
of 699 patients assessed by Dr William H. Wolberg at the University of
Wisconsin Hospitals, Madison, up to 15 July 1992. Nine cytological
characteristics were each scored on a scale from 1 to 10; the class is
benign (458) or malignant (241).

Columns
    ID     sample code number (not unique: some samples appear more than once)
    V1     clump thickness
    V2     uniformity of cell size
    V3     uniformity of cell shape
    V4     marginal adhesion
    V5     single epithelial cell size
    V6     bare nuclei (16 missing values)
    V7     bland chromatin
    V8     normal nucleoli
    V9     mitoses
    class  "benign" or "malignant" (the target)

``complete_cases=True`` drops the 16 rows with a missing V6, leaving 683 rows.

This is a different data set from :func:`load_breast_cancer` (the Wisconsin
*Diagnostic* data, with 30 image features).

References
    Wolberg, W. H. and Mangasarian, O. L. (1990). Multisurface method of pattern
    separation for medical diagnosis applied to breast cytology. Proceedings of
    the National Academy of Sciences USA, 87, 9193-9196.

    Venables, W. N. and Ripley, B. D. (2002). Modern Applied Statistics with S,
    4th edition. Springer. (R package MASS.)

    UCI Machine Learning Repository: Breast Cancer Wisconsin (Original),
    https://archive.ics.uci.edu/dataset/15.

Exported from MASS with ``data/export_datasets.R``.
"""

BIOPSY_FEATURE_DESCRIPTIONS = {
    "V1": "clump thickness",
    "V2": "uniformity of cell size",
    "V3": "uniformity of cell shape",
    "V4": "marginal adhesion",
    "V5": "single epithelial cell size",
    "V6": "bare nuclei",
    "V7": "bland chromatin",
    "V8": "normal nucleoli",
    "V9": "mitoses",
}

_GAPMINDER_FEATURES = ["infant_mortality", "fertility", "population", "gdp"]
_GAPMINDER_NUMERIC = ["infant_mortality", "life_expectancy", "fertility", "population", "gdp"]


def _check_year(year, years, complete_cases):
    lo, hi = int(years.min()), int(years.max())
    valid = f"an integer year between {lo} and {hi}"
    if complete_cases:
        valid += " (complete cases)"
    if isinstance(year, bool) or not isinstance(year, int | np.integer):
        raise TypeError(f"year must be None or {valid}; got {year!r}")
    if not np.any(years == year):
        raise ValueError(f"year must be None or {valid}; got {year}")


def load_gapminder(*, year=None, complete_cases=True, return_X_y=False, as_frame=False):
    """Load the Gapminder health and income data (dslabs): life expectancy by country and year.

    Read from the CSV file bundled with statlearning, exported from the R package dslabs
    (Artistic-2.0). pandas is needed only for ``as_frame=True``.

    Parameters
    ----------
    year : int, optional
        Keep a single year (one row per country). Must be a year present in the data after
        the complete-cases filter: 1960-2011 with ``complete_cases=True``, 1960-2016
        otherwise.
    complete_cases : bool, default=True
        Drop every row with any missing value (7139 of the 10545 rows remain, 1960-2011).
        If False, all rows are kept and missing values are NaN.
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a Bunch.
    as_frame : bool, default=False
        Also return all columns (country, year, ..., continent, region) as a pandas
        DataFrame in ``frame``. ``data`` and ``target`` stay NumPy arrays.

    Returns
    -------
    bunch : sklearn.utils.Bunch
        With attributes

        - ``data``: float ndarray with columns infant_mortality, fertility, population,
          gdp, and year when ``year`` is None;
        - ``target``: float ndarray, life expectancy at birth (years);
        - ``feature_names``: list of the column names of ``data``;
        - ``target_names``: ``["life_expectancy"]``; ``target_name``: ``"life_expectancy"``;
        - ``country``, ``continent``, ``region``: object ndarrays; ``year``: int ndarray;
        - ``frame``: pandas DataFrame of all columns if ``as_frame=True``, else None;
        - ``DESCR``: description, including the complete-cases rule and the licence.
    (data, target) : tuple of ndarray
        If ``return_X_y=True``.

    Raises
    ------
    TypeError
        If ``year`` is not None or an integer.
    ValueError
        If ``year`` is not in the data.

    Examples
    --------
    >>> from statlearning.datasets import load_gapminder
    >>> g = load_gapminder(year=2011)
    >>> g.data.shape
    (166, 4)
    """
    pd = _require_pandas("load_gapminder") if as_frame else None
    header, rows = _read_bundled("gapminder.csv")
    col = {name: j for j, name in enumerate(header)}
    numeric = {name: _floats(rows, col[name]) for name in _GAPMINDER_NUMERIC}
    years = np.array([int(r[col["year"]]) for r in rows], dtype=np.int64)
    labels = {
        name: np.array([r[col[name]] for r in rows], dtype=object)
        for name in ("country", "continent", "region")
    }

    keep = np.ones(len(rows), dtype=bool)
    if complete_cases:
        for values in numeric.values():
            keep &= ~np.isnan(values)
        for values in labels.values():
            keep &= values != ""
    if year is not None:
        _check_year(year, years[keep], complete_cases)
        keep &= years == year

    numeric = {name: values[keep] for name, values in numeric.items()}
    labels = {name: values[keep] for name, values in labels.items()}
    years = years[keep]

    feature_names = list(_GAPMINDER_FEATURES)
    columns = [numeric[name] for name in feature_names]
    if year is None:
        feature_names.append("year")
        columns.append(years.astype(float))
    X = np.column_stack(columns)
    y = numeric["life_expectancy"]
    if return_X_y:
        return X, y

    frame = None
    if as_frame:
        frame = pd.DataFrame(
            {
                "country": labels["country"],
                "year": years,
                **{name: numeric[name] for name in _GAPMINDER_NUMERIC},
                "continent": labels["continent"],
                "region": labels["region"],
            },
            columns=header,
        )
    return Bunch(
        data=X,
        target=y,
        feature_names=feature_names,
        target_names=["life_expectancy"],
        target_name="life_expectancy",
        frame=frame,
        country=labels["country"],
        continent=labels["continent"],
        region=labels["region"],
        year=years,
        DESCR=GAPMINDER_DESCR,
        filename="gapminder.csv",
    )


def load_biopsy(*, complete_cases=False, return_X_y=False, as_frame=False):
    """Load MASS's ``biopsy``: the Wisconsin Breast Cancer Database (Original), 699 tumours.

    Nine cytological scores (1-10) of breast biopsies and the class benign/malignant
    (Wolberg and Mangasarian, 1990), read from the CSV file bundled with statlearning
    (exported from the R package MASS). pandas is needed only for ``as_frame=True``.

    Parameters
    ----------
    complete_cases : bool, default=False
        Drop the 16 rows where V6 (bare nuclei) is missing, leaving 683. If False the
        missing values are NaN.
    return_X_y : bool, default=False
        Return ``(data, target)`` instead of a Bunch.
    as_frame : bool, default=False
        Also return all columns (ID, V1..V9, class) as a pandas DataFrame in ``frame``.
        ``data`` and ``target`` stay NumPy arrays.

    Returns
    -------
    bunch : sklearn.utils.Bunch
        With attributes

        - ``data``: float ndarray of shape (n, 9), the scores V1..V9;
        - ``target``: object ndarray of ``"benign"``/``"malignant"``;
        - ``feature_names``: ``["V1", ..., "V9"]``;
        - ``feature_descriptions``: dict mapping V1..V9 to their meaning (V1: clump
          thickness, ..., V9: mitoses);
        - ``target_names``: ``["benign", "malignant"]``; ``target_name``: ``"class"``;
        - ``ID``: object ndarray, the sample code numbers (not unique);
        - ``frame``: pandas DataFrame of all columns if ``as_frame=True``, else None;
        - ``DESCR``: description with references.
    (data, target) : tuple of ndarray
        If ``return_X_y=True``.

    Examples
    --------
    >>> from statlearning.datasets import load_biopsy
    >>> X, y = load_biopsy(complete_cases=True, return_X_y=True)
    >>> X.shape
    (683, 9)
    """
    pd = _require_pandas("load_biopsy") if as_frame else None
    header, rows = _read_bundled("biopsy.csv")
    col = {name: j for j, name in enumerate(header)}
    feature_names = [f"V{k}" for k in range(1, 10)]
    X = np.column_stack([_floats(rows, col[name]) for name in feature_names])
    y = np.array([r[col["class"]] for r in rows], dtype=object)
    ids = np.array([r[col["ID"]] for r in rows], dtype=object)
    if complete_cases:
        keep = ~np.isnan(X).any(axis=1)
        X, y, ids = X[keep], y[keep], ids[keep]
    if return_X_y:
        return X, y

    frame = None
    if as_frame:
        frame = pd.DataFrame(X, columns=feature_names)
        frame.insert(0, "ID", ids)
        frame["class"] = y
    return Bunch(
        data=X,
        target=y,
        feature_names=feature_names,
        feature_descriptions=dict(BIOPSY_FEATURE_DESCRIPTIONS),
        target_names=["benign", "malignant"],
        target_name="class",
        ID=ids,
        frame=frame,
        DESCR=BIOPSY_DESCR,
        filename="biopsy.csv",
    )
