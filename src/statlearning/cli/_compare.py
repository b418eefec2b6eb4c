"""Cross-validate the registered models on one data set and rank them (``statlearning compare``)."""

from __future__ import annotations

import functools
import math
import time
import warnings
from dataclasses import dataclass, field

import numpy as np
from joblib import Parallel, delayed
from sklearn.model_selection import KFold, RepeatedKFold, RepeatedStratifiedKFold, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

from ._budget import estimate_cost, probe_order
from ._output import WarningLog, one_line
from ._warmup import WAITING_DETAIL

__all__ = [
    "CVResult",
    "Run",
    "applicable",
    "build_estimator",
    "cross_validate_models",
    "fold_task",
    "leaderboard",
    "make_splits",
    "take_rows",
]

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
    planned: int = 0  # folds planned; more than len(primary) when stopped by the time budget
    #: Out-of-fold predictions by fold index, ``(pred, proba, decision)`` (kept for the HTML
    #: report): ``proba`` holds the class probabilities in the order of ``np.unique(y)``
    #: (``None`` for regression or a classifier without ``predict_proba``), ``decision`` a
    #: binary classifier's ``decision_function`` when it has no ``predict_proba``.
    predictions: dict = field(default_factory=dict)

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
    notes = sorted({one_line(w.message) for w in caught})
    return splits, notes


def build_estimator(spec, formula=None):
    """A fresh estimator for ``spec``, behind a StandardScaler when it needs scaled features.

    With a ``formula`` the first step is its :class:`~statlearning.formula.FormulaTransformer`,
    so that the estimator reads a table's raw columns and every fit learns the formula's
    encoding (spline knots, polynomial recurrences, factor levels) from its own rows.
    """
    steps = [spec.factory()]
    if spec.needs_scaling:
        steps.insert(0, StandardScaler())
    if formula:
        from ..formula import FormulaTransformer

        steps.insert(0, FormulaTransformer(formula))
    return make_pipeline(*steps) if len(steps) > 1 else steps[0]


def take_rows(X, rows):
    """Rows ``rows`` of an array or (a formula's table) of a DataFrame."""
    return X.iloc[rows] if hasattr(X, "iloc") else X[rows]


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


def _one_fold(spec, X, y, train, test, task, classes, keep=False, formula=None):
    """Fit on ``train``, score on ``test``: ``(primary, secondary, seconds, predictions)``,
    the predictions ``(pred, proba, decision)`` of the test rows (``decision``, computed only
    when ``keep``: a binary classifier's ``decision_function`` when it has no
    ``predict_proba``). With a ``formula``, ``X`` is the table its design is built from,
    inside the fold (:func:`build_estimator`)."""
    estimator = build_estimator(spec, formula)
    X_train, X_test = take_rows(X, train), take_rows(X, test)
    start = time.perf_counter()
    estimator.fit(X_train, y[train])
    elapsed = time.perf_counter() - start
    y_test = y[test]
    pred = estimator.predict(X_test)
    if task == "regression":
        primary, secondary = _regression_scores(y_test, pred)
        return primary, secondary, elapsed, (np.asarray(pred, dtype=float).ravel(), None, None)
    pred = np.asarray(pred).ravel()
    if pred.shape != y_test.shape:
        raise ValueError(f"predict returned shape {pred.shape}, expected {y_test.shape}")
    primary = float(np.mean(pred == y_test))
    secondary = math.nan
    aligned = None
    if hasattr(estimator, "predict_proba"):
        proba = np.asarray(estimator.predict_proba(X_test), dtype=float)
        fitted = getattr(estimator, "classes_", None)
        fitted = np.unique(y[train]) if fitted is None else fitted
        secondary = _log_loss(y_test, proba, list(fitted), classes)
        aligned = np.zeros((len(test), len(classes)))
        column = {c: j for j, c in enumerate(fitted)}
        for j, label in enumerate(classes):
            if label in column:
                aligned[:, j] = proba[:, column[label]]
    elif keep and len(classes) == 2 and hasattr(estimator, "decision_function"):
        # a score for the ROC curve: larger means the second class
        score = np.asarray(estimator.decision_function(X_test), dtype=float).ravel()
        fitted = list(getattr(estimator, "classes_", classes))
        sign = 1.0 if fitted[-1] == classes[1] else -1.0
        return primary, secondary, elapsed, (pred, None, sign * score)
    return primary, secondary, elapsed, (pred, aligned, None)


def fold_task(spec, X, y, train, test, task, classes, k, keep=False, formula=None):
    """Fit and score fold ``k``; a picklable task for joblib (``formula``: as
    :func:`_one_fold`).

    Returns
    -------
    tuple
        ``(k, primary, secondary, seconds, warnings, error, predictions)``: ``warnings`` a
        list of ``(category, message)``, ``error`` a one-line reason or None, ``predictions``
        the fold's ``(pred, proba, decision)`` when ``keep`` (else None).
    """
    predictions = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            primary, secondary, elapsed, predictions = _one_fold(
                spec, X, y, train, test, task, classes, keep, formula
            )
            error = None
        except Exception as exc:  # a failing model is reported, not fatal
            primary = secondary = elapsed = math.nan
            error = _reason(exc)
    found = [(w.category.__name__, one_line(w.message)) for w in caught]
    return k, primary, secondary, elapsed, found, error, predictions if keep else None


def _reason(exc, limit=90) -> str:
    text = f"{type(exc).__name__}: {one_line(exc)}".rstrip(": ")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _seconds(x):
    return f"{x:.0f} s" if x >= 10 else f"{x:.2g} s"


def applicable(specs, y, p, splits, task):
    """Split ``specs`` into the models defined on these data and notes on the others.

    A model needing more training rows than columns (or than columns per class) is left out
    when a training fold falls short; a model for positive or non-negative responses when the
    target leaves its domain.
    """
    n_train = min(len(train) for train, _ in splits)
    counts = n_classes = None
    if task == "classification":
        counts = [min(np.unique(y[train], return_counts=True)[1]) for train, _ in splits]
        n_classes = int(np.unique(y).size)
    y_min = float(np.min(y)) if task == "regression" else None
    kept, notes = [], []
    for spec in specs:
        if y_min is not None and not spec.accepts_target(y_min):
            domain = {"positive": "y > 0", "nonnegative": "y >= 0"}[spec.target]
            notes.append(f"{spec.name} left out: it needs {domain}; the smallest y is {y_min:.4g}")
        elif not spec.defined_for(
            n_train, p, None if counts is None else [min(counts)], n_classes=n_classes
        ):
            if spec.binary_only and n_classes is not None and n_classes > 2:
                why = f"it takes two classes and the target has {n_classes}"
            elif spec.rows == "one_feature":
                why = f"it smooths a single feature and the data have p = {p}"
            elif spec.rows == "class_rows":
                why = f"a class has {min(counts)} training rows for p = {p} features"
            else:
                why = f"p = {p} features for {n_train} training rows (p >= n)"
            notes.append(f"{spec.name} left out: the fit is undefined or degenerate: {why}")
        else:
            kept.append(spec)
    return kept, notes


@dataclass
class Run:
    """What :func:`cross_validate_models` found."""

    results: list
    warning_lines: list
    notes: list
    estimates: dict

    @property
    def n_fitted(self) -> int:
        return sum(1 for r in self.results if not r.baseline and r.error is None and r.primary)


#: A model whose folds are expected to take longer than this (seconds, sequentially) has them
#: run in parallel when ``jobs > 1``.
PARALLEL_MIN_SECONDS = 20.0
#: Timing the models on subsamples stops (the rest are skipped) once it has used this share of
#: the time budget.
PROBE_SHARE = 0.5
#: Models are planned to end this share of the time budget early (a fold in flight when a
#: model is stopped still runs to its end).
BUDGET_MARGIN = 0.05
#: Parallel folds are counted as ``jobs * PARALLEL_EFFICIENCY`` workers in the estimates.
PARALLEL_EFFICIENCY = 0.8


class _Folds:
    """Collect one model's fold results and decide whether it may go on within the budget."""

    def __init__(self, spec, n_folds, log, progress, deadline, clock, workers=1):
        self.result = CVResult(name=spec.name)
        self.predictions = {}
        self.workers = workers
        self.scores = {}
        self.n_folds, self.log, self.progress = n_folds, log, progress
        self.deadline, self.clock = deadline, clock
        self.start = clock()
        self.stopped = None
        self.seen = 0

    def add(self, outcome):
        """Record one fold; return False when the model should stop."""
        k, primary, secondary, elapsed, found, error, predictions = outcome
        self.seen += 1
        if predictions is not None:
            self.predictions[k] = predictions
        for category, message in found:
            self.log.add(self.result.name, category, message, k)
        self.progress.update(detail=self.result.name)
        if error is not None:
            self.result.error = error
            return False
        self.scores[k] = (primary, secondary, elapsed)
        done = len(self.scores)
        if self.deadline is not None and done < self.n_folds:
            spent = self.clock() - self.start
            # with parallel folds, the others in flight are about as far along as this one
            started = min(self.n_folds, done + self.workers - 1)
            projected = self.clock() + spent / started * (self.n_folds - started)
            if projected > self.deadline:
                kept = "ranked on those folds" if done >= _min_folds(self.n_folds) else "dropped"
                self.stopped = (
                    f"{self.result.name} stopped after {done} of {self.n_folds} folds "
                    f"({kept}): {_seconds(spent / done)} per fold would exceed the time budget"
                )
                return False
        return True

    def finish(self):
        self.result.planned = self.n_folds
        for k in sorted(self.scores):
            primary, secondary, elapsed = self.scores[k]
            self.result.primary.append(primary)
            self.result.secondary.append(secondary)
            self.result.fit_times.append(elapsed)
            if k in self.predictions:
                self.result.predictions[k] = self.predictions[k]
        return self.result


def _min_folds(n_folds):
    """A model stopped by the time budget is ranked on its folds if it completed this many."""
    return max(2, math.ceil(n_folds / 2))


def _run_folds(spec, X, y, splits, task, classes, folds, jobs, keep=False, formula=None):
    tasks = (
        delayed(fold_task)(spec, X, y, train, test, task, classes, k, keep, formula)
        for k, (train, test) in enumerate(splits)
    )
    if jobs > 1:
        outcomes = Parallel(n_jobs=jobs, return_as="generator_unordered")(tasks)
    else:
        outcomes = (fn(*args, **kwargs) for fn, args, kwargs in tasks)
    try:
        for outcome in outcomes:
            if not folds.add(outcome):
                break
    finally:
        close = getattr(outcomes, "close", None)
        if close is not None:
            with warnings.catch_warnings():  # joblib counts the folds left undone
                warnings.simplefilter("ignore")
                close()


def cross_validate_models(X, y, specs, splits, task, progress, **options):
    """Cross-validate the baseline and every model in ``specs`` on the same folds.

    BLAS runs on one thread per process meanwhile: a fold's small matrix products gain nothing
    from more, and on a busy machine threads waiting for each other cost more than the work.
    The keyword ``options`` are those of :func:`_cross_validate_models`.
    """
    with threadpool_limits(limits=1, user_api="blas"):
        return _cross_validate_models(X, y, specs, splits, task, progress, **options)


def _cross_validate_models(
    X,
    y,
    specs,
    splits,
    task,
    progress,
    *,
    budget=None,
    jobs=1,
    seed=0,
    clock=None,
    start=None,
    keep_predictions=False,
    warmup=None,
    formula=None,
):
    """Cross-validate the baseline and every model in ``specs`` on the same folds.

    With a ``budget`` (seconds, counted from ``start``), each model is first timed on a
    subsample (:mod:`._budget`); the models run cheapest first, and a model expected to take
    longer than what is left of the budget is skipped with a note, as is one whose folds turn
    out slower than the budget allows. With ``keep_predictions`` every result keeps its
    out-of-fold predictions (for the HTML report).
    With a ``warmup`` (:mod:`._warmup`) compiling some models' kernels in the background,
    those models are timed last, after waiting for it.

    Returns
    -------
    Run
        The results (baseline first), one line per group of warnings, the notes on skipped
        models and the estimates (seconds per fold by model name).
    """
    clock = time.monotonic if clock is None else clock
    start = clock() if start is None else start
    classes = np.unique(y) if task == "classification" else None
    results = [_baseline(X, y, splits, task, classes)]
    log, notes, estimates = WarningLog(), [], {}
    n_folds = len(splits)
    jobs = max(1, min(int(jobs), n_folds))
    if warmup is not None:  # models compiling in the background go last (stable order)
        specs = sorted(specs, key=lambda s: s.name in warmup.names)
    order = list(specs)

    def ready(spec):
        if warmup is not None and spec.name in warmup.names:
            if not warmup.done():
                progress.update(0, detail=WAITING_DETAIL)
            warmup.wait()

    if budget is not None and specs:
        n_train = int(np.mean([len(train) for train, _ in splits]))
        n_test = int(np.mean([len(test) for _, test in splits]))
        rows = probe_order(y, task, seed)
        columns = np.random.default_rng(seed).permutation(X.shape[1])
        progress.set_total(progress.total + len(specs))
        for spec in specs:
            if clock() - start > PROBE_SHARE * budget:
                estimates[spec.name] = math.inf  # no time left even to time it
            else:
                ready(spec)
                run = functools.partial(_one_fold, formula=formula)
                est = estimate_cost(spec, X, y, task, n_train, n_test, rows, columns, run)
                estimates[spec.name] = est.seconds
            progress.update(detail=f"{spec.name} (timing)")
        order.sort(key=lambda s: (estimates[s.name] is None, estimates[s.name] or 0.0))
    deadline = None if budget is None else start + (1 - BUDGET_MARGIN) * budget
    for spec in order:
        per_fold = estimates.get(spec.name)
        parallel = jobs > 1 and per_fold is not None and per_fold * n_folds > PARALLEL_MIN_SECONDS
        workers = jobs * PARALLEL_EFFICIENCY if parallel else 1
        if deadline is not None and per_fold is not None:
            expected = per_fold * n_folds / min(workers, n_folds)
            left = deadline - clock()
            if expected > left:
                notes.append(
                    f"{spec.name} skipped: "
                    + (
                        f"estimated {_seconds(expected)} for {n_folds} folds, "
                        if math.isfinite(expected)
                        else "not timed, the other models' timing used half the budget; "
                    )
                    + f"{_seconds(max(left, 0.0))} of the {budget:g} s time budget left "
                    "(--time-budget)"
                )
                progress.set_total(progress.total - n_folds)
                continue
        ready(spec)
        folds = _Folds(spec, n_folds, log, progress, deadline, clock, jobs if parallel else 1)
        _run_folds(
            spec, X, y, splits, task, classes, folds, jobs if parallel else 1, keep_predictions,
            formula,
        )  # fmt: skip
        if folds.stopped is not None:
            notes.append(folds.stopped)
        if folds.stopped is None or len(folds.scores) >= _min_folds(n_folds):
            results.append(folds.finish())
        progress.set_total(progress.total - (n_folds - folds.seen))
    return Run(results, log.lines(n_folds), notes, estimates)


def _fmt(x, spec):
    return "-" if x is None or not math.isfinite(x) else format(x, spec)


#: The legend line printed under a leaderboard that marks the one-SE choice.
ONE_SE_LEGEND = (
    "one-SE: the simplest model whose mean is within one SE of the best (linear models, then "
    "trees, MARS, GAMs, smoothers and naive Bayes, then the rest)"
)


def leaderboard(results, task, one_se=None):
    """Format the results as table lines: the baseline first, then the models best first.

    ``one_se`` names the one-SE choice
    (:func:`statlearning.cli._leaderboard.rank_results`): its line ends with ``one-SE`` and
    a legend line follows the table. The lines are plain text, for terminals and files alike.
    """
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
        if r.planned > len(r.primary) and not r.baseline:
            name += f" ({len(r.primary)} of {r.planned} folds)"
        score = f"{mean:>{wm}} ± {se:<{ws}}"
        mark = "one-SE" if one_se is not None and not r.baseline and r.name == one_se else ""
        rows.append((rank, name, score, _fmt(r.secondary_mean, ".3f"), fit, mark))

    header = ("rank", "model", f"{primary_name} ± SE", secondary_name, "fit ms/fold", "")
    widths = [max(len(header[j]), *(len(row[j]) for row in rows)) for j in range(len(header))]
    widths[1] = max(widths[1], *(len(r.name) for r in failed)) if failed else widths[1]
    lines = [_row(header, widths)] + [_row(row, widths) for row in rows]
    for r in failed:
        lines.append(f"{'-':>{widths[0]}}  {r.name:<{widths[1]}}  failed: {r.error}")
    if any(row[5] for row in rows):
        lines.append(ONE_SE_LEGEND)
    return lines


def _row(cells, widths):
    rank, name, score, secondary, fit, mark = cells
    return (
        f"{rank:>{widths[0]}}  {name:<{widths[1]}}  {score:<{widths[2]}}  "
        f"{secondary:>{widths[3]}}  {fit:>{widths[4]}}  {mark}"
    ).rstrip()
