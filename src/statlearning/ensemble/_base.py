"""Machinery shared by bagging and random forests: seeds, bootstrap counts, threads, OOB.

Every member ``b`` of the ensemble gets three integer seeds drawn up front from
``random_state``: for its bootstrap sample, for the member itself (a tree's random feature
subsets) and for its permutation importance. The ensemble is therefore the same whatever
``n_jobs`` is, and the in-bag counts can be recomputed from the seeds instead of being stored.
"""

from __future__ import annotations

import os
import warnings
from abc import ABCMeta, abstractmethod
from numbers import Integral

import numpy as np
from sklearn.base import clone
from sklearn.utils import check_random_state
from sklearn.utils.parallel import Parallel, delayed
from sklearn.utils.validation import check_is_fitted, has_fit_parameter

from .._core.class_labels import encode_class_labels
from .._core.compiled import kernel_array
from .._core.scaling import max_abs, scale_for, times
from .._validation import check_finite_columns, check_sample_weight, validate_data
from ..base import StatBase
from ..exceptions import warn_data_scale
from ..tree import DecisionTreeClassifier, DecisionTreeRegressor
from ..tree._structure import apply_tree
from ._accumulate import accumulate_forest, pack_forest

_OUR_TREES = (DecisionTreeClassifier, DecisionTreeRegressor)


def numeric_tree(est) -> bool:
    """A statlearning tree with numeric splits only (``x < threshold``): the compiled path."""
    return type(est) in _OUR_TREES and getattr(est.tree_, "cat_left", None) is None


def _fit_tree(estimator, X, y, counts, accepts_weight):
    """Fit one member on its bootstrap sample: the single place where a member is grown.

    A statlearning tree grows on the repeated rows: ``counts`` are its case weights and the
    observations of its ``min_samples_*`` rules (R's ``randomForest``). Another estimator
    accepting ``sample_weight`` gets ``counts`` as weights; otherwise the rows are repeated
    by indexing.
    """
    if type(estimator) in _OUR_TREES:
        return estimator._fit_replicated(X, y, counts)
    if accepts_weight:
        return estimator.fit(X, y, sample_weight=counts)
    idx = np.repeat(np.arange(X.shape[0]), counts.astype(np.int64))
    return estimator.fit(X[idx], y[idx])


def row_order(X, target) -> np.ndarray:
    """A canonical order of the rows: by two fixed random projections of ``x``, then ``y``.

    Identical rows are adjacent and the order does not depend on how the rows were given, so
    the bootstrap samples (and the ensemble) are invariant to row order and to replacing
    repeated rows by integer weights.
    """
    r = np.random.RandomState(0).normal(size=(X.shape[1], 2))
    proj = X @ r
    return np.lexsort((target, proj[:, 1], proj[:, 0]))


def check_finite_input(X, owner: str, names=None) -> None:
    """Forests do not route missing values: NaN or infinity in ``X`` is a ``ValueError``
    naming the column."""
    check_finite_columns(
        X,
        owner,
        names=names,
        advice="bagged trees and random forests do not route missing or infinite values (no "
        "surrogate splits), so impute or drop those rows first",
    )


class BaseBagging(StatBase, metaclass=ABCMeta):
    """Shared fit / predict / OOB logic; subclasses define :meth:`_make_estimator`."""

    _is_classifier = False

    # -- members ---------------------------------------------------------------------------
    @abstractmethod
    def _make_estimator(self, seed: int, n_features: int):
        """An unfitted member whose random choices are seeded by ``seed``."""

    def _n_draws(self, n: float) -> int:
        m = self.max_samples
        if isinstance(m, Integral):
            if m > n:
                raise ValueError(f"max_samples={m} exceeds the number of samples ({n:g}).")
            return int(m)
        return max(1, round(m * n))

    def _counts(self, seed: int, w: np.ndarray, order: np.ndarray) -> np.ndarray:
        """In-bag counts of every row, drawn with probabilities proportional to ``w``.

        The weights enter through their ratios :math:`r_i = w_i / \\min_{w_j > 0} w_j`, so
        rescaling them does not change the sample. When every :math:`r_i` is an integer (unit
        weights included) they are frequencies: the draws are uniform over the rows repeated
        :math:`r_i` times, ``max_samples`` of :math:`\\sum_i r_i` rows, exactly the sample of
        the repeated rows. Otherwise ``max_samples`` of the rows of positive weight are drawn
        with probabilities :math:`w_i / \\sum_j w_j`. The rows are taken in the canonical
        ``order`` (:func:`row_order`), so the sample does not depend on the order of the rows.
        """
        counts = self._counts_ordered(seed, w[order])
        out = np.empty_like(counts)
        out[order] = counts
        return out

    def _counts_ordered(self, seed: int, w: np.ndarray) -> np.ndarray:
        rng = np.random.RandomState(seed)
        positive = w > 0
        w = w / w[positive].min()  # the ratios r: scale-free
        integral = bool(np.all(np.abs(w - np.round(w)) <= 1e-9 * w))
        if integral:
            w = np.round(w)
        total = float(w.sum())
        k = self._n_draws(total if integral else int(np.count_nonzero(positive)))
        cum = np.cumsum(w)
        if self.bootstrap:
            u = rng.randint(0, round(total), k) if integral else rng.random_sample(k) * total
        elif integral:
            u = rng.choice(round(total), size=k, replace=False)
        else:
            u = rng.choice(w.size, size=min(k, int(np.sum(w > 0))), replace=False, p=w / total)
            return np.bincount(u, minlength=w.size).astype(np.float64)
        rows = np.minimum(np.searchsorted(cum, u, side="right"), w.size - 1)
        return np.bincount(rows, minlength=w.size).astype(np.float64)

    def _workers(self) -> int:
        if self.n_jobs is None:
            return 1
        if self.n_jobs < 0:
            return max(1, (os.cpu_count() or 1) + 1 + self.n_jobs)
        return int(self.n_jobs)

    def _map(self, fn, items, *shared, sharedmem=False):
        """``[fn(i, *shared) for i in items]`` on ``n_jobs`` joblib threads (the compiled
        kernels release the GIL); joblib's ``parallel_config`` applies when ``n_jobs`` is
        ``None``, so that ``parallel_config(backend="dask")`` sends the calls to a Dask
        cluster. The arrays in ``shared`` are arguments, not closure variables, so that such a
        backend ships them once (joblib's Dask backend scatters large arguments), not once per
        call. ``sharedmem=True`` (``fn`` writes into an array of this process) keeps the calls
        on threads of this process whatever the backend."""
        if len(items) <= 1 or (self._workers() == 1 and self.n_jobs is not None):
            return [fn(i, *shared) for i in items]
        require = "sharedmem" if sharedmem else None
        return Parallel(n_jobs=self.n_jobs, prefer="threads", require=require)(
            delayed(fn)(i, *shared) for i in items
        )

    # -- fit -------------------------------------------------------------------------------
    def _validate_fit(self, X, y, sample_weight):
        name = type(self).__name__
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite=False,
                             y_numeric=not self._is_classifier)
        check_finite_input(X, name, getattr(self, "feature_names_in_", None))
        if self._is_classifier:
            self.classes_, codes = encode_class_labels(y, name, min_classes=2)
            self.n_classes_ = int(self.classes_.size)
            target = codes
        else:
            codes = None
            target = np.asarray(y, dtype=np.float64)
            if target.ndim != 1:
                target = target.ravel()
        w = check_sample_weight(sample_weight, X.shape[0], estimator_name=name)
        if self.oob_score and not self.bootstrap:
            raise ValueError(f"{name}: oob_score=True needs bootstrap=True (no row is out of "
                             "bag otherwise).")
        return X, target, w

    def _fit_members(self, X, target, w, per_tree=None):
        """Grow all members (threads); ``per_tree(est, counts, seed)`` adds per-member results."""
        n, p = X.shape
        rng = check_random_state(self.random_state)
        seeds = rng.randint(np.iinfo(np.int32).max, size=(self.n_estimators, 3))
        probe = self._make_estimator(0, p)
        accepts = has_fit_parameter(probe, "sample_weight")

        order = row_order(X, target)

        def job(b, X, target, w, order):
            counts = self._counts(int(seeds[b, 0]), w, order)
            est = _fit_tree(self._make_estimator(int(seeds[b, 1]), p), X, target, counts,
                            accepts)
            extra = (per_tree(est, counts, int(seeds[b, 2])) if per_tree is not None
                     else None)
            return est, extra

        results = self._map(job, list(range(self.n_estimators)), X, target, w, order)
        self.estimators_ = [r[0] for r in results]
        self._seeds = seeds
        self._n_samples = n
        self._fast = all(numeric_tree(e) for e in self.estimators_)
        return [r[1] for r in results]

    def _in_bag_counts(self, b: int, X, target, w) -> np.ndarray:
        """In-bag counts of member ``b``, recomputed from its seed and the training data."""
        return self._counts(int(self._seeds[b, 0]), w, row_order(X, target))

    # -- outputs of one member / of the ensemble ------------------------------------------
    def _hard(self) -> bool:
        return self._is_classifier and self.voting == "hard"

    def _member_output(self, est, X, hard: bool) -> np.ndarray:
        """(m, k) class probabilities or one-hot votes, or (m, 1) predictions; ``X`` valid."""
        if numeric_tree(est):
            t = est.tree_
            values = t.value[apply_tree(t.children_left, t.children_right, t.feature,
                                        t.threshold, X)]
            if hard:
                out = np.zeros_like(values)
                out[np.arange(values.shape[0]), np.argmax(values, axis=1)] = 1.0
                return out
            return values
        if not self._is_classifier:
            return np.asarray(est.predict(X), dtype=np.float64).reshape(-1, 1)
        out = np.zeros((X.shape[0], self.n_classes_))
        cols = np.asarray(est.classes_, dtype=np.int64)
        if hard or not hasattr(est, "predict_proba"):
            pred = np.asarray(est.predict(X), dtype=np.int64)
            out[np.arange(X.shape[0]), pred] = 1.0
        else:
            out[:, cols] = est.predict_proba(X)
        return out

    def _sum_outputs(self, X, hard: bool) -> np.ndarray:
        k = self.n_classes_ if self._is_classifier else 1
        if not self._fast:
            out = np.zeros((X.shape[0], k))
            for est in self.estimators_:
                out += self._member_output(est, X, hard)
            return out
        X = kernel_array(X, np.float64)
        out = np.zeros((X.shape[0], k))
        # routing tables built per call (a few ms), not stored: they would add ~40% to the
        # fitted forest's memory
        packed = pack_forest([e.tree_ for e in self.estimators_])
        chunks = np.array_split(np.arange(X.shape[0]), max(1, min(self._workers(), X.shape[0])))

        def run(rows):
            if rows.size:
                sl = slice(rows[0], rows[-1] + 1)
                accumulate_forest(packed, X[sl], hard, out[sl])

        self._map(run, chunks, sharedmem=True)
        return out

    def _validate_predict(self, X):
        check_is_fitted(self, "estimators_")
        X = validate_data(self, X, reset=False, dtype=np.float64, ensure_all_finite=False)
        check_finite_input(X, type(self).__name__, getattr(self, "feature_names_in_", None))
        return X

    # -- out-of-bag ------------------------------------------------------------------------
    def _compute_oob(self, X, target, w):
        """OOB predictions, score and error curve over the first b members, b = 1..B."""
        n = X.shape[0]
        hard = self._hard()
        k = self.n_classes_ if self._is_classifier else 1
        sums = np.zeros((n, k))
        n_oob = np.zeros(n, dtype=np.int64)
        loss = np.zeros(n)
        total, covered = 0.0, 0.0
        curve = np.empty(self.n_estimators)
        # squared errors in units of unit² (a power of two) when y's squares leave float64
        unit = (None if self._is_classifier else scale_for(target)) or 1.0
        order = row_order(X, target)
        for b, est in enumerate(self.estimators_):
            rows = np.flatnonzero((self._counts(int(self._seeds[b, 0]), w, order) == 0)
                                  & (w > 0))
            if rows.size:
                sums[rows] += self._member_output(est, X[rows], hard)
                covered += float(np.sum(w[rows][n_oob[rows] == 0]))
                n_oob[rows] += 1
                if self._is_classifier:
                    new = (np.argmax(sums[rows], axis=1) != target[rows]).astype(np.float64)
                else:
                    new = ((sums[rows, 0] / n_oob[rows] - target[rows]) / unit) ** 2
                total += float(np.dot(w[rows], new - loss[rows]))
                loss[rows] = new
            curve[b] = total / covered if covered else np.nan
        seen = n_oob > 0
        if not np.all(seen | (w == 0)):
            warnings.warn(
                f"{type(self).__name__}: {int(np.sum(~seen & (w > 0)))} rows were in every "
                "bootstrap sample and have no OOB prediction (NaN); they are left out of "
                "oob_score_. "
                "Use more estimators.", UserWarning, stacklevel=3)
        with np.errstate(invalid="ignore", divide="ignore"):
            pred = sums / n_oob[:, None]
        if unit != 1.0:
            scaled, curve = curve, times(curve, unit, 2)
            if np.any((scaled > 0) & ((curve == 0) | np.isinf(curve))):
                warn_data_scale(self, ["oob_error_curve_"], float(max_abs(target)))
        self.oob_error_curve_ = curve
        if self._is_classifier:
            self.oob_decision_function_ = pred
            self.oob_score_ = float(1.0 - curve[-1])
        else:
            self.oob_prediction_ = pred[:, 0]
            yy, ww = target[seen] / unit, w[seen]  # R² does not depend on the unit
            if yy.size == 0:
                self.oob_score_ = np.nan
                return
            sst = float(np.dot(ww, (yy - np.average(yy, weights=ww)) ** 2))
            sse = float(np.dot(ww, (pred[seen, 0] / unit - yy) ** 2))
            self.oob_score_ = 1.0 - sse / sst if sst > 0 else (1.0 if sse == 0 else -np.inf)


class ClassifierOutputs:
    """``predict_proba`` / ``predict`` of bagged classifiers (soft or hard voting)."""

    def predict_proba(self, X) -> np.ndarray:
        """Mean of the members' class probabilities (``voting="soft"``) or vote fractions.

        With ``voting="soft"`` each member contributes its class probabilities (a tree: the
        class proportions in the leaf reached by ``x``); with ``voting="hard"`` a one-hot vote
        for its predicted class. The ensemble's probabilities are the mean over the
        ``n_estimators`` members.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples to score; must be finite (no NaN or infinity).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Class probabilities (soft voting) or fractions of the members' votes (hard
            voting), columns in ``classes_`` order; each row sums to one.
        """
        X = self._validate_predict(X)
        return self._sum_outputs(X, self._hard()) / len(self.estimators_)

    def predict_log_proba(self, X) -> np.ndarray:
        """Logarithm of :meth:`predict_proba` (``-inf`` for a zero probability).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples to score; must be finite (no NaN or infinity).

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Natural logarithm of the class probabilities or vote fractions, columns in
            ``classes_`` order; ``-inf`` where no member gives the class any probability.
        """
        with np.errstate(divide="ignore"):
            return np.log(self.predict_proba(X))

    def predict(self, X) -> np.ndarray:
        """Class with the largest mean probability or vote count (ties: first in ``classes_``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples to classify; must be finite (no NaN or infinity).

        Returns
        -------
        ndarray of shape (n_samples,)
            Predicted class labels, taken from ``classes_`` (so of the same type as the ``y``
            given to ``fit``).
        """
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]


class RegressorOutputs:
    """``predict`` of bagged regressors: the mean of the members' predictions."""

    def predict(self, X) -> np.ndarray:
        """Mean of the members' predictions.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples to predict; must be finite (no NaN or infinity).

        Returns
        -------
        ndarray of shape (n_samples,)
            The unweighted mean over the ``n_estimators`` members of their predictions (a
            tree's prediction is the weighted mean response of the leaf reached by ``x``).
        """
        X = self._validate_predict(X)
        return self._sum_outputs(X, False)[:, 0] / len(self.estimators_)


def clone_member(estimator, default, seed: int):
    """A fresh copy of the base estimator, its ``random_state`` (if any) set to ``seed``."""
    est = clone(default if estimator is None else estimator)
    if "random_state" in est.get_params(deep=False):
        est.set_params(random_state=seed)
    return est
