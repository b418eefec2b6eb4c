"""Cross-validate the registered models on one data set and rank them (``statlearning compare``)."""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, field

import numpy as np
from sklearn.model_selection import KFold, RepeatedKFold, RepeatedStratifiedKFold, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

__all__ = ["CVResult", "build_estimator", "cross_validate_models", "leaderboard", "make_splits"]

#: Primary and secondary metric of each task, and whether larger primary scores are better.
METRICS = {
    "regression": ("RMSE", "R²", False),
    "classification": ("accuracy", "log-loss", True),
}

_PROBA_FLOOR = 1e-15  # clip predicted probabilities before taking logs


@dataclass
class CVResult:
    """Scores of one model over the cross-validation folds."""

    name: str
    primary: list[float] = field(default_factory=list)
    secondary: list[float] = field(default_factory=list)
    fit_times: list[float] = field(default_factory=list)
    error: str | None = None
    baseline: bool = False

    @property
    def mean(self) -> float:
        return float(np.mean(self.primary)) if self.primary else math.nan

    @property
    def se(self) -> float:
        """Standard error of the mean over folds, ``SD(ddof=1) / sqrt(n_folds)``."""
        k = len(self.primary)
        return float(np.std(self.primary, ddof=1) / math.sqrt(k)) if k > 1 else math.nan

    @property
    def secondary_mean(self) -> float:
        values = np.asarray(self.secondary, dtype=float)
        if values.size == 0 or np.isnan(values).any():
            return math.nan
        return float(values.mean())


def make_splits(X, y, task, cv, repeats, seed):
    """Return the list of ``(train, test)`` index pairs shared by every model.

    The folds are stratified for classification and reshuffled ``repeats`` times when
    ``repeats > 1``.
    """
    n = len(y)
    if cv < 2:
        raise ValueError(f"--cv must be at least 2; got {cv}")
    if cv > n:
        raise ValueError(f"--cv {cv} is larger than the number of rows ({n})")
    if repeats < 1:
        raise ValueError(f"--repeats must be at least 1; got {repeats}")
    if task == "classification":
        if repeats > 1:
            splitter = RepeatedStratifiedKFold(n_splits=cv, n_repeats=repeats, random_state=seed)
        else:
            splitter = StratifiedKFold(n_splits=cv, shuffle=True, random_state=seed)
    elif repeats > 1:
        splitter = RepeatedKFold(n_splits=cv, n_repeats=repeats, random_state=seed)
    else:
        splitter = KFold(n_splits=cv, shuffle=True, random_state=seed)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        splits = list(splitter.split(X, y))
    notes = sorted({_one_line(w.message) for w in caught})
    return splits, notes


def build_estimator(spec):
    """A fresh estimator for ``spec``, behind a StandardScaler when it needs scaled features."""
    estimator = spec.factory()
    return make_pipeline(StandardScaler(), estimator) if spec.needs_scaling else estimator


def _regression_scores(y_true, y_pred):
    y_pred = np.asarray(y_pred, dtype=float).ravel()
    if y_pred.shape != y_true.shape:
        raise ValueError(f"predict returned shape {y_pred.shape}, expected {y_true.shape}")
    if not np.all(np.isfinite(y_pred)):
        raise ValueError("non-finite predictions")
    resid = y_true - y_pred
    sse = float(resid @ resid)
    centred = y_true - y_true.mean()
    sst = float(centred @ centred)
    r2 = 1.0 - sse / sst if sst > 0 else math.nan
    return math.sqrt(sse / len(y_true)), r2


def _log_loss(y_true, proba, proba_classes, classes):
    """Mean negative log-likelihood of ``y_true`` under ``proba`` (columns ``proba_classes``)."""
    column = {c: j for j, c in enumerate(proba_classes)}
    p = np.zeros(len(y_true))
    for label in classes:
        rows = y_true == label
        if label in column:
            p[rows] = proba[rows, column[label]]
    return float(-np.mean(np.log(np.clip(p, _PROBA_FLOOR, 1.0))))


def _baseline(X, y, splits, task, classes):
    result = CVResult(name="baseline", baseline=True)
    for train, test in splits:
        y_train, y_test = y[train], y[test]
        if task == "regression":
            rmse, r2 = _regression_scores(y_test, np.full(len(test), y_train.mean()))
            result.primary.append(rmse)
            result.secondary.append(r2)
        else:
            counts = np.array([np.sum(y_train == c) for c in classes])
            majority = classes[int(np.argmax(counts))]
            result.primary.append(float(np.mean(y_test == majority)))
            freq = np.tile(counts / counts.sum(), (len(test), 1))
            result.secondary.append(_log_loss(y_test, freq, classes, classes))
        result.fit_times.append(0.0)
    return result


def _one_fold(spec, X, y, train, test, task, classes):
    estimator = build_estimator(spec)
    start = time.perf_counter()
    estimator.fit(X[train], y[train])
    elapsed = time.perf_counter() - start
    y_test = y[test]
    pred = estimator.predict(X[test])
    if task == "regression":
        primary, secondary = _regression_scores(y_test, pred)
        return primary, secondary, elapsed
    pred = np.asarray(pred).ravel()
    if pred.shape != y_test.shape:
        raise ValueError(f"predict returned shape {pred.shape}, expected {y_test.shape}")
    primary = float(np.mean(pred == y_test))
    secondary = math.nan
    if hasattr(estimator, "predict_proba"):
        proba = np.asarray(estimator.predict_proba(X[test]), dtype=float)
        fitted = getattr(estimator, "classes_", None)
        fitted = np.unique(y[train]) if fitted is None else fitted
        secondary = _log_loss(y_test, proba, list(fitted), classes)
    return primary, secondary, elapsed


def _one_line(message) -> str:
    lines = [line.strip() for line in str(message).splitlines() if line.strip()]
    return lines[0] if lines else ""


def _reason(exc, limit=90) -> str:
    text = f"{type(exc).__name__}: {_one_line(exc)}".rstrip(": ")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _evaluate(spec, X, y, splits, task, classes, progress, warned):
    result = CVResult(name=spec.name)
    for k, (train, test) in enumerate(splits):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                primary, secondary, elapsed = _one_fold(spec, X, y, train, test, task, classes)
            except Exception as exc:  # a failing model is reported, not fatal
                result.error = _reason(exc)
                progress.update(len(splits) - k)
                break
            finally:
                for w in caught:
                    key = (spec.name, w.category.__name__, _one_line(w.message))
                    warned.setdefault(key, set()).add(k)
        result.primary.append(primary)
        result.secondary.append(secondary)
        result.fit_times.append(elapsed)
        progress.update()
    return result


def cross_validate_models(X, y, specs, splits, task, progress):
    """Cross-validate the baseline and every model in ``specs`` on the same folds.

    Returns
    -------
    results : list of CVResult
        The baseline first, then the models in the order of ``specs``.
    warning_lines : list of str
        One line per distinct warning raised while fitting or predicting.
    """
    classes = np.unique(y) if task == "classification" else None
    results = [_baseline(X, y, splits, task, classes)]
    warned = {}
    for spec in specs:
        results.append(_evaluate(spec, X, y, splits, task, classes, progress, warned))
    n_folds = len(splits)
    warning_lines = [
        f"{name}: {category}: {message} (in {len(folds)} of {n_folds} folds)"
        for (name, category, message), folds in warned.items()
    ]
    return results, warning_lines


def _fmt(x, spec):
    return "-" if x is None or not math.isfinite(x) else format(x, spec)


def leaderboard(results, task):
    """Format the results as table lines: the baseline first, then the models best first."""
    primary_name, secondary_name, larger_is_better = METRICS[task]
    ok = [r for r in results if not r.baseline and r.error is None]
    failed = [r for r in results if not r.baseline and r.error is not None]
    sign = -1.0 if larger_is_better else 1.0
    ok.sort(key=lambda r: (sign * r.mean, r.name))
    label = {"regression": "baseline (mean)", "classification": "baseline (majority)"}[task]
    ranked = [("-", r) for r in results if r.baseline] + [(str(i), r) for i, r in enumerate(ok, 1)]

    means = [_fmt(r.mean, ".4g") for _, r in ranked]
    ses = [_fmt(r.se, ".2g") for _, r in ranked]
    wm, ws = max(map(len, means), default=1), max(map(len, ses), default=1)
    rows = []
    for (rank, r), mean, se in zip(ranked, means, ses, strict=True):
        fit = "-" if r.baseline else _fmt(1e3 * float(np.mean(r.fit_times)), ".3g")
        name = label if r.baseline else r.name
        score = f"{mean:>{wm}} ± {se:<{ws}}"
        rows.append((rank, name, score, _fmt(r.secondary_mean, ".3f"), fit))

    header = ("rank", "model", f"{primary_name} ± SE", secondary_name, "fit ms/fold")
    widths = [max(len(header[j]), *(len(row[j]) for row in rows)) for j in range(len(header))]
    widths[1] = max(widths[1], *(len(r.name) for r in failed)) if failed else widths[1]
    lines = [_row(header, widths)] + [_row(row, widths) for row in rows]
    for r in failed:
        lines.append(f"{'-':>{widths[0]}}  {r.name:<{widths[1]}}  failed: {r.error}")
    return lines


def _row(cells, widths):
    rank, name, score, secondary, fit = cells
    return (
        f"{rank:>{widths[0]}}  {name:<{widths[1]}}  {score:<{widths[2]}}  "
        f"{secondary:>{widths[3]}}  {fit:>{widths[4]}}"
    ).rstrip()
