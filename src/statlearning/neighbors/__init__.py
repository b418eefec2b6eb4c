"""Nearest-neighbour methods and the Bayes classifier they approximate.

- :class:`KNeighborsClassifier`, :class:`KNeighborsRegressor`: k-nearest-neighbour vote and
  average, brute force or KD-tree search, six metrics, deterministic tie rules;
- :class:`BayesClassifier`: the Bayes-optimal classifier for known class densities, with its
  Bayes error rate — the yardstick of simulation studies;
- :class:`KernelDensity`: kernel density estimation (Parzen window), normalised in any
  dimension, with rule-of-thumb and cross-validated bandwidths and a KD-tree path.
"""

from ._bayes_classifier import BayesClassifier, BayesErrorRate
from ._classes import KNeighborsClassifier, KNeighborsRegressor
from ._kde import KernelDensity

__all__ = [
    "BayesClassifier",
    "BayesErrorRate",
    "KNeighborsClassifier",
    "KNeighborsRegressor",
    "KernelDensity",
]
