"""Training of the multilayer perceptrons: parameters, data preparation, the epoch loop, L-BFGS.

:class:`BaseMLP` holds what :class:`~statlearning.neural_network.MLPRegressor` and
:class:`~statlearning.neural_network.MLPClassifier` share. The maths of the network is in
:mod:`._network`; the step rules and learning-rate schedules are the shared ones of
:mod:`statlearning._solvers.steps`, and L-BFGS is :func:`statlearning._solvers.lbfgs.lbfgs`.

The stochastic loop follows scikit-learn's ``BaseMultilayerPerceptron`` step for step (the same
random draws for the initial weights, the shuffles and the validation split, the same stopping
rule), so that the same seed gives the same network as scikit-learn's for the solvers both
libraries have.
"""

from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from numbers import Integral, Real

import numpy as np
from sklearn.model_selection import train_test_split
from sklearn.utils import check_random_state, shuffle
from sklearn.utils.validation import check_is_fitted, column_or_1d

from .._core.compiled import PRODUCT_THREADS_FROM, single_blas_thread
from .._core.scaling import max_abs, scale_for
from .._solvers.lbfgs import lbfgs
from .._solvers.steps import RULES, LearningRateSchedule, make_rule
from .._validation import (
    Boolean,
    Interval,
    Options,
    RandomState,
    check_sample_weight,
    validate_data,
)
from ..base import StatBase
from ..exceptions import NumericalWarning, external_stacklevel, warn_not_converged
from ._network import LOSSES, Network, forward_output, glorot_init

_SOLVERS = (*RULES, "lbfgs")
#: L-BFGS also stops when the loss decreases by less than this, relatively (SciPy's default
#: ``ftol``, factr = 1e7, which scikit-learn's MLPs use): a non-convex loss gains nothing from
#: the last digits, and both libraries then stop at the same iteration
_LBFGS_FTOL = 1e7 * np.finfo(np.float64).eps


class _LayerSizes:
    """An int or a sequence of ints, each at least 1 (an empty sequence: no hidden layer)."""

    def is_satisfied_by(self, value) -> bool:
        if isinstance(value, Integral) and not isinstance(value, bool):
            return True
        try:
            return all(isinstance(v, Integral) and not isinstance(v, bool) for v in value)
        except TypeError:
            return False

    def __str__(self) -> str:
        return "an int or a sequence of ints"


class _Dtype:
    """``None``, ``numpy.float32`` or ``numpy.float64`` (or their names)."""

    def is_satisfied_by(self, value) -> bool:
        if value is None:
            return True
        try:
            return np.dtype(value) in (np.float32, np.float64)
        except TypeError:
            return False

    def __str__(self) -> str:
        return "None, numpy.float32 or numpy.float64"


class BaseMLP(StatBase, ABC):
    """Shared parameters and training of the multilayer perceptrons (not public)."""

    _parameter_constraints = {
        "hidden_layer_sizes": [_LayerSizes()],
        "activation": [Options({"identity", "logistic", "tanh", "relu"})],
        "solver": [Options(set(_SOLVERS))],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "batch_size": [Options({"auto"}), Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Options({"constant", "invscaling", "adaptive"})],
        "learning_rate_init": [Interval(Real, 0, None, closed="neither")],
        "power_t": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "shuffle": [Boolean()],
        "random_state": [RandomState()],
        "tol": [Interval(Real, 0, None, closed="left")],
        "warm_start": [Boolean()],
        "momentum": [Interval(Real, 0, 1, closed="both")],
        "rho": [Interval(Real, 0, 1, closed="right")],
        "early_stopping": [Boolean()],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "beta_1": [Interval(Real, 0, 1, closed="left")],
        "beta_2": [Interval(Real, 0, 1, closed="left")],
        "epsilon": [Interval(Real, 0, None, closed="neither")],
        "n_iter_no_change": [Interval(Integral, 1, None, closed="left")],
        "max_fun": [Interval(Integral, 1, None, closed="left")],
        "use_bias": [Boolean()],
        "loss": [Options(set(LOSSES))],
        "dtype": [_Dtype()],
    }

    _classifier = False

    # -- hooks of the subclasses --------------------------------------------------------------
    @abstractmethod
    def _targets(self, y, first_pass, classes=None):
        """``(Y, out_activation)``: the target matrix (n, n_outputs) of the network."""

    @abstractmethod
    def _score(self, X, y, sample_weight):
        """The validation score of early stopping (R² or accuracy)."""

    # -- helpers --------------------------------------------------------------------------
    def _hidden_sizes(self) -> list[int]:
        sizes = self.hidden_layer_sizes
        sizes = [sizes] if isinstance(sizes, Integral) else list(sizes)
        if any(int(s) <= 0 for s in sizes):
            raise ValueError(
                f"{type(self).__name__}: hidden_layer_sizes must hold positive layer sizes "
                f"(a layer of 0 units cannot pass anything on); got {self.hidden_layer_sizes!r}."
            )
        return [int(s) for s in sizes]

    def _compute_dtype(self, X):
        if self.dtype is not None:
            return np.dtype(self.dtype).type
        kind = getattr(X, "dtype", None)
        if kind is not None and np.dtype(kind) in (np.float16, np.float32):
            return np.float32  # float16 is computed in float32
        return np.float64

    def _check_loss(self, allowed):
        if self.loss not in allowed:
            raise ValueError(
                f"{type(self).__name__}: loss={self.loss!r} is not available here; use one of "
                f"{sorted(allowed)}."
            )

    def _network(self) -> Network:
        """A network holding the current ``coefs_``/``intercepts_`` (which become its views)."""
        units = [self.coefs_[0].shape[0], *(c.shape[1] for c in self.coefs_)]
        net = Network(
            units,
            self.activation,
            self.out_activation_,
            self._loss_name(),
            self.alpha,
            self.use_bias,
            self.coefs_[0].dtype,
        )
        net.set_params(self.coefs_, self.intercepts_)
        return net

    def _loss_name(self) -> str:
        return self.loss

    def _forward(self, X) -> np.ndarray:
        """The output layer for new ``X`` (validated, in the fitted dtype)."""
        check_is_fitted(self, "coefs_")
        X = validate_data(self, X, reset=False, dtype=self.coefs_[0].dtype.type)
        flops = X.shape[0] * sum(c.size for c in self.coefs_)
        with (
            np.errstate(over="ignore", invalid="ignore", under="ignore"),
            single_blas_thread(flops, quiet_above=PRODUCT_THREADS_FROM),
        ):
            return forward_output(
                X, self.coefs_, self.intercepts_, self.activation, self.out_activation_,
                self.use_bias,
            )  # fmt: skip

    # -- fitting --------------------------------------------------------------------------
    def _fit(self, X, y, sample_weight=None, *, incremental=False, classes=None):
        sizes = self._hidden_sizes()
        first_pass = not hasattr(self, "coefs_") or (not self.warm_start and not incremental)
        dtype = np.dtype(self._compute_dtype(X) if first_pass else self.coefs_[0].dtype).type
        # stochastic solvers read float64 X in mini-batches, each cast to float32 when it is
        # gathered: no float32 copy of the whole X (half its memory again)
        stream = (
            dtype is np.float32
            and self.solver != "lbfgs"
            and getattr(X, "dtype", None) == np.float64
        )
        X, y = validate_data(
            self, X, y, reset=first_pass, dtype=np.float64 if stream else dtype, order="C",
            multi_output=True, y_numeric=not self._classifier,
        )  # fmt: skip
        if y.ndim == 2 and y.shape[1] == 1:
            y = column_or_1d(y, warn=True)
        if X.dtype != dtype and not stream:
            X = X.astype(dtype)
        sw = None
        if sample_weight is not None:
            sw = check_sample_weight(sample_weight, X.shape[0], estimator_name=type(self).__name__)
            sw = sw.astype(dtype)
        # float32 cannot hold magnitudes that need rescaling (and a float64 pass would copy X)
        scale = scale_for(X) if X.dtype == np.float64 else None
        if scale is not None:
            X = self._rescale_input(X, scale)
        Y, out_activation = self._targets(y, first_pass, classes)
        Y = np.ascontiguousarray(Y, dtype=dtype)
        rng = check_random_state(self.random_state)
        units = [X.shape[1], *sizes, Y.shape[1]]
        if first_pass:
            self._initialize(rng, units, out_activation, dtype)
        elif [self.coefs_[0].shape[0], *(c.shape[1] for c in self.coefs_)] != units:
            raise ValueError(
                f"{type(self).__name__}: the fitted network has layers "
                f"{[self.coefs_[0].shape[0], *(c.shape[1] for c in self.coefs_)]}, but X, y "
                f"and hidden_layer_sizes ask for {units}; refit with warm_start=False."
            )
        if scale is not None and not first_pass:
            self.coefs_ = [self.coefs_[0] * scale, *self.coefs_[1:]]
        net = self._network()
        self.coefs_, self.intercepts_ = net.coefs, net.intercepts
        with np.errstate(over="ignore", invalid="ignore", under="ignore", divide="ignore"):
            if self.solver == "lbfgs":
                self._fit_lbfgs(net, X, Y, sw)
            else:
                self._fit_stochastic(net, X, Y, y, sw, rng, incremental)
        if not np.isfinite(net.theta).all():
            raise ValueError(self._divergence_message("produced non-finite weights"))
        if scale is not None:
            net.coefs[0] /= scale
        return self

    def _rescale_input(self, X, scale):
        """Train on ``X / scale`` (exact: a power of two), with a warning naming the scale."""
        warnings.warn(
            f"{type(self).__name__}: the largest |X| is {max_abs(X):.3g}; a network trains on "
            f"inputs of moderate scale, so it was trained on X / 2**{int(np.log2(scale))} (exact) "
            "and coefs_[0] was divided by that factor afterwards: the data's scale is the "
            "problem and the fit is not that of X at its own scale; standardise X.",
            NumericalWarning,
            stacklevel=external_stacklevel(),
        )
        return X / scale

    def _initialize(self, rng, units, out_activation, dtype):
        self.n_iter_ = 0
        self.t_ = 0
        self.n_outputs_ = units[-1]
        self.n_layers_ = len(units)
        self.out_activation_ = out_activation
        self.coefs_, self.intercepts_ = glorot_init(rng, units, self.activation, dtype)
        if not self.use_bias:
            self.intercepts_ = [np.zeros_like(b) for b in self.intercepts_]
        self.loss_curve_ = []
        self._no_improvement_count = 0
        self.best_validation_score_ = None
        self.validation_scores_ = None
        self.best_loss_ = np.inf
        if self.solver != "lbfgs" and self.early_stopping:
            self.validation_scores_ = []
            self.best_validation_score_ = -np.inf
            self.best_loss_ = None
        self._best_theta = None
        for name in ("_rule", "_schedule"):
            if hasattr(self, name):
                delattr(self, name)

    def _divergence_message(self, what: str) -> str:
        if self.solver == "adadelta":
            knob = "decrease epsilon or rho"
        elif self.solver == "lbfgs":
            knob = "standardise X (and y)"
        else:
            knob = f"decrease learning_rate_init (now {self.learning_rate_init})"
        return (
            f"{type(self).__name__}: training diverged (solver={self.solver!r} {what}); {knob}, "
            "or standardise X."
        )

    def _fit_lbfgs(self, net, X, Y, sw):
        theta = net.theta

        def fun_and_grad(x):
            theta[...] = x
            loss = net.loss_grad(X, Y, sw)
            return loss, net.grad.astype(np.float64)

        # one BLAS thread throughout: every iteration alternates NumPy's products with SciPy's
        # L-BFGS-B, two OpenBLAS libraries whose threads spin after each call (50 iterations of
        # 100 units on 1,000 / 10,000 / 50,000 × 100: 1.45 / 2.17 / 6.93 s threaded, 0.33 /
        # 0.76 / 3.70 s on one thread)
        with single_blas_thread():
            res = lbfgs(
                fun_and_grad,
                theta,
                max_iter=self.max_iter,
                tol=self.tol,
                max_fun=self.max_fun,
                # scikit-learn's factr at the default tol; a tighter tol tightens it alike, so
                # that a user who asks for the optimum gets it
                ftol=_LBFGS_FTOL * min(1.0, self.tol / 1e-4),
            )
        theta[...] = res.x
        self.n_iter_ = min(int(res.n_iter), self.max_iter)
        self.loss_ = float(fun_and_grad(res.x)[0])
        if not np.isfinite(self.loss_):
            raise ValueError(self._divergence_message("reached a non-finite loss"))
        if not res.converged:
            warn_not_converged(
                self, "L-BFGS", max_iter=self.max_iter, tol=self.tol,
                advice="increase max_iter (and max_fun), or standardise X",
            )  # fmt: skip

    def _fit_stochastic(self, net, X, Y, y, sw, rng, incremental):
        if not incremental or not hasattr(self, "_rule"):
            self._rule = make_rule(
                self.solver,
                learning_rate=self.learning_rate_init,
                momentum=self.momentum,
                rho=self.rho,
                beta_1=self.beta_1,
                beta_2=self.beta_2,
                epsilon=self.epsilon,
            )
            self._schedule = LearningRateSchedule(
                self.learning_rate, self.learning_rate_init, self.power_t
            )
        state = self._rule.state or {}
        if any(a.size != net.n_params for arrays in state.values() for a in arrays):
            self._rule.state = None
        early = self.early_stopping
        X_val = y_val = sw_val = None
        if early:
            X, Y, y, sw, X_val, y_val, sw_val = self._validation_split(X, Y, y, sw, rng)
        n = X.shape[0]
        if self.batch_size == "auto":
            batch = min(200, n)
        else:
            if self.batch_size > n:
                warnings.warn(
                    f"{type(self).__name__}: batch_size={self.batch_size} exceeds the "
                    f"{n} training samples; using {n}.",
                    UserWarning,
                )
            batch = int(np.clip(self.batch_size, 1, n))
        self.n_iter_ = 0
        # one thread: the products of a mini-batch are too small for BLAS threads to pay off
        with single_blas_thread(batch * net.n_coef, quiet_above=PRODUCT_THREADS_FROM):
            self._epochs(net, X, Y, sw, rng, incremental, batch, early, X_val, y_val, sw_val)
        if early and self._best_theta is not None:
            net.theta[...] = self._best_theta

    def _validation_split(self, X, Y, y, sw, rng):
        """scikit-learn's split of the data for early stopping (stratified for one output).

        Where scikit-learn's split fails on small data (fewer held-out rows than classes, or a
        class of one row), the held-out set is enlarged to ``max(2, n_classes)`` rows, and the
        split is not stratified when a class has a single row.
        """
        n = X.shape[0]
        stratify = Y if self._stratify_validation() and Y.shape[1] == 1 else None
        n_val = int(np.ceil(self.validation_fraction * n))
        n_min = 2 if stratify is None else max(2, np.unique(y).size)
        test_size = self.validation_fraction if n_val >= n_min else n_min
        if stratify is not None and np.unique(y, return_counts=True)[1].min() < 2:
            stratify = None
        if n - max(n_val, n_min) < 1:
            raise ValueError(
                f"{type(self).__name__}: {n} samples are too few for early_stopping (the "
                f"validation set needs {n_min} of them); set early_stopping=False."
            )
        parts = [X, Y, y] if sw is None else [X, Y, y, sw]
        split = train_test_split(*parts, random_state=rng, test_size=test_size, stratify=stratify)
        X, X_val, Y, _, y, y_val = split[:6]
        X_val = X_val.astype(Y.dtype, copy=False)  # scored in the network's dtype
        sw, sw_val = (None, None) if sw is None else (split[6], split[7])
        return X, Y, y, sw, X_val, y_val, sw_val

    def _epochs(self, net, X, Y, sw, rng, incremental, batch, early, X_val, y_val, sw_val):
        """The epoch loop of the stochastic solvers (scikit-learn's, step for step)."""
        rule, schedule = self._rule, self._schedule
        n = X.shape[0]
        idx = np.arange(n)
        cast = X.dtype != Y.dtype  # float64 X, float32 network: cast each batch
        Xbuf = np.empty((batch, X.shape[1]), dtype=Y.dtype) if self.shuffle else None
        Ybuf = np.empty((batch, Y.shape[1]), dtype=Y.dtype) if self.shuffle else None
        theta, grad = [net.theta], [net.grad]
        for _ in range(self.max_iter):
            if self.shuffle:
                idx = shuffle(idx, random_state=rng)
            total = 0.0
            for start in range(0, n, batch):
                stop = min(start + batch, n)
                if self.shuffle:
                    rows = idx[start:stop]
                    if cast:
                        Xb = Xbuf[: stop - start]
                        Xb[...] = X[rows]
                    else:
                        Xb = np.take(X, rows, axis=0, out=Xbuf[: stop - start])
                    Yb = np.take(Y, rows, axis=0, out=Ybuf[: stop - start])
                    swb = None if sw is None else sw[rows]
                else:
                    Xb, Yb = X[start:stop], Y[start:stop]
                    if cast:
                        Xb = Xb.astype(Y.dtype)
                    swb = None if sw is None else sw[start:stop]
                loss = net.loss_grad(Xb, Yb, swb)
                if not np.isfinite(loss):
                    raise ValueError(self._divergence_message("reached a non-finite loss"))
                total += loss * (stop - start)
                rule.update(theta, grad)
            self.n_iter_ += 1
            self.loss_ = total / n
            self.t_ += n
            self.loss_curve_.append(self.loss_)
            if early:
                self._track_validation(net, X_val, y_val, sw_val)
            else:
                self._track_loss()
            schedule.epoch_end(rule, self.t_)
            if self._no_improvement_count > self.n_iter_no_change:
                if schedule.plateau(rule):
                    break
                self._no_improvement_count = 0
            if incremental:
                break
            if self.n_iter_ == self.max_iter:
                warn_not_converged(
                    self, f"the {self.solver} optimiser", max_iter=self.max_iter,
                    unit="epochs", tol=self.tol, advice="increase max_iter",
                )  # fmt: skip

    def _track_loss(self):
        last = self.loss_curve_[-1]
        if last > self.best_loss_ - self.tol:
            self._no_improvement_count += 1
        else:
            self._no_improvement_count = 0
        if last < self.best_loss_:
            self.best_loss_ = last

    def _track_validation(self, net, X_val, y_val, sw_val):
        with np.errstate(all="ignore"):
            score = self._score(X_val, y_val, sw_val)
        self.validation_scores_.append(score)
        if score < self.best_validation_score_ + self.tol:
            self._no_improvement_count += 1
        else:
            self._no_improvement_count = 0
        if score > self.best_validation_score_:
            self.best_validation_score_ = score
            self._best_theta = net.theta.copy()

    def _stratify_validation(self) -> bool:
        return False
