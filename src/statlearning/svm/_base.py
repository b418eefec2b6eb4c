"""What SVC, NuSVC and SVR share: the kernel, the dual problems handed to SMO, and prediction.

Each binary problem (a pair of classes, or the regression) is stated as the QP of
:func:`statlearning._solvers.smo.smo` — its variables, signs, linear term and upper bounds — and
solved there; this module turns the solution into the fitted attributes, and evaluates the
decision function ``Σ_s c_s K(x_s, x) + b`` over the support vectors with the one Gram
implementation.
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.utils import compute_class_weight
from sklearn.utils.validation import check_is_fitted

from .._core._kernel_columns import KERNEL_CODES, prepare_columns
from .._core.kernel_gram import is_psd
from .._core.scaling import scale_for
from .._solvers.smo import polish, smo
from .._validation import (
    Boolean,
    Callable,
    Interval,
    Options,
    check_sample_weight,
    validate_kernel_data,
)
from ..base import StatBase
from ..exceptions import NumericalWarning, external_stacklevel, warn_not_converged
from ..kernels import Kernel, Precomputed
from ._kernel import KERNEL_NAMES, cross_gram, resolve_svm_kernel

__all__ = ["BaseSVM"]

#: Problems with at most this many free multipliers end on the exact optimum of their active set
#: (:func:`statlearning._solvers.smo.polish`), after SMO at ``_FINE_TOL`` when needed.
_SMALL = 256
_FINE_TOL = 1e-10

_KERNEL_CONSTRAINT = [Options(KERNEL_NAMES), Callable()]
_GAMMA_CONSTRAINT = [
    Options({"scale", "auto"}),
    Interval(numbers.Real, 0.0, None, closed="neither"),
]


class BaseSVM(StatBase):
    """Kernel handling, SMO calls and the decision function of the support-vector machines."""

    _parameter_constraints: dict = {
        "kernel": _KERNEL_CONSTRAINT,
        "degree": [Interval(numbers.Real, 0.0, None, closed="left")],
        "gamma": _GAMMA_CONSTRAINT,
        "coef0": [Interval(numbers.Real, None, None, closed="neither")],
        "tol": [Interval(numbers.Real, 0.0, None, closed="neither")],
        "cache_size": [Interval(numbers.Real, 0.0, None, closed="neither")],
        "shrinking": [Boolean()],
        "max_iter": [Interval(numbers.Integral, -1, None, closed="left")],
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # a Gram matrix as X, by name or object: scikit-learn's CV then slices rows and columns
        tags.input_tags.pairwise = self.kernel == "precomputed" or isinstance(
            self.kernel, Precomputed
        )
        return tags

    # ------------------------------------------------------------------ data and kernel
    def _on_sequences(self):
        """Whether ``kernel`` is a kernel object on sequences (strings), not on numbers."""
        return isinstance(self.kernel, Kernel) and not self.kernel.requires_numeric

    def _validate_fit_data(self, X, y, sample_weight, *, classifier):
        name = type(self).__name__
        X, y = validate_kernel_data(
            self, X, y, numeric=not self._on_sequences(), dtype=np.float64, order="C",
            y_numeric=not classifier,
        )  # fmt: skip
        if self.kernel == "precomputed" and X.shape[0] != X.shape[1]:
            raise ValueError(
                f"{name}: with kernel='precomputed' X must be the square Gram matrix of the "
                f"training samples; got shape {X.shape}."
            )
        sw = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        return X, y, sw

    def _input_exponent(self, X):
        """The power of two by which ``X`` is scaled before the kernel (0: not scaled).

        With ``gamma="scale"`` the ``rbf``, ``poly`` and ``sigmoid`` kernels are invariant to
        the scale of ``X`` (γ follows ``1/Var(X)``); data near the ends of float64 (largest
        ``|x|`` beyond ``2^±200``, about ``1e±60``) are brought to unit scale by a power of two
        (:func:`statlearning._core.scaling.scale_for`) — exact — so that ``‖x‖²`` neither
        overflows nor underflows. Other data are untouched.
        """
        if not (
            isinstance(self.kernel, str)
            and self.kernel in ("rbf", "poly", "sigmoid")
            and isinstance(self.gamma, str)
            and self.gamma == "scale"
        ):
            return 0
        s = scale_for(X)
        return 0 if s is None else 1 - int(np.frexp(s)[1])  # s = 2**e: frexp gives e + 1

    def _scaled(self, X):
        """``X`` times the fitted power of two (see :meth:`_input_exponent`)."""
        k = getattr(self, "_exponent", 0)
        return np.ldexp(X, k) if k else X

    def _setup_kernel(self, X, sample_weight):
        """Resolve the kernel (stored as private fitted state) and return the solver's view of
        the training data: ``(data, sqnorm, code, gamma)``."""
        spec = resolve_svm_kernel(self, X, sample_weight)
        self._kernel_spec = spec
        self._converged = True
        if spec.name == "precomputed":
            _warn_if_not_psd(self, X)
            return prepare_columns(X, "precomputed", None)
        if spec.name == "object":
            K = spec.evaluate(X, X)
            _warn_if_not_psd(self, K)
            return prepare_columns(K, "precomputed", None)
        return prepare_columns(X, spec.name, spec.gamma)

    def _kernel_to_support(self, X):
        """``K(X, support_vectors_)`` (for a precomputed kernel: the columns ``support_``)."""
        spec = self._kernel_spec
        if spec.name == "precomputed":  # validate_data checked one column per training sample
            return X[:, self.support_]
        if spec.name == "object":
            return spec.evaluate(X, self.support_vectors_)
        return cross_gram(self._scaled(X), self._scaled(self.support_vectors_), spec)

    def _blockwise(self, X, evaluate, n_out):
        """``evaluate(K)`` on ``K = K(X_block, support_vectors_)`` for row blocks of ``X`` of
        about 16 MB each, stacked: the kernel against every support vector is never held for
        all rows at once."""
        step = max(1, (1 << 21) // max(self.support_.size, 1))
        out = np.empty((X.shape[0], n_out))
        for start in range(0, X.shape[0], step):
            rows = slice(start, start + step)
            out[rows] = evaluate(self._kernel_to_support(X[rows])).reshape(-1, n_out)
        return out

    def _validate_predict_data(self, X):
        check_is_fitted(self)
        return validate_kernel_data(
            self, X, numeric=not self._on_sequences(), reset=False, dtype=np.float64, order="C"
        )

    # ------------------------------------------------------------------ one binary dual
    def _solve(
        self, data, sqnorm, code, gamma, idx, y, p, upper, *, alpha0=None, shift=None, nu=False
    ):
        """SMO on the samples ``idx`` (variables map onto them by position ``% len(idx)``)."""
        spec = self._kernel_spec
        if code == KERNEL_CODES["precomputed"]:
            sub = data[np.ix_(idx, idx)]
            sub_sq = np.zeros(idx.size)
        else:
            sub = data[:, idx]
            sub_sq = sqnorm[idx]
        sample = np.arange(y.shape[0]) % idx.size
        args = (sub, sub_sq, code, gamma, spec.degree, spec.coef0, sample, y, p, upper)
        alpha, grad, rho, n_iter, converged = smo(
            *args,
            alpha0=alpha0,
            shift=shift,
            nu=nu,
            tol=self.tol,
            max_iter=self.max_iter,
            cache_size=self.cache_size,
            shrinking=self.shrinking,
        )
        if not converged:
            self._converged = False
            cap = self.max_iter if self.max_iter >= 0 else "libsvm's safety cap"
            warn_not_converged(
                self, "SMO", max_iter=cap, tol=self.tol, advice="increase max_iter or tol"
            )
            return alpha, rho, n_iter
        better = polish(*args, alpha, grad, shift=shift, nu=nu, tol=self.tol)
        n_free = np.count_nonzero((alpha > 0) & (alpha < upper))
        if better is None and n_free <= _SMALL and self.tol > _FINE_TOL:
            # a small problem whose active set SMO has not settled at tol (duplicated rows, or
            # a multiplier about to leave its bound): finish it at a fine tolerance
            alpha, grad, rho, more, _ = smo(
                *args,
                alpha0=alpha,
                shift=shift,
                nu=nu,
                tol=_FINE_TOL,
                max_iter=100 * y.shape[0] + 10_000,
                cache_size=self.cache_size,
                shrinking=self.shrinking,
            )
            n_iter += more
            better = polish(*args, alpha, grad, shift=shift, nu=nu, tol=self.tol)
        if better is not None:
            alpha, grad, rho = better
        return alpha, rho, n_iter

    # ------------------------------------------------------------------ prediction
    def _pair_decision(self, K):
        """One-vs-one decision values (libsvm's sign: positive for the pair's first class)."""
        n_classes = len(self.n_support_)
        starts = np.concatenate([[0], np.cumsum(self.n_support_)])
        coef = self._dual_coef
        out = np.empty((K.shape[0], n_classes * (n_classes - 1) // 2))
        k = 0
        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                sa = slice(starts[a], starts[a + 1])
                sb = slice(starts[b], starts[b + 1])
                out[:, k] = K[:, sa] @ coef[b - 1, sa] + K[:, sb] @ coef[a, sb] - self._rho[k]
                k += 1
        return out


#: Rows of the leading principal submatrix whose eigenvalues the PSD check computes (every
#: principal submatrix of a PSD matrix is PSD, so a negative eigenvalue there is conclusive).
_PSD_CHECK_ROWS = 1000


def _warn_if_not_psd(est, K):
    """Warn when a kernel matrix is not positive semi-definite (the dual is then not convex).

    The test (:func:`statlearning._core.kernel_gram.is_psd`) runs on the leading
    ``_PSD_CHECK_ROWS × _PSD_CHECK_ROWS`` principal submatrix (the whole matrix when smaller):
    every principal submatrix of a PSD matrix is PSD, so a failure there is conclusive.
    """
    m = min(K.shape[0], _PSD_CHECK_ROWS)
    if not is_psd(K[:m, :m]):
        warnings.warn(
            f"{type(est).__name__}: the kernel matrix is not positive semi-definite; the dual "
            "problem is not convex and SMO returns a stationary point, not necessarily the "
            "optimum.",
            NumericalWarning,
            stacklevel=external_stacklevel(),
        )


def fit_weights(est, sample_weight, codes, n_classes):
    """Per-sample weight ``sample_weight · class_weight[class]`` and the resolved class weights."""
    cw = est.class_weight
    if cw is None:
        class_weight = np.ones(n_classes)
    else:
        classes = est.classes_
        if isinstance(cw, dict):
            unknown = [k for k in cw if k not in set(classes.tolist())]
            if unknown:
                raise ValueError(
                    f"{type(est).__name__}: class_weight names labels {unknown} that are not "
                    f"in y (classes: {classes.tolist()})."
                )
        class_weight = compute_class_weight(cw, classes=classes, y=classes[codes])
    return sample_weight * class_weight[codes], class_weight
