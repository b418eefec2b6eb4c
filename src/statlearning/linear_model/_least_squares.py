"""Ordinary and weighted least squares with R-grade inference: :class:`LinearRegression`."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .. import _dask
from .._core.linalg import (
    R_TOL,
    Factorisation,
    augmented_design,
    cholesky_factor,
    qr_least_squares,
    svd_least_squares,
    symmetric_eigh,
    weighted_gram,
)
from .._core.ols import (
    block_fit_sums,
    block_r_factor,
    block_weighted_residuals,
    merge_fit_sums,
    merge_r_factors,
    ols_statistics,
    ols_statistics_from_sums,
)
from .._core.scaling import linear_rescaling
from .._solvers.gradient_descent import gradient_descent
from .._validation import Boolean, Interval, Options, check_sample_weight, validate_data
from ..base import InferenceMixin, LinearPredictorMixin, RegressorMixin, StatBase, fit_context
from ..exceptions import (
    NumericalWarning,
    RankDeficientWarning,
    warn_not_converged,
)
from ..inference import Summary
from ..inference import _builder as infer


class LinearRegression(RegressorMixin, LinearPredictorMixin, InferenceMixin, StatBase):
    """Ordinary (or weighted) least squares with the inference of R's ``lm``.

    Everything ``summary(lm(...))`` reports — standard errors, t tests, R², the F test, the
    log-likelihood, AIC and BIC — is computed at fit time from ``(p+1) × (p+1)`` quantities;
    no training data is stored.

    Parameters
    ----------
    fit_intercept : bool, default=True
        Add an (unpenalised) intercept column, R's default ``y ~ x``; ``False`` is ``y ~ 0 + x``.
    solver : {"qr", "svd", "normal", "gd"}, default="qr"
        - ``"qr"``: Householder QR (LAPACK) with R's rule for aliased columns. Most accurate.
        - ``"svd"``: minimum-norm solution through the SVD; works when ``p > n`` and for
          rank-deficient designs, where every coefficient gets the minimum-norm value (no
          ``NaN``) and the covariance is the pseudo-inverse.
        - ``"normal"``: Cholesky factorisation of the normal equations ``AᵀWA β = AᵀWy``.
          Fastest; squares the condition number, so prefer ``"qr"`` for ill-conditioned data.
        - ``"gd"``: batch gradient descent (the notes' algorithm) on standardised columns,
          with exact line search or a fixed ``learning_rate``.
    tol : float, default=1e-10
        ``"gd"`` only: stop when ``‖∇f‖ ≤ tol · max(1, ‖∇f(β₀)‖)``.
    max_iter : int, default=10_000
        ``"gd"`` only: iteration cap; reaching it raises a ``ConvergenceWarning``.
    learning_rate : "exact" or float, default="exact"
        ``"gd"`` only: ``"exact"`` uses the exact line search of a quadratic, a float a fixed
        step η on the standardised problem (stable for ``η < 2 / λ_max(H)``).
    rank_tol : float, default=1e-7
        Tolerance for declaring a column aliased (R's ``lm(..., tol = 1e-7)``). The ``"svd"``
        solver instead treats singular values below ``max(n, k) · eps · s_max`` as zero (the
        LAPACK/NumPy convention for minimum-norm solutions).

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        Slopes; ``NaN`` for aliased columns (R's ``NA``), which ``predict`` ignores.
    intercept_ : float
        ``0.0`` when ``fit_intercept=False``.
    bse_, tvalues_, pvalues_ : ndarray of shape (n_coef,)
        Standard errors, t statistics and two-sided p-values in R's order (intercept first).
    cov_params_ : ndarray of shape (n_coef, n_coef)
        ``σ̂² (AᵀWA)⁻¹`` (R's ``vcov(fit, complete=TRUE)``): ``NaN`` rows/columns for aliased
        terms.
    aliased_ : ndarray of bool, shape (n_coef,)
        Which coefficients are not estimable.
    rank_ : int
        Rank of the design (number of estimable coefficients).
    df_model_, df_resid_ : int
        Regression and residual degrees of freedom, ``rank − 1`` and ``n − rank``
        (``rank`` without an intercept).
    sigma_ : float
        Residual standard error ``σ̂ = sqrt(RSS / (n − rank))``.
    dispersion_ : float
        ``σ̂²``, the dispersion R's ``summary.glm`` reports for the Gaussian family.
    rss_, deviance_ : float
        (Weighted) residual sum of squares (R's ``deviance(lm)``).
    r_squared_, adj_r_squared_ : float
        R² and adjusted R² (formerly ``rsquared_``, ``rsquared_adj_``: deprecated names).
    f_statistic_, f_pvalue_ : float
        Overall F test of all slopes being zero (``f_statistic_`` was ``fvalue_``).
    loglik_, aic_, bic_ : float
        Gaussian log-likelihood at the MLE and information criteria with R's parameter count
        (the variance counts: ``rank + 1``).
    n_obs_ : int
        Observations with positive weight (formerly ``nobs_``, a deprecated name).
    n_iter_ : int
        Gradient-descent iterations for ``solver="gd"``; ``1`` for the direct solvers (one
        factorisation).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When ``X`` was a DataFrame with string column names.

    See Also
    --------
    statlearning.inference.Summary : what :meth:`summary` returns.

    Notes
    -----
    The estimator minimises the weighted residual sum of squares

    .. math:: \\hat\\beta = \\arg\\min_\\beta \\sum_i w_i (y_i - \\beta_0 - x_i^\\top\\beta)^2

    whose solution solves the normal equations :math:`A^\\top W A \\hat\\beta = A^\\top W y`
    (Boily, *Statistical Methods for Supervised Learning*, §2.1.1, with :math:`A = [1, X]`).
    Inference assumes
    :math:`\\varepsilon \\sim N(0, \\sigma^2 W^{-1})`:
    :math:`\\widehat{\\mathrm{Var}}(\\hat\\beta) = \\hat\\sigma^2 (A^\\top W A)^{-1}` with
    :math:`\\hat\\sigma^2 = RSS/(n - \\mathrm{rank})`; t tests
    use :math:`n - \\mathrm{rank}` degrees of freedom (the notes' :math:`T_{n-2}` is right only for
    simple regression). ``sample_weight`` means R's prior ``weights``; ``fit_intercept=False`` is
    R's ``y ~ 0 + x`` (R² then uses the uncentred total sum of squares, as R does).

    Mapping to R: ``LinearRegression(rank_tol=t).fit(X, y, sample_weight=w)`` is
    ``lm(y ~ ., weights = w, tol = t)``; :meth:`summary` is ``summary(lm)`` plus ``logLik``,
    ``AIC`` and ``BIC``; :meth:`predict_interval` is ``predict(fit, newdata, interval=...)``.

    Gradient descent (``solver="gd"``) follows the notes' update ``β ← β − η ∇L(β)``, applied to
    the standardised problem ``f(z) = ½ zᵀHz − cᵀz`` where ``H`` is the (weighted) correlation
    matrix of the columns: this is the notes' loss ``‖y − Xβ‖²`` divided by ``2 Σw`` after
    centring and scaling each column, so ``learning_rate`` η is scale free. The exact line search
    takes ``η = gᵀg / gᵀHg`` at every step. Inference for ``"gd"`` uses the exact
    ``(AᵀWA)⁻¹``.

    Rank deficiency follows R's ``lm``: columns are taken in order and one whose residual norm
    after projecting on the earlier kept columns falls below ``rank_tol`` times its norm is
    aliased (R's limited-pivoting QR, ``dqrdc2``).

    Dask collections (``pip install statlearning[dask]``): ``fit`` accepts a
    ``dask.array.Array`` or ``dask.dataframe`` collection, chunked by rows, and gives the
    in-memory fit (every solver): the triangular factor of ``[√W A | √W y]`` by TSQR (blocks'
    ``R`` factors stacked and refactorised in a tree; ``"qr"``; for ``"svd"`` the factor of
    the centred rows, after a pass for the means, whose SVD gives the minimum-norm solution) or
    the summed blockwise Gram matrix, then the same aliasing rule and inference; the fit
    statistics from merged block sums; the residual quantiles of :meth:`summary`
    exactly, by counting passes that narrow an interval of float values until its few values
    can be selected. Only ``(p+2)``-sized summaries leave the workers; ``predict`` on a Dask
    collection returns a lazy Dask array.

    Every fit statistic is an attribute named as its ``summary().stats`` key plus ``_``
    (``n_obs_``, ``df_model_``, ``sigma_``, ``r_squared_``, ``f_statistic_``, ``deviance_``,
    ``dispersion_``, ...), built by :mod:`statlearning.inference` as for ``GLMRegressor`` and
    ``LogisticRegression``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import LinearRegression
    >>> X = np.array([[1.0], [2.0], [3.0], [4.0]])
    >>> y = np.array([2.1, 3.9, 6.2, 7.8])
    >>> model = LinearRegression().fit(X, y)
    >>> round(float(model.coef_[0]), 3), round(model.intercept_, 3)
    (1.94, 0.15)
    """

    _parameter_constraints = {
        "fit_intercept": [Boolean()],
        "solver": [Options({"qr", "svd", "normal", "gd"})],
        "tol": [Interval(Real, 0, None, closed="neither")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Options({"exact"}), Interval(Real, 0, None, closed="neither")],
        "rank_tol": [Interval(Real, 0, 1, closed="left")],
    }

    def __init__(
        self,
        *,
        fit_intercept=True,
        solver="qr",
        tol=1e-10,
        max_iter=10_000,
        learning_rate="exact",
        rank_tol=R_TOL,
    ):
        self.fit_intercept = fit_intercept
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter
        self.learning_rate = learning_rate
        self.rank_tol = rank_tol

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit by least squares and compute the inference.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative prior weights (R's ``weights``); zero-weight rows are ignored in every
            count, as in R.

        Returns
        -------
        self : LinearRegression
        """
        target_name = getattr(y, "name", None)
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        w = None if sample_weight is None else check_sample_weight(
            sample_weight, X.shape[0], estimator_name=type(self).__name__
        )
        sqrt_w = None if w is None else np.sqrt(w)
        rescaling = linear_rescaling(X, y)  # None unless the data are near 1e±60 or beyond
        if rescaling is not None:
            X, y, _ = rescaling.apply(X, y)
        fac, self.n_iter_ = self._solve(X, y, sqrt_w)
        self._store_fit(X, y, w, fac)
        if rescaling is not None:
            infer.unscale_fit(self, rescaling)
        self._target_name = str(target_name) if target_name is not None else "y"
        return self

    def _fit_dask(self, X, y, sample_weight=None):
        """:meth:`fit` on Dask collections (see :mod:`statlearning._dask`).

        Pass 1 validates the blocks and forms the triangular factor of ``[A | y]`` by TSQR
        (``solver="qr"``) or the Gram matrix (``"normal"``, ``"gd"``); pass 2 the fit
        statistics; then a few counting passes select the exact residual quantiles.
        """
        rows = _dask.row_blocks(self, X, y, sample_weight)
        args = [rows.X, rows.y, rows.w]
        intercept = bool(self.fit_intercept)
        if self.solver == "svd":  # the weighted means, then the SVD of the centred TSQR factor
            stat = _dask.map_reduce(_block_weighted_sums, _add_sums, args, rows.offsets)
        elif self.solver == "qr":
            stat = _dask.map_reduce(_block_r, merge_r_factors, args, rows.offsets, intercept)
        else:
            stat = _dask.map_reduce(_block_gram, _add_pairs, args, rows.offsets, intercept)
        checks, stat = _dask.compute(_dask.check_blocks(rows), stat)
        _dask.raise_for_bad_blocks(self, rows, checks)
        if self.solver == "svd":
            fac, self.n_iter_ = self._svd_dask(rows, stat), 1
        elif self.solver == "qr":
            k = stat.shape[1] - 1
            fac = qr_least_squares(stat[:, :k], stat[:, k], None, False, self.rank_tol)
            self.n_iter_ = 1
        elif self.solver == "normal":
            fac, self.n_iter_ = cholesky_factor(*stat, self.rank_tol), 1
        else:
            fac, self.n_iter_ = self._gd_solve_gram(*stat)
        self._store_coef(fac)
        coef = np.where(np.isnan(self.coef_), 0.0, self.coef_)
        (sums,) = _dask.compute(
            _dask.map_reduce(_block_sums, merge_fit_sums, args, rows.offsets, coef,
                             self.intercept_)
        )
        n = sums["n"]
        ssf = sums["fitted_w"][2] if intercept else sums["ssf"]
        quantiles = None
        if n:
            blocks = _dask.map_blocks(_block_residuals, args, rows.offsets, coef, self.intercept_)
            quantiles = _dask.exact_quantiles(
                blocks, n, [0.0, 0.25, 0.5, 0.75, 1.0], sums["wr_min"], sums["wr_max"]
            )
        st = ols_statistics_from_sums(
            n, sums["rss"], ssf, sums["sum_log_w"], fac.rank, intercept, quantiles
        )
        _, mean_f, m2_f = sums["fitted_all"]
        weighted = rows.w is not None and sums["w_max"] > sums["w_min"]
        self._store_statistics(fac, st, weighted, mean_f**2 + m2_f / rows.n)
        self._target_name = rows.target_name
        return self

    def _svd_dask(self, rows, sums) -> Factorisation:
        """:func:`_svd_solve` on blocks: the minimum-norm solution from the SVD of the TSQR
        factor of the (weighted, centred) ``[A | y]``, which has the singular values and right
        singular vectors of the rows themselves (the cut-off counts every row, as in memory)."""
        total, sx, sy = sums
        p = rows.X.shape[1]
        xbar, ybar = (sx / total, sy / total) if self.fit_intercept else (np.zeros(p), 0.0)
        job = _dask.map_reduce(_block_centred_r, merge_r_factors, [rows.X, rows.y, rows.w],
                               rows.offsets, xbar, ybar)  # fmt: skip
        (R,) = _dask.compute(job)
        fac = svd_least_squares(R, rcond=max(rows.n, p) * np.finfo(np.float64).eps)
        return _uncentre(fac, xbar, ybar, total) if self.fit_intercept else fac

    def _bootstrap_ols_design(self) -> dict:
        """Private protocol of :func:`statlearning.model_selection.bootstrap`: this estimator's
        ``fit`` (without ``sample_weight``) is ordinary least squares, so the coefficients of
        every resample may be computed in batches from the resample's normal equations.

        Returns
        -------
        dict
            ``{"fit_intercept": bool}``. An estimator without the method (or returning ``None``)
            is refitted on every resample.
        """
        return {"fit_intercept": bool(self.fit_intercept)}

    def _solve(self, X, y, sqrt_w) -> tuple[Factorisation, int]:
        if self.solver == "qr":
            return qr_least_squares(X, y, sqrt_w, self.fit_intercept, self.rank_tol), 1
        if self.solver == "normal":
            G, b = weighted_gram(X, y, sqrt_w, self.fit_intercept)
            return cholesky_factor(G, b, self.rank_tol), 1
        if self.solver == "svd":
            return _svd_solve(X, y, sqrt_w, self.fit_intercept), 1
        return self._gd_solve(X, y, sqrt_w)

    def _gd_solve(self, X, y, sqrt_w):
        """Gradient descent on the standardised quadratic; exact inference from its Gram."""
        return self._gd_solve_gram(*weighted_gram(X, y, sqrt_w, self.fit_intercept))

    def _gd_solve_gram(self, G, b):
        exact = cholesky_factor(G, b, self.rank_tol)  # aliasing decision and (AᵀWA)⁻¹
        kept = exact.kept
        total_w = G[0, 0] if self.fit_intercept else None
        H, c, scale, shift = _standardised_quadratic(G[np.ix_(kept, kept)], b[kept], total_w)
        lr = self.learning_rate
        try:
            res = gradient_descent(
                lambda z: 0.5 * z @ H @ z - c @ z,
                lambda z: H @ z - c,
                np.zeros(c.size),
                step="exact" if lr == "exact" else "fixed",
                learning_rate=1.0 if lr == "exact" else float(lr),
                hessp=lambda v: H @ v,
                tol=self.tol,
                max_iter=self.max_iter,
            )
        except FloatingPointError as exc:
            lam = symmetric_eigh(H, eigvals_only=True, driver="evd")[-1] if H.size else 0.0
            raise ValueError(
                f"{type(self).__name__}: {exc}: learning_rate={lr!r} exceeds 2/L = "
                f"{2 / lam:.4g} for this standardised design; use a smaller learning_rate or "
                "learning_rate='exact'."
            ) from None
        if not res.converged:
            warn_not_converged(
                self,
                "gradient descent",
                max_iter=self.max_iter,
                tol=self.tol,
                advice="increase max_iter or use solver='qr'",
            )
        coef = np.full(kept.size, np.nan)
        coef[kept] = res.x / scale
        if shift is not None:  # undo centring: intercept = ȳ − x̄ᵀβ
            coef[0] = shift[0] - shift[1:] @ coef[kept][1:]
        return Factorisation(coef, kept, exact.unscaled_cov, exact.rank), res.n_iter

    nobs_ = infer.renamed_attribute("n_obs_", infer.STATS_NAME)
    rsquared_ = infer.renamed_attribute("r_squared_", infer.STATS_NAME)
    rsquared_adj_ = infer.renamed_attribute("adj_r_squared_", infer.STATS_NAME)
    fvalue_ = infer.renamed_attribute("f_statistic_", infer.STATS_NAME)

    def _store_fit(self, X, y, w, fac: Factorisation) -> None:
        self._store_coef(fac)
        fitted = self._linear_predictor_raw(X)
        st = ols_statistics(y - fitted, fitted, w, fac.rank, self.fit_intercept)
        weighted = w is not None and np.ptp(w[w > 0]) > 0
        self._store_statistics(fac, st, weighted, np.mean(fitted) ** 2 + np.var(fitted))

    def _store_coef(self, fac: Factorisation) -> None:
        off = 1 if self.fit_intercept else 0
        self.intercept_ = float(fac.coef[0]) if off else 0.0
        self.coef_ = fac.coef[off:].copy()
        self.aliased_ = ~fac.kept
        self.rank_ = fac.rank

    def _store_statistics(self, fac, st, weighted, fitted_square_mean) -> None:
        """Fit statistics and Wald inference; ``fitted_square_mean`` is ``mean(ŷ)² + var(ŷ)``."""
        for key in ("n_obs", "df_model", "df_resid", "sigma", "r_squared", "adj_r_squared",
                    "f_statistic", "f_pvalue", "loglik", "aic", "bic"):
            setattr(self, key + "_", st[key])
        self.rss_ = self.deviance_ = st["rss"]
        self.dispersion_ = self.sigma_**2
        wald = infer.wald_inference(
            self._full_coef(), fac.unscaled_cov, fac.kept, self.dispersion_, self.df_resid_
        )
        self.cov_params_, self.bse_ = wald.cov_params, wald.bse
        self.tvalues_, self.pvalues_ = wald.statistic, wald.pvalues
        self._residual_quantiles = st["residual_quantiles"]
        self._weighted = weighted
        self._warn_about_fit(fac, st, fitted_square_mean)

    def _warn_about_fit(self, fac, st, fitted_square_mean) -> None:
        name = type(self).__name__
        if self.solver == "svd" and fac.rank < fac.coef.size:
            warnings.warn(
                f"{name}: the design has rank {fac.rank} < {fac.coef.size} coefficients; the "
                "minimum-norm solution is returned and individual coefficients are not "
                "identifiable.",
                RankDeficientWarning,
            )
        else:
            infer.warn_aliased(name, self._term_names(), self.aliased_)
        if st["df_resid"] <= 0:
            warnings.warn(
                f"{name}: no residual degrees of freedom (n = {st['n_obs']}, rank = {fac.rank});"
                " standard errors, tests and intervals are NaN.",
                NumericalWarning,
            )
        elif st["rss"] / st["df_resid"] < 1e-30 * fitted_square_mean:
            warnings.warn(
                f"{name}: essentially perfect fit: the summary may be unreliable.",
                NumericalWarning,
            )

    def predict_interval(self, X, kind="confidence", level=0.95, sample_weight=None):
        """Predictions with pointwise confidence or prediction intervals (R's ``predict.lm``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        kind : {"confidence", "prediction"}, default="confidence"
            ``"confidence"`` bounds the mean response ``x̃ᵀβ``:
            ``se = σ̂ sqrt(x̃ᵀ(AᵀWA)⁻¹x̃)``; ``"prediction"`` bounds a new observation:
            ``se = sqrt(se_fit² + σ̂²/w)``.
        level : float, default=0.95
            Coverage, in (0, 1).
        sample_weight : array-like of shape (n_samples,), default=None
            Prior weights of the new observations (prediction intervals only; R's ``weights``
            in ``predict.lm``). Default: 1.

        Returns
        -------
        fit, lower, upper : ndarray of shape (n_samples,)
            Bounds use the t quantile with ``df_resid_`` degrees of freedom.
        """
        check_is_fitted(self, "coef_")
        infer.check_interval_request(type(self).__name__, kind, level)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        noise = None
        if kind == "prediction":
            w = check_sample_weight(sample_weight, X.shape[0], estimator_name="predict_interval")
            with np.errstate(divide="ignore"):
                noise = self.sigma_**2 / w
        return infer.wald_interval(
            X, self._linear_predictor_raw(X), self.cov_params_, self.aliased_,
            self.fit_intercept, level=level, df=self.df_resid_, noise=noise,
        )

    def summary(self, level=0.95) -> Summary:
        """The fitted model as R's ``summary(lm)`` reports it.

        Parameters
        ----------
        level : float, default=0.95
            Confidence level of the ``conf_low``/``conf_high`` columns (t intervals, R's
            ``confint``).

        Returns
        -------
        Summary
        """
        check_is_fitted(self, "coef_")
        names = self._term_names()
        stats_ = infer.fit_statistics(self, exclude=() if self.solver == "gd" else ("n_iter",))
        stats_["loglik_df"] = self.rank_ + 1
        notes = []
        if self.solver == "svd" and self.rank_ < len(names):
            notes.append("minimum-norm solution of a rank-deficient design (solver='svd').")
        return infer.build_summary(
            names, self._full_coef(), self.bse_, df=self.df_resid_, level=level, stats=stats_,
            title=f"Linear regression by least squares (solver={self.solver!r})",
            formula_line=infer.formula(self._target_name, names, self.fit_intercept),
            residual_quantiles=self._residual_quantiles,
            residual_label="Weighted Residuals" if self._weighted else "Residuals",
            kind="lm", notes=notes,
        )


def _block_r(X, y, w, offset, fit_intercept):
    return block_r_factor(X, y, None if w is None else np.sqrt(w), fit_intercept)


def _block_gram(X, y, w, offset, fit_intercept):
    return weighted_gram(X, y, None if w is None else np.sqrt(w), fit_intercept)


def _add_pairs(a, b):
    return a[0] + b[0], a[1] + b[1]


def _block_weighted_sums(X, y, w, offset):
    if w is None:
        return float(X.shape[0]), X.sum(axis=0), float(y.sum())
    return float(w.sum()), w @ X, float(w @ y)


def _add_sums(a, b):
    return a[0] + b[0], a[1] + b[1], a[2] + b[2]


def _block_centred_r(X, y, w, offset, xbar, ybar):
    return block_r_factor(X - xbar, y - ybar, None if w is None else np.sqrt(w), False)


def _block_sums(X, y, w, offset, coef, intercept):
    return block_fit_sums(X, y, w, coef, intercept)


def _block_residuals(X, y, w, offset, coef, intercept):
    return block_weighted_residuals(X, y, w, coef, intercept)


def _standardised_quadratic(G, b, total_w):
    """Centre and scale the normal equations so that gradient descent is well conditioned.

    Returns ``(H, c, scale, shift)``: gradient descent minimises ``½ zᵀHz − cᵀz`` with
    ``z = scale · β`` (slopes only when an intercept is present); ``shift = (ȳ, x̄)`` undoes the
    centring, ``None`` without an intercept.
    """
    if total_w is None:
        scale = np.sqrt(np.diag(G))
        scale[scale == 0] = 1.0
        return G / np.outer(scale, scale), b / scale, scale, None
    means = G[0] / total_w  # (1, x̄) weighted means
    ybar = b[0] / total_w
    C = G[1:, 1:] - total_w * np.outer(means[1:], means[1:])  # centred cross-products
    cb = b[1:] - total_w * means[1:] * ybar
    s = np.sqrt(np.clip(np.diag(C), 0, None))
    s[s == 0] = 1.0
    H = C / np.outer(s, s)
    scale = np.concatenate([[1.0], s])
    H_full = np.zeros((H.shape[0] + 1,) * 2)
    H_full[0, 0] = 1.0
    H_full[1:, 1:] = H
    c = np.concatenate([[0.0], cb / s])  # the intercept coordinate is solved by the centring
    return H_full, c, scale, np.concatenate([[ybar], means[1:]])


def _svd_solve(X, y, sqrt_w, fit_intercept) -> Factorisation:
    """Minimum-norm least squares; with an intercept, on (weighted) centred data.

    Centring first makes the intercept unpenalised by the minimum-norm criterion, as in
    scikit-learn; for a full-rank design the result equals the QR solution.
    """
    if not fit_intercept:
        return svd_least_squares(augmented_design(X, y, sqrt_w, fit_intercept=False))
    w = None if sqrt_w is None else sqrt_w**2
    total = X.shape[0] if w is None else w.sum()
    xbar = (X.sum(axis=0) if w is None else w @ X) / total
    ybar = float(y.sum() if w is None else w @ y) / total
    M = augmented_design(X, y, sqrt_w, fit_intercept=False)
    M[:, :-1] -= xbar if sqrt_w is None else np.outer(sqrt_w, xbar)
    M[:, -1] -= ybar if sqrt_w is None else sqrt_w * ybar
    return _uncentre(svd_least_squares(M), xbar, ybar, total)


def _uncentre(fac, xbar, ybar, total) -> Factorisation:
    """The intercept and its covariance back from a fit on (weighted) centred data."""
    V = fac.unscaled_cov
    p = xbar.size
    cov = np.empty((p + 1, p + 1))
    cov[1:, 1:] = V
    cov[0, 1:] = cov[1:, 0] = -V @ xbar
    cov[0, 0] = 1.0 / total + xbar @ V @ xbar
    coef = np.concatenate([[ybar - xbar @ fac.coef], fac.coef])
    return Factorisation(coef, np.ones(p + 1, bool), cov, fac.rank + 1)
