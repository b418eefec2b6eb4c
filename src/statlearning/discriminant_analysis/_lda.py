"""Linear discriminant analysis: :class:`LinearDiscriminantAnalysis`."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy import linalg
from sklearn.base import ClassNamePrefixFeaturesOutMixin
from sklearn.utils.validation import check_is_fitted

from .. import _dask
from .._core.class_labels import encode_class_labels, resolve_priors
from .._core.compiled import kernel_array
from .._core.discriminant import (
    class_means,
    fisher_directions,
    fisher_directions_eigen,
    lda_whitener_from_r,
    ledoit_wolf_shrinkage,
    linear_discriminants,
    shrink_covariance,
    stacked_r_factor,
    standardised_fourth_moment_sum,
    within_r_factor,
    within_r_from_blocks,
    within_scatter,
)
from .._core.linalg import symmetric_eigh
from .._core.scaling import max_abs, scale_for, times
from .._validation import ArrayLike, Interval, Options, validate_data
from ..base import ClassifierMixin, StatBase, TransformerMixin, fit_context
from ..exceptions import warn_data_scale
from ._common import DiscriminantMixin, feature_names, row_blocks
from ._format import format_linear, formula_names


class LinearDiscriminantAnalysis(
    ClassNamePrefixFeaturesOutMixin, ClassifierMixin, TransformerMixin, DiscriminantMixin, StatBase
):
    """Linear discriminant analysis and Fisher's discriminant coordinates.

    The classes are modelled as Gaussians with a common covariance matrix.

    Parameters
    ----------
    solver : {"svd", "eigen"}, default="svd"
        - ``"svd"``: MASS's algorithm. The centred data are reduced to a triangular factor by
          a blocked QR (no copy of ``X``) whose SVD whitens the within-class covariance without
          squaring its condition number; a second SVD gives Fisher's directions.
        - ``"eigen"``: the within-class covariance is formed explicitly and Fisher's
          directions solve the generalised eigenproblem ``S_B v = λ S_W v`` (Welling eq. 13.11).
          Faster for very tall data; needed for ``shrinkage``.
    covariance : {"pooled", "total"}, default="pooled"
        ``"pooled"``: the within-class covariance ``Σ_k Σ_{i∈k}(x_i − μ_k)(x_i − μ_k)ᵀ/(n − K)``
        (MASS, ISLR). ``"total"``: the covariance of all the training data about the overall
        mean, divisor ``n − 1`` — what the lecture notes' printed discriminants use (Boily E14);
        it then replaces the within-class covariance everywhere (discriminants, directions).
    priors : array-like of shape (n_classes,), default=None
        Prior probabilities (order of ``classes_``); default: the class proportions.
    shrinkage : "auto" or float in [0, 1], default=None
        Only with ``solver="eigen"``. A float ``α`` uses ``(1 − α)Σ + α (tr Σ/p) I``
        (scikit-learn's definition). ``"auto"`` shrinks the correlation matrix toward the
        identity (so ``Σ`` moves toward its diagonal) with the Ledoit–Wolf (2004) intensity,
        estimated from the pooled standardised residuals ``(x_i − μ_{y_i})/s``
        (scikit-learn estimates one intensity per class); the value used is ``shrinkage_``.
    n_components : int, default=None
        Number of discriminant coordinates returned by :meth:`transform`; at most
        ``min(n_classes − 1, n_features)``. Default: all of them.
    tol : float, default=1e-4
        MASS's ``tol``: a standardised within-class singular value at most ``tol`` means the
        covariance is singular; between-class singular values at most ``tol`` times the
        largest are dropped. Data whose largest ``|x|`` is beyond ``2^±200`` (about
        ``1e±60``) are fitted on ``X`` divided by a power of two that brings it into
        ``[0.5, 1)``, so ``tol`` applies to them on that scale (the other results are mapped
        back exactly).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    priors_ : ndarray of shape (n_classes,)
    means_ : ndarray of shape (n_classes, n_features)
        Class means (MASS's ``means``).
    class_count_ : ndarray of shape (n_classes,)
    covariance_ : ndarray of shape (n_features, n_features)
        The covariance used: pooled or total, after shrinkage.
    shrinkage_ : float or None
        The shrinkage intensity applied (the Ledoit–Wolf value for ``"auto"``).
    scalings_ : ndarray of shape (n_features, rank)
        MASS's ``scaling``: Fisher's discriminant directions, normalised so that the
        within-class covariance of the scores is the identity. Each column is defined up to
        sign; the sign is fixed so that its largest entry in absolute value is positive.
    svd_ : ndarray of shape (rank,)
        MASS's ``svd``: ratios of between- to within-class standard deviations of the
        coordinates.
    explained_variance_ratio_ : ndarray of shape (n_components_,)
        MASS's "proportion of trace", ``svd_² / Σ svd_²``.
    xbar_ : ndarray of shape (n_features,)
        The prior-weighted mean of the class means, ``Σ π_k μ_k``: the centre of
        :meth:`transform`.
    n_components_ : int
    discriminant_functions_ : ndarray of shape (n_classes, n_features + 1)
        Rows ``[c_k0, c_k]`` of ``δ_k(x) = c_k0 + c_kᵀx``; see :meth:`format_discriminants`.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    QuadraticDiscriminantAnalysis : one covariance per class.
    statlearning.naive_bayes.GaussianNB : diagonal class covariances.

    Notes
    -----
    With Gaussian classes :math:`N(\\mu_k, \\Sigma)` and priors :math:`\\pi_k`, the Bayes rule
    picks the largest discriminant (Boily §3.2.2, ISLR eq. 4.19)

    .. math:: \\delta_k(x) = x^\\top\\Sigma^{-1}\\mu_k - \\tfrac12\\mu_k^\\top\\Sigma^{-1}\\mu_k
              + \\log\\pi_k = c_{k0} + c_k^\\top x,

    and the posterior is the softmax
    :math:`\\hat p_k(x) = e^{\\delta_k(x)}/\\sum_j e^{\\delta_j(x)}`.
    Fisher's view (Welling §13) maximises :math:`J(w) = w^\\top S_B w / w^\\top S_W w`; its
    solutions, at most :math:`K-1` directions, are ``scalings_``, and :meth:`transform`
    projects ``x − xbar_`` onto them (reduced-rank LDA).

    Mapping to R: ``MASS::lda(X, g, prior = priors, tol = tol)`` — ``means_``, ``scalings_``
    (up to column signs), ``svd_`` and ``predict(fit)$posterior``/``$class``/``$x`` are
    reproduced (MASS's "moment" method, divisor ``n − K``). scikit-learn 1.9 divides the
    pooled covariance by ``n``, so its posteriors differ slightly. The notes' printed
    Gapminder discriminants are ``covariance="total"``.

    Examples
    --------
    >>> from statlearning.datasets import load_iris
    >>> from statlearning.discriminant_analysis import LinearDiscriminantAnalysis
    >>> X, y = load_iris(return_X_y=True)
    >>> lda = LinearDiscriminantAnalysis().fit(X, y)
    >>> lda.explained_variance_ratio_.round(4)
    array([0.9912, 0.0088])
    """

    _parameter_constraints = {
        "solver": [Options({"svd", "eigen"})],
        "covariance": [Options({"pooled", "total"})],
        "priors": [None, ArrayLike()],
        "shrinkage": [None, Options({"auto"}), Interval(Real, 0, 1, closed="both")],
        "n_components": [None, Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        *,
        solver="svd",
        covariance="pooled",
        priors=None,
        shrinkage=None,
        n_components=None,
        tol=1e-4,
    ):
        self.solver = solver
        self.covariance = covariance
        self.priors = priors
        self.shrinkage = shrinkage
        self.n_components = n_components
        self.tol = tol

    @fit_context
    def fit(self, X, y):
        """Estimate the class means, the common covariance and Fisher's directions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels of any type.

        Returns
        -------
        self : LinearDiscriminantAnalysis
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        scale = scale_for(X)  # data near float64's ends: fitted on X / scale, mapped back
        X = kernel_array(X if scale is None else X / scale)
        self.classes_, codes = encode_class_labels(y, type(self).__name__)
        counts, means = class_means(X, codes, self.classes_.size)
        self._fit_moments(_InMemory(X, codes, means), counts, means)
        if scale is not None:
            self._unscale(scale, float(max_abs(X)) * scale)
        return self

    def _fit_dask(self, X, y):
        """``fit`` on Dask collections: the class means in one pass, then the within-class
        triangular factor (``solver="svd"``, TSQR of the centred rows) or scatter matrix
        (``"eigen"``) in another; ``shrinkage="auto"`` adds a pass for the Ledoit–Wolf
        fourth moments."""
        rows, wsum, means, _ = _dask.class_moments(self, X, y)
        counts = wsum[:, 0].copy() if wsum.shape[1] else np.zeros(self.classes_.size)
        self._fit_moments(_Blocks(rows, self.classes_, means, counts), counts, means)
        return self

    def _fit_moments(self, data, counts, means) -> None:
        """Everything after the class means; ``data`` gives the within-class scatter."""
        name = type(self).__name__
        n, p = data.n, means.shape[1]
        K = self.classes_.size
        if self.shrinkage is not None and self.solver != "eigen":
            raise ValueError(f"{name}: shrinkage requires solver='eigen'; got solver='svd'.")
        max_components = min(K - 1, p)
        if self.n_components is not None and self.n_components > max_components:
            raise ValueError(
                f"{name}: n_components={self.n_components} cannot exceed "
                f"min(n_classes - 1, n_features) = {max_components}."
            )
        priors = resolve_priors(self.priors, counts, name)
        total = self.covariance == "total"
        divisor = n - 1 if total else n - K
        if divisor <= 0:
            raise ValueError(
                f"{name}: {n} samples in {K} classes leave no degrees of freedom for the "
                f"{'total' if total else 'pooled within-class'} covariance (divisor "
                f"{'n − 1' if total else 'n − K'} = {divisor})."
            )
        grand = counts @ means / n
        extra = np.sqrt(counts)[:, None] * (means - grand) if total else None
        if self.solver == "svd":
            precision_times, scalings, svd = self._fit_svd(data, means, priors, extra)
        else:
            precision_times, scalings, svd = self._fit_eigen(data, means, priors, extra)
        if scalings.shape[1] == 0:
            raise ValueError(f"{name}: the class means are numerically identical.")
        big = np.argmax(np.abs(scalings), axis=0)
        scalings = scalings * np.sign(scalings[big, np.arange(scalings.shape[1])])
        self.xbar_ = priors @ means
        funcs, self._coef_centred, self._intercept_centred = linear_discriminants(
            precision_times, means, priors, self.xbar_
        )
        self.priors_, self.means_, self.class_count_ = priors, means, counts
        self.discriminant_functions_ = funcs
        self.scalings_, self.svd_ = scalings, svd
        rank = svd.size
        self.n_components_ = min(rank, self.n_components or max_components)
        self.explained_variance_ratio_ = (svd**2 / np.sum(svd**2))[: self.n_components_]

    def _unscale(self, s, magnitude):
        """Map a fit on ``X / s`` back to ``X``: locations by ``s``, the covariance by ``s²``,
        directions and discriminant coefficients by ``1/s`` (scores do not change)."""
        self.means_, self.xbar_ = self.means_ * s, self.xbar_ * s
        self.scalings_ = self.scalings_ / s
        self._coef_centred = self._coef_centred / s
        funcs = self.discriminant_functions_.copy()
        funcs[:, 1:] /= s
        self.discriminant_functions_ = funcs
        self.covariance_ = times(self.covariance_, s, 2)
        if not np.all(np.isfinite(self.covariance_) & (np.diag(self.covariance_) > 0)):
            warn_data_scale(self, ["covariance_"], magnitude)

    def _whitening_errors(self, sd, singular_values, shrunk=False):
        name = type(self).__name__
        which = "total" if self.covariance == "total" else "pooled within-class"
        constant = np.flatnonzero(sd < self.tol)
        if constant.size and not shrunk:
            names = ", ".join(repr(feature_names(self)[j]) for j in constant)
            raise ValueError(
                f"{name}: feature(s) {names} are constant within classes (standard deviation "
                f"below tol={self.tol}), so the {which} covariance is singular. Drop them, or "
                "use solver='eigen' with shrinkage='auto' or a float in (0, 1]."
            )
        rank = int(np.sum(singular_values > self.tol))
        if rank < sd.size:
            raise ValueError(
                f"{name}: the {which} covariance is singular (numerical rank {rank} < "
                f"{sd.size} features at tol={self.tol}): some features are collinear. Use "
                "solver='eigen' with shrinkage='auto' or a float in (0, 1], or drop redundant "
                "features."
            )

    def _fit_svd(self, data, means, priors, extra):
        n = data.n
        divisor = n - 1 if extra is not None else n - means.shape[0]
        R = data.within_r(extra)
        whitener, sd, d = lda_whitener_from_r(R, n, divisor, self.tol)
        self._whitening_errors(sd, d)
        self.covariance_ = (R.T @ R) / divisor
        self.shrinkage_ = None
        scalings, svd = fisher_directions(whitener, means, priors, n, self.tol)
        return (lambda B: whitener @ (whitener.T @ B)), scalings, svd

    def _fit_eigen(self, data, means, priors, extra):
        n = data.n
        total = extra is not None
        divisor = n - 1 if total else n - means.shape[0]
        W = data.within_scatter()
        if total:
            W += extra.T @ extra
        cov = W / divisor
        sd = np.sqrt(np.diag(W) / (n - 1))
        alpha = self.shrinkage
        if alpha == "auto":
            scale = np.sqrt(np.diag(W) / n)
            scale = np.where(scale > 0, scale, 1.0)
            m4 = data.fourth_moments(total, scale)
            alpha = ledoit_wolf_shrinkage(W / n / np.outer(scale, scale), m4, n)
            d = np.sqrt(np.diag(cov))
            d = np.where(d > 0, d, 1.0)
            cov = np.outer(d, d) * shrink_covariance(cov / np.outer(d, d), alpha)
        elif alpha is not None:
            cov = shrink_covariance(cov, float(alpha))
        shrunk = alpha is not None and alpha > 0
        ref = np.sqrt(np.diag(cov) * divisor / (n - 1))
        ref = np.where(ref > 0, ref, 1.0)
        eig = symmetric_eigh(cov / np.outer(ref, ref), eigvals_only=True, check_finite=False)
        self._whitening_errors(sd, np.sqrt(np.clip(eig, 0.0, None)), shrunk=shrunk)
        self.covariance_ = cov
        self.shrinkage_ = None if alpha is None else float(alpha)
        cho = linalg.cho_factor(cov, lower=False, check_finite=False)
        scalings, svd = fisher_directions_eigen(cov, means, priors, n, self.tol)
        return (lambda B: linalg.cho_solve(cho, B, check_finite=False)), scalings, svd

    def _scores(self, X):
        """``(x − xbar_)ᵀ Σ⁻¹(μ_k − xbar_) − ½ (μ_k − xbar_)ᵀΣ⁻¹(μ_k − xbar_) + log π_k``.

        When the data sit far from the origin relative to their spread, the rows are centred
        first, block by block, so that the product does not lose digits to cancellation;
        otherwise the centring is folded into the intercept (one matrix product).
        """
        return self._affine_scores(X, self._coef_centred, self._intercept_centred)

    def _binary_scores(self, X):
        """Two classes: ``δ_1(x) − δ_0(x)`` by one matrix-vector product (BLAS's product with
        two columns took 4 × one column's time at 100,000 × 100)."""
        A, b = self._coef_centred, self._intercept_centred
        return self._affine_scores(X, A[:, 1:] - A[:, :1], b[1:] - b[:1])[:, 0]

    def _affine_scores(self, X, A, b):
        """``(X − xbar_) A + b``: the centring folded into the intercept (one product), unless
        the data sit far from the origin relative to their spread, where the rows are centred
        block by block so that the product does not lose digits to cancellation."""
        sd = np.sqrt(np.diag(self.covariance_))
        if not np.any(np.abs(self.xbar_) > 1e3 * sd):
            return X @ A + (b - self.xbar_ @ A)
        out = np.empty((X.shape[0], A.shape[1]))
        for s, e in row_blocks(*X.shape):
            out[s:e] = (X[s:e] - self.xbar_) @ A + b
        return out

    def transform(self, X):
        """Fisher's discriminant coordinates (MASS's ``predict(fit)$x``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_components_)
            ``(x − xbar_) @ scalings_[:, :n_components_]``.
        """
        check_is_fitted(self, "scalings_")
        if _dask.is_dask_collection(X):  # lazy, block by block
            return _dask.predict_blocks(self, X, "transform", self.n_components_)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        X = kernel_array(X)
        return (X - self.xbar_) @ self.scalings_[:, : self.n_components_]

    @property
    def _n_features_out(self):
        return self.n_components_

    def format_discriminants(self, digits=3):
        """The discriminant functions written out, one line per class.

        Parameters
        ----------
        digits : int, default=3
            Significant digits of each coefficient.

        Returns
        -------
        str
            Lines ``δ̂_k(x) = c_k0 + c_k1·x1 + …`` (features named by their column names, else
            ``x1 … xp``), e.g. the notes' ``δ̂_0(x) = -4.79 - 0.0638·x1 + 2.66·x2``.
        """
        check_is_fitted(self, "discriminant_functions_")
        return format_linear(
            self.discriminant_functions_, self.classes_, formula_names(self), digits
        )


class _InMemory:
    """The within-class scatter of data in memory, for :meth:`_fit_moments`."""

    def __init__(self, X, codes, means):
        self.X, self.codes, self.means, self.n = X, codes, means, X.shape[0]

    def within_r(self, extra):
        return within_r_factor(self.X, self.codes, self.means, extra)

    def within_scatter(self):
        return within_scatter(self.X, self.codes, self.means)

    def fourth_moments(self, total, scale):
        X, codes, means = self.X, self.codes, self.means
        if total:  # residuals about the overall mean
            counts = np.bincount(codes, minlength=means.shape[0])
            grand = (counts @ means / self.n)[None, :]
            return standardised_fourth_moment_sum(X, np.zeros_like(codes), grand, scale)
        return standardised_fourth_moment_sum(X, codes, means, scale)


def _centred(X, y, classes, means):
    return X - means[np.searchsorted(classes, y)]


def _block_r(X, y, offset, classes, means):
    D = _centred(X, y, classes, means)
    return np.linalg.qr(D, mode="r") if D.shape[0] else np.zeros((0, D.shape[1]))


def _block_scatter(X, y, offset, classes, means):
    D = _centred(X, y, classes, means)
    return D.T @ D


def _add(a, b):
    return a + b


def _block_fourth(X, y, offset, classes, means, scale, grand):
    if grand is not None:  # residuals about the overall mean
        return standardised_fourth_moment_sum(X, np.zeros(X.shape[0], np.intp), grand, scale)
    return standardised_fourth_moment_sum(X, np.searchsorted(classes, y), means, scale)


class _Blocks:
    """The within-class scatter of Dask collections: one more pass over the blocks."""

    def __init__(self, rows, classes, means, counts):
        self.rows, self.classes, self.means, self.n = rows, classes, means, rows.n
        self.counts = counts

    def _pass(self, fn, combine, *args):
        rows = self.rows
        job = _dask.map_reduce(fn, combine, [rows.X, rows.y], rows.offsets, self.classes,
                               self.means, *args)  # fmt: skip
        return _dask.compute(job)[0]

    def within_r(self, extra):
        return within_r_from_blocks(self._pass(_block_r, stacked_r_factor), extra)

    def within_scatter(self):
        W = self._pass(_block_scatter, _add)
        return 0.5 * (W + W.T)

    def fourth_moments(self, total, scale):
        """The Ledoit–Wolf data term: a plain sum over rows once the scale is known (one more
        pass), so the blocks' sums merge exactly."""
        grand = (self.counts @ self.means / self.n)[None, :] if total else None
        return self._pass(_block_fourth, _add, scale, grand)
