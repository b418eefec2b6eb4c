"""Kernel Fisher discriminant analysis (seed 002 (13.14–13.21)): Fisher's criterion on the
expansion coefficients of a kernel, regularised, with a Gaussian classifier on the projections."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy import linalg
from sklearn.base import ClassNamePrefixFeaturesOutMixin
from sklearn.utils.validation import check_is_fitted

from .._core.class_labels import encode_class_labels, resolve_priors
from .._core.discriminant import (
    class_means,
    fisher_directions,
    linear_discriminants,
    within_scatter,
)
from .._core.linalg import triangular_inverse
from .._validation import ArrayLike, Interval
from ..base import ClassifierMixin, StatBase, TransformerMixin, fit_context
from ..exceptions import warn_unrescaled_scale
from ..kernels import (
    KERNEL_CONSTRAINTS,
    Rescaled,
    gram_times,
    is_precomputed,
    pairwise_tags,
    read_X,
    training_gram,
)
from ._common import DiscriminantMixin

__all__ = ["KernelFisherDiscriminant"]

#: Between-class singular values below this fraction of the largest are dropped (rank).
_RANK_TOL = 1e-8


class KernelFisherDiscriminant(
    ClassNamePrefixFeaturesOutMixin, ClassifierMixin, TransformerMixin, DiscriminantMixin, StatBase
):
    """Kernel Fisher discriminant analysis: Fisher's LDA in the feature space of a kernel.

    Parameters
    ----------
    kernel : str, Kernel or callable, default="rbf"
        ``"linear"``, ``"poly"``, ``"rbf"``, ``"sigmoid"``, ``"laplacian"``, ``"cosine"``,
        ``"precomputed"`` (``X`` is then the Gram matrix), a kernel object of
        :mod:`statlearning.kernels` or a callable ``f(X, Y)`` returning the Gram matrix.
    gamma : {"scale", "auto"}, float, array-like or None, default="scale"
        γ of the named kernels; ``"scale"`` is ``1 / (n_features · X.var())`` (as
        :class:`~statlearning.svm.SVC`: the kernel follows X's units, so the fit does not
        depend on them), None and ``"auto"`` mean ``1 / n_features``.
    degree : int, default=3
        Degree of ``"poly"``.
    coef0 : float, default=1.0
        Offset of ``"poly"`` and ``"sigmoid"``.
    reg : float, default=1e-3
        β of the regularised within-class scatter ``S_W^Φ + βI`` (seed 002 (13.21)); 0 is
        the unregularised criterion, which needs a non-singular ``S_W^Φ`` (it rarely is:
        without β the kernel machine overfits, the notes' point).
    n_components : int or None, default=None
        Discriminant directions kept (at most ``n_classes − 1``); None keeps them all.
        :meth:`transform` and the classifier use these directions.
    priors : array-like of shape (n_classes,), default=None
        Class prior probabilities (order of ``classes_``); default: the class proportions.
        As in MASS's ``lda``, they weight the between-class scatter and enter the classifier.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    priors_ : ndarray of shape (n_classes,)
        Prior probabilities used.
    class_count_ : ndarray of shape (n_classes,)
        Training samples per class.
    dual_coef_ : ndarray of shape (n_samples, n_components_)
        The directions' expansion coefficients α: ``w = Σᵢ αᵢ φ(xᵢ)`` (13.14), scaled so that
        ``αᵀ(S_W^Φ + βI)α / (n − K) = I`` (for β → 0 unit pooled within-class variance of the
        projections, as MASS's ``scalings``).
    singular_values_ : ndarray of shape (n_components_,)
        Ratios of the between- to the within-class standard deviations of the projections
        (MASS's ``svd``); their squares are the generalised eigenvalues (13.11), up to the
        factor ``(K − 1)/(n − K)``.
    explained_variance_ratio_ : ndarray of shape (n_components_,)
        Share of the between-class variance on each direction (MASS's ``svd² / Σ svd²``).
    center_ : ndarray of shape (n_components_,)
        Projection of the prior-weighted mean of the class means; :meth:`transform`
        subtracts it.
    means_ : ndarray of shape (n_classes, n_components_)
        Class means of the (centred) projections.
    n_components_ : int
        Directions kept.
    X_fit_ : ndarray of shape (n_samples, n_features) or None
        The training points (needed to project new points; None for a precomputed kernel).
    kernel_ : Kernel
        The resolved kernel object.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Column names, when ``X`` had string column names.

    See Also
    --------
    statlearning.discriminant_analysis.LinearDiscriminantAnalysis : The linear-kernel case.
    statlearning.decomposition.KernelPCA : Unsupervised directions in the same feature space.

    Notes
    -----
    With ``w = Σᵢ αᵢ φ(xᵢ)`` (13.14), Fisher's criterion becomes (13.15)

    .. math:: J(\\alpha) = \\frac{\\alpha^\\top S_B^\\Phi \\alpha}
        {\\alpha^\\top (S_W^\\Phi + \\beta I) \\alpha},

    with the kernel scatter matrices (13.16–13.19) ``S_B^Φ = Σ_c N_c (κ_c − κ)(κ_c − κ)ᵀ``
    and ``S_W^Φ = K² − Σ_c N_c κ_c κ_cᵀ = Σ_c Σ_{i∈c} (Kᵢ − κ_c)(Kᵢ − κ_c)ᵀ`` (κ_c the
    class-mean column of the Gram K, κ the overall one; the second form is how it is
    computed, without cancellation). The maximisers are the generalised eigenvectors
    ``S_B^Φ α = λ (S_W^Φ + βI) α`` (13.11), at most ``K − 1`` of them: with a Cholesky
    whitener of ``(S_W^Φ + βI)/(n − K)`` the problem reduces to an SVD of the ``K × n``
    between-class matrix (the route of MASS's ``lda``; priors replace ``N_c / n`` when
    given). No centring of the kernel is needed: both scatters are translation invariant.

    A point is projected by ``z(x) = Σᵢ αᵢ k(xᵢ, x) − center_`` (13.20). The classifier is
    the notes' nearest projected class mean, with the priors: a Gaussian model on the
    projections, ``log P(c | z) = −½ ‖z − m_c‖² + log π_c + const`` (:meth:`predict_proba`),
    whose covariance is the regularised pooled within-class covariance
    ``αᵀ(S_W^Φ + βI)α / (n − K)``, the identity in these coordinates. The spread of the
    training projections themselves cannot serve: with a Gram of full rank some α maps
    every training point exactly onto its class mean (``S_W^Φ`` is singular there), so the
    maximiser puts all within-class variance in the β term, whatever β (the overfitting the
    notes warn of). The notes' per-class variances in one dimension amount to quadratic
    discriminant analysis of :meth:`transform`'s output on held-out data.

    With the linear kernel and ``reg`` → 0 the directions ``Σᵢ αᵢ xᵢ`` are MASS's
    ``scalings`` (:class:`LinearDiscriminantAnalysis`, same sign convention up to a flip)
    and :meth:`transform` its discriminant coordinates. Fitting costs ``O(n³)`` (the
    within-class scatter and its Cholesky factor); R has no kernel FDA in the packages we
    follow.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.discriminant_analysis import KernelFisherDiscriminant
    >>> t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    >>> X = np.r_[np.c_[np.cos(t), np.sin(t)], 3 * np.c_[np.cos(t), np.sin(t)]]
    >>> y = np.repeat(["inner", "outer"], 40)
    >>> kfd = KernelFisherDiscriminant(kernel="rbf", gamma=1.0, reg=0.1).fit(X, y)
    >>> kfd.predict([[0.0, 0.5], [0.0, 3.2]])
    array(['inner', 'outer'], dtype='<U5')
    """

    _parameter_constraints: dict = {
        **KERNEL_CONSTRAINTS,
        "reg": [Interval(Real, 0, None, closed="left")],
        "n_components": [None, Interval(Integral, 1, None, closed="left")],
        "priors": [None, ArrayLike()],
    }

    def __init__(
        self,
        kernel="rbf",
        *,
        gamma="scale",
        degree=3,
        coef0=1.0,
        reg=1e-3,
        n_components=None,
        priors=None,
    ):
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.reg = reg
        self.n_components = n_components
        self.priors = priors

    @fit_context
    def fit(self, X, y):
        """Fit the discriminant directions and the classifier on the projections.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, or the training Gram matrix for ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels of any type.

        Returns
        -------
        self : KernelFisherDiscriminant
            The fitted model.
        """
        name = type(self).__name__
        X, y = read_X(self, X, y)
        self.classes_, codes = encode_class_labels(y, name)
        K_classes = self.classes_.size
        if self.n_components is not None and self.n_components > K_classes - 1:
            raise ValueError(
                f"{name}: n_components={self.n_components} cannot exceed n_classes - 1 = "
                f"{K_classes - 1}."
            )
        G = np.ascontiguousarray(training_gram(self, X))
        if not is_precomputed(self) and not isinstance(self.kernel_, Rescaled):
            warn_unrescaled_scale(self, X, "X")  # γ in X's units: extreme X, degenerate Gram
        n = G.shape[0]
        if n <= K_classes:
            raise ValueError(
                f"{name}: {n} samples in {K_classes} classes leave no degrees of freedom for "
                "the within-class scatter (n − K must be positive)."
            )
        counts, kappa = class_means(G, codes, K_classes)
        priors = resolve_priors(self.priors, counts, name)
        A = within_scatter(G, codes, kappa)
        scale = float(np.mean(np.diag(A)))
        A[np.diag_indices(n)] += float(self.reg)
        A /= n - K_classes
        try:
            L = linalg.cholesky(A, lower=True, overwrite_a=True, check_finite=False)
        except linalg.LinAlgError:
            advice = "use reg > 0" if self.reg == 0 else "increase reg"
            raise ValueError(
                f"{name}: the within-class scatter S_W + reg·I is numerically singular "
                f"(reg={self.reg!r}, while the diagonal of S_W averages {scale:.3g}); {advice} "
                "(with reg → 0 the criterion is ill-posed for a flexible kernel) or rescale "
                "the kernel."
            ) from None
        del A
        whitener = triangular_inverse(L, lower=True).T
        del L
        alpha, d = fisher_directions(whitener, kappa, priors, n, _RANK_TOL)
        del whitener
        rank = d.size
        if rank == 0:
            raise ValueError(f"{name}: the class means coincide in feature space.")
        if self.n_components is not None and self.n_components > rank:
            raise ValueError(
                f"{name}: n_components={self.n_components} is larger than the rank of the "
                f"between-class scatter ({rank}); use n_components <= {rank}."
            )
        k = rank if self.n_components is None else self.n_components
        alpha, d = alpha[:, :k], d[:k]
        big = np.argmax(np.abs(alpha), axis=0)
        alpha = alpha * np.sign(alpha[big, np.arange(k)])
        self.dual_coef_ = alpha
        self.singular_values_ = d
        self.explained_variance_ratio_ = d**2 / np.sum(d**2)
        self.n_components_ = int(k)
        self.priors_, self.class_count_ = priors, counts
        projected = kappa @ alpha
        self.center_ = priors @ projected
        self.means_ = projected - self.center_
        # Gaussian classes on the projections with the regularised pooled within-class
        # covariance αᵀ(S_W + βI)α / (n − K), the identity in these coordinates
        _, self._coef, self._intercept = linear_discriminants(
            lambda B: B, self.means_, priors, np.zeros(k)
        )
        return self

    def transform(self, X):
        """Project points on the discriminant directions (13.20), centred by ``center_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            New points, or their Gram matrix against the training points (shape
            (n_samples, n_train)) for ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples, n_components_)
            ``Σᵢ αᵢ k(xᵢ, x) − center_``.
        """
        check_is_fitted(self, "dual_coef_")
        return gram_times(self, X, self.dual_coef_) - self.center_

    def _validated(self, X):
        check_is_fitted(self, "dual_coef_")
        return X

    def _scores(self, X):
        return self.transform(X) @ self._coef + self._intercept

    @property
    def _n_features_out(self) -> int:
        return self.n_components_

    def __sklearn_tags__(self):
        return pairwise_tags(self, super().__sklearn_tags__())
