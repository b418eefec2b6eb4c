"""Figures for model assessment and selection: CV curves, ROC, subset criteria, replicates."""

from __future__ import annotations

import numpy as np
from scipy import stats
from sklearn import metrics as skm

from ..metrics import auc_se, roc_optimal_threshold
from ._common import as_vector, check_index, fmt, get_ax, new_figure, require_attributes


def cv_curve(
    param_values,
    mean,
    se,
    *,
    best_index=None,
    one_se_index=None,
    xscale="log",
    xlabel="Parameter",
    ylabel="Cross-validation error",
    ax=None,
):
    """Cross-validation error against a tuning parameter, with ±1 standard-error bars.

    Parameters
    ----------
    param_values : array-like of shape (n,)
    mean, se : array-like of shape (n,)
        Mean CV error and its standard error at each value (``CVEstimate.mean`` / ``.se``).
    best_index : int, default=None
        Index of the minimum to mark; ``None`` marks the smallest ``mean``.
    one_se_index : int, default=None
        Index chosen by the one-standard-error rule, marked when given (see
        :func:`~statlearning.model_selection.one_standard_error_rule`).
    xscale : {"log", "linear"}, default="log"
    xlabel, ylabel : str
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        The error-bar container, a vertical line at the minimum and, when given, one at the
        one-SE choice, plus a horizontal line at the minimum's mean + 1 SE.

    Notes
    -----
    The one-standard-error rule (seed 004 §5; ISLR §6.2) picks the simplest model whose CV
    error is at most :math:`\\overline{CV}_{min} + SE_{min}`; R: ``plot(cv.glmnet(...))``.
    """
    x = as_vector(param_values, "param_values")
    mean = as_vector(mean, "mean")
    se = as_vector(se, "se")
    if not x.size == mean.size == se.size:
        raise ValueError(
            f"param_values, mean and se must have equal lengths; got {x.size}, {mean.size}, "
            f"{se.size}"
        )
    if xscale not in ("log", "linear"):
        raise ValueError(f"xscale must be 'log' or 'linear'; got {xscale!r}")
    if xscale == "log" and np.any(x <= 0):
        raise ValueError("xscale='log' needs positive param_values; use xscale='linear'")
    if best_index is None:
        best_index = int(np.nanargmin(mean))
    best_index = check_index(best_index, x.size, "best_index")
    one_se_index = check_index(one_se_index, x.size, "one_se_index")
    ax = get_ax(ax)
    ax.errorbar(x, mean, yerr=np.where(np.isfinite(se), se, 0.0), fmt="o-", color="C3",
                ecolor="grey", markersize=4, capsize=2, label="mean ± 1 SE")
    ax.set_xscale(xscale)
    ax.axvline(x[best_index], color="C0", linestyle="--",
               label=f"minimum: {fmt(x[best_index])}")
    if np.isfinite(se[best_index]):
        ax.axhline(mean[best_index] + se[best_index], color="C0", linestyle=":", linewidth=1,
                   label="minimum + 1 SE")
    if one_se_index is not None:
        ax.axvline(x[one_se_index], color="C2", linestyle="-.",
                   label=f"one-SE rule: {fmt(x[one_se_index])}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize="small")
    return ax


def lasso_cv_curve(lasso_cv, ax=None):
    """:func:`cv_curve` of a fitted ``LassoCV`` or ``ElasticNetCV`` (R's ``plot(cv.glmnet)``).

    Parameters
    ----------
    lasso_cv : fitted :class:`~statlearning.linear_model.LassoCV` or ``ElasticNetCV``
        Uses ``alphas_``, ``cv_mean_``, ``cv_se_``, ``alpha_min_`` and ``alpha_1se_``; with
        several ``l1_ratio`` values, the path of the best one.
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes

    Notes
    -----
    Our ``alpha`` is glmnet's ``lambda``; ``alpha_min_`` and ``alpha_1se_`` are
    ``lambda.min`` and ``lambda.1se``.
    """
    names = ("alphas_", "cv_mean_", "cv_se_", "alpha_min_", "alpha_1se_")
    require_attributes(lasso_cv, names, "lasso_cv", "a fitted LassoCV or ElasticNetCV")
    alphas, mean, se = (np.asarray(getattr(lasso_cv, n), dtype=np.float64) for n in names[:3])
    if mean.ndim == 2:  # several l1 ratios: the path holding the overall minimum
        row = int(np.argmin(mean.min(axis=1)))
        alphas, mean, se = alphas[row], mean[row], se[row]
    best = int(np.argmin(np.abs(alphas - lasso_cv.alpha_min_)))
    one_se = None
    if np.isfinite(lasso_cv.alpha_1se_):
        one_se = int(np.argmin(np.abs(alphas - lasso_cv.alpha_1se_)))
    return cv_curve(alphas, mean, se, best_index=best, one_se_index=one_se, xscale="log",
                    xlabel="alpha (glmnet's lambda)", ylabel="Mean squared error (CV)", ax=ax)


def roc_curve_plot(y_true, y_score, *, pos_label=1, method="max_distance", ax=None):
    """ROC curve with the optimal threshold marked and the AUC in the legend.

    The same figure as :func:`plot_roc` with both marks shown.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two classes.
    y_score : array-like of shape (n_samples,)
        Scores, larger meaning more likely ``pos_label``.
    pos_label : label, default=1
    method : {"max_distance", "youden"}, default="max_distance"
        Criterion of :func:`~statlearning.metrics.roc_optimal_threshold`.
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        Two lines (the curve and the diagonal) and one scatter point (the optimal threshold).

    Notes
    -----
    The AUC is the Mann–Whitney statistic, with DeLong's standard error when each class has
    at least two samples (R: ``pROC::roc``, ``pROC::coords(..., "best")``).
    """
    return plot_roc(y_true, y_score, pos_label=pos_label, method=method, ax=ax)


def _roc_one(ax, y_true, y_score, pos_label, method, show_auc_se, show_optimal, color, name):
    pos = np.asarray(y_true) == pos_label
    fpr, tpr, _ = skm.roc_curve(pos, np.asarray(y_score, dtype=np.float64),
                                drop_intermediate=False)
    auc_text = f"AUC = {skm.auc(fpr, tpr):.3f}"
    if show_auc_se:
        try:
            auc, se = auc_se(y_true, y_score, pos_label=pos_label)
            auc_text = f"AUC = {auc:.3f} ± {se:.3f} SE"
        except ValueError:  # DeLong needs two samples of each class
            pass
    ax.plot(fpr, tpr, color=color, label=f"{name} ({auc_text})")
    if not show_optimal:
        return None
    threshold, fpr_opt, tpr_opt = roc_optimal_threshold(
        y_true, y_score, pos_label=pos_label, method=method
    )
    return fpr_opt, tpr_opt, color, f"optimal ({method}): threshold {fmt(threshold)}"


def plot_roc(y_true, y_score, *, pos_label=1, classes=None, show_auc_se=True, show_optimal=True,
             method="max_distance", ax=None):
    """ROC curve(s) with the AUC ± its standard error and the optimal threshold.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores, larger meaning more likely ``pos_label``; or one column per class in
        ``classes`` order (e.g. ``predict_proba``), drawn one class against the rest.
    pos_label : label, default=1
        The positive class of a 1-D ``y_score``.
    classes : array-like of shape (n_classes,), default=None
        The classes of the columns of a 2-D ``y_score``.
    show_auc_se : bool, default=True
        Give DeLong's standard error of the AUC in the legend
        (:func:`~statlearning.metrics.auc_se`).
    show_optimal : bool, default=True
        Mark the optimal threshold (:func:`~statlearning.metrics.roc_optimal_threshold`).
    method : {"max_distance", "youden"}, default="max_distance"
        Criterion of the optimal threshold.
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        One line per curve plus the diagonal; one scatter point per curve when
        ``show_optimal``; the legend labels carry the AUCs.

    Notes
    -----
    The AUC is the Mann–Whitney statistic :math:`P(s_+ > s_-) + \tfrac12 P(s_+ = s_-)`, its
    standard error DeLong's (R: ``pROC::roc``, ``var(roc, method = "delong")``,
    ``pROC::coords(..., "best")``; scikit-learn: ``roc_curve``, ``roc_auc_score``).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from statlearning.plot import plot_roc
    >>> ax = plot_roc([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.2, 0.7])
    >>> ax.get_legend_handles_labels()[1][0]
    'ROC (AUC = 0.889 ± 0.157 SE)'
    """
    scores = np.asarray(y_score, dtype=np.float64)
    ax = get_ax(ax)
    if scores.ndim == 2:
        if classes is None or len(classes) != scores.shape[1]:
            raise ValueError("a 2-D y_score needs classes, one per column")
        y = np.asarray(y_true)
        marks = [
            _roc_one(ax, (y == label).astype(int), scores[:, j], 1, method, show_auc_se,
                     show_optimal, f"C{j % 10}", f"{label} vs rest")
            for j, label in enumerate(classes)
            if np.any(y == label) and np.any(y != label)
        ]
    elif scores.ndim == 1:
        marks = [_roc_one(ax, y_true, scores, pos_label, method, show_auc_se, show_optimal,
                          "C0", "ROC")]
    else:
        raise ValueError(f"y_score must be 1-D or 2-D; got shape {scores.shape}")
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="chance")
    for mark in marks:
        if mark is not None:
            fpr_opt, tpr_opt, color, label = mark
            ax.scatter([fpr_opt], [tpr_opt], color=color, edgecolors="black", zorder=3,
                       label=label)
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)
    ax.set_aspect("equal")
    ax.set_xlabel("False positive rate (1 − specificity)")
    ax.set_ylabel("True positive rate (sensitivity)")
    ax.legend(loc="lower right", fontsize="small")
    return ax


_CRITERIA = {
    "rss": ("RSS", None),
    "r2": ("R²", None),
    "adjr2": ("Adjusted R²", "max"),
    "cp": ("Cp", "min"),
    "bic": ("BIC", "min"),
    "aic": ("AIC", "min"),
    "cv": ("CV error", "min"),
}


def subset_criteria_plot(selector, *, criteria=("rss", "adjr2", "cp", "bic"), fig=None):
    """Criteria against the model size for a best-subset search (ISLR Figures 6.1–6.2).

    Parameters
    ----------
    selector : fitted :class:`~statlearning.feature_selection.BestSubsetSelector`
        Uses ``path_`` (one row per size).
    criteria : sequence of str, default=("rss", "adjr2", "cp", "bic")
        Columns of ``path_`` to draw, one panel each: ``"rss"``, ``"r2"``, ``"adjr2"``,
        ``"cp"``, ``"bic"``, ``"aic"``, ``"cv"`` (the last with ±1 SE bars).
    fig : matplotlib Figure, default=None

    Returns
    -------
    fig : matplotlib Figure
        One Axes per criterion; the best size (largest adjusted R², smallest Cp, BIC, AIC or
        CV error) is marked by a red cross. RSS and R² are monotone and not marked.

    Notes
    -----
    The criteria follow the selector's ``convention`` (R's ``summary(regsubsets)`` with
    ``"leaps"``); R: ``plot(summary(regsubsets(...))$bic, type = "l")``.
    """
    require_attributes(selector, ("path_",), "selector", "a fitted BestSubsetSelector")
    path = selector.path_
    if isinstance(criteria, str):
        criteria = (criteria,)
    for c in criteria:
        if c not in _CRITERIA:
            raise ValueError(f"criteria: unknown criterion {c!r}; use one of {list(_CRITERIA)}")
        if c not in path[0]:
            raise ValueError(f"criteria: {c!r} is not in the selector's path_ (fit with "
                             "criterion='cv' to get the CV error)")
    ncols = min(len(criteria), 2)
    nrows = -(-len(criteria) // ncols)
    fig, axes = new_figure(nrows, ncols, fig)
    sizes = np.array([row["size"] for row in path], dtype=np.float64)
    for ax, c in zip(axes, criteria, strict=False):
        title, best = _CRITERIA[c]
        values = np.array([row[c] for row in path], dtype=np.float64)
        ok = np.isfinite(values)
        if not ok.any():
            ax.text(0.5, 0.5, f"{title} not available", ha="center", transform=ax.transAxes)
        elif c == "cv" and "cv_se" in path[0]:
            se = np.array([row["cv_se"] for row in path], dtype=np.float64)
            ax.errorbar(sizes[ok], values[ok], yerr=np.nan_to_num(se[ok]), fmt="o-",
                        color="C0", capsize=2)
        else:
            ax.plot(sizes[ok], values[ok], "o-", color="C0", markersize=4)
        if best is not None and ok.any():
            pick = np.nanargmax if best == "max" else np.nanargmin
            i = int(pick(np.where(ok, values, np.nan)))
            ax.scatter([sizes[i]], [values[i]], marker="x", s=90, color="C3", zorder=3,
                       label=f"best: size {int(sizes[i])}")
            ax.legend(fontsize="small")
        ax.set_xlabel("Number of variables")
        ax.set_ylabel(title)
        ax.set_title(title)
    for ax in axes[len(criteria):]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def replicates_plot(result, ax=None, *, stat=0, level=0.95):
    """Histogram (or pairwise scatter) of bootstrap or jackknife replicates.

    Parameters
    ----------
    result : :class:`~statlearning.model_selection.BootstrapResult` or ``JackknifeResult``
    ax : matplotlib Axes, default=None
    stat : int or pair of int, default=0
        Which statistic (column of ``replicates``): one index draws a histogram with the
        estimate and the interval marked; two indices draw a scatter of the joint replicates
        with the estimate marked.
    level : float, default=0.95
        Jackknife only: the level of the normal interval :math:`\\hat\\theta \\pm
        z_{(1+level)/2}\\,\\widehat{SE}` (a bootstrap result's own interval is drawn).

    Returns
    -------
    ax : matplotlib Axes
        Histogram: the bars, a vertical line at the estimate and two at the interval ends.

    Notes
    -----
    R: ``plot(boot(...))`` draws the histogram of ``t`` with ``t0`` marked.
    """
    require_attributes(result, ("replicates", "estimate", "se"), "result",
                       "a BootstrapResult or JackknifeResult")
    reps = np.asarray(result.replicates, dtype=np.float64)
    if reps.ndim == 1:
        reps = reps[:, None]
    estimate = np.atleast_1d(np.asarray(result.estimate, dtype=np.float64))
    kind = "Bootstrap" if hasattr(result, "ci_low") else "Jackknife"
    ax = get_ax(ax)
    if np.ndim(stat) == 1:
        if len(stat) != 2:
            raise ValueError(f"stat must be one index or a pair; got {stat!r}")
        i, j = (check_index(s, reps.shape[1], "stat") for s in stat)
        ax.scatter(reps[:, i], reps[:, j], s=8, alpha=0.5, color="C0", label="replicates")
        ax.scatter([estimate[i]], [estimate[j]], marker="X", s=120, color="C3",
                   label="estimate", zorder=3)
        ax.set_xlabel(f"statistic {i}")
        ax.set_ylabel(f"statistic {j}")
        ax.set_title(f"{kind} replicates")
        ax.legend(fontsize="small")
        return ax
    i = check_index(stat, reps.shape[1], "stat")
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1); got {level!r}")
    if kind == "Bootstrap":
        low, high = float(np.ravel(result.ci_low)[i]), float(np.ravel(result.ci_high)[i])
        interval = f"{100 * result.level:g}% {result.ci} interval"
    else:
        half = stats.norm.ppf(0.5 + level / 2) * float(np.ravel(result.se)[i])
        low, high = estimate[i] - half, estimate[i] + half
        interval = f"{100 * level:g}% normal interval"
    ax.hist(reps[:, i], bins="auto", density=True, color="C0", alpha=0.6, label="replicates")
    ax.axvline(estimate[i], color="C3", label=f"estimate {fmt(estimate[i])}")
    ax.axvline(low, color="C2", linestyle="--", label=interval)
    ax.axvline(high, color="C2", linestyle="--")
    ax.set_xlabel(f"statistic {i}")
    ax.set_ylabel("Density")
    ax.set_title(f"{kind} replicates")
    ax.legend(fontsize="small")
    return ax


def plot_coefficient_path(
    estimator, X, y, *, sample_weight=None, feature_names=None, n_alphas=100, ax=None
):
    """Coefficient paths of a penalised linear model, with the chosen penalties marked.

    R's ``plot(glmnet(x, y), xvar = "lambda")`` with ``abline(v = log(cv$lambda.min))`` and
    ``lambda.1se``: every coefficient against the penalty, from the solutions of
    :func:`~statlearning.linear_model.enet_path` on the estimator's grid.

    Parameters
    ----------
    estimator : fitted penalised linear model, or a pipeline ending in one
        :class:`~statlearning.linear_model.LassoCV` or ``ElasticNetCV`` (its grid
        ``alphas_``, ``l1_ratio_``; ``alpha_min_`` and ``alpha_1se_`` are marked), or
        ``Lasso`` / ``ElasticNet`` (an automatic grid; its ``alpha`` is marked). The steps
        before the model (a ``StandardScaler``, for example) transform ``X`` first.
    X : array-like of shape (n_samples, n_features)
        The data the model was fitted on.
    y : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default=None
        The weights of the fit, if any.
    feature_names : list of str, default=None
        Default: ``feature_names_in_`` or ``x0, x1, …``.
    n_alphas : int, default=100
        Length of the automatic grid of a model without its own.
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        One line per coefficient (``ax.lines[:n_features]``, x the penalty on a log scale),
        then one vertical line per marked penalty (labelled by its attribute) and the zero
        line.

    See Also
    --------
    lasso_cv_curve : the cross-validation error along the same grid.

    Notes
    -----
    At each ``alpha`` the coefficients minimise
    :math:`\\frac{1}{2\\sum w}\\sum_i w_i(y_i - \\beta_0 - x_i^\\top\\beta)^2 + \\alpha\\left(
    \\rho\\lVert\\beta\\rVert_1 + \\frac{1-\\rho}{2}\\lVert\\beta\\rVert_2^2\\right)` with
    :math:`\\rho` = ``l1_ratio`` (glmnet's ``alpha``); our ``alpha`` is glmnet's ``lambda``.
    ``alpha_min_`` (dashed) is ``lambda.min``, ``alpha_1se_`` (dotted) ``lambda.1se``, the
    largest penalty whose CV error is within one standard error of the minimum. Behind a
    ``StandardScaler`` the coefficients are per standard deviation of each feature.

    Examples
    --------
    >>> import numpy as np
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from statlearning.linear_model import LassoCV
    >>> from statlearning.plot import plot_coefficient_path
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 3))
    >>> y = X @ [1.5, 0.0, -2.0] + rng.normal(size=60)
    >>> model = LassoCV(cv=5).fit(X, y)
    >>> ax = plot_coefficient_path(model, X, y)
    >>> [line.get_label() for line in ax.lines[:5]]
    ['x0', 'x1', 'x2', 'alpha_min_', 'alpha_1se_']
    """
    from ..linear_model import ElasticNet, ElasticNetCV, enet_path

    head = estimator[:-1] if hasattr(estimator, "steps") else None
    final = estimator[-1] if head is not None else estimator
    if not isinstance(final, ElasticNet | ElasticNetCV):
        raise TypeError(
            "estimator must be a fitted Lasso, ElasticNet, LassoCV or ElasticNetCV (or a "
            f"pipeline ending in one); got {type(final).__name__}"
        )
    require_attributes(final, ("coef_",), "estimator", "a fitted penalised linear model")
    Z = head.transform(X) if head is not None else X
    Z = np.asarray(Z, dtype=np.float64)
    if isinstance(final, ElasticNetCV):
        l1_ratio = float(final.l1_ratio_)
        alphas = np.asarray(final.alphas_, dtype=np.float64)
        if alphas.ndim == 2:  # several l1 ratios: the grid of the chosen one
            ratios = np.atleast_1d(np.asarray(final.l1_ratio, dtype=np.float64))
            alphas = alphas[int(np.argmin(np.abs(ratios - l1_ratio)))]
        marks = [("alpha_min_", final.alpha_min_, "--"), ("alpha_1se_", final.alpha_1se_, ":")]
    else:
        l1_ratio = final._l1_ratio()
        alphas = None
        marks = [("alpha", final.alpha, "--")]
    alphas, coefs, _ = enet_path(
        Z, y, l1_ratio=l1_ratio, alphas=alphas, n_alphas=n_alphas,
        fit_intercept=final.fit_intercept, sample_weight=sample_weight,
        max_iter=final.max_iter, tol=final.tol,
    )  # fmt: skip
    names = feature_names
    if names is None:
        fitted = getattr(estimator, "feature_names_in_", None)
        names = [str(v) for v in fitted] if fitted is not None else None
    if names is None:
        names = [f"x{j}" for j in range(coefs.shape[0])]
    if len(names) != coefs.shape[0]:
        raise ValueError(f"feature_names has {len(names)} names for {coefs.shape[0]} coefficients")
    ax = get_ax(ax)
    for j, name in enumerate(names):
        ax.plot(alphas, coefs[j], color=f"C{j % 10}", linewidth=1.2, label=str(name))
    for label, value, style in marks:
        if value is not None and np.isfinite(value) and value > 0:
            ax.axvline(value, color="0.3", linestyle=style, linewidth=1, label=label)
    ax.axhline(0.0, color="0.5", linewidth=0.6)
    ax.set_xscale("log")
    ax.set_xlabel("alpha (glmnet's lambda)")
    ax.set_ylabel("Coefficient")
    ax.set_title("Coefficient paths" + (f" (l1_ratio = {fmt(l1_ratio)})" if l1_ratio < 1 else ""))
    if len(names) <= 12:
        ax.legend(fontsize="x-small", ncol=2 if len(names) > 6 else 1)
    else:  # too many for a legend: the marks only
        marked = [line for line in ax.lines[len(names) :] if not line.get_label().startswith("_")]
        ax.legend(handles=marked, fontsize="x-small")
    return ax
