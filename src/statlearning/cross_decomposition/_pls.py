"""Partial least squares: regression (PLS1 and PLS2, as R's ``pls::plsr``) and canonical PLS."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.base import ClassNamePrefixFeaturesOutMixin, MultiOutputMixin
from sklearn.utils.validation import check_is_fitted

from .._core.compiled import PRODUCT_THREADS_FROM, single_blas_thread
from .._core.linalg import gram
from .._core.selection import RULES
from .._validation import (
    CV,
    DEPRECATED,
    Boolean,
    Interval,
    Options,
    renamed_parameter,
    validate_data,
)
from ..base import RegressorMixin, StatBase, TransformerMixin, fit_context
from ..exceptions import warn_not_converged
from . import _pls_algorithms as algo
from ._common import (
    LinearComponentsMixin,
    PairTransformMixin,
    check_n_components,
    check_pairs,
    column_scale,
    finish_linear,
    map_back,
    rank_error,
    raw_coefficients,
    read_xy,
    read_y_like,
    standardise,
    unit_scale,
    warn_y_exhausted,
)
from ._summary import ComponentSummary
from ._validation_path import cross_validate_path, max_components_cv

__all__ = ["PLSCanonical", "PLSRegression"]

_R_METHOD = {"nipals": "oscorespls", "simpls": "simpls", "kernel": "kernelpls"}


class PLSRegression(
    ClassNamePrefixFeaturesOutMixin,
    MultiOutputMixin,
    LinearComponentsMixin,
    RegressorMixin,
    PairTransformMixin,
    TransformerMixin,
    StatBase,
):
    """Partial least squares regression, PLS1 and PLS2, as R's ``pls::plsr``.

    Parameters
    ----------
    n_components : int or "cv", default=2
        Number of components ``M``; ``"cv"`` chooses it from ``0, …, min(n − 1, p,
        n − longest segment − 1)`` by cross-validation (``validation_``, as ``plsr(...,
        validation="CV")``) with the rule ``rule``.
    scale : bool, default=True
        Divide the centred columns of ``X`` by their standard deviations (divisor ``n − 1``)
        before the fit, as ``plsr(..., scale=TRUE)``. ``Y`` is centred, never scaled (as
        ``pls``; scikit-learn's ``PLSRegression(scale=True)`` also scales ``Y``, which
        changes the model when ``Y`` has several columns).
    algorithm : {"nipals", "simpls", "kernel"}, default="nipals"
        ``"nipals"``: orthogonal scores (``method="oscorespls"``); ``"kernel"``: the same model
        from ``XᵀX`` and ``XᵀY`` (``method="kernelpls"``, faster when ``n ≫ p``);
        ``"simpls"``: de Jong's SIMPLS (``method="simpls"``), the same predictions as the others
        for one response and a different model for several.
    cv : int, cross-validation generator or iterable, default=10
        Segments of ``n_components="cv"``: an int is that many consecutive segments
        (``KFold`` without shuffling, ``pls``'s ``segment.type="consecutive"`` up to the
        segment sizes); pass the segments as ``(train, test)`` pairs to reproduce ``pls``'s.
    rule : {"min", "1se"}, default="min"
        ``"min"``: the number of components of smallest ``MSEP_CV``; ``"1se"``: the smallest
        number within one standard error of it (see
        :func:`statlearning._core.selection.select_index`).
    selection : {"min", "1se"}
        Deprecated name of ``rule`` (a ``FutureWarning``), the package's name for the choice
        from a CV curve.
    max_iter : int, default=500
        Iterations of the NIPALS inner loop (several responses only).
    tol : float, default=1e-12
        Convergence tolerance of that loop (L1 change of the unit weight vector).

    Attributes
    ----------
    n_components_ : int
        Components kept (the CV choice for ``"cv"``; may be 0, the mean model).
    x_mean_ : ndarray of shape (n_features,)
    x_scale_ : ndarray of shape (n_features,) or None
        Standard deviations with ``scale=True`` (``pls``'s ``scale``); a constant column has 1.
    y_mean_ : ndarray of shape (n_targets,)
    x_weights_ : ndarray of shape (n_features, n_components_)
        Unit weight vectors of the deflated ``X`` (``loading.weights``; for SIMPLS the
        projection, as ``pls`` has no other weights there).
    x_loadings_ : ndarray of shape (n_features, n_components_)
        ``loadings``: ``X``'s regression on each score.
    x_rotations_ : ndarray of shape (n_features, n_components_)
        ``projection``: ``x_scores_ = (X − x_mean_) / x_scale_ @ x_rotations_``.
    y_loadings_ : ndarray of shape (n_targets, n_components_)
        ``Yloadings``.
    y_rotations_ : ndarray of shape (n_targets, n_components_)
        ``y_loadings_`` with columns divided by their squared norms (``u = Y q / qᵀq``).
    x_scores_, y_scores_ : ndarray of shape (n_samples, n_components_)
        ``scores`` and ``Yscores`` of the training rows (kept, as R and scikit-learn keep them).
    coef_ : ndarray of shape (n_targets, n_features)
        Coefficients on the raw ``X``: ``predict(X) = X @ coef_.T + intercept_``.
    intercept_ : ndarray of shape (n_targets,)
        Intercept on the raw ``X`` (R's ``coef(fit, intercept=TRUE)``). scikit-learn's
        ``PLSRegression.intercept_`` is the mean of ``y``, to be added to a centred ``X``.
    coef_path_ : ndarray of shape (M, n_targets, n_features)
        Coefficients with ``1, …, M`` components (``coef(fit, ncomp=1:M)``), ``M`` the
        components fitted (``n_components``, or the CV range).
    intercept_path_ : ndarray of shape (M, n_targets)
    explained_variance_ratio_ : ndarray of shape (2, n_components_)
        Fractions of the total variance of the (scaled) ``X`` (row 0, ``explvar(fit) / 100``)
        and of the centred ``Y`` (row 1, summed over responses) explained by each component.
    validation_ : dict
        With ``n_components="cv"`` only: ``"n_components"`` (0…M), ``"RMSEP"`` and
        ``"adjCV"`` (shape ``(n_targets, M + 1)``, ``RMSEP(fit)``'s ``CV`` and ``adjCV``
        rows), ``"MSEP"`` (pooled over responses), ``"MSEP_se"`` (standard error of the
        mean of the segments' MSEs) and ``"n_segments"``.
    n_iter_ : ndarray of shape (n_components_,)
        NIPALS inner iterations per component (1 where the weight is explicit: one response,
        or the SIMPLS and kernel algorithms).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    PCRegression : regression on principal components.
    PLSCanonical : symmetric (canonical) PLS.

    Notes
    -----
    With :math:`X_s` the centred (scaled) predictors and :math:`Y_c` the centred responses,
    component :math:`a` has the unit weight :math:`w_a` maximising the covariance
    :math:`\\mathrm{cov}(X_{(a)} w, Y_{(a)} q)` of the deflated blocks
    (:math:`w_a` the dominant left singular vector of :math:`X_{(a)}^\\top Y_{(a)}`), the
    score :math:`t_a = X_{(a)} w_a`, the loadings :math:`p_a = X_{(a)}^\\top t_a / t_a^\\top t_a`,
    :math:`q_a = Y_{(a)}^\\top t_a / t_a^\\top t_a`, and the deflation
    :math:`X_{(a+1)} = X_{(a)} - t_a p_a^\\top` (seed 004 §1.6 item 55; ISLR §6.3.2). The
    coefficients on the scaled data are :math:`B = R Q^\\top`, :math:`R = W (P^\\top W)^{-1}`,
    mapped to the raw ``X`` by dividing by ``x_scale_``. Seed 004's text deflates only the
    response; this is the standard algorithm (its erratum). With ``M = rank(X)`` components the
    fit is the least-squares fit.

    Mapping to R: ``PLSRegression(M, scale=s, algorithm=a).fit(X, Y)`` is ``plsr(Y ~ X,
    ncomp=M, scale=s, method=...)`` (``"nipals"`` → ``"oscorespls"``, ``"kernel"`` →
    ``"kernelpls"``, R's default, ``"simpls"`` → ``"simpls"``). With ``scale=TRUE``, R's
    ``coef(fit)`` multiplies ``X / scale`` (``predict`` divides new data by ``fit$scale``), so
    ``coef_`` is ``t(coef(fit)[, , 1]) / x_scale_``; ``intercept_`` is R's intercept
    (``coef(fit, intercept=TRUE)``); ``x_scores_`` are ``scores(fit)``; ``summary()`` prints
    ``summary(fit)``. scikit-learn:
    ``PLSRegression(M, scale=False)`` gives the same ``coef_`` and scores for one response
    (its ``scale=True`` also scales ``Y``; its ``intercept_`` differs, see above).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.cross_decomposition import PLSRegression
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(30, 4))
    >>> y = X @ [1.0, 2.0, 0.0, -1.0] + 0.1 * rng.normal(size=30)
    >>> pls = PLSRegression(n_components=2).fit(X, y)
    >>> pls.coef_.shape, pls.predict(X[:2]).shape
    ((1, 4), (2,))
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left"), Options({"cv"})],
        "scale": [Boolean()],
        "algorithm": [Options({"nipals", "simpls", "kernel"})],
        "cv": [CV()],
        "rule": [Options(set(RULES))],
        "selection": [Options(set(RULES)), Options({DEPRECATED})],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(
        self,
        n_components=2,
        *,
        scale=True,
        algorithm="nipals",
        cv=10,
        rule="min",
        selection=DEPRECATED,
        max_iter=500,
        tol=1e-12,
    ):
        self.n_components = n_components
        self.scale = scale
        self.algorithm = algorithm
        self.cv = cv
        self.rule = rule
        self.selection = selection
        self.max_iter = max_iter
        self.tol = tol

    def _run(self, Xs, Yc, k, stop_at_rank):
        # matrix-vector products: one BLAS thread (threads only contend on a busy machine)
        n, p = Xs.shape
        XtX = None
        if self.algorithm == "kernel":
            with single_blas_thread(n * p * p, quiet_above=PRODUCT_THREADS_FROM):
                XtX = gram(Xs)
        with single_blas_thread(n * p * Yc.shape[1]):
            if self.algorithm == "nipals":
                return algo.nipals(
                    Xs, Yc, k, tol=self.tol, max_iter=self.max_iter, stop_at_rank=stop_at_rank
                )
            if self.algorithm == "simpls":
                return algo.simpls(Xs, Yc, k, stop_at_rank=stop_at_rank)
            return algo.kernel_pls(Xs, Yc, k, XtX, stop_at_rank=stop_at_rank)

    def _path_coefficients(self, X, Y, k):
        """Raw coefficients ``(k, p, m)`` and intercepts of a fit on ``X, Y`` (a CV segment)."""
        mean, y_mean = X.mean(axis=0), Y.mean(axis=0)
        sd = column_scale(X, mean, self.scale)
        path = self._run(standardise(X, mean, sd), Y - y_mean, k, stop_at_rank=True)
        return raw_coefficients(path.coefficients(), mean, sd, y_mean)

    @fit_context
    def fit(self, X, y):
        """Fit the PLS components and the regression on them.

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
        self.x_mean_ = X.mean(axis=0)
        self.y_mean_ = Y.mean(axis=0)
        self.x_scale_ = column_scale(X, self.x_mean_, self.scale)
        Xs = standardise(X, self.x_mean_, self.x_scale_)
        Yc = Y - self.y_mean_
        cv = nc == "cv"
        if cv:
            folds, k = max_components_cv(self.cv, X, min(n - 1, p))
        else:
            k = nc
        try:
            path = self._run(Xs, Yc, k, stop_at_rank=cv)
        except algo.RankError as exc:
            raise rank_error(self, k, exc.rank) from None
        if path.y_exhausted is not None:
            warn_y_exhausted(self, path.y_exhausted, k)
        if not path.converged:
            warn_not_converged(self, "the NIPALS inner loop", max_iter=self.max_iter, tol=self.tol)
        coefs, intercepts = raw_coefficients(
            path.coefficients(), self.x_mean_, self.x_scale_, self.y_mean_
        )
        used = k
        if cv:
            self.validation_, used = cross_validate_path(
                self._path_coefficients, X, Y, folds, k, coefs, intercepts, rule=self._rule
            )
        self._store(path, used, Xs, Yc)
        finish_linear(self, coefs, intercepts, used, one_d)
        # without scale=True the scores stay those of X / s (s = 1 unless X is extreme)
        self._x_unit = s
        map_back(self, s)
        return self

    def _store(self, path, k, Xs, Yc):
        self.n_components_ = k
        self.x_weights_ = path.W[:, :k].copy()
        self.x_loadings_ = path.P[:, :k].copy()
        self.x_rotations_ = path.R[:, :k].copy()
        self.y_loadings_ = path.Q[:, :k].copy()
        qq = np.einsum("mk,mk->k", self.y_loadings_, self.y_loadings_)
        self.y_rotations_ = self.y_loadings_ / np.where(qq > 0, qq, 1.0)
        self.x_scores_ = path.T[:, :k].copy()
        self.y_scores_ = path.U[:, :k].copy()
        self.n_iter_ = path.n_iter[:k].copy()
        x_ss = float(np.einsum("ij,ij->", Xs, Xs))
        y_ss = np.einsum("ij,ij->j", Yc, Yc)
        x_expl = path.tsq * np.einsum("pk,pk->k", path.P, path.P)
        y_expl = path.tsq * path.Q**2  # (m, M)
        with np.errstate(divide="ignore", invalid="ignore"):
            x_ratio = x_expl / x_ss if x_ss > 0 else np.zeros_like(x_expl)
            y_total = y_expl.sum(axis=0) / y_ss.sum() if y_ss.sum() > 0 else 0 * x_expl
            # every component of the path, for summary(): X and each response
            self._explained = np.vstack(
                [x_ratio, np.where(y_ss[:, None] > 0, y_expl / y_ss[:, None], 0.0)]
            )
        self.explained_variance_ratio_ = np.vstack([x_ratio[:k], y_total[:k]])
        self._dims = (Xs.shape[0], Xs.shape[1], Yc.shape[1])

    def transform(self, X, y=None):
        """Scores of new rows: ``(X − x_mean_) / x_scale_ @ x_rotations_`` (and ``y``'s).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets), optional

        Returns
        -------
        x_scores : ndarray of shape (n_samples, n_components_)
        y_scores : ndarray of shape (n_samples, n_components_)
            Only when ``y`` is given (the tuple, as scikit-learn): ``(y − y_mean_) @
            y_rotations_``, the responses' scores before ``pls``'s orthogonalisation against
            the earlier ``x`` scores (so they differ from ``y_scores_`` on the training rows).
        """
        check_is_fitted(self, "coef_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        xs = standardise(X, self.x_mean_, self.x_scale_, self._x_unit) @ self.x_rotations_
        if y is None:
            return xs
        Y = read_y_like(y, X.shape[0], self.y_mean_.size)
        return xs, (Y - self.y_mean_) @ self.y_rotations_

    def summary(self) -> ComponentSummary:
        """R's ``summary(fit)``: cumulative % of variance explained, and the CV RMSEP.

        Returns
        -------
        ComponentSummary
            Printable; ``to_frame()`` gives the tables.
        """
        check_is_fitted(self, "coef_")
        return ComponentSummary(self, _R_METHOD[self.algorithm])

    @property
    def _n_features_out(self) -> int:
        return self.n_components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.target_tags.multi_output = True
        tags.regressor_tags.poor_score = True
        return tags


class PLSCanonical(ClassNamePrefixFeaturesOutMixin, PairTransformMixin, TransformerMixin, StatBase):
    """Canonical (symmetric) partial least squares, as scikit-learn's ``PLSCanonical``.

    Parameters
    ----------
    n_components : int, default=2
    scale : bool, default=True
        Standardise the columns of both ``X`` and ``Y`` (divisor ``n − 1``), as scikit-learn.

    Attributes
    ----------
    x_weights_, x_loadings_, x_rotations_ : ndarray of shape (n_features, n_components)
    y_weights_, y_loadings_, y_rotations_ : ndarray of shape (n_targets, n_components)
    x_mean_, x_scale_ : ndarray of shape (n_features,)
        ``x_scale_`` is None without scaling.
    y_mean_, y_scale_ : ndarray of shape (n_targets,)
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    PLSRegression : PLS with ``Y`` predicted from ``X``.
    CCA : canonical correlation analysis.

    Notes
    -----
    PLS-W2A (Wegelin 2000): component :math:`a` maximises :math:`\\mathrm{cov}(X_{(a)} u,
    Y_{(a)} v)` over unit :math:`u, v` (the first singular pair of
    :math:`X_{(a)}^\\top Y_{(a)}`), and each block is deflated by its own scores,
    :math:`X_{(a+1)} = X_{(a)} - t_a p_a^\\top`, :math:`Y_{(a+1)} = Y_{(a)} - s_a c_a^\\top`.
    ``x_rotations_ = W (PᵀW)⁻¹`` maps the standardised ``X`` to its scores. It equals
    scikit-learn's ``PLSCanonical(algorithm="svd")`` (and its NIPALS to that one's tolerance),
    with scikit-learn's sign convention (the largest-magnitude ``x_weights_`` entry positive).
    R's ``pls`` package has no canonical PLS.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.cross_decomposition import PLSCanonical
    >>> rng = np.random.default_rng(0)
    >>> X, Y = rng.normal(size=(20, 3)), rng.normal(size=(20, 2))
    >>> PLSCanonical(n_components=2).fit(X, Y).transform(X).shape
    (20, 2)
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "scale": [Boolean()],
    }

    def __init__(self, n_components=2, *, scale=True):
        self.n_components = n_components
        self.scale = scale

    @fit_context
    def fit(self, X, y):
        """Fit the canonical PLS components.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)

        Returns
        -------
        self
        """
        X, Y, _ = read_xy(self, X, y)
        (X, sx), (Y, sy) = unit_scale(X), unit_scale(Y)
        n, p = X.shape
        check_pairs(self, self.n_components, p, Y.shape[1])
        k = check_n_components(self, n, p)
        self.x_mean_, self.y_mean_ = X.mean(axis=0), Y.mean(axis=0)
        self.x_scale_ = column_scale(X, self.x_mean_, self.scale)
        self.y_scale_ = column_scale(Y, self.y_mean_, self.scale)
        Xs = standardise(X, self.x_mean_, self.x_scale_)
        Ys = standardise(Y, self.y_mean_, self.y_scale_)
        if not np.any(Ys):
            raise ValueError(
                "PLSCanonical: y is constant (zero variance in every column): there is no "
                "covariance with X to decompose."
            )
        try:
            out = algo.canonical_pls(Xs, Ys, k)
        except algo.RankError as exc:
            raise rank_error(self, k, exc.rank) from None
        for name in ("x_weights", "y_weights", "x_loadings", "y_loadings"):
            setattr(self, name + "_", out[name])
        self.x_rotations_ = algo.projection(out["x_weights"], out["x_loadings"])
        self.y_rotations_ = algo.projection(out["y_weights"], out["y_loadings"])
        self.n_components_ = k
        self._units = (sx, sy)  # scores of X / sx and Y / sy without scaling
        self.x_mean_, self.y_mean_ = self.x_mean_ * sx, self.y_mean_ * sy
        if self.scale:
            self.x_scale_, self.y_scale_ = self.x_scale_ * sx, self.y_scale_ * sy
        return self

    def transform(self, X, y=None):
        """Scores of ``X`` (and of ``y`` when given).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets), optional

        Returns
        -------
        x_scores : ndarray of shape (n_samples, n_components)
        y_scores : ndarray of shape (n_samples, n_components)
            Only when ``y`` is given: the tuple ``(x_scores, y_scores)``, as scikit-learn.
        """
        check_is_fitted(self, "x_rotations_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        sx, sy = self._units
        xs = standardise(X, self.x_mean_, self.x_scale_, sx) @ self.x_rotations_
        if y is None:
            return xs
        Y = read_y_like(y, X.shape[0], self.y_mean_.size)
        return xs, standardise(Y, self.y_mean_, self.y_scale_, sy) @ self.y_rotations_

    @property
    def _n_features_out(self) -> int:
        return self.n_components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags
