"""Best subset selection for linear least squares: :class:`BestSubsetSelector`."""

from __future__ import annotations

import math
from numbers import Integral

import numpy as np
from sklearn.model_selection import check_cv
from sklearn.utils.validation import validate_data

from .._core.scaling import times
from .._validation import CV, DEPRECATED, Boolean, Interval, Options, renamed_parameter
from ..base import StatBase, TransformerMixin, fit_context
from ..exceptions import warn_aliased
from ._common import (
    ALIAS_TOL,
    CRITERIA,
    SelectorMixin,
    choose_size,
    cross_products,
    full_model_sigma2,
    path_rows,
    rescaled_data,
    unscale_path,
    variable_names,
)
from ._subset_kernels import best_subsets_kernel

#: Exhaustive search refuses problems with more candidate subsets than this.
MAX_EXHAUSTIVE_SUBSETS = 2**30


def check_n_samples(n, owner):
    if n < 2:
        raise ValueError(f"{owner} needs at least 2 samples, got n_samples = {n}.")


def n_subsets(p, max_size):
    """Number of subsets of size ``1…max_size`` of ``p`` variables."""
    return sum(math.comb(p, k) for k in range(1, max_size + 1))


def best_subsets(X, y, max_size, method, fit_intercept):
    """Best subset of every size ``0…max_size`` by RSS.

    One pass over the data (the cross-product matrix), then a compiled search that depends on
    ``p`` only. ``method`` is accepted for the record: both methods run the exact search with
    Furnival–Wilson bounds, which returns the subsets of the full enumeration.

    Returns ``(rss, subsets, tss, rss_full, k_full, aliased)`` with ``subsets[s]`` a sorted
    tuple of column indices (``None`` where no subset of that size was found).
    """
    return search_cross_products(cross_products(X, y, fit_intercept)[0], max_size, fit_intercept)


def search_cross_products(C, max_size, fit_intercept, prune=True):
    """:func:`best_subsets` from the scaled cross-product matrix ``C`` of ``[X, y]``.

    ``prune=False`` visits every subset (the reference the bounds are tested against).
    """
    tss = float(C[-1, -1])
    rss_full, swept, order, best, masks, _ = best_subsets_kernel(
        np.ascontiguousarray(C), int(max_size), prune, ALIAS_TOL
    )
    rss_full = float(rss_full)
    aliased = np.flatnonzero(~swept).tolist()
    n_sizes = min(max_size, len(order)) + 1
    bits = (masks[:n_sizes, None] >> np.arange(len(order))) & 1
    subsets = [tuple(sorted(order[row == 1].tolist())) for row in bits]
    rss = best[:n_sizes].tolist()
    return rss, subsets, tss, rss_full, len(order) + int(fit_intercept), aliased


def _ols_predict(X_train, y_train, X_test, cols, fit_intercept):
    """Least-squares prediction on ``X_test`` from the columns ``cols``."""
    if fit_intercept:
        xm, ym = X_train[:, cols].mean(axis=0), y_train.mean()
    else:
        xm, ym = np.zeros(len(cols)), 0.0
    if len(cols) == 0:
        return np.full(X_test.shape[0], ym)
    beta = np.linalg.lstsq(X_train[:, cols] - xm, y_train - ym, rcond=None)[0]
    return ym + (X_test[:, cols] - xm) @ beta


def cv_errors(X, y, sizes_subsets_fn, cv, fit_intercept, max_size):
    """Per-fold mean squared error of the best model of each size chosen on the training folds.

    ``sizes_subsets_fn(X_train, y_train)`` returns the list of subsets by size. Returns the
    ``(n_folds, max_size + 1)`` array of fold MSEs (``nan`` where a size was not reached).
    """
    splitter = check_cv(cv)
    errors = []
    for train, test in splitter.split(X, y):
        subsets = sizes_subsets_fn(X[train], y[train])
        row = np.full(max_size + 1, np.nan)
        for s, cols in enumerate(subsets[: max_size + 1]):
            if cols is None:
                continue
            pred = _ols_predict(X[train], y[train], X[test], list(cols), fit_intercept)
            row[s] = np.mean((y[test] - pred) ** 2)
        errors.append(row)
    return np.asarray(errors)


def add_cv_to_path(path, errors):
    """Add ``cv`` (mean fold MSE) and ``cv_se`` (sd / √K) to each row of ``path``."""
    k = errors.shape[0]
    for s, row in enumerate(path):
        col = errors[:, s] if s < errors.shape[1] else np.array([np.nan])
        row["cv"] = float(np.mean(col))
        row["cv_se"] = float(np.std(col, ddof=1) / math.sqrt(k)) if k > 1 else float("nan")


class BestSubsetSelector(SelectorMixin, TransformerMixin, StatBase):
    """Best subset selection for least squares (R's ``leaps::regsubsets``).

    For each size ``k = 0, 1, …, max_features`` the subset of features with the smallest
    residual sum of squares is found (seed 004 §5.2, "best subset selection": M₀ … M_p); a
    criterion then chooses among the sizes. The selector is a scikit-learn transformer: it keeps
    the chosen columns, so ``make_pipeline(BestSubsetSelector(), LinearRegression())`` fits the
    selected model.

    Parameters
    ----------
    max_features : int or None, default=None
        Largest subset size searched (R's ``nvmax``); ``None`` searches every size.
    criterion : {"bic", "aic", "cp", "adjr2", "cv"}, default="bic"
        How the size is chosen; the best subset within a size is always the one with the
        smallest RSS. ``"adjr2"`` is maximised, the others minimised. ``"cv"`` re-runs the
        search on each training fold of ``cv`` and scores the best model of each size on the
        held-out fold (mean squared error), as ISLR §6.5.
    method : {"exhaustive", "branch_and_bound"}, default="exhaustive"
        Both find the best subset of every size exactly, by Furnival and Wilson's leaps and
        bounds (what R's ``regsubsets(method = "exhaustive")`` runs): the tree of all ``2^p``
        subsets is walked, each node by one reverse sweep of the cross-product matrix
        (``O(p²)``), and a subtree is skipped only when its bound shows that it holds no
        better model. ``"exhaustive"`` refuses problems whose worst case exceeds ``2^30``
        subsets; ``"branch_and_bound"`` accepts up to 62 features (usable to about 40).
    convention : {"leaps", "islr"}, default="leaps"
        Formulas for the criteria; see Notes.
    cv : int, cross-validation generator or iterable, default=None
        Folds for ``criterion="cv"`` (``None``: 10-fold, unshuffled).
    rule : {"min", "1se"}, default="min"
        ``criterion="cv"`` only: the size with the smallest CV error, or the smallest size whose
        CV error is within one standard error (sd/√K over the folds) of it (the
        one-standard-error rule; ties go to the smaller model).
    fit_intercept : bool, default=True
        Every model contains an intercept (R's ``intercept = TRUE``), counted in ``k``.
    selection : {"min", "1se"}
        Deprecated name of ``rule`` (a ``FutureWarning``).

    Attributes
    ----------
    support_ : ndarray of shape (n_features_in_,), bool
        The selected features.
    best_size_ : int
        Number of selected features.
    path_ : list of dict
        One row per size ``0…max_features``: ``size``, ``variables`` (names from
        ``feature_names_in_``, else column indices), ``rss``, ``r2``, ``adjr2``, ``cp``, ``bic``,
        ``aic`` and, with ``criterion="cv"``, ``cv`` and ``cv_se``. ``pandas.DataFrame(path_)``
        prints it like ``summary(regsubsets(...))``.
    sigma2_ : float or None
        σ̂² of the full model, ``RSS_full / (n − k_full)``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when fitted on a DataFrame with string column names.

    Notes
    -----
    For a model with ``k`` coefficients (intercept included) and residual sum of squares RSS on
    ``n`` samples, with ``σ̂² = RSS_full / (n − k_full)``:

    ``convention="leaps"`` (R's ``summary(regsubsets)``; AIC as R's ``step``/``extractAIC``):

    .. math:: C_p = \\mathrm{RSS}/\\hat\\sigma^2 - n + 2k,\\quad
              \\mathrm{BIC} = n\\ln(\\mathrm{RSS}/\\mathrm{TSS}) + k\\ln n,\\quad
              \\mathrm{AIC} = n\\ln(\\mathrm{RSS}/n) + 2k,

    the adjusted ``R² = 1 − (RSS/TSS)(n−1)/(n−k)``. leaps's BIC equals
    ``n ln(RSS/n) + k ln n`` minus the constant ``n ln(TSS/n)`` (same ranking); the AIC equals
    ``−2 ln L + 2k`` minus the constant ``n(1 + ln 2π)``.

    ``convention="islr"`` (seed 004 §5.2, with ``d = p + 2 = k + 1`` counting σ² as R's
    ``logLik`` does): ``Cp = (RSS + 2dσ̂²)/n``, ``BIC = (RSS + dσ̂² ln n)/n`` and
    ``AIC = −2 ln L + 2d`` (R's ``AIC(lm)``).

    Cp needs σ̂² (so ``n > k_full``); with more features than samples use ``"bic"``,
    ``"aic"``, ``"adjr2"`` or ``"cv"``. Linearly dependent columns are never selected (a
    ``RankDeficientWarning`` names them). R equivalent:
    ``regsubsets(x, y, nvmax = max_features, method = "exhaustive")``.

    Computation: the data are read once, to form the centred cross-product matrix of
    ``[X, y]`` (``O(np²)``); the search then works on that ``(p+1) × (p+1)`` matrix only
    (compiled; a node of the search tree costs one reverse sweep), and the criteria of the
    ``max_features + 1`` best models are computed at the end.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.feature_selection import BestSubsetSelector
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 6))
    >>> y = 2 * X[:, 0] - 3 * X[:, 3] + rng.normal(size=100)
    >>> BestSubsetSelector().fit(X, y).get_support(indices=True)
    array([0, 3])
    """

    _parameter_constraints = {
        "max_features": [None, Interval(Integral, 0, None, closed="left")],
        "criterion": [Options(CRITERIA)],
        "method": [Options({"exhaustive", "branch_and_bound"})],
        "convention": [Options({"leaps", "islr"})],
        "cv": [None, CV()],
        "rule": [Options({"min", "1se"})],
        "selection": [Options({"min", "1se"}), Options({DEPRECATED})],
        "fit_intercept": [Boolean()],
    }

    def __init__(
        self,
        max_features=None,
        criterion="bic",
        method="exhaustive",
        convention="leaps",
        cv=None,
        *,
        rule="min",
        fit_intercept=True,
        selection=DEPRECATED,
    ):
        self.max_features = max_features
        self.criterion = criterion
        self.method = method
        self.convention = convention
        self.cv = cv
        self.rule = rule
        self.fit_intercept = fit_intercept
        self.selection = selection

    def _search(self, X, y, max_size):
        return best_subsets(X, y, max_size, self.method, self.fit_intercept)

    @fit_context
    def fit(self, X, y):
        """Search the subsets and choose the size.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        n, p = X.shape
        name = type(self).__name__
        check_n_samples(n, name)
        max_size = p if self.max_features is None else min(self.max_features, p)
        if self.method == "exhaustive" and n_subsets(p, max_size) > MAX_EXHAUSTIVE_SUBSETS:
            raise ValueError(
                f"{name}: exhaustive search over {p} features would fit "
                f"{n_subsets(p, max_size):,} subsets (limit {MAX_EXHAUSTIVE_SUBSETS:,}). Use "
                "method='branch_and_bound', a smaller max_features, or StepwiseSelector."
            )
        if p > 62:
            raise ValueError(
                f"{name}: subset search handles at most 62 features, got {p}; use StepwiseSelector."
            )
        X, y, y_scale = rescaled_data(X, y)  # the search is equivariant in X's columns and y
        rss, subsets, tss, rss_full, k_full, aliased = self._search(X, y, max_size)
        self.sigma2_ = full_model_sigma2(rss_full, n, k_full, self.criterion, self.convention, name)
        if aliased:
            warn_aliased(self, variable_names(self, aliased), consequence="they are never selected")
        path = path_rows(
            self, subsets, rss, n, tss, self.sigma2_, self.convention, self.fit_intercept
        )
        for row in path:
            del row["_cols"]
        if self.criterion == "cv":
            errors = cv_errors(
                X,
                y,
                lambda Xt, yt: self._search(Xt, yt, max_size)[1],
                10 if self.cv is None else self.cv,
                self.fit_intercept,
                len(path) - 1,
            )
            add_cv_to_path(path, errors)
        chosen = choose_size(
            path, self.criterion, renamed_parameter(self, "selection", "rule")
        )
        self.best_size_ = path[chosen]["size"]
        unscale_path(self, path, y_scale, n, self.convention)
        if self.sigma2_ is not None:
            self.sigma2_ = times(self.sigma2_, y_scale, 2)
        support = np.zeros(p, dtype=bool)
        support[list(subsets[chosen])] = True
        self.support_ = support
        self.path_ = path
        return self
