"""Conjugate Bayesian models of one sample and Bayesian model averaging over a finite set of
hypotheses (seed 001 §1.2.5 and §4.10.1).

The models here describe a single sample ``y`` (no features): ``fit(y)`` turns the prior into
the posterior in closed form, ``partial_fit`` updates it sequentially, and ``log_evidence(y)``
is the marginal likelihood the notes use to compare hypotheses. For regression with a Gaussian
prior on the coefficients see :class:`statlearning.linear_model.BayesianLinearRegression`.
"""

from ._averaging import ModelAverage, model_average
from ._conjugate import BetaBernoulli, DirichletCategorical, NormalNormal

__all__ = [
    "BetaBernoulli",
    "DirichletCategorical",
    "ModelAverage",
    "NormalNormal",
    "model_average",
]
