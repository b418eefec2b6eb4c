"""Figures of what a model learned and how models compare: per-fold CV scores of a leaderboard,
coefficients with their intervals, permutation importances."""

from __future__ import annotations

import numpy as np

from ._common import get_ax, require_attributes

__all__ = ["plot_coefficients", "plot_cv_scores", "plot_permutation_importance"]


def plot_cv_scores(scores, *, metric="score", highlight=None, ax=None):
    """Per-fold cross-validation scores of several models: a box and the folds as dots.

    Parameters
    ----------
    scores : dict of str to array-like
        Model name → its score on each fold, drawn top to bottom in the dict's order (pass
        the leaderboard's order).
    metric : str, default="score"
        The axis label (e.g. ``"RMSE"``).
    highlight : dict of str to str, default=None
        Model name → a short mark appended to its tick label (``"best"``, ``"one-SE"``).
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        One box per model, one scatter (the folds) per model and one error bar (mean ± 1
        SE, the standard error of the mean over folds) per model.

    Notes
    -----
    The standard error is :math:`\\mathrm{sd}(s_1, \\ldots, s_K)/\\sqrt K` with ``ddof = 1``,
    as the leaderboard and :func:`statlearning.model_selection.cv_estimate`. With the same
    folds for every model, the dots of one fold can be compared across models. The folds are
    spread vertically by a fixed jitter (no randomness).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from statlearning.plot import plot_cv_scores
    >>> ax = plot_cv_scores({"lm": [1.0, 1.2, 0.9], "tree": [1.4, 1.1, 1.5]}, metric="RMSE")
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['lm', 'tree']
    """
    if not isinstance(scores, dict) or not scores:
        raise TypeError("scores must be a non-empty dict of model name to per-fold scores")
    names = list(scores)
    values = []
    for name in names:
        v = np.asarray(scores[name], dtype=np.float64).ravel()
        v = v[np.isfinite(v)]
        if v.size == 0:
            raise ValueError(f"scores[{name!r}] has no finite score")
        values.append(v)
    highlight = dict(highlight or {})
    ax = get_ax(ax)
    positions = np.arange(len(names))[::-1]  # the first model on top
    import matplotlib

    major, minor = (int(v) for v in matplotlib.__version__.split(".")[:2])
    horizontal = {"orientation": "horizontal"} if (major, minor) >= (3, 10) else {"vert": False}
    ax.boxplot(
        values,
        positions=positions,
        **horizontal,
        widths=0.6,
        showfliers=False,
        patch_artist=True,
        boxprops={"facecolor": "0.92", "edgecolor": "0.5"},
        medianprops={"color": "0.4"},
        whiskerprops={"color": "0.5"},
        capprops={"color": "0.5"},
    )
    for pos, v in zip(positions, values, strict=True):
        jitter = (np.arange(v.size) % 5 - 2) * 0.06
        ax.scatter(v, pos + jitter, s=12, color="C0", alpha=0.8, zorder=3)
        se = v.std(ddof=1) / np.sqrt(v.size) if v.size > 1 else 0.0
        ax.errorbar(
            [v.mean()], [pos], xerr=[se], fmt="D", color="C3", markersize=5, capsize=3, zorder=4
        )
    labels = [f"{n} ({highlight[n]})" if n in highlight else n for n in names]
    ax.set_yticks(positions, labels)
    ax.set_ylim(-0.7, len(names) - 0.3)
    ax.set_xlabel(f"{metric} per fold (diamond: mean ± 1 SE)")
    ax.set_title("Cross-validation scores by fold")
    ax.grid(axis="x", color="0.9")
    return ax


def _names(estimator, n, feature_names):
    if feature_names is not None:
        names = [str(v) for v in feature_names]
        if len(names) != n:
            raise ValueError(f"feature_names has {len(names)} entries for {n} coefficients")
        return names
    fitted = getattr(estimator, "feature_names_in_", None)
    return [str(v) for v in fitted] if fitted is not None else [f"x{j}" for j in range(n)]


def plot_coefficients(estimator, *, feature_names=None, intercept=False, ax=None):
    """Coefficients of a fitted linear model, with their confidence intervals when known.

    Parameters
    ----------
    estimator : fitted linear model (or a pipeline ending in one)
        With ``summary()`` (a coefficient table: estimates and intervals are drawn) or with
        ``coef_`` (the estimates only; one series per class for a multiclass ``coef_``).
    feature_names : list of str, default=None
        Term names (default: ``feature_names_in_`` or ``x0, x1, …``; the coefficient
        table's own names when it has a summary).
    intercept : bool, default=False
        Draw the intercept too.
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        One scatter of estimates per series (one per class for a multiclass ``coef_``) and,
        with a coefficient table, one error-bar container of the confidence intervals; a
        vertical line at zero.

    Notes
    -----
    The intervals are the table's (R's ``confint``: :math:`\\hat\\beta_j \\pm
    t_{n-p,\\,0.975}\\,\\mathrm{SE}_j` for ``lm``, Wald z for ``glm``). Coefficients of a
    pipeline that standardises ``X`` are per standard deviation of each feature; aliased
    coefficients (NaN) are left out.

    Examples
    --------
    >>> import numpy as np
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from statlearning.linear_model import LinearRegression
    >>> from statlearning.plot import plot_coefficients
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 2))
    >>> y = X @ [1.0, -2.0] + rng.normal(size=40)
    >>> ax = plot_coefficients(LinearRegression().fit(X, y))
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['x0', 'x1']
    """
    final = estimator[-1] if hasattr(estimator, "steps") else estimator
    table = None
    if callable(getattr(final, "summary", None)):
        try:
            table = final.summary().coef_table
        except (AttributeError, ValueError, TypeError):
            table = None
    ax = get_ax(ax)
    if table is not None:
        names = list(table.names)
        est = np.asarray(table.estimate, dtype=np.float64)
        low = np.asarray(table.conf_low, dtype=np.float64)
        high = np.asarray(table.conf_high, dtype=np.float64)
        keep = np.isfinite(est)
        if not intercept:
            keep &= np.array([n != "(Intercept)" for n in names])
        if feature_names is not None:
            terms = [n for n, k in zip(names, keep, strict=True) if k]
            names = _names(None, len(terms), feature_names)
        else:
            names = [n for n, k in zip(names, keep, strict=True) if k]
        est, low, high = est[keep], low[keep], high[keep]
        pos = np.arange(len(names))[::-1]
        err = np.vstack([est - low, high - est])
        ax.errorbar(
            est,
            pos,
            xerr=np.where(np.isfinite(err), err, 0.0),
            fmt="none",
            ecolor="C0",
            capsize=3,
            label=f"{100 * table.level:g}% interval",
        )
        ax.scatter(est, pos, color="C0", zorder=3, label="estimate")
        ax.legend(fontsize="small")
    else:
        require_attributes(final, ("coef_",), "estimator", "a fitted linear model")
        coef = np.atleast_2d(np.asarray(final.coef_, dtype=np.float64))
        names = _names(estimator, coef.shape[1], feature_names)
        if intercept and hasattr(final, "intercept_"):
            coef = np.column_stack([np.atleast_1d(final.intercept_), coef])
            names = ["(Intercept)", *names]
        pos = np.arange(len(names))[::-1]
        classes = getattr(final, "classes_", None)
        rows = coef.shape[0]
        for k in range(rows):
            offset = 0.0 if rows == 1 else (k - (rows - 1) / 2) * 0.5 / rows
            label = None
            if rows > 1:
                label = str(classes[k]) if classes is not None and len(classes) == rows else k
            ok = np.isfinite(coef[k])
            ax.scatter(coef[k][ok], pos[ok] + offset, color=f"C{k % 10}", zorder=3, label=label)
        if rows > 1:
            ax.legend(fontsize="small", title="class")
    ax.axvline(0.0, color="0.5", linestyle=":", linewidth=1)
    ax.set_yticks(pos, names)
    ax.set_xlabel("Coefficient")
    ax.set_title("Coefficients")
    return ax


def _is_bagged_forest(estimator):
    from ..ensemble import (
        BaggingClassifier,
        BaggingRegressor,
        RandomForestClassifier,
        RandomForestRegressor,
    )

    kinds = (RandomForestClassifier, RandomForestRegressor, BaggingClassifier, BaggingRegressor)
    return isinstance(estimator, kinds)


def plot_permutation_importance(
    estimator,
    X,
    y,
    *,
    method="auto",
    n_repeats=5,
    scoring=None,
    random_state=0,
    feature_names=None,
    max_features=20,
    ax=None,
):
    """Permutation importance of every feature: the loss of accuracy when it is shuffled.

    Parameters
    ----------
    estimator : fitted estimator
    X : array-like of shape (n_samples, n_features)
        With ``method="oob"`` the training data of the ensemble; otherwise the rows to score
        on (held-out rows give the honest importance).
    y : array-like of shape (n_samples,)
    method : {"auto", "oob", "holdout"}, default="auto"
        ``"oob"``: Breiman's out-of-bag importance of a random forest or bagged trees
        (:func:`statlearning.ensemble.oob_permutation_importance`, R's ``randomForest``
        ``importance(type = 1, scale = FALSE)``); ``"holdout"``: the score drop on
        ``(X, y)`` over ``n_repeats`` shuffles (scikit-learn's
        ``sklearn.inspection.permutation_importance``); ``"auto"``: ``"oob"`` for forests and
        bagging, ``"holdout"`` otherwise.
    n_repeats : int, default=5
        Shuffles per feature (``"holdout"``).
    scoring : str or callable, default=None
        Scorer of ``"holdout"`` (default: the estimator's ``score``).
    random_state : int, RandomState instance or None, default=0
    feature_names : list of str, default=None
    max_features : int, default=20
        Draw the ``max_features`` most important features.
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        One horizontal bar container (the mean importances, largest on top) with error bars:
        the standard error over trees (``"oob"``) or the standard deviation over shuffles
        (``"holdout"``).

    Notes
    -----
    For feature :math:`j`, the importance is :math:`s - s^{\\pi_j}`, the score minus the score
    with column :math:`j` permuted (Breiman 2001), averaged over trees (out-of-bag rows of
    each) or over shuffles. Correlated features share importance: permuting one leaves its
    information in the other.

    Examples
    --------
    >>> import numpy as np
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from statlearning.linear_model import LinearRegression
    >>> from statlearning.plot import plot_permutation_importance
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 3))
    >>> y = 3 * X[:, 0] + rng.normal(size=60)
    >>> ax = plot_permutation_importance(LinearRegression().fit(X, y), X, y)
    >>> [t.get_text() for t in ax.get_yticklabels()][0]
    'x0'
    """
    if method not in ("auto", "oob", "holdout"):
        raise ValueError(f"method must be 'auto', 'oob' or 'holdout'; got {method!r}")
    if (
        isinstance(max_features, bool)
        or not isinstance(max_features, int | np.integer)
        or max_features < 1
    ):
        raise ValueError(f"max_features must be a positive integer; got {max_features!r}")
    forest = _is_bagged_forest(estimator)
    if method == "oob" and not forest:
        raise ValueError("method='oob' needs a random forest or bagged trees; use 'holdout'")
    if method == "oob" or (method == "auto" and forest):
        from ..ensemble import oob_permutation_importance

        result = oob_permutation_importance(estimator, X, y, random_state=random_state)
        spread = "SE over trees"
    else:
        from sklearn.inspection import permutation_importance

        result = permutation_importance(
            estimator, X, y, n_repeats=n_repeats, scoring=scoring, random_state=random_state
        )
        spread = f"SD over {n_repeats} shuffles"
    mean = np.asarray(result.importances_mean, dtype=np.float64)
    err = np.asarray(result.importances_std, dtype=np.float64)
    names = _names(estimator, mean.size, feature_names)
    order = np.argsort(-mean, kind="stable")[:max_features]
    ax = get_ax(ax)
    pos = np.arange(order.size)[::-1]
    ax.barh(
        pos,
        mean[order],
        xerr=err[order],
        color="C0",
        alpha=0.8,
        capsize=2,
        error_kw={"ecolor": "0.3"},
    )
    ax.set_yticks(pos, [names[j] for j in order])
    ax.axvline(0.0, color="0.5", linewidth=0.8)
    ax.set_xlabel(f"Decrease in score when permuted (bars: {spread})")
    ax.set_title("Permutation importance")
    return ax
