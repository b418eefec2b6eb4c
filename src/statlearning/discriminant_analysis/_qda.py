"""Quadratic discriminant analysis: :class:`QuadraticDiscriminantAnalysis`."""

from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .. import _dask
from .._core.class_labels import encode_class_labels, label_repr, resolve_priors
from .._core.compiled import kernel_array
from .._core.discriminant import (
    cholesky_rank_ok,
    class_means,
    class_scatters,
    quadratic_discriminants,
)
from .._core.scaling import log_scale, max_abs, scale_for, times
from .._validation import ArrayLike, Boolean, Interval, validate_data
from ..base import ClassifierMixin, StatBase, fit_context
from ..exceptions import warn_data_scale, warn_unrescaled_scale
from ._common import DiscriminantMixin, feature_names, row_blocks
from ._format import format_quadratic, formula_names


class QuadraticDiscriminantAnalysis(ClassifierMixin, DiscriminantMixin, StatBase):
    """Quadratic discriminant analysis: Gaussian classes, each with its own covariance.

    Parameters
    ----------
    priors : array-like of shape (n_classes,), default=None
        Prior probabilities (order of ``classes_``); default: the class proportions.
    reg_param : float in [0, 1], default=0.0
        Regularisation of each class covariance toward the identity,
        ``(1 − r) Σ_k + r I`` (scikit-learn's definition; standardise the features first so
        that the identity is a sensible target).
    include_log_det : bool, default=True
        Keep the ``−½ log|Σ_k|`` term of the discriminants (the Gaussian log-density).
        ``False`` reproduces the lecture notes' printed QDA discriminants (Boily, seed-notes
        item 29), which omit it; the "posteriors" are then not those of the Gaussian model.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    priors_ : ndarray of shape (n_classes,)
    means_ : ndarray of shape (n_classes, n_features)
    class_count_ : ndarray of shape (n_classes,)
    covariances_ : ndarray of shape (n_classes, n_features, n_features)
        Class covariances with divisor ``n_k − 1`` (MASS), after ``reg_param``.
    log_det_ : ndarray of shape (n_classes,)
        ``log|Σ_k|`` (MASS's ``ldet``).
    quadratic_terms_ : ndarray of shape (n_classes, n_features, n_features)
        ``Q_k = −½ Σ_k⁻¹``.
    linear_terms_ : ndarray of shape (n_classes, n_features)
        ``l_k = Σ_k⁻¹ μ_k``.
    constant_terms_ : ndarray of shape (n_classes,)
        ``c_k = −½ μ_kᵀ Σ_k⁻¹ μ_k − ½ log|Σ_k| + log π_k`` (without the log-determinant when
        ``include_log_det=False``), so that ``δ_k(x) = xᵀQ_k x + l_kᵀx + c_k``; see
        :meth:`format_discriminants`.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    See Also
    --------
    LinearDiscriminantAnalysis : a common covariance.

    Notes
    -----
    With Gaussian classes :math:`N(\\mu_k, \\Sigma_k)` the Bayes rule picks the largest

    .. math:: \\delta_k(x) = -\\tfrac12 (x-\\mu_k)^\\top\\Sigma_k^{-1}(x-\\mu_k)
              - \\tfrac12\\log|\\Sigma_k| + \\log\\pi_k

    (Boily §3.2.2; ISLR eq. 4.28), and the posterior is the softmax of the scores. Scores are
    evaluated as ``−½‖(x − μ_k) U_k⁻¹‖²`` with the Cholesky factor ``Σ_k = U_kᵀU_k``, in
    blocks of rows.

    Mapping to R: ``MASS::qda(X, g, prior = priors)`` ("moment" method): class covariances
    divide by ``n_k − 1`` and ``predict(fit)$posterior``/``$class`` are reproduced. MASS
    requires ``n_k ≥ p + 1`` in every class, and so do we unless ``reg_param > 0``.
    scikit-learn ≥ 1.9 divides by ``n_k``: its posteriors differ slightly, by design.

    Data whose largest ``|x|`` is beyond ``2^±200`` (about ``1e±60``) are fitted divided by a
    power of two ``s`` (exact), with ``reg_param·I`` in those units, and mapped back (means by
    ``s``, covariances by ``s²``, ``quadratic_terms_`` by ``1/s²``, ``linear_terms_`` by
    ``1/s``, ``log_det_`` plus ``2p·log s``); prediction computes on the rescaled data, so it
    is exact where covariances leave float64's range (a ``NumericalWarning`` says so). When
    ``reg_param·I`` itself would overflow on that scale (tiny data), the fit is on ``X`` as
    given, with a warning that the data's scale is the problem.

    Examples
    --------
    >>> from statlearning.datasets import load_iris
    >>> from statlearning.discriminant_analysis import QuadraticDiscriminantAnalysis
    >>> X, y = load_iris(return_X_y=True)
    >>> qda = QuadraticDiscriminantAnalysis().fit(X, y)
    >>> float((qda.predict(X) == y).mean())
    0.98
    """

    _parameter_constraints = {
        "priors": [None, ArrayLike()],
        "reg_param": [Interval(Real, 0, 1, closed="both")],
        "include_log_det": [Boolean()],
    }

    def __init__(self, *, priors=None, reg_param=0.0, include_log_det=True):
        self.priors = priors
        self.reg_param = reg_param
        self.include_log_det = include_log_det

    @fit_context
    def fit(self, X, y):
        """Estimate the class priors, means and covariances.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Class labels of any type.

        Returns
        -------
        self : QuadraticDiscriminantAnalysis
        """
        name = type(self).__name__
        X, y = validate_data(self, X, y, dtype=np.float64)
        scale = scale_for(X)  # data near float64's ends: fitted on X / scale, mapped back
        if scale is not None and not np.isfinite(times(self.reg_param, 1.0 / scale, 2)):
            scale = None  # tiny data: the ridge r·I, in X's units, is all that is left
            warn_unrescaled_scale(self, X, "X")
        X = kernel_array(X if scale is None else X / scale)
        self.classes_, codes = encode_class_labels(y, name)
        counts, means = class_means(X, codes, self.classes_.size)
        self._fit_moments(counts, means, lambda: class_scatters(X, codes, means), scale)
        if scale is not None and not np.all(
            np.isfinite(self.covariances_) & np.isfinite(self.quadratic_terms_)
        ):
            warn_data_scale(self, ["covariances_", "quadratic_terms_"], float(max_abs(X)) * scale)
        return self

    def _fit_dask(self, X, y):
        """``fit`` on Dask collections: the class means in one pass, the class scatter
        matrices in another."""
        rows, wsum, means, _ = _dask.class_moments(self, X, y)
        counts = wsum[:, 0].copy() if wsum.shape[1] else np.zeros(self.classes_.size)

        def scatters():
            job = _dask.map_reduce(_block_scatters, _add, [rows.X, rows.y], rows.offsets,
                                   self.classes_, means)  # fmt: skip
            return _dask.compute(job)[0]

        self._fit_moments(counts, means, scatters, None)
        return self

    def _fit_moments(self, counts, means, scatters, scale) -> None:
        """Everything after the class means; ``scatters()`` gives the class scatter matrices."""
        name = type(self).__name__
        p = means.shape[1]
        K = self.classes_.size
        small = np.flatnonzero(counts < 2)
        if small.size:
            raise ValueError(
                f"{name}: class {label_repr(self.classes_[small[0]])} has a single sample; its "
                "covariance is undefined (QDA needs at least 2 samples per class)."
            )
        small = np.flatnonzero(counts < p + 1)
        if small.size and self.reg_param == 0:
            k = small[0]
            raise ValueError(
                f"{name}: class {label_repr(self.classes_[k])} has {int(counts[k])} samples, too "
                f"few for a {p}-feature covariance (QDA needs at least p + 1 = {p + 1} per class); "
                "use reg_param > 0, fewer features, or LinearDiscriminantAnalysis."
            )
        covs = scatters() / (counts - 1.0)[:, None, None]
        if self.reg_param > 0:
            ridge = self.reg_param if scale is None else times(self.reg_param, 1.0 / scale, 2)
            covs = (1.0 - self.reg_param) * covs + ridge * np.eye(p)
        for k in range(K):
            ok, bad = cholesky_rank_ok(covs[k])
            if not ok:
                raise ValueError(
                    f"{name}: the covariance of class {label_repr(self.classes_[k])} is singular "
                    f"(feature {feature_names(self)[bad]!r} is constant or collinear with "
                    "earlier features within that class); use reg_param > 0 or drop it."
                )
        priors = resolve_priors(self.priors, counts, name)
        Q, L, c, log_det, whiteners = quadratic_discriminants(
            means, covs, priors, self.include_log_det
        )
        self._centres, self._whiteners, self._scale = means, whiteners, scale
        if scale is not None:  # means by s, covariances by s², Q by 1/s², l by 1/s
            log_s = log_scale(scale)
            means, covs, log_det = means * scale, times(covs, scale, 2), log_det + 2 * p * log_s
            Q, L = times(Q, 1.0 / scale, 2), L / scale
            if self.include_log_det:
                c = c - p * log_s
        self.priors_, self.means_, self.class_count_ = priors, means, counts
        self.covariances_, self.log_det_ = covs, log_det
        self.quadratic_terms_, self.linear_terms_, self.constant_terms_ = Q, L, c
        with np.errstate(divide="ignore"):
            self._offsets = np.log(priors) - (0.5 * log_det if self.include_log_det else 0.0)

    def _scores(self, X):
        out = np.empty((X.shape[0], self.classes_.size))
        if self._scale is not None:  # the fit's units (exact: a power of two)
            X = X / self._scale
        for s, e in row_blocks(*X.shape):
            for k in range(self.classes_.size):
                Z = (X[s:e] - self._centres[k]) @ self._whiteners[k]
                out[s:e, k] = -0.5 * np.einsum("ij,ij->i", Z, Z)
        out += self._offsets
        return out

    def format_discriminants(self, digits=3):
        """The quadratic discriminant functions written out, one line per class.

        Parameters
        ----------
        digits : int, default=3
            Significant digits of each coefficient.

        Returns
        -------
        str
            Lines ``δ̂_k(x) = c_k + l_k1·x1 + … + q_11·x1² + … + 2q_12·x1·x2 + …``.
        """
        check_is_fitted(self, "constant_terms_")
        return format_quadratic(
            self.quadratic_terms_,
            self.linear_terms_,
            self.constant_terms_,
            self.classes_,
            formula_names(self),
            digits,
        )


def _block_scatters(X, y, offset, classes, means):
    return class_scatters(X, np.searchsorted(classes, y), means)


def _add(a, b):
    return a + b
