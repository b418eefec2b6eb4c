"""The ``statlearning`` command: ``compare``, ``fit``, ``models`` and ``--version``."""

from __future__ import annotations

import argparse
import os
import sys
import warnings

from .. import __version__

__all__ = ["build_parser", "main"]

PROG = "statlearning"

#: Errors reported as one ``statlearning: error: ...`` line with exit code 2.
USER_ERRORS = (ValueError, TypeError, FileNotFoundError, KeyError, OSError)


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
    _add_data_arguments(compare)
    compare.add_argument("--cv", type=int, default=10, metavar="K", help="folds (default 10)")
    compare.add_argument(
        "--repeats", type=int, default=1, metavar="R", help="repetitions of K-fold CV (default 1)"
    )
    compare.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (0)")
    compare.add_argument("--models", metavar="NAME,...", help="compare only these models")
    compare.add_argument("--quiet", action="store_true", help="no progress bar")
    compare.set_defaults(func=_cmd_compare)

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
    fit.set_defaults(func=_cmd_fit)

    models = commands.add_parser(
        "models", help="list the registered models", description="List the registered models."
    )
    models.set_defaults(func=_cmd_models)
    return parser


def _load(args):
    from ._data import detect_task, load_data

    data = load_data(
        args.data, dataset=args.dataset, target=args.target, drop=args.drop, na=args.na
    )
    task, reason = detect_task(data.y, args.task)
    return data, task, reason


def _data_notes(data):
    notes = [
        f"categorical column {col!r} treatment-coded; baseline level {level!r}"
        for col, level in data.baselines.items()
    ]
    if data.dropped_rows:
        rows = "row" if data.dropped_rows == 1 else "rows"
        notes.append(f"{data.dropped_rows} {rows} with missing values dropped (--na drop)")
    return notes + list(data.notes)


def _check_applicable(spec, task, reason):
    if spec.task != task:
        raise ValueError(
            f"model {spec.name!r} is a {spec.task} model, but the task is {task} ({reason}); "
            f"run '{PROG} models' for the {task} models"
        )


def _cmd_compare(args):
    from .._registry import get_model, registered_models
    from ._compare import METRICS, cross_validate_models, leaderboard, make_splits
    from ._progress import Progress

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

    folds = f"{args.cv}-fold CV" + (f" x {args.repeats} repeats" if args.repeats > 1 else "")
    primary, _, larger = METRICS[task]
    print(f"data: {data.source}: n = {data.n}, p = {data.p}, target = {data.target_name}")
    print(
        f"task: {task} ({reason}); {folds}, seed {args.seed}; {primary} "
        f"({'higher' if larger else 'lower'} is better), mean ± SE over {len(splits)} folds"
    )
    for note in _data_notes(data) + split_notes:
        print(f"note: {note}")
    if not specs:
        print(f"note: no {task} model is registered yet; only the baseline is shown")

    sys.stdout.flush()  # the header before the progress bar, even when stdout is a pipe
    with Progress(len(specs) * len(splits), label="compare", enabled=not args.quiet) as bar:
        results, warning_lines = cross_validate_models(data.X, data.y, specs, splits, task, bar)
    print()
    print("\n".join(leaderboard(results, task)))
    if warning_lines:
        print()
        for line in warning_lines:
            print(f"warning: {line}")
    return 0


def _cmd_fit(args):
    from .._registry import get_model
    from ._compare import build_estimator

    data, task, reason = _load(args)
    spec = get_model(args.model)
    _check_applicable(spec, task, reason)
    estimator = build_estimator(spec)
    X, y = data.frame()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        estimator.fit(X, y)
        final = estimator[-1] if spec.needs_scaling else estimator
        summary = final.summary() if callable(getattr(final, "summary", None)) else None
        score = None if summary is not None else estimator.score(X, y)

    print(
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
        print(f"note: {note}")
    print()
    if summary is not None:
        print(str(summary).rstrip("\n"))
    else:
        print(estimator)
        metric = "R²" if task == "regression" else "accuracy"
        print(f"training {metric}: {score:.4g}")
    for w in caught:
        lines = str(w.message).strip().splitlines() or [""]
        print(f"warning: {w.category.__name__}: {lines[0]}", file=sys.stderr)
    return 0


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
        The exit status: 0 on success, 2 on a usage or input error, 130 when interrupted.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version and usage errors
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if args.command is None:
        print(
            f"{PROG}: error: choose a command: compare, fit or models (see '{PROG} --help')",
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
        print(f"{PROG}: error: {_message(exc)}", file=sys.stderr)
        return 2
