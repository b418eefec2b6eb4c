"""Linear classifiers of the notes: Rosenblatt's :class:`Perceptron` and the least-squares
classifier (linear regression on class indicators), :class:`LeastSquaresClassifier`."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._core.linalg import R_TOL, least_squares_columns
from .._core.perceptron import perceptron_epochs
from .._core.scaling import linear_rescaling
from .._validation import (
    Boolean,
    Interval,
    Options,
    RandomState,
    check_sample_weight,
    validate_data,
)
from ..base import ClassifierMixin, StatBase, fit_context
from ..exceptions import ConvergenceWarning, RankDeficientWarning, warn_unrescaled_scale
from ._logistic import encode_classes


class _LinearClassifierPredict:
    """``decision_function``/``predict`` from ``coef_`` (shape (1, p) or (K, p)) and
    ``intercept_``; ``NaN`` (aliased) coefficients do not contribute."""

    def decision_function(self, X):
        """Linear scores of the samples.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            Two classes: ``b + xᵀw`` minus the decision threshold (zero for the perceptron,
            ``decision_threshold`` for :class:`LeastSquaresClassifier`), positive in favour of
            ``classes_[1]``. More classes: one score per class (one-vs-rest). Aliased
            (``NaN``) coefficients count as zero.
        """
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        coef = np.where(np.isnan(self.coef_), 0.0, self.coef_)
        scores = X @ coef.T + self.intercept_ - self._offset()
        return scores[:, 0] if scores.shape[1] == 1 else scores

    def _offset(self) -> float:
        return 0.0

    def predict(self, X):
        """Predict class labels from the scores of :meth:`decision_function`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,)
            Two classes: ``classes_[1]`` where the score is positive (strictly), else
            ``classes_[0]``. More classes: the class with the largest score (one-vs-rest).
        """
        scores = self.decision_function(X)
        if scores.ndim == 1:
            return self.classes_[self._is_positive(scores).astype(np.intp)]
        return self.classes_[np.argmax(scores, axis=1)]

    def _is_positive(self, scores):
        return scores > 0


class Perceptron(ClassifierMixin, _LinearClassifierPredict, StatBase):
    """Rosenblatt's perceptron: mistake-driven updates until the training data are separated.

    Parameters
    ----------
    learning_rate : float, default=1.0
        Step η of the update. Starting from zero weights, η only rescales the weights: the
        predictions do not depend on it.
    max_iter : int, default=1000
        Maximum number of epochs (passes over the data).
    shuffle : bool, default=True
        Visit the samples in a new random order at each epoch.
    random_state : int, RandomState instance or None, default=None
        Seed of the shuffling; the same seed gives the same fit.
    fit_intercept : bool, default=True
        Learn a bias ``b`` (an input constantly equal to 1).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        One weight vector for two classes (for ``classes_[1]``), one per class otherwise
        (one-vs-rest).
    intercept_ : ndarray of shape (1,) or (n_classes,)
    n_iter_ : int
        Epochs run (the largest over the one-vs-rest problems).
    separated_ : bool
        Whether every problem ended with an epoch without mistakes.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    With labels :math:`s_i \\in \\{-1, +1\\}` (``+1`` for ``classes_[1]``) and
    :math:`f(x) = b + x^\\top w`, each epoch visits every sample and, when it is misclassified
    (:math:`s_i f(x_i) \\le 0`), updates

    .. math:: w \\leftarrow w + \\eta\\, s_i x_i, \\qquad b \\leftarrow b + \\eta\\, s_i,

    which is stochastic (sub)gradient descent on the perceptron criterion
    :math:`\\sum_i \\max(0, -s_i f(x_i))` — the loss the notes (Zwaan) contrast with the hinge
    loss. If the data are linearly separable, the updates stop after finitely many mistakes
    (Novikoff's theorem); otherwise they never stop, and a ``ConvergenceWarning`` is raised
    after ``max_iter`` epochs. More than two classes are handled one-vs-rest; ``predict`` takes
    the largest score.

    The notes of Welling (Ch. 7) call "perceptron" a linear classifier trained on the squared
    error of ±1 labels (an Adaline/LMS rule): that model is :class:`LeastSquaresClassifier`
    (the squared error of ±1 labels and of 0/1 indicators have the same minimiser up to an
    affine map, and the same decision boundary). Mapping to scikit-learn: ``Perceptron(eta0=η,
    penalty=None, tol=None, max_iter)`` runs the same update.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import Perceptron
    >>> X = np.array([[0.0, 0.0], [0.0, 1.0], [2.0, 2.0], [3.0, 2.0]])
    >>> clf = Perceptron(random_state=0).fit(X, ["no", "no", "yes", "yes"])
    >>> clf.predict([[3.0, 3.0]]).tolist(), bool(clf.separated_)
    (['yes'], True)
    """

    _parameter_constraints = {
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "shuffle": [Boolean()],
        "random_state": [RandomState()],
        "fit_intercept": [Boolean()],
    }

    def __init__(
        self,
        *,
        learning_rate=1.0,
        max_iter=1000,
        shuffle=True,
        random_state=None,
        fit_intercept=True,
    ):
        self.learning_rate = learning_rate
        self.max_iter = max_iter
        self.shuffle = shuffle
        self.random_state = random_state
        self.fit_intercept = fit_intercept

    @fit_context
    def fit(self, X, y):
        """Run the perceptron updates.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels of any type.

        Returns
        -------
        self : Perceptron
        """
        X, y = validate_data(self, X, y, dtype=np.float64, order="C")
        warn_unrescaled_scale(self, X, "X")
        codes = encode_classes(self, y, type(self).__name__)
        K = self.classes_.size
        rng = check_random_state(self.random_state)
        targets = [1] if K == 2 else range(K)
        coefs, intercepts, epochs, separated = [], [], 0, True
        for c in targets:
            s = np.where(codes == c, 1.0, -1.0)
            seed = int(rng.randint(np.iinfo(np.int32).max))
            coef, b, n_ep, sep = perceptron_epochs(
                X,
                s,
                np.zeros(X.shape[1]),
                0.0,
                float(self.learning_rate),
                int(self.max_iter),
                bool(self.fit_intercept),
                bool(self.shuffle),
                seed,
            )
            coefs.append(coef)
            intercepts.append(b)
            epochs = max(epochs, int(n_ep))
            separated = separated and bool(sep)
        self.coef_ = np.vstack(coefs)
        self.intercept_ = np.array(intercepts, dtype=np.float64)
        self.n_iter_ = epochs
        self.separated_ = separated
        if not separated:
            warnings.warn(
                f"{type(self).__name__}: the training data were not separated after "
                f"max_iter={self.max_iter} epochs (the classes may not be linearly separable); "
                "the last weights are returned.",
                ConvergenceWarning,
            )
        return self


class LeastSquaresClassifier(ClassifierMixin, _LinearClassifierPredict, StatBase):
    """Linear regression on class indicators used as a classifier.

    The notes' "OLS as a classifier": one least-squares fit per class indicator.

    Parameters
    ----------
    fit_intercept : bool, default=True
        Fit an intercept ``b`` for each indicator regression.
    decision_threshold : float, default=0.5
        Two classes: ``predict`` returns ``classes_[1]`` when the fitted indicator
        ``ŷ = b + xᵀβ`` exceeds it (strict, unless ``zero_label="positive"``).
    zero_label : {"negative", "positive"}, default="negative"
        Two classes: the class of a sample whose fitted indicator equals the threshold
        exactly. ``"negative"``: ``classes_[0]`` (the strict rule, as R and scikit-learn);
        ``"positive"``: ``classes_[1]``, Welling's ``sign(0) = +1``. No effect with more
        classes (the largest score wins; ties go to the earlier class).
    rank_tol : float, default=1e-7
        Tolerance for aliased columns (R's ``lm``): their coefficients are ``NaN`` and ignored.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (1, n_features) or (n_classes, n_features)
        Least-squares slopes of the indicator of ``classes_[1]`` (two classes) or of each class.
    intercept_ : ndarray of shape (1,) or (n_classes,)
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    For each class c the model regresses the indicator :math:`y_{ic} = 1[y_i = c]` on the
    features by (weighted) least squares,

    .. math:: (\\hat b_c, \\hat\\beta_c) = \\arg\\min \\sum_i w_i (y_{ic} - b_c -
              x_i^\\top\\beta_c)^2,

    exactly as :class:`~statlearning.linear_model.LinearRegression` (R's ``lm``) would: all
    indicators from one weighted Gram matrix and one Cholesky factor when it is well
    conditioned (then within about 1e-12 of R's QR, which no column can alias), else R's QR
    per indicator (``_core.linalg.least_squares_columns``). Two
    classes: ``predict`` is ``classes_[1]`` when :math:`\\hat y > t` (``decision_threshold``,
    the notes' 0.5), and ``decision_function`` returns :math:`\\hat y - t`. More classes:
    one-vs-rest indicators and ``predict`` takes the largest fitted indicator (the fitted
    indicators sum to one when an intercept is fitted). The fitted values are not
    probabilities: they leave [0, 1] (Boily §3, "why OLS fails for classification"; Zwaan
    Table 3.1). Welling's "perceptron" (squared error of ±1 labels, ``sign(wᵀx − α)`` with
    ``sign(0) = +1``) has the same decision boundary as this classifier with threshold 0.5,
    and the same predictions with ``zero_label="positive"``; its gradient-descent training is
    :class:`SGDClassifier` with ``loss="squared_error", penalty=None`` (``batch_size=1`` for
    the stochastic update, ``batch_size ≥ n`` for batch gradient descent), which converges to
    this closed-form fit (coefficients doubled by the ±1 coding).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import LeastSquaresClassifier
    >>> t = np.array([36.5, 36.6, 36.8, 36.9, 37.0, 37.2, 37.5, 37.6, 39.5])[:, None]
    >>> clf = LeastSquaresClassifier().fit(t, [0, 0, 0, 1, 0, 1, 1, 1, 1])
    >>> round(float(clf.coef_[0, 0]), 6)
    0.341291
    """

    _parameter_constraints = {
        "fit_intercept": [Boolean()],
        "decision_threshold": [Interval(Real, None, None)],
        "zero_label": [Options({"negative", "positive"})],
        "rank_tol": [Interval(Real, 0, 1, closed="left")],
    }

    def __init__(
        self, *, fit_intercept=True, decision_threshold=0.5, zero_label="negative", rank_tol=R_TOL
    ):
        self.fit_intercept = fit_intercept
        self.decision_threshold = decision_threshold
        self.zero_label = zero_label
        self.rank_tol = rank_tol

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the indicator regressions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels of any type.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights of the least-squares criterion.

        Returns
        -------
        self : LeastSquaresClassifier
        """
        name = type(self).__name__
        X, y = validate_data(self, X, y, dtype=np.float64)
        codes = encode_classes(self, y, name)
        K = self.classes_.size
        if K > 2 and self.decision_threshold != 0.5:
            raise ValueError(
                f"{name}: decision_threshold applies to two classes only; y has {K} classes."
            )

        w = (
            None
            if sample_weight is None
            else check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        )
        sqrt_w = None if w is None else np.sqrt(w)
        rescaling = linear_rescaling(X)  # None unless X is near 1e±60 or beyond
        if rescaling is not None:
            X = rescaling.apply(X)[0]
        targets = [1] if K == 2 else range(K)
        indicators = np.column_stack([(codes == c).astype(np.float64) for c in targets])
        params, kept = least_squares_columns(
            X, indicators, sqrt_w, self.fit_intercept, self.rank_tol
        )
        params = params.T
        off = 1 if self.fit_intercept else 0
        self.intercept_ = params[:, 0].copy() if off else np.zeros(params.shape[0])
        self.coef_ = params[:, off:].copy()
        if not kept.all():
            names = (
                [str(n) for n in self.feature_names_in_]
                if hasattr(self, "feature_names_in_")
                else [f"x{j}" for j in range(X.shape[1])]
            )
            if self.fit_intercept:
                names = ["(Intercept)", *names]
            aliased = [n for n, k in zip(names, kept, strict=True) if not k]
            warnings.warn(
                f"{name}: {len(aliased)} coefficient(s) not defined because of singularities "
                f"(aliased: {', '.join(aliased)}); they are NaN and ignored by predict.",
                RankDeficientWarning,
            )
            self.intercept_ = np.nan_to_num(self.intercept_)
        if rescaling is not None:
            self.coef_ = self.coef_ / rescaling.x_scale
        return self

    def _offset(self) -> float:
        return float(self.decision_threshold) if self.classes_.size == 2 else 0.0

    def _is_positive(self, scores):
        return scores >= 0 if self.zero_label == "positive" else scores > 0
