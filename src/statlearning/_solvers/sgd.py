"""Stochastic gradient descent for a linear model of one output: the epoch loop and its stopping.

:func:`sgd_linear` runs epochs of the compiled loop :func:`._sgd_kernels.sgd_epoch` (per-sample or
mini-batch steps, the L2 penalty as weight decay, the L1 penalty by cumulative truncation, the
averaged iterate) and, between epochs, scikit-learn's stopping rule: an epoch that does not
improve the best mean training objective (or, with a validation score, the best score) by
``tol`` counts as a miss, and ``n_iter_no_change`` misses in a row stop the run — or, for the
``"adaptive"`` schedule, divide the rate by 5 (:meth:`.steps.LearningRateSchedule.plateau`)
until it would fall to 1e-6 or below. ``tol=None`` runs ``max_iter`` epochs.

The rates come from :class:`.steps.LearningRateSchedule` (``"constant"``, ``"invscaling"``,
``"adaptive"``, ``"optimal"``). The step rule is :class:`.steps.SGD` (the per-sample rule of the
notes, :math:`\\theta \\leftarrow \\theta - \\eta g`), or any other rule of :mod:`.steps`
(momentum, Nesterov, Adagrad, RMSProp, Adadelta, Adam), whose compiled updates
:func:`._sgd_kernels.rule_epoch` calls on the mean gradient of each batch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _sgd_kernels as _k
from .steps import SCHEDULE_CODES, SGD, LearningRateSchedule, make_rule, optimal_rate_offset

__all__ = ["SGDResult", "sgd_linear", "start_offset"]


@dataclass
class SGDResult:
    """What :func:`sgd_linear` returns."""

    coef: np.ndarray
    intercept: float
    average_coef: np.ndarray | None
    average_intercept: float
    n_iter: int
    t: float


def start_offset(loss: str, alpha: float, epsilon: float) -> float:
    """:math:`t_0` of the ``"optimal"`` schedule for ``loss``
    (:func:`.steps.optimal_rate_offset`)."""
    code = _k.LOSS_CODES[loss]
    return optimal_rate_offset(alpha, lambda y, p: _k.loss_derivative(code, y, p, epsilon))


def sgd_linear(
    X,
    y,
    weights,
    train_rows,
    coef,
    intercept,
    *,
    loss: str,
    epsilon: float,
    penalty,
    alpha: float,
    l1_ratio: float,
    schedule: LearningRateSchedule,
    fit_intercept: bool,
    max_iter: int,
    tol,
    n_iter_no_change: int,
    shuffle: bool,
    seed: int,
    average: int,
    batch_size: int,
    t: float = 1.0,
    average_coef=None,
    average_intercept: float = 0.0,
    validation_score=None,
    step_rule: str = "sgd",
) -> SGDResult:
    """Train ``(coef, intercept)`` by stochastic gradient descent from their given values.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), C-contiguous float64
    y : ndarray of shape (n_samples,)
        Targets (±1 for the classification losses).
    weights : ndarray of shape (n_samples,)
        Per-sample weights (sample weight times class weight).
    train_rows : ndarray of int64
        The rows trained on (the others are held out for ``validation_score``).
    coef, intercept : ndarray, float
        Starting point; ``coef`` is not modified.
    loss, epsilon, penalty, alpha, l1_ratio, fit_intercept, average : see the estimators
    schedule : LearningRateSchedule
    max_iter, tol, n_iter_no_change, shuffle : scikit-learn's stopping rule (module docstring)
    seed : int
        Seed of the shuffling.
    batch_size : int
        Rows per step (1: per sample).
    t : float, default=1.0
        Steps taken before (scikit-learn's ``t_``): the rate schedules continue from it.
    average_coef, average_intercept : ndarray or None, float
        The averaged iterate so far (``average > 0``).
    validation_score : callable or None
        ``validation_score(coef, intercept) -> float`` (higher is better), called after each
        epoch instead of the training objective.
    step_rule : str, default="sgd"
        ``"sgd"``: the plain step (weight decay, L1 truncation; scikit-learn's update). Another
        name of :data:`.steps.RULES`: that rule steps along the mean gradient of each batch
        (the penalty's subgradient included), with its state started at zero.

    Returns
    -------
    SGDResult
    """
    p = X.shape[1]
    averaging = average > 0
    plain = step_rule == "sgd"
    rule = (
        SGD(schedule.learning_rate_init)
        if plain
        else make_rule(step_rule, learning_rate=schedule.learning_rate_init)
    )
    loss_code = _k.LOSS_CODES[loss]
    pen = _k.PENALTY_CODES[penalty]
    ratio = {0: 0.0, 1: 1.0, 2: 0.0}.get(pen, float(l1_ratio))
    optimal = schedule.optimal_offset or 0.0
    # rules with their own step sizes (Adam, Adadelta) keep eta0
    code = schedule.code if rule.scheduled else SCHEDULE_CODES["constant"]
    order = np.ascontiguousarray(train_rows, dtype=np.int64)
    n_train = max(order.size, 1)
    rng = np.random.RandomState(seed) if shuffle else None
    # the training objective is needed by the stopping rule only
    track = validation_score is None and tol is not None
    state = np.zeros(_k.N_STATE)
    state[_k.T] = float(t)
    avg0 = np.zeros(p) if not averaging or average_coef is None else average_coef
    if plain:
        w = np.array(coef, dtype=np.float64, copy=True)
        aw = np.array(avg0, dtype=np.float64, copy=True)
        q, gbuf = np.zeros(p), np.zeros(p)
        state[_k.WSCALE] = 1.0
        state[_k.INTERCEPT] = float(intercept)
        state[_k.AVG_B] = 1.0
        state[_k.AVG_INTERCEPT] = float(average_intercept)
        state[_k.SQ_NORM] = float(w @ w)
        state[_k.L1_NORM] = float(np.abs(w).sum())

        def epoch_pass():
            return _k.sgd_epoch(
                X, y, weights, order, w, aw, q, gbuf, state, loss_code, float(epsilon), pen,
                float(alpha), ratio, code, schedule.learning_rate_init, schedule.power_t,
                optimal, bool(fit_intercept), int(average), int(batch_size), track,
            )[1]  # fmt: skip

        def current():
            return w * state[_k.WSCALE], state[_k.INTERCEPT]

    else:
        theta = np.append(np.asarray(coef, dtype=np.float64), float(intercept))
        avg = np.append(np.asarray(avg0, dtype=np.float64), float(average_intercept))
        g, s1, s2 = np.zeros(p + 1), np.zeros(p + 1), np.zeros(p + 1)
        state[_k.AVG_A] = float(average)  # the first averaged step (0: none)
        hyper = np.array([
            getattr(rule, "momentum", 0.9), getattr(rule, "rho", 0.9),
            getattr(rule, "beta_1", 0.9), getattr(rule, "beta_2", 0.999),
            getattr(rule, "epsilon", 1e-8),
        ])  # fmt: skip

        def epoch_pass():
            return _k.rule_epoch(
                X, y, weights, order, theta, avg, g, s1, s2, state, _k.RULE_CODES[step_rule],
                hyper, loss_code, float(epsilon), pen, float(alpha), ratio,
                schedule.learning_rate_init, schedule.power_t, optimal, bool(fit_intercept),
                code, int(batch_size), track,
            )[1]  # fmt: skip

        def current():
            return theta[:p], theta[p]

    best = -np.inf if validation_score is not None else np.inf
    misses = 0
    epoch = 0
    for epoch in range(max_iter):
        if rng is not None:
            rng.shuffle(order)
        state[_k.ETA] = rule.learning_rate
        objective = epoch_pass()
        w_now, b_now = current()
        if not (np.isfinite(b_now) and np.all(np.isfinite(w_now))):
            raise FloatingPointError(f"floating-point overflow at epoch {epoch + 1}")
        if tol is None:
            continue  # (scikit-learn's tol=-inf: every epoch counts as an improvement)
        if validation_score is None:
            value = objective / n_train
            missed = value > best - tol
            best = min(best, value)
        else:
            value = validation_score(w_now, b_now)
            missed = value < best + tol
            best = max(best, value)
        misses = misses + 1 if missed else 0
        if misses >= n_iter_no_change:
            if schedule.plateau(rule):
                break
            misses = 0
    if plain:
        _k.finish(w, aw, state, averaging)
        coef_out, b_out, avg_out, avg_b = w, state[_k.INTERCEPT], aw, state[_k.AVG_INTERCEPT]
    else:
        coef_out, b_out, avg_out, avg_b = theta[:p].copy(), theta[p], avg[:p].copy(), avg[p]
    return SGDResult(
        coef=coef_out,
        intercept=float(b_out),
        average_coef=avg_out if averaging else None,
        average_intercept=float(avg_b),
        n_iter=epoch + 1,
        t=float(state[_k.T]),
    )
