"""Penalty chosen by cross-validation along the regularisation path: :class:`LassoCV`,
:class:`ElasticNetCV` (glmnet's ``cv.glmnet``, with its ``lambda.min`` and ``lambda.1se``)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.model_selection import check_cv
from sklearn.utils.validation import validate_data

from .._core.selection import select_index
from .._solvers import coordinate_descent as cd
from .._validation import (
    CV,
    DEPRECATED,
    ArrayLike,
    Boolean,
    Interval,
    Options,
    check_alphas,
    check_sample_weight,
    renamed_parameter,
)
from ..base import LinearPredictorMixin, RegressorMixin, StatBase, fit_context
from ..exceptions import warn_not_converged, warn_unrescaled_scale
from ._coordinate_descent import _convergence_warning, _response_scale

__all__ = ["ElasticNetCV", "LassoCV"]


class ElasticNetCV(RegressorMixin, LinearPredictorMixin, StatBase):
    """Elastic net with ``alpha`` (and ``l1_ratio``) chosen by K-fold cross-validation.

    For every fold the whole regularisation path is computed on the training part (warm
    starts, one Gram matrix per fold) and scored by the mean squared error on the held-out
    part. The penalty with the smallest mean error (``alpha_min_``), or the largest penalty
    within one standard error of it (``alpha_1se_``), is refitted on all the data.

    Parameters
    ----------
    l1_ratio : float or array-like of float, default=0.5
        Share of the L1 penalty (glmnet's ``alpha``), in ``[0, 1]``; a list is searched too.
    eps : float, default=1e-3
        ``α_min / α_max`` of the automatic grid.
    n_alphas : int, default=100
        Length of the automatic grid.
    alphas : array-like, default=None
        Penalties to use instead of the automatic grid (sorted into decreasing order). The
        automatic grid is computed on all the data (as glmnet and scikit-learn do) and is
        shared by the folds. ``l1_ratio = 0`` needs explicit ``alphas``.
    fit_intercept : bool, default=True
    max_iter : int, default=1000
        Sweep cap of each fit (``ConvergenceWarning`` when reached).
    tol : float, default=1e-4
        Duality-gap tolerance of each fit, relative to ``Σ w (y − ȳ)² / Σw``.
    cv : int, cross-validation generator or iterable, default=5
        As in scikit-learn: an int gives unshuffled :class:`~sklearn.model_selection.KFold`
        (glmnet draws random folds: pass ``KFold(shuffle=True, random_state=...)`` for that).
    rule : {"min", "1se"}, default="min"
        Which penalty to refit: ``"min"`` the one with the smallest mean CV error
        (glmnet's ``lambda.min``), ``"1se"`` the largest one whose mean CV error is at most
        the minimum plus its standard error (``lambda.1se``, the one-standard-error rule).
    selection : {"min", "1se"}
        Deprecated name of ``rule`` (a ``FutureWarning``); in :class:`ElasticNet` and
        scikit-learn's ``ElasticNetCV`` ``selection`` is the coordinate order.

    Attributes
    ----------
    alpha_ : float
        The chosen penalty (``alpha_min_`` or ``alpha_1se_``).
    l1_ratio_ : float
        The chosen ``l1_ratio`` (the one with the smallest minimum mean CV error).
    alpha_min_, alpha_1se_ : float
        For ``l1_ratio_``: the penalty minimising the mean CV error (the largest one on ties)
        and the largest penalty within one standard error of that minimum.
    alphas_ : ndarray of shape (n_alphas,) or (n_l1_ratio, n_alphas)
        The grid (decreasing); two-dimensional when ``l1_ratio`` is a list.
    mse_path_ : ndarray of shape (n_alphas, n_folds) or (n_l1_ratio, n_alphas, n_folds)
        Held-out mean squared error (weighted by ``sample_weight``) of each fold.
    cv_mean_ : ndarray of shape (n_alphas,) or (n_l1_ratio, n_alphas)
        Mean of ``mse_path_`` over the folds (glmnet's ``cvm``).
    cv_se_ : ndarray, same shape as ``cv_mean_``
        Standard error of that mean: the standard deviation over the folds (``ddof=1``)
        divided by ``√K`` (glmnet's ``cvsd`` for equal folds).
    coef_ : ndarray of shape (n_features,)
    intercept_ : float
    n_iter_ : int
        Sweeps of the final refit.
    dual_gap_ : float
        Duality gap of the final refit.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    ElasticNet : the model at one penalty; its Notes give the objective and the glmnet mapping.
    LassoCV : ``l1_ratio=1``.

    Notes
    -----
    At each ``alpha`` the objective is :class:`ElasticNet`'s,
    :math:`\\frac{1}{2\\sum w}\\sum_i w_i(y_i - \\beta_0 - x_i^\\top\\beta)^2 + \\alpha\\left(
    \\rho\\lVert\\beta\\rVert_1 + \\frac{1-\\rho}{2}\\lVert\\beta\\rVert_2^2\\right)`. This is
    R's ``cv.glmnet(x, y, alpha = l1_ratio, standardize = FALSE, type.measure = "mse")`` with
    ``lambda.min`` (``rule="min"``) or ``lambda.1se`` (``rule="1se"``); glmnet's
    ``lambda`` is our ``alpha`` (for ``l1_ratio < 1``, when ``y`` has unit variance: see
    :class:`ElasticNet`). Seed 004 (Boily, §5.2–5.3) chooses penalties by cross-validation and
    describes the one-standard-error rule. The choice follows the package's single
    convention (:func:`statlearning.model_selection.one_standard_error_rule`): the simplest
    model is the largest ``alpha``; ties in the mean error go to the larger ``alpha``; the
    standard error is the fold standard deviation (``ddof=1``) over ``√K``, as glmnet's
    ``cvsd``.
    """

    _parameter_constraints = {
        "l1_ratio": [Interval(Real, 0, 1, closed="both"), ArrayLike()],
        "eps": [Interval(Real, 0, 1, closed="right")],
        "n_alphas": [Interval(Integral, 1, None, closed="left")],
        "alphas": [None, ArrayLike()],
        "fit_intercept": [Boolean()],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "cv": [CV()],
        "rule": [Options({"min", "1se"})],
        "selection": [Options({"min", "1se"}), Options({DEPRECATED})],
    }

    def __init__(
        self,
        *,
        l1_ratio=0.5,
        eps=1e-3,
        n_alphas=100,
        alphas=None,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-4,
        cv=5,
        rule="min",
        selection=DEPRECATED,
    ):
        self.l1_ratio = l1_ratio
        self.eps = eps
        self.n_alphas = n_alphas
        self.alphas = alphas
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.cv = cv
        self.rule = rule
        self.selection = selection

    def _single_ratio(self) -> bool:
        return np.ndim(self.l1_ratio) == 0

    def _l1_ratios(self) -> np.ndarray:
        name = type(self).__name__
        try:
            ratios = np.asarray(self.l1_ratio, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError(f"{name}: l1_ratio must be numbers in [0, 1].") from None
        if ratios.ndim > 1 or ratios.size == 0:
            raise ValueError(f"{name}: l1_ratio must be a number or a non-empty 1-D list.")
        if not np.all((ratios >= 0) & (ratios <= 1)):
            raise ValueError(f"{name}: every l1_ratio must be in [0, 1]; got {self.l1_ratio!r}")
        if self.alphas is None and np.any(ratios == 0):
            raise ValueError(
                f"{name}: l1_ratio=0 needs explicit alphas (no alpha makes every ridge "
                "coefficient zero, so the automatic grid has no upper end)."
            )
        return ratios.ravel()

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Cross-validate the path, choose the penalty, refit on all the data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Observation weights, used in every fit and in the held-out mean squared errors.

        Returns
        -------
        self
        """
        name = type(self).__name__
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        warn_unrescaled_scale(self, X, "X")
        warn_unrescaled_scale(self, y, "y")
        w = None
        if sample_weight is not None:
            w = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        ratios = self._l1_ratios()
        rule = renamed_parameter(self, "selection", "rule")
        splits = list(check_cv(self.cv).split(X, y))
        grids = self._grids(X, y, w, ratios)
        mse = np.empty((ratios.size, grids.shape[1], len(splits)))
        unconverged = 0
        for k, (train, test) in enumerate(splits):
            w_train = None if w is None else w[train]
            w_test = np.ones(test.size) if w is None else w[test]
            for i, ratio in enumerate(ratios):
                res = cd.enet_path(
                    X[train], y[train], l1_ratio=float(ratio), alphas=grids[i],
                    sample_weight=w_train, fit_intercept=self.fit_intercept,
                    max_iter=self.max_iter, tol=float(self.tol),
                )
                unconverged += int((~res.converged).sum())
                err = y[test, None] - X[test] @ res.coefs - res.intercepts
                mse[i, :, k] = (w_test @ (err * err)) / w_test.sum()
        if unconverged:
            warn_not_converged(
                self,
                f"{unconverged} of the cross-validation fits",
                max_iter=self.max_iter,
                unit="sweeps",
                advice="increase max_iter or loosen tol",
            )
        self._store_cv(grids, ratios, mse, rule)
        self._refit(X, y, w)
        return self

    def _grids(self, X, y, w, ratios) -> np.ndarray:
        if self.alphas is not None:
            alphas = np.sort(check_alphas(self.alphas, type(self).__name__))[::-1]
            return np.tile(alphas, (ratios.size, 1))
        return np.vstack([
            cd.alpha_grid(X, y, l1_ratio=float(r), sample_weight=w,
                          fit_intercept=self.fit_intercept, n_alphas=self.n_alphas,
                          eps=float(self.eps))
            for r in ratios
        ])

    def _store_cv(self, grids, ratios, mse, rule) -> None:
        n_folds = mse.shape[-1]
        mean = mse.mean(axis=-1)
        if n_folds > 1:
            se = mse.std(axis=-1, ddof=1) / np.sqrt(n_folds)
        else:
            se = np.full(mean.shape, np.nan)
        best = int(np.argmin(mean.min(axis=1)))
        m, s, alphas = mean[best], se[best], grids[best]
        i_min = select_index(m, complexity=-alphas)  # the larger alpha on ties
        self.alpha_min_ = float(alphas[i_min])
        if n_folds > 1:
            self.alpha_1se_ = float(alphas[select_index(m, s, -alphas, rule="1se")])
        elif rule == "1se":
            raise ValueError(
                f"{type(self).__name__}: rule='1se' needs at least two folds to compute "
                "the standard error."
            )
        else:
            self.alpha_1se_ = float("nan")
        self.l1_ratio_ = float(ratios[best])
        self.alpha_ = self.alpha_1se_ if rule == "1se" else self.alpha_min_
        single = self._single_ratio()
        self.alphas_ = grids[0] if single else grids
        self.mse_path_ = mse[0] if single else mse
        self.cv_mean_ = mean[0] if single else mean
        self.cv_se_ = se[0] if single else se

    def _refit(self, X, y, w) -> None:
        res = cd.enet_coordinate_descent(
            X, y, alpha=self.alpha_, l1_ratio=self.l1_ratio_, sample_weight=w,
            fit_intercept=self.fit_intercept, max_iter=self.max_iter, tol=float(self.tol),
        )
        self.coef_ = res.x
        self.intercept_ = float(res.intercept)
        self.n_iter_ = int(res.n_iter)
        self.dual_gap_ = float(res.dual_gap)
        if not res.converged:
            scale = _response_scale(y, w, self.fit_intercept)
            _convergence_warning(type(self).__name__, self.alpha_, res.dual_gap, self.tol,
                                 scale, self.max_iter)


class LassoCV(ElasticNetCV):
    """Lasso with ``alpha`` chosen by K-fold cross-validation (glmnet's ``cv.glmnet``).

    Parameters
    ----------
    eps : float, default=1e-3
        ``α_min / α_max`` of the automatic grid.
    n_alphas : int, default=100
    alphas : array-like, default=None
        Penalties to use instead of the automatic grid (computed on all the data).
    fit_intercept : bool, default=True
    max_iter : int, default=1000
    tol : float, default=1e-4
    cv : int, cross-validation generator or iterable, default=5
    rule : {"min", "1se"}, default="min"
        Refit at ``alpha_min_`` (``lambda.min``) or at ``alpha_1se_`` (``lambda.1se``).
    selection : {"min", "1se"}
        Deprecated name of ``rule`` (a ``FutureWarning``); in :class:`Lasso` and scikit-learn's
        ``LassoCV`` ``selection`` is the coordinate order.

    Attributes
    ----------
    alpha_, alpha_min_, alpha_1se_ : float
    alphas_ : ndarray of shape (n_alphas,)
    mse_path_ : ndarray of shape (n_alphas, n_folds)
    cv_mean_, cv_se_ : ndarray of shape (n_alphas,)
        Mean held-out MSE over the folds and its standard error (SD over folds / √K).
    coef_ : ndarray of shape (n_features,)
    intercept_ : float
    n_iter_ : int
    dual_gap_ : float
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    ElasticNetCV : the full description; Lasso : the objective and the glmnet mapping.

    Notes
    -----
    At each ``alpha`` the objective is
    :math:`\\frac{1}{2\\sum w}\\sum_i w_i(y_i - \\beta_0 - x_i^\\top\\beta)^2 +
    \\alpha\\lVert\\beta\\rVert_1`: glmnet's ``lambda`` is our ``alpha`` exactly, so this is
    ``cv.glmnet(x, y, alpha = 1, standardize = FALSE)`` with ``lambda.min`` or ``lambda.1se``
    (with the same folds: glmnet's ``foldid``).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import LassoCV
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 5))
    >>> y = X[:, 0] - X[:, 1] + 0.5 * rng.normal(size=60)
    >>> model = LassoCV(n_alphas=30, rule="1se").fit(X, y)
    >>> bool(model.alpha_1se_ >= model.alpha_min_)
    True
    """

    _parameter_constraints = {
        k: v for k, v in ElasticNetCV._parameter_constraints.items() if k != "l1_ratio"
    }

    def __init__(
        self,
        *,
        eps=1e-3,
        n_alphas=100,
        alphas=None,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-4,
        cv=5,
        rule="min",
        selection=DEPRECATED,
    ):
        self.eps = eps
        self.n_alphas = n_alphas
        self.alphas = alphas
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.cv = cv
        self.rule = rule
        self.selection = selection

    def _single_ratio(self) -> bool:
        return True

    def _l1_ratios(self) -> np.ndarray:
        return np.array([1.0])
