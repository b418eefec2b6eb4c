"""Ridge regression (L2 penalty) in closed form, and its cross-validated version.

:class:`Ridge` solves the penalised least-squares problem exactly (Cholesky, SVD or the dual /
kernel form); :class:`RidgeCV` chooses the penalty by efficient leave-one-out, generalised
cross-validation, or K-fold cross-validation. The linear algebra lives in
:mod:`statlearning._core.ridge`.
"""

from __future__ import annotations

import warnings
from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.metrics import get_scorer
from sklearn.model_selection import check_cv

from .. import _dask
from .._core.linalg import block_cross_moments, merge_cross_moments
from .._core.ridge import (
    centred_cross_products,
    centred_design,
    ridge_cholesky,
    ridge_dual,
    ridge_loo_gcv,
    ridge_spectral,
    ridge_svd,
    weighted_means,
)
from .._core.scaling import scale_for
from .._validation import (
    CV,
    DEPRECATED,
    ArrayLike,
    Boolean,
    Callable,
    InstanceOf,
    Interval,
    Options,
    check_alphas,
    check_sample_weight,
    renamed_parameter,
    validate_data,
)
from ..base import LinearPredictorMixin, RegressorMixin, StatBase, fit_context
from ..exceptions import RankDeficientWarning, warn_unrescaled_scale
from ..inference._builder import renamed_attribute

__all__ = ["Ridge", "RidgeCV"]


def _prepare(X, y, w, fit_intercept):
    """Weighted means (zeros without intercept) and ``√w`` (``None`` for unit weights)."""
    sqrt_w = None if w is None else np.sqrt(w)
    if fit_intercept:
        x_mean, y_mean = weighted_means(X, y, w)
    else:
        x_mean, y_mean = None, 0.0
    return x_mean, y_mean, sqrt_w


def _intercept(x_mean, y_mean, coef) -> float:
    return 0.0 if x_mean is None else float(y_mean - x_mean @ coef)


def solve_ridge(X, y, w, alpha, fit_intercept, solver, name="Ridge"):
    """Slopes, intercept and the solver used, for ``‖√w(y − b0 − Xβ)‖² + alpha‖β‖²``.

    Data whose squares would leave float64's range are solved on ``X / s_x`` and ``y / s_y``
    (powers of two) with the penalty ``alpha / s_x²``, the same objective up to the factor
    ``s_y²``: ``β = (s_y / s_x) β'``.
    """
    s_x, s_y = scale_for(X), scale_for(y)
    if s_x is not None or s_y is not None:
        return _solve_ridge_rescaled(
            X, y, w, alpha, fit_intercept, solver, name, s_x or 1.0, s_y or 1.0
        )
    n, p = X.shape
    if solver == "auto":
        solver = "cholesky" if n >= p else "dual"
    x_mean, y_mean, sqrt_w = _prepare(X, y, w, fit_intercept)
    if solver == "cholesky":
        G, b = centred_cross_products(X, y, x_mean, y_mean, sqrt_w)
        try:
            coef = _cholesky_solve(G, b, alpha)
            return coef, _intercept(x_mean, y_mean, coef), "cholesky"
        except np.linalg.LinAlgError:  # ill-conditioned: the SVD of Z is more accurate
            solver = "svd"
    Z, t = centred_design(X, y, x_mean, y_mean, sqrt_w)
    if solver == "dual" and alpha > 0:
        try:
            coef = ridge_dual(Z, t, alpha)
            return coef, _intercept(x_mean, y_mean, coef), "dual"
        except np.linalg.LinAlgError:  # alpha tiny relative to ‖ZZᵀ‖: use the SVD
            pass
    coef, rank = ridge_svd(Z, t, alpha)
    if alpha == 0 and rank < p:
        warnings.warn(
            f"{name}: with alpha=0 the design has rank {rank} < {p} (after centring); the "
            "minimum-norm least-squares solution is returned.",
            RankDeficientWarning,
        )
    return coef, _intercept(x_mean, y_mean, coef), "svd"


def _cholesky_solve(G, b, alpha):
    """Slopes from the centred cross-products ``G = ZᵀZ``, ``b = Zᵀt``; ``LinAlgError`` when
    ``G + alpha I`` is too ill-conditioned for the normal equations."""
    G = G.copy()
    G[np.diag_indices_from(G)] += alpha
    # Jacobi scaling, so that the conditioning test is not fooled by column scales
    d = np.sqrt(np.diag(G))
    d[d == 0.0] = 1.0
    return ridge_cholesky(G / np.outer(d, d), b / d, 0.0) / d


def _block_cross(X, y, w, offset, fit_intercept):
    return block_cross_moments(np.column_stack([X, y]), w, centred=fit_intercept)


def _solve_ridge_rescaled(X, y, w, alpha, fit_intercept, solver, name, s_x, s_y):
    """:func:`solve_ridge` on ``X / s_x``, ``y / s_y`` with the penalty ``alpha / s_x²``."""
    X, y = X / s_x, y / s_y
    with np.errstate(over="ignore", under="ignore"):
        a = alpha / s_x / s_x
    if np.isfinite(a):
        coef, intercept, used = solve_ridge(X, y, w, a, fit_intercept, solver, name)
        return coef * (s_y / s_x), intercept * s_y, used
    # the penalty exceeds float64 on this scale: (ZᵀZ + aI)⁻¹Zᵀt = Zᵀt / a to the precision
    # of float64 (ZᵀZ / a is below 1e-308), so β = s_y s_x Zᵀt / alpha
    x_mean, y_mean, sqrt_w = _prepare(X, y, w, fit_intercept)
    Z, t = centred_design(X, y, x_mean, y_mean, sqrt_w)
    g = Z.T @ t
    with np.errstate(over="ignore", under="ignore"):
        coef_scaled = g * (s_x / alpha) * s_x  # β' = g / a
        coef = g * (s_x / alpha) * s_y
    if solver == "auto":
        solver = "cholesky" if X.shape[0] >= X.shape[1] else "dual"
    return coef, _intercept(x_mean, y_mean, coef_scaled) * s_y, solver


class Ridge(RegressorMixin, LinearPredictorMixin, StatBase):
    """Linear least squares with an L2 penalty on the slopes (ridge, Tikhonov regression).

    Parameters
    ----------
    alpha : float, default=1.0
        Penalty strength, ``≥ 0`` (``0`` is ordinary least squares).
    fit_intercept : bool, default=True
        Fit an unpenalised intercept (the data are centred, with weights, before solving).
    solver : {"auto", "cholesky", "svd", "dual"}, default="auto"
        - ``"cholesky"``: Cholesky factorisation of ``ZᵀZ + alpha I`` (``p × p``), with ``ZᵀZ``
          accumulated by blocks of rows without copying ``X``. Fastest when ``n ≥ p``.
        - ``"svd"``: thin SVD of the centred design; the most stable, and gives the
          minimum-norm solution when ``alpha = 0`` and the design is rank deficient.
        - ``"dual"``: the kernel form ``β = Zᵀ(ZZᵀ + alpha I)⁻¹ t`` (``n × n``), cheapest when
          ``p > n``.
        - ``"auto"``: ``"cholesky"`` when ``n ≥ p``, else ``"dual"``.

        An ill-conditioned system (condition number above 1e10, possible only for
        ``alpha = 0`` or a tiny ``alpha``) is solved by ``"svd"`` instead (``solver_`` says so);
        with ``alpha = 0`` and a rank-deficient centred design a ``RankDeficientWarning``
        announces the minimum-norm solution.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
    intercept_ : float
        ``0.0`` when ``fit_intercept=False``.
    solver_ : str
        The solver actually used.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When ``X`` was a DataFrame with string column names.

    See Also
    --------
    RidgeCV : ridge with the penalty chosen by (leave-one-out) cross-validation.
    BayesianLinearRegression : the posterior mean is a ridge fit.

    Notes
    -----
    With prior weights :math:`w_i` (``sample_weight``) the estimator minimises

    .. math:: \\sum_i w_i (y_i - \\beta_0 - x_i^\\top\\beta)^2 + \\alpha \\lVert\\beta\\rVert_2^2,

    scikit-learn's ``Ridge`` objective; the intercept is not penalised. The slopes solve
    :math:`(Z^\\top Z + \\alpha I)\\beta = Z^\\top t` with :math:`Z = W^{1/2}(X - \\bar x_w)` and
    :math:`t = W^{1/2}(y - \\bar y_w)`, and :math:`\\beta_0 = \\bar y_w - \\bar x_w^\\top\\beta`.
    Integer weights are equivalent to repeated rows.

    Mapping to the notes (Boily, §4.5): ``alpha`` is the notes' λ in the closed form
    :math:`(X^\\top X + \\lambda I)^{-1}X^\\top y` (eq. 4.21, i.e. the objective
    :math:`\\tfrac12\\lVert r\\rVert^2 + \\tfrac\\lambda2\\lVert w\\rVert^2`; the printed
    :math:`\\tfrac12\\lVert r\\rVert^2 + \\lambda\\lVert w\\rVert^2` is a misprint). The notes
    penalise the bias through the hidden constant column; we do not, which coincides with the
    notes on centred data (their Exercise 4.13.4).

    Mapping to R:

    - ``MASS::lm.ridge(y ~ ., lambda = a)`` centres ``X`` and ``y`` and divides each column by
      its standard deviation with divisor ``n``, ``s_j = sqrt(mean((x_j - mean(x_j))^2))``; its
      ``lambda`` is our ``alpha`` *on that scaled X*: ``coef(lm.ridge(...))`` equals
      ``Ridge(alpha=a).fit(X / s, y)`` with the slopes divided by ``s`` (on the original scale the
      penalty is ``a Σ s_j² β_j²``). Its ``GCV`` is ``RSS/(n − df)²`` with
      ``df = Σ d²/(d² + λ)``, without the intercept's degree of freedom.
    - ``glmnet(X, y, alpha = 0, lambda = λ, standardize = FALSE)`` (Gaussian family, unit
      weights) gives ``Ridge(alpha = n λ / sd_y)`` with ``sd_y = sqrt(mean((y − ȳ)²))``, i.e.
      ``λ = alpha · sd_y / n``: glmnet fits ``y / sd_y`` with penalty ``λ / sd_y`` (the scaling
      that leaves an L1 penalty unchanged), so the quadratic penalty on the original scale is
      ``n λ / sd_y``. The factor disappears when ``y`` is standardised first.
    - scikit-learn's ``ElasticNet(alpha=a, l1_ratio=0)`` (and ours) minimise
      ``RSS/(2n) + a‖β‖²/2``, i.e. ``Ridge(alpha = n a)``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import Ridge
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> y = np.array([1.0, 3.0, 5.0, 7.0])
    >>> model = Ridge(alpha=5.0).fit(X, y)
    >>> round(float(model.coef_[0]), 6), round(float(model.intercept_), 6)
    (1.0, 2.5)
    """

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        "fit_intercept": [Boolean()],
        "solver": [Options({"auto", "cholesky", "svd", "dual"})],
    }

    def __init__(self, alpha=1.0, *, fit_intercept=True, solver="auto"):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.solver = solver

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit ridge regression.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative prior weights.

        Returns
        -------
        self : Ridge
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        w = None if sample_weight is None else check_sample_weight(
            sample_weight, X.shape[0], estimator_name=type(self).__name__
        )
        self.coef_, self.intercept_, self.solver_ = solve_ridge(
            X, y, w, float(self.alpha), self.fit_intercept, self.solver, type(self).__name__
        )
        return self

    def _fit_dask(self, X, y, sample_weight=None):
        """``fit`` on Dask collections: one pass of (weighted, centred) cross-products of
        ``[X | y]``, merged over blocks, then the Cholesky solver of the in-memory fit."""
        name = type(self).__name__
        if self.solver not in ("auto", "cholesky"):
            raise ValueError(
                f"{name}: solver={self.solver!r} does not fit on Dask collections; use "
                "solver='auto' or 'cholesky' (the normal equations, formed block by block)."
            )
        rows = _dask.row_blocks(self, X, y, sample_weight)
        moments = _dask.map_reduce(
            _block_cross, merge_cross_moments, [rows.X, rows.y, rows.w], rows.offsets,
            bool(self.fit_intercept),
        )  # fmt: skip
        checks, (_, mean, C) = _dask.compute(_dask.check_blocks(rows), moments)
        _dask.raise_for_bad_blocks(self, rows, checks)
        p = rows.X.shape[1]
        if rows.n < p:
            raise ValueError(
                f"{name}: {rows.n} rows and {p} features: the dual solver needs the data in "
                "memory; fit on a NumPy array."
            )
        x_mean, y_mean = (mean[:p], float(mean[p])) if self.fit_intercept else (None, 0.0)
        try:
            coef = _cholesky_solve(C[:p, :p], C[:p, p], float(self.alpha))
        except np.linalg.LinAlgError:
            raise ValueError(
                f"{name}: the penalised normal equations are too ill-conditioned for the "
                f"Cholesky solver (alpha={self.alpha!r}); on Dask collections no SVD fallback "
                "is available: increase alpha or fit in memory."
            ) from None
        self.coef_, self.intercept_ = coef, _intercept(x_mean, y_mean, coef)
        self.solver_ = "cholesky"
        return self


class _PassThrough(RegressorMixin, BaseEstimator):
    """Hands precomputed predictions to a scorer: ``predict(X)`` returns ``X``."""

    def predict(self, X):
        return X


class RidgeCV(RegressorMixin, LinearPredictorMixin, StatBase):
    """Ridge regression with the penalty chosen by cross-validation.

    Parameters
    ----------
    alphas : array-like of float, default=(0.1, 1.0, 10.0)
        Candidate penalties (each ``> 0``), in the sense of :class:`Ridge`.
    fit_intercept : bool, default=True
        Fit an unpenalised intercept.
    cv : None, int, splitter or iterable, default=None
        ``None``: the exact leave-one-out (or GCV, see ``criterion``) computed in closed form
        from one decomposition of the centred design. An int ``K ≥ 2``: K-fold cross-validation
        (scikit-learn's ``KFold(K)``, no shuffling); or any scikit-learn splitter or iterable of
        ``(train, test)`` index arrays.
    gcv_mode : {None, "auto", "svd", "eigen"}, default=None
        ``cv=None`` only: decompose the centred design by its SVD (``"svd"``) or the ``n × n``
        Gram matrix by an eigendecomposition (``"eigen"``, cheaper when ``p > n``). ``None`` and
        ``"auto"`` choose ``"eigen"`` when ``p > n``; when ``n ≥ p``, the eigendecomposition
        of the ``p × p`` matrix ``ZᵀZ`` if ``Z`` is well conditioned (its eigenvalues within a
        ratio of 1e4, where squaring the condition costs nothing visible), else ``"svd"``.
    scoring : str, callable or None, default=None
        ``None``: (weighted) mean squared error. Otherwise a scikit-learn scorer name or callable
        ``scorer(estimator, X, y)`` (higher is better), applied to the leave-one-out predictions
        (``cv=None``) or to each validation fold.
    criterion : {"loo", "gcv"}, default="loo"
        ``cv=None`` only: exact leave-one-out or generalised cross-validation.
    store_cv_results : bool, default=False
        ``cv=None`` only (with ``cv`` given it is an error, as in scikit-learn): keep
        ``cv_results_``, the squared leave-one-out errors (or the leave-one-out predictions
        when ``scoring`` is given) of every sample for every alpha.
    store_cv_values : bool
        Deprecated name of ``store_cv_results`` (a ``FutureWarning``), renamed as in
        scikit-learn 1.5.

    Attributes
    ----------
    alpha_ : float
        The selected penalty.
    best_score_ : float
        Score at ``alpha_`` (higher is better: minus the mean squared error when
        ``scoring=None``, minus GCV for ``criterion="gcv"``).
    criterion_path_ : ndarray of shape (n_alphas,)
        The criterion minimised over ``alphas`` (in their given order): mean squared
        leave-one-out or validation error, GCV, or minus the mean score.
    cv_results_ : ndarray of shape (n_samples, n_alphas)
        Only with ``cv=None`` and ``store_cv_results=True``: column ``j`` holds, for
        ``alphas[j]``, the squared leave-one-out error ``e_(i)²`` of every sample (or its
        leave-one-out prediction when ``scoring`` is given). ``cv_values_`` is its deprecated
        name. The target is one-dimensional, so scikit-learn's
        ``(n_samples, n_targets, n_alphas)`` layout and ``alpha_per_target`` do not arise.
    coef_ : ndarray of shape (n_features,)
    intercept_ : float
        The ridge fit at ``alpha_`` on all the data.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    For each candidate α, ridge (see :class:`Ridge`) is a linear smoother
    :math:`\\hat y = H_\\alpha y`; in the weighted space, with the centred design
    :math:`Z = W^{1/2}(X - \\bar x_w) = U S V^\\top`,

    .. math:: H_\\alpha = \\frac{\\sqrt w\\sqrt w^\\top}{\\sum_i w_i}
              + U \\,\\mathrm{diag}\\Big(\\frac{s_j^2}{s_j^2 + \\alpha}\\Big) U^\\top

    (the first term is the unpenalised intercept). The leave-one-out residual is exactly
    :math:`e_{(i)} = e_i / (1 - h_{ii})` and the criterion is
    :math:`\\sum_i w_i e_{(i)}^2 / \\sum_i w_i`. GCV replaces :math:`h_{ii}` by its mean:
    :math:`\\mathrm{GCV} = (\\mathrm{RSS}_w / \\textstyle\\sum w) / (1 - \\mathrm{tr} H / n)^2`,
    i.e. :math:`n\\,\\mathrm{RSS}/(n - \\mathrm{tr} H)^2` with unit weights, where
    :math:`\\mathrm{tr} H` counts the intercept. R's ``MASS::lm.ridge`` reports
    :math:`\\mathrm{RSS}/(n - \\mathrm{df})^2` with ``df`` excluding the intercept (and on its
    scaled design, see :class:`Ridge`). Ties between alphas go to the first in ``alphas``.
    scikit-learn's ``RidgeCV(cv=None)`` computes the same leave-one-out errors (which it calls
    GCV): without weights its ``cv_results_`` and ``best_score_`` equal ours; with weights
    its ``cv_results_`` holds :math:`w_i e_{(i)}^2` (ours: :math:`e_{(i)}^2`) and it averages
    them over :math:`n` instead of dividing by :math:`\\sum_i w_i`, which selects the same
    ``alpha_``.

    With K-fold cross-validation each fold's score is the weighted mean squared error on its
    validation rows (or the scorer's value), and folds are averaged with equal weight, as
    scikit-learn's ``GridSearchCV`` does. The final model is refitted on all the data.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import RidgeCV
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 3))
    >>> y = X @ [1.0, -2.0, 0.5] + rng.normal(size=50)
    >>> model = RidgeCV(alphas=[0.01, 0.1, 1.0, 10.0, 100.0]).fit(X, y)
    >>> model.criterion_path_.shape
    (5,)
    """

    _parameter_constraints = {
        "alphas": [ArrayLike()],
        "fit_intercept": [Boolean()],
        "cv": [None, CV()],
        "gcv_mode": [None, Options({"auto", "svd", "eigen"})],
        "scoring": [None, InstanceOf(str), Callable()],
        "criterion": [Options({"loo", "gcv"})],
        "store_cv_results": [Boolean()],
        "store_cv_values": [Boolean(), Options({DEPRECATED})],
    }

    def __init__(
        self,
        alphas=(0.1, 1.0, 10.0),
        *,
        fit_intercept=True,
        cv=None,
        gcv_mode=None,
        scoring=None,
        criterion="loo",
        store_cv_results=False,
        store_cv_values=DEPRECATED,
    ):
        self.alphas = alphas
        self.fit_intercept = fit_intercept
        self.cv = cv
        self.gcv_mode = gcv_mode
        self.scoring = scoring
        self.criterion = criterion
        self.store_cv_results = store_cv_results
        self.store_cv_values = store_cv_values

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Choose ``alpha_`` over ``alphas`` and fit ridge with it.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative prior weights, used in the fits and in the criteria.

        Returns
        -------
        self : RidgeCV
        """
        name = type(self).__name__
        alphas = check_alphas(self.alphas, name, allow_zero=False)
        store = renamed_parameter(self, "store_cv_values", "store_cv_results")
        if store and self.cv is not None:
            raise ValueError(
                f"{name}: store_cv_results=True needs cv=None (the leave-one-out errors are "
                f"only computed there); got cv={self.cv!r}."
            )
        if self.criterion == "gcv" and self.scoring is not None:
            raise ValueError(f"{name}: scoring cannot be combined with criterion='gcv'.")
        scorer = None if self.scoring is None else (
            get_scorer(self.scoring) if isinstance(self.scoring, str) else self.scoring
        )
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        warn_unrescaled_scale(self, X, "X")
        warn_unrescaled_scale(self, y, "y")
        w = None if sample_weight is None else check_sample_weight(
            sample_weight, X.shape[0], estimator_name=name
        )
        if hasattr(self, "cv_results_"):
            del self.cv_results_
        if self.cv is None:
            path, coef, intercept = self._fit_loo(X, y, w, alphas, scorer, store)
        else:
            path = self._fit_kfold(X, y, w, alphas, scorer)
        best = int(np.argmin(path))
        self.alpha_ = float(alphas[best])
        self.best_score_ = float(-path[best])
        self.criterion_path_ = path
        if self.cv is None:
            self.coef_, self.intercept_ = coef(best), intercept(best)
        else:
            self.coef_, self.intercept_, _ = solve_ridge(
                X, y, w, self.alpha_, self.fit_intercept, "auto", name
            )
        return self

    cv_values_ = renamed_attribute("cv_results_", " (as in scikit-learn 1.5)")

    def _fit_loo(self, X, y, w, alphas, scorer, store):
        name = type(self).__name__
        n = X.shape[0]
        n_obs = n if w is None else int(np.count_nonzero(w))
        if n_obs < 2:
            raise ValueError(
                f"{name}: leave-one-out cross-validation needs at least 2 samples with positive "
                f"weight; got {n_obs} sample (use cv=None only with n_samples >= 2)."
            )
        mode = "auto" if self.gcv_mode is None else self.gcv_mode
        x_mean, y_mean, sqrt_w = _prepare(X, y, w, self.fit_intercept)
        Z, t = centred_design(X, y, x_mean, y_mean, sqrt_w)
        U, s, V = ridge_spectral(Z, mode, overwrite_z=True)  # Z is needed only without V
        if V is not None:
            del Z
        Ut = U.T @ t
        loo_sq, gcv, loo_w = ridge_loo_gcv(
            U, s, t, sqrt_w, alphas, self.fit_intercept, n_obs, Ut=Ut
        )
        total = n if w is None else w.sum()

        def coef(j):
            if V is not None:
                return V @ (s / (s * s + alphas[j]) * Ut)
            return Z.T @ (U @ (Ut / (s * s + alphas[j])))

        def intercept(j):
            return _intercept(x_mean, y_mean, coef(j))

        if self.criterion == "gcv":
            path = gcv
        elif scorer is None:
            path = loo_sq.sum(axis=0) / total
        else:
            path = np.empty(alphas.size)
            preds = np.empty((n, alphas.size))
            for j in range(alphas.size):
                preds[:, j] = self._loo_predictions(X, y, w, sqrt_w, loo_w[:, j], coef(j),
                                                    intercept(j))
                path[j] = -float(scorer(_PassThrough(), preds[:, j], y, sample_weight=w)
                                 if w is not None else scorer(_PassThrough(), preds[:, j], y))
        if store:
            if scorer is None:
                self.cv_results_ = np.column_stack(
                    [
                        (y - self._loo_predictions(X, y, w, sqrt_w, loo_w[:, j], coef(j),
                                                   intercept(j))) ** 2
                        for j in range(alphas.size)
                    ]
                )
            else:
                self.cv_results_ = preds
        return path, coef, intercept

    @staticmethod
    def _loo_predictions(X, y, w, sqrt_w, loo_w, coef, intercept):
        """``y − e_(i)``; rows with zero weight do not influence the fit: their own residual."""
        if sqrt_w is None:
            return y - loo_w
        pred = np.empty_like(y)
        pos = w > 0
        pred[pos] = y[pos] - loo_w[pos] / sqrt_w[pos]
        pred[~pos] = X[~pos] @ coef + intercept
        return pred

    def _fit_kfold(self, X, y, w, alphas, scorer):
        splitter = check_cv(self.cv)
        scores = []
        for train, test in splitter.split(X, y):
            w_tr = None if w is None else w[train]
            w_te = None if w is None else w[test]
            if w is not None and not (w_tr.sum() > 0 and w_te.sum() > 0):
                raise ValueError(
                    f"{type(self).__name__}: a cross-validation fold has zero total "
                    "sample_weight in its training or validation part."
                )
            Xtr, ytr = X[train], y[train]
            x_mean, y_mean, sqrt_w = _prepare(Xtr, ytr, w_tr, self.fit_intercept)
            Z, t = centred_design(Xtr, ytr, x_mean, y_mean, sqrt_w)
            U, s, V = ridge_spectral(Z, "auto", overwrite_z=True)  # Z needed only without V
            Ut = U.T @ t
            Xte = X[test] if x_mean is None else X[test] - x_mean
            # projections of the validation rows on the spectral basis, shared by every alpha
            P = Xte @ V if V is not None else Xte @ (Z.T @ U)
            fold = np.empty(alphas.size)
            for j, alpha in enumerate(alphas):
                shrink = s / (s * s + alpha) if V is not None else 1.0 / (s * s + alpha)
                pred = P @ (shrink * Ut) + y_mean
                if scorer is None:
                    err = (y[test] - pred) ** 2
                    fold[j] = -(err.mean() if w_te is None else (w_te @ err) / w_te.sum())
                elif w_te is None:
                    fold[j] = scorer(_PassThrough(), pred, y[test])
                else:
                    fold[j] = scorer(_PassThrough(), pred, y[test], sample_weight=w_te)
            scores.append(fold)
        return -np.mean(scores, axis=0)
