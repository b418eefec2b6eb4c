"""Data sets and a CSV loader.

Bundled data (read without pandas):

- :func:`load_gapminder` -- life expectancy, fertility, infant mortality, population and
  GDP of 185 countries, 1960-2016 (R package dslabs, Artistic-2.0);
- :func:`load_biopsy` -- the Wisconsin Breast Cancer Database (Original), 699 biopsies
  (R package MASS).

scikit-learn's own data sets, returned unchanged: :func:`load_iris`, :func:`load_wine`,
:func:`load_breast_cancer`, :func:`load_diabetes`.

:func:`load_csv` reads a CSV file into a numeric design matrix, with R-style treatment
coding of categorical columns.
"""

from ._base import (
    load_biopsy,
    load_breast_cancer,
    load_diabetes,
    load_gapminder,
    load_iris,
    load_wine,
)
from ._csv import load_csv
from ._simulators import GaussianMixtureDensity, make_islr_classification, make_mixture

__all__ = [
    "GaussianMixtureDensity",
    "load_biopsy",
    "load_breast_cancer",
    "load_csv",
    "load_diabetes",
    "load_gapminder",
    "load_iris",
    "load_wine",
    "make_islr_classification",
    "make_mixture",
]
