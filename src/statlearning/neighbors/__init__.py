"""Nearest-neighbour methods and the Bayes classifier they approximate.

- :class:`KNeighborsClassifier`, :class:`KNeighborsRegressor`: k-nearest-neighbour vote and
  average, brute force or KD-tree search, six metrics, deterministic tie rules;
- :class:`BayesClassifier`: the Bayes-optimal classifier for known class densities, with its
  Bayes error rate — the yardstick of simulation studies.
"""

from .._registry import register_model
from ._bayes_classifier import BayesClassifier, BayesErrorRate
from ._classes import KNeighborsClassifier, KNeighborsRegressor

__all__ = ["BayesClassifier", "BayesErrorRate", "KNeighborsClassifier", "KNeighborsRegressor"]

register_model(
    "knn_classifier",
    KNeighborsClassifier,
    task="classification",
    description="k-nearest-neighbour vote (k = 5, Euclidean)",
    family="neighbors",
    needs_scaling=True,
)
register_model(
    "knn_regressor",
    KNeighborsRegressor,
    task="regression",
    description="k-nearest-neighbour average (k = 5, Euclidean)",
    family="neighbors",
    needs_scaling=True,
)
register_model(
    "gaussian_bayes_classifier",
    BayesClassifier,
    task="classification",
    description="Plug-in Bayes rule, Gaussian class densities by maximum likelihood",
    family="neighbors",
)
