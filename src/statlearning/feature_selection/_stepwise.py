"""Forward, backward and hybrid stepwise selection: :class:`StepwiseSelector`."""

from __future__ import annotations

import warnings
from numbers import Integral

import numpy as np
from sklearn.base import clone
from sklearn.utils import get_tags
from sklearn.utils.validation import validate_data

from .._validation import (
    CV,
    DEPRECATED,
    ArrayLike,
    Boolean,
    InstanceOf,
    Interval,
    Options,
    renamed_parameter,
)
from ..base import StatBase, TransformerMixin, fit_context
from ..exceptions import RankDeficientWarning, warn_aliased
from ..linear_model import GLMRegressor, LogisticRegression
from ._common import (
    ALIAS_TOL,
    CRITERIA,
    SelectorMixin,
    choose_size,
    criteria,
    cross_products,
    full_model_sigma2,
    path_rows,
    rescaled_data,
    sweep_in,
    unscale_path,
    variable_names,
)
from ._subset import add_cv_to_path, check_n_samples, cv_errors
from ._subset_kernels import greedy_path, move_rss, sweep_inplace


def ols_stepwise(C, direction, start, fit_intercept, max_size, score=None, aliased=None):
    """Stepwise search by RSS on the scaled cross-product matrix ``C`` of ``[X, y]``.

    Every move is one sweep of ``C`` (compiled); a forward or backward path without ``score``
    runs entirely in :func:`._subset_kernels.greedy_path`. ``score(rss, k)`` (when given;
    arrays of candidate RSS and sizes in, an array out) picks moves and halts as R's
    ``step``. ``aliased`` lists the columns aliased in the full model (computed when
    ``None``); they never enter.

    Returns ``steps``, a list of ``(sorted tuple of columns, rss)``, the first being the start
    model.
    """
    p = C.shape[0] - 1
    if aliased is None:
        aliased = sweep_in(C, range(p))[2]
    A, current, _ = sweep_in(C, [j for j in start if j not in aliased])
    in_model = np.zeros(p, dtype=bool)
    in_model[current] = True
    current = set(current)
    steps = [(tuple(sorted(current)), float(A[-1, -1]))]
    if score is None and direction in ("forward", "backward"):
        moved, rss = greedy_path(A, C, in_model, direction == "forward", max_size, ALIAS_TOL)
        for j, r in zip(moved.tolist(), rss.tolist(), strict=True):
            current ^= {j}
            steps.append((tuple(sorted(current)), r))
        return steps
    ki = int(fit_intercept)
    seen = {steps[0][0]}
    cand = np.empty(p)
    while True:
        move_rss(
            A,
            C,
            in_model,
            direction in ("forward", "both") and len(current) < max_size,
            direction in ("backward", "both"),
            ALIAS_TOL,
            cand,
        )
        js = np.flatnonzero(~np.isnan(cand)).tolist()
        if not js:
            break
        if score is None:
            j = js[int(np.argmin(cand[js]))]
        else:
            k_after = len(current) + ki + np.where(in_model[js], -1, 1)
            scored = score(cand[js], k_after)
            i = int(np.argmin(scored))  # the first of equal scores: the smallest column
            j = js[i]
            if scored[i] >= score(A[-1, -1], len(current) + ki) - 1e-7:
                break
        nxt = tuple(sorted(current ^ {j}))
        if nxt in seen:  # a hybrid search returning to a visited model stops
            break
        seen.add(nxt)
        sweep_inplace(A, j)
        in_model[j] = not in_model[j]
        current = set(nxt)
        steps.append((nxt, float(A[-1, -1])))
    return steps


class StepwiseSelector(SelectorMixin, TransformerMixin, StatBase):
    """Forward, backward or hybrid stepwise selection (R's ``regsubsets`` and ``step``).

    Within a step the move (adding or dropping one feature) with the smallest residual sum of
    squares wins — for a GLM, the smallest AIC — and a criterion chooses among the models of
    the path (seed 004 §5.2: forward and backward stepwise, M₀ … M_p).

    Parameters
    ----------
    direction : {"forward", "backward", "both"}, default="forward"
        ``"forward"`` adds one feature per step from ``start`` (default: no feature);
        ``"backward"`` drops one per step from ``start`` (default: every feature; refused when
        the full model has no residual degrees of freedom, ``n ≤ k``); ``"both"`` considers
        every addition and every removal at each step and takes the one that improves the
        criterion most, halting when none does — R's ``step(direction = "both")``, whatever
        ``stop`` says (default start: every feature, as ``step(full_model)``).
    criterion : {"bic", "aic", "cp", "adjr2", "cv"}, default="bic"
        Chooses among the models of the path (formulas as :class:`BestSubsetSelector`). A GLM
        ``estimator`` takes ``"aic"`` or ``"bic"`` (its ``aic_``/``bic_``).
    estimator : GLMRegressor or LogisticRegression, default=None
        ``None``: least squares, through sweeps of the cross-product matrix (no refits). A
        :class:`statlearning.linear_model.GLMRegressor` or
        :class:`statlearning.linear_model.LogisticRegression` is refitted on every candidate
        subset and scored by its ``aic_`` (R's ``step`` on a ``glm``).
    start : array-like of int, str or bool, default=None
        Initial features (indices, names from ``feature_names_in_`` or a mask).
    stop : {"full", "criterion"}, default="full"
        ``"full"`` runs forward/backward to the end of the path and then chooses the size by
        the criterion; ``"criterion"`` halts at the first step that does not improve it (R's
        ``step``).
    max_features : int or None, default=None
        Forward searches add at most this many features.
    convention : {"leaps", "islr"}, default="leaps"
        Criteria formulas, as :class:`BestSubsetSelector`.
    cv : int, cross-validation generator or iterable, default=None
        Folds for ``criterion="cv"`` (``None``: 10-fold); the search is re-run on every
        training fold. Needs ``stop="full"`` and ``direction`` forward or backward.
    rule : {"min", "1se"}, default="min"
        ``criterion="cv"`` only: the minimum or the one-standard-error rule (as
        :class:`BestSubsetSelector`).
    fit_intercept : bool, default=True
        Least squares only (a GLM ``estimator`` uses its own ``fit_intercept``).
    selection : {"min", "1se"}
        Deprecated name of ``rule`` (a ``FutureWarning``).

    Attributes
    ----------
    support_ : ndarray of shape (n_features_in_,), bool
    best_size_ : int
    path_ : list of dict
        One row per step: ``step``, ``size``, ``variables``, then ``rss``, ``r2``, ``adjr2``,
        ``cp``, ``bic``, ``aic`` (and ``cv``, ``cv_se``) for least squares, or ``deviance``,
        ``aic``, ``bic`` for a GLM.
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    Least squares: each step costs one sweep of the ``(p+1) × (p+1)`` cross-product matrix;
    the criteria are those of :class:`BestSubsetSelector` (``convention="leaps"``:
    ``Cp = RSS/σ̂² − n + 2k``, ``BIC = n ln(RSS/TSS) + k ln n``, ``AIC = n ln(RSS/n) + 2k``
    as R's ``extractAIC``; ``k`` counts the intercept). A forward search visits
    ``1 + p + (p−1) + … + 1 = (p² + p + 2)/2`` models (seed 004 §5.2).

    R equivalents: ``regsubsets(x, y, method = "forward" | "backward")`` for ``stop="full"``;
    ``step(lm(...), direction = ...)`` or ``step(glm(...), direction = ...)`` for
    ``criterion="aic", stop="criterion"`` (``k = log(n)`` in ``step`` is ``criterion="bic"``).
    """

    _parameter_constraints = {
        "direction": [Options({"forward", "backward", "both"})],
        "criterion": [Options(CRITERIA)],
        "estimator": [None, InstanceOf(GLMRegressor, LogisticRegression)],
        "start": [None, ArrayLike()],
        "stop": [Options({"full", "criterion"})],
        "max_features": [None, Interval(Integral, 0, None, closed="left")],
        "convention": [Options({"leaps", "islr"})],
        "cv": [None, CV()],
        "rule": [Options({"min", "1se"})],
        "selection": [Options({"min", "1se"}), Options({DEPRECATED})],
        "fit_intercept": [Boolean()],
    }

    def __init__(
        self,
        direction="forward",
        criterion="bic",
        estimator=None,
        start=None,
        *,
        stop="full",
        max_features=None,
        convention="leaps",
        cv=None,
        rule="min",
        fit_intercept=True,
        selection=DEPRECATED,
    ):
        self.direction = direction
        self.criterion = criterion
        self.estimator = estimator
        self.start = start
        self.stop = stop
        self.max_features = max_features
        self.convention = convention
        self.cv = cv
        self.rule = rule
        self.fit_intercept = fit_intercept
        self.selection = selection

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if self.estimator is not None:
            tags.target_tags.positive_only = get_tags(self.estimator).target_tags.positive_only
        return tags

    def _start_set(self, p):
        if self.start is None:
            return list(range(p)) if self.direction != "forward" else []
        start = np.asarray(self.start)
        if start.dtype == bool:
            if start.shape != (p,):
                raise ValueError(f"start: a boolean mask must have {p} entries, got {start.shape}.")
            return [int(j) for j in np.flatnonzero(start)]
        if start.dtype.kind in "US":
            names = list(getattr(self, "feature_names_in_", []))
            missing = [s for s in start if s not in names]
            if missing:
                raise ValueError(f"start: unknown feature names {missing}.")
            return sorted(names.index(s) for s in start)
        if start.size == 0:
            return []
        if start.dtype.kind not in "iu" or start.min() < 0 or start.max() >= p:
            raise ValueError(f"start: expected column indices in [0, {p}), got {self.start!r}.")
        return sorted({int(j) for j in start})

    @fit_context
    def fit(self, X, y):
        """Run the stepwise search and choose the model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        name = type(self).__name__
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=self.estimator is None)
        n, p = X.shape
        check_n_samples(n, name)
        start = self._start_set(p)
        if self.criterion == "cv" and (self.stop != "full" or self.direction == "both"):
            raise ValueError(
                f"{name}: criterion='cv' needs stop='full' and direction 'forward' or "
                "'backward' (the search is repeated on each training fold, size by size)."
            )
        y_scale = 1.0
        if self.estimator is not None:
            path = self._fit_glm(X, y, start)
        else:  # the least-squares search is equivariant in X's columns and y
            X, y, y_scale = rescaled_data(X, y)
            path = self._fit_ols(X, y, start)
        for i, row in enumerate(path):
            row["step"] = i
        if self.stop == "criterion" or self.direction == "both":
            chosen = len(path) - 1
        else:
            chosen = choose_size(
                path, self.criterion, renamed_parameter(self, "selection", "rule")
            )
        self.best_size_ = path[chosen]["size"]
        unscale_path(self, path, y_scale, n, self.convention)
        support = np.zeros(p, dtype=bool)
        support[list(path[chosen]["_cols"])] = True
        for row in path:
            del row["_cols"]
        self.support_ = support
        self.path_ = path
        return self

    def _fit_ols(self, X, y, start):
        name = type(self).__name__
        n, p = X.shape
        ki = int(self.fit_intercept)
        if len(start) + ki >= n and self.direction != "forward":
            raise ValueError(
                f"{name}: backward selection starts from a model with {len(start) + ki} "
                f"coefficients but there are only n = {n} samples (p > n); the full model cannot "
                "be fitted. Use direction='forward' (or a smaller start)."
            )
        max_size = p if self.max_features is None else self.max_features
        C, _, tss = cross_products(X, y, self.fit_intercept)
        A_full, kept, aliased = sweep_in(C, range(p))
        k_full = len(kept) + ki
        sigma2 = full_model_sigma2(
            float(A_full[-1, -1]), n, k_full, self.criterion, self.convention, name
        )
        score = None
        if self.stop == "criterion" or self.direction == "both":
            if self.criterion in ("cv",):
                raise ValueError(f"{name}: stop='criterion' cannot use criterion='cv'.")
            sign = -1.0 if self.criterion == "adjr2" else 1.0

            def score(rss, k):
                row = criteria(rss, k, n, tss, sigma2, self.convention, self.fit_intercept)
                return sign * row[self.criterion]

        steps = ols_stepwise(
            C, self.direction, start, self.fit_intercept, max_size, score, aliased
        )
        if aliased:
            warn_aliased(self, variable_names(self, aliased), consequence="they are never selected")
        path = path_rows(
            self,
            [cols for cols, _ in steps],
            [rss for _, rss in steps],
            n,
            tss,
            sigma2,
            self.convention,
            self.fit_intercept,
        )
        if self.criterion == "cv":
            path.sort(key=lambda r: r["size"])

            def by_size(Xt, yt):
                Ct = cross_products(Xt, yt, self.fit_intercept)[0]
                st = ols_stepwise(Ct, self.direction, start, self.fit_intercept, max_size)
                out = [None] * (p + 1)
                for cols, _ in st:
                    out[len(cols)] = cols
                return out[path[0]["size"] : path[-1]["size"] + 1]

            errors = cv_errors(
                X, y, by_size, 10 if self.cv is None else self.cv, self.fit_intercept, len(path) - 1
            )
            add_cv_to_path(path, errors)
        return path

    def _fit_glm(self, X, y, start):
        name = type(self).__name__
        if self.criterion not in ("aic", "bic"):
            raise ValueError(
                f"{name}: a GLM estimator is scored by 'aic' or 'bic', got "
                f"criterion={self.criterion!r}."
            )
        n, p = X.shape
        max_size = p if self.max_features is None else self.max_features
        key = self.criterion + "_"

        def fit(cols):
            Xs = X[:, list(cols)] if cols else np.zeros((n, 1))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RankDeficientWarning)
                est = clone(self.estimator).fit(Xs, y)
            return float(getattr(est, key)), est

        def row(cols, value, est):
            return {
                "size": len(cols),
                "variables": variable_names(self, cols),
                "_cols": cols,
                "deviance": float(getattr(est, "deviance_", np.nan)),
                "aic": float(est.aic_),
                "bic": float(getattr(est, "bic_", np.nan)),
            }

        current = tuple(start)
        value, est = fit(current)
        path = [row(current, value, est)]
        halt = self.stop == "criterion" or self.direction == "both"
        seen = {current}
        while True:
            cands = []
            if self.direction in ("forward", "both") and len(current) < max_size:
                cands += [tuple(sorted((*current, j))) for j in range(p) if j not in current]
            if self.direction in ("backward", "both"):
                cands += [tuple(c for c in current if c != j) for j in current]
            cands = [c for c in cands if c not in seen]
            if not cands:
                break
            fits = [(*fit(c), c) for c in cands]
            best_value, best_est, best_cols = min(fits, key=lambda t: t[0])
            if halt and best_value >= value - 1e-7:
                break
            current, value = best_cols, best_value
            seen.add(current)
            path.append(row(current, value, best_est))
        return path
