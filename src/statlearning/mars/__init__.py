"""Multivariate adaptive regression splines (MARS), as R's ``earth``.

:class:`MARSRegressor` runs earth's forward pass (hinge pairs and their products, Fast MARS,
its minspan/endspan and stopping rules) and its GCV pruning pass, so that the selected terms,
knots and coefficients match R's ``earth`` on the same data; :class:`MARSClassifier` fits a
binomial GLM on the selected terms as ``earth(glm=list(family=binomial))``. The candidate
scoring of the forward pass is the compiled hot loop (:mod:`statlearning.mars._forward`).
"""

from ._classes import MARSClassifier, MARSRegressor, MARSSummary

__all__ = ["MARSClassifier", "MARSRegressor", "MARSSummary"]
