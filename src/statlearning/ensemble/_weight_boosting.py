"""AdaBoost for classification: discrete SAMME (Zhu, Zou, Rosset & Hastie 2009).

With two classes SAMME is Freund and Schapire's AdaBoost.M1. Each round fits the base learner
(a stump by default) to the current sample weights, up-weights the rows it misclassifies and
adds it to a weighted vote.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from scipy.special import softmax
from sklearn.base import BaseEstimator, clone
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted, has_fit_parameter

from .._core.class_labels import encode_class_labels
from .._core.compiled import kernel_array
from .._validation import InstanceOf, Interval, RandomState, check_sample_weight, validate_data
from ..base import ClassifierMixin, StatBase, fit_context
from ..tree import DecisionTreeClassifier
from ._accumulate import SAMME, add_flat, pack_flat
from ._base import numeric_tree

__all__ = ["AdaBoostClassifier"]


class AdaBoostClassifier(ClassifierMixin, StatBase):
    r"""AdaBoost (discrete SAMME; AdaBoost.M1 for two classes) with stumps by default.

    Parameters
    ----------
    estimator : classifier or None, default=None
        The base learner; it must accept ``sample_weight``. ``None`` is a stump,
        ``DecisionTreeClassifier(max_depth=1, use_surrogates="missing")`` (Gini; AdaBoost
        accepts no ``NaN``, so no surrogate splits are searched).
    n_estimators : int, default=50
        Maximum number of rounds :math:`M`; boosting stops earlier on a perfect fit or when a
        learner is no better than chance.
    learning_rate : float, default=1.0
        Shrinks every learner's vote :math:`\alpha_m` (and the weight update) by this factor.
    random_state : int, RandomState or None, default=None
        Seeds the base learners' own ``random_state``.

    Attributes
    ----------
    estimator_ : estimator
        The (unfitted) base learner template.
    estimators_ : list of fitted estimators
        They are fitted on the class codes ``0 … K−1`` (``classes_[code]`` is the label).
    estimator_weights_ : ndarray of shape (n_estimators,)
        The votes :math:`\alpha_m` (0 for rounds that did not run).
    estimator_errors_ : ndarray of shape (n_estimators,)
        The weighted training errors :math:`\mathrm{err}_m` (1 for rounds that did not run).
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    feature_importances_ : ndarray of shape (n_features,)
        The learners' importances averaged with weights :math:`\alpha_m`.

    Notes
    -----
    SAMME. Start from weights :math:`w_i = w_i^{(0)} / \sum w^{(0)}`. For
    :math:`m = 1, \dots, M`: fit :math:`T_m` with weights :math:`w`; compute
    :math:`\mathrm{err}_m = \sum_i w_i 1\{y_i \ne T_m(x_i)\} / \sum_i w_i`; stop if
    :math:`\mathrm{err}_m = 0` (the learner is kept with :math:`\alpha_m = 1`) or if
    :math:`\mathrm{err}_m \ge 1 - 1/K` (the learner is discarded); set
    :math:`\alpha_m = \nu[\log((1 - \mathrm{err}_m)/\mathrm{err}_m) + \log(K - 1)]` with
    :math:`\nu` = ``learning_rate``; multiply the weights of the misclassified rows by
    :math:`e^{\alpha_m}` and renormalise (weights are floored at machine epsilon). With
    :math:`K = 2` the :math:`\log(K-1)` term vanishes: AdaBoost.M1. The classifier is
    :math:`\arg\max_k \sum_m \alpha_m 1\{T_m(x) = k\}`. :meth:`decision_function` is
    scikit-learn's symmetric score :math:`\sum_m \alpha_m h_{mk}(x) / \sum_m \alpha_m` with
    :math:`h_{mk} = 1` if :math:`T_m(x) = k` and :math:`-1/(K-1)` otherwise (for two classes,
    the second column minus the first, in :math:`[-2, 2]`); :meth:`predict_proba` is
    :math:`\mathrm{softmax}(s/(K-1))` of that score (for two classes the softmax of
    :math:`(-s/2, s/2)`), as scikit-learn's SAMME.

    Mapping: ISLR/seed notes item 78 reference AdaBoost with weak trees; ESL's Algorithm 10.1
    is the two-class case with :math:`\nu = 1`. R's ``adabag::boosting(coeflearn = "Zhu")``
    is SAMME (its default ``"Breiman"`` uses :math:`\frac12\log` and bootstrap resampling).
    scikit-learn's ``AdaBoostClassifier`` (SAMME, ``estimator``, ``n_estimators``,
    ``learning_rate``) gives the same learners, weights and predictions on data without
    tied splits: the base learner gets the boosting weights (summing to one) as case
    weights, and a base tree's ``min_samples_leaf`` counts rows, as scikit-learn's.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.ensemble import AdaBoostClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(200, 2)); y = (X[:, 0] ** 2 + X[:, 1] ** 2 > 1.4).astype(int)
    >>> ada = AdaBoostClassifier(n_estimators=100).fit(X, y)
    >>> bool(ada.score(X, y) > 0.9)
    True
    """

    _parameter_constraints = {
        "estimator": [None, InstanceOf(BaseEstimator)],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="neither")],
        "random_state": [RandomState()],
    }

    def __init__(self, estimator=None, n_estimators=50, *, learning_rate=1.0,
                 random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.random_state = random_state

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Run the boosting rounds.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.
        y : array-like of shape (n_samples,)
            Class labels of any type (at least two classes).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights (normalised to sum to one).

        Returns
        -------
        self : AdaBoostClassifier
        """
        name = type(self).__name__
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, codes = encode_class_labels(y, name, min_classes=2)
        K = self.n_classes_ = int(self.classes_.size)
        w = check_sample_weight(sample_weight, X.shape[0], estimator_name=name).copy()
        if w.sum() <= 0:
            raise ValueError(f"{name}: sample_weight sums to zero.")
        w /= w.sum()
        self.estimator_ = (DecisionTreeClassifier(max_depth=1, use_surrogates="missing")
                           if self.estimator is None else self.estimator)
        if not has_fit_parameter(self.estimator_, "sample_weight"):
            raise ValueError(
                f"{name}: estimator {type(self.estimator_).__name__} does not accept "
                "sample_weight."
            )
        rng = check_random_state(self.random_state)
        M = self.n_estimators
        self.estimators_ = []
        self.estimator_weights_ = np.zeros(M)
        self.estimator_errors_ = np.ones(M)
        eps = np.finfo(np.float64).eps
        zero = w == 0.0
        for m in range(M):
            w = np.clip(w, eps, None)
            w[zero] = 0.0
            est = clone(self.estimator_)
            if "random_state" in est.get_params():
                est.set_params(random_state=int(rng.randint(np.iinfo(np.int32).max)))
            est.fit(X, codes, sample_weight=w)
            incorrect = np.asarray(est.predict(X)) != codes
            err = float(np.average(incorrect, weights=w))
            if err <= 0:
                self.estimators_.append(est)
                self.estimator_weights_[m] = 1.0
                self.estimator_errors_[m] = 0.0
                break
            if err >= 1.0 - 1.0 / K:
                if not self.estimators_:
                    raise ValueError(
                        f"{name}: the first base learner is no better than chance (weighted "
                        f"error {err:.4g} >= 1 - 1/K); the ensemble cannot be fitted."
                    )
                break
            alpha = self.learning_rate * (np.log((1.0 - err) / err) + np.log(K - 1.0))
            self.estimators_.append(est)
            self.estimator_weights_[m] = alpha
            self.estimator_errors_[m] = err
            if m == M - 1:
                break
            w = np.exp(np.log(np.where(w > 0, w, 1.0)) + alpha * incorrect) * (w > 0)
            total = w.sum()
            if not np.isfinite(total):
                warnings.warn(
                    f"{name}: sample weights overflowed at round {m}; boosting stopped. "
                    "Lower learning_rate.", RuntimeWarning, stacklevel=2,
                )
                break
            if total <= 0:
                break
            w /= total
        self._flat = self._flat_tables()
        return self

    def _votes(self, X):
        """Yield each learner's symmetric vote ``h_m`` (n, K) times its weight, and the weight."""
        X = self._validate_X(X)
        K = self.n_classes_
        for est, a in zip(self.estimators_, self.estimator_weights_, strict=False):
            hit = np.asarray(est.predict(X))[:, None] == np.arange(K)[None, :]
            yield np.where(hit, a, -a / (K - 1)), a

    def _validate_X(self, X):
        check_is_fitted(self, "estimators_")
        return validate_data(self, X, dtype=np.float64, reset=False)

    def _flat_tables(self):
        """All learners in one routing table when every one is a numeric tree, else ``None``."""
        if not all(map(numeric_tree, self.estimators_)):
            return None
        votes = [e.classes_[np.argmax(e.tree_.value, axis=1)] for e in self.estimators_]
        return pack_flat([e.tree_ for e in self.estimators_], votes)

    def _finish(self, pred, norm):
        pred = pred / norm
        if self.n_classes_ == 2:
            return pred[:, 1] - pred[:, 0]
        return pred

    def staged_decision_function(self, X):
        """Yield :meth:`decision_function` after each round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Yields
        ------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            The score of the first :math:`m` learners, :math:`m = 1, \\dots,`
            ``len(estimators_)`` (fewer than ``n_estimators`` arrays when boosting stopped
            early), shaped as :meth:`decision_function`'s; the last is
            :meth:`decision_function`.
        """
        pred = None
        weights = self.estimator_weights_[: len(self.estimators_)]
        for m, (vote, _) in enumerate(self._votes(X), start=1):
            pred = vote if pred is None else pred + vote
            yield self._finish(pred, weights[:m].sum())  # summed as decision_function sums

    def decision_function(self, X) -> np.ndarray:
        """SAMME score as scikit-learn's: (n,) for two classes (> 0: ``classes_[1]``), else (n, K).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            :math:`s_k(x) = \\sum_m \\alpha_m h_{mk}(x) / \\sum_m \\alpha_m` with
            :math:`h_{mk} = 1` if learner :math:`m` predicts class :math:`k` and
            :math:`-1/(K-1)` otherwise, columns in ``classes_`` order. Two classes: the single
            column :math:`s_1 - s_0`, in :math:`[-2, 2]`, positive for ``classes_[1]``.
        """
        check_is_fitted(self, "estimators_")
        flat = self._flat
        if flat is None:
            out = None
            for stage_out in self.staged_decision_function(X):
                out = stage_out
            return out
        X = kernel_array(self._validate_X(X), np.float64)
        weights = np.ascontiguousarray(self.estimator_weights_[: len(self.estimators_)])
        pred = np.zeros((X.shape[0], self.n_classes_))
        add_flat(flat, X, weights, np.zeros(weights.size, np.int64), SAMME, pred)
        return self._finish(pred, weights.sum())

    def _proba(self, decision):
        if self.n_classes_ == 2:
            decision = np.column_stack([-decision, decision]) / 2
        else:
            decision = decision / (self.n_classes_ - 1)
        return softmax(decision, axis=1)

    def predict_proba(self, X) -> np.ndarray:
        """SAMME class probabilities: the softmax of the scaled decision function.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            :math:`\\mathrm{softmax}(s/(K-1))` of the :meth:`decision_function` score
            :math:`s` (two classes: the softmax of :math:`(-s/2, s/2)`), columns in
            ``classes_`` order; each row sums to one.
        """
        return self._proba(self.decision_function(X))

    def staged_predict_proba(self, X):
        """Yield :meth:`predict_proba` after each round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Yields
        ------
        ndarray of shape (n_samples, n_classes)
            Class probabilities of the first :math:`m` learners,
            :math:`m = 1, \\dots,` ``len(estimators_)``, columns in ``classes_`` order.
        """
        for d in self.staged_decision_function(X):
            yield self._proba(d)

    def _label(self, decision):
        if self.n_classes_ == 2:
            return self.classes_[(decision > 0).astype(np.int64)]
        return self.classes_[np.argmax(decision, axis=1)]

    def predict(self, X) -> np.ndarray:
        """The weighted-vote winner (for two classes ``classes_[1]`` when the score is > 0).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Returns
        -------
        ndarray of shape (n_samples,)
            :math:`\\arg\\max_k \\sum_m \\alpha_m 1\\{T_m(x) = k\\}` as a label of
            ``classes_``; ties go to the first class in ``classes_`` (two classes: a zero
            score gives ``classes_[0]``).
        """
        return self._label(self.decision_function(X))

    def staged_predict(self, X):
        """Yield :meth:`predict` after each round.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Numeric features; ``NaN`` or infinite values raise ``ValueError``.

        Yields
        ------
        ndarray of shape (n_samples,)
            Predicted class labels (from ``classes_``) of the first :math:`m` learners,
            :math:`m = 1, \\dots,` ``len(estimators_)``.
        """
        for d in self.staged_decision_function(X):
            yield self._label(d)

    @property
    def feature_importances_(self) -> np.ndarray:
        """The learners' ``feature_importances_`` averaged with weights ``estimator_weights_``."""
        check_is_fitted(self, "estimators_")
        norm = self.estimator_weights_.sum()
        pairs = zip(self.estimators_, self.estimator_weights_, strict=False)
        return sum(a * est.feature_importances_ for est, a in pairs) / norm
