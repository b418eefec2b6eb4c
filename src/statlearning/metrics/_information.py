"""Information measures of discrete distributions: entropy, KL divergence, cross-entropy.

The sums themselves are SciPy's (:func:`scipy.stats.entropy`); this module fixes the
conventions the notes use and checks the input.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

__all__ = ["cross_entropy", "entropy", "kl_divergence"]


def _distribution(p, name: str, axis: int) -> np.ndarray:
    p = np.asarray(p, dtype=np.float64)
    if p.ndim == 0 or p.size == 0:
        raise ValueError(f"{name} must be a non-empty array of probabilities (or weights).")
    if not np.all(np.isfinite(p)):
        raise ValueError(f"{name} contains NaN or infinity.")
    if np.any(p < 0):
        raise ValueError(f"{name} has negative entries; probabilities are non-negative.")
    if np.any(p.sum(axis=axis) == 0):
        raise ValueError(f"{name} sums to zero along axis {axis}; it is no distribution.")
    return p


def _check_base(base) -> None:
    if base is not None and not (np.isfinite(base) and base > 0 and base != 1):
        raise ValueError(f"base must be positive and not 1 (or None for nats); got {base!r}.")


def entropy(p, base=None, axis=0):
    """Shannon entropy ``H(p) = −Σₖ pₖ log pₖ`` (``0 log 0 = 0``).

    Parameters
    ----------
    p : array-like
        Probabilities, or non-negative weights normalised to sum to one along ``axis``
        (as SciPy).
    base : float or None, default=None
        Logarithm base: None for the natural logarithm (nats, as SciPy), 2 for bits.
    axis : int, default=0
        The axis along which a distribution runs.

    Returns
    -------
    float or ndarray
        The entropy of each distribution.

    Notes
    -----
    :math:`H(p) = -\\sum_k p_k \\log_b p_k`. The notes' node impurity of a classification tree
    is the same quantity of the node's class proportions (in bits, ``base=2``).

    Examples
    --------
    >>> from statlearning.metrics import entropy
    >>> round(float(entropy([0.5, 0.5], base=2)), 12)
    1.0
    """
    _check_base(base)
    return stats.entropy(_distribution(p, "p", axis), base=base, axis=axis)


def kl_divergence(p, q, base=None, axis=0):
    """Kullback–Leibler divergence ``KL(p ‖ q) = Σₖ pₖ log(pₖ / qₖ)``.

    Parameters
    ----------
    p, q : array-like of the same shape
        Probabilities, or non-negative weights normalised along ``axis`` (as SciPy).
    base : float or None, default=None
        Logarithm base: None for nats, 2 for bits.
    axis : int, default=0
        The axis along which a distribution runs.

    Returns
    -------
    float or ndarray
        ``KL(p ‖ q) ≥ 0``; infinite where some ``qₖ = 0 < pₖ`` (``p`` is not absolutely
        continuous with respect to ``q``).

    Notes
    -----
    :math:`\\mathrm{KL}(p\\|q) = \\sum_k p_k \\log_b (p_k/q_k) = H(p, q) - H(p)`, not symmetric in
    ``p`` and ``q``; terms with :math:`p_k = 0` are zero.

    Examples
    --------
    >>> from statlearning.metrics import kl_divergence
    >>> round(float(kl_divergence([0.5, 0.5], [0.9, 0.1])), 6)
    0.510826
    """
    _check_base(base)
    p = _distribution(p, "p", axis)
    q = _distribution(q, "q", axis)
    if p.shape != q.shape:
        raise ValueError(f"p and q have different shapes: {p.shape} and {q.shape}.")
    return stats.entropy(p, q, base=base, axis=axis)


def cross_entropy(p, q, base=None, axis=0):
    """Cross-entropy ``H(p, q) = −Σₖ pₖ log qₖ = H(p) + KL(p ‖ q)``.

    Parameters
    ----------
    p, q : array-like of the same shape
        Probabilities, or non-negative weights normalised along ``axis`` (as SciPy).
    base : float or None, default=None
        Logarithm base: None for nats, 2 for bits.
    axis : int, default=0
        The axis along which a distribution runs.

    Returns
    -------
    float or ndarray
        The cross-entropy; infinite where some ``qₖ = 0 < pₖ``.

    Notes
    -----
    :math:`H(p, q) = -\\sum_k p_k \\log_b q_k`. With ``p`` a one-hot label and ``q`` a predicted
    distribution it is the log-loss of one observation.

    Examples
    --------
    >>> from statlearning.metrics import cross_entropy
    >>> round(float(cross_entropy([1.0, 0.0], [0.8, 0.2])), 6)
    0.223144
    """
    return entropy(p, base=base, axis=axis) + kl_divergence(p, q, base=base, axis=axis)
