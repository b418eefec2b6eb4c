r"""Step rules of first-order optimisers, and the learning-rate schedules that drive them.

A step rule turns a gradient into a change of the parameters. Every rule here has the same
interface, independent of the model being trained::

    rule = Adam(learning_rate=1e-3)
    rule.update(params, grads)   # params[j] -= step(grads[j]), in place

``params`` and ``grads`` are sequences of C-contiguous float arrays of matching shapes (one flat
vector, or a network's weight matrices); the rule keeps its state (velocities, accumulated squares)
per array, allocated at the first :meth:`~StepRule.update`. ``t`` counts the updates made.

With :math:`g_t` the gradient at update :math:`t`, :math:`\eta` the learning rate and every
operation elementwise, the rules are

================  =========================================================================
``SGD``           :math:`\theta \leftarrow \theta - \eta g_t` (the notes' :math:`W_1 = W_0 - s
                  \nabla f(W_0)`)
``Momentum``      :math:`v \leftarrow \mu v - \eta g_t,\ \theta \leftarrow \theta + v`
                  (Polyak's heavy ball)
``Nesterov``      :math:`v \leftarrow \mu v - \eta g_t,\ \theta \leftarrow \theta + \mu v - \eta
                  g_t` (Sutskever et al.'s form, as scikit-learn and PyTorch implement it: the
                  stored :math:`\theta` is the look-ahead point at which the next gradient is
                  taken)
``Adagrad``       :math:`G \leftarrow G + g_t^2,\ \theta \leftarrow \theta - \eta g_t /
                  (\sqrt{G} + \epsilon)`
``RMSProp``       :math:`E \leftarrow \rho E + (1-\rho) g_t^2,\ \theta \leftarrow \theta - \eta
                  g_t / (\sqrt{E} + \epsilon)` (PyTorch's placement of :math:`\epsilon`)
``Adadelta``      :math:`E_g \leftarrow \rho E_g + (1-\rho) g_t^2,\ \Delta = -\frac{\sqrt{E_\Delta
                  + \epsilon}}{\sqrt{E_g + \epsilon}}\, g_t,\ E_\Delta \leftarrow \rho E_\Delta +
                  (1-\rho)\Delta^2,\ \theta \leftarrow \theta + \Delta` (Zeiler 2012, the
                  unit-corrected form: no learning rate)
``Adam``          :math:`m \leftarrow \beta_1 m + (1-\beta_1) g_t,\ v \leftarrow \beta_2 v +
                  (1-\beta_2) g_t^2,\ \eta_t = \eta \sqrt{1-\beta_2^t} / (1-\beta_1^t),\
                  \theta \leftarrow \theta - \eta_t m / (\sqrt{v} + \epsilon)` (Kingma & Ba's
                  bias correction folded into the step size, as scikit-learn does)
================  =========================================================================

All state starts at zero. :class:`LearningRateSchedule` changes ``rule.learning_rate`` between
epochs (scikit-learn's ``"constant"``, ``"invscaling"`` and ``"adaptive"``), or gives the rate of
every step (:meth:`LearningRateSchedule.rate`: the per-sample schedules of scikit-learn's
``SGDClassifier``, ``"optimal"`` included, whose compiled twin
:func:`._step_kernels.scheduled_rate` the linear models' stochastic gradient loop calls). The
updates run in compiled loops (:mod:`._step_kernels`), one pass over each array and no
temporaries.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np

from . import _step_kernels as _k

__all__ = [
    "RULES",
    "SCHEDULE_CODES",
    "SGD",
    "Adadelta",
    "Adagrad",
    "Adam",
    "LearningRateSchedule",
    "Momentum",
    "Nesterov",
    "RMSProp",
    "StepRule",
    "make_rule",
    "optimal_rate_offset",
]


def _flat(a: np.ndarray, name: str) -> np.ndarray:
    if not (isinstance(a, np.ndarray) and a.flags.c_contiguous and a.dtype.kind == "f"):
        raise ValueError(f"{name} must be C-contiguous float arrays (updated in place)")
    return a.reshape(-1)


class StepRule(ABC):
    """Base of the step rules: in-place :meth:`update` of a list of arrays.

    Parameters
    ----------
    learning_rate : float
        The step size :math:`\\eta` (unused by :class:`Adadelta`).
    """

    #: Names of the per-array state vectors (allocated as zeros at the first update).
    _state_names: tuple[str, ...] = ()
    #: Whether a :class:`LearningRateSchedule` may change ``learning_rate``.
    scheduled = True

    def __init__(self, learning_rate: float = 0.01):
        self.learning_rate = float(learning_rate)
        self.t = 0
        self.state: dict[str, list[np.ndarray]] | None = None

    def update(self, params: Sequence[np.ndarray], grads: Sequence[np.ndarray]) -> None:
        """Apply one step to ``params`` in place.

        Parameters
        ----------
        params : sequence of ndarray
            C-contiguous float arrays, changed in place.
        grads : sequence of ndarray
            Gradients, of the shapes of ``params``.
        """
        if len(params) != len(grads):
            raise ValueError("params and grads must have the same length")
        flat_p = [_flat(p, "params") for p in params]
        flat_g = [_flat(g, "grads") for g in grads]
        if self.state is None:
            self.state = {k: [np.zeros_like(p) for p in flat_p] for k in self._state_names}
        self.t += 1
        for j, (p, g) in enumerate(zip(flat_p, flat_g, strict=True)):
            if p.shape != g.shape:
                raise ValueError(f"params[{j}] and grads[{j}] differ in shape")
            self._step(p, g, *(self.state[k][j] for k in self._state_names))

    @abstractmethod
    def _step(self, p, g, *state):
        """One rule's update of the flat array ``p`` with gradient ``g`` and its state."""


class SGD(StepRule):
    """Plain gradient step :math:`\\theta \\leftarrow \\theta - \\eta g` (no state)."""

    def _step(self, p, g):
        _k.plain_step(p, g, self.learning_rate)


class Momentum(StepRule):
    """Heavy-ball momentum: :math:`v \\leftarrow \\mu v - \\eta g,\\ \\theta \\leftarrow \\theta
    + v` (scikit-learn's ``nesterovs_momentum=False``)."""

    _state_names = ("velocity",)
    _nesterov = False

    def __init__(self, learning_rate: float = 0.01, momentum: float = 0.9):
        super().__init__(learning_rate)
        self.momentum = float(momentum)

    def _step(self, p, g, v):
        _k.momentum_step(p, g, v, self.momentum, self.learning_rate, self._nesterov)


class Nesterov(Momentum):
    """Nesterov momentum as scikit-learn and PyTorch: :math:`v \\leftarrow \\mu v - \\eta g,\\
    \\theta \\leftarrow \\theta + \\mu v - \\eta g`."""

    _nesterov = True


class Adagrad(StepRule):
    """Adagrad: :math:`G \\leftarrow G + g^2,\\ \\theta \\leftarrow \\theta - \\eta g /
    (\\sqrt{G} + \\epsilon)`."""

    _state_names = ("sum_squares",)

    def __init__(self, learning_rate: float = 0.01, epsilon: float = 1e-8):
        super().__init__(learning_rate)
        self.epsilon = float(epsilon)

    def _step(self, p, g, acc):
        _k.adagrad_step(p, g, acc, self.learning_rate, self.epsilon)


class RMSProp(StepRule):
    """RMSProp: :math:`E \\leftarrow \\rho E + (1-\\rho) g^2,\\ \\theta \\leftarrow \\theta -
    \\eta g / (\\sqrt{E} + \\epsilon)`."""

    _state_names = ("mean_squares",)

    def __init__(self, learning_rate: float = 0.01, rho: float = 0.9, epsilon: float = 1e-8):
        super().__init__(learning_rate)
        self.rho = float(rho)
        self.epsilon = float(epsilon)

    def _step(self, p, g, acc):
        _k.rmsprop_step(p, g, acc, self.learning_rate, self.rho, self.epsilon)


class Adadelta(StepRule):
    """Adadelta (Zeiler's unit-corrected form): no learning rate; ``epsilon`` sets the size of
    the first steps (about :math:`\\sqrt{\\epsilon}`)."""

    _state_names = ("mean_squares", "mean_updates")
    scheduled = False

    def __init__(self, rho: float = 0.9, epsilon: float = 1e-6):
        super().__init__(1.0)
        self.rho = float(rho)
        self.epsilon = float(epsilon)

    def _step(self, p, g, acc_g, acc_d):
        _k.adadelta_step(p, g, acc_g, acc_d, self.rho, self.epsilon)


class Adam(StepRule):
    """Adam with the bias correction folded into the step size (scikit-learn's form).

    ``effective_learning_rate`` is :math:`\\eta_t` of the last update.
    """

    _state_names = ("first_moment", "second_moment")
    scheduled = False

    def __init__(
        self,
        learning_rate: float = 1e-3,
        beta_1: float = 0.9,
        beta_2: float = 0.999,
        epsilon: float = 1e-8,
    ):
        super().__init__(learning_rate)
        self.beta_1 = float(beta_1)
        self.beta_2 = float(beta_2)
        self.epsilon = float(epsilon)
        self.effective_learning_rate = self.learning_rate

    def update(self, params, grads) -> None:
        t = self.t + 1
        self.effective_learning_rate = (
            self.learning_rate * np.sqrt(1 - self.beta_2**t) / (1 - self.beta_1**t)
        )
        super().update(params, grads)

    def _step(self, p, g, m, v):
        _k.adam_step(
            p, g, m, v, self.beta_1, self.beta_2, self.effective_learning_rate, self.epsilon
        )


#: Rule classes by the name estimators use for them.
RULES: dict[str, type[StepRule]] = {
    "sgd": SGD,
    "momentum": Momentum,
    "nesterov": Nesterov,
    "adagrad": Adagrad,
    "rmsprop": RMSProp,
    "adadelta": Adadelta,
    "adam": Adam,
}


def make_rule(
    name: str,
    *,
    learning_rate: float,
    momentum: float = 0.9,
    rho: float = 0.9,
    beta_1: float = 0.9,
    beta_2: float = 0.999,
    epsilon: float = 1e-8,
) -> StepRule:
    """The rule called ``name`` (a key of :data:`RULES`), given the hyper-parameters it uses.

    Parameters
    ----------
    name : str
        ``"sgd"``, ``"momentum"``, ``"nesterov"``, ``"adagrad"``, ``"rmsprop"``, ``"adadelta"``
        or ``"adam"``.
    learning_rate, momentum, rho, beta_1, beta_2, epsilon : float
        Each rule takes the ones in its equations; the others are ignored.

    Returns
    -------
    StepRule
    """
    if name in ("momentum", "nesterov"):
        return RULES[name](learning_rate, momentum)
    if name == "adagrad":
        return Adagrad(learning_rate, epsilon)
    if name == "rmsprop":
        return RMSProp(learning_rate, rho, epsilon)
    if name == "adadelta":
        return Adadelta(rho, epsilon)
    if name == "adam":
        return Adam(learning_rate, beta_1, beta_2, epsilon)
    if name == "sgd":
        return SGD(learning_rate)
    raise ValueError(f"unknown step rule {name!r}; expected one of {sorted(RULES)}")


#: Codes of the per-step schedules in the compiled loops (:func:`._step_kernels.scheduled_rate`).
SCHEDULE_CODES = {
    "constant": _k.CONSTANT,
    "optimal": _k.OPTIMAL,
    "invscaling": _k.INVSCALING,
    "adaptive": _k.ADAPTIVE,
}


def optimal_rate_offset(alpha: float, loss_derivative) -> float:
    """The offset :math:`t_0` of the ``"optimal"`` rate :math:`\\eta_t = 1/(\\alpha (t_0 + t - 1))`.

    Bottou's heuristic, as scikit-learn applies it: for a typical weight size
    :math:`\\tau = \\alpha^{-1/4}` the first rate is :math:`\\eta_1 = \\tau / \\max(1,
    L'(1, -\\tau))`, and :math:`t_0 = 1 / (\\eta_1 \\alpha)` makes the schedule start there.

    Parameters
    ----------
    alpha : float
        The penalty strength (> 0).
    loss_derivative : callable
        ``loss_derivative(y, p)``: the loss's derivative in the prediction ``p``.

    Returns
    -------
    float
    """
    typical = np.sqrt(1.0 / np.sqrt(alpha))
    eta1 = typical / max(1.0, float(loss_derivative(1.0, -typical)))
    return 1.0 / (eta1 * alpha)


class LearningRateSchedule:
    """scikit-learn's learning-rate schedules, applied to a rule between epochs.

    Parameters
    ----------
    kind : {"constant", "invscaling", "adaptive", "optimal"}
        ``"constant"``: :math:`\\eta = \\eta_0` throughout. ``"invscaling"``: after each epoch,
        :math:`\\eta = \\eta_0 / (t + 1)^{\\text{power\\_t}}` with :math:`t` the number of samples
        seen so far. ``"adaptive"``: :math:`\\eta_0` until the loss stops improving
        (:meth:`plateau`), then divided by 5 at each plateau; training stops when it would fall
        to 1e-6 or below. ``"optimal"`` (per step only, :meth:`rate`):
        :math:`\\eta_t = 1/(\\alpha (t_0 + t - 1))`, :func:`optimal_rate_offset`.
    learning_rate_init : float
        :math:`\\eta_0`.
    power_t : float, default=0.5
        Exponent of ``"invscaling"``.
    alpha : float, default=None
        Penalty strength of ``"optimal"``.
    optimal_offset : float, default=None
        :math:`t_0` of ``"optimal"``.

    Notes
    -----
    Rules without a learning rate (:class:`Adadelta`) or with their own step-size sequence
    (:class:`Adam`, whose :math:`\\eta_t` is scikit-learn's) are not scheduled
    (``rule.scheduled`` is False): :meth:`epoch_end` leaves them alone and :meth:`plateau`
    stops training, as scikit-learn does for Adam.
    """

    def __init__(
        self,
        kind: str,
        learning_rate_init: float,
        power_t: float = 0.5,
        alpha: float | None = None,
        optimal_offset: float | None = None,
    ):
        if kind not in SCHEDULE_CODES:
            raise ValueError(f"unknown learning-rate schedule {kind!r}")
        if kind == "optimal" and (alpha is None or optimal_offset is None):
            raise ValueError("the 'optimal' schedule needs alpha and optimal_offset")
        self.kind = kind
        self.learning_rate_init = float(learning_rate_init)
        self.power_t = float(power_t)
        self.alpha = None if alpha is None else float(alpha)
        self.optimal_offset = None if optimal_offset is None else float(optimal_offset)

    @property
    def code(self) -> int:
        """The schedule's code in the compiled loops."""
        return SCHEDULE_CODES[self.kind]

    def rate(self, t: float, current: float | None = None) -> float:
        """The per-step rate at step ``t`` (from 1): scikit-learn's ``SGDClassifier`` schedules.

        ``current`` is the rate ``"constant"`` and ``"adaptive"`` keep (default
        ``learning_rate_init``); ``"invscaling"`` is :math:`\\eta_0 / t^{\\text{power\\_t}}`.
        """
        eta = self.learning_rate_init if current is None else float(current)
        return float(
            _k.scheduled_rate(
                self.code, eta, self.alpha or 0.0, float(t), self.power_t,
                self.optimal_offset or 0.0,
            )
        )  # fmt: skip

    def epoch_end(self, rule: StepRule, n_seen: int) -> None:
        """Update ``rule.learning_rate`` after an epoch; ``n_seen`` samples so far."""
        if self.kind == "invscaling" and rule.scheduled:
            rule.learning_rate = self.learning_rate_init / (n_seen + 1) ** self.power_t

    def plateau(self, rule: StepRule) -> bool:
        """The loss stopped improving: whether to stop (else the rate was divided by 5)."""
        if self.kind != "adaptive" or not rule.scheduled:
            return True
        if rule.learning_rate <= 1e-6:
            return True
        rule.learning_rate /= 5.0
        return False
