"""The HTML report of ``statlearning compare --report FILE`` and ``statlearning report``.

One self-contained file (figures inline as base64 PNG, no network) rendered from the jinja2
template ``templates/report.html.j2`` shipped with the package: the leaderboard with the one-SE
choice marked, the scores by fold, a section for the best model and one for the best
interpretable model, and the data.

What it costs beyond ``compare``: the cross-validation keeps every model's out-of-fold
predictions (the confusion matrix, ROC and calibration curve of a classifier are drawn from
them, so they are honest estimates), and the two chosen models are refitted once on all rows
(the regression diagnostics, coefficients, tree and importances are those of that fit).
"""

from __future__ import annotations

import base64
import datetime
import html
import importlib.util
import io
import math
import time
import warnings
from pathlib import Path

import numpy as np

from .. import __version__
from ._compare import METRICS, build_estimator
from ._leaderboard import LINEAR_FAMILIES, rank_results
from ._output import WarningLog, one_line

__all__ = ["REPORT_EXTRA", "check_report_dependencies", "write_report"]

#: The optional dependencies of the report and the extra that installs them.
REPORT_EXTRA = ("jinja2", "matplotlib")

#: Resolution of the inline figures (dots per inch).
DPI = 80

#: Models drawn in the scores-by-fold figure (the best ones).
MAX_MODELS_IN_FIGURE = 20


def check_report_dependencies():
    """A ``ValueError`` naming the ``[report]`` extra when jinja2 or matplotlib is missing."""
    missing = [name for name in REPORT_EXTRA if importlib.util.find_spec(name) is None]
    if missing:
        raise ValueError(
            f"the HTML report needs {' and '.join(missing)}, not installed: "
            'pip install "statlearning[report]"'
        )


def _png(fig, alt, caption=""):
    """A figure as a dict for the template: base64 PNG, alt text and caption."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
    return {
        "png": base64.b64encode(buffer.getvalue()).decode("ascii"),
        "alt": alt,
        "caption": caption,
    }


def _figure(width=6.0, height=4.0):
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


def _axes(width=6.0, height=4.0):
    return _figure(width, height).add_subplot()


def _fmt(x, spec=".4g"):
    return "-" if x is None or not math.isfinite(x) else format(x, spec)


def _leaderboard_rows(rows, task):
    out = []
    for row in rows:
        marks = []
        if row.best:
            marks.append("best")
        if row.one_se:
            marks.append("one-SE")
        if row.best_interpretable:
            marks.append("interpretable")
        css = " ".join(c for c, on in (("best", row.best), ("one-se", row.one_se)) if on)
        secondary = math.nan if row.result is None else row.result.secondary_mean
        name = row.model
        if row.baseline:
            name = {"regression": "baseline (mean)", "classification": "baseline (majority)"}[task]
        notes = [
            n
            for n in row.notes
            if n not in ("best mean", "best interpretable model")
            and not n.startswith(("one-SE choice", "baseline:"))
        ]
        out.append({
            "rank": "-" if row.rank is None else row.rank, "model": name, "marks": marks,
            "mean": _fmt(row.mean), "se": _fmt(row.se, ".2g"), "secondary": _fmt(secondary, ".3f"),
            "fit": "-" if row.baseline else _fmt(row.fit_seconds, ".3g"),
            "notes": "; ".join(notes), "css": css,
        })  # fmt: skip
    return out


def _cv_figure(rows, task):
    from ..plot import plot_cv_scores

    metric = METRICS[task][0]
    scores, marks = {}, {}
    for row in rows:
        if row.result is None or not row.result.primary or (row.rank or 0) > MAX_MODELS_IN_FIGURE:
            continue
        name = "baseline" if row.baseline else row.model
        scores[name] = row.result.primary
        mark = [m for m, on in (("best", row.best), ("one-SE", row.one_se)) if on]
        if mark:
            marks[name] = ", ".join(mark)
    ax = _axes(7.5, 0.9 + 0.32 * len(scores))
    plot_cv_scores(scores, metric=metric, highlight=marks, ax=ax)
    caption = (
        f"{metric} of each model on each fold (the same folds for every model); box: "
        "quartiles of the folds; diamond: mean ± 1 SE."
    )
    return _png(ax.figure, f"{metric} by fold for each model", caption)


def _out_of_fold(result, splits, n):
    """The out-of-fold ``(pred, proba, decision)`` of the first repetition, or ``None`` if a
    row has no out-of-fold prediction (a model stopped by the time budget)."""
    pieces = {}
    covered = np.zeros(n, dtype=bool)
    for k, (_, test) in enumerate(splits):
        if k not in result.predictions or covered[test].any():  # missing, or a later repeat
            continue
        for slot, values in enumerate(result.predictions[k]):
            if values is None:
                continue
            values = np.asarray(values)
            if slot not in pieces:  # labels as objects: a later fold's may be longer strings
                dtype = object if values.dtype.kind in "USO" else values.dtype
                pieces[slot] = np.empty((n, *values.shape[1:]), dtype=dtype)
            pieces[slot][test] = values
        covered[test] = True
    if 0 not in pieces or not covered.all():
        return None
    return pieces[0], pieces.get(1), pieces.get(2)


def _table_html(summary_or_table):
    try:
        return summary_or_table._repr_html_()
    except (AttributeError, ValueError, TypeError):
        return None


def _coefficient_parts(estimator, spec, X, y):
    """The coefficient table and figure of a linear model (nothing when it has none), and the
    coefficient paths of a lasso or elastic net."""
    from ..plot import plot_coefficients

    final = estimator[-1] if hasattr(estimator, "steps") else estimator
    parts = []
    summary = None
    if callable(getattr(final, "summary", None)):
        try:
            summary = final.summary()
        except (ValueError, TypeError, AttributeError):
            summary = None
    scaled = " (features standardised)" if spec.needs_scaling else ""
    if summary is not None:
        parts.append(
            {
                "kind": "coefficients",
                "title": "Coefficient table" + scaled,
                "html": _table_html(summary),
                "caption": "R's summary() of the refit.",
            }
        )
    elif hasattr(final, "coef_") or hasattr(final, "scalings_"):
        lda = not hasattr(final, "coef_")  # MASS's "coefficients of linear discriminants"
        coef = np.atleast_2d(np.asarray(final.scalings_ if lda else final.coef_, dtype=float))
        if lda:
            coef = coef.T
        names = list(
            getattr(estimator, "feature_names_in_", [f"x{j}" for j in range(coef.shape[1])])
        )
        if len(names) != coef.shape[1]:  # a selector in front: the kept columns
            names = [f"x{j}" for j in range(coef.shape[1])]
        classes = getattr(final, "classes_", None)
        if lda:
            heads = [f"LD{k + 1}" for k in range(coef.shape[0])]
        elif coef.shape[0] == 1:
            heads = ["estimate"]
        elif classes is not None and len(classes) == coef.shape[0]:
            heads = [str(c) for c in classes]
        else:
            heads = [f"coef {k}" for k in range(coef.shape[0])]
        body = "".join(
            f"<tr><td class='name'>{html.escape(n)}</td>"
            + "".join(f"<td>{_fmt(v)}</td>" for v in coef[:, j])
            + "</tr>"
            for j, n in enumerate(names)
        )
        head = "".join(f"<th>{html.escape(h)}</th>" for h in heads)
        title = "Coefficients of linear discriminants" if lda else "Coefficients"
        parts.append(
            {
                "kind": "coefficients",
                "title": title + scaled,
                "html": f"<table><thead><tr><th class='name'>term</th>{head}</tr></thead>"
                f"<tbody>{body}</tbody></table>",
            }
        )
    else:
        return parts
    if all(hasattr(final, a) for a in ("alphas_", "cv_mean_", "cv_se_", "alpha_1se_")):
        from ..plot import lasso_cv_curve

        ax = _axes(6.0, 4.0)
        lasso_cv_curve(final, ax=ax)
        caption = "The refit's own cross-validation of the penalty (R's plot(cv.glmnet))."
        figure = _png(ax.figure, "CV error against the penalty")
        parts.append({"kind": "cv-curve", "title": "Penalty by cross-validation",
                      "caption": caption, "figure": figure})  # fmt: skip
    parts += _path_parts(estimator, final, X, y)
    try:
        ax = _axes(6.5, 1.2 + 0.28 * min(len(getattr(X, "columns", range(X.shape[1]))), 40))
        plot_coefficients(estimator, ax=ax)
        parts[0]["figure"] = _png(
            ax.figure,
            "coefficients with intervals",
            "Estimates with their confidence intervals where known.",
        )
    except (ValueError, TypeError):
        pass
    return parts


def _tree_parts(estimator, spec):
    from ..plot import plot_tree
    from ..tree import export_text

    final = estimator[-1] if hasattr(estimator, "steps") else estimator
    if not hasattr(final, "tree_"):
        return []
    leaves = int(np.sum(np.asarray(final.tree_.children_left) < 0))
    fig = _figure(min(4.0 + 0.9 * leaves, 16.0), 5.0)
    ax = fig.add_subplot()
    plot_tree(final, ax=ax, max_depth=6)
    text = export_text(final)
    return [
        {
            "kind": "tree",
            "title": "The pruned tree (rpart layout)",
            "caption": f"{leaves} leaves; drawn to depth 6, printed in full below.",
            "figure": _png(fig, "the fitted decision tree"),
            "text": text,
        }
    ]


def _importance_parts(estimator, X, y, task, seed):
    from ..plot import plot_permutation_importance

    ax = _axes(6.5, 1.2 + 0.28 * min(X.shape[1], 20))
    plot_permutation_importance(estimator, X, y, random_state=seed, ax=ax)
    oob = "over trees" in ax.get_xlabel()  # the figure chose Breiman's out-of-bag importance
    caption = (
        "Out-of-bag permutation importance (Breiman; R's randomForest importance type 1)."
        if oob
        else "Permutation importance on the training rows (5 shuffles per feature)."
    )
    return [
        {
            "kind": "importance",
            "title": "Permutation importance",
            "caption": caption,
            "figure": _png(ax.figure, "permutation importances"),
        }
    ]


def _partial_dependence_parts(estimator, X):
    """Partial-dependence panels of every feature (GAMs: each smooth term's shape)."""
    from sklearn.inspection import partial_dependence

    names = list(getattr(X, "columns", [f"x{j}" for j in range(X.shape[1])]))
    k = min(len(names), 12)
    ncols = min(k, 3)
    nrows = -(-k // ncols)
    fig = _figure(4.0 * ncols, 3.0 * nrows)
    for j in range(k):
        ax = fig.add_subplot(nrows, ncols, j + 1)
        pd_ = partial_dependence(estimator, X, [j], grid_resolution=50)
        ax.plot(pd_["grid_values"][0], pd_["average"][0], color="C0")
        ax.set_xlabel(names[j])
        ax.set_ylabel("partial dependence")
    fig.tight_layout()
    return [
        {
            "kind": "partial-dependence",
            "title": "Partial dependence",
            "caption": "The average prediction as one feature varies, the others as observed.",
            "figure": _png(fig, "partial dependence panels"),
        }
    ]


def _classifier_parts(result, splits, y, classes):
    from ..plot import plot_calibration, plot_confusion_matrix, plot_roc

    oof = _out_of_fold(result, splits, y.size)
    if oof is None:
        return [], [
            "The out-of-fold predictions are incomplete (the model was stopped early); "
            "no confusion matrix, ROC or calibration curve."
        ]
    pred, proba, decision = oof
    parts = []
    ax = _axes(5.0, 4.2)
    plot_confusion_matrix(y, pred, labels=classes, ax=ax)
    parts.append(
        {
            "kind": "confusion-matrix",
            "title": "Confusion matrix",
            "caption": "Out-of-fold predictions of the cross-validation.",
            "figure": _png(ax.figure, "confusion matrix"),
        }
    )
    binary = len(classes) == 2
    if proba is None and decision is not None:
        ax = _axes(5.0, 5.0)
        plot_roc(y, decision, pos_label=classes[1], ax=ax)
        parts.append(
            {
                "kind": "roc",
                "title": "ROC curve",
                "caption": f"Positive class {classes[1]!r}; out-of-fold decision "
                "function values. AUC ± DeLong's SE; the point is the "
                "threshold nearest the top-left corner.",
                "figure": _png(ax.figure, "ROC curve"),
            }
        )
        return parts, ["The model gives no class probabilities: no calibration curve."]
    if proba is None:
        return parts, ["The model gives no class probabilities: no ROC or calibration curve."]
    ax = _axes(5.0, 5.0)
    if binary:
        plot_roc(y, proba[:, 1], pos_label=classes[1], ax=ax)
        caption = (
            f"Positive class {classes[1]!r}; out-of-fold probabilities. AUC ± DeLong's "
            "SE; the point is the threshold nearest the top-left corner."
        )
    else:
        plot_roc(y, proba, classes=list(classes), ax=ax)
        caption = "One class against the rest; out-of-fold probabilities."
    parts.append(
        {
            "kind": "roc",
            "title": "ROC curve",
            "caption": caption,
            "figure": _png(ax.figure, "ROC curve"),
        }
    )
    shown = [classes[1]] if binary else list(classes)[:4]
    fig = _figure(4.6 * len(shown), 4.2)
    for j, label in enumerate(shown):
        column = list(classes).index(label)
        plot_calibration(
            y, proba[:, column], pos_label=label, ax=fig.add_subplot(1, len(shown), j + 1)
        )
    fig.tight_layout()
    parts.append(
        {
            "kind": "calibration",
            "title": "Calibration",
            "caption": "Out-of-fold probabilities in 10 bins; bars ±2 binomial SE.",
            "figure": _png(fig, "calibration curve"),
        }
    )
    return parts, []


def _diagnostics_parts(estimator, spec, X, y):
    from ..plot import plot_regression_diagnostics

    fig = _figure(9.0, 7.2)
    plot_regression_diagnostics(estimator, X, y, fig=fig)
    screen = "." if spec.family in LINEAR_FAMILIES else (
        " (for this non-linear model a screen for unusual rows of X)."
    )  # fmt: skip
    caption = (
        "R's plot(lm): the refit's residuals on the training rows; leverages of the linear "
        "design [1, X]" + screen
    )
    figure = _png(fig, "regression diagnostics")
    return [{"kind": "diagnostics", "title": "Regression diagnostics", "caption": caption,
             "figure": figure}]  # fmt: skip


def _path_parts(estimator, final, X, y):
    """A lasso or elastic net's coefficient paths, the penalties it chose marked."""
    from ..linear_model import ElasticNet, ElasticNetCV
    from ..plot import plot_coefficient_path

    if not isinstance(final, ElasticNet | ElasticNetCV):
        return []
    ax = _axes(6.5, 4.4)
    plot_coefficient_path(estimator, X, np.asarray(y, dtype=float), ax=ax)
    if isinstance(final, ElasticNetCV):
        caption = (
            "R's plot(glmnet, xvar = \"lambda\") on the refit's grid: dashed lambda.min "
            "(alpha_min_), dotted lambda.1se (alpha_1se_)."
        )
    else:
        caption = "R's plot(glmnet, xvar = \"lambda\"); dashed: the model's alpha."
    figure = _png(ax.figure, "coefficient paths against the penalty")
    return [{"kind": "coefficient-path", "title": "Coefficient paths", "caption": caption,
             "figure": figure}]  # fmt: skip


def _mars_parts(estimator, X, y):
    from ..plot import plot_mars

    fig = _figure(10.0, 6.0)
    plot_mars(estimator, X, y, fig=fig)
    figure = _png(fig, "MARS model against each predictor")
    return [{"kind": "partial-dependence", "title": "MARS terms (plotmo)", "figure": figure}]


def _safely(notes, what, draw, *args):
    """``draw(*args)``, or no parts and a note when it fails (one figure never sinks the
    report)."""
    try:
        return draw(*args)
    except Exception as exc:
        notes.append(f"The {what} could not be drawn ({type(exc).__name__}: {one_line(exc)}).")
        return []


def _model_section(row, spec, heading, anchor, data, task, splits, seed):
    X, y = data.frame()
    y_arr = np.asarray(data.y)
    estimator = build_estimator(spec)
    parts, notes = [], []
    seconds = math.nan
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.perf_counter()
        try:
            estimator.fit(X, y)
            seconds = time.perf_counter() - start
        except Exception as exc:
            notes.append(f"The refit on all rows failed ({type(exc).__name__}: {one_line(exc)}).")
        if task == "classification":  # from the cross-validation: no refit needed
            more = _safely(notes, "classifier figures", _classifier_parts, row.result, splits,
                           y_arr, np.unique(y_arr))  # fmt: skip
            if more:
                parts += more[0]
                notes += more[1]
        if math.isfinite(seconds):
            if task == "regression":
                parts += _safely(notes, "regression diagnostics", _diagnostics_parts, estimator,
                                 spec, X, y_arr)  # fmt: skip
            if spec.family in LINEAR_FAMILIES:
                parts += _safely(notes, "coefficients", _coefficient_parts, estimator, spec, X,
                                 y_arr)  # fmt: skip
            elif spec.family == "tree":
                parts += _safely(notes, "tree", _tree_parts, estimator, spec)
            elif spec.family == "ensemble":
                parts += _safely(notes, "importances", _importance_parts, estimator, X, y_arr,
                                 task, seed)  # fmt: skip
            elif spec.family == "mars" and task == "regression":
                parts += _safely(notes, "MARS terms", _mars_parts, estimator, X, y_arr)
            elif spec.family == "gam":
                parts += _safely(notes, "partial dependence", _partial_dependence_parts,
                                 estimator, X)  # fmt: skip
    log = WarningLog()
    for i, w in enumerate(caught):
        log.add(spec.name, w.category.__name__, w.message, i)
    parts = [{"caption": "", "html": None, "text": None, "figure": None, **p} for p in parts]
    return {
        "name": spec.name,
        "heading": heading,
        "anchor": anchor,
        "description": spec.description,
        "fit_seconds": _fmt(seconds, ".3g"),
        "notes": notes,
        "warnings": log.lines(),
        "parts": parts,
    }


def _data_section(data, task):
    design = getattr(data, "design", None)
    features = list(getattr(design, "features", None) or data.feature_names)
    levels = dict(getattr(design, "levels", None) or {})
    columns = []
    for name in features:
        if name in levels:
            lv = [str(v) for v in levels[name]]
            dummies = [n for n in data.feature_names if n.startswith(name) and n != name]
            columns.append(
                {
                    "name": name,
                    "type": f"categorical ({len(lv)} levels)",
                    "levels": ", ".join(lv) + f" (baseline {lv[0]!r})",
                    "design": ", ".join(dummies) or "-",
                }
            )
        else:
            columns.append({"name": name, "type": "numeric", "levels": "-", "design": name})
    stat_names = ["mean", "sd", "min", "25%", "median", "75%", "max"]
    stats = []
    X = np.asarray(data.X, dtype=float)
    targets = [(data.target_name, np.asarray(data.y, dtype=float))] if task == "regression" else []
    for name, v in targets + [(n, X[:, j]) for j, n in enumerate(data.feature_names)]:
        q = np.quantile(v, [0, 0.25, 0.5, 0.75, 1])
        sd = float(np.std(v, ddof=1)) if v.size > 1 else math.nan
        stats.append({"name": name, "values": [_fmt(float(np.mean(v))), _fmt(sd), *map(_fmt, q)]})
    classes = []
    if task == "classification":
        labels, counts = np.unique(data.y, return_counts=True)
        classes = [
            {"label": str(c), "count": int(k), "share": f"{k / counts.sum():.3f}"}
            for c, k in zip(labels, counts, strict=True)
        ]
    if data.dropped_rows:
        missing = (
            f"{data.dropped_rows} rows with missing values were dropped (--na drop); "
            "the analysis uses the complete rows."
        )
    else:
        missing = "No missing values in the rows analysed."
    return {
        "missing_columns": _missing_columns(data, features),
        "source": data.source,
        "n": data.n,
        "p": data.p,
        "target": data.target_name,
        "columns": columns,
        "stat_names": stat_names,
        "stats": stats,
        "classes": classes,
        "missing": missing,
        "notes": list(data.notes),
    }


def _missing_columns(data, features):
    """Missing cells of each column (the target first) in the rows read: count and share."""
    counts = dict(getattr(data, "missing", None) or {})
    rows = getattr(data, "rows_read", 0) or data.n
    names = [data.target_name, *(c for c in counts if c != data.target_name)]
    if not getattr(data, "formula", ""):  # a formula's design columns are no table columns
        names += [c for c in features if c not in names]
    out = []
    for name in names:
        k = int(counts.get(name, 0))
        out.append({"name": name, "count": k, "percent": f"{100.0 * k / rows:.1f}"})
    return out


def _environment():
    import jinja2
    from markupsafe import Markup

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("statlearning.cli", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        undefined=jinja2.StrictUndefined,
    )

    def figure(fig):
        return Markup(
            '<figure><img alt="{}" src="data:image/png;base64,{}"><figcaption>{}</figcaption>'
            "</figure>"
        ).format(fig["alt"], Markup(fig["png"]), fig["caption"])

    env.globals["figure"] = figure
    return env


def write_report(path, data, task, reason, specs, splits, run, args):
    """Render the report of a finished ``compare`` run to ``path``; return the path.

    Parameters
    ----------
    path : str
        The HTML file to write.
    data : Data
        The data of the run.
    task, reason : str
        The task and why it was chosen.
    specs : list of ModelSpec
        The models run.
    splits : list of (train, test)
        The folds of the run.
    run : Run
        The cross-validation results, with out-of-fold predictions.
    args : argparse.Namespace
        The command's options (folds, seed).

    Returns
    -------
    pathlib.Path
    """
    check_report_dependencies()
    rows = rank_results(run.results, task, specs, run.notes)
    by_name = {s.name: s for s in specs}
    chosen = []
    best = next((r for r in rows if r.best), None)
    interp = next((r for r in rows if r.best_interpretable), None)
    if best is not None:
        heading = "Best model" + (" (also the best interpretable)" if best is interp else "")
        chosen.append((best, heading, "model-best"))
    if interp is not None and interp is not best:
        chosen.append((interp, "Best interpretable model", "model-interpretable"))
    models = [
        _model_section(row, by_name[row.model], heading, anchor, data, task, splits, args.seed)
        for row, heading, anchor in chosen
    ]
    primary, secondary, larger = METRICS[task]
    folds = f"{args.cv}-fold cross-validation" + (
        f" repeated {args.repeats} times" if args.repeats > 1 else ""
    )
    context = {
        "task": task, "reason": reason, "version": __version__,
        "created": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "run_line": f"{folds}, seed {args.seed}; {len(specs)} models",
        "metric": primary, "secondary": secondary, "folds": folds,
        "direction": "higher" if larger else "lower",
        "leaderboard": _leaderboard_rows(rows, task), "run_notes": run.notes,
        "warnings": run.warning_lines, "cv_figure": _cv_figure(rows, task),
        "models": models, "data": _data_section(data, task),
    }  # fmt: skip
    text = _environment().get_template("report.html.j2").render(**context)
    out = Path(path)
    out.write_text(text, encoding="utf-8")
    return out
