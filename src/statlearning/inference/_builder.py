"""Classical (Wald) inference built once for every estimator with a coefficient table.

``LinearRegression``, ``GLMRegressor`` and unpenalised binary ``LogisticRegression`` (and the
parametric terms of later models) compute their inference here from ``p × p`` quantities:

* :func:`wald_inference`: ``cov_params_``, ``bse_``, ``tvalues_``, ``pvalues_`` from the
  unscaled covariance ``(AᵀWA)⁻¹`` of the estimable coefficients and the dispersion;
* :func:`fit_statistics`: ``summary().stats`` read from the fitted attributes, so that the
  attribute ``<key>_`` and ``stats[<key>]`` are one name for one number;
* :func:`formula`, :func:`warn_aliased`, :func:`build_summary`: the formula line, the single
  aliasing message and the :class:`Summary`;
* :func:`check_interval_request`, :func:`wald_interval`: ``predict_interval``.
* :class:`renamed_attribute`: the deprecated spellings of renamed fitted attributes;
* :func:`unscale_fit`: a fit computed on power-of-two rescaled data mapped back to the data.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from numbers import Real

import numpy as np
from scipy import special as _special
from scipy import stats as _stats

from ..exceptions import warn_aliased as _warn_aliased
from ..exceptions import warn_data_scale
from ._tables import CoefTable, Summary

#: Why fit statistics were renamed (the message of :class:`renamed_attribute`).
STATS_NAME = " (the name of its summary().stats entry)"

#: ``summary().stats`` keys (DESIGN, "API details pinned"), in the order they are stored. A
#: fitted estimator exposes each that applies as the attribute ``<key>_``.
STAT_KEYS = (
    "n_obs",
    "df_model",
    "df_resid",
    "sigma",
    "r_squared",
    "adj_r_squared",
    "f_statistic",
    "f_pvalue",
    "loglik",
    "aic",
    "bic",
    "deviance",
    "null_deviance",
    "df_null",
    "dispersion",
    "n_iter",
)

INTERVAL_KINDS = ("confidence", "prediction")


@dataclass(frozen=True)
class Wald:
    """Wald inference for the coefficients, in R's order (intercept first).

    Attributes
    ----------
    cov_params : ndarray of shape (k, k)
        ``φ (AᵀWA)⁻¹``; ``NaN`` rows and columns for aliased coefficients.
    bse, statistic, pvalues : ndarray of shape (k,)
        Standard errors, ``estimate / bse`` and two-sided p-values.
    df : float or None
        Degrees of freedom of the t reference distribution; ``None`` for the normal.
    """

    cov_params: np.ndarray
    bse: np.ndarray
    statistic: np.ndarray
    pvalues: np.ndarray
    df: float | None


def reference_quantile(level: float, df=None) -> float:
    """``z`` (``df=None``) or Student-t quantile of ``0.5 + level/2``; NaN when ``df <= 0``."""
    if df is None:
        return float(_stats.norm.ppf(0.5 + level / 2.0))
    if not df > 0:
        return float("nan")
    return float(_stats.t.ppf(0.5 + level / 2.0, df))


def wald_inference(coef, unscaled_cov, kept, dispersion, df=None) -> Wald:
    """Covariance, standard errors, Wald statistics and p-values of the coefficients.

    Parameters
    ----------
    coef : ndarray of shape (k,)
        Coefficients in R's order; aliased entries are ``NaN``.
    unscaled_cov : ndarray of shape (rank, rank)
        ``(AᵀWA)⁻¹`` of the estimable (``kept``) columns.
    kept : ndarray of bool, shape (k,)
    dispersion : float
        ``σ̂²`` (least squares), the Pearson estimate or ``1`` (binomial, Poisson).
    df : float or None
        ``None``: z statistics with normal p-values (known dispersion); otherwise t
        statistics on ``df`` degrees of freedom (NaN p-values when ``df <= 0``), as R's
        ``summary.lm`` / ``summary.glm``.
    """
    coef = np.asarray(coef, dtype=np.float64)
    kept = np.asarray(kept, dtype=bool)
    k = coef.size
    cov = np.full((k, k), np.nan)
    cov[np.ix_(kept, kept)] = dispersion * np.asarray(unscaled_cov, dtype=np.float64)
    bse = np.sqrt(np.diag(cov))
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = coef / bse
    # scipy.special's functions are what scipy.stats's t.sf and norm.sf evaluate, without
    # their argument handling (about 40 µs a call, a tenth of a small fit)
    if df is None:
        pvalues = 2.0 * _special.ndtr(-np.abs(statistic))
    elif df > 0:
        pvalues = 2.0 * _special.stdtr(df, -np.abs(statistic))
    else:
        pvalues = np.full(k, np.nan)
    return Wald(cov, bse, statistic, pvalues, None if df is None else float(df))


def fit_statistics(estimator, *, exclude=()) -> dict:
    """``summary().stats``: every :data:`STAT_KEYS` key whose attribute ``<key>_`` is set.

    Parameters
    ----------
    estimator : fitted estimator
    exclude : iterable of str
        Keys left out although the attribute exists (e.g. ``n_iter`` for direct solvers,
        whose iteration count R does not print).
    """
    fitted = vars(estimator)
    return {k: fitted[k + "_"] for k in STAT_KEYS if k + "_" in fitted and k not in exclude}


def formula(target: str, term_names, fit_intercept: bool, extra=()) -> str:
    """The model in R's notation: ``y ~ x0 + x1``, ``y ~ 0 + x0``, ``y ~ 1``; ``extra``
    terms (e.g. ``"offset(log_n)"``) are appended."""
    features = [n for n in term_names if n != "(Intercept)"]
    rhs = " + ".join(features) if features else "1"
    if not fit_intercept:
        rhs = "0 + " + rhs
    for term in extra:
        rhs += f" + {term}"
    return f"{target} ~ {rhs}"


def warn_aliased(owner: str, names, aliased) -> None:
    """The one aliasing warning (R's "not defined because of singularities"), naming the
    aliased columns; nothing when no column is aliased (message and stack level:
    :func:`statlearning.exceptions.warn_aliased`)."""
    bad = [str(n) for n, a in zip(names, np.asarray(aliased, dtype=bool), strict=True) if a]
    if bad:
        _warn_aliased(owner, bad)


def build_summary(
    names,
    coef,
    bse,
    *,
    df=None,
    level=0.95,
    stats,
    title,
    formula_line,
    residual_quantiles=None,
    residual_label="Residuals",
    kind="lm",
    notes=(),
) -> Summary:
    """A :class:`Summary` with its :class:`CoefTable` (t on ``df`` degrees of freedom, or z
    when ``df`` is ``None``; intervals at ``level`` from the same distribution)."""
    if not isinstance(level, Real) or not 0 < level < 1:
        raise ValueError(f"summary: level must be in (0, 1); got {level!r}")
    table = CoefTable.from_estimates(names, coef, bse, df=df, level=level)
    return Summary(
        coef_table=table,
        stats=dict(stats),
        title=title,
        formula=formula_line,
        residual_quantiles=residual_quantiles,
        residual_label=residual_label,
        kind=kind,
        notes=list(notes),
    )


def check_interval_request(owner: str, kind, level, *, prediction_ok=True, why="") -> None:
    """Validate ``kind`` and ``level`` of ``predict_interval``.

    ``prediction_ok=False`` refuses ``kind="prediction"`` with the reason ``why``.
    """
    if kind not in INTERVAL_KINDS:
        raise ValueError(
            f"{owner}.predict_interval: kind must be 'confidence' or 'prediction'; got {kind!r}"
        )
    if not isinstance(level, Real) or isinstance(level, bool) or not 0 < level < 1:
        raise ValueError(f"{owner}.predict_interval: level must be in (0, 1); got {level!r}")
    if kind == "prediction" and not prediction_ok:
        raise ValueError(f"{owner}.predict_interval: kind='prediction' {why}")


def wald_interval(
    X,
    eta,
    cov_params,
    aliased,
    fit_intercept: bool,
    *,
    level: float,
    df=None,
    inverse=None,
    derivative=None,
    noise=None,
):
    """Pointwise Wald intervals at the rows of ``X``: ``(fit, lower, upper)``.

    The standard error of the linear predictor is ``se = sqrt(x̃ᵀ V x̃)`` with ``x̃`` the
    row's design (intercept first, aliased columns dropped) and ``V`` the covariance of the
    estimable coefficients; ``q`` is the normal (``df=None``) or t quantile.

    * ``noise=None``: the confidence interval for the mean, ``η ∓ q·se`` mapped by the inverse
      link ``inverse`` (identity when ``None``); the bounds are sorted, so decreasing links
      give ``lower ≤ upper``. This is R's ``predict.glm(type = "link", se.fit = TRUE)``
      transformed (``predict.lm(interval = "confidence")`` for the identity).
    * ``noise`` (the variance of a new observation, ``φ / w``): the prediction interval on the
      response scale, ``μ ∓ q·sqrt(se_μ² + noise)`` with the delta-method
      ``se_μ = |dμ/dη|·se`` (``derivative``), R's ``predict.lm(interval = "prediction")`` for
      the identity link.
    """
    aliased = np.asarray(aliased, dtype=bool)
    kept = ~aliased
    A = np.hstack([np.ones((X.shape[0], 1)), X]) if fit_intercept else X
    A = A[:, kept]
    V = cov_params[np.ix_(kept, kept)]
    se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", A, V, A), 0.0))
    q = reference_quantile(level, df)
    if noise is not None:
        mu = eta if inverse is None else inverse(eta)
        se_mu = se if derivative is None else np.abs(derivative(eta)) * se
        with np.errstate(divide="ignore"):
            half = q * np.sqrt(se_mu**2 + noise)
        return mu, mu - half, mu + half
    lo, hi = eta - q * se, eta + q * se
    if inverse is None:
        return eta, lo, hi
    with np.errstate(all="ignore"):
        a, b, mu = inverse(lo), inverse(hi), inverse(eta)
    return mu, np.fmin(a, b), np.fmax(a, b)


class renamed_attribute:
    """The deprecated spelling of a fitted attribute: reading it warns (``FutureWarning``)
    and returns the attribute ``new``; absent before ``fit`` (``hasattr`` is ``False``)."""

    def __init__(self, new: str, why: str = ""):
        self.new = new
        self.why = why
        self.old = ""

    def __set_name__(self, owner, name):
        self.old = name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        if self.new not in vars(obj):
            raise AttributeError(f"{type(obj).__name__!r} object has no attribute {self.old!r}")
        warnings.warn(
            f"{type(obj).__name__}: the attribute {self.old} was renamed to {self.new}"
            f"{self.why} and will be removed in a future release.",
            FutureWarning,
            stacklevel=2,
        )
        return vars(obj)[self.new]


#: Fitted attributes that scale as the response (``y_scale``) or its square.
_Y_SCALED = ("sigma_",)
_Y2_SCALED = ("dispersion_", "rss_", "deviance_", "null_deviance_")


def unscale_fit(estimator, rescaling, *, y_statistics=True) -> None:
    """Map a linear model fitted on rescaled data back to the data, in place.

    The model was fitted on ``X / d`` and ``y / t`` (a
    :class:`~statlearning._core.scaling.LinearRescaling`): coefficients scale by ``t / d``
    (the intercept by ``t``), standard errors likewise, ``cov_params_`` by the outer product;
    Wald statistics, p-values, R² and the F test do not change. With ``y_statistics`` (the
    model is equivariant in ``y``: least squares, the Gaussian family with the identity link)
    ``sigma_`` and the residual quantiles scale by ``t``, the dispersion and sums of squares by
    ``t²``, and the Gaussian log-likelihood shifts by ``−n log t`` (AIC and BIC by
    ``+2 n log t``). A quantity that float64 cannot hold at the data's scale (a sum of squares
    of values near ``1e300``) becomes ``inf`` or ``0`` with a
    :class:`~statlearning.exceptions.NumericalWarning` naming it.

    Parameters
    ----------
    estimator : fitted linear model
        With ``coef_``, ``intercept_`` and ``fit_intercept``; the inference attributes are
        updated when present.
    rescaling : LinearRescaling
    y_statistics : bool, default=True
        Whether ``y`` was rescaled (else ``rescaling.y_scale`` must be 1).
    """
    t = float(rescaling.y_scale)
    c = rescaling.coef_factors(bool(estimator.fit_intercept))
    lost = []

    def scale(name, factor):
        old = getattr(estimator, name, None)
        if old is None:
            return
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            new = np.asarray(old, dtype=np.float64) * factor
        if np.any(np.isfinite(old) & (np.asarray(old) != 0) & ((new == 0) | np.isinf(new))):
            lost.append(name)
        setattr(estimator, name, float(new) if np.ndim(old) == 0 else new)

    scale("coef_", t / rescaling.x_scale)
    scale("intercept_", t)
    scale("bse_", c)
    with np.errstate(over="ignore", under="ignore"):
        scale("cov_params_", np.outer(c, c))
    if y_statistics and t != 1.0:
        for name in _Y_SCALED:
            scale(name, t)
        for name in _Y2_SCALED:
            scale(name, t * t)
        if getattr(estimator, "_residual_quantiles", None) is not None:
            estimator._residual_quantiles = estimator._residual_quantiles * t
        shift = estimator.n_obs_ * np.log(t)
        if hasattr(estimator, "loglik_"):
            estimator.loglik_ -= shift
            estimator.aic_ += 2.0 * shift
            estimator.bic_ += 2.0 * shift
    if lost:
        factors = np.r_[rescaling.x_scale, t]
        warn_data_scale(estimator, lost, float(factors[np.argmax(np.abs(np.log2(factors)))]))
