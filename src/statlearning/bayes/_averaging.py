"""Bayesian model averaging over a finite set of hypotheses (seed 001 eq. 1.27)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.special import logsumexp

__all__ = ["ModelAverage", "model_average"]


class ModelAverage(NamedTuple):
    """The result of :func:`model_average`.

    Parameters
    ----------
    weights : ndarray of shape (n_hypotheses,)
        Posterior probabilities P(h | D) of the hypotheses.
    prediction : ndarray
        The averaged prediction Σₕ P(x | h) P(h | D), the shape of one hypothesis' prediction.
    """

    weights: np.ndarray
    prediction: np.ndarray


def model_average(log_evidence, predictions, prior=None):
    """Average the hypotheses' predictions with their posterior probabilities.

    Parameters
    ----------
    log_evidence : array-like of shape (n_hypotheses,)
        Log likelihood of the data under each hypothesis, :math:`\\log L_D(h)` (for a
        hypothesis with parameters of its own, its log marginal likelihood, e.g. the
        ``log_evidence`` of a conjugate model).
    predictions : array-like of shape (n_hypotheses, ...)
        Each hypothesis' prediction P(x | h) (probabilities, densities, or point predictions).
    prior : array-like of shape (n_hypotheses,) or None, default=None
        Prior probabilities P(h) (non-negative; normalised here). None is uniform.

    Returns
    -------
    ModelAverage
        ``weights`` (the posterior P(h | D)) and ``prediction``.

    Notes
    -----
    Seed 001 eq. (1.27): :math:`P(x \\mid D) = \\sum_h P(x \\mid h) P(h \\mid D)` with
    :math:`P(h \\mid D) = L_D(h) P(h) / \\sum_{h'} L_D(h') P(h')`. The notes' second line drops the
    normaliser (an erratum); it is kept here. The weights are computed in log space
    (log-sum-exp), so evidences far below the float range still compare correctly.

    Examples
    --------
    >>> from statlearning.bayes import BetaBernoulli, model_average
    >>> y = [1, 1, 0, 1, 1, 1, 0, 1]
    >>> models = [BetaBernoulli(1, 1), BetaBernoulli(8, 2), BetaBernoulli(2, 8)]
    >>> fits = [m.fit(y) for m in models]
    >>> avg = model_average([m.log_evidence_ for m in fits], [m.predictive_ for m in fits])
    >>> avg.weights.round(3).tolist(), round(float(avg.prediction), 3)
    ([0.333, 0.635, 0.031], 0.741)
    """
    log_evidence = np.asarray(log_evidence, dtype=np.float64)
    if log_evidence.ndim != 1 or log_evidence.size == 0:
        raise ValueError("log_evidence must be a non-empty 1-D array, one value per hypothesis.")
    if np.any(np.isnan(log_evidence)) or np.any(log_evidence == np.inf):
        raise ValueError("log_evidence contains NaN or +inf.")
    predictions = np.asarray(predictions, dtype=np.float64)
    h = log_evidence.size
    if predictions.ndim == 0 or predictions.shape[0] != h:
        raise ValueError(
            f"predictions must have one entry per hypothesis along its first axis ({h}); got "
            f"shape {predictions.shape}."
        )
    if prior is None:
        log_prior = np.zeros(h)
    else:
        prior = np.asarray(prior, dtype=np.float64)
        if prior.shape != (h,) or not np.all(np.isfinite(prior)) or np.any(prior < 0):
            raise ValueError(f"prior must be {h} non-negative probabilities (one per hypothesis).")
        if prior.sum() == 0:
            raise ValueError("prior sums to zero.")
        with np.errstate(divide="ignore"):
            log_prior = np.log(prior / prior.sum())
    log_post = log_evidence + log_prior
    if np.all(log_post == -np.inf):
        raise ValueError("Every hypothesis has zero posterior probability (zero evidence × prior).")
    weights = np.exp(log_post - logsumexp(log_post))
    return ModelAverage(weights, np.tensordot(weights, predictions, axes=1))
