"""``statlearning compare`` on data read with Dask (``--scheduler``, CSV globs, parquet
directories, files larger than ``--dask-threshold``).

The data are read with :mod:`dask.dataframe` and never brought to this process whole.

* **Row-decomposable models** (those whose estimator class has a distributed fit,
  ``_fit_dask``: discovered from the registry, never listed here) are cross-validated on every
  row, on the cluster. A row's fold is a hash of its values (seeded by ``--seed``), so that it
  does not depend on how Dask partitions the files; the folds are therefore not stratified and
  their sizes vary a little. Each fold fits on the other folds' rows with the estimator's
  distributed fit, and scores the held-out rows partition by partition (only sums travel).
* **The other models** are cross-validated in memory on a uniform random sample of
  ``--sample-rows`` rows (all rows if there are fewer), with the ordinary ``compare``
  machinery; their folds run on the cluster through joblib's Dask backend when a scheduler is
  given. Their leaderboard rows say ``(sample of m rows)``: a model trained on fewer rows, so
  its score is pessimistic next to the full-data ones. ``--sample-rows 0`` leaves them out.

Progress comes from Dask's diagnostics: the number of tasks the scheduler has finished (its
task stream on a ``distributed`` cluster, a scheduler callback otherwise) is shown next to the
model and fold in the command's progress bar.
"""

from __future__ import annotations

import contextlib
import glob
import math
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ._compare import METRICS, CVResult, build_estimator

__all__ = [
    "DEFAULT_SAMPLE_ROWS",
    "DEFAULT_THRESHOLD",
    "DaskData",
    "dask_compare",
    "data_files",
    "needs_dask",
    "parse_size",
    "read_dask_data",
]

#: Default of ``--dask-threshold``: data files larger than this (in total) are read with Dask.
DEFAULT_THRESHOLD = "2GB"
#: Default of ``--sample-rows``: rows of the in-memory sample for the other models.
DEFAULT_SAMPLE_ROWS = 100_000

_UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12}
_UNITS.update({"KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40})
_PROBA_FLOOR = 1e-15
_EXTRA = "pip install 'statlearning[dask]'"


def parse_size(text, option="--dask-threshold") -> int:
    """Bytes in a size such as ``2GB``, ``500MiB`` or ``123456``.

    Parameters
    ----------
    text : str
    option : str, default="--dask-threshold"
        The option named in the error message.

    Returns
    -------
    int

    Examples
    --------
    >>> parse_size("2GB"), parse_size("1.5KiB"), parse_size("10")
    (2000000000, 1536, 10)
    """
    raw = str(text).strip().upper().replace(" ", "")
    number = raw.rstrip("KMGTIB")
    unit = raw[len(number) :]
    try:
        value = float(number)
    except ValueError:
        value = math.nan
    if unit not in _UNITS or not math.isfinite(value) or value < 0:
        raise ValueError(f"{option}: cannot read the size {text!r}; write e.g. 2GB")
    return int(value * _UNITS[unit])


def data_files(path) -> list[Path]:
    """The files a ``DATA`` argument names: a glob, a directory's parquet/CSV files, or one
    file (empty when nothing matches)."""
    text = str(path)
    if any(ch in text for ch in "*?["):
        return sorted(Path(p) for p in glob.glob(text) if os.path.isfile(p))
    p = Path(text)
    if p.is_dir():
        found = sorted(f for f in p.rglob("*") if f.is_file() and _kind(f) is not None)
        parquet = [f for f in found if _kind(f) == "parquet"]
        return parquet or found
    return [p] if p.is_file() else []


def _kind(path) -> str | None:
    suffix = Path(path).suffix.lower()
    if suffix in (".parquet", ".pq"):
        return "parquet"
    if suffix in (".csv", ".txt", ".tsv") or suffix == "":
        return "csv"
    return None


def needs_dask(path, scheduler, threshold) -> bool:
    """Whether ``compare`` reads ``path`` with Dask: a scheduler is given, the path names
    several files (a glob, a directory), or its files exceed ``threshold`` bytes."""
    if path is None:
        return scheduler is not None
    text = str(path)
    if scheduler is not None or any(ch in text for ch in "*?["):
        return True
    if Path(text).is_dir():  # a directory without data files is named as such by the reader
        return bool(data_files(text))
    files = data_files(path)
    return bool(files) and sum(f.stat().st_size for f in files) > threshold


def _import_dask():
    try:
        import dask.dataframe as dd

        import dask  # noqa: F401
    except ImportError:
        raise ImportError(
            f"reading data with Dask (--scheduler, file globs, parquet directories, data above "
            f"--dask-threshold) needs the [dask] extra: {_EXTRA}"
        ) from None
    return dd


@contextlib.contextmanager
def connect(scheduler):
    """A ``distributed`` client for ``--scheduler`` (``"local"``: a ``LocalCluster`` of
    processes on this machine), or ``None`` (Dask's default threaded scheduler)."""
    if scheduler is None:
        yield None
        return
    _import_dask()
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ImportError(f"--scheduler needs the [dask] extra (distributed): {_EXTRA}") from None
    if scheduler == "local":
        with LocalCluster(processes=True, dashboard_address=None) as cluster:
            with Client(cluster) as client:
                yield client
        return
    try:
        client = Client(scheduler, timeout="10s")
    except OSError as exc:
        raise OSError(f"--scheduler: cannot connect to {scheduler!r}: {exc}") from None
    with client:
        yield client


@dataclass
class DaskData:
    """The lazily read table and what ``compare`` prints about it."""

    frame: object  # dask DataFrame: the features and the target
    features: list
    target_name: str
    source: str
    n: int
    notes: list

    @property
    def p(self) -> int:
        return len(self.features)


def read_dask_data(path, *, target, drop=None, na="error", sep=None, encoding="utf-8",
                   na_values=None, decimal="."):  # fmt: skip
    """Read ``path`` (a file, a glob, a directory) lazily with :mod:`dask.dataframe`.

    The features are every column but the target and ``drop``; they must be numeric (text
    columns are not encoded on this path). ``na="drop"`` leaves incomplete rows out lazily;
    with ``"error"`` a missing value stops the first fit with an error naming its column.
    """
    dd = _import_dask()
    if target is None:
        raise ValueError(f"a data file needs --target COL (the response column of {str(path)!r})")
    files = data_files(path)
    if not files:
        what = "is a directory with no parquet or CSV files" if Path(str(path)).is_dir() else ""
        raise FileNotFoundError(f"{str(path)!r} {what}" if what else
                                f"no data files match {str(path)!r}")  # fmt: skip
    kinds = {_kind(f) for f in files}
    if None in kinds or len(kinds) > 1:
        raise ValueError(
            f"{str(path)!r}: the files must all be CSV or all parquet; found "
            f"{', '.join(sorted({f.suffix or '(none)' for f in files}))}"
        )
    names = [str(f) for f in files]
    if kinds == {"parquet"}:
        frame = dd.read_parquet(names)
    else:
        extra = [v for v in (na_values or "").split(",") if v]
        frame = dd.read_csv(
            names, sep=sep or ",", encoding=encoding, decimal=decimal,
            na_values=extra or None, blocksize="64MB",
        )  # fmt: skip
    columns = [str(c) for c in frame.columns]
    if target not in columns:
        raise ValueError(f"--target {target!r} is not a column of {str(path)!r}: {columns}")
    dropped = [c.strip() for c in (drop or "").split(",") if c.strip()]
    unknown = [c for c in dropped if c not in columns]
    if unknown:
        raise ValueError(f"--drop names columns that {str(path)!r} does not have: {unknown}")
    features = [c for c in columns if c != target and c not in dropped]
    if not features:
        raise ValueError("no feature columns left to use")
    for name in features:
        if getattr(frame.dtypes[name], "kind", "O") not in "biuf":
            raise ValueError(
                f"column {name!r} is not numeric (dtype {frame.dtypes[name]}); data read with "
                "Dask need numeric features: encode it as numbers or leave it out with --drop"
            )
    frame = frame[[*features, target]]
    notes = []
    if na == "drop":
        frame = frame.dropna()
        notes.append("rows with missing values dropped (--na drop)")
    n = int(frame.shape[0].compute())
    source = f"{path} ({len(files)} file{'s' if len(files) > 1 else ''}, read with Dask)"
    return DaskData(frame, features, target, source, n, notes)


def detect_dask_task(data, task):
    """The task and its reason, from the target's distinct values (at most a few are
    brought to this process), with :func:`statlearning.cli._data.detect_task`'s rules."""
    from ._data import MAX_CLASSES, MIN_ROWS_FOR_CLASSES, detect_task

    y = data.frame[data.target_name]
    numeric = getattr(y.dtype, "kind", "O") in "biuf"
    if numeric:
        fractional = bool(((y % 1) != 0).any().compute())
        if fractional and task != "classification":
            return detect_task(np.array([0.5, 1.5]), task)
        if float(y.nunique_approx().compute()) > 4 * MAX_CLASSES and task == "auto":
            return "regression", "auto: numeric target"
    values = np.asarray(y.drop_duplicates().compute())
    if values.size < 2:
        raise ValueError(
            f"the target {data.target_name!r} is constant: there is nothing to predict"
        )
    # detect_task looks at the distinct values and the number of rows only
    stand_in = np.resize(values, max(values.size, min(data.n, MIN_ROWS_FOR_CLASSES + 1)))
    return detect_task(stand_in, task)


def distributed_specs(specs):
    """Split ``specs`` into those whose estimator fits on Dask collections and the rest."""
    on_cluster, rest = [], []
    for spec in specs:
        estimator = build_estimator(spec)
        (on_cluster if hasattr(type(estimator), "_fit_dask") else rest).append(spec)
    return on_cluster, rest


def _fold_rows(part, fold, k, seed, held_out):
    """The rows of one partition in fold ``fold`` (``held_out``) or in the others. A row's
    fold is a hash of its values, so that it does not depend on the partitioning (Dask may
    fuse small parquet files into one partition in one pass and not in another)."""
    import pandas as pd

    key = f"{seed % 10**16:016d}"
    hashed = pd.util.hash_pandas_object(part, index=False, hash_key=key).to_numpy()
    in_fold = (hashed % np.uint64(k)).astype(np.int64) == fold
    return part[in_fold if held_out else ~in_fold]


def _score_part(part, estimator, features, target, task, classes):
    """Sums for the held-out rows of one partition (one row of a small DataFrame)."""
    import pandas as pd

    y = part[target].to_numpy()
    n = y.shape[0]
    if n == 0:
        return pd.DataFrame({"n": [0.0], "a": [0.0], "b": [0.0], "c": [0.0]})
    X = part[features]
    if task == "regression":
        pred = np.asarray(estimator.predict(X), dtype=float).ravel()
        y = y.astype(float)
        return pd.DataFrame({"n": [float(n)], "a": [float(((y - pred) ** 2).sum())],
                             "b": [float(y.sum())], "c": [float((y * y).sum())]})  # fmt: skip
    correct = float(np.sum(np.asarray(estimator.predict(X)) == y))
    loss = math.nan
    if hasattr(estimator, "predict_proba"):
        proba = np.asarray(estimator.predict_proba(X), dtype=float)
        column = {c: j for j, c in enumerate(estimator.classes_)}
        idx = np.array([column.get(v, -1) for v in y])
        p = np.where(idx >= 0, proba[np.arange(n), np.maximum(idx, 0)], 0.0)
        loss = float(-np.log(np.clip(p, _PROBA_FLOOR, 1.0)).sum())
    return pd.DataFrame({"n": [float(n)], "a": [correct], "b": [loss], "c": [0.0]})


class _Baseline:
    """The training fold's mean or majority class, as an estimator for :func:`_score_part`."""

    def __init__(self, value, classes=None, counts=None):
        self.value = value
        if classes is not None:
            self.classes_ = np.asarray(classes)
            self.proba = np.asarray(counts, dtype=float) / float(np.sum(counts))

    def predict(self, X):
        return np.full(len(X), self.value, dtype=np.asarray([self.value]).dtype)

    def predict_proba(self, X):
        return np.tile(self.proba, (len(X), 1))


def _fit_baseline(train, target, task, classes):
    y = train[target]
    if task == "regression":
        return _Baseline(float(y.mean().compute()))
    counts = y.value_counts().compute().reindex(classes, fill_value=0).to_numpy()
    return _Baseline(classes[int(np.argmax(counts))], classes, counts)


def _fold_scores(sums, task):
    n, a, b, c = (float(sums[key]) for key in ("n", "a", "b", "c"))
    if task == "regression":
        sst = c - b * b / n
        return math.sqrt(a / n), (1.0 - a / sst if sst > 0 else math.nan)
    return a / n, b / n


class TaskTicker:
    """Show the number of Dask tasks finished so far in the progress bar's detail.

    On a ``distributed`` cluster the count is the length of the scheduler's task stream since
    the ticker started (polled every ``interval`` seconds in a thread); on Dask's local
    schedulers a callback counts the tasks as they finish.
    """

    def __init__(self, client, progress, interval=1.0):
        self.client, self.progress, self.interval = client, progress, interval
        self.label = ""
        self.count = 0
        self._stop = threading.Event()
        self._thread = None
        self._callback = None

    def __enter__(self):
        if self.client is not None:
            self._start = time.time()
            self._thread = threading.Thread(target=self._poll, daemon=True)
            self._thread.start()
        else:
            from dask.callbacks import Callback

            ticker = self

            class _Count(Callback):
                def _posttask(self, key, result, dsk, state, worker_id):
                    ticker.count += 1

            self._callback = _Count()
            self._callback.__enter__()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._callback is not None:
            self._callback.__exit__(*exc)
        return False

    def _poll(self):
        while not self._stop.wait(self.interval):
            try:
                self.count = len(self.client.get_task_stream(start=self._start))
            except Exception:  # the count is a courtesy: never fail the run for it
                return
            self.show()

    def show(self):
        self.progress.update(0, detail=f"{self.label}, {self.count:,} Dask tasks done")


def cluster_cv(data, specs, task, cv, seed, progress, ticker):
    """K-fold CV of the baseline and ``specs`` (distributed fits) on every row of ``data``."""
    frame, features, target = data.frame, data.features, data.target_name
    classes = None
    if task == "classification":
        classes = np.sort(np.asarray(frame[target].drop_duplicates().compute()))
    baseline = CVResult(name="baseline", baseline=True)
    results = [baseline] + [CVResult(name=s.name) for s in specs]
    meta = {"n": "f8", "a": "f8", "b": "f8", "c": "f8"}
    for k in range(cv):
        train = frame.map_partitions(_fold_rows, k, cv, seed, False, meta=frame._meta)
        test = frame.map_partitions(_fold_rows, k, cv, seed, True, meta=frame._meta)
        fitters = [("baseline", None)] + [(s.name, s) for s in specs]
        for result, (name, spec) in zip(results, fitters, strict=True):
            if result.error is not None:
                progress.update(detail=name)
                continue
            ticker.label = f"{name} fold {k + 1}/{cv}"
            ticker.show()
            start = time.perf_counter()
            try:
                if spec is None:
                    estimator = _fit_baseline(train, target, task, classes)
                else:
                    estimator = build_estimator(spec).fit(train[features], train[target])
                elapsed = time.perf_counter() - start
                sums = (
                    test.map_partitions(
                        _score_part, estimator, features, target, task, classes, meta=meta
                    )
                    .sum()
                    .compute()
                )
                primary, secondary = _fold_scores(sums, task)
            except Exception as exc:  # a failing model is reported, not fatal
                if spec is None:
                    raise
                result.error = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"[:90]
            else:
                result.primary.append(primary)
                result.secondary.append(secondary)
                result.fit_times.append(elapsed)
            result.planned = cv
            progress.update(detail=name)
    return results


def sample_table(data, rows, seed):
    """A uniform random sample of about ``rows`` rows as NumPy ``X, y`` (all rows if fewer)."""
    frame = data.frame
    if rows < data.n:
        frame = frame.sample(frac=min(1.0, 1.05 * rows / data.n), random_state=seed)
    table = frame.compute()
    if len(table) > rows:
        table = table.sample(n=rows, random_state=seed)
    X = table[data.features].to_numpy(dtype=float)
    y = table[data.target_name].to_numpy()
    if np.isnan(X).any():
        bad = [c for c in data.features if table[c].isna().any()]
        raise ValueError(f"missing values in column(s) {bad}; leave the rows out with --na drop")
    return X, y


def dask_compare(args, say, info):
    """Run ``compare`` on data read with Dask; return the exit status (see the module)."""
    from .._registry import get_model, registered_models
    from ._compare import applicable, cross_validate_models, leaderboard, make_splits
    from ._progress import Progress

    if args.formula or getattr(args, "report", None) or args.dataset:
        raise ValueError(
            "data read with Dask (--scheduler, globs, parquet directories, large files) take no "
            "--formula, --report or --dataset; leave these out"
        )
    if args.sample_rows < 0:
        raise ValueError(f"--sample-rows must be >= 0; got {args.sample_rows}")
    if args.cv < 2:
        raise ValueError(f"--cv must be at least 2; got {args.cv}")
    with connect(args.scheduler) as client:
        data = read_dask_data(
            args.data, target=args.target, drop=args.drop, na=args.na, sep=args.sep,
            encoding=args.encoding, na_values=args.na_values, decimal=args.decimal,
        )  # fmt: skip
        task, reason = detect_dask_task(data, args.task)
        if args.models:
            names = list(dict.fromkeys(n.strip() for n in args.models.split(",") if n.strip()))
            specs = [get_model(name) for name in names]
            wrong = [s.name for s in specs if s.task != task]
            if wrong:
                raise ValueError(f"model(s) {wrong} do not fit the task, {task} ({reason})")
        else:
            specs = registered_models(task=task)
        on_cluster, rest = distributed_specs(specs)
        where = "local cluster" if args.scheduler == "local" else args.scheduler
        primary, _, larger = METRICS[task]
        say(f"data: {data.source}: n = {data.n}, p = {data.p}, target = {data.target_name}", info)
        say(
            f"task: {task} ({reason}); {args.cv}-fold CV, seed {args.seed}; {primary} "
            f"({'higher' if larger else 'lower'} is better), mean ± SE over folds",
            info,
        )
        say(
            f"run: Dask on {where or 'this machine (threads)'}; {len(on_cluster)} model(s) on "
            f"every row, {len(rest)} "
            + (
                f"on a sample of {min(args.sample_rows, data.n):,} rows"
                if args.sample_rows
                else "left out (--sample-rows 0)"
            ),
            info,
        )
        for note in data.notes:
            say(f"note: {note}", info)
        say(
            "note: the full-data folds are a hash of each row's values (not stratified); "
            "--repeats and --time-budget apply to the sampled models only",
            info,
        )
        info.flush()
        with (
            Progress(
                (len(on_cluster) + 1) * args.cv, label="compare (Dask)", enabled=not args.quiet
            ) as bar,
            TaskTicker(client, bar) as ticker,
        ):
            results = cluster_cv(data, on_cluster, task, args.cv, args.seed, bar, ticker)
        notes, warning_lines = [], []
        if rest and args.sample_rows == 0:
            notes.append(f"left out (--sample-rows 0): {', '.join(s.name for s in rest)}")
        elif rest:
            X, y = sample_table(data, args.sample_rows, args.seed)
            splits, split_notes = make_splits(X, y, task, args.cv, args.repeats, args.seed)
            rest, left_out = applicable(rest, y, X.shape[1], splits, task)
            notes += split_notes + left_out
            label = f" (sample of {len(y):,} rows)"
            jobs = _cluster_threads(client) if client is not None else 1
            backend = (contextlib.nullcontext() if client is None
                       else _joblib_dask())  # fmt: skip
            with backend, Progress(len(rest) * len(splits), label="compare (sample)",
                                   enabled=not args.quiet) as bar:  # fmt: skip
                run = cross_validate_models(
                    X, y, rest, splits, task, bar, budget=args.time_budget or None,
                    jobs=max(1, jobs), seed=args.seed,
                )  # fmt: skip
            for r in run.results[1:]:
                r.name += label
                results.append(r)
            notes += run.notes
            warning_lines = run.warning_lines
    if args.format == "json":
        from ._leaderboard import rank_results, to_json

        print(to_json(rank_results(results, task, specs, notes), task))
    else:
        say()
        for line in leaderboard(results, task):
            say(line)
    for note in notes:
        say(f"note: {note}", info)
    for line in warning_lines:
        say(f"warning: {line}", info)
    fitted = sum(1 for r in results if not r.baseline and r.error is None and r.primary)
    if specs and fitted == 0:
        say("statlearning: no model could be fitted to these data")
        return 1
    return 0


def _cluster_threads(client) -> int:
    return int(sum(client.nthreads().values()))


def _joblib_dask():
    import joblib

    return joblib.parallel_config(backend="dask")
