"""Closed-form learning-theory bounds for a loss in [0, 1] (the 0-1 loss)."""

from __future__ import annotations

import math
from numbers import Integral, Real

__all__ = [
    "growth_function_bound",
    "hoeffding_bound",
    "sample_size",
    "union_bound",
    "vc_bound",
]


def _count(value, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def _open_unit(value, name: str, upper_closed: bool = False) -> float:
    ok = isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or value <= 0 or value > 1 or (value == 1 and not upper_closed):
        interval = "(0, 1]" if upper_closed else "(0, 1)"
        raise ValueError(f"{name} must be a number in {interval}; got {value!r}.")
    return float(value)


def _log_growth(m: int, vc_dim: int) -> float:
    """log Σ_{i=0}^{min(d, m)} C(m, i), exactly (Python integers) then one logarithm."""
    return math.log(sum(math.comb(m, i) for i in range(min(vc_dim, m) + 1)))


def hoeffding_bound(n, eps):
    """Hoeffding's bound on one hypothesis' deviation: ``P(|R̂ − R| ≥ ε) ≤ 2 exp(−2nε²)``.

    Parameters
    ----------
    n : int
        Sample size ``|D|`` (≥ 1).
    eps : float
        The deviation ε in (0, 1].

    Returns
    -------
    float
        The right-hand side ``2 exp(−2nε²)``; a value of 1 or more is a true but vacuous bound
        and is returned as computed, not clipped.

    Notes
    -----
    Seed 001 eq. (1.11): for a loss in [0, 1] and a hypothesis ``h`` fixed before seeing the data,
    :math:`P(|\\hat R_D(h) - R(h)| \\ge \\varepsilon) \\le 2 e^{-2|D|\\varepsilon^2}` (the general
    form for values in [a, b] divides the exponent by :math:`(b - a)^2`).

    Examples
    --------
    >>> from statlearning.theory import hoeffding_bound
    >>> round(hoeffding_bound(100, 0.1), 6)
    0.270671
    """
    n = _count(n, "n", 1)
    eps = _open_unit(eps, "eps", upper_closed=True)
    return 2.0 * math.exp(-2.0 * n * eps * eps)


def union_bound(n, eps, n_hypotheses):
    """The uniform bound over a finite class: ``P(max_h |R̂ − R| ≥ ε) ≤ 2|H| exp(−2nε²)``.

    Parameters
    ----------
    n : int
        Sample size (≥ 1).
    eps : float
        The deviation ε in (0, 1].
    n_hypotheses : int
        The size ``|H|`` of the hypothesis class (≥ 1).

    Returns
    -------
    float
        ``2|H| exp(−2nε²)``, not clipped at 1.

    Notes
    -----
    Seed 001 eq. (1.15): Hoeffding's bound for each hypothesis and the union bound over the
    class. The notes' printed middle line sums the deviations rather than the probabilities (an
    erratum); the final bound, implemented here, is right.

    Examples
    --------
    >>> from statlearning.theory import union_bound
    >>> round(union_bound(1000, 0.05, 100), 6)
    1.347589
    """
    n_hypotheses = _count(n_hypotheses, "n_hypotheses", 1)
    return n_hypotheses * hoeffding_bound(n, eps)


def growth_function_bound(n, vc_dim):
    """Sauer's lemma: the growth function of a class of VC dimension d is at most Σᵢ₌₀ᵈ C(n, i).

    Parameters
    ----------
    n : int
        Number of points (≥ 0).
    vc_dim : int
        VC dimension d (≥ 0).

    Returns
    -------
    int
        :math:`\\sum_{i=0}^{\\min(d, n)} \\binom{n}{i}`, exact; it equals :math:`2^n` when
        ``n ≤ d``.

    Notes
    -----
    Seed 001 eq. (1.20): :math:`\\mathrm{growth}_H(n) \\le \\sum_{i=0}^{d_{VC}} \\binom{n}{i} \\le
    (ne/d_{VC})^{d_{VC}}` (the notes leave the lower index unstated; it is 0). The notes'
    example (1.17–1.18), which claims growth n for lines in the plane, is wrong (lines shatter
    three points) and is not used.

    Examples
    --------
    >>> from statlearning.theory import growth_function_bound
    >>> growth_function_bound(10, 3)
    176
    """
    n = _count(n, "n", 0)
    vc_dim = _count(vc_dim, "vc_dim", 0)
    return sum(math.comb(n, i) for i in range(min(vc_dim, n) + 1))


def vc_bound(n, vc_dim, delta, form="sauer"):
    """The VC generalisation gap: with probability ≥ 1 − δ, every h has R(h) ≤ R̂(h) + gap.

    Parameters
    ----------
    n : int
        Sample size (≥ 1).
    vc_dim : int
        VC dimension (≥ 1).
    delta : float
        Failure probability δ in (0, 1).
    form : {"sauer", "closed"}, default="sauer"
        ``"sauer"`` bounds the growth function at 2n by Sauer's sum (the tighter);
        ``"closed"`` by :math:`(2ne/d)^d`, the notes' second line of (1.22).

    Returns
    -------
    float
        The gap ε.

    Notes
    -----
    Seed 001 eqs. (1.21–1.22): :math:`P(\\max_h|\\hat R - R| \\ge \\varepsilon) \\le
    4\\,\\mathrm{growth}_H(2n)\\,e^{-n\\varepsilon^2/8}`; solved for ε at probability δ,

    .. math:: \\varepsilon = \\sqrt{\\frac{8 \\log \\mathrm{growth}_H(2n) + 8 \\log(4/\\delta)}{n}}
              \\le \\sqrt{\\frac{8 d (\\log(2n/d) + 1) + 8 \\log(4/\\delta)}{n}}.

    Examples
    --------
    >>> from statlearning.theory import vc_bound
    >>> round(vc_bound(10_000, 3, 0.05), 4)
    0.1608
    """
    n = _count(n, "n", 1)
    vc_dim = _count(vc_dim, "vc_dim", 1)
    delta = _open_unit(delta, "delta")
    if form == "sauer":
        log_growth = _log_growth(2 * n, vc_dim)
    elif form == "closed":
        log_growth = vc_dim * (math.log(2 * n / vc_dim) + 1.0)
    else:
        raise ValueError(f"form must be 'sauer' or 'closed'; got {form!r}.")
    return math.sqrt((8.0 * log_growth + 8.0 * math.log(4.0 / delta)) / n)


def sample_size(eps, delta, n_hypotheses=None, vc_dim=None):
    """The smallest sample size at which a bound guarantees deviation < ε with probability ≥ 1 − δ.

    Parameters
    ----------
    eps : float
        The deviation ε in (0, 1].
    delta : float
        The failure probability δ in (0, 1).
    n_hypotheses : int or None, default=None
        A finite class of this size (the union bound).
    vc_dim : int or None, default=None
        A class of this VC dimension (the VC bound with Sauer's growth bound). At most one of
        ``n_hypotheses`` and ``vc_dim``; with neither, one fixed hypothesis (Hoeffding).

    Returns
    -------
    int
        The smallest ``n`` whose bound is at most δ.

    Notes
    -----
    Hoeffding and the union bound invert in closed form,
    :math:`n = \\lceil \\log(2|H|/\\delta) / (2\\varepsilon^2) \\rceil` (``|H| = 1`` for one
    hypothesis). The VC bound :math:`4\\,\\mathrm{growth}(2n) e^{-n\\varepsilon^2/8} \\le \\delta`
    has no closed form; the smallest such integer is found by doubling and bisection (the log of
    the bound is concave in n, so the set where it holds is a half-line).

    Examples
    --------
    >>> from statlearning.theory import sample_size
    >>> sample_size(0.05, 0.05, n_hypotheses=1000)
    2120
    """
    eps = _open_unit(eps, "eps", upper_closed=True)
    delta = _open_unit(delta, "delta")
    if n_hypotheses is not None and vc_dim is not None:
        raise ValueError("Give n_hypotheses or vc_dim, not both.")
    if vc_dim is None:
        size = 1 if n_hypotheses is None else _count(n_hypotheses, "n_hypotheses", 1)
        n = max(1, math.ceil(math.log(2.0 * size / delta) / (2.0 * eps * eps)))
        # guard the ceiling against rounding in the logarithm
        while n > 1 and size * hoeffding_bound(n - 1, eps) <= delta:
            n -= 1
        while size * hoeffding_bound(n, eps) > delta:
            n += 1
        return n
    vc_dim = _count(vc_dim, "vc_dim", 1)
    log_target = math.log(delta / 4.0)

    def holds(m: int) -> bool:
        return _log_growth(2 * m, vc_dim) - m * eps * eps / 8.0 <= log_target

    hi = 1
    while not holds(hi):
        hi *= 2
    lo = hi // 2  # does not hold (or 0)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if holds(mid):
            hi = mid
        else:
            lo = mid
    return hi
