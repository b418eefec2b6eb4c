"""Pieces shared by the subset and stepwise selectors: the sweep operator on a cross-product
matrix, the model-selection criteria and the selector (transformer) interface."""

from __future__ import annotations

import math

import numpy as np
from sklearn.utils.validation import check_is_fitted, validate_data

from .._core.selection import select_index

CRITERIA = ("bic", "aic", "cp", "adjr2", "cv")

#: Relative pivot below which a column is linearly dependent on earlier ones (R's lm tol).
ALIAS_TOL = 1e-7


def cross_products(X, y, fit_intercept):
    """Scaled cross-product matrix of ``[X, y]`` (centred when ``fit_intercept``).

    Returns ``(C, scale, tss)``: ``C`` is ``(p+1) × (p+1)`` with the columns of ``X`` scaled to
    unit norm (the response is not scaled, so RSS values are in the data's units), ``scale`` the
    column norms and ``tss`` the null model's RSS.
    """
    if fit_intercept:
        X = X - X.mean(axis=0)
        y = y - y.mean()
    scale = np.sqrt(np.einsum("ij,ij->j", X, X))
    scale[scale == 0.0] = 1.0
    Z = np.column_stack([X / scale, y])
    C = Z.T @ Z
    return C, scale, float(C[-1, -1])


def sweep(A, k):
    """Goodnight's sweep of the symmetric matrix ``A`` on pivot ``k`` (returns a new array)."""
    d = A[k, k]
    col = A[:, k].copy()
    out = A - np.outer(col, col) / d
    out[:, k] = col / d
    out[k, :] = col / d
    out[k, k] = -1.0 / d
    return out


def sweep_in(C, columns, tol=ALIAS_TOL):
    """Sweep ``columns`` of ``C`` in order, skipping those whose pivot is below ``tol`` times
    their original diagonal (aliased). Returns ``(A, kept, aliased)``."""
    A = C.copy()
    kept, aliased = [], []
    for k in columns:
        if A[k, k] <= tol * C[k, k] or C[k, k] <= 0.0:
            aliased.append(k)
        else:
            A = sweep(A, k)
            kept.append(k)
    return A, kept, aliased


def criteria(rss, k, n, tss, sigma2, convention, fit_intercept):
    """The criteria of one model with ``k`` coefficients (intercept included) and RSS ``rss``.

    ``convention="leaps"`` gives R's ``summary(regsubsets)`` (Cp, BIC, adjusted R²) and the AIC
    of R's ``step``/``extractAIC`` (``n ln(RSS/n) + 2k``); ``"islr"`` the σ̂²-scaled
    ``Cp = (RSS + 2dσ̂²)/n``, ``BIC = (RSS + dσ̂² ln n)/n`` and ``AIC = −2 ln L + 2d`` with
    ``d = k + 1``. ``sigma2`` is ``None`` when the full model leaves no residual degrees of
    freedom (Cp is then ``nan``).
    """
    n_null = n - 1 if fit_intercept else n
    rss = max(rss, 0.0)
    r2 = 1.0 - rss / tss if tss > 0 else float("nan")
    adjr2 = 1.0 - (rss / tss) * n_null / (n - k) if (tss > 0 and n > k) else float("nan")
    log_rss = math.log(rss / n) if rss > 0 else -math.inf
    if convention == "leaps":
        cp = rss / sigma2 - (n - 2 * k) if sigma2 else float("nan")
        bic = n * math.log(rss / tss) + k * math.log(n) if rss > 0 else -math.inf
        aic = n * log_rss + 2 * k
    else:
        d = k + 1
        cp = (rss + 2 * d * sigma2) / n if sigma2 else float("nan")
        bic = (rss + d * sigma2 * math.log(n)) / n if sigma2 else float("nan")
        aic = n * (math.log(2 * math.pi) + log_rss + 1.0) + 2 * d
    return {"rss": rss, "r2": r2, "adjr2": adjr2, "cp": cp, "bic": bic, "aic": aic}


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
        """Mask (or, with ``indices=True``, integer indices) of the selected features."""
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
        """Names of the selected features (``x0, x1, ...`` without ``feature_names_in_``)."""
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
