"""The nonparametric bootstrap: pairs and residual resampling, SE, bias, percentile / normal /
BCa intervals, and the .632 / .632+ / out-of-bag prediction-error estimates."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from joblib import Parallel, delayed, effective_n_jobs
from scipy import stats
from sklearn.base import clone, is_classifier, is_regressor
from sklearn.utils import check_random_state

from .._core.scaling import column_scales, linear_rescaling
from ..exceptions import NumericalWarning, RankDeficientWarning, external_stacklevel
from . import _bootstrap_ols as ols
from ._cv import take_rows
from ._jackknife import _is_estimator, check_xy, jackknife, make_statistic


@dataclass
class BootstrapResult:
    """Bootstrap replicates and their summaries.

    Returned by :func:`bootstrap`.

    Parameters
    ----------
    replicates : ndarray of shape (n_resamples, n_stat)
        The statistic on each resample :math:`\\hat\\theta^*_b`, in the order the resamples
        were drawn. Entries that are NaN or infinite (an aliased coefficient in that resample:
        R's ``NA``) are kept here; each component's summaries below use its finite replicates.
    estimate : ndarray of shape (n_stat,)
        The statistic on the original sample, :math:`\\hat\\theta` (R's ``t0``).
    bias : ndarray of shape (n_stat,)
        :math:`\\bar\\theta^* - \\hat\\theta`.
    se : ndarray of shape (n_stat,)
        Standard deviation of the replicates (``ddof=1``, as R's ``boot`` prints it).
    ci_low : ndarray of shape (n_stat,)
        Lower limit of the ``ci`` interval at ``level``; NaN where a BCa limit is undefined.
    ci_high : ndarray of shape (n_stat,)
        Upper limit of the ``ci`` interval at ``level``; NaN where a BCa limit is undefined.
    level : float, default=0.95
        Coverage of the interval, :math:`1 - \\alpha`.
    ci : {"percentile", "normal", "bca"}, default="percentile"
        The interval method (see :func:`bootstrap`'s Notes).
    kind : {"pairs", "residual"}, default="pairs"
        The resampling scheme: rows ``(xᵢ, yᵢ)`` or centred residuals of the full fit.
    acceleration : ndarray of shape (n_stat,) or None, default=None
        BCa's jackknife acceleration :math:`\\hat a` (``ci="bca"`` only, else None).
    bias_correction : ndarray of shape (n_stat,) or None, default=None
        BCa's bias correction :math:`\\hat z_0` (``ci="bca"`` only, else None).
    """

    replicates: np.ndarray
    estimate: np.ndarray
    bias: np.ndarray
    se: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    level: float = 0.95
    ci: str = "percentile"
    kind: str = "pairs"
    acceleration: np.ndarray | None = None
    bias_correction: np.ndarray | None = None


def _check_common(n_resamples, level, random_state):
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int | np.integer):
        raise TypeError(f"n_resamples must be an integer; got {n_resamples!r}")
    if n_resamples < 2:
        raise ValueError(f"n_resamples must be at least 2; got {n_resamples}")
    if not (isinstance(level, float | int) and 0 < level < 1):
        raise ValueError(f"level must be in (0, 1); got {level!r}")
    return check_random_state(random_state)


def _ols_design(statistic):
    """The estimator's answer to the batched-OLS protocol (``_bootstrap_ols_design``), or None.

    An estimator whose ``fit`` is ordinary least squares implements ``_bootstrap_ols_design()``
    returning ``{"fit_intercept": bool}`` (see
    :meth:`statlearning.linear_model.LinearRegression._bootstrap_ols_design`).
    """
    hook = getattr(statistic, "_bootstrap_ols_design", None)
    if isinstance(statistic, type) or not callable(hook):
        return None
    return hook()


def _fast_ols(statistic, attribute, X, y):
    """``(A, mean, fit_intercept, y)`` when the batched OLS path applies, else ``None``."""
    if attribute not in ("coef_", "intercept_"):
        return None
    spec = _ols_design(statistic)
    if spec is None:
        return None
    if y is None or hasattr(X, "iloc") or isinstance(X, list):
        return None
    try:
        Xa = np.asarray(X, dtype=np.float64)
        ya = np.asarray(y, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    if Xa.ndim != 2 or ya.ndim != 1 or not (np.all(np.isfinite(Xa)) and np.all(np.isfinite(ya))):
        return None
    if linear_rescaling(Xa, ya) is not None:  # extreme scales: the estimator's fit rescales
        return None
    fit_intercept = bool(spec["fit_intercept"])
    A, mean = ols.design(Xa, fit_intercept)
    if A.shape[0] <= A.shape[1] or not ols.well_conditioned(A):
        return None
    return A, mean, fit_intercept, ya


def _chunks(idx, n_jobs):
    """Resample batches: one unless joblib runs several workers (``n_jobs``, or the active
    ``parallel_config`` when ``n_jobs`` is ``None``, a Dask cluster's threads among them)."""
    workers = 1 if n_jobs == 1 else effective_n_jobs(n_jobs)
    n_chunks = 1 if workers == 1 else 4 * workers
    return [c for c in np.array_split(idx, min(n_chunks, len(idx))) if len(c)]


def _run_pairs(stat, X, y, idx):
    # A resample's aliased column is reported once, counted, by bootstrap() (R's NA).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RankDeficientWarning)
        return [stat(take_rows(X, i), take_rows(y, i)) for i in idx]


def _run_residual(stat, X, fitted, resid, idx):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RankDeficientWarning)
        return [stat(X, fitted + resid[i]) for i in idx]


def _by_component(func, reps, *args):
    """``func(column, *args)`` over the finite replicates of each component; NaN where none."""
    out = []
    for j in range(reps.shape[1]):
        column = reps[:, j]
        column = column[np.isfinite(column)]
        out.append(func(column, j, *args) if column.size else np.nan)
    return np.array(out, dtype=np.float64)


def _sd(column, _):
    """Standard deviation (``ddof=1``), computed on rescaled values when the squares of the
    replicates would leave float64's range."""
    if column.size < 2:
        return np.nan
    d = column_scales(column[:, None])
    return column.std(ddof=1) if d is None else (column / d[0]).std(ddof=1) * d[0]


def _percentile(reps, lo, hi):
    def quantile(column, _, q):
        return np.quantile(column, q)

    return _by_component(quantile, reps, lo), _by_component(quantile, reps, hi)


def _warn_non_finite(reps):
    """One warning counting, per component, the replicates that are NaN or infinite."""
    bad = np.sum(~np.isfinite(reps), axis=0)
    if not bad.any():
        return
    n = reps.shape[0]
    listed = ", ".join(f"component {j} in {int(bad[j])}" for j in np.flatnonzero(bad)[:10])
    more = "" if np.count_nonzero(bad) <= 10 else ", ..."
    warnings.warn(
        f"bootstrap: replicates NaN or infinite (e.g. an aliased coefficient, R's NA) for "
        f"{listed}{more} of {n}; each component's bias, SE and interval use its finite "
        "replicates only",
        NumericalWarning,
        stacklevel=external_stacklevel(),
    )


def _bca(reps, estimate, jack_reps, alpha):
    """BCa limits with the jackknife acceleration (Efron 1987; Davison & Hinkley eq. 5.21).

    Each component uses its finite replicates (and its finite jackknife replicates).
    """
    finite = np.isfinite(reps)
    with np.errstate(invalid="ignore", divide="ignore"):
        prop = np.sum((reps < estimate) & finite, axis=0) / np.sum(finite, axis=0)
    jack_reps = np.where(np.isfinite(jack_reps), jack_reps, np.nan)
    with np.errstate(divide="ignore"):
        z0 = stats.norm.ppf(prop)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # an all-NaN jackknife column
        d = np.nanmean(jack_reps, axis=0) - jack_reps
    denom = 6.0 * np.nansum(d**2, axis=0) ** 1.5
    with np.errstate(invalid="ignore", divide="ignore"):
        a = np.where(denom > 0, np.nansum(d**3, axis=0) / denom, 0.0)
    lows, highs = [], []
    for q, out in ((alpha / 2, lows), (1 - alpha / 2, highs)):
        zq = stats.norm.ppf(q)
        with np.errstate(invalid="ignore", divide="ignore"):
            adj = stats.norm.cdf(z0 + (z0 + zq) / (1 - a * (z0 + zq)))
        for j in range(reps.shape[1]):
            column = reps[finite[:, j], j]
            ok = np.isfinite(adj[j]) and column.size
            out.append(np.quantile(column, adj[j]) if ok else np.nan)
    low, high = np.array(lows), np.array(highs)
    if not np.all(np.isfinite(z0)):
        low[~np.isfinite(z0)] = np.nan
        high[~np.isfinite(z0)] = np.nan
    if not np.all(np.isfinite(z0) | ~finite.any(axis=0)):
        warnings.warn(
            "BCa: the estimate lies outside the range of the replicates for some component "
            "(bias correction z0 is infinite); those limits are NaN",
            NumericalWarning,
            stacklevel=3,
        )
    return low, high, a, z0


def bootstrap(
    statistic,
    X,
    y=None,
    *,
    n_resamples=1000,
    kind="pairs",
    ci="percentile",
    level=0.95,
    random_state=None,
    n_jobs=None,
    attribute=None,
) -> BootstrapResult:
    """Nonparametric bootstrap of a statistic or of a fitted estimator's attribute.

    Parameters
    ----------
    statistic : callable or estimator
        ``statistic(X, y) -> array`` (``y`` is ``None`` when not given), or an unfitted
        estimator whose fitted ``attribute`` is the statistic.
    X : array-like of shape (n_samples, ...)
    y : array-like of shape (n_samples,), default=None
    n_resamples : int, default=1000
        R's ``R`` (the notes' M).
    kind : {"pairs", "residual"}, default="pairs"
        ``"pairs"`` resamples rows ``(xᵢ, yᵢ)``; ``"residual"`` (a regressor only) keeps ``X``
        and resamples the centred residuals of the full fit: ``y* = ŷ + e*``.
    ci : {"percentile", "normal", "bca"}, default="percentile"
    level : float, default=0.95
    random_state : int, RandomState or None, default=None
    n_jobs : int, default=None
        Resamples are evaluated in parallel with joblib (the indices are drawn beforehand, so
        the result does not depend on ``n_jobs``); ``None`` follows joblib's
        ``parallel_config`` (one process outside one; a Dask cluster under
        ``parallel_config(backend="dask")``).
    attribute : str, default=None
        The fitted attribute (``"coef_"``, ``"intercept_"``, ...) when ``statistic`` is an
        estimator.

    Returns
    -------
    BootstrapResult

    Notes
    -----
    Resample :math:`b` draws :math:`n` indices uniformly with replacement and gives
    :math:`\\hat\\theta^*_b`; ``se`` :math:`= \\sqrt{\\frac{1}{B-1}\\sum_b(\\hat\\theta^*_b -
    \\bar\\theta^*)^2}` (seed 004 L1492–L1508), ``bias`` :math:`= \\bar\\theta^* -
    \\hat\\theta`. Intervals at level :math:`1-\\alpha`: percentile — the :math:`\\alpha/2` and
    :math:`1-\\alpha/2` quantiles of the replicates; normal — :math:`\\hat\\theta - \\mathrm{bias}
    \\mp z_{1-\\alpha/2}\\,\\mathrm{se}` (R's ``boot.ci(type="norm")``); BCa — quantiles at
    :math:`\\Phi(\\hat z_0 + (\\hat z_0 + z_q)/(1 - \\hat a(\\hat z_0 + z_q)))` with
    :math:`\\hat z_0 = \\Phi^{-1}(\\#\\{\\hat\\theta^*_b < \\hat\\theta\\}/B)` and the jackknife
    acceleration :math:`\\hat a = \\sum_i d_i^3 / (6(\\sum_i d_i^2)^{3/2})`,
    :math:`d_i = \\bar\\theta_{(\\cdot)} - \\hat\\theta_{(i)}` (R's
    ``boot.ci(type="bca", L=empinf(b, type="jack"))``; R's default ``L`` uses regression
    estimates instead). BCa is offered for the pairs bootstrap only.

    For an estimator whose fit is ordinary least squares
    (:class:`statlearning.linear_model.LinearRegression`: it says so through the private method
    ``_bootstrap_ols_design``) with ``attribute="coef_"`` or ``"intercept_"`` the resamples
    are solved in batches from their weighted Gram matrices
    ``Aᵀdiag(c)A`` (``c`` the bootstrap counts) instead of refitting: the same numbers, many
    times faster. Designs that are ill conditioned use the ordinary refits; so do the resamples
    in which a column is aliased (its Gram matrix is singular or ill conditioned there).

    A component that is NaN or infinite in some replicates (a coefficient aliased in that
    resample: R's ``boot`` holds ``NA``) keeps NaN there; its bias, SE and interval use its
    other replicates, as R's ``print.boot`` does, and one :class:`NumericalWarning` counts them
    per component. Sparse ``X`` is resampled by rows; the estimator accepts or refuses it.
    """
    if kind not in ("pairs", "residual"):
        raise ValueError(f"kind must be 'pairs' or 'residual'; got {kind!r}")
    if ci not in ("percentile", "normal", "bca"):
        raise ValueError(f"ci must be 'percentile', 'normal' or 'bca'; got {ci!r}")
    if kind == "residual":
        if not (_is_estimator(statistic) and is_regressor(statistic)):
            raise ValueError("kind='residual' needs a regressor (with attribute=) as statistic")
        if y is None:
            raise ValueError("kind='residual' needs y")
        if ci == "bca":
            raise ValueError("ci='bca' is available for kind='pairs' only")
    rng = _check_common(n_resamples, level, random_state)
    stat = make_statistic(statistic, attribute)
    X, y, n = check_xy(X, y)
    idx = rng.randint(0, n, size=(n_resamples, n))

    fast = _fast_ols(statistic, attribute, X, y)
    reps = None
    if fast is not None:
        A, mean, fit_intercept, ya = fast
        try:
            if kind == "pairs":
                coefs = ols.pairs_coefficients(A, ya, idx)
            else:
                coefs = ols.residual_coefficients(A, ya, idx)
            reps = ols.to_attribute(coefs, mean, fit_intercept, attribute)
        except np.linalg.LinAlgError:
            reps = None
        if reps is not None:
            refit = np.flatnonzero(np.isnan(coefs).any(axis=1))
            if refit.size:  # aliased in these resamples: the estimator's own fit (R's NA)
                reps[refit] = np.asarray(_run_pairs(stat, X, y, idx[refit]), dtype=np.float64)
    estimate = stat(X, y)
    if reps is None:
        chunks = _chunks(idx, n_jobs)
        if kind == "pairs":
            func, args = _run_pairs, (stat, X, y)
        else:
            est = clone(statistic).fit(X, y)
            fitted = np.asarray(est.predict(X), dtype=np.float64)
            resid = np.asarray(y, dtype=np.float64) - fitted
            resid = resid - resid.mean()
            func, args = _run_residual, (stat, X, fitted, resid)
        if len(chunks) > 1:
            parts = Parallel(n_jobs=n_jobs)(delayed(func)(*args, c) for c in chunks)
        else:
            parts = [func(*args, idx)]
        reps = [r for part in parts for r in part]
        if any(np.shape(r) != estimate.shape for r in reps):
            raise ValueError("the statistic returned arrays of different lengths on resamples")
        reps = np.asarray(reps, dtype=np.float64).reshape(n_resamples, estimate.size)
    _warn_non_finite(reps)
    bias = _by_component(lambda column, j: column.mean() - estimate[j], reps)
    se = _by_component(_sd, reps)
    alpha = 1.0 - level
    a = z0 = None
    if ci == "percentile":
        low, high = _percentile(reps, alpha / 2, 1 - alpha / 2)
    elif ci == "normal":
        z = stats.norm.ppf(1 - alpha / 2)
        low, high = estimate - bias - z * se, estimate - bias + z * se
    else:
        jack = None
        if fast is not None:
            A, mean, fit_intercept, ya = fast
            jc = ols.jackknife_coefficients(A, ya)
            if jc is not None:
                jack = ols.to_attribute(jc, mean, fit_intercept, attribute)
        if jack is None:
            jack = jackknife(stat, X, y).replicates
        low, high, a, z0 = _bca(reps, estimate, jack, alpha)
    return BootstrapResult(
        replicates=reps,
        estimate=estimate,
        bias=bias,
        se=se,
        ci_low=np.asarray(low, dtype=np.float64),
        ci_high=np.asarray(high, dtype=np.float64),
        level=float(level),
        ci=ci,
        kind=kind,
        acceleration=a,
        bias_correction=z0,
    )


@dataclass
class BootstrapErrorResult:
    """A bootstrap estimate of prediction error and its ingredients (all are losses).

    Returned by :func:`bootstrap_error`.

    Parameters
    ----------
    error : float
        The estimate of the chosen ``method``: :math:`\\widehat{Err}^{(1)}` for ``"oob"``,
        :math:`(1 - \\hat w)\\,\\overline{err} + \\hat w\\,\\widehat{Err}^{(1)}` for
        ``".632"``, and the same with :math:`\\widehat{Err}^{(1)}` capped at :math:`\\hat\\gamma`
        for ``".632+"``.
    method : {".632", ".632+", "oob"}
        The estimator of prediction error that ``error`` holds.
    apparent_error : float
        Training error of the full fit, :math:`\\overline{err}`.
    oob_error : float
        Leave-one-out bootstrap error :math:`\\widehat{Err}^{(1)}`.
    no_information_error : float
        :math:`\\hat\\gamma`, the mean loss over all pairs of responses and predictions.
    relative_overfitting : float
        :math:`\\hat R \\in [0, 1]`; NaN unless ``method=".632+"``.
    weight : float
        :math:`\\hat w`, the weight on the OOB error (0.632 for ``".632"``, 1 for ``"oob"``).
    """

    error: float
    method: str
    apparent_error: float
    oob_error: float
    no_information_error: float
    relative_overfitting: float
    weight: float


_LOSSES = {
    "squared_error": lambda t, p: (np.asarray(t, float) - np.asarray(p, float)) ** 2,
    "absolute_error": lambda t, p: np.abs(np.asarray(t, float) - np.asarray(p, float)),
    "zero_one": lambda t, p: (np.asarray(t) != np.asarray(p)).astype(np.float64),
}


def _loss_function(estimator, scoring):
    if scoring is None:
        return _LOSSES["zero_one" if is_classifier(estimator) else "squared_error"]
    if isinstance(scoring, str):
        if scoring not in _LOSSES:
            raise ValueError(
                f"scoring must be one of {sorted(_LOSSES)} or a callable; got {scoring!r}"
            )
        return _LOSSES[scoring]
    if callable(scoring):
        return lambda t, p: np.asarray(scoring(t, p), dtype=np.float64).reshape(-1)
    raise TypeError("scoring must be None, a loss name or a callable loss(y_true, y_pred)")


def _no_information(loss, y, pred, block=1024):
    """:math:`\\hat\\gamma = n^{-2}\\sum_i\\sum_j L(y_i, \\hat y_j)`."""
    n = len(y)
    total = 0.0
    for start in range(0, n, block):
        yi = np.asarray(y)[start : start + block]
        t = np.repeat(yi, n)
        p = np.tile(pred, yi.shape[0])
        total += float(np.sum(loss(t, p)))
    return total / n**2


def bootstrap_error_from_indices(estimator, X, y, indices, loss, method):
    """The estimate for given resamples (rows of ``indices``); see :func:`bootstrap_error`."""
    n = len(y)
    full = clone(estimator).fit(X, y)
    pred = np.asarray(full.predict(X))
    apparent = float(np.mean(loss(y, pred)))
    sums = np.zeros(n)
    counts = np.zeros(n)
    for idx in indices:
        out = np.ones(n, dtype=bool)
        out[idx] = False
        if not out.any():
            continue
        est = clone(estimator).fit(take_rows(X, idx), take_rows(y, idx))
        oob = np.flatnonzero(out)
        sums[oob] += loss(take_rows(y, oob), est.predict(take_rows(X, oob)))
        counts[oob] += 1
    seen = counts > 0
    if not seen.any():
        raise ValueError("no sample was ever out of bag: increase n_resamples")
    err1 = float(np.mean(sums[seen] / counts[seen]))
    gamma = _no_information(loss, y, pred)
    if method == "oob":
        return BootstrapErrorResult(err1, method, apparent, err1, gamma, float("nan"), 1.0)
    if method == ".632":
        err = 0.368 * apparent + 0.632 * err1
        return BootstrapErrorResult(err, method, apparent, err1, gamma, float("nan"), 0.632)
    err1_c = min(err1, gamma)
    if err1_c > apparent and gamma > apparent:
        r = (err1_c - apparent) / (gamma - apparent)
    else:
        r = 0.0
    w = 0.632 / (1 - 0.368 * r)
    err = (1 - w) * apparent + w * err1_c
    return BootstrapErrorResult(err, method, apparent, err1, gamma, r, w)


def bootstrap_error(
    estimator, X, y, *, method=".632", n_resamples=200, scoring=None, random_state=None
) -> BootstrapErrorResult:
    """Efron's bootstrap estimates of prediction error: ``.632``, ``.632+`` and out-of-bag.

    Parameters
    ----------
    estimator : estimator
        Any scikit-learn-compatible classifier or regressor.
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    method : {".632", ".632+", "oob"}, default=".632"
    n_resamples : int, default=200
    scoring : {"squared_error", "absolute_error", "zero_one"} or callable, default=None
        A *loss* (lower is better): ``None`` is the 0–1 loss for classifiers and the squared
        error for regressors; a callable ``loss(y_true, y_pred)`` returns per-sample losses.
    random_state : int, RandomState or None, default=None

    Returns
    -------
    BootstrapErrorResult

    Notes
    -----
    Efron & Tibshirani (1997); ESL §7.11. With :math:`\\overline{err}` the training error and
    :math:`\\widehat{Err}^{(1)} = \\frac1n\\sum_i \\frac{1}{|C^{-i}|}\\sum_{b\\in C^{-i}}
    L(y_i, \\hat f^{*b}(x_i))` (:math:`C^{-i}` the resamples without :math:`i`; samples never
    left out are skipped): ``.632`` is :math:`0.368\\,\\overline{err} + 0.632\\,
    \\widehat{Err}^{(1)}`. ``.632+`` uses the no-information error :math:`\\hat\\gamma =
    n^{-2}\\sum_{i,j} L(y_i, \\hat f(x_j))`, :math:`\\widehat{Err}^{(1)\\prime} =
    \\min(\\widehat{Err}^{(1)}, \\hat\\gamma)`, the relative overfitting rate
    :math:`\\hat R = (\\widehat{Err}^{(1)\\prime} - \\overline{err})/(\\hat\\gamma -
    \\overline{err})` (0 unless both differences are positive), :math:`\\hat w = 0.632/(1 -
    0.368\\hat R)` and returns :math:`(1-\\hat w)\\,\\overline{err} + \\hat w\\,
    \\widehat{Err}^{(1)\\prime}`. ``"oob"`` returns :math:`\\widehat{Err}^{(1)}`.
    """
    if method not in (".632", ".632+", "oob"):
        raise ValueError(f"method must be '.632', '.632+' or 'oob'; got {method!r}")
    if not _is_estimator(estimator):
        raise TypeError("estimator must be an unfitted scikit-learn-compatible estimator")
    rng = _check_common(n_resamples, 0.5, random_state)
    loss = _loss_function(estimator, scoring)
    X, y, n = check_xy(X, y)
    if y is None:
        raise ValueError("bootstrap_error needs y")
    y = np.asarray(y)
    indices = rng.randint(0, n, size=(n_resamples, n))
    return bootstrap_error_from_indices(estimator, X, y, indices, loss, method)
