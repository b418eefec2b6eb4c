"""The public multilayer perceptrons: :class:`MLPRegressor` and :class:`MLPClassifier`."""

from __future__ import annotations

import numpy as np
from sklearn.metrics import accuracy_score, r2_score
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from .._core.class_labels import encode_class_labels
from ..base import ClassifierMixin, RegressorMixin, fit_context
from ._base import BaseMLP
from ._network import forward_output


def _incremental(estimator) -> bool:
    """``partial_fit`` exists for the stochastic solvers without early stopping."""
    if estimator.solver == "lbfgs" or estimator.early_stopping:
        raise AttributeError(
            f"{type(estimator).__name__}: partial_fit needs a stochastic solver and "
            "early_stopping=False (L-BFGS works on the whole data; early stopping holds out part "
            "of each call's data)."
        )
    return True


def _check_label_type(y, name):
    """Reject targets that are not class labels: numbers with fractions (also in an object
    array) and 2-D targets other than a 0/1 indicator matrix."""
    if y.ndim == 2 and y.shape[1] > 1:
        try:
            ok = np.isin(y.astype(np.float64), (0.0, 1.0)).all()
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise ValueError(
                f"{name}: Unknown label type: a 2-D y must be a multilabel indicator matrix of "
                "0 and 1 (several multiclass outputs are not supported)."
            )
        return
    if y.dtype == object:
        numbers = [v for v in y.ravel() if isinstance(v, float | np.floating)]
        if any(not float(v).is_integer() for v in numbers):
            raise ValueError(
                f"{name}: Unknown label type: continuous target (non-integral floats); a "
                "classifier needs discrete class labels."
            )


def _codes_in(known, y, message):
    """Positions of the labels ``y`` in the sorted ``known``; ``ValueError`` for others."""
    codes = np.searchsorted(known, y)
    inside = np.minimum(codes, known.size - 1)
    if (codes >= known.size).any() or (known[inside] != y).any():
        raise ValueError(f"{message} {known.tolist()}.")
    return codes


class MLPRegressor(RegressorMixin, BaseMLP):
    """Multilayer perceptron for regression: dense layers trained by backpropagation.

    Parameters
    ----------
    hidden_layer_sizes : int or sequence of int, default=(100,)
        Units of each hidden layer; ``()`` gives a linear model.
    activation : {"relu", "tanh", "logistic", "identity"}, default="relu"
        Activation of the hidden layers (the output layer is the identity).
    solver : {"adam", "sgd", "momentum", "nesterov", "adagrad", "rmsprop", "adadelta", \
"lbfgs"}, default="adam"
        Step rule of mini-batch training (see :mod:`statlearning._solvers.steps` and the
        Notes), or full-batch L-BFGS.
    alpha : float, default=1e-4
        L2 penalty on the weights (not on the biases).
    batch_size : int or "auto", default="auto"
        Mini-batch size; ``"auto"`` is ``min(200, n_samples)``.
    learning_rate : {"constant", "invscaling", "adaptive"}, default="constant"
        Schedule of the step size of ``"sgd"``, ``"momentum"``, ``"nesterov"``, ``"adagrad"``
        and ``"rmsprop"`` (scikit-learn's).
    learning_rate_init : float, default=1e-3
        Initial step size :math:`\\eta_0` (not used by ``"adadelta"`` and ``"lbfgs"``).
    power_t : float, default=0.5
        Exponent of ``learning_rate="invscaling"``.
    max_iter : int, default=200
        Maximum number of epochs (iterations of L-BFGS).
    shuffle : bool, default=True
        Shuffle the samples before each epoch.
    random_state : int, RandomState instance or None, default=None
        Seed of the initial weights, the shuffles and the validation split.
    tol : float, default=1e-4
        Training stops when the loss (or the validation score) has not improved by ``tol`` for
        ``n_iter_no_change`` consecutive epochs; L-BFGS's gradient tolerance.
    warm_start : bool, default=False
        Start ``fit`` from the current weights.
    momentum : float, default=0.9
        :math:`\\mu` of ``"momentum"`` and ``"nesterov"``.
    rho : float, default=0.9
        Decay :math:`\\rho` of ``"rmsprop"`` and ``"adadelta"``.
    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the data, stop when its score stops improving and
        keep the best weights.
    validation_fraction : float, default=0.1
        Share of the data held out by ``early_stopping``.
    beta_1, beta_2 : float, default=0.9, 0.999
        Decays of Adam's moment estimates.
    epsilon : float, default=1e-8
        :math:`\\epsilon` of Adam, Adagrad, RMSProp and Adadelta (Adadelta's first steps have
        size about :math:`\\sqrt{\\epsilon}`; Zeiler used 1e-6).
    n_iter_no_change : int, default=10
        Epochs without improvement before stopping (or dividing the step by 5 with
        ``learning_rate="adaptive"``).
    max_fun : int, default=15000
        Maximum number of loss evaluations of L-BFGS.
    use_bias : bool, default=True
        Give every unit a bias. ``False`` is the notes' network, :math:`Z = XW`.
    loss : {"squared_error", "sse"}, default="squared_error"
        ``"squared_error"``: :math:`\\frac{1}{2n}\\sum_i\\|\\hat y_i - y_i\\|^2` (scikit-learn's);
        ``"sse"``: :math:`\\sum_i\\|\\hat y_i - y_i\\|^2` (the notes' :math:`R(W)`).
    dtype : {None, numpy.float32, numpy.float64}, default=None
        Precision of the computation. ``None``: float32 for float32 (and float16) input,
        float64 otherwise.

    Attributes
    ----------
    coefs_ : list of ndarray
        Weight matrices, ``coefs_[l]`` of shape ``(units[l], units[l + 1])``.
    intercepts_ : list of ndarray
        Bias vectors (zeros when ``use_bias=False``).
    loss_ : float
        The loss of the last epoch (of the final weights for L-BFGS).
    loss_curve_ : list of float
        The loss of each epoch: the mean of the batch objectives, weighted by batch size.
    best_loss_ : float or None
        Smallest epoch loss (None with ``early_stopping``).
    validation_scores_ : list of float or None
        :math:`R^2` on the held-out data after each epoch (``early_stopping`` only).
    best_validation_score_ : float or None
    n_iter_ : int
        Epochs (L-BFGS iterations) run by the last ``fit``.
    t_ : int
        Training samples seen, over all calls.
    n_layers_ : int
    n_outputs_ : int
    out_activation_ : str
        ``"identity"``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    MLPClassifier : The classifier.

    Notes
    -----
    With hidden activation :math:`g`, the network computes :math:`a^{(0)} = x`,
    :math:`a^{(l+1)} = g(a^{(l)} W^{(l)} + b^{(l)})` and the output :math:`\\hat y = a^{(L-1)}
    W^{(L-1)} + b^{(L-1)}`. Training minimises, batch by batch (weights :math:`w_i`,
    :math:`S = \\sum_i w_i` over the batch),

    .. math:: \\frac{1}{2S}\\sum_i w_i \\|\\hat y_i - y_i\\|^2
              + \\frac{\\alpha}{2S}\\sum_l \\|W^{(l)}\\|_F^2

    (``"sse"``: :math:`\\sum_i w_i\\|\\hat y_i - y_i\\|^2` and the same penalty). The gradient
    comes from backpropagation; the step rules are

    - ``"sgd"``: :math:`\\theta \\leftarrow \\theta - \\eta g` (the notes' :math:`W_1 = W_0 -
      s\\nabla f(W_0)`);
    - ``"momentum"``: :math:`v \\leftarrow \\mu v - \\eta g,\\ \\theta \\leftarrow \\theta + v`;
    - ``"nesterov"``: :math:`v \\leftarrow \\mu v - \\eta g,\\ \\theta \\leftarrow \\theta + \\mu v
      - \\eta g` (the stored weights are the look-ahead point);
    - ``"adagrad"``: :math:`G \\leftarrow G + g^2,\\ \\theta \\leftarrow \\theta - \\eta g /
      (\\sqrt G + \\epsilon)`;
    - ``"rmsprop"``: :math:`E \\leftarrow \\rho E + (1-\\rho)g^2,\\ \\theta \\leftarrow \\theta -
      \\eta g/(\\sqrt E + \\epsilon)`;
    - ``"adadelta"``: :math:`E_g \\leftarrow \\rho E_g + (1-\\rho)g^2,\\ \\Delta =
      -\\sqrt{E_\\Delta+\\epsilon}/\\sqrt{E_g+\\epsilon}\\, g,\\ E_\\Delta \\leftarrow \\rho
      E_\\Delta + (1-\\rho)\\Delta^2,\\ \\theta \\leftarrow \\theta + \\Delta`;
    - ``"adam"``: :math:`m \\leftarrow \\beta_1 m + (1-\\beta_1)g,\\ v \\leftarrow \\beta_2 v +
      (1-\\beta_2)g^2,\\ \\theta \\leftarrow \\theta - \\eta\\frac{\\sqrt{1-\\beta_2^t}}
      {1-\\beta_1^t}\\, m/(\\sqrt v + \\epsilon)`.

    Mapping to scikit-learn's ``MLPRegressor``: the same parameters with the same meanings,
    and the same initial weights, shuffles and stopping rule for a given seed; its
    ``solver="sgd"`` is ours ``"momentum"`` (``nesterovs_momentum=False``) or ``"nesterov"``
    (its default), and our ``"sgd"`` is its ``solver="sgd", momentum=0``. With several
    outputs scikit-learn's ``loss_curve_`` reports the objective divided by ``n_outputs_``
    (its gradient is that of the objective above). Mapping to the notes (seed 004, §7.3): the
    learning rate ``s`` is ``learning_rate_init``; their network has no biases
    (``use_bias=False``) and sigmoid units (``activation="logistic"``).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.neural_network import MLPRegressor
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(200, 2))
    >>> y = X[:, 0] ** 2 + X[:, 1]
    >>> reg = MLPRegressor((16,), solver="lbfgs", max_iter=500, random_state=0).fit(X, y)
    >>> bool(reg.score(X, y) > 0.95)
    True
    """

    def __init__(
        self,
        hidden_layer_sizes=(100,),
        activation="relu",
        *,
        solver="adam",
        alpha=1e-4,
        batch_size="auto",
        learning_rate="constant",
        learning_rate_init=1e-3,
        power_t=0.5,
        max_iter=200,
        shuffle=True,
        random_state=None,
        tol=1e-4,
        warm_start=False,
        momentum=0.9,
        rho=0.9,
        early_stopping=False,
        validation_fraction=0.1,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-8,
        n_iter_no_change=10,
        max_fun=15000,
        use_bias=True,
        loss="squared_error",
        dtype=None,
    ):
        self.hidden_layer_sizes = hidden_layer_sizes
        self.activation = activation
        self.solver = solver
        self.alpha = alpha
        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.learning_rate_init = learning_rate_init
        self.power_t = power_t
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state
        self.tol = tol
        self.warm_start = warm_start
        self.momentum = momentum
        self.rho = rho
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.n_iter_no_change = n_iter_no_change
        self.max_fun = max_fun
        self.use_bias = use_bias
        self.loss = loss
        self.dtype = dtype

    def _targets(self, y, first_pass, classes=None):
        self._check_loss({"squared_error", "sse"})
        Y = y.reshape(-1, 1) if y.ndim == 1 else y
        return Y, "identity"

    def _score(self, X, y, sample_weight):
        pred = self._predict_validated(X)
        if not np.isfinite(pred).all():
            return np.nan
        return r2_score(y, pred, sample_weight=sample_weight)

    def _predict_validated(self, X):
        out = forward_output(
            X, self.coefs_, self.intercepts_, self.activation, "identity", self.use_bias
        )
        return out.ravel() if out.shape[1] == 1 else out

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Train the network on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_outputs)
        sample_weight : array-like of shape (n_samples,), optional
            Weights of the samples in the loss (and the penalty's denominator :math:`S`).

        Returns
        -------
        self : MLPRegressor
        """
        return self._fit(X, y, sample_weight)

    @available_if(_incremental)
    def partial_fit(self, X, y, sample_weight=None):
        """One epoch over ``(X, y)``, continuing from the current weights and optimiser state.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_outputs)
        sample_weight : array-like of shape (n_samples,), optional

        Returns
        -------
        self : MLPRegressor
        """
        self._validate_params()
        return self._fit(X, y, sample_weight, incremental=True)

    def predict(self, X):
        """Predict with the trained network.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_outputs)
        """
        out = self._forward(X)
        return out.ravel() if out.shape[1] == 1 else out


class MLPClassifier(ClassifierMixin, BaseMLP):
    """Multilayer perceptron for classification: binary, multiclass and multilabel.

    Parameters
    ----------
    hidden_layer_sizes : int or sequence of int, default=(100,)
        Units of each hidden layer; ``()`` gives a (multinomial) logistic regression.
    activation : {"relu", "tanh", "logistic", "identity"}, default="relu"
        Activation of the hidden layers.
    solver : {"adam", "sgd", "momentum", "nesterov", "adagrad", "rmsprop", "adadelta", \
"lbfgs"}, default="adam"
        Step rule of mini-batch training (see :class:`MLPRegressor`), or full-batch L-BFGS.
    alpha : float, default=1e-4
        L2 penalty on the weights (not on the biases).
    batch_size : int or "auto", default="auto"
        Mini-batch size; ``"auto"`` is ``min(200, n_samples)``.
    learning_rate : {"constant", "invscaling", "adaptive"}, default="constant"
        Schedule of the step size (as :class:`MLPRegressor`).
    learning_rate_init : float, default=1e-3
        Initial step size (not used by ``"adadelta"`` and ``"lbfgs"``).
    power_t : float, default=0.5
        Exponent of ``learning_rate="invscaling"``.
    max_iter : int, default=200
        Maximum number of epochs (iterations of L-BFGS).
    shuffle : bool, default=True
        Shuffle the samples before each epoch.
    random_state : int, RandomState instance or None, default=None
        Seed of the initial weights, the shuffles and the validation split.
    tol : float, default=1e-4
        Tolerance of the stopping rule (as :class:`MLPRegressor`).
    warm_start : bool, default=False
        Start ``fit`` from the current weights (the classes must be the same).
    momentum : float, default=0.9
        :math:`\\mu` of ``"momentum"`` and ``"nesterov"``.
    rho : float, default=0.9
        Decay of ``"rmsprop"`` and ``"adadelta"``.
    early_stopping : bool, default=False
        Hold out ``validation_fraction`` of the data (stratified for one output), stop when its
        accuracy stops improving and keep the best weights.
    validation_fraction : float, default=0.1
        Share of the data held out by ``early_stopping``.
    beta_1, beta_2 : float, default=0.9, 0.999
        Decays of Adam's moment estimates.
    epsilon : float, default=1e-8
        :math:`\\epsilon` of Adam, Adagrad, RMSProp and Adadelta.
    n_iter_no_change : int, default=10
        Epochs without improvement before stopping.
    max_fun : int, default=15000
        Maximum number of loss evaluations of L-BFGS.
    use_bias : bool, default=True
        Give every unit a bias; ``False`` is the notes' network.
    loss : {"log_loss", "sse", "squared_error"}, default="log_loss"
        Cross-entropy, the notes' sum of squared errors of the probabilities, or half their
        mean.
    dtype : {None, numpy.float32, numpy.float64}, default=None
        Precision of the computation (``None``: float32 for float32/float16 input).

    Attributes
    ----------
    classes_ : ndarray
        Class labels (for multilabel targets, ``arange(n_labels)``).
    coefs_ : list of ndarray
        Weight matrices.
    intercepts_ : list of ndarray
        Bias vectors (zeros when ``use_bias=False``).
    loss_ : float
        The loss of the last epoch (of the final weights for L-BFGS).
    loss_curve_ : list of float
        The loss of each epoch.
    best_loss_ : float or None
        Smallest epoch loss (None with ``early_stopping``).
    validation_scores_ : list of float or None
        Held-out accuracy after each epoch (``early_stopping`` only).
    best_validation_score_ : float or None
    n_iter_ : int
        Epochs (L-BFGS iterations) run by the last ``fit``.
    t_ : int
        Training samples seen, over all calls.
    n_layers_ : int
    n_outputs_ : int
        Output units: 1 for two classes, else one per class (or label).
    out_activation_ : str
        ``"logistic"`` (binary, multilabel) or ``"softmax"`` (multiclass).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    MLPRegressor : The regressor, whose Notes give the step rules.

    Notes
    -----
    The output layer is one logistic unit for two classes (the probability of
    ``classes_[1]``), a softmax over :math:`K` units for :math:`K > 2` classes, and :math:`K`
    independent logistic units for :math:`K` labels. With ``loss="log_loss"`` training
    minimises, batch by batch,

    .. math:: -\\frac{1}{S}\\sum_i w_i\\sum_k y_{ik}\\log\\hat p_{ik}
              + \\frac{\\alpha}{2S}\\sum_l\\|W^{(l)}\\|_F^2,

    (the sum of binary cross-entropies for logistic outputs), and with ``"sse"`` the notes'
    :math:`\\sum_i w_i\\sum_k(\\hat p_{ik} - y_{ik})^2` plus the same penalty. Without hidden
    layers, ``alpha=0`` and two classes the model is logistic regression. The notes' forward
    pass (seed 004, §7.3: :math:`Z^{(2)} = XW^{(1)}`, :math:`a^{(2)} = g(Z^{(2)})`,
    :math:`\\hat y = g(a^{(2)}W^{(2)})` with the sigmoid :math:`g`) is
    ``MLPClassifier(hidden_layer_sizes=(M,), activation="logistic", use_bias=False)``.
    Mapping to scikit-learn's ``MLPClassifier``: as for :class:`MLPRegressor`.

    Examples
    --------
    >>> from sklearn.datasets import make_moons
    >>> from statlearning.neural_network import MLPClassifier
    >>> X, y = make_moons(200, noise=0.1, random_state=0)
    >>> clf = MLPClassifier((16,), solver="lbfgs", max_iter=500, random_state=0).fit(X, y)
    >>> bool(clf.score(X, y) > 0.95)
    True
    """

    _classifier = True

    def __init__(
        self,
        hidden_layer_sizes=(100,),
        activation="relu",
        *,
        solver="adam",
        alpha=1e-4,
        batch_size="auto",
        learning_rate="constant",
        learning_rate_init=1e-3,
        power_t=0.5,
        max_iter=200,
        shuffle=True,
        random_state=None,
        tol=1e-4,
        warm_start=False,
        momentum=0.9,
        rho=0.9,
        early_stopping=False,
        validation_fraction=0.1,
        beta_1=0.9,
        beta_2=0.999,
        epsilon=1e-8,
        n_iter_no_change=10,
        max_fun=15000,
        use_bias=True,
        loss="log_loss",
        dtype=None,
    ):
        self.hidden_layer_sizes = hidden_layer_sizes
        self.activation = activation
        self.solver = solver
        self.alpha = alpha
        self.batch_size = batch_size
        self.learning_rate = learning_rate
        self.learning_rate_init = learning_rate_init
        self.power_t = power_t
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state
        self.tol = tol
        self.warm_start = warm_start
        self.momentum = momentum
        self.rho = rho
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.n_iter_no_change = n_iter_no_change
        self.max_fun = max_fun
        self.use_bias = use_bias
        self.loss = loss
        self.dtype = dtype

    def _stratify_validation(self) -> bool:
        return True

    def _targets(self, y, first_pass, classes=None):
        name = type(self).__name__
        _check_label_type(y, name)
        if y.ndim == 2 and y.shape[1] > 1:  # multilabel indicator matrix
            if first_pass:
                self.classes_ = np.arange(y.shape[1])
                self._multilabel = True
            elif not getattr(self, "_multilabel", False) or y.shape[1] != self.classes_.size:
                raise ValueError(f"{name}: y has other labels than the fitted network.")
            return y.astype(np.float64), "logistic"
        y = y.ravel()
        if first_pass and classes is not None:
            known = np.unique(np.asarray(classes))
            if known.size < 2:
                raise ValueError(f"{name}: classes must hold at least 2 labels; got {classes!r}.")
            codes = _codes_in(known, y, f"{name}: y holds labels that are not in classes")
            self.classes_ = known
        elif first_pass:
            self.classes_, codes = encode_class_labels(y, name)
        else:
            if getattr(self, "_multilabel", False):
                raise ValueError(f"{name}: the network was fitted on multilabel targets.")
            codes = _codes_in(self.classes_, y, f"{name}: y holds labels that are not in classes_")
        if first_pass:
            self._multilabel = False
        K = self.classes_.size
        if K == 2:
            return (codes == 1).astype(np.float64)[:, None], "logistic"
        Y = np.zeros((y.size, K))
        Y[np.arange(y.size), codes] = 1.0
        return Y, "softmax"

    def _score(self, X, y, sample_weight):
        proba = self._proba_validated(X)
        if not np.isfinite(proba).all():
            return np.nan
        return accuracy_score(y, self._labels(proba), sample_weight=sample_weight)

    def _proba_validated(self, X):
        return forward_output(
            X, self.coefs_, self.intercepts_, self.activation, self.out_activation_,
            self.use_bias,
        )  # fmt: skip

    def _labels(self, out):
        if self._multilabel:
            return (out > 0.5).astype(int)
        if out.shape[1] == 1:
            return self.classes_[(out[:, 0] > 0.5).astype(np.intp)]
        return self.classes_[np.argmax(out, axis=1)]

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Train the network on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_labels)
            Class labels of any type, or a 0/1 multilabel indicator matrix.
        sample_weight : array-like of shape (n_samples,), optional
            Weights of the samples in the loss.

        Returns
        -------
        self : MLPClassifier
        """
        return self._fit(X, y, sample_weight)

    @available_if(_incremental)
    def partial_fit(self, X, y, sample_weight=None, classes=None):
        """One epoch over ``(X, y)``, continuing from the current weights and optimiser state.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_labels)
        sample_weight : array-like of shape (n_samples,), optional
        classes : array-like, optional
            Every class label; required at the first call (``y`` of one batch may miss some).

        Returns
        -------
        self : MLPClassifier
        """
        self._validate_params()
        first = not hasattr(self, "coefs_")
        if first and classes is None and not (np.ndim(y) == 2 and np.shape(y)[1] > 1):
            raise ValueError(
                f"{type(self).__name__}: the first call of partial_fit needs classes= (every "
                "class label)."
            )
        return self._fit(X, y, sample_weight, incremental=True, classes=classes if first else None)

    def predict_proba(self, X):
        """Class probabilities; columns follow ``classes_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            For multilabel targets, the probability of each label.
        """
        out = self._forward(X)
        if out.shape[1] == 1 and not self._multilabel:
            return np.hstack([1 - out, out])
        return out

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

    def predict(self, X):
        """The most probable class (probability above ½ for two classes and for labels).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_labels)
        """
        check_is_fitted(self, "coefs_")
        return self._labels(self._forward(X))

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_label = True
        return tags
