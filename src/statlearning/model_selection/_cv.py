"""Cross-validation estimates with standard errors, the one-standard-error rule and nested CV.

The splitting, scoring and searching are scikit-learn's (``check_cv``, ``check_scoring``,
``GridSearchCV``); what is added is the statistics of the fold scores. Everything happens inside
the folds — pass a :class:`sklearn.pipeline.Pipeline` so that scaling and feature selection are
refitted on each training part (no leakage).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.base import clone, is_classifier
from sklearn.metrics import check_scoring
from sklearn.model_selection import RepeatedKFold, RepeatedStratifiedKFold, check_cv
from sklearn.utils import indexable
from sklearn.utils.parallel import Parallel, delayed

from .._core.selection import select_index


def take_rows(a, idx):
    """Rows ``idx`` of an array, DataFrame/Series or list (``None`` stays ``None``)."""
    if a is None:
        return None
    if hasattr(a, "iloc"):
        return a.iloc[idx]
    if isinstance(a, list):
        return [a[i] for i in idx]
    if hasattr(a, "tocsr"):  # scipy.sparse: row indexing needs CSR (COO has none)
        return a.tocsr()[np.asarray(idx)]
    return np.asarray(a)[idx]


def _test_rows(a, idx):
    """Rows ``idx`` for scoring: a view when they are one contiguous block (unshuffled K-fold),
    else a copy as :func:`take_rows`. Only predictions read them, so a view is safe."""
    idx = np.asarray(idx)
    if (
        a is not None
        and not isinstance(a, list)
        and not hasattr(a, "tocsr")
        and idx.dtype.kind in "iu"
        and idx.size
        and idx[-1] - idx[0] == idx.size - 1
        and np.all(np.diff(idx) == 1)
    ):
        sl = slice(int(idx[0]), int(idx[-1]) + 1)
        return a.iloc[sl] if hasattr(a, "iloc") else np.asarray(a)[sl]
    return take_rows(a, idx)


def _fit_and_score(estimator, X, y, train, test, scorer, return_coefs, sample_weight=None):
    """Fit a clone on ``train``, score it once on ``test``: ``(score, n_test, coefs)``."""
    if sample_weight is None:
        est = clone(estimator).fit(take_rows(X, train), take_rows(y, train))
        score = scorer(est, _test_rows(X, test), _test_rows(y, test))
    else:
        est = clone(estimator).fit(
            take_rows(X, train), take_rows(y, train), sample_weight=sample_weight[train]
        )
        score = scorer(
            est, _test_rows(X, test), _test_rows(y, test), sample_weight=sample_weight[test]
        )
    return float(score), len(test), _coefficients(est) if return_coefs else None


@dataclass
class CVEstimate:
    """Per-fold scores of a cross-validation and their summaries.

    Returned by :func:`cv_estimate`; :meth:`from_scores` builds one from given fold scores.

    Parameters
    ----------
    scores : ndarray of shape (n_splits,)
        Fold scores with scikit-learn's sign (higher is better: ``neg_mean_squared_error`` is
        ``−MSE``), repeat after repeat: ``n_splits`` is the number of folds times ``n_repeats``.
    fold_sizes : ndarray of shape (n_splits,)
        Test-fold sizes ``n_k``, in the order of ``scores``.
    mean : float
        Plain mean of the fold scores.
    weighted_mean : float
        Seed 004's :math:`CV_{(K)} = \\sum_k (n_k/n)\\, \\mathrm{score}_k` (per repeat, then
        averaged over repeats).
    sd : float
        Standard deviation of the fold scores (``ddof=1``) — what seed 004 calls "ŝe".
    se : float
        ``sd / sqrt(n_splits)``, the standard error of the mean used by the one-SE rule.
    coefs : ndarray of shape (n_splits, n_coef) or None, default=None
        Per-fold coefficients, intercept first when the estimator has ``intercept_`` (R's order);
        None unless ``cv_estimate(..., return_coefs=True)``.
    n_repeats : int, default=1
        Number of repetitions of the K-fold split with fresh random folds.
    """

    scores: np.ndarray
    fold_sizes: np.ndarray
    mean: float
    weighted_mean: float
    sd: float
    se: float
    coefs: np.ndarray | None = None
    n_repeats: int = 1

    @classmethod
    def from_scores(cls, scores, fold_sizes, *, coefs=None, n_repeats=1) -> CVEstimate:
        """Summaries of given fold scores (e.g. numbers printed in a text)."""
        scores = np.asarray(scores, dtype=np.float64)
        sizes = np.asarray(fold_sizes)
        if scores.ndim != 1 or scores.shape != sizes.shape:
            raise ValueError("scores and fold_sizes must be 1-D of equal length")
        if scores.size < 2:
            raise ValueError("at least two folds are needed for a standard deviation")
        if np.any(sizes <= 0):
            raise ValueError("fold_sizes must be positive")
        if scores.size % n_repeats:
            raise ValueError(f"{scores.size} folds do not split into n_repeats={n_repeats}")
        s = scores.reshape(n_repeats, -1)
        w = sizes.reshape(n_repeats, -1).astype(np.float64)
        weighted = float(np.mean(np.sum(s * w, axis=1) / np.sum(w, axis=1)))
        sd = float(np.std(scores, ddof=1))
        return cls(
            scores=scores,
            fold_sizes=sizes,
            mean=float(scores.mean()),
            weighted_mean=weighted,
            sd=sd,
            se=sd / np.sqrt(scores.size),
            coefs=None if coefs is None else np.asarray(coefs, dtype=np.float64),
            n_repeats=n_repeats,
        )


def _coefficients(est) -> np.ndarray:
    if hasattr(est, "steps"):  # a Pipeline: the final step
        est = est.steps[-1][1]
    if not hasattr(est, "coef_"):
        raise TypeError(
            f"return_coefs=True needs an estimator with coef_; {type(est).__name__} has none"
        )
    coef = np.ravel(np.asarray(est.coef_, dtype=np.float64))
    if hasattr(est, "intercept_"):
        coef = np.concatenate([np.ravel(np.asarray(est.intercept_, dtype=np.float64)), coef])
    return coef


def _splitter(estimator, y, cv, n_repeats, random_state):
    if not isinstance(n_repeats, int | np.integer) or isinstance(n_repeats, bool) or n_repeats < 1:
        raise ValueError(f"n_repeats must be a positive integer; got {n_repeats!r}")
    if n_repeats == 1:
        return check_cv(cv, y, classifier=is_classifier(estimator))
    if not isinstance(cv, int | np.integer) or isinstance(cv, bool):
        raise ValueError("n_repeats > 1 needs cv given as the number of folds (an int)")
    stratified = is_classifier(estimator) and y is not None
    kind = RepeatedStratifiedKFold if stratified else RepeatedKFold
    return kind(n_splits=int(cv), n_repeats=n_repeats, random_state=random_state)


def cv_estimate(
    estimator,
    X,
    y,
    *,
    cv=10,
    scoring=None,
    n_repeats=1,
    random_state=None,
    return_coefs=False,
    n_jobs=None,
    sample_weight=None,
) -> CVEstimate:
    """K-fold (optionally repeated) cross-validation with per-fold scores and standard errors.

    Parameters
    ----------
    estimator : estimator
        Any scikit-learn-compatible estimator (a fresh clone is fitted on each fold).
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    cv : int, splitter or iterable, default=10
        As in scikit-learn (``int`` → ``KFold`` without shuffling, ``StratifiedKFold`` for
        classifiers). With ``n_repeats > 1`` it must be an int.
    scoring : str or callable, default=None
        A scikit-learn scorer; ``None`` uses the estimator's ``score`` (R² or accuracy).
    n_repeats : int, default=1
        Repeated K-fold (``RepeatedKFold`` / ``RepeatedStratifiedKFold``) when > 1.
    random_state : int, RandomState or None, default=None
        Seeds the repeated splits.
    return_coefs : bool, default=False
        Store each fold's fitted coefficients (intercept first) in ``coefs``.
    n_jobs : int or None, default=None
        Folds fitted in parallel, with scikit-learn's backend (``joblib``, as
        ``cross_val_score``); 1 fits them one after the other in this process, ``None``
        leaves the choice to joblib's ``parallel_config`` (one after the other outside one;
        on a Dask cluster under ``parallel_config(backend="dask")``).
    sample_weight : array-like of shape (n_samples,), default=None
        Row weights, passed to ``fit`` on the training rows and to the scorer
        (``scorer(estimator, X, y, sample_weight=...)``) on the test rows.

    Returns
    -------
    CVEstimate

    Notes
    -----
    With fold scores :math:`s_k` on test folds of sizes :math:`n_k`:
    ``mean`` :math:`= \\frac1K\\sum_k s_k`; ``weighted_mean`` is seed 004's
    :math:`CV_{(K)} = \\sum_k \\frac{n_k}{n} s_k` (E16; ISLR eq. 5.3 when folds are equal);
    ``sd`` :math:`= \\sqrt{\\frac{1}{K-1}\\sum_k (s_k - \\bar s)^2}` (seed 004's "ŝe") and
    ``se`` :math:`= \\mathrm{sd}/\\sqrt K` (the standard error the one-SE rule uses, as R's
    ``cv.glmnet``'s ``cvsd``). For repeated CV, ``se`` treats all :math:`K \\times R` folds as
    independent, which understates it somewhat. The seed's per-fold coefficient summaries
    (β̂₍K₎ and its spread) are ``coefs.mean(0)`` and ``coefs.std(0, ddof=1)``.

    Cost: one fit and one scoring per fold, as scikit-learn's ``cross_val_score``; the training
    rows are copied once per fold, the test rows of an unshuffled K-fold are a view of ``X``.
    """
    X, y = indexable(X, y)
    splitter = _splitter(estimator, y, cv, n_repeats, random_state)
    scorer = check_scoring(estimator, scoring=scoring)
    if n_jobs is not None and (not isinstance(n_jobs, int | np.integer) or isinstance(n_jobs, bool)
                               or n_jobs == 0):
        raise ValueError(f"n_jobs must be None or a non-zero integer; got {n_jobs!r}")
    if sample_weight is not None:
        sample_weight = np.asarray(sample_weight, dtype=np.float64)
        if sample_weight.shape != (X.shape[0],):
            raise ValueError(
                f"sample_weight must have shape ({X.shape[0]},); got {sample_weight.shape}"
            )
    folds = splitter.split(X, y)
    if n_jobs == 1:
        results = [
            _fit_and_score(estimator, X, y, train, test, scorer, return_coefs, sample_weight)
            for train, test in folds
        ]
    else:
        results = Parallel(n_jobs=n_jobs)(
            delayed(_fit_and_score)(
                estimator, X, y, train, test, scorer, return_coefs, sample_weight
            )
            for train, test in folds
        )
    scores, sizes, coefs = zip(*results, strict=True)
    return CVEstimate.from_scores(
        scores, sizes, coefs=np.array(coefs) if return_coefs else None, n_repeats=n_repeats
    )


def _param_values(cv_results, name):
    key = f"param_{name}"
    if key not in cv_results:
        params = [k[6:] for k in cv_results if k.startswith("param_")]
        raise KeyError(f"cv_results has no {key!r}; parameters: {params}")
    values = cv_results[key]
    if np.ma.isMaskedArray(values) and np.any(np.ma.getmaskarray(values)):
        raise ValueError(f"{name!r} is not set for every candidate")
    try:
        return np.asarray(np.ma.getdata(values), dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"parameter {name!r} must be numeric to order candidates") from None


def one_standard_error_rule(complexity_param, simpler="smaller", *, n_splits=None):
    """The one-standard-error rule as a ``GridSearchCV(refit=...)`` callable.

    Parameters
    ----------
    complexity_param : str
        The parameter ordering the candidates by complexity (e.g. ``"alpha"``,
        ``"n_neighbors"``, ``"max_depth"``).
    simpler : {"smaller", "larger"}, default="smaller"
        Which direction of ``complexity_param`` gives the simpler model (``"larger"`` for a
        penalty such as ``alpha`` or for ``n_neighbors``).
    n_splits : int, default=None
        Number of folds, used only when ``cv_results`` has no ``split<k>_test_score`` keys.

    Returns
    -------
    callable
        ``f(cv_results) -> int``: the index of the chosen candidate. Works on
        ``GridSearchCV.cv_results_`` and on any dict with ``mean_test_score``,
        ``std_test_score`` and ``param_<complexity_param>``.

    Notes
    -----
    With :math:`\\hat m` the best mean score and :math:`\\widehat{se} = \\mathrm{std}/\\sqrt K`
    its standard error, the rule picks the simplest candidate with mean score
    :math:`\\ge \\hat m - \\widehat{se}` (ISLR §6.1.3; seed 004 E20; R's ``cv.glmnet``
    ``lambda.1se``). ``std`` is ``cv_results["std_test_score"]`` as scikit-learn reports it
    (``ddof = 0``); :class:`CVEstimate` and the ``*CV`` estimators use ``ddof = 1`` on their own
    fold scores. Scores follow scikit-learn's sign (higher is better). Ties: among equal best
    means the simplest candidate sets the bound; among equally simple candidates within it the
    better mean, then the earlier candidate, wins. The choice itself is
    :func:`statlearning._core.selection.select_index`, shared by every cross-validated selector.
    """
    if simpler not in ("smaller", "larger"):
        raise ValueError(f"simpler must be 'smaller' or 'larger'; got {simpler!r}")
    if not isinstance(complexity_param, str):
        raise TypeError("complexity_param must be a parameter name (str)")

    def rule(cv_results) -> int:
        for key in ("mean_test_score", "std_test_score"):
            if key not in cv_results:
                raise KeyError(
                    f"cv_results needs {key!r} (multi-metric searches: refit on one metric)"
                )
        mean = np.asarray(cv_results["mean_test_score"], dtype=np.float64)
        std = np.asarray(cv_results["std_test_score"], dtype=np.float64)
        k = sum(1 for key in cv_results if key.startswith("split") and key.endswith("_test_score"))
        if k == 0:
            k = n_splits if n_splits is not None else cv_results.get("n_splits")
        if not k:
            raise ValueError("cannot tell the number of folds: pass n_splits=")
        values = _param_values(cv_results, complexity_param)
        se = std / np.sqrt(k)
        sign = 1.0 if simpler == "smaller" else -1.0
        return select_index(-mean, se, sign * values, rule="1se")

    rule.__name__ = f"one_standard_error_rule_{complexity_param}"
    return rule


@dataclass
class NestedCVResult:
    """Outer-fold results of a nested cross-validation.

    Returned by :func:`nested_cv`.

    Parameters
    ----------
    scores : ndarray of shape (n_outer,)
        Score of the tuned model on each outer test fold (scikit-learn's sign).
    best_params : list of dict
        The parameters the inner search chose on each outer training part, one dict per outer
        fold.
    fold_sizes : ndarray of shape (n_outer,)
        Outer test-fold sizes, in the order of ``scores``.
    mean : float
        Mean of the outer scores: the honest estimate of the tuned procedure's performance.
    sd : float
        Standard deviation of the outer scores (``ddof=1``).
    se : float
        ``sd / sqrt(n_outer)``, the standard error of ``mean``.
    """

    scores: np.ndarray
    best_params: list
    fold_sizes: np.ndarray
    mean: float
    sd: float
    se: float


def nested_cv(search, X, y, *, outer_cv=5) -> NestedCVResult:
    """Nested cross-validation of a tuning procedure (e.g. ``GridSearchCV``).

    Parameters
    ----------
    search : estimator with ``best_params_``
        An unfitted search (``GridSearchCV``, ``RandomizedSearchCV``, or one of our ``*CV``
        estimators); cloned and refitted on every outer training part.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    outer_cv : int, splitter or iterable, default=5

    Returns
    -------
    NestedCVResult

    Notes
    -----
    The inner search sees only the outer training part, so the outer scores estimate the
    performance of "tune, then fit" without the optimism of reporting the best inner CV score
    (Varma & Simon 2006; ESL §7.10.2). Scores come from ``search.score`` (the search's scoring,
    with scikit-learn's sign).
    """
    X, y = indexable(X, y)
    inner = getattr(search, "estimator", search)
    splitter = check_cv(outer_cv, y, classifier=is_classifier(inner))
    scores, params, sizes = [], [], []
    for train, test in splitter.split(X, y):
        fitted = clone(search).fit(take_rows(X, train), take_rows(y, train))
        scores.append(float(fitted.score(take_rows(X, test), take_rows(y, test))))
        params.append(dict(getattr(fitted, "best_params_", {})))
        sizes.append(len(test))
    scores = np.asarray(scores)
    sd = float(np.std(scores, ddof=1)) if scores.size > 1 else float("nan")
    return NestedCVResult(
        scores=scores,
        best_params=params,
        fold_sizes=np.asarray(sizes),
        mean=float(scores.mean()),
        sd=sd,
        se=sd / np.sqrt(scores.size),
    )
