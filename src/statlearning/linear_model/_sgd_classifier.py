"""The classifier trained by stochastic gradient descent, :class:`SGDClassifier` (one-vs-all for
more than two classes); its epoch loop and settings are those of :mod:`._sgd`.
"""

from __future__ import annotations

import numpy as np
from sklearn.metrics import accuracy_score
from sklearn.utils import check_random_state, compute_class_weight
from sklearn.utils.metaestimators import available_if

from .._core.class_labels import encode_class_labels
from .._validation import (
    InstanceOf,
    Options,
    check_sample_weight,
    validate_data,
)
from ..base import ClassifierMixin, fit_context
from ._perceptron import _LinearClassifierPredict
from ._sgd import _COMMON_CONSTRAINTS, _MAX_INT, _REGRESSION_LOSSES, _BaseSGD

__all__ = ["SGDClassifier"]

_CLASSIFICATION_LOSSES = (
    "hinge", "log_loss", "modified_huber", "squared_hinge", "perceptron", "tanh",
    *_REGRESSION_LOSSES,
)  # fmt: skip


def _accuracy(score, s, w):
    return accuracy_score(s, np.where(score > 0, 1.0, -1.0), sample_weight=w)


def _has_proba(estimator) -> bool:
    if estimator.loss not in ("log_loss", "modified_huber"):
        raise AttributeError(
            f"{type(estimator).__name__}: probabilities need loss='log_loss' or "
            f"'modified_huber'; loss={estimator.loss!r} has none."
        )
    return True


class SGDClassifier(ClassifierMixin, _LinearClassifierPredict, _BaseSGD):
    """Linear classifiers trained by stochastic gradient descent (one-vs-all for K > 2).

    The linear SVM, logistic regression, the perceptron, the least-squares and tanh-cost
    classifiers of the notes, by scikit-learn's per-sample update.

    Parameters
    ----------
    loss : {"hinge", "log_loss", "modified_huber", "squared_hinge", "perceptron", "tanh", \
"squared_error", "huber", "epsilon_insensitive", "squared_epsilon_insensitive"}, default="hinge"
        :math:`L(s, p)` of the label :math:`s = \\pm1` and the score :math:`p = x^\\top w + b`:
        ``max(0, 1 − sp)`` (linear SVM); ``log(1 + e^{−sp})`` (logistic regression);
        scikit-learn's modified Huber; ``max(0, 1 − sp)²``; ``max(0, −sp)`` (Rosenblatt's
        perceptron criterion); ``−s tanh(p)`` (the notes' bounded cost, non-convex, see Notes);
        or a regression loss of the ±1 label (``"squared_error"`` is the notes' least-squares
        "perceptron", see Notes).
    penalty : {"l2", "l1", "elasticnet"} or None, default="l2"
        :math:`R(w)`: ``½‖w‖²``, ``‖w‖₁`` or ``ρ‖w‖₁ + ½(1 − ρ)‖w‖²``; never the intercept.
    alpha : float, default=1e-4
        Penalty strength :math:`\\alpha` (also sets the ``"optimal"`` rate).
    l1_ratio : float, default=0.15
        :math:`\\rho` of ``"elasticnet"``.
    fit_intercept : bool, default=True
        Learn the intercept ``b``.
    max_iter : int, default=1000
        Maximum number of epochs.
    tol : float or None, default=1e-3
        An epoch that lowers the mean training objective (or raises the validation accuracy
        with ``early_stopping``) by less than ``tol`` counts as no improvement; ``None`` runs
        ``max_iter`` epochs.
    shuffle : bool, default=True
        Visit the samples in a new random order at each epoch.
    epsilon : float, default=0.1
        Threshold of the ``"huber"`` and ε-insensitive losses.
    random_state : int, RandomState instance or None, default=None
        Seed of the shuffling and of the ``early_stopping`` split.
    learning_rate : {"optimal", "constant", "invscaling", "adaptive"}, default="optimal"
        Rate of step :math:`t`: :math:`1/(\\alpha(t_0 + t - 1))` with Bottou's :math:`t_0`;
        ``eta0``; :math:`\\eta_0 / t^{\\text{power\\_t}}`; ``eta0`` divided by 5 each time
        ``n_iter_no_change`` epochs bring no improvement.
    eta0 : float, default=0.01
        :math:`\\eta_0`.
    power_t : float, default=0.5
        Exponent of ``"invscaling"``.
    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the data (stratified) and stop on its accuracy.
    validation_fraction : float, default=0.1
        Share held out by ``early_stopping``.
    n_iter_no_change : int, default=5
        Epochs without improvement before stopping (or dividing the ``"adaptive"`` rate).
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, multiplying the sample weights (``"balanced"``:
        ``n / (K n_k)``). In the one-vs-all problem of class k, as in scikit-learn, class k's
        weight multiplies its samples and the other samples keep weight 1.
    warm_start : bool, default=False
        Start ``fit`` from the previous solution.
    average : bool or int, default=False
        ``True``: return the average of the iterates; an int ``k``: average from step ``k``.
    batch_size : int, default=1
        Samples per step: ``1`` is the per-instance update; larger batches step along the mean
        gradient of their samples (``batch_size ≥ n_samples``: batch gradient descent).
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
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        Weights for ``classes_[1]`` (two classes) or one-vs-all weights of each class.
    intercept_ : ndarray of shape (1,) or (n_classes,)
    n_iter_ : int
        Epochs run (the largest over the one-vs-all problems).
    t_ : float
        Steps taken plus one (the schedules' counter).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    LogisticRegression : The exact optimum of the logistic loss (``C = 1/(n·alpha)``).
    Perceptron : Rosenblatt's mistake-driven updates.
    LeastSquaresClassifier : The closed-form optimum of the least-squares "perceptron".

    Notes
    -----
    With labels :math:`s_i = +1` for ``classes_[1]`` (for class k in one-vs-all) and
    :math:`-1` otherwise, the objective is scikit-learn's

    .. math:: \\min_{w, b}\\ \\frac1n \\sum_i c_i L(s_i, x_i^\\top w + b) + \\alpha R(w)

    (:math:`c_i` sample times class weight), minimised by the per-sample steps of
    :class:`SGDRegressor`; with ``shuffle=False`` the coefficients equal scikit-learn's
    ``SGDClassifier`` to rounding. Mappings: ``log_loss`` with ``"l2"`` is
    ``LogisticRegression(penalty="l2", C=1/(n·alpha))``; ``hinge`` with ``"l2"`` is the linear
    soft-margin SVM with cost ``C = 1/(n·alpha)`` (intercept unpenalised);
    ``loss="perceptron", penalty=None, learning_rate="constant", eta0=1`` is
    :class:`Perceptron`'s update.

    Welling's "perceptron" (Ch. 7, the LMS rule) is ``loss="squared_error", penalty=None``:
    :math:`C = \\frac1{2N}\\sum_n (Y_n - w^\\top X_n + \\alpha)^2` with our :math:`b =
    -\\alpha`. ``batch_size=1`` is its stochastic update (7.8)–(7.9) and ``batch_size ≥ N`` its
    batch gradient descent (7.6)–(7.7); a decaying ``learning_rate`` is the annealing the notes
    ask for. The notes print (7.9) as :math:`\\alpha \\leftarrow \\alpha + \\eta(Y_n - w^\\top
    X_n + \\alpha)`, a sign error (it contradicts the gradient (7.5)): the update here is the
    correct :math:`\\alpha \\leftarrow \\alpha - \\eta(Y_n - w^\\top X_n + \\alpha)`, i.e.
    :math:`b \\leftarrow b + \\eta r_n`. Its minimiser is :class:`LeastSquaresClassifier`'s
    (coefficients doubled by the ±1 coding). ``loss="tanh"`` is the notes' "logistic
    regression" cost :math:`-\\frac1N\\sum_n Y_n \\tanh(w^\\top X_n + \\alpha)` (here :math:`b
    = \\alpha`): bounded (each term lies in (−1, 1)) and robust to gross violations, but not
    convex — gradient steps find a local minimum that depends on the start and the rate, and
    large weights make the gradient vanish (``"optimal"`` rates suit it poorly; prefer
    ``"constant"`` or ``"invscaling"`` on standardised features).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import SGDClassifier
    >>> X = np.array([[-2.0, -1.0], [-1.0, -1.0], [-1.0, -2.0], [1.0, 1.0], [1.0, 2.0],
    ...               [2.0, 1.0]])
    >>> clf = SGDClassifier(random_state=0).fit(X, ["a", "a", "a", "b", "b", "b"])
    >>> clf.predict([[-0.8, -1.0], [3.0, 2.0]]).tolist()
    ['a', 'b']
    """

    _parameter_constraints = {
        "loss": [Options(set(_CLASSIFICATION_LOSSES))],
        **_COMMON_CONSTRAINTS,
        "class_weight": [Options({"balanced"}), InstanceOf(dict), None],
    }

    def __init__(
        self,
        loss="hinge",
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
        learning_rate="optimal",
        eta0=0.01,
        power_t=0.5,
        early_stopping=False,
        validation_fraction=0.1,
        n_iter_no_change=5,
        class_weight=None,
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
        self.class_weight = class_weight
        self.warm_start = warm_start
        self.average = average
        self.batch_size = batch_size
        self.step_rule = step_rule

    @fit_context
    def fit(self, X, y, coef_init=None, intercept_init=None, sample_weight=None):
        """Fit by stochastic gradient descent (one-vs-all for more than two classes).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels of any type.
        coef_init : array-like of shape (n_classes, n_features), default=None
            Starting weights (one row for two classes).
        intercept_init : array-like of shape (n_classes,), default=None
            Starting intercepts.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the samples (multiplied by ``class_weight``).

        Returns
        -------
        self : SGDClassifier
        """
        self._check_settings(partial=False)
        continuing = self.warm_start and hasattr(self, "coef_")
        X, y = validate_data(self, X, y, dtype=np.float64, order="C")
        self.classes_, codes = encode_class_labels(y, type(self).__name__)
        self.t_ = 1.0
        self._fit(X, codes, sample_weight, self.max_iter, coef_init, intercept_init, continuing)
        self._converged_check()
        return self

    def partial_fit(self, X, y, classes=None, sample_weight=None):
        """One epoch over ``(X, y)``, continuing from the current weights and step count.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        classes : array-like of shape (n_classes,), default=None
            Every class label; required at the first call.
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        self : SGDClassifier
        """
        self._validate_params()
        self._check_settings(partial=True)
        name = type(self).__name__
        first = not hasattr(self, "coef_")
        if first and classes is None:
            raise ValueError(f"{name}: the first call of partial_fit needs classes= (every label).")
        if first and isinstance(self.class_weight, str):
            raise ValueError(
                f"{name}: class_weight='balanced' needs the whole data; with partial_fit pass a "
                "dict of class weights."
            )
        X, y = validate_data(self, X, y, dtype=np.float64, order="C", reset=first)
        if first:
            self.classes_, _ = encode_class_labels(np.asarray(classes), name)
            self.t_ = 1.0
        unknown = np.setdiff1d(np.asarray(y), self.classes_)
        if unknown.size:
            raise ValueError(f"{name}: y has labels {unknown.tolist()} not in classes_.")
        codes = np.searchsorted(self.classes_, y)
        self._fit(X, codes, sample_weight, 1, None, None, not first)
        return self

    def _class_weights(self, codes) -> np.ndarray:
        K = self.classes_.size
        if self.class_weight is None:
            return np.ones(K)
        if isinstance(self.class_weight, dict):
            unknown = [k for k in self.class_weight if k not in set(self.classes_.tolist())]
            if unknown:
                raise ValueError(
                    f"{type(self).__name__}: class_weight names labels {unknown} that are not "
                    "classes of y."
                )
        return compute_class_weight(self.class_weight, classes=self.classes_,
                                    y=self.classes_[codes])  # fmt: skip

    def _fit(self, X, codes, sample_weight, max_iter, coef_init, intercept_init, continuing):
        name = type(self).__name__
        K = self.classes_.size
        sw = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        cw = self._class_weights(codes)
        targets = [1] if K == 2 else list(range(K))
        coef, b, avg, avg_b = self._start((len(targets), X.shape[1]), coef_init,
                                          intercept_init, continuing)  # fmt: skip
        held = self._validation_rows(codes, sw, stratified=True)
        rng = check_random_state(self.random_state)
        seeds = [int(rng.randint(_MAX_INT))] if K == 2 else rng.randint(_MAX_INT, size=K).tolist()
        n_iter, t = 0, self.t_
        X, x_scale = self._rescaled(X)
        for r, (k, seed) in enumerate(zip(targets, seeds, strict=True)):
            s = np.where(codes == k, 1.0, -1.0)
            pos, neg = (cw[1], cw[0]) if K == 2 else (cw[k], 1.0)
            if pos == 1.0 and neg == 1.0:
                weights = sw
            else:
                weights = np.where(s > 0, pos, neg)
                weights *= sw
            res = self._run(X, s, weights, held, coef[r], b[r], avg[r], avg_b[r], seed,
                            max_iter, _accuracy, x_scale)  # fmt: skip
            coef[r], b[r] = res.coef, res.intercept
            if res.average_coef is not None:
                avg[r], avg_b[r] = res.average_coef, res.average_intercept
            if res.n_iter >= n_iter:
                n_iter, t = res.n_iter, res.t
        self.n_iter_, self.t_ = n_iter, t
        coef_, b_ = self._publish(coef, b, avg, avg_b)
        self.coef_, self.intercept_ = coef_.copy(), b_.copy()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # the bounded tanh cost saturates: on unscaled or heavily weighted data its gradient
        # vanishes before the fit is good (scikit-learn's checks then expect less accuracy)
        tags.classifier_tags.poor_score = self.loss == "tanh"
        return tags

    @available_if(_has_proba)
    def predict_proba(self, X):
        """Class probabilities (columns follow ``classes_``).

        ``log_loss``: the logistic function of the score; more than two classes: the
        one-vs-all probabilities normalised to sum to one. ``modified_huber``:
        ``(clip(score, −1, 1) + 1) / 2``, normalised likewise (scikit-learn's).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        scores = self.decision_function(X)
        if self.loss == "log_loss":
            prob = 0.5 * (1.0 + np.tanh(0.5 * scores))  # the logistic function, no overflow
        else:
            prob = (np.clip(scores, -1.0, 1.0) + 1.0) / 2.0
        if prob.ndim == 1:
            return np.column_stack([1.0 - prob, prob])
        total = prob.sum(axis=1, keepdims=True)
        zero = total[:, 0] == 0
        prob[zero] = 1.0
        total[zero] = prob.shape[1]
        return prob / total

    @available_if(_has_proba)
    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))
