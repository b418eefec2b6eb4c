"""Linear models trained by stochastic gradient descent: the shared base and
:class:`SGDRegressor` (scikit-learn's names, defaults and per-sample update);
:class:`SGDClassifier` is in :mod:`._sgd_classifier`.

The estimators validate, encode the labels (one-vs-all for more than two classes) and call the
epoch loop :func:`statlearning._solvers.sgd.sgd_linear`; the rates come from the shared
schedules of :mod:`statlearning._solvers.steps`.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.metrics import r2_score
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit
from sklearn.utils import check_random_state

from .._core.scaling import linear_rescaling
from .._solvers.sgd import sgd_linear, start_offset
from .._solvers.steps import RULES, LearningRateSchedule
from .._validation import (
    Boolean,
    Interval,
    Options,
    RandomState,
    check_sample_weight,
    validate_data,
)
from ..base import LinearPredictorMixin, RegressorMixin, StatBase, fit_context
from ..exceptions import NumericalWarning, external_stacklevel, warn_not_converged

__all__ = ["SGDRegressor"]

_MAX_INT = np.iinfo(np.int32).max
_REGRESSION_LOSSES = (
    "squared_error",
    "huber",
    "epsilon_insensitive",
    "squared_epsilon_insensitive",
)

_COMMON_CONSTRAINTS = {
    "penalty": [Options({"l2", "l1", "elasticnet"}), None],
    "alpha": [Interval(Real, 0, None, closed="left")],
    "l1_ratio": [Interval(Real, 0, 1, closed="both")],
    "fit_intercept": [Boolean()],
    "max_iter": [Interval(Integral, 1, None, closed="left")],
    "tol": [Interval(Real, 0, None, closed="left"), None],
    "shuffle": [Boolean()],
    "epsilon": [Interval(Real, 0, None, closed="left")],
    "random_state": [RandomState()],
    "learning_rate": [Options({"constant", "optimal", "invscaling", "adaptive"})],
    "eta0": [Interval(Real, 0, None, closed="neither")],
    "power_t": [Interval(Real, 0, None, closed="left")],
    "early_stopping": [Boolean()],
    "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
    "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
    "warm_start": [Boolean()],
    "average": [Boolean(), Interval(Integral, 1, None, closed="left")],
    "batch_size": [Interval(Integral, 1, None, closed="left")],
    "step_rule": [Options(set(RULES))],
}


class _BaseSGD(StatBase):
    """The parts shared by the regressor and the classifier."""

    def _check_settings(self, partial: bool) -> None:
        name = type(self).__name__
        if self.learning_rate == "optimal" and self.alpha == 0:
            raise ValueError(
                f"{name}: learning_rate='optimal' needs alpha > 0 (its rate is "
                "1/(alpha (t0 + t))); set alpha or choose another learning_rate."
            )
        if partial and self.early_stopping:
            raise ValueError(
                f"{name}: partial_fit needs early_stopping=False (early stopping holds out part "
                "of the data of one fit)."
            )

    def _schedule(self) -> LearningRateSchedule:
        offset = None
        if self.learning_rate == "optimal":
            offset = start_offset(self.loss, float(self.alpha), float(self.epsilon))
        return LearningRateSchedule(
            self.learning_rate,
            float(self.eta0),
            float(self.power_t),
            alpha=float(self.alpha),
            optimal_offset=offset,
        )

    def _validation_rows(self, y_split, weights, stratified: bool):
        """Rows held out by ``early_stopping`` (scikit-learn's split), as a boolean mask."""
        n = y_split.shape[0]
        held = np.zeros(n, dtype=bool)
        if not self.early_stopping:
            return held
        splitter = (StratifiedShuffleSplit if stratified else ShuffleSplit)(
            test_size=self.validation_fraction, random_state=self.random_state
        )
        try:
            train, val = next(splitter.split(np.zeros((n, 1)), y_split))
        except ValueError as exc:
            raise ValueError(
                f"{type(self).__name__}: {n} samples cannot be split for early_stopping with "
                f"validation_fraction={self.validation_fraction} ({exc}); set "
                "early_stopping=False or change validation_fraction."
            ) from None
        if train.size == 0 or val.size == 0 or not np.any(weights[val] > 0):
            raise ValueError(
                f"{type(self).__name__}: early_stopping's validation set (validation_fraction="
                f"{self.validation_fraction}) is empty or has zero weight; set "
                "early_stopping=False or change validation_fraction."
            )
        held[val] = True
        return held

    def _rescaled(self, X):
        """``(X, x_scale)``: columns near 1e±60 or beyond are divided by powers of two (the
        steps would overflow or vanish), with a warning; otherwise ``(X, None)``."""
        rescaling = linear_rescaling(X)
        if rescaling is None:
            return X, None
        warnings.warn(
            f"{type(self).__name__}: the scale of X (columns near 1e±60 or beyond) is the "
            "problem: the step sizes and the penalty are in X's units, so the columns were "
            "divided by powers of two before training and the coefficients mapped back; the "
            "fit is that of the rescaled data. Standardise X (e.g. StandardScaler).",
            NumericalWarning,
            stacklevel=external_stacklevel(),
        )
        return np.ascontiguousarray(rescaling.apply(X)[0]), rescaling.x_scale

    def _run(self, X, y, weights, held, coef, intercept, avg_coef, avg_intercept, seed,
             max_iter, score, x_scale=None):  # fmt: skip
        """Train one output; ``X`` is already rescaled by ``x_scale`` (coefficients in and out
        are in the original units)."""
        train_rows = np.flatnonzero(~held)
        f = 1.0 if x_scale is None else x_scale
        val = None
        if self.early_stopping:
            Xv, yv, wv = X[held], y[held], weights[held]

            def val(c, b):
                return score(Xv @ c + b, yv, wv)

        try:
            res = sgd_linear(
                X, y, weights, train_rows, coef * f, intercept, loss=self.loss,
                epsilon=float(self.epsilon), penalty=self.penalty, alpha=float(self.alpha),
                l1_ratio=float(self.l1_ratio), schedule=self._schedule(),
                fit_intercept=bool(self.fit_intercept), max_iter=int(max_iter), tol=self.tol,
                n_iter_no_change=int(self.n_iter_no_change), shuffle=bool(self.shuffle),
                seed=seed, average=int(self.average), batch_size=int(self.batch_size),
                t=float(self.t_), average_coef=avg_coef * f, average_intercept=avg_intercept,
                validation_score=val, step_rule=self.step_rule,
            )  # fmt: skip
        except FloatingPointError as exc:
            raise ValueError(
                f"{type(self).__name__}: {exc}; standardise X (e.g. StandardScaler in a "
                "pipeline) or lower eta0."
            ) from None
        if x_scale is not None:
            res.coef = res.coef / x_scale
            if res.average_coef is not None:
                res.average_coef = res.average_coef / x_scale
        return res

    def _converged_check(self):
        if self.tol is not None and self.n_iter_ == self.max_iter:
            warn_not_converged(
                self,
                "stochastic gradient descent",
                max_iter=self.max_iter,
                unit="epochs",
                tol=self.tol,
                advice="increase max_iter or raise tol (or standardise X)",
            )

    def _publish(self, std_coef, std_intercept, avg_coef, avg_intercept):
        """Keep both iterates; ``coef_`` is the averaged one once averaging has started."""
        self._standard_coef, self._standard_intercept = std_coef, std_intercept
        self._average_coef, self._average_intercept = avg_coef, avg_intercept
        if self.average and self.average <= self.t_ - 1:
            return avg_coef, avg_intercept
        return std_coef, std_intercept

    def _start(self, shape, coef_init, intercept_init, continuing):
        """Starting weights: ``coef_init``, the previous fit (``continuing``) or zeros."""
        name = type(self).__name__
        n_out, p = shape
        if coef_init is not None:
            coef = np.array(coef_init, dtype=np.float64).reshape(-1)
            if coef.size != n_out * p:
                raise ValueError(
                    f"{name}: coef_init must have shape {shape[1:] if n_out == 1 else shape}."
                )
            coef = coef.reshape(n_out, p)
        elif continuing:
            coef = np.array(self._standard_coef, dtype=np.float64).reshape(n_out, p)
        else:
            coef = np.zeros((n_out, p))
        if intercept_init is not None:
            b = np.array(intercept_init, dtype=np.float64).reshape(-1)
            if b.size != n_out:
                raise ValueError(f"{name}: intercept_init must have shape ({n_out},).")
        elif continuing:
            b = np.array(self._standard_intercept, dtype=np.float64).reshape(n_out)
        else:
            b = np.zeros(n_out)
        if continuing and self.average:
            avg = np.array(self._average_coef, dtype=np.float64).reshape(n_out, p)
            avg_b = np.array(self._average_intercept, dtype=np.float64).reshape(n_out)
        else:
            avg, avg_b = np.zeros((n_out, p)), np.zeros(n_out)
        return coef, b, avg, avg_b


def _r2(pred, y, w):
    return r2_score(y, pred, sample_weight=w) if np.isfinite(pred).all() else -np.inf


class SGDRegressor(RegressorMixin, LinearPredictorMixin, _BaseSGD):
    """Linear regression trained by stochastic gradient descent (scikit-learn's update).

    Parameters
    ----------
    loss : {"squared_error", "huber", "epsilon_insensitive", "squared_epsilon_insensitive"}, \
default="squared_error"
        :math:`L(y, p)`: ``½(y − p)²``; Huber's loss with threshold ``epsilon``;
        ``max(0, |y − p| − ε)``; its square.
    penalty : {"l2", "l1", "elasticnet"} or None, default="l2"
        :math:`R(w)`: ``½‖w‖²``, ``‖w‖₁`` or ``ρ‖w‖₁ + ½(1 − ρ)‖w‖²`` (``ρ = l1_ratio``); the
        intercept is never penalised.
    alpha : float, default=1e-4
        Penalty strength :math:`\\alpha` (also sets the ``"optimal"`` rate).
    l1_ratio : float, default=0.15
        :math:`\\rho` of ``"elasticnet"``.
    fit_intercept : bool, default=True
        Learn the intercept ``b``.
    max_iter : int, default=1000
        Maximum number of epochs (passes over the data).
    tol : float or None, default=1e-3
        An epoch that lowers the mean training objective (or raises the validation score with
        ``early_stopping``) by less than ``tol`` counts as no improvement; ``None`` runs
        ``max_iter`` epochs.
    shuffle : bool, default=True
        Visit the samples in a new random order at each epoch.
    epsilon : float, default=0.1
        Threshold of ``"huber"`` and of the ε-insensitive losses.
    random_state : int, RandomState instance or None, default=None
        Seed of the shuffling and of the ``early_stopping`` split.
    learning_rate : {"constant", "optimal", "invscaling", "adaptive"}, default="invscaling"
        Rate of step :math:`t`: ``eta0``; :math:`1/(\\alpha(t_0 + t - 1))`;
        :math:`\\eta_0 / t^{\\text{power\\_t}}`; ``eta0`` divided by 5 each time
        ``n_iter_no_change`` epochs bring no improvement (stops below 1e-6).
    eta0 : float, default=0.01
        :math:`\\eta_0`.
    power_t : float, default=0.25
        Exponent of ``"invscaling"``.
    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the data and stop on its R² instead of the training
        objective.
    validation_fraction : float, default=0.1
        Share held out by ``early_stopping``.
    n_iter_no_change : int, default=5
        Epochs without improvement before stopping (or dividing the ``"adaptive"`` rate).
    warm_start : bool, default=False
        Start ``fit`` from the previous solution.
    average : bool or int, default=False
        ``True``: return the average of the iterates (averaged SGD); an int ``k``: average from
        step ``k`` on.
    batch_size : int, default=1
        Samples per step. ``1`` is the per-instance update of the notes and of scikit-learn; a
        larger batch steps along the mean gradient of its samples (``batch_size ≥ n_samples``
        is batch gradient descent); the rate schedules count steps.
    step_rule : {"sgd", "momentum", "nesterov", "adagrad", "rmsprop", "adadelta", "adam"}, \
default="sgd"
        ``"sgd"``: the plain step :math:`\\theta \\leftarrow \\theta - \\eta g` with the L2
        penalty as weight decay and the L1 penalty by truncation (scikit-learn's update).
        Another name: that rule of the library's shared optimisers (as in the MLPs: heavy-ball
        momentum 0.9, Nesterov, Adagrad, RMSProp with ρ = 0.9, Adadelta, Adam with β = (0.9,
        0.999)) steps along each batch's mean gradient, the penalty's (sub)gradient included
        (L1 then gives no exact zeros); its state starts at zero at each call of ``fit`` or
        ``partial_fit``. Adam and Adadelta keep their own step sizes (``eta0`` is Adam's
        rate; ``"adaptive"`` stops at the first plateau for them).

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    intercept_ : ndarray of shape (1,)
    n_iter_ : int
        Epochs run.
    t_ : float
        Steps taken plus one (the schedules' counter; with ``batch_size=1`` the number of
        samples seen, as scikit-learn's).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    Ridge : The closed-form optimum of the squared error with the L2 penalty.
    HuberRegressor : Huber's loss by IRLS.

    Notes
    -----
    The objective is scikit-learn's,

    .. math:: \\min_{w, b}\\ \\frac1n \\sum_i s_i L(y_i, x_i^\\top w + b) + \\alpha R(w),

    (:math:`s_i` the sample weights), minimised one sample at a time: at step :math:`t` with
    rate :math:`\\eta_t`, :math:`w \\leftarrow (1 - \\eta_t\\alpha(1-\\rho)) w - \\eta_t s_i
    L'(y_i, p_i) x_i`, :math:`b \\leftarrow b - \\eta_t s_i L'(y_i, p_i)`, then the L1 part by the
    cumulative-penalty truncation of Tsuruoka et al. (2009). This is the notes' update (Zwaan
    (3.21) with the factor 2 in the rate; Welling (7.8) with the intercept sign corrected, see
    :class:`SGDClassifier`); with ``shuffle=False`` the coefficients equal scikit-learn's
    ``SGDRegressor`` to rounding. Mapping: squared error with ``"l2"`` minimises
    :math:`\\frac1{2n}\\|y - Xw - b\\|^2 + \\frac\\alpha2\\|w\\|^2`, the optimum of
    ``Ridge(alpha=n·alpha)``; ``"l1"`` is glmnet's lasso with λ = ``alpha``; Huber's loss here
    is :class:`HuberRegressor`'s with ``delta=epsilon``. A decaying rate (``"invscaling"``,
    ``"optimal"``) or ``average=True`` is needed to reach the optimum itself; standardise the
    features first.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import SGDRegressor
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2))
    >>> y = 1.0 + X @ np.array([2.0, -1.0])
    >>> reg = SGDRegressor(penalty=None, random_state=0).fit(X, y)
    >>> np.round(reg.coef_, 1).tolist(), round(float(reg.intercept_[0]), 1)
    ([2.0, -1.0], 1.0)
    """

    _parameter_constraints = {
        "loss": [Options(set(_REGRESSION_LOSSES))],
        **_COMMON_CONSTRAINTS,
    }

    def __init__(
        self,
        loss="squared_error",
        *,
        penalty="l2",
        alpha=0.0001,
        l1_ratio=0.15,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-3,
        shuffle=True,
        epsilon=0.1,
        random_state=None,
        learning_rate="invscaling",
        eta0=0.01,
        power_t=0.25,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=5,
        warm_start=False,
        average=False,
        batch_size=1,
        step_rule="sgd",
    ):
        self.loss = loss
        self.penalty = penalty
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.shuffle = shuffle
        self.epsilon = epsilon
        self.random_state = random_state
        self.learning_rate = learning_rate
        self.eta0 = eta0
        self.power_t = power_t
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.n_iter_no_change = n_iter_no_change
        self.warm_start = warm_start
        self.average = average
        self.batch_size = batch_size
        self.step_rule = step_rule

    @fit_context
    def fit(self, X, y, coef_init=None, intercept_init=None, sample_weight=None):
        """Fit by stochastic gradient descent.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        coef_init : array-like of shape (n_features,), default=None
            Starting coefficients (default zeros, or the previous fit with ``warm_start``).
        intercept_init : array-like of shape (1,), default=None
            Starting intercept.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights :math:`s_i` of the samples.

        Returns
        -------
        self : SGDRegressor
        """
        self._check_settings(partial=False)
        continuing = self.warm_start and hasattr(self, "coef_")
        self.t_ = 1.0
        self._fit(X, y, sample_weight, self.max_iter, coef_init, intercept_init, continuing,
                  reset=True)  # fmt: skip
        self._converged_check()
        return self

    def partial_fit(self, X, y, sample_weight=None):
        """One epoch over ``(X, y)``, continuing from the current weights and step count.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self : SGDRegressor
        """
        self._validate_params()
        self._check_settings(partial=True)
        first = not hasattr(self, "coef_")
        if first:
            self.t_ = 1.0
        self._fit(X, y, sample_weight, 1, None, None, not first, reset=first)
        return self

    def _fit(self, X, y, sample_weight, max_iter, coef_init, intercept_init, continuing, reset):
        name = type(self).__name__
        X, y = validate_data(self, X, y, dtype=np.float64, order="C", y_numeric=True,
                             reset=reset)  # fmt: skip
        w = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        y = np.ascontiguousarray(y, dtype=np.float64)
        coef, b, avg, avg_b = self._start((1, X.shape[1]), coef_init, intercept_init, continuing)
        held = self._validation_rows(y, w, stratified=False)
        seed = int(check_random_state(self.random_state).randint(0, _MAX_INT))
        X, x_scale = self._rescaled(X)
        res = self._run(X, y, w, held, coef[0], b[0], avg[0], avg_b[0], seed, max_iter, _r2,
                        x_scale)  # fmt: skip
        self.n_iter_ = res.n_iter
        self.t_ = res.t
        avg_c = res.average_coef if res.average_coef is not None else avg[0]
        coef_, b_ = self._publish(res.coef, np.array([res.intercept]), avg_c,
                                  np.array([res.average_intercept]))  # fmt: skip
        self.coef_, self.intercept_ = coef_.copy(), b_.copy()
