"""Compiled epochs of stochastic gradient descent for linear models (array in, array out).

One call of :func:`sgd_epoch` visits the rows ``order`` of ``X`` once, in that order, in steps of
``batch`` rows. With ``p_i = xᵢᵀw + b``, a loss derivative ``L'(yᵢ, pᵢ)`` (clipped to ±1e12) and
the rate ``η`` of the step, a step over the rows ``B`` is

1. ``w ← max(0, 1 − η α (1 − ρ)) w`` (the L2 part of the penalty as weight decay; penalties
   ``"l2"`` and ``"elasticnet"``),
2. ``w ← w + (1/|B|) Σ_{i∈B} uᵢ xᵢ`` and ``b ← b + (1/|B|) Σ uᵢ`` with ``uᵢ = −η sᵢ L'(yᵢ, pᵢ)``
   (``sᵢ`` the sample weight times the class weight; every ``pᵢ`` of the batch uses the ``w``
   of before the step),
3. the averaged iterate (``average``), then
4. the L1 part of the penalty (``"l1"``, ``"elasticnet"``) by the cumulative-penalty truncation
   of Tsuruoka, Tsujii and Ananiadou (2009): ``u`` sums ``η α ρ`` over the steps and ``qⱼ`` the
   penalty already applied to ``wⱼ``, and each weight moves towards zero by ``u ± qⱼ`` without
   crossing it.

With ``batch = 1`` this is scikit-learn's plain SGD, operation for operation: ``w`` is held as
``wscale · w_data`` (the decay of step 1 multiplies ``wscale`` only, and ``w_data`` is rescaled
when ``wscale`` falls below 1e-9), and the averaged iterate uses Bottou's (2012) lazy form
``w̄ = (aw + a · w_data) / b_avg``, so that each step costs one pass over the row. The losses are
scikit-learn's (``y`` is ±1 for the classification losses); ``"tanh"`` is the notes' bounded cost
``−y tanh(p)``.

The rate is ``η₀`` (``"constant"``, ``"adaptive"``: the caller divides it between epochs),
``η₀ / tᵖᵒʷᵉʳ`` (``"invscaling"``) or ``1 / (α (t₀ + t − 1))`` (``"optimal"``), with ``t``
counting the steps from 1 (:func:`statlearning._solvers._step_kernels.scheduled_rate`).
"""

from __future__ import annotations

import math

from numba import njit

from .._core.compiled import B1, F8, I8, lazy_kernel, readonly, writeable
from . import _step_kernels as _rules
from ._step_kernels import scheduled_rate

__all__ = [
    "CLASSIFICATION_LOSSES",
    "LOSS_CODES",
    "PENALTY_CODES",
    "RULE_CODES",
    "loss_values",
    "rule_epoch",
    "sgd_epoch",
]

LOSS_CODES = {
    "squared_error": 0, "huber": 1, "epsilon_insensitive": 2, "squared_epsilon_insensitive": 3,
    "log_loss": 4, "hinge": 5, "perceptron": 6, "squared_hinge": 7, "modified_huber": 8,
    "tanh": 9,
}  # fmt: skip
#: Losses of a ±1 label (the others are regression losses, usable on ±1 labels too).
CLASSIFICATION_LOSSES = frozenset(k for k, v in LOSS_CODES.items() if v >= 4)
PENALTY_CODES = {None: 0, "l1": 1, "l2": 2, "elasticnet": 3}

_MAX_DLOSS = 1e12
_RESET_WSCALE = 1e-9


@njit(cache=True)
def _log1pexp(z):  # pragma: no cover - compiled
    """``log(1 + eᶻ)`` in the branches of scikit-learn's binomial loss (same rounding)."""
    if z <= -37.0:
        return math.exp(z)
    if z <= -2.0:
        return math.log1p(math.exp(z))
    if z <= 18.0:
        return math.log(1.0 + math.exp(z))
    if z <= 33.3:
        return z + math.exp(-z)
    return z


@njit(cache=True)
def _loss(code, y, p, eps):  # pragma: no cover - compiled
    if code == 0:
        return 0.5 * (p - y) * (p - y)
    if code == 1:
        a = abs(y - p)
        return 0.5 * a * a if a <= eps else eps * (a - 0.5 * eps)
    if code == 2:
        return max(abs(y - p) - eps, 0.0)
    if code == 3:
        r = abs(y - p) - eps
        return r * r if r > 0.0 else 0.0
    if code == 4:
        # log(1 + e^{−yp}) as log(1 + eᵖ) − y₀₁ p with y₀₁ = (y + 1)/2
        return _log1pexp(p) - 0.5 * (y + 1.0) * p
    z = p * y
    if code == 5:
        return 1.0 - z if z <= 1.0 else 0.0
    if code == 6:
        return -z if z <= 0.0 else 0.0
    if code == 7:
        r = 1.0 - z
        return r * r if r > 0.0 else 0.0
    if code == 8:
        if z >= 1.0:
            return 0.0
        return (1.0 - z) * (1.0 - z) if z >= -1.0 else -4.0 * z
    return -y * math.tanh(p)


@njit(cache=True)
def _dloss(code, y, p, eps):  # pragma: no cover - compiled
    """Derivative of the loss with respect to the prediction ``p``."""
    if code == 0:
        return p - y
    if code == 1:
        r = p - y
        if abs(r) <= eps:
            return r
        return eps if r >= 0.0 else -eps
    if code == 2:
        if y - p > eps:
            return -1.0
        return 1.0 if p - y > eps else 0.0
    if code == 3:
        r = y - p
        if r > eps:
            return -2.0 * (r - eps)
        return 2.0 * (-r - eps) if r < -eps else 0.0
    if code == 4:
        # −y σ(−y p) = σ(p) − y₀₁, evaluated without overflow as scikit-learn's loss does
        y01 = 0.5 * (y + 1.0)
        if p > -37.0:
            e = math.exp(-p)
            return ((1.0 - y01) - y01 * e) / (1.0 + e)
        return math.exp(p) - y01
    z = p * y
    if code == 5:
        return -y if z <= 1.0 else 0.0
    if code == 6:
        return -y if z <= 0.0 else 0.0
    if code == 7:
        r = 1.0 - z
        return -2.0 * y * r if r > 0.0 else 0.0
    if code == 8:
        if z >= 1.0:
            return 0.0
        return -2.0 * (1.0 - z) * y if z >= -1.0 else -4.0 * y
    th = math.tanh(p)
    return -y * (1.0 - th * th)


@njit(cache=True)
def loss_derivative(code, y, p, eps):  # pragma: no cover - compiled
    """``_dloss`` callable from Python (tests, the "optimal" rate's start)."""
    return _dloss(code, y, p, eps)


@lazy_kernel((I8, readonly(), readonly(), F8, writeable()), cache=True)
def loss_values(code, y, p, eps, out):  # pragma: no cover - compiled
    for i in range(y.size):
        out[i] = _loss(code, y[i], p[i], eps)


# indices of the scalar state vector
WSCALE, INTERCEPT, AVG_A, AVG_B, AVG_INTERCEPT, U, T, SQ_NORM, L1_NORM, ETA = range(10)
N_STATE = 10


@njit(cache=True)
def _row(xi, yi, si, w, wscale, b, loss, eps, eta, track):  # pragma: no cover - compiled
    """``(loss, u)`` of one row: the loss at ``p = xᵢᵀw + b`` (when ``track``) and the step
    ``u = −η sᵢ L'(yᵢ, p)`` (the derivative clipped to ±1e12)."""
    pred = 0.0
    for j in range(w.size):
        pred += w[j] * xi[j]
    pred = pred * wscale + b
    cur = _loss(loss, yi, pred, eps) if track else 0.0
    d = min(max(_dloss(loss, yi, pred, eps), -_MAX_DLOSS), _MAX_DLOSS)
    return cur, -eta * d * si


@njit(cache=True)
def _add(w, v, f, sq, l1, track):  # pragma: no cover - compiled
    """``w_data += f v``; with ``track``, the new ``(Σ w_data², Σ |w_data|)``."""
    if not track:
        for j in range(w.size):
            w[j] += v[j] * f
        return sq, l1
    sq = 0.0
    l1 = 0.0
    for j in range(w.size):
        w[j] += v[j] * f
        sq += w[j] * w[j]
        l1 += abs(w[j])
    return sq, l1


@njit(cache=True)
def _add_average(aw, v, c, k, a, b, wscale):  # pragma: no cover - compiled
    """Bottou's lazy average after a step ``c v`` of the weights (the ``k``-th averaged step):
    the averaged weights are ``(aw + a · w_data) / b``; returns the new ``(a, b)``."""
    f = a * (-c / wscale)
    if f != 0.0:
        for j in range(aw.size):
            aw[j] += f * v[j]
    if k > 1.0:
        b /= 1.0 - 1.0 / k
    return a + (1.0 / k) * b * wscale, b


@njit(cache=True)
def _fold(w, aw, wscale, a, b, averaging):  # pragma: no cover - compiled
    """Fold ``wscale`` into ``w_data`` (and the lazy average into ``aw``)."""
    if averaging:
        inv_b = 1.0 / b
        for j in range(w.size):
            aw[j] = (aw[j] + a * w[j]) * inv_b
    for j in range(w.size):
        w[j] *= wscale


@njit(cache=True)
def _l1_truncate(w, q, u, wscale):  # pragma: no cover - compiled
    for j in range(w.size):
        z = w[j]
        if wscale * z > 0.0:
            w[j] = max(0.0, z - (u + q[j]) / wscale)
        elif wscale * z < 0.0:
            w[j] = min(0.0, z + (u - q[j]) / wscale)
        q[j] += wscale * (w[j] - z)


@lazy_kernel(
    (
        readonly(2), readonly(), readonly(), readonly(1, "C", I8), writeable(), writeable(),
        writeable(), writeable(), writeable(), I8, F8, I8, F8, F8, I8, F8, F8, F8, B1, F8, I8,
        B1,
    ),
    cache=True, nogil=True,
)  # fmt: skip
def sgd_epoch(
    X,
    y,
    sw,
    order,
    w,
    aw,
    q,
    gbuf,
    state,
    loss,
    eps,
    penalty,
    alpha,
    l1_ratio,
    schedule,
    eta0,
    power_t,
    optimal_init,
    fit_intercept,
    average,
    batch,
    track,
):  # pragma: no cover - compiled
    """One epoch over the rows ``order``; returns the summed loss and objective (computed only
    when ``track``: the objective's norms are then refreshed at each step, as scikit-learn does).

    ``w`` (``w_data``), ``aw``, ``q`` and the scalars in ``state`` are updated in place;
    ``gbuf`` is scratch of ``w``'s size (used when ``batch > 1``). ``average`` is scikit-learn's
    (averaging starts at step ``average``; 0: none).
    """
    n = order.size
    p = w.size
    averaging = average > 0
    # l1_ratio is 0 for "l2" and 1 for "l1" (the caller sets it)
    l2_part = 1.0 - l1_ratio if penalty >= 2 else 0.0
    l1_part = l1_ratio if penalty == 1 or penalty == 3 else 0.0
    # the scalars live in registers during the epoch
    wscale = state[WSCALE]
    b = state[INTERCEPT]
    avg_a = state[AVG_A]
    avg_b = state[AVG_B]
    avg_b0 = state[AVG_INTERCEPT]
    u = state[U]
    t = state[T]
    sq = state[SQ_NORM]
    l1 = state[L1_NORM]
    eta_kept = state[ETA]
    sumloss = 0.0
    objective = 0.0
    start = 0
    while start < n:
        stop = min(start + batch, n)
        m = stop - start
        eta = scheduled_rate(schedule, eta_kept, alpha, t, power_t, optimal_init)
        # the penalty of the objective, from the norms of the last update (scikit-learn's)
        penalty_value = alpha * (l2_part * 0.5 * sq + l1_part * l1) if penalty > 0 else 0.0
        if m == 1:
            i = order[start]
            xi = X[i]
            cur, upd = _row(xi, y[i], sw[i], w, wscale, b, loss, eps, eta, track)
            if track:
                sumloss += cur
                objective += cur + penalty_value
            v = xi
            c = upd
            b_upd = upd
            moved = upd != 0.0
        else:
            for j in range(p):
                gbuf[j] = 0.0
            b_upd = 0.0
            moved = False
            for k in range(start, stop):
                i = order[k]
                xi = X[i]
                cur, ui = _row(xi, y[i], sw[i], w, wscale, b, loss, eps, eta, track)
                if track:
                    sumloss += cur
                    objective += cur + penalty_value
                if ui != 0.0:
                    for j in range(p):
                        gbuf[j] += ui * xi[j]
                    b_upd += ui
                    moved = True
            v = gbuf
            c = 1.0 / m
            b_upd = b_upd / m
        if penalty >= 2:
            decay = max(0.0, 1.0 - l2_part * eta * alpha)
            wscale *= decay
            sq *= decay * decay
            l1 *= decay
            if wscale < _RESET_WSCALE:
                _fold(w, aw, wscale, avg_a, avg_b, averaging)
                wscale = 1.0
                avg_a = 0.0
                avg_b = 1.0
        if moved:
            sq_new, l1_new = _add(w, v, c / wscale, sq, l1, track)
            if track:
                sq = sq_new * (wscale * wscale)
                l1 = l1_new * wscale
            if fit_intercept:
                b += b_upd
        if averaging and average <= t:
            k_avg = t - average + 1.0
            avg_a, avg_b = _add_average(aw, v, c, k_avg, avg_a, avg_b, wscale)
            avg_b0 += (b - avg_b0) / k_avg
        if l1_part > 0.0:
            u += l1_part * eta * alpha
            _l1_truncate(w, q, u, wscale)
        t += 1.0
        start = stop
    state[WSCALE] = wscale
    state[INTERCEPT] = b
    state[AVG_A] = avg_a
    state[AVG_B] = avg_b
    state[AVG_INTERCEPT] = avg_b0
    state[U] = u
    state[T] = t
    state[SQ_NORM] = sq
    state[L1_NORM] = l1
    return sumloss, objective


@lazy_kernel((writeable(), writeable(), writeable(), B1), cache=True)
def finish(w, aw, state, averaging):  # pragma: no cover - compiled
    """Fold ``wscale`` (and the lazy average) into the arrays: ``w`` and ``aw`` become the
    weights and the averaged weights themselves."""
    _fold(w, aw, state[WSCALE], state[AVG_A], state[AVG_B], averaging)
    state[WSCALE] = 1.0
    state[AVG_A] = 0.0
    state[AVG_B] = 1.0


#: Codes of the step rules :func:`rule_epoch` applies (the kernels of ``_step_kernels``).
RULE_CODES = {"momentum": 1, "nesterov": 2, "adagrad": 3, "rmsprop": 4, "adadelta": 5, "adam": 6}


@njit(cache=True)
def _apply_rule(rule, theta, g, s1, s2, lr, hyper, k):  # pragma: no cover - compiled
    """One update of ``theta`` by the rule's shared compiled kernel (``k``: updates so far,
    from 1, for Adam's bias correction); ``hyper`` = (momentum, rho, beta_1, beta_2, eps)."""
    if rule == 1 or rule == 2:
        _rules.momentum_step(theta, g, s1, hyper[0], lr, rule == 2)
    elif rule == 3:
        _rules.adagrad_step(theta, g, s1, lr, hyper[4])
    elif rule == 4:
        _rules.rmsprop_step(theta, g, s1, lr, hyper[1], hyper[4])
    elif rule == 5:
        _rules.adadelta_step(theta, g, s1, s2, hyper[1], hyper[4])
    else:
        b1, b2 = hyper[2], hyper[3]
        lr_k = lr * math.sqrt(1.0 - b2**k) / (1.0 - b1**k)
        _rules.adam_step(theta, g, s1, s2, b1, b2, lr_k, hyper[4])


@lazy_kernel(
    (
        readonly(2), readonly(), readonly(), readonly(1, "C", I8), writeable(), writeable(),
        writeable(), writeable(), writeable(), writeable(), I8, readonly(), I8, F8, I8, F8, F8,
        F8, F8, F8, B1, F8, I8, B1,
    ),
    cache=True, nogil=True,
)  # fmt: skip
def rule_epoch(
    X,
    y,
    sw,
    order,
    theta,
    avg,
    g,
    s1,
    s2,
    state,
    rule,
    hyper,
    loss,
    eps,
    penalty,
    alpha,
    l1_ratio,
    eta0,
    power_t,
    optimal_init,
    fit_intercept,
    schedule_code,
    batch,
    track,
):  # pragma: no cover - compiled
    """One epoch of mini-batch steps by a step rule of :mod:`.steps` other than plain SGD.

    ``theta = (w, b)``; the gradient of a batch is the mean of ``sᵢ L'(yᵢ, pᵢ) (xᵢ, 1)`` plus
    the penalty's (sub)gradient ``α((1 − ρ) w + ρ sign(w))`` (never on ``b``); ``s1``/``s2`` are
    the rule's state, ``avg`` the averaged iterate. ``state`` holds ``T`` (steps, for the
    schedules), ``U`` (the rule's own update count) and ``ETA``; ``INTERCEPT`` and
    ``AVG_INTERCEPT`` are unused (the intercept is ``theta[-1]``). Returns the summed loss and
    objective (``track``).
    """
    n = order.size
    p = theta.size - 1
    averaging = state[AVG_A] > 0.0  # the first averaged step (0: no averaging)
    l2_part = 1.0 - l1_ratio if penalty >= 2 else 0.0
    l1_part = l1_ratio if penalty == 1 or penalty == 3 else 0.0
    t = state[T]
    k = state[U]
    sumloss = 0.0
    objective = 0.0
    start = 0
    while start < n:
        stop = min(start + batch, n)
        m = stop - start
        eta = scheduled_rate(schedule_code, state[ETA], alpha, t, power_t, optimal_init)
        for j in range(p + 1):
            g[j] = 0.0
        pen = 0.0
        if track and penalty > 0:
            sq = 0.0
            l1 = 0.0
            for j in range(p):
                sq += theta[j] * theta[j]
                l1 += abs(theta[j])
            pen = alpha * (l2_part * 0.5 * sq + l1_part * l1)
        for r in range(start, stop):
            i = order[r]
            xi = X[i]
            pred = theta[p]
            for j in range(p):
                pred += theta[j] * xi[j]
            if track:
                cur = _loss(loss, y[i], pred, eps)
                sumloss += cur
                objective += cur + pen
            d = min(max(_dloss(loss, y[i], pred, eps), -_MAX_DLOSS), _MAX_DLOSS) * sw[i]
            if d != 0.0:
                for j in range(p):
                    g[j] += d * xi[j]
                g[p] += d
        inv_m = 1.0 / m
        for j in range(p):
            wj = theta[j]
            sign = 1.0 if wj > 0.0 else (-1.0 if wj < 0.0 else 0.0)
            g[j] = g[j] * inv_m + alpha * (l2_part * wj + l1_part * sign)
        g[p] = g[p] * inv_m if fit_intercept else 0.0
        k += 1.0
        _apply_rule(rule, theta, g, s1, s2, eta, hyper, k)
        if averaging and state[AVG_A] <= t:
            mu = 1.0 / (t - state[AVG_A] + 1.0)
            for j in range(p + 1):
                avg[j] += (theta[j] - avg[j]) * mu
        t += 1.0
        start = stop
    state[T] = t
    state[U] = k
    return sumloss, objective
