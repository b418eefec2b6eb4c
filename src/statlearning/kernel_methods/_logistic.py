"""Kernel logistic regression, binary and multinomial, by Newton's method on the dual
coefficients (through the kernel's square-root features and the package's logistic solvers)."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core.class_labels import encode_class_labels
from .._core.compiled import single_blas_thread
from .._core.linalg import symmetric_eigh
from .._core.logistic import sigmoid, softmax
from .._solvers.logistic import Objective, binary_irls, newton
from .._validation import Interval, check_sample_weight
from ..base import ClassifierMixin, StatBase, fit_context
from ..exceptions import warn_not_converged
from ..kernels import KERNEL_CONSTRAINTS, gram_times, pairwise_tags, read_X, training_gram

__all__ = ["KernelLogisticRegression"]


def root_features(K):
    """``(L, T)`` with ``K ≈ LLᵀ`` (``L = U Λ^{1/2}`` over the eigenvalues above
    ``n·eps·λ_max``) and ``T = U Λ^{−1/2}``, so that dual coefficients are ``α = T θ``."""
    lam, U = symmetric_eigh(K, overwrite_a=True, check_finite=False)
    top = lam[-1] if lam.size else 0.0
    keep = lam > K.shape[0] * np.finfo(np.float64).eps * max(top, 0.0)
    lam, U = lam[keep], U[:, keep]
    root = np.sqrt(lam)
    return U * root, U / root


class KernelLogisticRegression(ClassifierMixin, StatBase):
    """Penalised logistic regression in the feature space of a kernel (binary and multinomial).

    Parameters
    ----------
    C : float, default=1.0
        Inverse penalty strength (as scikit-learn's ``C``): the loss is multiplied by C.
    kernel : str, Kernel or callable, default="rbf"
        ``"linear"``, ``"poly"``, ``"rbf"``, ``"sigmoid"``, ``"laplacian"``, ``"cosine"``,
        ``"precomputed"``, a kernel object of :mod:`statlearning.kernels` or a callable
        ``f(X, Y)`` returning the Gram matrix.
    gamma : {"scale", "auto"}, float, array-like or None, default="scale"
        γ of the named kernels (``"scale"``: ``1 / (n_features · X.var())``; ``"auto"`` and
        None: ``1 / n_features``); the variance is weighted by ``sample_weight``.
    degree : int, default=3
        Degree of ``"poly"``.
    coef0 : float, default=1.0
        Offset of ``"poly"`` and ``"sigmoid"``.
    max_iter : int, default=100
        Cap on Newton iterations.
    tol : float, default=1e-8
        Relative change of the deviance at which Newton stops (R's ``glm`` rule).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    dual_coef_ : ndarray of shape (n_samples,) or (n_samples, n_classes)
        Dual coefficients: one column per class function (a single function for two
        classes, whose positive side is ``classes_[1]``).
    intercept_ : ndarray of shape (1,) or (n_classes,)
        Unpenalised intercepts.
    X_fit_ : ndarray of shape (n_samples, n_features) or None
        The training points (None for a precomputed kernel).
    kernel_ : Kernel
        The resolved kernel object.
    n_iter_ : int
        Newton iterations run.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Column names, when ``X`` had string column names.

    Notes
    -----
    Minimises, over intercepts b_k and functions f_k in the kernel's RKHS H,

    .. math:: C \\sum_i w_i\\, \\ell\\big(y_i, (b_k + f_k(x_i))_k\\big)
              + \\tfrac12 \\sum_k \\lVert f_k\\rVert_H^2 ,

    with ℓ the binary logistic loss (one function, K = 2) or the full softmax loss (K ≥ 3,
    one function per class, identifiable through the penalty). By the representer theorem
    ``f_k = Σᵢ α_ik k(·, xᵢ)``. The problem is solved by Newton's method on the dual
    coefficients in the coordinates θ = Λ^{1/2}Uᵀα of the Gram's eigendecomposition
    ``K = UΛUᵀ`` (where ``‖f‖²_H = αᵀKα = ‖θ‖²``): an L2-penalised logistic regression on the
    features ``UΛ^{1/2}`` with penalty 1/C on the summed loss, solved by the package's IRLS
    (binary) and multinomial Newton. Eigen-directions with λ ≤ n·eps·λ_max are dropped (they
    change no fitted value). With the linear kernel this is scikit-learn's
    ``LogisticRegression(C=C)`` (L2 penalty, unpenalised intercept), the primal form. An
    indefinite kernel (sigmoid) is fitted on the positive part of its Gram spectrum.
    Cost: one n × n eigendecomposition, then Newton steps of order n·r² (binary) or
    (K·r)³ (multinomial) for r kept eigenvalues.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.kernel_methods import KernelLogisticRegression
    >>> X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> clf = KernelLogisticRegression(C=100.0, kernel="rbf", gamma=2.0).fit(X, y)
    >>> clf.predict(X)
    array([0, 0, 1, 1])
    """

    _parameter_constraints = {
        "C": [Interval(Real, 0, None, closed="neither")],
        **KERNEL_CONSTRAINTS,
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "tol": [Interval(Real, 0, None, closed="neither")],
    }

    def __init__(
        self,
        C=1.0,
        *,
        kernel="rbf",
        gamma="scale",
        degree=3,
        coef0=1.0,
        max_iter=100,
        tol=1e-8,
    ):
        self.C = C
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.max_iter = max_iter
        self.tol = tol

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the dual coefficients and intercepts.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, or the training Gram matrix for ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the observations' losses.

        Returns
        -------
        self : KernelLogisticRegression
            The fitted model.
        """
        owner = type(self).__name__
        X, y = read_X(self, X, y)
        self.classes_, codes = encode_class_labels(y, owner)
        n_classes = self.classes_.size
        w = (
            np.ones(X.shape[0])
            if sample_weight is None
            else check_sample_weight(sample_weight, X.shape[0], estimator_name=owner)
        )
        K = training_gram(self, X, w)
        # the eigendecomposition's tridiagonal reduction is bound by memory traffic (BLAS-2)
        # and gains little from threads; on a busy two-core machine a threaded BLAS took 13 s
        # for n = 1,000 against 0.5 s on one thread
        with single_blas_thread():
            L, T = root_features(K)
        del K
        with np.errstate(over="ignore"):
            l2 = 1.0 / np.float64(self.C)
        if not np.isfinite(l2):
            raise ValueError(
                f"KernelLogisticRegression: C={self.C!r} is too small: the penalty 1/C "
                "overflows float64; use C >= 1e-300."
            )
        # Newton's factorisations on one BLAS thread too: on a busy two-core machine the
        # threaded Cholesky of a 1,000 × 1,000 Hessian took 1 s against 0.04 s (with two idle
        # cores threads would gain at most a factor of two)
        with single_blas_thread():
            if n_classes == 2:
                fit = binary_irls(
                    L, codes.astype(np.float64), w, l2=l2, max_iter=self.max_iter, tol=self.tol
                )
            else:
                obj = Objective(L, codes, w, n_classes, True, l2, False)
                fit = newton(obj, obj.start(), max_iter=self.max_iter, tol=self.tol)
        params = fit.params  # (1, 1 + r) or (K, 1 + r)
        if n_classes > 2:
            params[:, 0] -= params[:, 0].mean()  # the flat direction: centred intercepts
        if not fit.converged:
            warn_not_converged(self, "Newton's method", max_iter=self.max_iter, tol=self.tol)
        self.intercept_ = params[:, 0].copy()
        alpha = T @ params[:, 1:].T  # (n, 1) or (n, K)
        self.dual_coef_ = alpha[:, 0].copy() if n_classes == 2 else alpha
        self.n_iter_ = int(fit.n_iter)
        return self

    def decision_function(self, X):
        """Values of the fitted functions ``b + f(x)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points, or their Gram matrix against the training points for
            ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            The log-odds of ``classes_[1]`` (two classes) or the class scores (softmax inputs).
        """
        check_is_fitted(self, "dual_coef_")
        return gram_times(self, X, self.dual_coef_) + (
            self.intercept_[0] if self.dual_coef_.ndim == 1 else self.intercept_
        )

    def predict_proba(self, X):
        """Class probabilities.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points (or their Gram matrix against the training points).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Probabilities, columns in the order of ``classes_``.
        """
        eta = self.decision_function(X)
        if eta.ndim == 1:
            p = sigmoid(eta)
            return np.column_stack([1.0 - p, p])
        return softmax(eta)

    def predict(self, X):
        """Most probable class.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points (or their Gram matrix against the training points).

        Returns
        -------
        ndarray of shape (n_samples,)
            Predicted labels.
        """
        eta = self.decision_function(X)
        idx = (eta > 0).astype(int) if eta.ndim == 1 else np.argmax(eta, axis=1)
        return self.classes_[idx]

    def __sklearn_tags__(self):
        return pairwise_tags(self, super().__sklearn_tags__())
