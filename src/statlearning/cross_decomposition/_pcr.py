"""Principal components regression, as R's ``pls::pcr``."""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import MultiOutputMixin
from sklearn.utils.validation import check_is_fitted

from .._core.selection import RULES
from .._validation import CV, DEPRECATED, Boolean, Interval, Options, _Constraint, renamed_parameter
from ..base import RegressorMixin, StatBase, fit_context
from ..decomposition import PCA, retained_components
from ._common import (
    LinearComponentsMixin,
    check_n_components,
    column_scale,
    finish_linear,
    map_back,
    rank_error,
    raw_coefficients,
    read_xy,
    standardise,
    unit_scale,
)
from ._pls_algorithms import RankError
from ._summary import ComponentSummary
from ._validation_path import cross_validate_path, max_components_cv

__all__ = ["PCRegression"]

#: A component whose variance is below this fraction of the largest has no direction.
_RANK_RTOL = 1e-10


class _RuleString(_Constraint):
    """A retention rule of :func:`statlearning.decomposition.retained_components`."""

    def is_satisfied_by(self, value) -> bool:
        return isinstance(value, str) and (
            value in ("kaiser", "elbow") or value.startswith(("cumulative:", "individual:"))
        )

    def __str__(self) -> str:
        return "'cv', 'kaiser', 'elbow', 'cumulative:<t>' or 'individual:<t>'"


def _pcr_path(X, Y, k, scale, *, strict=False):
    """The PCA of ``X`` and the raw coefficients of the regressions on 1…k components.

    Returns ``(pca, rank, coefs (k, p, m), intercepts (k, m), y_fraction (m, k), x_mean,
    x_scale)``; components beyond the rank leave the coefficients unchanged (``strict``: an
    error instead). The columns are standardised here (a constant column keeps scale 1 and
    adds no component, as in :class:`PLSRegression`), the PCA is that of the result."""
    x_mean = X.mean(axis=0)
    x_scale = column_scale(X, x_mean, scale)
    Xs = standardise(X, x_mean, x_scale)
    pca = PCA(svd_solver="full").fit(Xs)
    ev = pca.explained_variance_
    rank = int(np.sum(ev > _RANK_RTOL * ev[0])) if ev.size and ev[0] > 0 else 0
    if strict and k > rank:
        raise RankError(rank)
    used = min(k, rank)
    y_mean = Y.mean(axis=0)
    V = pca.components_[:used]  # (used, p) on the scaled X
    T = pca.transform(Xs)[:, :used]
    Yc = Y - y_mean
    d2 = pca.singular_values_[:used] ** 2
    gamma = (T.T @ Yc) / d2[:, None]  # (used, m)
    steps = np.zeros((k, X.shape[1], Y.shape[1]))
    steps[:used] = V[:, :, None] * gamma[:, None, :]
    coefs, intercepts = raw_coefficients(np.cumsum(steps, axis=0), x_mean, x_scale, y_mean)
    y_ss = np.einsum("ij,ij->j", Yc, Yc)
    y_frac = np.zeros((Y.shape[1], k))
    with np.errstate(divide="ignore", invalid="ignore"):
        y_frac[:, :used] = np.where(
            y_ss[:, None] > 0, (gamma**2 * d2[:, None]).T / y_ss[:, None], 0
        )
    return pca, rank, coefs, intercepts, y_frac, x_mean, x_scale


class PCRegression(MultiOutputMixin, LinearComponentsMixin, RegressorMixin, StatBase):
    """Principal components regression, as R's ``pls::pcr``.

    Parameters
    ----------
    n_components : None, int or str, default=None
        Number of principal components ``M`` to regress on: None, all of them (the rank of the
        centred ``X``, at most ``min(n − 1, p)``: the least-squares fit); an int; ``"cv"``,
        chosen from ``0, …, min(n − 1, p, n − longest segment − 1)`` by cross-validation
        (``validation_``, as ``pcr(..., validation="CV")``) with the rule ``rule``; or a
        retention rule of :func:`statlearning.decomposition.retained_components`
        (``"cumulative:0.95"``, ``"individual:0.25"``, ``"kaiser"``, ``"elbow"``, seed 004's
        rules).
    scale : bool, default=True
        Standardise the columns of ``X`` (divisor ``n − 1``) first, as ``pcr(..., scale=TRUE)``
        (R's default is ``FALSE``); ``Y`` is only centred.
    cv : int, cross-validation generator or iterable, default=10
        Segments of ``n_components="cv"`` (an int: consecutive segments, ``KFold`` without
        shuffling; ``(train, test)`` pairs reproduce ``pls``'s ``segments``).
    rule : {"min", "1se"}, default="min"
        ``"min"``: the number of smallest ``MSEP_CV``; ``"1se"``: the smallest number within
        one standard error of it.
    selection : {"min", "1se"}
        Deprecated name of ``rule`` (a ``FutureWarning``), the package's name for the choice
        from a CV curve.

    Attributes
    ----------
    n_components_ : int
        Components used (may be 0 with ``"cv"``: the mean model).
    components_ : ndarray of shape (n_components_, n_features)
        Principal axes of the (scaled) ``X`` (:class:`~statlearning.decomposition.PCA`'s).
    explained_variance_ratio_ : ndarray of shape (2, n_components_)
        Fractions of the (scaled) ``X`` variance and of the centred ``Y`` variance explained by
        each component (R's ``explvar`` and ``R2``).
    x_mean_ : ndarray of shape (n_features,)
    x_scale_ : ndarray of shape (n_features,) or None
    y_mean_ : ndarray of shape (n_targets,)
    coef_ : ndarray of shape (n_targets, n_features)
        Coefficients on the raw predictors (``coef(fit, ncomp=M)``).
    intercept_ : ndarray of shape (n_targets,)
        Intercept on the raw predictors (``coef(fit, intercept=TRUE)``).
    coef_path_ : ndarray of shape (K, n_targets, n_features)
        Coefficients with ``1, …, K`` components (``K`` the components fitted).
    intercept_path_ : ndarray of shape (K, n_targets)
    validation_ : dict
        With ``n_components="cv"``: ``"n_components"`` (0…K), ``"RMSEP"`` and ``"adjCV"``
        (``(n_targets, K + 1)``, ``RMSEP(fit)``'s rows), ``"MSEP"``, ``"MSEP_se"``,
        ``"n_segments"``.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    PLSRegression : components chosen with the response in view.
    statlearning.decomposition.PCA : the principal components.

    Notes
    -----
    With :math:`X_s = U D V^\\top` the SVD of the centred (scaled) predictors and
    :math:`z_a = X_s v_a` the scores, PCR fits
    :math:`\\hat y = \\bar y + \\sum_{a \\le M} \\hat\\gamma_a z_a`,
    :math:`\\hat\\gamma_a = z_a^\\top y / d_a^2`, i.e. the coefficients
    :math:`\\hat\\beta = \\sum_{a \\le M} v_a \\hat\\gamma_a` on :math:`X_s`, divided by the
    column scales for the raw ``X`` (seed 004 §1.6 item 54; ISLR §6.3.1). With every component
    it is ordinary least squares.

    Mapping to R: ``PCRegression(M, scale=s).fit(X, Y)`` is ``pcr(Y ~ X, ncomp=M, scale=s)``
    (method ``svdpc``); ``coef_path_[a - 1]`` is ``t(coef(fit, ncomp=a)[, , 1])``, divided by
    ``x_scale_`` when ``scale=TRUE`` (R's coefficients multiply ``X / scale``); the intercepts
    are R's; ``summary()`` is ``summary(fit)``. ``rule="1se"`` uses the package's
    one-standard-error rule (standard error of the mean over the segments), not ``pls``'s
    ``selectNcomp(method="onesigma")`` (spread of the per-row errors).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.cross_decomposition import PCRegression
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 5))
    >>> y = X @ [1.0, 0.5, 0.0, 0.0, -1.0] + 0.1 * rng.normal(size=40)
    >>> pcr = PCRegression(n_components="cv", cv=5).fit(X, y)
    >>> pcr.validation_["RMSEP"].shape
    (1, 6)
    """

    _parameter_constraints: dict = {
        "n_components": [None, Interval(Integral, 1, None, closed="left"), Options({"cv"}),
                         _RuleString()],
        "scale": [Boolean()],
        "cv": [CV()],
        "rule": [Options(set(RULES))],
        "selection": [Options(set(RULES)), Options({DEPRECATED})],
    }  # fmt: skip

    def __init__(self, n_components=None, *, scale=True, cv=10, rule="min", selection=DEPRECATED):
        self.n_components = n_components
        self.scale = scale
        self.cv = cv
        self.rule = rule
        self.selection = selection

    def _path_coefficients(self, X, Y, k):
        _, _, coefs, intercepts, *_ = _pcr_path(X, Y, k, self.scale)
        return coefs, intercepts

    @fit_context
    def fit(self, X, y):
        """Fit the principal components and the regression on them.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)

        Returns
        -------
        self
        """
        X, Y, one_d = read_xy(self, X, y)
        X, s = unit_scale(X)
        n, p = X.shape
        nc = check_n_components(self, n, p)
        self._rule = renamed_parameter(self, "selection", "rule")
        n_max = min(n - 1, p)
        if nc == "cv":
            folds, k = max_components_cv(self.cv, X, n_max)
        else:
            k = nc if isinstance(nc, int) else n_max
        try:
            pca, rank, coefs, intercepts, y_frac, x_mean, x_scale = _pcr_path(
                X, Y, k, self.scale, strict=isinstance(nc, int)
            )
        except RankError as exc:
            raise rank_error(self, k, exc.rank) from None
        self.y_mean_ = Y.mean(axis=0)
        if nc == "cv":
            self.validation_, used = cross_validate_path(
                self._path_coefficients, X, Y, folds, k, coefs, intercepts, rule=self._rule
            )
        elif nc is None:
            used = min(k, rank)
        elif isinstance(nc, str):
            used = min(retained_components(pca.eigenvalues_, nc), rank)
        else:
            used = k
        x_frac = pca.explained_variance_ratio_[:k]
        x_frac = np.concatenate([x_frac, np.zeros(k - x_frac.size)])
        self._explained = np.vstack([x_frac, y_frac])
        self._dims = (n, p, Y.shape[1])
        self.n_components_ = used
        self.components_ = pca.components_[:used].copy()
        self.explained_variance_ratio_ = np.vstack([x_frac[:used], y_frac.sum(axis=0)[:used]])
        if Y.shape[1] > 1:
            total = np.einsum("ij,ij->", Y - self.y_mean_, Y - self.y_mean_)
            per = np.einsum("ij,ij->j", Y - self.y_mean_, Y - self.y_mean_)
            self.explained_variance_ratio_[1] = (y_frac * per[:, None]).sum(axis=0)[:used] / (
                total if total > 0 else 1.0
            )
        self.x_mean_, self.x_scale_ = x_mean, x_scale
        finish_linear(self, coefs, intercepts, used, one_d)
        map_back(self, s)
        return self

    def summary(self) -> ComponentSummary:
        """R's ``summary(fit)``: cumulative % of variance explained, and the CV RMSEP.

        Returns
        -------
        ComponentSummary
        """
        check_is_fitted(self, "coef_")
        return ComponentSummary(self, "svdpc")

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = True
        tags.regressor_tags.poor_score = True  # few components fit poorly by design
        return tags
