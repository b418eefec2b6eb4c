"""Figures of a fitted model's fit: R's four ``plot(lm)`` panels, the confusion matrix and the
calibration curve of a classifier."""

from __future__ import annotations

import warnings

import numpy as np
from scipy import stats

from ..inference import influence_measures
from ..metrics import confusion_matrix
from ._common import as_vector, get_ax, new_figure

__all__ = ["plot_calibration", "plot_confusion_matrix", "plot_regression_diagnostics"]

#: Cook's distance contours of the fourth panel (R's ``cook.levels``).
COOK_LEVELS = (0.5, 1.0)

#: The smoother's points along the fitted range.
_SMOOTH_POINTS = 100


def _smooth(x, y):
    """``(grid, curve)`` of a robust local-linear smoother (R's ``panel.smooth``), or ``None``.

    R draws ``lowess(x, y, f = 2/3, iter = 3)``; we use the library's loess with the same span,
    degree 1 and the symmetric (robust) family, evaluated on a grid of the fitted range.
    """
    from ..smoothing import LocalRegression

    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if x.size < 10 or np.ptp(x) == 0:
        return None
    grid = np.linspace(x.min(), x.max(), _SMOOTH_POINTS)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a visual aid: ties and sparse ends are expected
            fit = LocalRegression(span=2 / 3, degree=1, family="symmetric").fit(x[:, None], y)
            curve = fit.predict(grid[:, None])
    except (ValueError, np.linalg.LinAlgError):
        return None
    return grid, curve


def _draw_smooth(ax, x, y):
    smooth = _smooth(x, y)
    if smooth is not None:
        ax.plot(*smooth, color="C3", linewidth=1.2, label="smoother")


def _label_extremes(ax, x, y, key, id_n):
    """R's ``id.n``: label the ``id_n`` points with the largest ``key`` by their row number."""
    if id_n <= 0:
        return
    order = np.argsort(-np.where(np.isfinite(key), key, -np.inf), kind="stable")[:id_n]
    for i in order:
        if np.isfinite(x[i]) and np.isfinite(y[i]):
            ax.annotate(
                str(i + 1),
                (x[i], y[i]),
                xytext=(3, 2),
                textcoords="offset points",
                fontsize=7,
                color="0.3",
            )


def _design(X):
    try:
        return np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"X must be numeric for the diagnostics; {exc}") from None


def plot_regression_diagnostics(estimator, X, y, *, id_n=3, fig=None):
    """R's four ``plot(lm)`` panels of a fitted regression model.

    Parameters
    ----------
    estimator : fitted regressor
        Anything with ``predict`` (a pipeline too); its ``fit_intercept`` (default ``True``)
        decides whether the design has an intercept column.
    X : array-like of shape (n_samples, n_features)
        The rows to diagnose, usually the training data.
    y : array-like of shape (n_samples,)
        Their responses.
    id_n : int, default=3
        Label the ``id_n`` most extreme points of each panel with their row number (1-based,
        as R).
    fig : matplotlib Figure, default=None

    Returns
    -------
    fig : matplotlib Figure
        Four Axes titled "Residuals vs Fitted", "Normal Q-Q", "Scale-Location" and
        "Residuals vs Leverage"; the last holds the Cook's distance contours at 0.5 and 1 as
        dashed lines labelled ``"Cook's distance 0.5"`` and ``"Cook's distance 1"``.

    See Also
    --------
    statlearning.inference.influence_measures : the leverages, standardised residuals and
        Cook's distances drawn here.

    Notes
    -----
    With residuals :math:`e_i = y_i - \\hat y_i`, leverages :math:`h_{ii}` of the design
    :math:`[1, X]`, :math:`p` its rank and :math:`\\hat\\sigma^2 = \\sum e_i^2/(n-p)`, the panels
    draw :math:`e_i` against :math:`\\hat y_i`; the ordered standardised residuals
    :math:`r_i = e_i / (\\hat\\sigma\\sqrt{1-h_{ii}})` against normal quantiles at R's
    ``ppoints(n)`` with the line through the quartiles (``qqline``);
    :math:`\\sqrt{|r_i|}` against :math:`\\hat y_i`; and :math:`r_i` against :math:`h_{ii}`
    with the curves :math:`D = c`, i.e. :math:`r = \\pm\\sqrt{c\\,p\\,(1-h)/h}`, where Cook's
    distance is :math:`D_i = r_i^2 h_{ii} / (p(1-h_{ii}))`. Red curves are a robust
    local-linear smoother (loess with span 2/3, degree 1, ``family="symmetric"``, close to
    the ``lowess`` of R's ``panel.smooth``).

    For a least-squares fit (``LinearRegression``) every number is R's ``plot(lm(...))``
    (``which = c(1, 2, 3, 5)``). For any other model the residuals are its own and the
    leverages those of the linear design: the fourth panel then screens for rows far from
    the others in ``X``, not for that model's influence. For a GLM the residuals are on the
    response scale and the design unweighted, whereas R's ``plot(glm)`` uses deviance and
    Pearson residuals and the hat matrix of the final IRLS weights.

    Examples
    --------
    >>> import numpy as np
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from statlearning.linear_model import LinearRegression
    >>> from statlearning.plot import plot_regression_diagnostics
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 2))
    >>> y = X @ [1.0, -2.0] + rng.normal(size=50)
    >>> fig = plot_regression_diagnostics(LinearRegression().fit(X, y), X, y)
    >>> [ax.get_title() for ax in fig.axes]
    ['Residuals vs Fitted', 'Normal Q-Q', 'Scale-Location', 'Residuals vs Leverage']
    """
    if not hasattr(estimator, "predict"):
        raise TypeError(
            f"estimator must be a fitted regressor; {type(estimator).__name__} has no predict"
        )
    if isinstance(id_n, bool) or not isinstance(id_n, int | np.integer) or id_n < 0:
        raise ValueError(f"id_n must be a non-negative integer; got {id_n!r}")
    y = as_vector(y, "y")
    fitted = np.asarray(estimator.predict(X), dtype=np.float64).ravel()
    if fitted.shape != y.shape:
        raise ValueError(f"X has {fitted.size} rows but y has {y.size}")
    resid = y - fitted
    final = estimator[-1] if hasattr(estimator, "steps") else estimator
    intercept = bool(getattr(final, "fit_intercept", True))
    try:
        infl = influence_measures(_design(X), resid, fit_intercept=intercept)
        hat, std, rank = infl.hat, infl.std_residuals, infl.rank
    except ValueError:  # n <= p: no leverages; standardise by the residuals' spread
        hat, rank = None, None
        sd = float(np.std(resid, ddof=1)) if resid.size > 1 else 0.0
        std = resid / sd if sd > 0 else np.full_like(resid, np.nan)

    fig, axes = new_figure(2, 2, fig)
    ax1, ax2, ax3, ax4 = axes
    # 1. residuals vs fitted
    ax1.scatter(fitted, resid, s=10, facecolors="none", edgecolors="0.25", linewidths=0.7)
    ax1.axhline(0.0, color="0.5", linestyle=":", linewidth=1)
    _draw_smooth(ax1, fitted, resid)
    _label_extremes(ax1, fitted, resid, np.abs(resid), id_n)
    ax1.set_xlabel("Fitted values")
    ax1.set_ylabel("Residuals")
    ax1.set_title("Residuals vs Fitted")
    # 2. normal Q-Q of the standardised residuals
    finite = np.flatnonzero(np.isfinite(std))
    order = finite[np.argsort(std[finite], kind="stable")]
    m = order.size
    if m:
        a = 3 / 8 if m <= 10 else 0.5  # R's ppoints
        theoretical = stats.norm.ppf((np.arange(1, m + 1) - a) / (m + 1 - 2 * a))
        sample = std[order]
        ax2.scatter(theoretical, sample, s=10, facecolors="none", edgecolors="0.25", linewidths=0.7)
        q_sample = np.quantile(sample, [0.25, 0.75])
        q_norm = stats.norm.ppf([0.25, 0.75])
        slope = (q_sample[1] - q_sample[0]) / (q_norm[1] - q_norm[0])
        ax2.axline((q_norm[0], q_sample[0]), slope=slope, color="0.5", linestyle=":", linewidth=1)
        key = np.zeros(std.size)
        key[order] = np.abs(sample)
        x_of = np.full(std.size, np.nan)
        x_of[order] = theoretical
        _label_extremes(ax2, x_of, std, np.where(np.isnan(x_of), np.nan, key), id_n)
    ax2.set_xlabel("Theoretical quantiles")
    ax2.set_ylabel("Standardized residuals")
    ax2.set_title("Normal Q-Q")
    # 3. scale-location
    root = np.sqrt(np.abs(std))
    ax3.scatter(fitted, root, s=10, facecolors="none", edgecolors="0.25", linewidths=0.7)
    _draw_smooth(ax3, fitted, root)
    _label_extremes(ax3, fitted, root, root, id_n)
    ax3.set_xlabel("Fitted values")
    ax3.set_ylabel("√|Standardized residuals|")
    ax3.set_title("Scale-Location")
    # 4. residuals vs leverage with Cook's distance contours
    ax4.set_title("Residuals vs Leverage")
    ax4.set_xlabel("Leverage")
    ax4.set_ylabel("Standardized residuals")
    if hat is None:
        ax4.text(
            0.5,
            0.5,
            "leverages undefined: n ≤ p",
            ha="center",
            va="center",
            transform=ax4.transAxes,
        )
    else:
        ax4.scatter(hat, std, s=10, facecolors="none", edgecolors="0.25", linewidths=0.7)
        ax4.axhline(0.0, color="0.5", linestyle=":", linewidth=1)
        _draw_smooth(ax4, hat, std)
        cooks = infl.cooks_distance
        _label_extremes(ax4, hat, std, cooks, id_n)
        positive = hat[(hat > 0) & (hat < 1)]
        if positive.size:
            lo, hi = max(positive.min(), 1e-3 * positive.max()), min(positive.max() * 1.05, 0.999)
            h = np.linspace(lo, hi, 101)
            ylim = ax4.get_ylim()
            for level in COOK_LEVELS:
                r = np.sqrt(level * rank * (1 - h) / h)
                for k, sign in enumerate((1.0, -1.0)):
                    ax4.plot(
                        h,
                        sign * r,
                        color="C3",
                        linestyle="--",
                        linewidth=0.9,
                        label=f"Cook's distance {level:g}" if k == 0 else "_nolegend_",
                    )
                ax4.annotate(
                    f"{level:g}",
                    (h[-1], min(r[-1], ylim[1])),
                    fontsize=7,
                    color="C3",
                    xytext=(2, 0),
                    textcoords="offset points",
                )
            ax4.set_ylim(*ylim)  # the contours run off the data's range near h = 0
            ax4.legend(
                handles=[ln for ln in ax4.lines if ln.get_label().startswith("Cook")][:1],
                labels=["Cook's distance"],
                fontsize="small",
                loc="lower left",
            )
    fig.tight_layout()
    return fig


def plot_confusion_matrix(y_true, y_pred, *, labels=None, normalize=None, ax=None):
    """The confusion matrix as a labelled heat map (rows = true class, columns = predicted).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels, of any type.
    labels : array-like, default=None
        Order of the classes (default: the sorted union of the labels).
    normalize : {None, "true", "pred", "all"}, default=None
        Show counts, or proportions within each true class (rows), each predicted class
        (columns) or of all samples.
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        One image and one text per cell (the count or proportion); the title gives the
        accuracy.

    Notes
    -----
    Counts from :func:`statlearning.metrics.confusion_matrix` (scikit-learn's layout); R's
    ``table(predicted, true)`` is the transpose.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from statlearning.plot import plot_confusion_matrix
    >>> ax = plot_confusion_matrix(["a", "a", "b", "b"], ["a", "b", "b", "b"])
    >>> [t.get_text() for t in ax.texts]
    ['1', '1', '0', '2']
    """
    if normalize not in (None, "true", "pred", "all"):
        raise ValueError(f"normalize must be None, 'true', 'pred' or 'all'; got {normalize!r}")
    cm = confusion_matrix(y_true, y_pred, labels=labels)
    counts = np.asarray(cm.matrix, dtype=np.float64)
    total = counts.sum()
    accuracy = np.trace(counts) / total if total > 0 else np.nan
    values = counts
    with np.errstate(invalid="ignore", divide="ignore"):
        if normalize == "true":
            values = counts / counts.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            values = counts / counts.sum(axis=0, keepdims=True)
        elif normalize == "all":
            values = counts / total
    ax = get_ax(ax)
    image = ax.imshow(np.nan_to_num(values), cmap="Blues", vmin=0)
    k = counts.shape[0]
    threshold = np.nanmax(values) / 2 if np.isfinite(values).any() else 0
    for i in range(k):
        for j in range(k):
            v = values[i, j]
            text = f"{int(v)}" if normalize is None else f"{v:.2f}"
            ax.text(
                j,
                i,
                text,
                ha="center",
                va="center",
                fontsize=9,
                color="white" if np.isfinite(v) and v > threshold else "black",
            )
    names = [str(c) for c in cm.labels]
    ax.set_xticks(range(k), names, rotation=45 if max(map(len, names)) > 6 else 0)
    ax.set_yticks(range(k), names)
    ax.set_xlabel("Predicted class")
    ax.set_ylabel("True class")
    ax.set_title(f"Confusion matrix (accuracy {accuracy:.3f})")
    ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    return ax


def plot_calibration(y_true, y_proba, *, pos_label=1, n_bins=10, strategy="uniform", ax=None):
    """Calibration (reliability) curve: observed frequency against predicted probability.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_proba : array-like of shape (n_samples,)
        Predicted probability of ``pos_label``.
    pos_label : label, default=1
        The class whose probability ``y_proba`` is.
    n_bins : int, default=10
        Number of bins of the predicted probability.
    strategy : {"uniform", "quantile"}, default="uniform"
        Equal-width bins on [0, 1], or bins holding equal numbers of predictions.
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        The diagonal (perfect calibration), an error-bar container (the observed frequency
        in each non-empty bin with ±2 binomial standard errors) and the Brier score in the
        legend.

    Notes
    -----
    Bin :math:`b` with :math:`n_b` predictions of mean :math:`\\bar p_b` and observed positive
    frequency :math:`\\hat o_b` is drawn at :math:`(\\bar p_b, \\hat o_b)` with bars
    :math:`\\pm 2\\sqrt{\\hat o_b(1-\\hat o_b)/n_b}`; a calibrated model lies on the diagonal.
    The Brier score is :math:`\\frac1n\\sum_i (p_i - 1[y_i = \\text{pos}])^2`. scikit-learn:
    ``sklearn.calibration.calibration_curve`` (the same bins).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from statlearning.plot import plot_calibration
    >>> ax = plot_calibration([0, 0, 1, 1, 1], [0.1, 0.4, 0.35, 0.8, 0.9], n_bins=2)
    >>> ax.get_legend_handles_labels()[1]
    ['perfectly calibrated', 'observed ± 2 SE (Brier 0.1285)']
    """
    if isinstance(n_bins, bool) or not isinstance(n_bins, int | np.integer) or n_bins < 1:
        raise ValueError(f"n_bins must be a positive integer; got {n_bins!r}")
    if strategy not in ("uniform", "quantile"):
        raise ValueError(f"strategy must be 'uniform' or 'quantile'; got {strategy!r}")
    p = as_vector(y_proba, "y_proba")
    y_true = np.asarray(y_true)
    if y_true.shape != p.shape:
        raise ValueError(f"y_true has shape {y_true.shape} but y_proba has {p.shape}")
    if np.any(~np.isfinite(p)) or p.min() < 0 or p.max() > 1:
        raise ValueError("y_proba must be probabilities in [0, 1]")
    positive = (y_true == pos_label).astype(np.float64)
    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    else:
        edges = np.unique(np.quantile(p, np.linspace(0.0, 1.0, n_bins + 1)))
    bins = np.clip(np.searchsorted(edges[1:-1], p, side="right"), 0, len(edges) - 2)
    count = np.bincount(bins, minlength=len(edges) - 1)
    used = count > 0
    mean_p = np.bincount(bins, weights=p, minlength=count.size)[used] / count[used]
    observed = np.bincount(bins, weights=positive, minlength=count.size)[used] / count[used]
    se = np.sqrt(observed * (1 - observed) / count[used])
    brier = float(np.mean((p - positive) ** 2))
    ax = get_ax(ax)
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="perfectly calibrated")
    ax.errorbar(
        mean_p,
        observed,
        yerr=2 * se,
        fmt="o-",
        color="C0",
        capsize=2,
        markersize=4,
        label=f"observed ± 2 SE (Brier {brier:.4g})",
    )
    ax.set_xlim(-0.02, 1.02)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(f"Predicted probability of {pos_label}")
    ax.set_ylabel("Observed frequency")
    ax.set_title("Calibration")
    ax.legend(loc="upper left", fontsize="small")
    return ax
