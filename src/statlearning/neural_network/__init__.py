"""Multilayer perceptrons trained by backpropagation with the notes' optimisers.

:class:`MLPRegressor` and :class:`MLPClassifier` are dense feed-forward networks in NumPy (BLAS
matrix products, manual backpropagation), trained by mini-batch gradient steps (plain SGD,
heavy-ball and Nesterov momentum, Adagrad, RMSProp, Adadelta, Adam; the step rules of
:mod:`statlearning._solvers.steps`) or by full-batch L-BFGS, in float64 or float32.
"""

from ._classes import MLPClassifier, MLPRegressor

__all__ = ["MLPClassifier", "MLPRegressor"]
