"""The prototype (kernel-feature) map ``x ↦ (k(x, p₁), …, k(x, p_m))``."""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .._validation import Interval, Options, RandomState
from ..base import StatBase, TransformerMixin, fit_context
from ..kernels import (
    KERNEL_CONSTRAINTS,
    fitted_kernel,
    is_precomputed,
    pairwise_tags,
    read_X,
    training_gram,
)

__all__ = ["PrototypeFeatures"]


class PrototypeFeatures(TransformerMixin, StatBase):
    """Kernel features: the kernel between each point and a set of prototypes.

    Maps ``x`` to ``(k(x, p₁), …, k(x, p_m))`` for prototypes ``p_j`` taken from the training
    points; a (sparse) linear model on these features is the notes' L1VM / prototype model.

    Parameters
    ----------
    kernel : str, Kernel or callable, default="rbf"
        As :class:`KernelRidge`'s ``kernel`` (``"precomputed"``: ``X`` is the Gram matrix
        against the training points and the features are its prototype columns).
    gamma : {"scale", "auto"}, float, array-like or None, default="scale"
        γ of the named kernels.
    degree : int, default=3
        Degree of ``"poly"``.
    coef0 : float, default=1.0
        Offset of ``"poly"`` and ``"sigmoid"``.
    prototypes : "all" or int, default="all"
        Every training point, or that many drawn at random without replacement.
    random_state : int, RandomState instance or None, default=None
        Seed of the draw of the prototypes.

    Attributes
    ----------
    prototype_indices_ : ndarray of shape (n_prototypes,)
        Rows of the training data used as prototypes.
    prototypes_ : ndarray of shape (n_prototypes, n_features) or None
        The prototypes (None for a precomputed kernel).
    kernel_ : Kernel
        The resolved kernel object.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Column names, when ``X`` had string column names.

    Notes
    -----
    With an L1-penalised model on top, ``f(x) = b + Σⱼ βⱼ k(x, pⱼ)`` with few non-zero βⱼ:
    the kernel is used as a feature map, so it need not be positive definite. The notes' XOR
    example is separated exactly by an RBF map followed by a linear classifier.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.pipeline import make_pipeline
    >>> from statlearning.kernel_methods import PrototypeFeatures
    >>> from statlearning.linear_model import LogisticRegression
    >>> X = np.array([[0.0, 0.0], [1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> model = make_pipeline(
    ...     PrototypeFeatures(gamma=2.0), LogisticRegression(penalty="l1", C=10.0, solver="cd")
    ... ).fit(X, y)
    >>> model.predict(X)
    array([0, 0, 1, 1])
    """

    _parameter_constraints = {
        **KERNEL_CONSTRAINTS,
        "prototypes": [Options({"all"}), Interval(Integral, 1, None, closed="left")],
        "random_state": [RandomState()],
    }

    def __init__(
        self, *, kernel="rbf", gamma="scale", degree=3, coef0=1.0, prototypes="all",
        random_state=None,
    ):  # fmt: skip
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.prototypes = prototypes
        self.random_state = random_state

    @fit_context
    def fit(self, X, y=None):
        """Choose the prototypes.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data (or the training Gram matrix for ``kernel="precomputed"``).
        y : None
            Ignored.

        Returns
        -------
        self : PrototypeFeatures
            The fitted map.
        """
        X = read_X(self, X)
        n = X.shape[0]
        if self.prototypes == "all":
            idx = np.arange(n)
        else:
            if self.prototypes > n:
                raise ValueError(
                    f"PrototypeFeatures: prototypes={self.prototypes} exceeds the number of "
                    f"training points (n_samples = {n})."
                )
            rng = check_random_state(self.random_state)
            idx = np.sort(rng.choice(n, size=self.prototypes, replace=False))
        # resolve the kernel (gamma="scale" uses all the training data) without the full Gram
        if is_precomputed(self):
            training_gram(self, X)
            del self.X_fit_
        else:
            fitted_kernel(self, X)
        self.prototype_indices_ = idx
        self.prototypes_ = None if is_precomputed(self) else X[idx].copy()
        self._n_train = n
        return self

    def transform(self, X):
        """Kernel features of the points.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Points (or their Gram matrix against the training points).

        Returns
        -------
        ndarray of shape (n_samples, n_prototypes)
            ``K[i, j] = k(X[i], prototypes_[j])``.
        """
        check_is_fitted(self, "prototype_indices_")
        X = read_X(self, X, reset=False)
        if self.prototypes_ is None:
            return X[:, self.prototype_indices_]
        return self.kernel_(X, self.prototypes_)

    def __sklearn_tags__(self):
        return pairwise_tags(self, super().__sklearn_tags__())
