"""Naive Bayes classifiers: Gaussian, Bernoulli, multinomial, categorical and mixed features.

Every model is computed in log space. Beyond scikit-learn's interface each classifier offers
:meth:`predict_log_likelihood` and :meth:`predict_joint_proba` (the unnormalised posteriors
"prior × likelihood" that the lecture notes print), the discrete models accept
``alpha=0`` (maximum likelihood) with zero probabilities handled exactly, and two-class
problems have ``decision_function`` (the log posterior odds ``S₁ − S₀``) and a
``decision_threshold`` on the posterior (the notes' rule ``S₁ > S₀ + θ``, θ = logit(t)).
"""

from ._discrete import BernoulliNB, CategoricalNB, MultinomialNB
from ._gaussian import GaussianNB
from ._mixed import MixedNB

__all__ = ["BernoulliNB", "CategoricalNB", "GaussianNB", "MixedNB", "MultinomialNB"]
