"""The ``statlearning`` command: ``compare``, ``report``, ``fit``, ``predict``, ``models`` and
``--version``."""

from __future__ import annotations

import argparse
import contextlib
import functools
import math
import os
import sys
import time
import warnings

from .. import __version__
from .._core.compiled import FIRST_RUN_NOTICE, cache_is_cold, compile_timer
from ._output import WarningLog, clip

__all__ = ["build_parser", "main"]

PROG = "statlearning"

#: Default of ``compare --time-budget``, in seconds.
DEFAULT_BUDGET = 300.0

#: Errors reported as one ``statlearning: error: ...`` line with exit code 2.
USER_ERRORS = (ValueError, TypeError, FileNotFoundError, KeyError, OSError, ImportError)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on standard error (exit code 2)."""

    def error(self, message):
        self.exit(2, f"{PROG}: error: {message} (see '{self.prog} --help')\n")


def _add_data_arguments(parser):
    parser.add_argument(
        "data",
        nargs="?",
        metavar="DATA",
        help="CSV file with a header row (default: the embedded Gapminder 2011 example)",
    )
    parser.add_argument("--target", metavar="COL", help="response column of DATA")
    from ._data import DATASETS

    parser.add_argument(
        "--dataset",
        choices=list(DATASETS),
        help="a bundled data set instead of DATA (default: gapminder)",
    )
    parser.add_argument("--drop", metavar="COLS", help="comma-separated columns to leave out")
    parser.add_argument(
        "--na",
        choices=["error", "drop"],
        default="error",
        help="missing values in DATA: stop with an error (default) or drop incomplete rows",
    )
    parser.add_argument(
        "--task",
        choices=["auto", "regression", "classification"],
        default="auto",
        help="override the task detected from the target (default: auto)",
    )
    parser.add_argument(
        "--sep",
        metavar="CHAR",
        help="delimiter of DATA, e.g. ';' or tab (default: detected among , ; tab |)",
    )
    parser.add_argument(
        "--encoding", default="utf-8", metavar="NAME", help="text encoding of DATA (utf-8)"
    )
    parser.add_argument(
        "--na-values",
        metavar="TOKENS",
        help="comma-separated further cell values that mean missing, e.g. '?,-999' (besides "
        "pandas' NA, N/A, NaN, nan, NULL, empty, ...; inf also counts as missing)",
    )
    parser.add_argument(
        "--decimal", default=".", metavar="CHAR", help="decimal mark of numbers in DATA (.)"
    )
    parser.add_argument(
        "--formula",
        metavar="'y ~ ...'",
        help="an R model formula, e.g. 'y ~ x1 + C(g) + bs(x2, df = 4)': its left side is the "
        "target, its design the features of every model (needs formulaic)",
    )


def _add_compare_arguments(parser):
    _add_data_arguments(parser)
    parser.add_argument("--cv", type=int, default=10, metavar="K", help="folds (default 10)")
    parser.add_argument(
        "--repeats", type=int, default=1, metavar="R", help="repetitions of K-fold CV (default 1)"
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (0)")
    parser.add_argument("--models", metavar="NAME,...", help="compare only these models")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--time-budget",
        type=float,
        default=DEFAULT_BUDGET,
        metavar="SECONDS",
        help=f"skip models expected to take longer than what is left of this many seconds "
        f"(default {DEFAULT_BUDGET:g}; 0: no limit)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=-1,
        metavar="J",
        help="folds of a slow model fitted in parallel on J processes (default -1: all cores)",
    )


def _add_dask_arguments(parser):
    from ._dask_compare import DEFAULT_SAMPLE_ROWS, DEFAULT_THRESHOLD

    dask = parser.add_argument_group(
        "larger than memory",
        "DATA may also be a CSV glob ('data/*.csv') or a parquet directory: these, and files "
        "above --dask-threshold, are read with dask.dataframe (the [dask] extra); the models "
        "with a distributed fit are cross-validated on every row, the others on a sample",
    )
    dask.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on this Dask scheduler (tcp://host:port), or 'local' for a local cluster of "
        "processes; the data are then read with Dask whatever their size",
    )
    dask.add_argument(
        "--dask-threshold",
        default=DEFAULT_THRESHOLD,
        metavar="SIZE",
        help=f"read DATA with Dask when its files exceed SIZE (default {DEFAULT_THRESHOLD})",
    )
    dask.add_argument(
        "--sample-rows",
        type=int,
        default=DEFAULT_SAMPLE_ROWS,
        metavar="N",
        help=f"rows of the random sample on which the models without a distributed fit are "
        f"cross-validated in memory (default {DEFAULT_SAMPLE_ROWS:,}; 0: leave them out)",
    )


def build_parser():
    """Return the argument parser of the ``statlearning`` command."""
    parser = _Parser(
        prog=PROG,
        description="The statistical-learning canon from the command line.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    compare = commands.add_parser(
        "compare",
        help="cross-validate every applicable model and print a leaderboard",
        description="Cross-validate every registered model that fits the task, next to a "
        "baseline, and print a leaderboard (best first).",
    )
    _add_compare_arguments(compare)
    compare.add_argument(
        "--format",
        choices=["text", "json"],
        default="text",
        help="leaderboard as a text table (default) or as JSON on standard output (the rest "
        "then goes to standard error)",
    )
    compare.add_argument(
        "--report",
        metavar="FILE",
        help="also write an HTML report (plots, diagnostics, the data) to FILE; needs the "
        "[report] extra",
    )
    _add_dask_arguments(compare)
    compare.set_defaults(func=_cmd_compare)

    report = commands.add_parser(
        "report",
        help="compare the models and write an HTML report",
        description="Run 'compare' and write a self-contained HTML report: the leaderboard, "
        "per-fold scores, diagnostics of the best and the best interpretable model, and the "
        "data. Needs the [report] extra.",
    )
    _add_compare_arguments(report)
    report.add_argument(
        "-o", "--output", default="report.html", metavar="FILE",
        help="the HTML file to write (default report.html)",
    )  # fmt: skip
    report.set_defaults(func=_cmd_report, format="text")

    fit = commands.add_parser(
        "fit",
        help="fit one model on all rows and print its summary",
        description="Fit one model on every row and print its summary (R's summary()).",
    )
    _add_data_arguments(fit)
    fit.add_argument(
        "--model",
        default="linear_regression",
        metavar="NAME",
        help="registered model name (default: linear_regression)",
    )
    fit.add_argument(
        "--save",
        metavar="FILE",
        help="also write the fitted model (with the data's encoding) to FILE, a model file for "
        "'statlearning predict' and statlearning.io.load",
    )
    fit.set_defaults(func=_cmd_fit)

    predict = commands.add_parser(
        "predict",
        help="predict a new CSV file with a model saved by 'fit --save'",
        description="Read MODEL (written by 'statlearning fit ... --save MODEL') and predict "
        "every row of DATA, matching its columns by name; write CSV (the input's row order) "
        "with a 'prediction' column, 'lower'/'upper' with --interval and 'proba_<class>' "
        "columns with --proba.",
    )
    predict.add_argument("model_file", metavar="MODEL", help="model file (fit --save)")
    predict.add_argument("data", metavar="DATA", help="CSV file with the model's columns")
    predict.add_argument(
        "--interval",
        choices=["prediction", "confidence"],
        help="add interval bounds (linear and generalised linear models)",
    )
    predict.add_argument(
        "--level", type=float, default=0.95, metavar="P", help="interval level (0.95)"
    )
    predict.add_argument("--proba", action="store_true", help="add class probabilities")
    predict.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default stdout)")
    predict.add_argument("--sep", metavar="CHAR", help="delimiter of DATA (default: detected)")
    predict.add_argument("--encoding", default="utf-8", metavar="NAME", help="text encoding")
    predict.add_argument(
        "--na-values", metavar="TOKENS", help="comma-separated further missing-value tokens"
    )
    predict.add_argument("--decimal", default=".", metavar="CHAR", help="decimal mark (.)")
    predict.set_defaults(func=_cmd_predict)

    models = commands.add_parser(
        "models", help="list the registered models", description="List the registered models."
    )
    models.set_defaults(func=_cmd_models)
    return parser


def _load(args):
    from ._data import check_target, detect_task, load_data, load_formula_data

    load = load_data
    if args.formula:
        load = functools.partial(load_formula_data, formula=args.formula)
    data = load(
        args.data,
        dataset=args.dataset,
        target=args.target,
        drop=args.drop,
        na=args.na,
        sep=args.sep,
        encoding=args.encoding,
        na_values=args.na_values,
        decimal=args.decimal,
    )
    check_target(data.y, data.target_name)
    task, reason = detect_task(data.y, args.task)
    return data, task, reason


def _say(line="", file=None):
    """Print one line, at most 1,000 characters long."""
    print(clip(line), file=file)


def _jobs(jobs):
    if jobs == 0:
        raise ValueError("--jobs must not be 0 (-1: all cores)")
    return jobs if jobs > 0 else max(1, (os.cpu_count() or 1) + 1 + jobs)


def _data_notes(data):
    notes = [
        f"categorical column {col!r} treatment-coded; baseline level {level!r}"
        for col, level in data.baselines.items()
    ]
    if data.dropped_rows:
        rows = "row" if data.dropped_rows == 1 else "rows"
        notes.append(f"{data.dropped_rows} {rows} with missing values dropped (--na drop)")
    return notes + list(data.notes)


def _check_applicable(spec, task, reason, y=None):
    if spec.task != task:
        raise ValueError(
            f"model {spec.name!r} is a {spec.task} model, but the task is {task} ({reason}); "
            f"run '{PROG} models' for the {task} models"
        )
    if y is not None and task == "regression" and not spec.accepts_target(float(min(y))):
        domain = {"positive": "y > 0", "nonnegative": "y >= 0"}[spec.target]
        raise ValueError(
            f"model {spec.name!r} needs {domain}; the smallest value of the target is "
            f"{float(min(y)):.4g}"
        )


def _kernels_cold() -> bool:
    """Whether the compiled kernels are not cached yet (a fresh install, whose first
    ``compare`` spends a minute or two compiling): every kernel's cache is written on first
    use, so one that every ``compare`` run compiles stands for all."""
    from .._core._kernel_columns import kernel_column, kernel_diagonal

    return cache_is_cold(kernel_column, kernel_diagonal)


def _start_warmup(specs, X, y, task):
    """Compile the tree-based models' kernels in a background process (:mod:`._warmup`)."""
    import numpy as np

    from ._warmup import start_warmup

    if task == "classification":  # the background process needs no labels, only their codes
        y = np.unique(y, return_inverse=True)[1]
    return start_warmup(specs, np.asarray(X, dtype=float), y)


def _cmd_compare(args):
    from .._registry import get_model, registered_models
    from ._compare import METRICS, applicable, cross_validate_models, leaderboard, make_splits
    from ._progress import Progress

    clock_start = time.monotonic()
    if args.time_budget < 0 or not math.isfinite(args.time_budget):
        raise ValueError(f"--time-budget must be a number of seconds >= 0; got {args.time_budget}")
    budget = args.time_budget or None
    jobs = _jobs(args.jobs)
    report = getattr(args, "report", None)
    if report:
        from ._report import check_report_dependencies

        check_report_dependencies()
    # with --format json, standard output carries the JSON alone; the rest goes to stderr
    info = sys.stderr if args.format == "json" else sys.stdout
    scheduler = getattr(args, "scheduler", None)
    if scheduler is not None or args.data is not None:
        from ._dask_compare import dask_compare, needs_dask, parse_size

        threshold = (
            parse_size(args.dask_threshold) if hasattr(args, "dask_threshold") else math.inf
        )
        if needs_dask(args.data, scheduler, threshold):
            return dask_compare(args, _say, info)
    data, task, reason = _load(args)
    if args.models:
        names = list(dict.fromkeys(n.strip() for n in args.models.split(",") if n.strip()))
        if not names:
            raise ValueError("--models needs at least one model name")
        specs = [get_model(name) for name in names]
        for spec in specs:
            _check_applicable(spec, task, reason)
    else:
        specs = registered_models(task=task)
    splits, split_notes = make_splits(data.X, data.y, task, args.cv, args.repeats, args.seed)
    considered = len(specs)
    specs, left_out = applicable(specs, data.y, data.p, splits, task)

    folds = f"{args.cv}-fold CV" + (f" x {args.repeats} repeats" if args.repeats > 1 else "")
    primary, _, larger = METRICS[task]
    limit = f"time budget {budget:g} s" if budget else "no time budget"
    _say(f"data: {data.source}: n = {data.n}, p = {data.p}, target = {data.target_name}", info)
    _say(
        f"task: {task} ({reason}); {folds}, seed {args.seed}; {primary} "
        f"({'higher' if larger else 'lower'} is better), mean ± SE over {len(splits)} folds",
        info,
    )
    _say(f"run: {limit} (--time-budget), up to {jobs} parallel folds (--jobs)", info)
    fold_notes = []
    if data.formula:
        fold_notes.append(
            "every fit builds the formula's design from its own training rows (spline knots, "
            "polynomial bases and factor levels never see the test fold)"
        )
    for note in _data_notes(data) + fold_notes + split_notes + left_out:
        _say(f"note: {note}", info)
    if not considered:
        _say(f"note: no {task} model is registered yet; only the baseline is shown", info)

    warmup = None
    if _kernels_cold():
        _say(FIRST_RUN_NOTICE, info)
        warmup = _start_warmup(specs, data.X, data.y, task)
    info.flush()  # the header before the progress bar, even when stdout is a pipe
    # the time budget is for the models: compiling the kernels on a first run (and waiting for
    # the background compilation) is not charged to it (else the timing of the first models,
    # compiling, would leave no time for the rest)
    with (
        contextlib.nullcontext() if warmup is None else warmup,
        compile_timer() as compiling,
        Progress(len(specs) * len(splits), label="compare", enabled=not args.quiet) as bar,
    ):
        waited = (lambda: 0.0) if warmup is None else (lambda: warmup.waited)
        run = cross_validate_models(
            data.cv_X(), data.y, specs, splits, task, bar,
            budget=budget, jobs=jobs, seed=args.seed, start=clock_start, warmup=warmup,
            clock=lambda: time.monotonic() - compiling.seconds - waited(),
            keep_predictions=bool(report), formula=data.formula or None,
        )  # fmt: skip
    from ._leaderboard import rank_results, to_json

    ranking = rank_results(run.results, task, specs, run.notes)
    if args.format == "json":
        print(to_json(ranking, task))
    else:
        _say()
        one_se = next((row.model for row in ranking if row.one_se), None)
        for line in leaderboard(run.results, task, one_se=one_se):
            _say(line)
    if run.notes:
        _say(file=info)
        for note in run.notes:
            _say(f"note: {note}", info)
        _say("note: a larger --time-budget or fewer folds (--cv) would include them", info)
    if run.warning_lines:
        _say(file=info)
        for line in run.warning_lines:
            _say(f"warning: {line}", info)
    if considered and run.n_fitted == 0:
        _say(f"{PROG}: no model could be fitted to these data", file=sys.stderr)
        return 1
    if report:
        from ._report import write_report

        path = write_report(report, data, task, reason, specs, splits, run, args)
        _say(f"note: report written to {path}", info)
    return 0


def _cmd_report(args):
    args.report = args.output
    return _cmd_compare(args)


def _cmd_fit(args):
    from .._registry import get_model
    from ._compare import build_estimator

    data, task, reason = _load(args)
    spec = get_model(args.model)
    _check_applicable(spec, task, reason, data.y)
    estimator = build_estimator(spec)
    X, y = data.frame()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if data.formula and spec.name == "linear_regression":
            from ..formula import lm

            estimator = final = lm(data.formula, data.table)  # R's summary, call included
        else:
            estimator.fit(X, y)
            final = estimator[-1] if spec.needs_scaling else estimator
        summary = final.summary() if callable(getattr(final, "summary", None)) else None
        score = None if summary is not None else estimator.score(X, y)

    _say(
        f"{spec.name} fitted to {data.source}: n = {data.n}, p = {data.p}, "
        f"target = {data.target_name}, task = {task}"
    )
    notes = _data_notes(data)
    if spec.needs_scaling:
        notes.append("features standardised (StandardScaler) before fitting")
    if summary is not None and not hasattr(final, "feature_names_in_"):
        names = ", ".join(f"x{j} = {name}" for j, name in enumerate(data.feature_names))
        notes.append(f"feature names need pandas; {names}")
    for note in notes:
        _say(f"note: {note}")
    _say()
    if summary is not None:
        for line in str(summary).strip("\n").splitlines():
            _say(line)
    else:
        _say(str(estimator).replace("\n", " "))
        metric = "R²" if task == "regression" else "accuracy"
        _say(f"training {metric}: {score:.4g}")
    log = WarningLog()
    for i, w in enumerate(caught):
        log.add(spec.name, w.category.__name__, w.message, i)
    for line in log.lines():
        _say(f"warning: {line}", file=sys.stderr)
    if args.save:
        from ._predict import save_fitted

        path = save_fitted(args.save, estimator, data, spec, task)
        _say(f"note: model saved to {path} (statlearning predict {path} NEW.csv)")
    return 0


def _cmd_predict(args):
    from ._predict import run_predict

    return run_predict(args, _say)


def _cmd_models(args):
    from .._registry import registered_models

    specs = registered_models()
    if not specs:
        print("no models registered")
        return 0
    header = ("name", "task", "family", "description")
    rows = [(s.name, s.task, s.family, s.description) for s in specs]
    widths = [max(len(header[j]), *(len(r[j]) for r in rows)) for j in range(3)]
    for row in [header, *rows]:
        cells = [f"{cell:<{w}}" for cell, w in zip(row[:3], widths, strict=True)]
        print("  ".join([*cells, row[3]]))
    return 0


def _message(exc) -> str:
    if isinstance(exc, KeyError) and exc.args:
        text = str(exc.args[0])
    else:
        text = str(exc)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return "; ".join(lines) if lines else type(exc).__name__


def main(argv=None) -> int:
    """Run the ``statlearning`` command.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0 on success, 1 when ``compare`` could fit no model, 2 on a usage or
        input error, 130 when interrupted.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if args.command is None:
        print(
            f"{PROG}: error: choose a command: compare, report, fit, predict or models (see "
            f"'{PROG} --help')",
            file=sys.stderr,
        )
        return 2
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into e.g. head, which has exited
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 1
    except USER_ERRORS as exc:
        print(clip(f"{PROG}: error: {_message(exc)}"), file=sys.stderr)
        return 2
