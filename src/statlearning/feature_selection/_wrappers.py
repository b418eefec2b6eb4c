"""Wrapper selection scored on held-out data (seed 003) and embedded selection from a lasso path
(seed 001 §7.4.3): :class:`WrapperSelector`, :class:`LassoPathSelector`."""

from __future__ import annotations

import math
import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import clone, is_classifier
from sklearn.model_selection import ShuffleSplit, StratifiedShuffleSplit, check_cv, cross_val_score
from sklearn.utils.validation import validate_data

from .._core.scaling import scale_for, times
from .._core.selection import select_index
from .._validation import CV, DEPRECATED, Boolean, Interval, Options, renamed_parameter
from ..base import StatBase, TransformerMixin, fit_context
from ..exceptions import ConvergenceWarning, NumericalWarning, RankDeficientWarning, warn_data_scale
from ..linear_model import lasso_path
from ._common import SelectorMixin, variable_names

__all__ = ["LassoPathSelector", "WrapperSelector"]


class WrapperSelector(SelectorMixin, TransformerMixin, StatBase):
    """Greedy forward or backward selection for any estimator, scored on held-out data.

    The notes' wrapper (seed 003, "forward selection with validation"): the learner is a black
    box; each step adds (or removes) the feature whose model scores best on the validation
    folds, and the best model over all the sizes visited is returned — so it may have fewer
    than ``max_features`` features, as the notes require. Training error is never used.

    Parameters
    ----------
    estimator : estimator
        Any scikit-learn compatible estimator, refitted on every candidate subset.
    direction : {"forward", "backward"}, default="forward"
    max_features : int or None, default=None
        Forward: stop after this many features (``None``: all). Backward: stop at this size
        (``None``: the empty model).
    scoring : str, callable or None, default=None
        scikit-learn scorer (higher is better); ``None`` uses the estimator's ``score``.
    cv : int, float, cross-validation generator or iterable, default=5
        An int is K-fold (stratified for classifiers), a float in (0, 1) one validation set of
        that fraction (the notes' train/validation split, drawn with ``random_state``).
    rule : {"min", "1se"}, default="min"
        The best size by mean validation score (the smaller model on ties), or the smallest
        size within one standard error (sd/√K across folds, ``ddof=1``) of it: the package's
        one rule, as :func:`statlearning.model_selection.one_standard_error_rule`. With a
        single validation set (``cv`` a fraction) the standard error is taken as 0, so
        ``"1se"`` is ``"min"``.
    random_state : int or None, default=None
        Only for ``cv`` given as a fraction.
    selection : {"min", "1se"}
        Deprecated name of ``rule`` (a ``FutureWarning``).

    Attributes
    ----------
    support_ : ndarray of shape (n_features_in_,), bool
    best_size_ : int
    path_ : list of dict
        One row per step: ``size``, ``variables``, ``score`` (mean over folds), ``score_se``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    A forward search fits ``O(d · max_features)`` models per fold, a backward one ``O(d²)``.
    The empty model (size 0) is scored by fitting the estimator on one constant column, which
    gives the intercept-only model for linear models (and the prior for classifiers).
    """

    _parameter_constraints = {
        "estimator": "no_validation",
        "direction": [Options({"forward", "backward"})],
        "max_features": [None, Interval(Integral, 0, None, closed="left")],
        "scoring": "no_validation",
        "cv": [CV(), Interval(Real, 0, 1, closed="neither")],
        "rule": [Options({"min", "1se"})],
        "random_state": "no_validation",
        "selection": [Options({"min", "1se"}), Options({DEPRECATED})],
    }

    def __init__(
        self,
        estimator,
        *,
        direction="forward",
        max_features=None,
        scoring=None,
        cv=5,
        rule="min",
        random_state=None,
        selection=DEPRECATED,
    ):
        self.estimator = estimator
        self.direction = direction
        self.max_features = max_features
        self.scoring = scoring
        self.cv = cv
        self.rule = rule
        self.random_state = random_state
        self.selection = selection

    def _splitter(self, y):
        cv = self.cv
        if isinstance(cv, Real) and not isinstance(cv, Integral):
            cls = StratifiedShuffleSplit if is_classifier(self.estimator) else ShuffleSplit
            return cls(n_splits=1, test_size=cv, random_state=self.random_state)
        return check_cv(cv, y, classifier=is_classifier(self.estimator))

    @fit_context
    def fit(self, X, y):
        """Run the greedy search.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        if not hasattr(self.estimator, "fit"):
            raise TypeError(
                "WrapperSelector: parameter 'estimator' must be an estimator, got "
                f"{type(self.estimator).__name__}."
            )
        rule = renamed_parameter(self, "selection", "rule")
        X, y = validate_data(self, X, y, dtype=np.float64)
        n, p = X.shape
        splits = list(self._splitter(y).split(X, y))

        def score(cols):
            Xs = X[:, sorted(cols)] if cols else np.ones((n, 1))
            with warnings.catch_warnings():
                for w in (RankDeficientWarning, NumericalWarning, ConvergenceWarning):
                    warnings.simplefilter("ignore", w)
                s = cross_val_score(
                    clone(self.estimator),
                    Xs,
                    y,
                    scoring=self.scoring,
                    cv=splits,
                    error_score="raise",
                )
            se = np.std(s, ddof=1) / math.sqrt(len(s)) if len(s) > 1 else 0.0
            return float(np.mean(s)), float(se)

        current = set() if self.direction == "forward" else set(range(p))
        if self.max_features is not None:
            limit = min(self.max_features, p)
        else:
            limit = p if self.direction == "forward" else 0
        rows = []

        def record(cols, sc):
            rows.append(
                {
                    "size": len(cols),
                    "variables": variable_names(self, sorted(cols)),
                    "score": sc[0],
                    "score_se": sc[1],
                    "_cols": sorted(cols),
                }
            )

        record(current, score(current))
        while (self.direction == "forward" and len(current) < limit) or (
            self.direction == "backward" and len(current) > limit
        ):
            if self.direction == "forward":
                cands = [current | {j} for j in range(p) if j not in current]
            else:
                cands = [current - {j} for j in sorted(current)]
            scored = [(score(c), c) for c in cands]
            best = max(range(len(scored)), key=lambda i: scored[i][0][0])
            current = scored[best][1]
            record(current, scored[best][0])
        chosen = select_index(
            [-r["score"] for r in rows],
            [r["score_se"] for r in rows],
            [r["size"] for r in rows],
            rule=rule,
        )
        support = np.zeros(p, dtype=bool)
        support[rows[chosen]["_cols"]] = True
        for r in rows:
            del r["_cols"]
        self.support_, self.best_size_, self.path_ = support, int(support.sum()), rows
        return self


class LassoPathSelector(SelectorMixin, TransformerMixin, StatBase):
    """Embedded selection: the features with non-zero lasso coefficients.

    The lasso is a convex relaxation of best subset selection (seed 001 §7.4.3); along its
    path ``α_max > … > α_min`` features enter one by one. The selector keeps the active set at
    ``alpha``, or the largest active set along the path with at most ``max_features``
    features.

    Parameters
    ----------
    alpha : float or None, default=None
        Penalty (scikit-learn's scale: ``(1/2n)‖y − Xβ‖² + α‖β‖₁``, glmnet's ``lambda``).
    max_features : int or None, default=None
        Used when ``alpha`` is None: the last point of the path with at most this many
        non-zero coefficients (``None``: the end of the path).
    n_alphas : int, default=100
    eps : float, default=1e-3
        ``α_min = eps · α_max``.
    standardize : bool, default=True
        Scale the columns to unit standard deviation first, as glmnet's default
        ``standardize = TRUE`` (otherwise the penalty favours large-scale features).
    fit_intercept : bool, default=True

    Attributes
    ----------
    support_ : ndarray of shape (n_features_in_,), bool
    alpha_ : float
        The penalty whose active set was kept.
    alphas_ : ndarray of shape (n_alphas,)
    entry_order_ : ndarray of int
        Features in the order they first become non-zero along the path.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    Computed with :func:`statlearning.linear_model.lasso_path` (coordinate descent); R:
    ``glmnet(x, y, alpha = 1)`` and ``predict(fit, type = "nonzero", s = alpha)``.
    """

    _parameter_constraints = {
        "alpha": [None, Interval(Real, 0, None, closed="neither")],
        "max_features": [None, Interval(Integral, 0, None, closed="left")],
        "n_alphas": [Interval(Integral, 1, None, closed="left")],
        "eps": [Interval(Real, 0, 1, closed="neither")],
        "standardize": [Boolean()],
        "fit_intercept": [Boolean()],
    }

    def __init__(
        self,
        alpha=None,
        *,
        max_features=None,
        n_alphas=100,
        eps=1e-3,
        standardize=True,
        fit_intercept=True,
    ):
        self.alpha = alpha
        self.max_features = max_features
        self.n_alphas = n_alphas
        self.eps = eps
        self.standardize = standardize
        self.fit_intercept = fit_intercept

    @fit_context
    def fit(self, X, y):
        """Compute the lasso path and the selected active set.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        # on power-of-two rescaled data when squares would leave float64's range: the path
        # (alpha ∝ Xᵀy) scales by s_x s_y, the order of entry does not change
        s_x, s_y = scale_for(X) or 1.0, scale_for(y) or 1.0
        X, y = (X, y) if s_x == s_y == 1.0 else (X / s_x, y / s_y)
        if self.standardize:
            sd = X.std(axis=0)
            X = X / np.where(sd > 0, sd, 1.0)
            s_x = 1.0
        alphas, coefs, _ = lasso_path(
            X, y, n_alphas=self.n_alphas, eps=self.eps, fit_intercept=self.fit_intercept
        )
        active = coefs != 0
        first = np.where(active.any(axis=1), np.argmax(active, axis=1), active.shape[1])
        order = np.lexsort((np.arange(X.shape[1]), first))
        self.entry_order_ = order[first[order] < active.shape[1]]
        self.alphas_ = times(times(alphas, s_x), s_y)
        if np.any((alphas > 0) & ((self.alphas_ == 0) | np.isinf(self.alphas_))):
            warn_data_scale(self, ["alphas_"], max(s_x, s_y, key=lambda v: abs(np.log2(v))))
        if self.alpha is not None:
            with np.errstate(over="ignore", under="ignore"):
                alpha = np.float64(self.alpha) / s_x / s_y
            if np.isfinite(alpha):
                _, c, _ = lasso_path(X, y, alphas=[alpha], fit_intercept=self.fit_intercept)
                support = c[:, 0] != 0
            else:  # the penalty exceeds float64 on this scale: no feature enters
                support = np.zeros(X.shape[1], dtype=bool)
            self.alpha_ = float(self.alpha)
        else:
            counts = active.sum(axis=0)
            limit = X.shape[1] if self.max_features is None else self.max_features
            ok = np.flatnonzero(counts <= limit)
            i = int(ok[-1]) if ok.size else 0
            support, self.alpha_ = active[:, i], float(self.alphas_[i])
        self.support_ = np.asarray(support, dtype=bool)
        return self
