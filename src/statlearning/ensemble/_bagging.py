"""Bootstrap aggregation of any estimator: :class:`BaggingClassifier`, :class:`BaggingRegressor`."""

from __future__ import annotations

from numbers import Integral, Real

from .._validation import Boolean, Interval, Options, RandomState
from ..base import ClassifierMixin, RegressorMixin, fit_context
from ..tree import DecisionTreeClassifier, DecisionTreeRegressor
from ._base import BaseBagging, ClassifierOutputs, RegressorOutputs, clone_member


class _HasFitPredict:
    """Constraint: an unfitted estimator with ``fit`` and ``predict``."""

    def is_satisfied_by(self, value) -> bool:
        return hasattr(value, "fit") and hasattr(value, "predict")

    def __str__(self) -> str:
        return "an estimator with fit and predict"


_CONSTRAINTS = {
    "estimator": [None, _HasFitPredict()],
    "n_estimators": [Interval(Integral, 1, None, closed="left")],
    "max_samples": [Interval(Integral, 1, None, closed="left"),
                    Interval(Real, 0, 1, closed="right")],
    "bootstrap": [Boolean()],
    "oob_score": [Boolean()],
    "n_jobs": [None, Interval(Integral, 1, None, closed="left"),
               Interval(Integral, None, -1, closed="right")],
    "random_state": [RandomState()],
}


class BaggingRegressor(RegressorOutputs, RegressorMixin, BaseBagging):
    """Bagged regressor: the mean of estimators fitted to bootstrap samples.

    Parameters
    ----------
    estimator : estimator, default=None
        Base estimator; ``None`` is an unpruned :class:`~statlearning.tree.DecisionTreeRegressor`
        with ``tie_break="random"`` (ties between columns broken at random, as scikit-learn)
        and ``use_surrogates="missing"`` (no surrogate search: bagging accepts no ``NaN``).
    n_estimators : int, default=10
        Number of bootstrap samples :math:`B`.
    max_samples : int or float, default=1.0
        Rows drawn per sample (a float is a fraction of ``n_samples``, a row of frequency
        weight counting as that many rows).
    bootstrap : bool, default=True
        Draw with replacement (else without: pasting).
    oob_score : bool, default=False
        Compute ``oob_prediction_``, ``oob_score_`` (:math:`R^2`) and ``oob_error_curve_``.
    n_jobs : int, default=None
        joblib threads for fitting and prediction (``None``: 1 unless a
        ``joblib.parallel_config`` context says otherwise; ``-1``: all cores).
    random_state : int, RandomState instance or None, default=None
        Source of the members' seeds (bootstrap sample and the member's own
        ``random_state``); an int makes the ensemble reproducible.

    Attributes
    ----------
    estimators_ : list of estimators
    oob_prediction_ : ndarray of shape (n_samples,)
        Only with ``oob_score``; NaN for rows never out of bag.
    oob_score_ : float
    oob_error_curve_ : ndarray of shape (n_estimators,)
        OOB mean squared error of the first ``b`` members.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    Bagging (seed 000 §1.5, seed 004 §74, ESL §8.7) fits the base estimator to :math:`B`
    bootstrap samples (``max_samples`` draws, with replacement) and averages:
    :math:`\\hat f_{bag}(x) = \\frac{1}{B}\\sum_{b=1}^B \\hat f_b(x)`. If the :math:`\\hat f_b(x)`
    have variance :math:`\\sigma^2` and pairwise correlation :math:`\\rho`, the average has
    variance :math:`\\rho\\sigma^2 + (1-\\rho)\\sigma^2/B`: more members remove only the
    second term (random forests attack the first). A statlearning tree grows on the
    bootstrap sample as repeated rows (a row drawn :math:`k` times weighs :math:`k` and
    counts as :math:`k` observations in ``min_samples_*``); another base estimator gets the
    counts as ``sample_weight`` when its ``fit`` accepts it, else the rows repeated by
    indexing. ``sample_weight`` are drawn from as the forests' (see
    :class:`~statlearning.ensemble.RandomForestRegressor`): weights proportional to
    integers are repeated rows, other weights are sampling probabilities, and rescaling
    them changes nothing. Each member's bootstrap and its own
    ``random_state`` come from two integer seeds drawn up front from ``random_state``, so the
    ensemble does not depend on ``n_jobs`` (threads).

    Out-of-bag estimate (seed 004 §75): row :math:`i` is predicted only by the members whose
    bootstrap sample left it out (about :math:`e^{-1} \\approx 0.368` of them); rows that are
    never out of bag are left out (with a warning). ``oob_error_curve_[b-1]`` is this error
    (misclassification rate or MSE) of the first :math:`b` members, to monitor convergence.

    Mapping: R's ``randomForest(x, y, mtry = ncol(x), ntree, keep.inbag)`` is bagging of
    trees (``RandomForest*(max_features=None)``, same trees as ``Bagging*`` of
    ``DecisionTree*``); scikit-learn's ``BaggingClassifier(estimator, n_estimators,
    max_samples, bootstrap, oob_score)`` (``max_features`` / ``bootstrap_features`` are not
    offered). ``keep.inbag`` is not offered (in-bag counts are recomputed from the seeds).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.ensemble import BaggingRegressor
    >>> X = np.arange(20.0).reshape(-1, 1)
    >>> y = np.r_[np.zeros(10), np.ones(10)]
    >>> BaggingRegressor(random_state=0).fit(X, y).predict([[0.0], [19.0]])
    array([0., 1.])
    """

    _parameter_constraints = dict(_CONSTRAINTS)

    def __init__(self, estimator=None, n_estimators=10, *, max_samples=1.0, bootstrap=True,
                 oob_score=False, n_jobs=None, random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.n_jobs = n_jobs
        self.random_state = random_state

    def _make_estimator(self, seed, n_features):
        default = DecisionTreeRegressor(tie_break="random", use_surrogates="missing")
        return clone_member(self.estimator, default, seed)

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit ``n_estimators`` members to bootstrap samples of ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite numeric features (NaN or infinity raise ``ValueError``).
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Each bootstrap sample draws rows with probabilities proportional to ``w``;
            weights proportional to integers are repeated rows, and rescaling ``w`` changes
            nothing (see Notes); the OOB error is weighted.

        Returns
        -------
        self : BaggingRegressor
        """
        X, target, w = self._validate_fit(X, y, sample_weight)
        self._fit_members(X, target, w)
        if self.oob_score:
            self._compute_oob(X, target, w)
        return self


class BaggingClassifier(ClassifierOutputs, ClassifierMixin, BaseBagging):
    """Bagged classifier: averaged class probabilities (``"soft"``) or the majority vote.

    Parameters
    ----------
    estimator : estimator, default=None
        Base estimator; ``None`` is an unpruned
        :class:`~statlearning.tree.DecisionTreeClassifier` with ``tie_break="random"`` and
        ``use_surrogates="missing"``.
    n_estimators : int, default=10
        Number of bootstrap samples :math:`B`.
    max_samples : int or float, default=1.0
        Rows drawn per sample (a float is a fraction of ``n_samples``, a row of frequency
        weight counting as that many rows).
    bootstrap : bool, default=True
        Draw with replacement (else without: pasting).
    oob_score : bool, default=False
        Compute ``oob_decision_function_``, ``oob_score_`` (accuracy) and ``oob_error_curve_``.
    voting : {"soft", "hard"}, default="soft"
        ``"soft"``: the mean of the members' class probabilities (scikit-learn); ``"hard"``:
        the majority vote :math:`\\arg\\max_c \\sum_b 1\\{\\hat f_b(x) = c\\}` with
        ``predict_proba`` the vote fractions (the notes' rule, R's ``randomForest``). A base
        estimator without ``predict_proba`` always votes.
    n_jobs : int, default=None
        joblib threads for fitting and prediction (``None``: 1 unless a
        ``joblib.parallel_config`` context says otherwise; ``-1``: all cores).
    random_state : int, RandomState instance or None, default=None
        Source of the members' seeds (bootstrap sample and the member's own
        ``random_state``); an int makes the ensemble reproducible.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_classes_ : int
    estimators_ : list of estimators
    oob_decision_function_ : ndarray of shape (n_samples, n_classes)
        Only with ``oob_score``: OOB probabilities (or vote fractions); NaN rows were never
        out of bag.
    oob_score_ : float
        OOB accuracy, ``1 - oob_error_curve_[-1]``.
    oob_error_curve_ : ndarray of shape (n_estimators,)
        OOB misclassification rate of the first ``b`` members.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    As in :class:`BaggingRegressor` (see its Notes), with the members' class probabilities
    averaged (``voting="soft"``) or their votes counted (``"hard"``) and the OOB error
    the misclassification rate.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.ensemble import BaggingClassifier
    >>> X = np.arange(20.0).reshape(-1, 1)
    >>> y = np.r_[["a"] * 10, ["b"] * 10]
    >>> BaggingClassifier(random_state=0).fit(X, y).predict([[0.0], [19.0]])
    array(['a', 'b'], dtype='<U1')
    """

    _parameter_constraints = {**_CONSTRAINTS, "voting": [Options({"soft", "hard"})]}
    _is_classifier = True

    def __init__(self, estimator=None, n_estimators=10, *, max_samples=1.0, bootstrap=True,
                 oob_score=False, voting="soft", n_jobs=None, random_state=None):
        self.estimator = estimator
        self.n_estimators = n_estimators
        self.max_samples = max_samples
        self.bootstrap = bootstrap
        self.oob_score = oob_score
        self.voting = voting
        self.n_jobs = n_jobs
        self.random_state = random_state

    def _make_estimator(self, seed, n_features):
        default = DecisionTreeClassifier(tie_break="random", use_surrogates="missing")
        return clone_member(self.estimator, default, seed)

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit ``n_estimators`` members to bootstrap samples of ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite numeric features (NaN or infinity raise ``ValueError``).
        y : array-like of shape (n_samples,)
            Class labels of any type (at least two classes).
        sample_weight : array-like of shape (n_samples,), default=None
            Each bootstrap sample draws rows with probabilities proportional to ``w``;
            weights proportional to integers are repeated rows, and rescaling ``w`` changes
            nothing (see Notes); the OOB error is weighted.

        Returns
        -------
        self : BaggingClassifier
        """
        X, target, w = self._validate_fit(X, y, sample_weight)
        self._fit_members(X, target, w)
        if self.oob_score:
            self._compute_oob(X, target, w)
        return self
