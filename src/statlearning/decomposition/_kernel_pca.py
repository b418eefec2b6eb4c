"""Kernel principal component analysis: PCA of the centred feature vectors, from the centred
Gram matrix (seed 002 (12.6–12.18); seed 001 part 2 §8.2)."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from scipy.sparse.linalg import eigsh
from sklearn.base import ClassNamePrefixFeaturesOutMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._core.linalg import symmetric_eigh
from .._core.scaling import max_abs, scale_for, times
from .._validation import Boolean, Interval, Options, RandomState
from ..base import StatBase, TransformerMixin, fit_context
from ..exceptions import (
    NumericalWarning,
    external_stacklevel,
    warn_data_scale,
    warn_unrescaled_scale,
)
from ..kernel_methods import KernelRidge
from ..kernels import (
    KERNEL_CONSTRAINTS,
    RBF,
    AllSubsets,
    Constant,
    Cosine,
    Exponential,
    Laplacian,
    Linear,
    Normalized,
    Polynomial,
    Precomputed,
    Product,
    Rescaled,
    Scaled,
    Spectrum,
    Sum,
    center_kernel,
    fitted_kernel,
    gram_times,
    is_precomputed,
    pairwise_tags,
    read_X,
    training_gram,
)
from ._pca import _flip_signs, check_n_components, n_retained, range_finder

__all__ = ["KernelPCA"]

#: Relative size (times n · machine epsilon) below which an eigenvalue of the centred Gram
#: counts as zero.
_RANK_TOL = 10.0
#: Relative size of a negative eigenvalue that makes the Gram "not positive semi-definite".
_PSD_TOL = 1e-8


def _known_psd(kernel) -> bool:
    """Whether ``kernel`` is positive semi-definite by construction (no check needed)."""
    if isinstance(kernel, (Linear, RBF, Laplacian, Cosine, AllSubsets, Spectrum, Constant)):
        return True
    if isinstance(kernel, Polynomial):
        d = kernel.degree
        return float(d) == int(d) and d >= 1 and kernel.coef0 >= 0
    if isinstance(kernel, (Sum, Product)):
        return _known_psd(kernel.k1) and _known_psd(kernel.k2)
    if isinstance(kernel, (Scaled, Normalized, Exponential)):
        return _known_psd(kernel.kernel)
    return False


def _homogeneous_scale(kernel, X):
    """``(s, degree)`` for data that the linear or cosine kernel (homogeneous of degree 2,
    resp. 0, in ``X``) should see divided by the power of two ``s``; ``(None, 0)`` else."""
    if type(kernel) not in (Linear, Cosine) or X.dtype.kind != "f":
        return None, 0
    s = scale_for(X)
    return s, (2 if type(kernel) is Linear else 0)


def _top_eigen(Kc, k, solver, rng, iterated_power, n_oversamples):
    """The ``k`` largest eigenvalues (decreasing) and unit eigenvectors of the symmetric
    ``Kc``; ``k=None`` is every eigenvalue (dense solver). ``Kc`` may be overwritten."""
    n = Kc.shape[0]
    if solver == "dense":
        # Kc is symmetric: its transpose is the Fortran-ordered array LAPACK works on in place
        subset = None if k is None else [n - k, n - 1]
        w, v = symmetric_eigh(Kc.T, subset_by_index=subset, overwrite_a=True, check_finite=False)
    elif solver == "arpack":
        v0 = rng.uniform(-1, 1, n)
        w, v = eigsh(Kc, k, which="LA", v0=v0)
    else:
        size = min(k + n_oversamples, n)
        Q = range_finder(Kc.dot, Kc.dot, n, size, iterated_power, rng)
        T = Q.T @ (Kc @ Q)
        w, u = symmetric_eigh((T + T.T) / 2, check_finite=False)
        v = Q @ u
        order = np.argsort(np.abs(w))[::-1][:k]  # the k of largest modulus (Halko's 5.3)
        w, v = w[order], v[:, order]
    order = np.argsort(w)[::-1]
    return w[order], v[:, order]


class KernelPCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, StatBase):
    """Kernel principal component analysis: PCA in the feature space of a kernel.

    Parameters
    ----------
    n_components : None, int, float or str, default=None
        How many components to keep:

        - ``None``: every component with a positive eigenvalue (zero eigenvalues, the null
          space of the centred Gram, are dropped);
        - int ``k``: the first ``k``; more than the rank of the centred Gram (its number of
          positive eigenvalues) is an error;
        - float ``t`` in ``(0, 1)``: the smallest number whose cumulative proportion of
          feature-space variance reaches ``t``;
        - ``"cumulative:t"``, ``"individual:t"``, ``"kaiser"``, ``"elbow"``: the retention
          rules of :func:`~statlearning.decomposition.retained_components`, on the positive
          eigenvalues.

        A float or a rule needs the whole spectrum (the dense solver).
    kernel : str, Kernel or callable, default="linear"
        ``"linear"``, ``"poly"``, ``"rbf"``, ``"sigmoid"``, ``"laplacian"``, ``"cosine"``,
        ``"precomputed"`` (``X`` is then the Gram matrix), a kernel object of
        :mod:`statlearning.kernels` or a callable ``f(X, Y)`` returning the Gram matrix.
    gamma : {"scale", "auto"}, float, array-like or None, default=None
        γ of the named kernels; None and ``"auto"`` mean ``1 / n_features`` (scikit-learn's
        default), ``"scale"`` ``1 / (n_features · X.var())``.
    degree : int, default=3
        Degree of ``"poly"``.
    coef0 : float, default=1.0
        Offset of ``"poly"`` and ``"sigmoid"``.
    eigen_solver : {"auto", "dense", "arpack", "randomized"}, default="auto"
        - ``"dense"``: LAPACK's symmetric eigensolver on the centred Gram (only the leading
          ``k`` eigenpairs when ``n_components`` is an integer);
        - ``"arpack"``: Lanczos iterations (SciPy's ``eigsh``), for a few components of a
          large Gram;
        - ``"randomized"``: Halko, Martinsson & Tropp's randomised range finder followed by
          the eigen-decomposition of the projected matrix (their Algorithm 5.3);
        - ``"auto"``: scikit-learn's rule: ``"arpack"`` when ``n_components`` is an integer
          below 10 and there are more than 200 samples, else ``"dense"``.

        ``"arpack"`` and ``"randomized"`` need an integer ``n_components``. The solver used
        is recorded in ``solver_``.
    iterated_power : int or "auto", default="auto"
        Power iterations of the randomised solver; ``"auto"`` is 7 when ``n_components`` is
        below a tenth of the samples, else 4 (scikit-learn's rule).
    n_oversamples : int, default=10
        Extra random directions of the randomised solver.
    fit_inverse_transform : bool, default=False
        Learn the pre-image map (:meth:`inverse_transform`) by kernel ridge regression from
        the training scores to the training points (not with a precomputed kernel).
    alpha : float, default=1.0
        Ridge penalty of that regression.
    random_state : None, int or RandomState, default=None
        Seeds the starting vector of ``"arpack"`` and the draws of ``"randomized"``.

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (n_components_,)
        Eigenvalues λ of the centred Gram matrix ``K^c``, decreasing (scikit-learn's
        ``eigenvalues_``; the notes' λ̃ = Nλ of (12.8)).
    eigenvectors_ : ndarray of shape (n_samples, n_components_)
        Unit eigenvectors ``u`` of ``K^c``; each sign fixed so that its largest-magnitude
        entry is positive.
    dual_coef_ : ndarray of shape (n_samples, n_components_)
        The expansion coefficients ``α = u / √λ`` (the notes' normalisation (12.9),
        ``‖α‖ = 1/√λ``): a point's score is ``Σᵢ αᵢ K^c(xᵢ, x)``.
    explained_variance_ : ndarray of shape (n_components_,)
        Variances of the components in feature space, ``λ / N`` (divisor N, the notes'
        covariance (12.1); kernlab's ``eig``).
    explained_variance_ratio_ : ndarray of shape (n_components_,)
        ``λ / trace(K^c)``: proportions of the total feature-space variance.
    total_variance_ : float
        ``trace(K^c) / N``, the total feature-space variance.
    n_components_ : int
        Number of components kept.
    K_fit_rows_ : ndarray of shape (n_samples,)
        Column means κ(xⱼ) of the training Gram (test centring (12.17)).
    K_fit_all_ : float
        Grand mean k̄ of the training Gram.
    X_fit_ : ndarray of shape (n_samples, n_features) or None
        The training points (needed to project new points; None for a precomputed kernel).
    kernel_ : Kernel
        The resolved kernel object.
    inverse_regressor_ : KernelRidge
        The pre-image regression (only with ``fit_inverse_transform=True``).
    solver_ : {"dense", "arpack", "randomized"}
        The eigensolver used.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Column names, when ``X`` had string column names.

    See Also
    --------
    statlearning.decomposition.PCA : The linear-kernel special case, with R's conventions.
    statlearning.kernels.KernelCenterer : The centring of training and test Gram matrices.

    Notes
    -----
    With φ the kernel's feature map and φ̄ the mean of the training features, kernel PCA finds
    the directions of largest variance of the centred features,

    .. math:: \\max_{\\lVert u\\rVert = 1} \\frac{1}{N} \\sum_i \\langle u,
        \\varphi(x_i) - \\bar\\varphi \\rangle^2 ,

    through the eigenproblem of the centred Gram ``K^c = K − 1K − K1 + 1K1`` (``1 = 11ᵀ/N``,
    seed 002 (12.12–12.16)): ``K^c u = λ u``, ``α = u/√λ`` (12.8–12.9). A training point's
    score on component ``a`` is ``√λ_a u_{ia}``; a new point ``t`` is centred with the
    training statistics, ``K^c(t, xⱼ) = K(t, xⱼ) − κ(t) − κ(xⱼ) + k̄`` (12.17–12.18), and
    projected as ``Σⱼ αⱼ K^c(t, xⱼ)`` (12.10). With the linear kernel the scores are those of
    :class:`~statlearning.decomposition.PCA` (up to sign), and ``explained_variance_`` is
    PCA's times ``(N − 1)/N``.

    The eigenvalues of a positive semi-definite kernel are ≥ 0; a kernel that is not (the
    sigmoid, some callables, an indefinite precomputed Gram) raises a ``NumericalWarning``
    when a clearly negative eigenvalue appears, and negative eigenvalues are never kept.

    Mapping to scikit-learn's ``KernelPCA``: the same kernels, parameters and scores
    (``eigenvalues_``, ``eigenvectors_`` up to sign); its ``remove_zero_eig`` is always on
    here, and ``n_components`` larger than the rank is an error rather than zero columns.
    Mapping to R's ``kernlab::kpca(x, kernel, kpar, features = k)`` (``rbfdot(sigma = γ)`` is
    our ``"rbf"`` with ``gamma=γ``): ``eig`` is ``explained_variance_``, ``pcv`` is
    ``√N · dual_coef_``, and ``rotated`` and ``predict(fit, newdata)`` are ``√N`` times our
    scores (kernlab takes the eigenvectors of ``K^c/N``, so its α has norm
    ``1/√(λ/N)``). kernlab's ``predict`` adds the grand mean divided by ``m·n`` instead of
    ``m²``, which is harmless: the components sum to zero.

    Data near the ends of float64 (beyond about ``1e±60``) with the linear or cosine
    kernel, which are homogeneous in ``X`` (``k(cx, cy) = c²k(x, y)``, resp. ``k(x, y)``),
    are fitted on ``X / s`` (``s`` a power of two, exact) and the results mapped back:
    scores by ``s`` (``1`` for cosine), eigenvalues and variances by ``s²``, ``dual_coef_``
    by ``1/s``; those whose square leaves float64 become ``inf`` or 0 with a
    ``NumericalWarning``, and the scores stay exact. Other kernels have parameters in
    ``X``'s units; their Gram is computed at any scale, and a warning says when the
    squares of ``X`` leave float64.

    The pre-image (``fit_inverse_transform=True``) is scikit-learn's: kernel ridge
    regression (:class:`~statlearning.kernel_methods.KernelRidge`, penalty ``alpha``, the
    same kernel object) from the training scores to the training points.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.decomposition import KernelPCA
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 3))
    >>> kpca = KernelPCA(n_components=2, kernel="rbf", gamma=0.5).fit(X)
    >>> kpca.transform(X[:3]).shape
    (3, 2)
    >>> bool(np.allclose(kpca.transform(X), kpca.fit_transform(X)))
    True
    """

    _parameter_constraints: dict = {
        "n_components": "no_validation",  # int, float or rule string: checked in fit
        **KERNEL_CONSTRAINTS,
        "eigen_solver": [Options({"auto", "dense", "arpack", "randomized"})],
        "iterated_power": [Options({"auto"}), Interval(Integral, 0, None, closed="left")],
        "n_oversamples": [Interval(Integral, 0, None, closed="left")],
        "fit_inverse_transform": [Boolean()],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "random_state": [RandomState()],
    }

    def __init__(
        self,
        n_components=None,
        *,
        kernel="linear",
        gamma=None,
        degree=3,
        coef0=1.0,
        eigen_solver="auto",
        iterated_power="auto",
        n_oversamples=10,
        fit_inverse_transform=False,
        alpha=1.0,
        random_state=None,
    ):
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.eigen_solver = eigen_solver
        self.iterated_power = iterated_power
        self.n_oversamples = n_oversamples
        self.fit_inverse_transform = fit_inverse_transform
        self.alpha = alpha
        self.random_state = random_state

    def _choose_solver(self, n: int, nc) -> str:
        if self.eigen_solver != "auto":
            if self.eigen_solver != "dense" and not isinstance(nc, int):
                raise ValueError(
                    f"eigen_solver={self.eigen_solver!r} needs an integer n_components; "
                    f"n_components={self.n_components!r} needs the whole spectrum (use 'dense')."
                )
            if self.eigen_solver == "arpack" and nc >= n:
                raise ValueError(
                    f"eigen_solver='arpack' needs n_components < n_samples={n}; got {nc}."
                )
            return self.eigen_solver
        if isinstance(nc, int) and n > 200 and nc < 10:
            return "arpack"
        return "dense"

    @fit_context
    def fit(self, X, y=None):
        """Fit the kernel principal components.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, or the training Gram matrix for ``kernel="precomputed"``.
        y : None
            Ignored.

        Returns
        -------
        self : KernelPCA
            The fitted model.
        """
        self._fit(X)
        return self

    def fit_transform(self, X, y=None):
        """Fit and return the training scores ``√λ · u``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, or the training Gram matrix for ``kernel="precomputed"``.
        y : None
            Ignored.

        Returns
        -------
        ndarray of shape (n_samples, n_components_)
            Scores of the training points.
        """
        self._validate_params()
        return self._fit(X)

    def _fit(self, X):
        name = type(self).__name__
        if self.fit_inverse_transform and is_precomputed(self):
            raise ValueError(
                f"{name}: fit_inverse_transform=True needs the training points; it cannot be "
                "used with kernel='precomputed'."
            )
        X = read_X(self, X, ensure_min_samples=2)
        s, homogeneity = _homogeneous_scale(fitted_kernel(self, X), X)
        if s is None:
            K = training_gram(self, X)
            if not is_precomputed(self) and not isinstance(self.kernel_, Rescaled):
                warn_unrescaled_scale(self, X, "X")  # γ in X's units: a degenerate Gram
        else:  # fitted on X / s and mapped back (exact: s is a power of two)
            K = training_gram(self, X / s)
            self.X_fit_ = X
        n = K.shape[0]
        nc = check_n_components(self.n_components, n, "n_samples")
        solver = self._choose_solver(n, nc)
        self.K_fit_rows_ = K.mean(axis=0)
        self.K_fit_all_ = float(self.K_fit_rows_.mean())
        Kc = center_kernel(K, copy=False)
        del K
        total = float(np.trace(Kc))
        check_sign = not _known_psd(self.kernel_) and not isinstance(self.kernel_, Precomputed)
        rng = check_random_state(self.random_state)
        k = nc if isinstance(nc, int) else None
        lowest = None
        if check_sign and k is not None:  # the solvers see only the top of the spectrum
            lowest = float(eigsh(Kc, 1, which="SA", v0=rng.uniform(-1, 1, n))[0][0])
        power = self.iterated_power
        if power == "auto":
            power = 7 if k is not None and k < 0.1 * n else 4
        w, v = _top_eigen(Kc, k, solver, rng, power, self.n_oversamples)
        del Kc
        scale = max(float(np.abs(w).max()), np.finfo(float).tiny)
        if k is None:
            lowest = float(w[-1])
        if lowest is not None and lowest < -_PSD_TOL * max(scale, abs(lowest)):
            warnings.warn(
                f"{name}: the centred Gram matrix has a negative eigenvalue ({lowest:.3g}, "
                f"largest {float(w[0]):.3g}): the kernel is not positive semi-definite on "
                "these data (not a Mercer kernel), so the components are those of an "
                "indefinite matrix; negative eigenvalues are dropped.",
                NumericalWarning,
                stacklevel=external_stacklevel(),
            )
        positive = w > _RANK_TOL * n * np.finfo(float).eps * scale
        rank = int(positive.sum())
        if k is not None and rank < k:
            raise ValueError(
                f"{name}: n_components={k} is larger than the rank of the centred Gram "
                f"matrix ({rank} positive eigenvalue{'s' if rank != 1 else ''}); use "
                f"n_components <= {rank} or None (every positive eigenvalue)."
            )
        if rank == 0:
            raise ValueError(
                f"{name}: the centred Gram matrix is zero (all points coincide in feature "
                "space); there is no component to extract."
            )
        w, v = w[positive], v[:, positive]
        kept = n_retained(nc, w, float(w.sum()), rank)
        w, v = w[:kept], _flip_signs(v[:, :kept].T).T
        self.eigenvalues_ = w
        self.eigenvectors_ = v
        self.dual_coef_ = v / np.sqrt(w)
        self.explained_variance_ = w / n
        self.total_variance_ = total / n
        self.explained_variance_ratio_ = w / total if total > 0 else np.zeros_like(w)
        self.n_components_ = int(kept)
        self.solver_ = solver
        scores = v * np.sqrt(w)
        self._rescaling = None
        if s is not None:
            self._unscale(s, homogeneity, max_abs(X))
            scores = times(scores, s, homogeneity // 2)
        if self.fit_inverse_transform:
            self.inverse_regressor_ = KernelRidge(alpha=self.alpha, kernel=self.kernel_).fit(
                scores, X
            )
        return scores

    def _unscale(self, s, power, magnitude):
        """Map a fit on ``X / s`` back to ``X`` for a kernel homogeneous of degree ``power``
        in ``X``; keep the fit on ``X / s`` for :meth:`transform`."""
        self._rescaling = (s, power, self.dual_coef_, self.K_fit_rows_, self.K_fit_all_)
        if power == 0:
            return
        self.dual_coef_ = times(self.dual_coef_, 1.0 / s, power // 2)
        names = ["eigenvalues_", "explained_variance_", "total_variance_", "K_fit_rows_",
                 "K_fit_all_"]  # fmt: skip
        before = [getattr(self, a) for a in names]
        for a, value in zip(names, before, strict=True):
            setattr(self, a, times(value, s, power))
        lost = [
            a
            for a, value in zip(names, before, strict=True)
            if np.any((getattr(self, a) == 0) != (np.asarray(value) == 0))
            or np.any(np.isinf(getattr(self, a)))
        ]
        if lost:
            warn_data_scale(self, lost, magnitude)

    def transform(self, X):
        """Project points on the components (the test kernel centred as (12.17–12.18)).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            New points, or their Gram matrix against the training points (shape
            (n_samples, n_train)) for ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples, n_components_)
            Scores ``Σⱼ αⱼ K^c(x, xⱼ)``.
        """
        check_is_fitted(self, "dual_coef_")
        rescaling = getattr(self, "_rescaling", None)
        if rescaling is None:
            kernel, A, fit_rows, fit_all = None, self.dual_coef_, self.K_fit_rows_, self.K_fit_all_
        else:  # the fit on X / s: the kernel on X / s, the scores mapped back
            s, power, A, fit_rows, fit_all = rescaling
            kernel = Rescaled(self.kernel_, s)
        n = A.shape[0]
        # one pass over K(X, train): K A and the row means κ(x) together
        coef = np.hstack([A, np.full((n, 1), 1.0 / n)])
        KA = gram_times(self, X, coef, kernel=kernel)
        rows = KA[:, -1]
        KA = KA[:, :-1]
        col_sums = A.sum(axis=0)  # 0 up to rounding: the eigenvectors are orthogonal to 1
        KA -= fit_rows @ A
        KA -= np.outer(rows - fit_all, col_sums)
        return KA if rescaling is None else times(KA, s, power // 2)

    def inverse_transform(self, X):
        """Pre-images of scores: the kernel ridge map learnt with ``fit_inverse_transform``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_components_)
            Scores.

        Returns
        -------
        ndarray of shape (n_samples, n_features_in_)
            Approximate points in the input space.
        """
        check_is_fitted(self, "dual_coef_")
        if not hasattr(self, "inverse_regressor_"):
            raise ValueError(
                f"{type(self).__name__}: inverse_transform needs fit_inverse_transform=True "
                "at fit time."
            )
        Z = np.asarray(X, dtype=np.float64)
        if Z.ndim != 2 or Z.shape[1] != self.n_components_:
            raise ValueError(
                f"X must have shape (n_samples, {self.n_components_}) (the scores); got {Z.shape}."
            )
        return self.inverse_regressor_.predict(Z)

    @property
    def _n_features_out(self) -> int:
        return self.n_components_

    def __sklearn_tags__(self):
        tags = pairwise_tags(self, super().__sklearn_tags__())
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags
