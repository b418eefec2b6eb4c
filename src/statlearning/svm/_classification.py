"""One-vs-one support-vector classification shared by SVC and NuSVC.

For ``K`` classes the ``K(K−1)/2`` binary problems ``(a, b)``, ``a < b``, are solved on the
samples of the two classes (class ``a`` labelled +1, as libsvm), and assembled in libsvm's and
scikit-learn's layout: support vectors grouped by class in ``classes_`` order (each class's in
sample order), ``dual_coef_[b − 1]`` holding the coefficients of class ``a``'s support vectors
in pair ``(a, b)`` and ``dual_coef_[a]`` those of class ``b``'s, ``intercept_[k] = −ρ_k``. For two
classes scikit-learn flips the signs (positive decision values mean ``classes_[1]``): so do we.
"""

from __future__ import annotations

import functools
import types
import warnings

import numpy as np
from sklearn.utils import check_random_state

from .._core._kernel_columns import PRECOMPUTED
from .._core.class_labels import encode_class_labels
from ..exceptions import NumericalWarning, external_stacklevel
from ._base import BaseSVM, fit_weights
from ._kernel import cross_gram
from ._probability import couple_pairwise, fit_platt, ovr_from_ovo, platt_probability

__all__ = ["BaseSVC"]

#: The hard margin (``C=np.inf``) is solved with this finite bound, far above any multiplier of a
#: separable problem of reasonable scale; reaching it means the data are not separable.
HARD_MARGIN_C = 1e7


class _if_probability:
    """A method that exists only when ``probability=True`` (``hasattr`` is False otherwise)."""

    def __init__(self, method):
        self.method = method
        functools.update_wrapper(self, method)

    def __get__(self, obj, owner=None):
        if obj is None:
            return self.method
        if not obj.probability:
            raise AttributeError(
                f"{type(obj).__name__}.{self.method.__name__} is available only with "
                "probability=True (the Platt sigmoids are fitted in fit)."
            )
        return types.MethodType(self.method, obj)


class BaseSVC(BaseSVM):
    """Fit, decision function, prediction and probabilities of the one-vs-one classifiers."""

    # ------------------------------------------------------------------ problem definitions
    def _pair_problem(self, idx, ys, weights, sample_weight):
        """``(p, upper, alpha0, nu)`` of one binary dual, or None for the constant decision
        ``y_heavy`` (NuSVC where ``class_weight`` leaves no feasible ν); overridden by NuSVC.

        ``weights`` are the pair's ``sample_weight × class_weight``, ``sample_weight`` alone the
        second array."""
        C = HARD_MARGIN_C if self._hard_margin() else self.C
        return -np.ones(idx.size), C * weights, None, False

    def _hard_margin(self):
        return bool(np.isinf(getattr(self, "C", 1.0)))

    def _pair_solution(self, alpha, rho, ys):
        """Signed coefficients and intercept term ``ρ`` from the solver's output."""
        return ys * alpha, rho[0]

    def _fit_classifier(self, X, y, sample_weight):
        X, y, sw = self._validate_fit_data(X, y, sample_weight, classifier=True)
        name = type(self).__name__
        self.classes_, codes = encode_class_labels(y, name)
        n_classes = self.classes_.size
        weights, self.class_weight_ = fit_weights(self, sw, codes, n_classes)
        self._exponent = self._input_exponent(X)
        X_kernel = self._scaled(X)
        data, sqnorm, code, gamma = self._setup_kernel(X_kernel, sw)
        keep = weights > 0
        members = [np.flatnonzero(keep & (codes == c)) for c in range(n_classes)]
        empty = [self.classes_[c] for c in range(n_classes) if members[c].size == 0]
        if empty:
            raise ValueError(
                f"{name}: every sample of class(es) {empty} has zero weight (sample_weight × "
                "class_weight); each class needs a sample of positive weight."
            )
        n = X.shape[0]
        pair_coef, rhos, n_iter, prob_a, prob_b = [], [], [], [], []
        rng = check_random_state(self.random_state) if self.probability else None

        def block(rows, cols):
            if code == PRECOMPUTED:
                return data[np.ix_(rows, cols)]
            return cross_gram(X_kernel[rows], X_kernel[cols], self._kernel_spec)

        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                idx = np.concatenate([members[a], members[b]])
                ys = np.where(np.arange(idx.size) < members[a].size, 1.0, -1.0)
                coef, rho, it = self._solve_pair(data, sqnorm, code, gamma, idx, ys, weights, sw)
                full = np.zeros(n)
                full[idx] = coef
                pair_coef.append(full)
                rhos.append(rho)
                n_iter.append(it)
                if self.probability:
                    A, B = self._platt_cv(
                        data, sqnorm, code, gamma, idx, ys, (weights, sw), block, rng
                    )
                    prob_a.append(A)
                    prob_b.append(B)
        self._assemble(X, codes, pair_coef, rhos, n_classes)
        self.n_iter_ = np.asarray(n_iter, dtype=np.int32)
        self.shape_fit_ = X.shape
        self.fit_status_ = 0 if self._converged else 1
        if self.probability:
            self.probA_ = np.asarray(prob_a)
            self.probB_ = np.asarray(prob_b)
        else:
            self.probA_ = np.empty(0)
            self.probB_ = np.empty(0)
        if self._hard_margin():
            self._check_hard_margin(pair_coef)
        return self

    def _solve_pair(self, data, sqnorm, code, gamma, idx, ys, weights, sample_weight):
        problem = self._pair_problem(idx, ys, weights[idx], sample_weight[idx])
        if problem is None:  # the constant decision towards the class of larger total weight
            w = weights[idx]
            heavy = 1.0 if w[ys > 0].sum() >= w[ys < 0].sum() else -1.0
            return np.zeros(idx.size), -heavy, 0
        p, upper, alpha0, nu = problem
        alpha, rho, it = self._solve(
            data, sqnorm, code, gamma, idx, ys, p, upper, alpha0=alpha0, nu=nu
        )
        coef, rho = self._pair_solution(alpha, rho, ys)
        return coef, rho, it

    def _assemble(self, X, codes, pair_coef, rhos, n_classes):
        """Support vectors, ``dual_coef_`` and ``intercept_`` in scikit-learn's layout."""
        is_sv = np.zeros(X.shape[0], dtype=bool)
        for c in pair_coef:
            is_sv |= c != 0
        support = np.concatenate(
            [np.flatnonzero(is_sv & (codes == c)) for c in range(n_classes)]
        ).astype(np.int32)
        sv_class = codes[support]
        coef = np.zeros((n_classes - 1, support.size))
        k = 0
        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                in_a = sv_class == a
                in_b = sv_class == b
                coef[b - 1, in_a] = pair_coef[k][support[in_a]]
                coef[a, in_b] = pair_coef[k][support[in_b]]
                k += 1
        self.support_ = support
        self.n_support_ = np.bincount(sv_class, minlength=n_classes).astype(np.int32)
        if self._kernel_spec.name == "precomputed":
            self.support_vectors_ = np.empty((0, 0))
        else:
            self.support_vectors_ = X[support]
        self._dual_coef = coef
        self._rho = np.asarray(rhos, dtype=np.float64)
        if n_classes == 2:
            self.dual_coef_ = -coef
            self.intercept_ = self._rho.copy()
        else:
            self.dual_coef_ = coef
            self.intercept_ = -self._rho

    def _check_hard_margin(self, pair_coef):
        if any(np.any(np.abs(c) >= HARD_MARGIN_C * (1 - 1e-9)) for c in pair_coef):
            warnings.warn(
                f"{type(self).__name__}: C=inf asks for the hard margin, but the training data "
                "are not separable by the kernel's hyperplane; the fit is the soft margin with "
                f"C={HARD_MARGIN_C:g}. Use a finite C.",
                NumericalWarning,
                stacklevel=external_stacklevel(),
            )

    # ------------------------------------------------------------------ Platt scaling
    def _platt_cv(self, data, sqnorm, code, gamma, idx, ys, all_weights, block, rng, n_folds=5):
        """Platt's sigmoid on 5-fold cross-validated decision values of one pair.

        Folds are drawn over distinct rows, so that copies of a row (and a row of integer
        weight k, its k copies) always sit in the same fold.
        """
        weights, sample_weight = all_weights
        rows = data[np.ix_(idx, idx)] if code == PRECOMPUTED else data[:, idx].T
        _, group = np.unique(rows, axis=0, return_inverse=True)
        group = group.reshape(-1)
        n_groups = group.max() + 1
        fold_of = np.empty(n_groups, dtype=np.int64)
        fold_of[rng.permutation(n_groups)] = np.arange(n_groups) * n_folds // n_groups
        fold = fold_of[group]
        dec = np.zeros(idx.size)
        for f in range(n_folds):
            test = np.flatnonzero(fold == f)
            train = np.flatnonzero(fold != f)
            if test.size == 0:
                continue
            n_pos = int((ys[train] > 0).sum())
            if n_pos == 0 or n_pos == train.size:
                dec[test] = 1.0 if n_pos > 0 else -1.0
                continue
            if not self._fold_feasible(ys[train], sample_weight[idx[train]]):
                dec[test] = 0.0
                continue
            coef, rho, _ = self._solve_pair(
                data, sqnorm, code, gamma, idx[train], ys[train], weights, sample_weight
            )
            sv = coef != 0
            K = block(idx[test], idx[train][sv])
            dec[test] = K @ coef[sv] - rho
        return fit_platt(dec, ys > 0, weights[idx])

    def _fold_feasible(self, ys, sample_weight):
        return True

    # ------------------------------------------------------------------ prediction
    def _ovo_decision(self, X):
        X = self._validate_predict_data(X)
        n_pairs = self._rho.size
        return self._blockwise(X, self._pair_decision, n_pairs)

    def decision_function(self, X):
        """Decision values: one-vs-rest (``decision_function_shape="ovr"``) or one-vs-one.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            With ``kernel="precomputed"``: the kernel between these samples and the training
            samples, shape (n_samples, n_training_samples).

        Returns
        -------
        ndarray of shape (n_samples,) for two classes (positive: ``classes_[1]``), else
        (n_samples, n_classes) for ``"ovr"`` or (n_samples, n_classes·(n_classes−1)/2) for
        ``"ovo"`` (pairs (0, 1), (0, 2), …, positive: the pair's first class).
        """
        dec = self._ovo_decision(X)
        n_classes = self.classes_.size
        if n_classes == 2:
            return -dec[:, 0]
        if self.decision_function_shape == "ovr":
            return ovr_from_ovo(dec, n_classes)
        return dec

    def predict(self, X):
        """Class labels by one-vs-one voting, as libsvm.

        Ties go to the first class in ``classes_``; with ``break_ties=True`` the largest
        one-vs-rest value decides instead.
        As in libsvm and scikit-learn, the vote ignores the Platt sigmoids: with
        ``probability=True`` the class of largest :meth:`predict_proba` can differ near the
        boundary (Platt's offset ``B`` moves the 50 % point away from decision value 0).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        dec = self._ovo_decision(X)
        n_classes = self.classes_.size
        if self.break_ties and n_classes > 2:
            if self.decision_function_shape != "ovr":
                raise ValueError(
                    f"{type(self).__name__}: break_ties=True needs decision_function_shape='ovr'."
                )
            return self.classes_[np.argmax(ovr_from_ovo(dec, n_classes), axis=1)]
        votes = np.zeros((dec.shape[0], n_classes), dtype=np.int64)
        k = 0
        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                votes[:, a] += dec[:, k] > 0
                votes[:, b] += dec[:, k] <= 0
                k += 1
        return self.classes_[np.argmax(votes, axis=1)]

    @_if_probability
    def predict_proba(self, X):
        """Class probabilities: Platt-scaled pairwise decisions, coupled (``probability=True``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns follow ``classes_``.
        """
        return self._proba_from_decision(self._ovo_decision(X))

    def _proba_from_decision(self, dec):
        r = np.clip(platt_probability(dec, self.probA_, self.probB_), 1e-7, 1 - 1e-7)
        n_classes = self.classes_.size
        if n_classes == 2:
            return np.column_stack([r[:, 0], 1.0 - r[:, 0]])
        return couple_pairwise(r, n_classes)

    @_if_probability
    def predict_log_proba(self, X):
        """Logarithm of :meth:`predict_proba`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return np.log(self.predict_proba(X))

    @property
    def coef_(self):
        """Primal weights ``w`` of each one-vs-one pair (linear kernel only).

        Shape (n_classes·(n_classes−1)/2, n_features).
        """
        if self._kernel_spec.name != "linear":
            raise AttributeError("coef_ is only available with the linear kernel")
        n_classes = len(self.n_support_)
        if n_classes == 2:
            return self.dual_coef_ @ self.support_vectors_
        starts = np.concatenate([[0], np.cumsum(self.n_support_)])
        rows = []
        for a in range(n_classes):
            for b in range(a + 1, n_classes):
                sa = slice(starts[a], starts[a + 1])
                sb = slice(starts[b], starts[b + 1])
                rows.append(
                    self.dual_coef_[b - 1, sa] @ self.support_vectors_[sa]
                    + self.dual_coef_[a, sb] @ self.support_vectors_[sb]
                )
        return np.asarray(rows)
