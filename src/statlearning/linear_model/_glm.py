"""Generalised linear models with the inference of R's ``glm``: :class:`GLMRegressor`."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .. import _dask
from .._core.families import FAMILIES, get_family
from .._core.glm_loss import supports
from .._core.linalg import one_blas_thread_for_gram_parts
from .._core.links import LINKS, get_link
from .._core.scaling import linear_rescaling
from .._solvers.glm_lbfgs import glm_lbfgs
from .._solvers.irls import irls
from .._validation import Boolean, Interval, Options, check_sample_weight, validate_data
from ..base import InferenceMixin, LinearPredictorMixin, RegressorMixin, StatBase, fit_context
from ..exceptions import NumericalWarning, warn_not_converged, warn_unrescaled_scale
from ..inference import Summary
from ..inference import _builder as infer
from . import _glm_blocks as glm_blocks
from ._glm_blocks import QUANTILES, BlockData, Spec, deviance_residuals, glm_fit_sums

_EPS10 = 10 * np.finfo(np.float64).eps  # R's glm.fit: eps <- 10*.Machine$double.eps
_ETA_DOMAIN = {"inverse": "non-zero", "inverse_squared": "positive", "sqrt": "positive"}


class GLMRegressor(RegressorMixin, LinearPredictorMixin, InferenceMixin, StatBase):
    """Generalised linear model fitted by IRLS, with the inference of R's ``glm``.

    The response follows an exponential-family distribution whose mean ``μ`` is linked to the
    linear predictor, ``g(μ) = β₀ + xᵀβ (+ offset)``. Without a penalty (the default) the fit is
    maximum likelihood and everything ``summary(glm(...))`` reports — standard errors, z or t
    tests, deviances, dispersion, AIC — is computed at fit time from ``(p+1) × (p+1)``
    quantities; no training data is stored.

    Parameters
    ----------
    family : {"gaussian", "binomial", "poisson", "gamma", "inverse_gaussian"}, default="gaussian"
        Distribution of the response. For ``"binomial"``, ``y`` holds proportions in [0, 1] (or
        0/1 outcomes) and ``sample_weight`` the numbers of trials.
    link : str or None, default=None
        ``None`` is the family's canonical link (identity, logit, log, inverse,
        inverse_squared). Accepted links, as in R: gaussian {"identity", "log", "inverse"};
        binomial {"logit", "probit", "cloglog", "log"}; poisson {"log", "identity", "sqrt"};
        gamma {"inverse", "identity", "log"}; inverse_gaussian {"inverse_squared", "inverse",
        "identity", "log"}.
    alpha : float, default=0.0
        Penalty strength (``0``: no penalty, full inference). The intercept is never penalised.
    l1_ratio : float, default=0.0
        Elastic-net mixing in [0, 1]: ``0`` is a ridge (L2) penalty, ``1`` a lasso (L1).
    fit_intercept : bool, default=True
        R's ``y ~ x`` (``False``: ``y ~ 0 + x``).
    max_iter : int, default=25
        Cap on the IRLS iterations (R's ``maxit``); reaching it raises a
        ``ConvergenceWarning``.
    tol : float, default=1e-8
        IRLS: convergence when ``|D − D_old| / (|D| + 0.1) < tol`` (R's ``epsilon``); ``D`` is
        the deviance (plus ``2 Σw · α · penalty`` for penalised fits). Columns whose residual
        norm, in the final weighted least-squares problem, is below ``min(1e-7, tol/1000)``
        times their norm are aliased, as in R. L-BFGS: convergence when the largest component
        of the objective's gradient is at most ``tol`` (scikit-learn's meaning).
    solver : {"auto", "irls", "lbfgs"}, default="auto"
        ``"irls"``: iteratively reweighted least squares, R's ``glm.fit`` (with warm-started
        coordinate descent for ``l1_ratio > 0``). ``"lbfgs"``: L-BFGS on the objective below,
        for ridge-penalised fits (``alpha > 0``, ``l1_ratio = 0``) with an identity
        (Gaussian), log, logit, probit or cloglog link — the links under which every linear
        predictor gives a valid mean. ``"auto"`` uses L-BFGS where it applies (it is faster
        when ``n_samples ≫ n_features``; IRLS finishes the fit if L-BFGS reaches ``max_iter``)
        and IRLS otherwise, in particular for every unpenalised fit, whose inference is R's.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        Slopes; ``NaN`` for aliased columns (R's ``NA``), which ``predict`` ignores.
    intercept_ : float
        ``0.0`` when ``fit_intercept=False``.
    n_iter_ : int
        IRLS iterations (R's "Number of Fisher Scoring iterations"); for L-BFGS fits, its
        iterations (plus the IRLS ones when IRLS had to finish the fit).
    deviance_, null_deviance_ : float
        Residual deviance and the deviance of the intercept-only model (with the offset).
    df_null_ : int
        ``n − 1`` with an intercept, ``n`` without (``n`` counts positive weights).
    aliased_ : ndarray of bool, shape (n_coef,)
        Unpenalised fits: which coefficients are not estimable (R's order, intercept first).
    n_obs_ : int
        The number of observations with positive weight (formerly ``nobs_``, a deprecated
        name).
    rank_, df_model_, df_resid_ : int
        Unpenalised fits: rank of the design, ``rank − 1`` (with intercept), ``n − rank``.
    dispersion_ : float
        Unpenalised fits: ``1`` for binomial and Poisson; otherwise the Pearson estimate
        ``Σ Wᵢ rᵢ² / df_resid`` (working weights and working residuals, R's ``summary.glm``).
    bse_, tvalues_, pvalues_ : ndarray of shape (n_coef,)
        Unpenalised fits: standard errors, Wald statistics (z for binomial and Poisson, t on
        ``df_resid_`` degrees of freedom otherwise) and two-sided p-values, intercept first.
    cov_params_ : ndarray of shape (n_coef, n_coef)
        Unpenalised fits: ``φ̂ (AᵀWA)⁻¹`` (R's ``vcov``), ``NaN`` rows/columns for aliased terms.
    loglik_, aic_, bic_ : float
        Unpenalised fits: log-likelihood, AIC and BIC as R's ``logLik``, ``AIC`` and ``BIC``
        (an estimated dispersion counts as a parameter).
    family_, link_ : str
        The family and the link used.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When ``X`` was a DataFrame with string column names.

    See Also
    --------
    statlearning.linear_model.deviance_table : R's ``anova`` for nested fits.
    LinearRegression : the Gaussian identity-link case, with R's ``lm`` output.

    Notes
    -----
    The model (Boily, seed 004 §2.1.5; Artelt, seed 001 §5.5) is
    :math:`Y_i \\sim \\mathcal D(\\mu_i)`, :math:`g(\\mu_i) = \\eta_i = \\beta_0 + x_i^\\top\\beta
    + o_i`, with variance :math:`\\phi\\, V(\\mu_i) / w_i`. Without a penalty the coefficients
    maximise the likelihood, i.e. minimise the deviance

    .. math:: D(\\beta) = \\sum_i w_i\\, d(y_i, \\mu_i),

    by iteratively reweighted least squares (Fisher scoring; Newton's method for canonical
    links). The notes' Poisson model :math:`\\log \\mu_i = \\beta_0 + \\beta_1 t_i` is
    ``GLMRegressor(family="poisson")``, and its log-likelihood
    :math:`\\sum_i [y_i \\eta_i - e^{\\eta_i} - \\log y_i!]` is ``loglik_``. Standard errors
    are :math:`\\sqrt{\\hat\\phi\\, [(A^\\top W A)^{-1}]_{jj}}` with the working weights
    :math:`W_i = w_i (d\\mu/d\\eta)^2 / V(\\mu_i)`; intervals in :meth:`summary` are Wald
    intervals (R's ``confint.default``; R's ``confint`` profiles the likelihood instead).

    With ``alpha > 0`` the objective is scikit-learn's

    .. math:: \\frac{D(\\beta)}{2 \\sum_i w_i}
              + \\alpha\\Big(\\rho\\,\\|\\beta\\|_1 + \\frac{1-\\rho}{2}\\|\\beta\\|_2^2\\Big),
              \\qquad \\rho = \\text{l1\\_ratio},

    so ``GLMRegressor(family="poisson", alpha=a)`` is ``sklearn.linear_model.
    PoissonRegressor(alpha=a)``, and for the binomial and Poisson families ``alpha`` is glmnet's
    λ and ``l1_ratio`` glmnet's α (``glmnet(..., standardize=FALSE)``; for the Gaussian family
    the identity holds when ``y`` has unit variance, as glmnet rescales ``y``). Penalised fits
    report no standard errors or tests (:meth:`summary` raises).

    Mapping to R: ``GLMRegressor(family="gamma", link="log").fit(X, y, sample_weight=w,
    offset=o)`` is ``glm(y ~ ., family = Gamma(link = "log"), weights = w, offset = o)``; our
    ``"inverse_squared"`` is R's ``"1/mu^2"``; ``max_iter``/``tol`` are ``glm.control(maxit,
    epsilon)``. Binomial data given as successes ``s`` out of ``m`` trials, R's
    ``cbind(s, m - s)``, is ``y = s/m`` with ``sample_weight = m``. R's warnings have
    counterparts: "algorithm did not converge" (``ConvergenceWarning``), "fitted probabilities
    numerically 0 or 1 occurred" (separation; ``NumericalWarning``), aliased coefficients
    (``RankDeficientWarning``).

    The inference (coefficient table, fit statistics named as their ``summary().stats`` keys,
    intervals) is built by :mod:`statlearning.inference`, as for ``LinearRegression`` and
    ``LogisticRegression``. :meth:`predict_interval` maps the Wald interval of the linear
    predictor, R's ``predict(fit, newdata, type = "link", se.fit = TRUE)``, through the
    inverse link.

    Dask collections (``pip install statlearning[dask]``): ``fit`` accepts a
    ``dask.array.Array`` or ``dask.dataframe`` collection chunked by rows (and offsets and
    weights chunked alike) and gives the in-memory fit, iteration count included, for every
    family and link without a penalty or with a ridge penalty (``l1_ratio=0``; ``solver="auto"``
    is IRLS there, as each L-BFGS iteration would be a pass over the data). The iterations are
    the in-memory ones (:func:`statlearning._solvers.irls.fit_irls`); each is one pass whose
    blocks return their share of the deviance, of ``[A | z]ᵀW[A | z]`` and of the score. When a
    column comes close to collinearity, R's final QR runs on the triangular factor of
    ``√W [A | z]`` formed by TSQR. A last pass gives the dispersion, AIC and null deviance from
    block sums, and counting passes the exact deviance-residual quantiles of :meth:`summary`.
    Only ``(p+2)``-sized summaries leave the workers; ``predict`` returns a lazy Dask array
    (``NaN`` where the mean is not finite, without the in-memory warning).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import GLMRegressor
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
    >>> y = np.array([1.0, 2.0, 2.0, 6.0, 9.0])
    >>> model = GLMRegressor(family="poisson").fit(X, y)
    >>> round(float(model.coef_[0]), 4), model.n_iter_
    (0.5661, 4)
    """

    _parameter_constraints = {
        "family": [Options(set(FAMILIES))],
        "link": [None, Options(set(LINKS))],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "l1_ratio": [Interval(Real, 0, 1, closed="both")],
        "fit_intercept": [Boolean()],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "solver": [Options({"auto", "irls", "lbfgs"})],
    }

    def __init__(
        self,
        family="gaussian",
        link=None,
        alpha=0.0,
        l1_ratio=0.0,
        *,
        fit_intercept=True,
        max_iter=25,
        tol=1e-8,
        solver="auto",
    ):
        self.family = family
        self.link = link
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.solver = solver

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self.family in ("poisson", "gamma", "inverse_gaussian"):
            tags.target_tags.positive_only = True
        return tags

    # ------------------------------------------------------------------------------ fitting

    def _family_link(self):
        fam = get_family(self.family)
        link = get_link(fam.canonical_link if self.link is None else self.link)
        if link.name not in fam.links:
            valid = ", ".join(repr(n) for n in fam.links)
            raise ValueError(
                f"{type(self).__name__}: link {link.name!r} is not available for the "
                f"{fam.name!r} family; valid links are {valid}"
            )
        return fam, link

    def _check_y(self, y, w, fam) -> np.ndarray:
        if fam.name == "binomial":
            y = np.where(w == 0, 0.0, y)  # R's binomial initialize: y[weights == 0] <- 0
        if not fam.valid_y(y):
            self._raise_y_domain(fam, np.min(y), np.max(y))
        return y

    def _raise_y_domain(self, fam, low, high):
        extra = (
            " (proportions of successes; sample_weight gives the numbers of trials)"
            if fam.name == "binomial"
            else ""
        )
        raise ValueError(
            f"{type(self).__name__}: y must be {fam.y_domain} for the {fam.name!r} family"
            f"{extra}; got values in [{low:.6g}, {high:.6g}]"
        )

    @fit_context
    def fit(self, X, y, sample_weight=None, offset=None):
        """Fit by iteratively reweighted least squares and compute the inference.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            In the family's domain: real (gaussian), in [0, 1] (binomial), non-negative
            (poisson), positive (gamma, inverse_gaussian).
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative prior weights (R's ``weights``; binomial: numbers of trials).
            Zero-weight rows are ignored in every count, as in R.
        offset : array-like of shape (n_samples,), default=None
            Known term added to the linear predictor (R's ``offset``), e.g. ``log(exposure)``
            in a Poisson rate model.

        Returns
        -------
        self : GLMRegressor
        """
        name = type(self).__name__
        target_name = getattr(y, "name", None)
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        y = np.asarray(y, dtype=np.float64)
        n = X.shape[0]
        w = check_sample_weight(sample_weight, n, estimator_name=name)
        off = _check_offset(offset, n, name)
        fam, link = self._family_link()
        y = self._check_y(y, w, fam)
        # IRLS: one BLAS thread from end to end when the weighted Gram runs in parts
        # (_core.linalg.one_blas_thread_for_gram_parts)
        irls = not self._use_lbfgs(fam, link)
        with one_blas_thread_for_gram_parts(n, X.shape[1] + 2, irls):
            return self._fit_arrays(X, y, w, off, offset, fam, link, target_name)

    def _fit_arrays(self, X, y, w, off, offset, fam, link, target_name):
        """:meth:`fit` on validated arrays (``off``: the offset as an array, ``offset``: as
        given, for its name)."""
        n = X.shape[0]
        # unpenalised fits are equivariant under column scaling (and, for the Gaussian family
        # with the identity link, under scaling of y): computed on power-of-two rescaled data
        # when the data are near 1e±60 or beyond
        y_equivariant = fam.name == "gaussian" and link.name == "identity"
        rescaling = None
        if self.alpha == 0:
            rescaling = linear_rescaling(X, y if y_equivariant else None)
        else:  # the penalty is not scale free and penalised fits are not rescaled
            warn_unrescaled_scale(self, X, "X")
        if rescaling is not None:
            X, y, off = rescaling.apply(X, y, off)
        res = self._solve(X, y, w, off, fam, link)
        sum_w = float(w.sum())
        has_offset = bool(np.any(off != 0))
        W = res.working_weights if res.working_weights is not None else np.zeros(n)
        null_mu = float(w @ y) / sum_w if self.fit_intercept else link.inverse(off)
        sums = glm_fit_sums(y, w, res.mu, res.eta, W, fam, link, res.deviance, sum_w, null_mu)
        self._store_fit(res, sums, int((w > 0).sum()), sum_w, fam, link)
        if self.fit_intercept and has_offset:  # R's glm refits the intercept with the offset
            self.null_deviance_ = self._null_deviance(
                lambda **kw: self._irls(X[:, :0], y, sample_weight=w, offset=off, **kw)
            )
        if self.alpha == 0:
            d = deviance_residuals(y, w, res.mu, fam)
            self._residual_quantiles = np.quantile(d, QUANTILES)
        self._target_name = str(target_name) if target_name is not None else "y"
        offset_name = getattr(offset, "name", None)
        self._offset_name = None if offset is None else str(offset_name or "offset")
        if rescaling is not None:
            infer.unscale_fit(self, rescaling, y_statistics=y_equivariant)
        self._warn_about_fit(res, sums, fam)
        return self

    def _fit_dask(self, X, y, sample_weight=None, offset=None):
        """:meth:`fit` on Dask collections: IRLS whose every iteration is one pass over the
        blocks (:mod:`statlearning.linear_model._glm_blocks`)."""
        name = type(self).__name__
        fam, link = self._family_link()
        if self.alpha > 0 and self.l1_ratio > 0:
            raise ValueError(
                f"{name}: l1_ratio > 0 does not fit on Dask collections (its coordinate "
                "descent needs the rows in memory); use l1_ratio=0 (a ridge penalty) or fit in "
                "memory."
            )
        if self.solver == "lbfgs":
            raise ValueError(
                f"{name}: solver='lbfgs' does not fit on Dask collections (every iteration "
                "would be a pass over the data); use solver='irls' or 'auto'."
            )
        rows = _dask.row_blocks(self, X, y, sample_weight)
        off = _dask.aligned_column(self, rows, offset, "offset")
        data = BlockData(rows, off, Spec(fam, link, self.fit_intercept), self.alpha,
                         self.l1_ratio)  # fmt: skip
        first, checks = data.first_pass(_dask.check_blocks(rows))
        _dask.raise_for_bad_blocks(self, rows, checks)
        if not first["offset_finite"]:
            raise ValueError(f"{name}: offset contains NaN or infinite values.")
        if not first["y_valid"]:
            self._raise_y_domain(fam, first["y_min"], first["y_max"])
        null_mu = data.weighted_mean_y if self.fit_intercept else None
        data.speculate_statistics(null_mu, self.tol)
        try:
            res = data.fit(max_iter=self.max_iter, tol=self.tol)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
        sum_w, n_obs = first["sum_w"], first["n_obs"]
        sums = data.statistics(res, null_mu)
        self._store_fit(res, sums, n_obs, sum_w, fam, link)
        if self.fit_intercept and off is not None:
            null = BlockData(rows, off, data.spec, self.alpha, self.l1_ratio, columns=0)
            null.set_sums(first)
            self.null_deviance_ = self._null_deviance(
                lambda **kw: _refit(name, null, kw["max_iter"], kw["tol"])
            )
        if self.alpha == 0:
            self._residual_quantiles = data.residual_quantiles(
                res.coef, rows.n, sums["resid_min"], sums["resid_max"]
            )
        self._target_name = rows.target_name
        # a Series' name, never a Dask array's graph key
        named = hasattr(offset, "to_dask_array") or not _dask.is_dask_collection(offset)
        offset_name = getattr(offset, "name", None) if named else None
        self._offset_name = None if offset is None else str(offset_name or "offset")
        self._warn_about_fit(res, sums, fam)
        return self

    def _store_fit(self, res, sums, n_obs, sum_w, fam, link) -> None:
        self.family_, self.link_ = fam.name, link.name
        off_ = 1 if self.fit_intercept else 0
        self.intercept_ = float(res.coef[0]) if off_ else 0.0
        self.coef_ = res.coef[off_:].copy()
        self.n_iter_ = int(res.n_iter)
        self.deviance_ = float(res.deviance)
        self.null_deviance_ = float(sums["null_deviance"])
        self.n_obs_ = n_obs
        self.df_null_ = self.n_obs_ - off_
        if self.alpha == 0:
            self._store_inference(res, sums, sum_w, fam)

    def _use_lbfgs(self, fam, link) -> bool:
        smooth = self.alpha > 0 and self.l1_ratio == 0 and supports(fam.name, link.name)
        if self.solver == "lbfgs" and not smooth:
            raise ValueError(
                f"{type(self).__name__}: solver='lbfgs' fits ridge-penalised models (alpha > 0, "
                "l1_ratio=0) with an identity (gaussian), log, logit, probit or cloglog link; "
                f"got alpha={self.alpha!r}, l1_ratio={self.l1_ratio!r}, link={link.name!r}. "
                "Use solver='irls' (or 'auto')."
            )
        return self.solver == "lbfgs" or (self.solver == "auto" and smooth)

    def _solve(self, X, y, w, off, fam, link):
        common = {
            "family": fam,
            "link": link,
            "sample_weight": w,
            "offset": off,
            "fit_intercept": self.fit_intercept,
            "max_iter": self.max_iter,
            "tol": self.tol,
        }
        if self._use_lbfgs(fam, link):
            res = glm_lbfgs(X, y, alpha=float(self.alpha), **common)
            if res.converged or self.solver == "lbfgs":
                return res
            n_lbfgs = res.n_iter  # IRLS finishes from where L-BFGS stopped
            res = self._irls(X, y, coef_init=res.coef, **common)
            res.n_iter += n_lbfgs
            return res
        return self._irls(X, y, **common)

    def _irls(self, X, y, **kwargs):
        try:
            return irls(X, y, alpha=float(self.alpha), l1_ratio=float(self.l1_ratio), **kwargs)
        except ValueError as exc:
            raise ValueError(f"{type(self).__name__}: {exc}") from None

    def _null_deviance(self, refit) -> float:
        """Deviance of the intercept-only model with an offset (R's ``glm`` refits it);
        ``refit(max_iter=…, tol=…)`` fits that model by IRLS."""
        fam, link = self._family_link()
        res = refit(family=fam, link=link, fit_intercept=True, max_iter=self.max_iter,
                    tol=self.tol)  # fmt: skip
        if not res.converged:
            warn_not_converged(
                self, "the intercept-only fit for the null deviance", max_iter=self.max_iter
            )
        return float(res.deviance)

    nobs_ = infer.renamed_attribute("n_obs_", infer.STATS_NAME)

    def _store_inference(self, res, sums, sum_w, fam) -> None:
        self.aliased_ = ~res.kept
        self.rank_ = int(res.rank)
        self.df_model_ = self.rank_ - (1 if self.fit_intercept else 0)
        self.df_resid_ = self.n_obs_ - self.rank_
        if fam.dispersion_fixed:
            disp = 1.0
        elif self.df_resid_ > 0:  # Pearson: working weights and working residuals
            disp = sums["pearson"] / self.df_resid_
        else:
            disp = np.nan
        self.dispersion_ = disp
        df = None if fam.dispersion_fixed else self.df_resid_
        wald = infer.wald_inference(self._full_coef(), res.unscaled_cov, res.kept, disp, df)
        self.cov_params_, self.bse_ = wald.cov_params, wald.bse
        self.tvalues_, self.pvalues_ = wald.statistic, wald.pvalues
        n_par = self.rank_ + (0 if fam.dispersion_fixed else 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            self.aic_ = fam.aic_from_sums(
                sums["loglik_rows"], res.deviance, sum_w, self.n_obs_, self.rank_
            )
            self.loglik_ = n_par - self.aic_ / 2.0
            self.bic_ = -2.0 * self.loglik_ + np.log(self.n_obs_) * n_par
        self._loglik_df = n_par

    def _warn_about_fit(self, res, sums, fam) -> None:
        name = type(self).__name__
        if not res.converged:
            method = "L-BFGS" if res.weights_at is None else "IRLS"
            warn_not_converged(
                self,
                method,
                max_iter=self.max_iter,
                tol=self.tol,
                advice="increase max_iter. The results are those of the last iteration",
            )
        if res.boundary:
            warnings.warn(
                f"{name}: the iterations stopped at the boundary of the {fam.name!r} family's "
                "domain (a step had to be shortened to keep the fitted means valid); the fit may "
                "not be the maximum-likelihood estimate.",
                NumericalWarning,
            )
        if fam.name == "binomial":
            if sums["mu_max"] > 1 - _EPS10 or sums["mu_min"] < _EPS10:
                warnings.warn(
                    f"{name}: fitted probabilities numerically 0 or 1 occurred: the outcomes "
                    "are (quasi-)separated by the features, so some coefficients diverge and "
                    "their standard errors are unreliable. Consider a penalty (alpha > 0).",
                    NumericalWarning,
                )
            if sums["fractional_successes"]:
                warnings.warn(
                    f"{name}: non-integer numbers of successes (y * sample_weight) in a "
                    "binomial fit: the likelihood, AIC and BIC assume integer counts.",
                    UserWarning,
                )
        if fam.name == "poisson":
            if sums["mu_min"] < _EPS10:
                warnings.warn(f"{name}: fitted rates numerically 0 occurred.", NumericalWarning)
            if self.alpha == 0 and sums["fractional_y"]:
                warnings.warn(
                    f"{name}: y has non-integer values: the Poisson log-likelihood is not "
                    "defined, so loglik_, aic_ and bic_ are infinite (as R's); the "
                    "coefficients and standard errors are the quasi-likelihood ones.",
                    NumericalWarning,
                )
        if self.alpha == 0:
            self._warn_about_inference(name, fam)

    def _warn_about_inference(self, name, fam) -> None:
        infer.warn_aliased(name, self._term_names(), self.aliased_)
        if self.df_resid_ <= 0 and not fam.dispersion_fixed:
            warnings.warn(
                f"{name}: no residual degrees of freedom (n = {self.n_obs_}, rank = "
                f"{self.rank_}); the dispersion, standard errors and tests are NaN.",
                NumericalWarning,
            )

    # --------------------------------------------------------------------------- prediction

    def predict(self, X, offset=None) -> np.ndarray:
        """Predicted means on the response scale, ``g⁻¹(β₀ + Xβ + offset)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        offset : array-like of shape (n_samples,), default=None
            The offset of the new observations (zero when not given).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        eta = self._linear_predictor(X)
        if _dask.is_dask_collection(eta):  # lazy: NaN where μ is not finite, no warning
            if offset is not None:
                eta = eta + (
                    offset.to_dask_array(lengths=True) if hasattr(offset, "to_dask_array")
                    else offset
                )  # fmt: skip
            return eta.map_blocks(_mean_block, self.link_, dtype=np.float64)
        if offset is not None:
            eta = eta + _check_offset(offset, eta.shape[0], f"{type(self).__name__}.predict")
        link = get_link(self.link_)
        if link.valid_eta(eta):
            return link.inverse(eta)
        warnings.warn(
            f"{type(self).__name__}.predict: the linear predictor of some rows is outside the "
            f"domain of the {link.name!r} link (η must be {_ETA_DOMAIN[link.name]}); their "
            "predicted means are NaN.",
            NumericalWarning,
        )
        with np.errstate(all="ignore"):
            mu = link.inverse(eta)
        return np.where(np.isfinite(mu) & np.isfinite(eta), mu, np.nan)

    def score(self, X, y, sample_weight=None) -> float:
        """D², the fraction of deviance explained: ``1 − D(y, μ̂) / D(y, ȳ_w)``.

        For the Gaussian family this is R². It equals scikit-learn's GLM ``score``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None

        Returns
        -------
        float
        """
        check_is_fitted(self, "coef_")
        if _dask.any_dask((X, y, sample_weight), {}):
            return self._score_dask(X, y, sample_weight)
        mu = self.predict(X)
        y = np.asarray(y, dtype=np.float64).ravel()
        w = check_sample_weight(sample_weight, y.shape[0], estimator_name=type(self).__name__)
        fam = get_family(self.family_)
        y = self._check_y(y, w, fam)
        null = fam.deviance(y, np.full(y.shape, float(w @ y) / float(w.sum())), w)
        return 1.0 - fam.deviance(y, mu, w) / null

    def _score_dask(self, X, y, sample_weight):
        """:meth:`score` from block sums: two passes, the data stay on the workers."""
        rows = _dask.row_blocks(self, X, y, sample_weight, reset=False)
        fam, link = get_family(self.family_), get_link(self.link_)
        spec = Spec(fam, link, self.fit_intercept)
        sums, checks = glm_blocks.d2_sums(rows, self.predict(X), spec)
        _dask.raise_for_bad_blocks(self, rows, checks, rescales=False)
        if not sums["y_valid"]:
            self._raise_y_domain(fam, sums["y_min"], sums["y_max"])
        null = glm_blocks.null_deviance(rows, spec, sums["sum_wy"] / sums["sum_w"])
        return 1.0 - sums["deviance"] / null

    # ---------------------------------------------------------------------------- inference

    def summary(self, level=0.95) -> Summary:
        """The fitted model as R's ``summary(glm)`` reports it.

        Parameters
        ----------
        level : float, default=0.95
            Confidence level of the Wald intervals in ``conf_low``/``conf_high``.

        Returns
        -------
        Summary

        Raises
        ------
        ValueError
            For a penalised fit (``alpha > 0``).
        """
        check_is_fitted(self, "coef_")
        self._require_inference(f"{type(self).__name__}.summary")
        fam, link = get_family(self.family_), get_link(self.link_)
        names = self._term_names()
        stats_ = infer.fit_statistics(self)
        stats_.update(loglik_df=self._loglik_df, family=fam.r_name, link=link.r_name)
        return infer.build_summary(
            names, self._full_coef(), self.bse_,
            df=None if fam.dispersion_fixed else self.df_resid_, level=level, stats=stats_,
            title=f"Generalized linear model: {fam.r_name} family, {link.r_name} link (IRLS)",
            formula_line=self._formula(), residual_quantiles=self._residual_quantiles,
            residual_label="Deviance Residuals", kind="glm",
        )

    def _formula(self) -> str:
        offset = getattr(self, "_offset_name", None)
        extra = [f"offset({offset})"] if offset else []
        return infer.formula(self._target_name, self._term_names(), self.fit_intercept, extra)

    def predict_interval(self, X, kind="confidence", level=0.95, offset=None,
                         sample_weight=None):
        """Predicted means with pointwise Wald intervals (unpenalised fits).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        kind : {"confidence", "prediction"}, default="confidence"
            ``"confidence"`` bounds the mean ``μ = g⁻¹(η)``: the interval ``η ∓ q·se(η)`` of
            the linear predictor, ``se(η) = sqrt(x̃ᵀ V x̃)`` with ``V = cov_params_``, mapped
            by the inverse link (so it stays in the family's range and is not symmetric about
            ``μ``). ``"prediction"`` bounds a new observation and exists only for the
            Gaussian family: ``μ ∓ q·sqrt(se(μ)² + φ̂/w)`` with the delta-method
            ``se(μ) = |dμ/dη|·se(η)`` (R's ``predict.lm`` for the identity link). For other
            families a new observation's distribution is not symmetric and depends on more
            than ``μ`` and ``φ``, so it raises.
        level : float, default=0.95
            Coverage, in (0, 1). ``q`` is the normal quantile for the binomial and Poisson
            families and the t quantile on ``df_resid_`` degrees of freedom otherwise (the
            reference distributions of :meth:`summary`).
        offset : array-like of shape (n_samples,), default=None
            The offset of the new observations.
        sample_weight : array-like of shape (n_samples,), default=None
            Prior weights of the new observations (``kind="prediction"`` only).

        Returns
        -------
        fit, lower, upper : ndarray of shape (n_samples,)
            On the response scale.

        Notes
        -----
        R has no interval in ``predict.glm``; the confidence interval is the usual
        construction from ``predict(fit, newdata, type = "link", se.fit = TRUE)``:
        ``family$linkinv(fit ∓ q * se.fit)``.
        """
        check_is_fitted(self, "coef_")
        name = type(self).__name__
        self._require_inference(f"{name}.predict_interval")
        fam, link = get_family(self.family_), get_link(self.link_)
        infer.check_interval_request(
            name, kind, level, prediction_ok=fam.name == "gaussian",
            why=f"is defined for the gaussian family only; this fit is {fam.name!r} (use "
                "kind='confidence' for an interval for the mean)",
        )
        X = validate_data(self, X, reset=False, dtype=np.float64)
        eta = self._linear_predictor_raw(X)
        if offset is not None:
            eta = eta + _check_offset(offset, X.shape[0], f"{name}.predict_interval")
        noise = None
        if kind == "prediction":
            w = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
            with np.errstate(divide="ignore"):
                noise = self.dispersion_ / w
        return infer.wald_interval(
            X, eta, self.cov_params_, self.aliased_, self.fit_intercept, level=level,
            df=None if fam.dispersion_fixed else self.df_resid_, inverse=link.inverse,
            derivative=link.inverse_derivative, noise=noise,
        )

    def _require_inference(self, what) -> None:
        if not hasattr(self, "bse_"):
            raise ValueError(
                f"{what}: a penalised fit (alpha={self.alpha!r}) has no "
                "standard errors, tests or likelihood-based statistics: the penalty biases the "
                "coefficients and their sampling distribution is not the one Wald tests assume. "
                "Refit with alpha=0 for R's summary(glm), or resample (bootstrap) the penalised "
                "fit."
            )


def _check_offset(offset, n, name) -> np.ndarray:
    if offset is None:
        return np.zeros(n)
    try:
        off = np.array(offset, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name}: offset must be numeric: {exc}") from None
    if off.ndim == 0:
        off = np.full(n, float(off))
    if off.shape != (n,):
        raise ValueError(f"{name}: offset must have shape ({n},); got shape {off.shape}.")
    if not np.all(np.isfinite(off)):
        raise ValueError(f"{name}: offset contains NaN or infinite values.")
    return off


def _mean_block(eta, link_name):
    link = get_link(link_name)
    with np.errstate(all="ignore"):
        mu = link.inverse(eta)
    return np.where(np.isfinite(mu) & np.isfinite(eta), mu, np.nan)


def _refit(name, data, max_iter, tol):
    try:
        return data.fit(max_iter=max_iter, tol=tol)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None
