"""Canonical correlation analysis, linear (R's ``cancor``) and kernel (seed 002 ch. 14)."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from scipy import linalg
from sklearn.base import ClassNamePrefixFeaturesOutMixin
from sklearn.utils.validation import check_is_fitted

from .._core.compiled import PRODUCT_THREADS_FROM, single_blas_thread
from .._core.linalg import gram, symmetric_eigh
from .._validation import (
    Boolean,
    Interval,
    validate_data,
)
from ..base import StatBase, TransformerMixin, fit_context
from ..exceptions import NumericalWarning, external_stacklevel, warn_unrescaled_scale
from ..kernels import KERNEL_CONSTRAINTS, KernelCenterer, Precomputed, resolve_kernel
from ._common import PairTransformMixin, check_pairs, read_xy, read_y_like, unit_scale

__all__ = ["CCA", "KernelCCA"]

#: Eigenvalues below this fraction of the largest count as zero (rank and pseudo-inverses).
_RTOL = 1e-10


def _whitener(S, block: str, names):
    """Lower Cholesky factor of a (scaled) covariance block; an error naming the block when it
    is singular (collinear columns)."""
    ev = symmetric_eigh(S, eigvals_only=True)
    if ev[0] <= _RTOL * max(ev[-1], 1e-300):
        raise ValueError(
            f"CCA: the columns of {block} are collinear (its covariance matrix is singular"
            f"{'' if names is None else ', columns ' + ', '.join(map(str, names))}; always so "
            "with fewer rows than columns); canonical correlation analysis needs each block "
            "of full column rank (R's cancor drops aliased columns): remove the redundant ones."
        )
    return linalg.cholesky(S, lower=True)


def _sign_fix(A, B):
    """Deterministic signs: the largest-magnitude entry of each column of ``A`` positive
    (the paired column of ``B`` flips with it, keeping the correlation positive)."""
    idx = np.argmax(np.abs(A), axis=0)
    s = np.sign(A[idx, np.arange(A.shape[1])])
    s[s == 0] = 1.0
    return A * s, B * s


class CCA(ClassNamePrefixFeaturesOutMixin, PairTransformMixin, TransformerMixin, StatBase):
    """Canonical correlation analysis, as R's ``stats::cancor``.

    Parameters
    ----------
    n_components : int, default=1
        Number of canonical pairs (at most the smaller number of columns of ``X`` and ``Y``).
    scale : bool, default=True
        Work with standardised columns (better conditioning). The correlations, coefficients
        and variates do not depend on it beyond rounding: the coefficients are always those of
        the raw (centred) variables.

    Attributes
    ----------
    correlations_ : ndarray of shape (n_components,)
        Canonical correlations ρ₁ ≥ ρ₂ ≥ … (R's ``cor``).
    x_coef_ : ndarray of shape (n_features, n_components)
        ``xcoef``: the variates ``(X − x_center_) @ x_coef_`` of the training rows have unit
        sum of squares and are uncorrelated.
    y_coef_ : ndarray of shape (n_targets, n_components)
        ``ycoef``, likewise.
    x_center_, y_center_ : ndarray
        Column means (``xcenter``, ``ycenter``).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    KernelCCA : the kernel version.
    PLSCanonical : covariance instead of correlation.

    Notes
    -----
    With centred blocks and :math:`S_{xx} = X_c^\\top X_c`, :math:`S_{yy}`,
    :math:`S_{xy} = X_c^\\top Y_c` (sums, seed 002 (14.1–14.6)), the pairs solve
    :math:`\\max a^\\top S_{xy} b` s.t. :math:`a^\\top S_{xx} a = b^\\top S_{yy} b = 1`, i.e.
    the generalised symmetric-definite eigenproblem :math:`S_O c = \\lambda S_D c` whose
    positive eigenvalues are the ρ's (the notes' :math:`S_O^{1/2}` does not exist: :math:`S_O`
    is indefinite). It is solved as the SVD of the whitened cross-product
    :math:`L_x^{-1} S_{xy} L_y^{-\\top} = U \\mathrm{diag}(\\rho) V^\\top` (:math:`L L^\\top`
    Cholesky factors), :math:`a = L_x^{-\\top} u`, :math:`b = L_y^{-\\top} v`: R's ``cancor``
    scaling (unit sum of squares, not unit variance). R fixes no signs; here each pair's
    largest-magnitude ``x_coef_`` entry is positive.

    scikit-learn's ``CCA`` (NIPALS, tolerance 1e-6) gives the same correlations to its tolerance
    and scores proportional to these variates; its ``x_rotations_`` are on the standardised
    scale with another normalisation.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.cross_decomposition import CCA
    >>> rng = np.random.default_rng(0)
    >>> Z = rng.normal(size=(50, 1))
    >>> X = np.hstack([Z, rng.normal(size=(50, 2))])
    >>> Y = np.hstack([Z + 0.1 * rng.normal(size=(50, 1)), rng.normal(size=(50, 1))])
    >>> round(float(CCA().fit(X, Y).correlations_[0]), 3)
    0.995
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "scale": [Boolean()],
    }

    def __init__(self, n_components=1, *, scale=True):
        self.n_components = n_components
        self.scale = scale

    @fit_context
    def fit(self, X, y):
        """Fit the canonical pairs.

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
        p, q = X.shape[1], Y.shape[1]
        k = self.n_components
        check_pairs(self, k, p, q)
        self.x_center_, self.y_center_ = X.mean(axis=0), Y.mean(axis=0)
        with single_blas_thread(X.shape[0] * (p + q) ** 2, quiet_above=PRODUCT_THREADS_FROM):
            G = gram(X, center=self.x_center_, extra=Y, extra_center=self.y_center_,
                     center_is_mean=True)  # fmt: skip
        d = np.sqrt(np.diag(G)) if self.scale else np.ones(p + q)
        d[d == 0] = 1.0
        G = G / np.outer(d, d)
        names = getattr(self, "feature_names_in_", None)
        Lx = _whitener(G[:p, :p], "X", None if names is None else list(names))
        Ly = _whitener(G[p:, p:], "Y", None)
        M = linalg.solve_triangular(Lx, G[:p, p:], lower=True)
        M = linalg.solve_triangular(Ly, M.T, lower=True).T
        U, rho, Vt = linalg.svd(M, full_matrices=False)
        A = linalg.solve_triangular(Lx.T, U[:, :k], lower=False) / d[:p, None]
        B = linalg.solve_triangular(Ly.T, Vt[:k].T, lower=False) / d[p:, None]
        A, B = _sign_fix(A, B)
        self.x_coef_, self.y_coef_ = A / sx, B / sy
        self.x_center_, self.y_center_ = self.x_center_ * sx, self.y_center_ * sy
        self.correlations_ = np.clip(rho[:k], 0.0, 1.0)
        return self

    def transform(self, X, y=None):
        """Canonical variates ``(X − x_center_) @ x_coef_`` (and ``y``'s when given).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets), optional

        Returns
        -------
        x_variates : ndarray of shape (n_samples, n_components)
        y_variates : ndarray of shape (n_samples, n_components)
            Only when ``y`` is given: the tuple ``(x_variates, y_variates)``, as scikit-learn.
        """
        check_is_fitted(self, "x_coef_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        u = (X - self.x_center_) @ self.x_coef_
        if y is None:
            return u
        Y = read_y_like(y, X.shape[0], self.y_center_.size)
        return u, (Y - self.y_center_) @ self.y_coef_

    @property
    def _n_features_out(self) -> int:
        return self.n_components

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags


def _inverse_sqrt_factors(K, reg):
    """Eigen-decomposition of a centred Gram and the two diagonal factors of its regularised
    square: ``λ / √(λ² + η)`` and ``1 / √(λ² + η)`` (pseudo-inverse where λ ≈ 0 and η = 0)."""
    lam, V = symmetric_eigh(K)
    keep = np.abs(lam) > _RTOL * max(np.abs(lam).max(), 1e-300)
    denom = np.sqrt(lam**2 + reg)
    with np.errstate(divide="ignore", invalid="ignore"):
        inv = np.where(keep | (reg > 0), 1.0 / denom, 0.0)
    inv[~np.isfinite(inv)] = 0.0
    return V, lam * inv, inv


class KernelCCA(TransformerMixin, StatBase):
    """Regularised kernel canonical correlation analysis (seed 002 (14.7–14.15)).

    Parameters
    ----------
    n_components : int, default=1
        Number of canonical pairs.
    kernel : str, Kernel or callable, default="rbf"
        Kernel of the ``X`` view: ``"linear"``, ``"poly"``, ``"rbf"``, ``"sigmoid"``,
        ``"laplacian"``, ``"cosine"``, a kernel object or a callable (as
        :func:`statlearning.kernels.resolve_kernel`); ``"precomputed"`` is not supported.
    kernel_y : str, Kernel, callable or None, default=None
        Kernel of the ``Y`` view; None: the same as ``kernel`` (resolved on ``Y``).
    gamma : {"scale", "auto"}, float or None, default=None
        γ of the named kernels (None: ``1 / n_features`` of each view).
    degree : int, default=3
    coef0 : float, default=1.0
    reg : float, default=0.1
        η of the notes: the constraints are :math:`\\alpha^\\top (K_x^2 + \\eta I)\\alpha = N`.
        With ``reg=0`` every correlation degenerates to 1 (a warning says so).

    Attributes
    ----------
    correlations_ : ndarray of shape (n_components,)
        Regularised canonical correlations λ₁ ≥ λ₂ ≥ ….
    x_dual_coef_, y_dual_coef_ : ndarray of shape (n_samples, n_components)
        α and β: the variates are ``K_c(x, X_fit_) @ x_dual_coef_``.
    kernel_, kernel_y_ : Kernel
        The resolved kernels.
    X_fit_, Y_fit_ : ndarray
        The training views (needed to evaluate the test kernels).
    n_features_in_ : int

    See Also
    --------
    CCA : the linear version.

    Notes
    -----
    With the centred Gram matrices :math:`K_x, K_y` (seed 002 (12.14); the zero-mean
    assumption of (14.1) carried to feature space), the pairs solve (14.12–14.15)

    .. math::

        \\begin{pmatrix} 0 & K_x K_y \\\\ K_y K_x & 0 \\end{pmatrix}
        \\begin{pmatrix} \\alpha \\\\ \\beta \\end{pmatrix} = \\lambda
        \\begin{pmatrix} K_x^2 + \\eta I & 0 \\\\ 0 & K_y^2 + \\eta I \\end{pmatrix}
        \\begin{pmatrix} \\alpha \\\\ \\beta \\end{pmatrix},

    solved as the SVD of :math:`C_x^{-1/2} K_x K_y C_y^{-1/2}` (:math:`C = K^2 + \\eta I`,
    from the eigen-decompositions of :math:`K_x` and :math:`K_y`), with
    :math:`\\alpha = \\sqrt N\\, C_x^{-1/2} u`, so that :math:`\\alpha^\\top C_x \\alpha = N`. A
    test point's variate is :math:`\\sum_i \\alpha_i \\tilde k_x(x, x_i)` with the test kernel
    centred by the training means (12.17–12.18). Without η, when :math:`K_x` is invertible,
    :math:`\\alpha = \\lambda^{-1} K_x^{-1} K_y \\beta` and λ = 1 (L1101–1105): perfect and
    meaningless correlation. With the linear kernel and η → 0 the correlations are
    :class:`CCA`'s and the variates :math:`\\sqrt N` times its variates. η is the notes' η (it
    is added to :math:`K^2`, not to :math:`K`); choose it by cross-validation.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.cross_decomposition import KernelCCA
    >>> rng = np.random.default_rng(0)
    >>> t = rng.uniform(-1, 1, size=(60, 1))
    >>> X, Y = np.hstack([t, t**2]), np.cos(3 * t) + 0.05 * rng.normal(size=(60, 1))
    >>> kcca = KernelCCA(kernel="rbf", gamma=1.0, reg=0.1).fit(X, Y)
    >>> kcca.transform(X).shape
    (60, 1)
    """

    _parameter_constraints: dict = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        **KERNEL_CONSTRAINTS,
        "kernel_y": [None, *KERNEL_CONSTRAINTS["kernel"]],
        "reg": [Interval(Real, 0, None, closed="left")],
    }

    def __init__(
        self,
        n_components=1,
        *,
        kernel="rbf",
        kernel_y=None,
        gamma=None,
        degree=3,
        coef0=1.0,
        reg=0.1,
    ):
        self.n_components = n_components
        self.kernel = kernel
        self.kernel_y = kernel_y
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.reg = reg

    def _resolve(self, kernel, data, which):
        k = resolve_kernel(kernel, gamma=self.gamma, degree=self.degree, coef0=self.coef0, X=data)
        if isinstance(k, Precomputed):
            raise ValueError(
                f"KernelCCA: {which}='precomputed' is not supported; pass the data and a "
                "kernel (name, kernel object or callable)."
            )
        return k

    @fit_context
    def fit(self, X, y):
        """Fit the regularised kernel canonical pairs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets)

        Returns
        -------
        self
        """
        X, Y, _ = read_xy(self, X, y)
        n = X.shape[0]
        k = self.n_components
        if k > n - 1:
            raise ValueError(
                f"n_components={k} exceeds n_samples - 1 = {n - 1}, the rank of a centred Gram "
                "matrix."
            )
        # kernels are not scale-equivariant: extreme data are the user's to rescale
        warn_unrescaled_scale(self, X, "X") or warn_unrescaled_scale(self, Y, "y")
        self.kernel_ = self._resolve(self.kernel, X, "kernel")
        self.kernel_y_ = self._resolve(
            self.kernel if self.kernel_y is None else self.kernel_y, Y, "kernel_y"
        )
        Kx, Ky = self.kernel_(X), self.kernel_y_(Y)
        for K, view in ((Kx, "X"), (Ky, "y")):
            if not np.all(np.isfinite(K)):
                raise ValueError(
                    f"KernelCCA: the Gram matrix of {view} holds NaN or infinite values (the "
                    f"kernel overflows at this scale of {view}); rescale {view} or choose "
                    "another kernel."
                )
        self._center_x = KernelCenterer().fit(Kx)
        self._center_y = KernelCenterer().fit(Ky)
        Vx, fx, ix = _inverse_sqrt_factors(self._center_x.transform(Kx), self.reg)
        Vy, fy, iy = _inverse_sqrt_factors(self._center_y.transform(Ky), self.reg)
        # C_x^{-1/2} K_x K_y C_y^{-1/2} = Vx diag(fx) Vxᵀ Vy diag(fy) Vyᵀ
        core = (fx[:, None] * (Vx.T @ Vy)) * fy[None, :]
        u, s, vt = linalg.svd(core)
        root_n = np.sqrt(n)
        alpha = Vx @ (ix[:, None] * u[:, :k]) * root_n
        beta = Vy @ (iy[:, None] * vt[:k].T) * root_n
        self.x_dual_coef_, self.y_dual_coef_ = alpha, beta
        self.correlations_ = np.clip(s[:k], 0.0, 1.0)
        self.X_fit_, self.Y_fit_ = X, Y
        self._warn_degenerate()
        return self

    def _warn_degenerate(self):
        if self.reg == 0:
            warnings.warn(
                "KernelCCA: without regularisation (reg=0) the kernel canonical correlations "
                "degenerate to 1 whenever the Gram matrices are invertible (seed 002, "
                "(14.11)): the fit interpolates. Use reg > 0 (chosen by cross-validation).",
                NumericalWarning,
                stacklevel=external_stacklevel(),
            )
        elif self.correlations_.size and self.correlations_[0] > 1 - 1e-6:
            warnings.warn(
                f"KernelCCA: the first canonical correlation is {self.correlations_[0]:.8f}, "
                f"perfect up to rounding: reg={self.reg} is too small to prevent the kernel "
                "CCA from interpolating; increase reg.",
                NumericalWarning,
                stacklevel=external_stacklevel(),
            )

    def transform(self, X, y=None):
        """Canonical variates of new rows, by the centred test kernels.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,) or (n_samples, n_targets), optional

        Returns
        -------
        x_variates : ndarray of shape (n_samples, n_components)
        y_variates : ndarray of shape (n_samples, n_components)
            Only when ``y`` is given: the tuple ``(x_variates, y_variates)``.
        """
        check_is_fitted(self, "x_dual_coef_")
        X = validate_data(self, X, reset=False, dtype=np.float64)
        u = self._center_x.transform(self.kernel_(X, self.X_fit_)) @ self.x_dual_coef_
        if y is None:
            return u
        Y = read_y_like(y, X.shape[0], self.Y_fit_.shape[1])
        return u, self._center_y.transform(self.kernel_y_(Y, self.Y_fit_)) @ self.y_dual_coef_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags
