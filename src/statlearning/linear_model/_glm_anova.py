"""Analysis of deviance for nested fitted models: :func:`deviance_table` (R's ``anova``)."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
from scipy import stats
from sklearn.utils.validation import check_is_fitted

from ..inference._anova import AnovaTable
from ._glm import GLMRegressor
from ._least_squares import LinearRegression

_TESTS = ("Chisq", "F", None)


def deviance_table(*fitted_models, test="Chisq") -> AnovaTable:
    """Compare nested fitted models as R's ``anova(m1, m2, ..., test=test)``.

    Parameters
    ----------
    *fitted_models : GLMRegressor or LinearRegression
        Two or more unpenalised fits of the same kind to the same observations, from the
        smallest model to the largest (residual degrees of freedom strictly decreasing).
        GLMs must share the family.
    test : {"Chisq", "F"} or None, default="Chisq"
        ``"Chisq"``: likelihood-ratio test, ``Deviance / φ̂`` against χ² on ``Df`` degrees of
        freedom. ``"F"``: ``(Deviance / Df) / φ̂`` against F on ``(Df, df_φ)`` degrees of
        freedom. ``None``: no test. ``φ̂`` and ``df_φ`` are the dispersion of the largest model
        and its residual degrees of freedom (``φ̂ = 1``, ``df_φ = ∞`` for binomial and Poisson;
        an F test then warns, as R). For linear regressions ``φ̂ = RSS/df`` of the largest
        model (R's ``anova.lmlist``).

    Returns
    -------
    AnovaTable
        GLMs: columns ``Resid. Df, Resid. Dev, Df, Deviance`` then ``Pr(>Chi)`` or
        ``F, Pr(>F)``; linear regressions: ``Res.Df, RSS, Df, Sum of Sq`` then the test
        columns. Prints like R; ``to_frame()`` gives a DataFrame.

    Raises
    ------
    ValueError
        If fewer than two models are given, a model is penalised or of another kind, or the
        models are not nested in the sense checked here: same number of observations, same
        family, strictly decreasing residual degrees of freedom, and (GLMs with intercepts) the
        same null deviance, i.e. the same response, weights and offset.

    Notes
    -----
    With ``Dev_k`` the residual deviance (RSS for linear models) of model ``k`` and ``df_k`` its
    residual degrees of freedom, row ``k ≥ 2`` has ``Df = df_{k−1} − df_k`` and
    ``Deviance = Dev_{k−1} − Dev_k``; the likelihood-ratio statistic is ``Deviance / φ̂``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import GLMRegressor, deviance_table
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 2))
    >>> y = rng.poisson(np.exp(0.3 + 0.5 * X[:, 0])).astype(float)
    >>> small = GLMRegressor(family="poisson").fit(X[:, :1], y)
    >>> large = GLMRegressor(family="poisson").fit(X, y)
    >>> table = deviance_table(small, large)
    >>> table.columns
    ['Resid. Df', 'Resid. Dev', 'Df', 'Deviance', 'Pr(>Chi)']
    """
    if test not in _TESTS:
        raise ValueError(f"deviance_table: test must be 'Chisq', 'F' or None; got {test!r}")
    models = list(fitted_models)
    if len(models) < 2:
        raise ValueError(
            "deviance_table needs at least two fitted models, from the smallest to the largest "
            f"(got {len(models)})"
        )
    kind = _check_models(models)
    resdf = np.array([m.df_resid_ for m in models], dtype=np.float64)
    if kind is GLMRegressor:
        resdev = np.array([m.deviance_ for m in models], dtype=np.float64)
        columns = ["Resid. Df", "Resid. Dev", "Df", "Deviance"]
        title = "Analysis of Deviance Table"
    else:
        resdev = np.array([m.rss_ for m in models], dtype=np.float64)
        columns = ["Res.Df", "RSS", "Df", "Sum of Sq"]
        title = "Analysis of Variance Table"
    df = np.concatenate([[np.nan], -np.diff(resdf)])
    dev = np.concatenate([[np.nan], -np.diff(resdev)])
    values = [resdf, resdev, df, dev]
    if test is not None:
        big = models[int(np.argmin(resdf))]
        if kind is GLMRegressor:
            scale = float(big.dispersion_)
            df_scale = np.inf if scale == 1 else float(resdf.min())
            if test == "F" and np.isinf(df_scale):
                _warn_f_with_fixed_dispersion(big)
        else:
            scale = float(big.rss_) / float(big.df_resid_)
            df_scale = float(big.df_resid_)
        values += _test_columns(test, df, dev, scale, df_scale, columns)
    formulas = [m.summary().formula for m in models]
    return AnovaTable(title=title, models=formulas, columns=columns, values=np.column_stack(values))


def _check_models(models):
    kinds = {type(m) for m in models}
    for m in models:
        if not isinstance(m, GLMRegressor | LinearRegression):
            raise ValueError(
                "deviance_table compares fitted GLMRegressor or LinearRegression models; got "
                f"{type(m).__name__}"
            )
        check_is_fitted(m, "coef_")
    if len(kinds) > 1:
        names = ", ".join(sorted(k.__name__ for k in kinds))
        raise ValueError(f"deviance_table: all models must be of the same kind; got {names}")
    kind = kinds.pop()
    if kind is GLMRegressor:
        penalised = [i + 1 for i, m in enumerate(models) if not hasattr(m, "dispersion_")]
        if penalised:
            raise ValueError(
                f"deviance_table: model(s) {penalised} are penalised (alpha > 0); deviance tests "
                "need maximum-likelihood fits (alpha=0)"
            )
        families = {m.family_ for m in models}
        if len(families) > 1:
            raise ValueError(
                f"deviance_table: the models belong to different families {sorted(families)}"
            )
    nobs = [int(m.n_obs_) for m in models]
    if len(set(nobs)) > 1:
        raise ValueError(
            "deviance_table: the models were not all fitted to the same number of observations "
            f"({nobs}); nested models share the data"
        )
    resdf = [int(m.df_resid_) for m in models]
    if any(b >= a for a, b in itertools.pairwise(resdf)):
        raise ValueError(
            "deviance_table: the models are not nested from the smallest to the largest: their "
            f"residual degrees of freedom must strictly decrease, got {resdf}"
        )
    if kind is GLMRegressor and all(m.fit_intercept for m in models):
        null = np.array([m.null_deviance_ for m in models])
        if not np.allclose(null, null[0], rtol=1e-6, atol=1e-10):
            raise ValueError(
                "deviance_table: the null deviances differ "
                f"({', '.join(f'{v:.6g}' for v in null)}): the models were not fitted to the "
                "same response, weights and offset"
            )
    return kind


def _warn_f_with_fixed_dispersion(model) -> None:
    fam = model.family_
    if fam in ("binomial", "poisson"):
        msg = f"using F test with a '{fam}' family is inappropriate"
    else:
        msg = "using F test with a fixed dispersion is inappropriate"
    warnings.warn(f"deviance_table: {msg}; use test='Chisq'", UserWarning, stacklevel=3)


def _test_columns(test, df, dev, scale, df_scale, columns):
    """R's ``stat.anova`` for ``"Chisq"`` and ``"F"``; appends the column names."""
    with np.errstate(invalid="ignore", divide="ignore"):
        if test == "Chisq":
            vals = dev / scale * np.sign(df)
            vals[(df == 0) | (vals < 0)] = np.nan
            columns.append("Pr(>Chi)")
            return [stats.chi2.sf(vals, np.abs(df))]
        fvalue = (dev / df) / scale
        fvalue[(df == 0) | (fvalue < 0)] = np.nan
        if np.isinf(df_scale):
            p = stats.chi2.sf(fvalue * np.abs(df), np.abs(df))
        else:
            p = stats.f.sf(fvalue, np.abs(df), df_scale)
    columns += ["F", "Pr(>F)"]
    return [fvalue, p]
