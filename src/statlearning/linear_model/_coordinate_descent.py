"""Penalised least squares by coordinate descent: :class:`Lasso`, :class:`ElasticNet` and their
regularisation paths :func:`lasso_path`, :func:`enet_path`.

The estimators validate their input and call
:func:`statlearning._solvers.coordinate_descent.enet_coordinate_descent`; the maths and the
compiled loops live there. Cross-validated versions are in :mod:`._coordinate_descent_cv`.
"""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state, check_X_y
from sklearn.utils.validation import validate_data

from .._core.scaling import scale_for, times
from .._solvers import coordinate_descent as cd
from .._validation import (
    ArrayLike,
    Boolean,
    Interval,
    Options,
    RandomState,
    check_alphas,
    check_sample_weight,
)
from ..base import LinearPredictorMixin, RegressorMixin, StatBase, fit_context
from ..exceptions import ConvergenceWarning, InvalidParameterError, warn_data_scale

__all__ = ["ElasticNet", "Lasso", "enet_path", "lasso_path"]



def _convergence_warning(name, alpha, gap, tol, scale, max_iter):
    warnings.warn(
        f"{name}: coordinate descent did not converge in max_iter={max_iter} sweeps at "
        f"alpha={alpha:.6g}: duality gap {gap:.3e} > tol · Σw(y − ȳ)²/Σw = {tol * scale:.3e}. "
        "Increase max_iter, loosen tol, or standardise the features.",
        ConvergenceWarning,
        stacklevel=3,
    )


def _response_scale(y, w, fit_intercept) -> float:
    """``Σ w (y − ȳ_w)² / Σw`` (uncentred without an intercept): the gap's tolerance unit."""
    w = np.ones_like(y) if w is None else w
    yc = y - (w @ y) / w.sum() if fit_intercept else y
    return float(w @ (yc * yc) / w.sum())


def _rescaled_penalty(alpha, l1_ratio, s_x, s_y):
    """``(alpha', l1_ratio')`` of the same objective on ``X / s_x`` and ``y / s_y``.

    With ``β = (s_y / s_x) β'`` the objective is ``s_y²`` times the elastic net of the
    rescaled data with L1 strength ``alpha ρ / (s_x s_y)`` and L2 strength
    ``alpha (1 − ρ) / s_x²``; ``alpha'`` may be ``inf`` (the penalty exceeds float64 there).
    """
    with np.errstate(over="ignore", under="ignore"):
        a1 = alpha * l1_ratio / s_x / s_y
        a2 = alpha * (1.0 - l1_ratio) / s_x / s_x
    total = a1 + a2
    if not np.isfinite(total) or total == 0:
        return total, l1_ratio
    return total, a1 / total


class ElasticNet(RegressorMixin, LinearPredictorMixin, StatBase):
    """Linear regression with combined L1 and L2 penalties, fitted by coordinate descent.

    Parameters
    ----------
    alpha : float, default=1.0
        Overall penalty strength ``α ≥ 0`` (glmnet's ``lambda``). ``alpha=0`` is least squares,
        for which :class:`LinearRegression` is the better tool.
    l1_ratio : float, default=0.5
        Share ``ρ ∈ [0, 1]`` of the L1 part (glmnet's ``alpha``): ``1`` is the lasso, ``0``
        ridge regression.
    fit_intercept : bool, default=True
        Fit an unpenalised intercept (the data are centred at their weighted means).
    max_iter : int, default=1000
        Cap on the number of coordinate-descent sweeps; reaching it without meeting ``tol``
        raises a ``ConvergenceWarning``.
    tol : float, default=1e-4
        Stop when the duality gap is at most ``tol · Σ w (y − ȳ)² / Σw`` (scikit-learn's
        criterion); the gap bounds the distance of the objective from its minimum.
    warm_start : bool, default=False
        Start from the previous fit's ``coef_`` (same number of features).
    selection : {"cyclic", "random"}, default="cyclic"
        Order of the coordinates within a sweep; ``"random"`` shuffles it every sweep.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffling when ``selection="random"``.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        Coefficients; exact zeros for the coordinates the L1 part removes.
    intercept_ : float
        ``ȳ_w − x̄_wᵀ coef_`` (``0.0`` when ``fit_intercept=False``).
    n_iter_ : int
        Coordinate-descent sweeps performed.
    dual_gap_ : float
        Duality gap of the objective at the solution.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When ``X`` was a DataFrame with string column names.

    See Also
    --------
    Lasso : ``l1_ratio=1``.
    ElasticNetCV : chooses ``alpha`` (and ``l1_ratio``) by cross-validation.
    enet_path : the solutions along a grid of ``alpha``.

    Notes
    -----
    The estimator minimises, with weights :math:`w_i` (``sample_weight``, default 1),

    .. math::

        \\frac{1}{2\\sum_i w_i}\\sum_i w_i\\,(y_i - \\beta_0 - x_i^\\top\\beta)^2
        + \\alpha\\left(\\rho\\lVert\\beta\\rVert_1
        + \\frac{1-\\rho}{2}\\lVert\\beta\\rVert_2^2\\right),
        \\qquad \\rho = \\texttt{l1\\_ratio},

    scikit-learn's ``ElasticNet`` objective (to which it reduces with unit weights); integer
    weights are equivalent to repeated rows. The intercept :math:`\\beta_0` is not penalised.
    Cyclic coordinate descent applies the notes' update (Artelt, *Introduction to Machine
    Learning*, §4.9, Algorithm 3)
    :math:`\\beta_j \\leftarrow S(r_j, \\lambda_1)/(\\lVert x_j\\rVert^2 + \\lambda_2)`
    with the soft-threshold :math:`S`; the notes' :math:`\\tfrac12\\lVert y - Xw\\rVert^2
    + \\lambda_1\\lVert w\\rVert_1 + \\tfrac{\\lambda_2}{2}\\lVert w\\rVert^2` is ours with
    :math:`\\lambda_1 = n\\alpha\\rho` and :math:`\\lambda_2 = n\\alpha(1-\\rho)`. That is
    the objective their update (eq. 4.89) minimises; their printed eq. 4.75,
    :math:`\\mathrm{SSE} + \\lambda_1\\lVert w\\rVert_1 + \\lambda_2\\lVert w\\rVert^2`, differs
    from it by factors of 2. Their intercept is penalised, ours is not.

    Mapping to R's glmnet: glmnet's gaussian objective is
    :math:`\\frac{1}{2n}\\mathrm{RSS} + \\lambda\\left(a\\lVert\\beta\\rVert_1
    + \\frac{1-a}{2}\\lVert\\beta\\rVert_2^2\\right)`, so glmnet's ``lambda`` is our ``alpha`` and
    glmnet's ``alpha`` (``a``) is our ``l1_ratio``, with ``standardize = FALSE`` (we never
    rescale the columns: standardise them first, e.g. with
    :class:`~sklearn.preprocessing.StandardScaler`, to get glmnet's default) and
    ``weights = sample_weight``.
    glmnet also standardises ``y`` internally for the gaussian family (to unit population
    standard deviation :math:`s_y`, weighted), which leaves the lasso unchanged but not the
    elastic net: glmnet's fit at ``lambda`` equals ``ElasticNet(alpha=lambda * (a + (1 - a) /
    s_y), l1_ratio=a / (a + (1 - a) / s_y))``, which is ``ElasticNet(alpha=lambda,
    l1_ratio=a)`` exactly when ``y`` has unit variance. Seed 004 (Boily, §5.3) fits the
    elastic net with glmnet, so its ``lambda`` is our ``alpha`` in the same sense; its lasso
    objective :math:`\\lVert Y - X\\beta\\rVert^2 + N\\lambda\\lVert\\beta\\rVert_1` is
    :math:`2N` times ours with ``alpha = λ/2`` (see :class:`Lasso`).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import ElasticNet
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 4))
    >>> y = 2.0 * X[:, 0] + rng.normal(size=50)
    >>> model = ElasticNet(alpha=0.3, l1_ratio=0.7).fit(X, y)
    >>> np.round(model.coef_, 3).tolist()
    [1.555, 0.0, 0.0, 0.0]
    """

    _parameter_constraints = {
        "alpha": [Interval(Real, 0, None, closed="left")],
        "l1_ratio": [Interval(Real, 0, 1, closed="both")],
        "fit_intercept": [Boolean()],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
        "warm_start": [Boolean()],
        "selection": [Options({"cyclic", "random"})],
        "random_state": [RandomState()],
    }

    def __init__(
        self,
        alpha=1.0,
        *,
        l1_ratio=0.5,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-4,
        warm_start=False,
        selection="cyclic",
        random_state=None,
    ):
        self.alpha = alpha
        self.l1_ratio = l1_ratio
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.warm_start = warm_start
        self.selection = selection
        self.random_state = random_state

    def _l1_ratio(self) -> float:
        return float(self.l1_ratio)

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the penalised model by coordinate descent.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative observation weights (glmnet's ``weights``); the loss is their
            weighted mean, so integer weights are equivalent to repeated rows.

        Returns
        -------
        self
        """
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=True)
        name = type(self).__name__
        w = None
        if sample_weight is not None:
            w = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        coef_init = None
        if self.warm_start and getattr(self, "coef_", None) is not None:
            if np.shape(self.coef_) == (X.shape[1],):
                coef_init = self.coef_
        rng = check_random_state(self.random_state) if self.selection == "random" else None
        alpha, l1_ratio = float(self.alpha), self._l1_ratio()
        s_x, s_y = scale_for(X), scale_for(y)
        if s_x is not None or s_y is not None:  # squares of the data leave float64's range
            s_x, s_y = s_x or 1.0, s_y or 1.0
            X, y = X / s_x, y / s_y
            coef_init = None if coef_init is None else coef_init * (s_x / s_y)
            alpha, l1_ratio = _rescaled_penalty(alpha, l1_ratio, s_x, s_y)
            if not np.isfinite(alpha):
                return self._fit_null(X, y, w, s_x, s_y, float(self.alpha) * self._l1_ratio())
        res = cd.enet_coordinate_descent(
            X,
            y,
            alpha=alpha,
            l1_ratio=l1_ratio,
            sample_weight=w,
            fit_intercept=self.fit_intercept,
            coef_init=coef_init,
            max_iter=self.max_iter,
            tol=float(self.tol),
            selection=self.selection,
            random_state=rng,
        )
        self.coef_ = res.x
        self.intercept_ = float(res.intercept)
        self.n_iter_ = int(res.n_iter)
        self.dual_gap_ = float(res.dual_gap)
        if not res.converged:
            scale = _response_scale(y, w, self.fit_intercept)
            _convergence_warning(name, self.alpha, res.dual_gap, self.tol, scale, self.max_iter)
        if s_x is not None:
            self.coef_ = self.coef_ * (s_y / s_x)
            self.intercept_ *= s_y
            self.dual_gap_ = times(self.dual_gap_, s_y, 2)
        return self

    def _fit_null(self, X, y, w, s_x, s_y, alpha_l1):
        """The fit when the rescaled penalty overflows: every slope is zero (exactly so when
        the L1 part alone exceeds ``max |Xᵀ(y − ȳ)| / n`` on the rescaled data)."""
        w1 = np.ones_like(y) if w is None else w
        y_mean = float(w1 @ y) / float(w1.sum()) if self.fit_intercept else 0.0
        x_mean = (w1 @ X) / float(w1.sum()) if self.fit_intercept else 0.0
        lam_max = float(np.max(np.abs((X - x_mean).T @ (w1 * (y - y_mean))))) / float(w1.sum())
        with np.errstate(over="ignore", under="ignore"):
            l1 = alpha_l1 / s_x / s_y
        if not l1 >= lam_max:  # the ridge part alone overflowed: the slopes are below 1e-308
            warn_data_scale(self, ["coef_"], s_x)
        self.coef_ = np.zeros(X.shape[1])
        self.intercept_ = y_mean * s_y
        self.n_iter_ = 0
        self.dual_gap_ = 0.0
        return self


class Lasso(ElasticNet):
    """Linear regression with an L1 penalty (the lasso), fitted by coordinate descent.

    Parameters
    ----------
    alpha : float, default=1.0
        Penalty strength ``α ≥ 0``: glmnet's ``lambda``. ``alpha=0`` is least squares.
    fit_intercept : bool, default=True
        Fit an unpenalised intercept.
    max_iter : int, default=1000
        Cap on the number of coordinate-descent sweeps (``ConvergenceWarning`` when reached).
    tol : float, default=1e-4
        Stop when the duality gap is at most ``tol · Σ w (y − ȳ)² / Σw``.
    warm_start : bool, default=False
        Start from the previous fit's ``coef_``.
    selection : {"cyclic", "random"}, default="cyclic"
        Coordinate order within a sweep.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffling when ``selection="random"``.

    Attributes
    ----------
    coef_ : ndarray of shape (n_features,)
        Coefficients, with exact zeros for the features the lasso removes.
    intercept_ : float
    n_iter_ : int
        Coordinate-descent sweeps performed.
    dual_gap_ : float
        Duality gap at the solution.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    ElasticNet : the lasso and ridge penalties mixed (``l1_ratio``).
    LassoCV : chooses ``alpha`` by cross-validation (minimum or one-SE rule).
    lasso_path : the solutions along a grid of ``alpha``.

    Notes
    -----
    The estimator minimises

    .. math::

        \\frac{1}{2\\sum_i w_i}\\sum_i w_i\\,(y_i - \\beta_0 - x_i^\\top\\beta)^2
        + \\alpha\\lVert\\beta\\rVert_1,

    scikit-learn's ``Lasso`` objective with unit weights. The notes (Artelt, *Introduction
    to Machine Learning*, §4.8, eq. 4.50) minimise :math:`\\tfrac12\\lVert y - Xw\\rVert^2 +
    \\lambda\\lVert w\\rVert_1`: their :math:`\\lambda` is ``n * alpha``; with orthonormal columns
    the solution is their soft-thresholded least squares, :math:`w_j =
    \\operatorname{sign}(\\alpha_j)(|\\alpha_j| - \\lambda)_+` with :math:`\\alpha = X^\\top y`
    (eq. 4.62; without intercept). Seed 004 (Boily, §5.3) minimises
    :math:`\\lVert Y - X\\beta\\rVert^2 + N\\lambda\\lVert\\beta\\rVert_1`, so its
    :math:`\\lambda` is ``2 * alpha`` (the soft threshold of its orthonormal formula should be
    :math:`N\\lambda/2`, not :math:`N\\lambda`).

    ``Lasso(alpha=a)`` is R's ``glmnet(x, y, lambda = a, alpha = 1, standardize = FALSE)``
    exactly, whatever the scale of ``y``: glmnet's internal standardisation of ``y`` cancels for
    the lasso. With ``sample_weight``, glmnet's ``weights``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import Lasso
    >>> X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]])
    >>> model = Lasso(alpha=0.1).fit(X, [0.0, 1.0, 2.0])
    >>> np.round(model.coef_, 3).tolist(), round(model.intercept_, 3)
    ([0.85, 0.0], 0.15)
    """

    _parameter_constraints = {
        k: v for k, v in ElasticNet._parameter_constraints.items() if k != "l1_ratio"
    }

    def __init__(
        self,
        alpha=1.0,
        *,
        fit_intercept=True,
        max_iter=1000,
        tol=1e-4,
        warm_start=False,
        selection="cyclic",
        random_state=None,
    ):
        self.alpha = alpha
        self.fit_intercept = fit_intercept
        self.max_iter = max_iter
        self.tol = tol
        self.warm_start = warm_start
        self.selection = selection
        self.random_state = random_state

    def _l1_ratio(self) -> float:
        return 1.0


# ------------------------------------------------------------------------------------ paths

_PATH_CONSTRAINTS = {
    "l1_ratio": [Interval(Real, 0, 1, closed="both")],
    "alphas": [None, ArrayLike()],
    "n_alphas": [Interval(Integral, 1, None, closed="left")],
    "eps": [Interval(Real, 0, 1, closed="right")],
    "fit_intercept": [Boolean()],
    "max_iter": [Interval(Integral, 1, None, closed="left")],
    "tol": [Interval(Real, 0, None, closed="left")],
}


def _check_path_params(func: str, **params) -> None:
    for name, value in params.items():
        accepted = _PATH_CONSTRAINTS[name]
        if value is None and None in accepted:
            continue
        if not any(c is not None and c.is_satisfied_by(value) for c in accepted):
            described = " or ".join("None" if c is None else str(c) for c in accepted)
            raise InvalidParameterError(
                f"{func}: parameter {name!r} must be {described}; got {value!r}"
                f" (of type {type(value).__name__})."
            )


def _path(func, X, y, l1_ratio, alphas, n_alphas, eps, fit_intercept, sample_weight,
          max_iter, tol):
    _check_path_params(
        func, l1_ratio=l1_ratio, alphas=alphas, n_alphas=n_alphas, eps=eps,
        fit_intercept=fit_intercept, max_iter=max_iter, tol=tol,
    )
    if alphas is None and l1_ratio == 0:
        raise ValueError(
            f"{func}: the automatic alpha grid needs l1_ratio > 0 (with l1_ratio=0 no alpha "
            "makes every coefficient zero); pass alphas explicitly."
        )
    X, y = check_X_y(X, y, dtype=np.float64, y_numeric=True)
    w = None
    if sample_weight is not None:
        w = check_sample_weight(sample_weight, X.shape[0], estimator_name=func)
    if alphas is not None:
        alphas = check_alphas(alphas, func)
    res = cd.enet_path(
        X, y, l1_ratio=float(l1_ratio), alphas=alphas, n_alphas=n_alphas, eps=float(eps),
        sample_weight=w, fit_intercept=fit_intercept, max_iter=max_iter, tol=float(tol),
    )
    if not res.converged.all():
        i = int(np.flatnonzero(~res.converged)[-1])
        scale = _response_scale(y, w, fit_intercept)
        warnings.warn(
            f"{func}: coordinate descent did not converge in max_iter={max_iter} sweeps at "
            f"{int((~res.converged).sum())} of {res.alphas.size} alphas (smallest: "
            f"alpha={res.alphas[i]:.6g}, duality gap {res.dual_gaps[i]:.3e} > "
            f"{tol * scale:.3e}). Increase max_iter, loosen tol, or standardise the features.",
            ConvergenceWarning,
            stacklevel=3,
        )
    return res.alphas, res.coefs, res.intercepts


def enet_path(X, y, *, l1_ratio=0.5, alphas=None, n_alphas=100, eps=1e-3, fit_intercept=True,
              sample_weight=None, max_iter=1000, tol=1e-4):
    """Elastic-net solutions along a decreasing grid of penalties (the regularisation path).

    Each solution is warm-started from the previous one; the data are centred (and, when
    ``n_samples ≥ n_features``, the Gram matrix formed) once for the whole path.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    l1_ratio : float, default=0.5
        Share of the L1 penalty (glmnet's ``alpha``), in ``[0, 1]``.
    alphas : array-like, default=None
        Penalties to use (sorted into decreasing order). ``None``: ``n_alphas`` values
        log-spaced from ``α_max`` down to ``eps · α_max``, where
        ``α_max = max_j |Σ_i w_i x_ij (y_i − ȳ_w)| / (Σw · l1_ratio)`` (columns centred when
        ``fit_intercept``) is the smallest penalty giving all-zero coefficients.
    n_alphas : int, default=100
    eps : float, default=1e-3
        ``α_min / α_max`` of the automatic grid.
    fit_intercept : bool, default=True
    sample_weight : array-like of shape (n_samples,), default=None
    max_iter : int, default=1000
        Sweep cap at each penalty (``ConvergenceWarning`` when reached).
    tol : float, default=1e-4
        Duality-gap tolerance, relative to ``Σ w (y − ȳ)² / Σw``, at each penalty.

    Returns
    -------
    alphas : ndarray of shape (n_alphas,)
        Decreasing.
    coefs : ndarray of shape (n_features, n_alphas)
    intercepts : ndarray of shape (n_alphas,)

    Notes
    -----
    The objective at each ``alpha`` is :class:`ElasticNet`'s. The grid is glmnet's
    (``lambda.min.ratio = eps``, ``nlambda = n_alphas``) and scikit-learn's; with
    ``alphas`` set to glmnet's ``lambda`` sequence and ``y`` of unit variance the
    coefficients are glmnet's (``standardize = FALSE``). ``l1_ratio = 0`` needs explicit
    ``alphas``.
    """
    return _path("enet_path", X, y, l1_ratio, alphas, n_alphas, eps, fit_intercept,
                 sample_weight, max_iter, tol)


def lasso_path(X, y, *, alphas=None, n_alphas=100, eps=1e-3, fit_intercept=True,
               sample_weight=None, max_iter=1000, tol=1e-4):
    """Lasso solutions along a decreasing grid of penalties (the regularisation path).

    :func:`enet_path` with ``l1_ratio=1``; the grid starts at
    ``α_max = max_j |Σ_i w_i x_ij (y_i − ȳ_w)| / Σw``. With ``alphas`` set to glmnet's
    ``lambda`` sequence the coefficients are ``glmnet(x, y, alpha = 1, standardize = FALSE)``'s.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    alphas : array-like, default=None
    n_alphas : int, default=100
    eps : float, default=1e-3
    fit_intercept : bool, default=True
    sample_weight : array-like of shape (n_samples,), default=None
    max_iter : int, default=1000
    tol : float, default=1e-4

    Returns
    -------
    alphas : ndarray of shape (n_alphas,)
        Decreasing.
    coefs : ndarray of shape (n_features, n_alphas)
    intercepts : ndarray of shape (n_alphas,)

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.linear_model import lasso_path
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 3))
    >>> y = X @ [1.0, 0.0, -2.0] + rng.normal(size=40)
    >>> alphas, coefs, intercepts = lasso_path(X, y, n_alphas=5)
    >>> coefs.shape, bool(np.all(coefs[:, 0] == 0))
    ((3, 5), True)
    """
    return _path("lasso_path", X, y, 1.0, alphas, n_alphas, eps, fit_intercept,
                 sample_weight, max_iter, tol)
