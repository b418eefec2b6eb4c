"""Pieces shared by the subset and stepwise selectors: the reduction of the data to a
cross-product matrix, the sweep operator on it (compiled, :mod:`._subset_kernels`), the
model-selection criteria and the selector (transformer) interface."""

from __future__ import annotations

import math

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core.compiled import PRODUCT_THREADS_FROM, single_blas_thread
from .._core.ridge import centred_cross_products
from .._core.scaling import linear_rescaling, times
from .._core.selection import select_index
from .._validation import validate_data
from ..exceptions import warn_data_scale
from ._subset_kernels import sweep_columns

CRITERIA = ("bic", "aic", "cp", "adjr2", "cv")

#: Relative pivot below which a column is linearly dependent on earlier ones (R's lm tol).
ALIAS_TOL = 1e-7


#: Below this many multiply-adds (``n (p+1)²``) the reduction runs on one BLAS thread.
SINGLE_THREAD_FLOPS = 2**27
def cross_products(X, y, fit_intercept):
    """Scaled cross-product matrix of ``[X, y]`` (centred when ``fit_intercept``).

    The one pass over the data (``O(np²)``, blocks of rows, no copy of ``X``); everything after
    it works on this ``(p+1) × (p+1)`` matrix. Returns ``(C, scale, tss)``: the columns of ``X``
    are scaled to unit norm (the response is not scaled, so RSS values are in the data's
    units), ``scale`` holds the column norms and ``tss`` is the null model's RSS.
    """
    p = X.shape[1]
    if fit_intercept:
        x_mean, y_mean = X.mean(axis=0), float(y.mean())
    else:
        x_mean, y_mean = None, 0.0
    with single_blas_thread(
        X.shape[0] * (p + 1) ** 2, above=SINGLE_THREAD_FLOPS, quiet_above=PRODUCT_THREADS_FROM
    ):
        G, b = centred_cross_products(X, y, x_mean, y_mean)
    yc = y - y_mean
    tss = float(yc @ yc)
    scale = np.sqrt(np.diag(G).copy())
    scale[scale == 0.0] = 1.0
    C = np.empty((p + 1, p + 1))
    C[:p, :p] = G / np.outer(scale, scale)
    C[:p, p] = C[p, :p] = b / scale
    C[p, p] = tss
    return C, scale, tss


def rescaled_data(X, y):
    """``(X, y, t)``: the data divided by powers of two (columns of ``X`` separately, ``y`` by
    ``t``) when squares of them would leave float64's range, else unchanged with ``t = 1``.

    Least-squares subset searches are equivariant under both, so the chosen subsets do not
    change; :func:`unscale_path` maps the criteria back to ``y``'s units.
    """
    rescaling = linear_rescaling(X, y)
    if rescaling is None:
        return X, y, 1.0
    X, y, _ = rescaling.apply(X, y)
    return X, y, float(rescaling.y_scale)


def unscale_path(estimator, path, t, n, convention):
    """Criteria of ``path_`` computed on ``y / t`` expressed in ``y``'s units, in place.

    Sums of squares, CV errors and σ̂²-scaled criteria scale by ``t²``; the log-likelihood
    criteria shift by ``2 n ln t`` (leaps' BIC, ``ln(RSS/TSS)``, Cp and adjusted R² do not
    change). A value that float64 cannot hold becomes ``inf``/``0`` with a warning.
    """
    if t == 1.0:
        return
    squared = ["rss", "cv", "cv_se"] + (["cp", "bic"] if convention == "islr" else [])
    lost = set()
    for row in path:
        for key in squared:
            if key in row:
                old, row[key] = row[key], times(row[key], t, 2)
                if np.isfinite(old) and old != 0 and (row[key] == 0 or np.isinf(row[key])):
                    lost.add(key)
        row["aic"] = row["aic"] + 2.0 * n * math.log(t)
    if lost:
        warn_data_scale(estimator, [f"path_ {key!r}" for key in sorted(lost)], t)


def sweep_in(C, columns, tol=ALIAS_TOL):
    """Sweep ``columns`` of ``C`` in order, skipping those whose pivot is at most ``tol`` times
    their original diagonal (aliased). Returns ``(A, kept, aliased)``."""
    columns = np.asarray(list(columns), dtype=np.int64)
    A, swept = sweep_columns(np.ascontiguousarray(C, dtype=np.float64), columns, float(tol))
    kept = [int(k) for k in columns[swept]]
    aliased = [int(k) for k in columns[~swept]]
    return A, kept, aliased


def criteria(rss, k, n, tss, sigma2, convention, fit_intercept):
    """The criteria of models with ``k`` coefficients (intercept included) and RSS ``rss``.

    ``rss`` and ``k`` are arrays (one entry per model, computed together) or scalars; the
    result maps each criterion name to an array of the broadcast shape. ``convention="leaps"``
    gives R's ``summary(regsubsets)`` (Cp, BIC, adjusted R²) and the AIC of R's
    ``step``/``extractAIC`` (``n ln(RSS/n) + 2k``); ``"islr"`` the σ̂²-scaled
    ``Cp = (RSS + 2dσ̂²)/n``, ``BIC = (RSS + dσ̂² ln n)/n`` and ``AIC = −2 ln L + 2d`` with
    ``d = k + 1``. ``sigma2`` is ``None`` when the full model leaves no residual degrees of
    freedom (Cp is then ``nan``).
    """
    rss = np.maximum(np.asarray(rss, dtype=np.float64), 0.0)
    k = np.asarray(k, dtype=np.float64)
    nan = np.full(np.broadcast(rss, k).shape, np.nan)
    n_null = n - 1 if fit_intercept else n
    with np.errstate(divide="ignore", invalid="ignore"):
        if tss > 0:
            r2 = 1.0 - rss / tss
            adjr2 = np.where(n > k, 1.0 - (rss / tss) * n_null / (n - k), np.nan)
        else:
            r2 = adjr2 = nan
        log_rss = np.where(rss > 0, np.log(rss / n), -np.inf)
        if convention == "leaps":
            cp = rss / sigma2 - (n - 2 * k) if sigma2 else nan
            bic = np.where(rss > 0, n * np.log(rss / tss) + k * math.log(n), -np.inf)
            aic = n * log_rss + 2 * k
        else:
            d = k + 1
            cp = (rss + 2 * d * sigma2) / n if sigma2 else nan
            bic = (rss + d * sigma2 * math.log(n)) / n if sigma2 else nan
            aic = n * (math.log(2 * math.pi) + log_rss + 1.0) + 2 * d
    return {"rss": rss, "r2": r2, "adjr2": adjr2, "cp": cp, "bic": bic, "aic": aic}


def path_rows(estimator, subsets, rss, n, tss, sigma2, convention, fit_intercept):
    """Rows of ``path_`` (``size``, ``variables``, criteria) for the models ``subsets``.

    The criteria of all models are computed at once; each row also keeps the column indices
    under ``"_cols"``.
    """
    sizes = np.array([len(c) for c in subsets], dtype=np.float64)
    table = criteria(rss, sizes + int(fit_intercept), n, tss, sigma2, convention, fit_intercept)
    columns = {key: v.tolist() for key, v in table.items()}  # every entry has sizes' shape
    return [
        {
            "size": len(cols),
            "variables": variable_names(estimator, cols),
            "_cols": cols,
            **{key: columns[key][i] for key in columns},
        }
        for i, cols in enumerate(subsets)
    ]


def full_model_sigma2(rss_full, n, k_full, criterion, convention, owner):
    """σ̂² of the full model, or a clear error when a criterion needs it and it does not exist."""
    df = n - k_full
    needs = criterion == "cp" or (convention == "islr" and criterion in ("bic", "aic"))
    if df <= 0 or rss_full <= 0:
        if needs:
            raise ValueError(
                f"{owner}: criterion={criterion!r} (convention={convention!r}) needs σ̂² from "
                f"the full model, but the full model has {k_full} coefficients for {n} samples "
                f"(n - k = {df} residual degrees of freedom{', a perfect fit' if df > 0 else ''})."
                " Use criterion='bic', 'aic', 'adjr2' or 'cv' with the default convention, or "
                "fewer features."
            )
        return None
    return rss_full / df


def choose_size(path, criterion, rule="min"):
    """Index of the chosen row of ``path`` by ``criterion`` (max for adjusted R², else min).

    Ties go to the smaller model. With ``criterion="cv"`` and ``rule="1se"`` the smallest
    model whose CV error is within one standard error (``cv_se``) of the minimum (the
    one-standard-error rule, :func:`statlearning._core.selection.select_index`).
    """
    values = np.array([row[criterion] for row in path], dtype=float)
    if criterion == "adjr2":
        values = -values
    sizes = np.array([row["size"] for row in path], dtype=float)
    if criterion == "cv" and rule == "1se":
        se = np.array([row["cv_se"] for row in path], dtype=float)
        return select_index(values, se, sizes, rule="1se")
    return select_index(values, complexity=sizes)


def variable_names(estimator, indices):
    """Names of the selected columns: ``feature_names_in_`` when fitted on a DataFrame."""
    names = getattr(estimator, "feature_names_in_", None)
    if names is None:
        return tuple(int(j) for j in indices)
    return tuple(str(names[j]) for j in indices)


class SelectorMixin:
    """``get_support``, ``transform`` and ``get_feature_names_out`` from a boolean
    ``support_``, as scikit-learn's selectors."""

    def get_support(self, indices=False):
        """Mask (or, with ``indices=True``, integer indices) of the selected features.

        Parameters
        ----------
        indices : bool, default=False
            Return the column indices of the selected features instead of a boolean mask.

        Returns
        -------
        support : ndarray
            A boolean array of shape (n_features_in_,), True for a kept feature (a copy of
            ``support_``); with ``indices=True`` an integer array of shape (n_selected,) holding
            the kept columns in increasing order.
        """
        check_is_fitted(self, "support_")
        return np.flatnonzero(self.support_) if indices else self.support_.copy()

    def transform(self, X):
        """Keep the selected columns of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features_in_)

        Returns
        -------
        ndarray of shape (n_samples, n_selected)
        """
        check_is_fitted(self, "support_")
        X = validate_data(self, X, reset=False, dtype=None, ensure_all_finite=True)
        return X[:, self.support_]

    def get_feature_names_out(self, input_features=None):
        """Names of the selected features.

        Parameters
        ----------
        input_features : array-like of str or None, default=None
            Names of the ``n_features_in_`` input columns. When None, ``feature_names_in_`` (the
            DataFrame's columns seen in ``fit``) if defined, else ``x0, x1, …``.

        Returns
        -------
        feature_names_out : ndarray of str objects of shape (n_selected,)
            The input names of the kept features, in column order.
        """
        check_is_fitted(self, "support_")
        if input_features is None:
            names = getattr(self, "feature_names_in_", None)
            if names is None:
                names = np.array([f"x{j}" for j in range(self.n_features_in_)], dtype=object)
        else:
            names = np.asarray(input_features, dtype=object)
            if len(names) != self.n_features_in_:
                raise ValueError(
                    f"input_features has {len(names)} names, expected {self.n_features_in_}."
                )
        return np.asarray(names, dtype=object)[self.support_]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        return tags
