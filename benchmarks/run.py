"""Compare our estimators with their peers: same data, same process, ratios ours/peer.

Usage::

    python benchmarks/run.py WORKLOAD [WORKLOAD ...] [--repeats N] [--quick] [--no-record]
    python benchmarks/run.py --list
    python benchmarks/run.py all

A peer that runs in another process (R through ``Rscript``, in the same run) may set
``inner_fit_seconds`` in ``fit``: the time it measured itself around the call under test,
which the runner then records instead of its own wall time (excluding the transfer).

For each workload the data are generated once (``numpy.random.default_rng(seed)``). Each
estimator is fitted and used to predict once untimed (warm-up: imports, caches, numba
compilation); the warm-up predictions give the accuracy check. Then ``fit`` and ``predict`` are
timed separately with :func:`time.perf_counter`, ``--repeats`` times each, ours and the peer
interleaved, and the median and minimum are reported. Peak memory is measured in a further,
untimed fit under :mod:`tracemalloc`. Workloads with ``holdout`` rows (randomised learners) fit
on the training rows, time ``predict`` on the held-out rows and compare held-out scores instead
of predictions.

Unless ``--quick`` or ``--no-record`` is given, the table is appended to
``benchmarks/RESULTS.md`` with the date, the machine and the exact command.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

import workloads as wl
from timing import peak_fit_bytes as _peak_fit_bytes
from timing import timed as _timed

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
QUICK_SHRINK = 10
MEMORY_NOTE = (
    "Peak MiB: peak of the allocations traced by tracemalloc during one untimed fit "
    "(Python and NumPy buffers); workspace that BLAS/LAPACK allocate internally is not traced. "
    "Peak RSS MiB (with --rss): increase of the resident set during one fit in a fresh "
    "process after a warm-up fit, which also sees C allocations (e.g. scikit-learn's tree "
    "nodes)."
)
RATIO_NOTE = "Ratios are ours/peer: below 1 means statlearning is faster (or smaller)."


@dataclass
class Measurement:
    label: str
    fit: list[float] = field(default_factory=list)
    predict: list[float] = field(default_factory=list)
    peak_bytes: int = 0
    peak_rss_bytes: int | None = None


@dataclass
class Result:
    workload: wl.Workload
    n_samples: int
    ours: Measurement
    peer: Measurement
    rel_diff: float
    scores: tuple[float, float] | None = None  # held-out (ours, peer) for scored workloads

    @property
    def mismatch(self) -> bool:
        if self.scores is not None:
            ours, peer = self.scores
            return not ours >= peer - self.workload.score_tol  # NaN counts as a mismatch
        return not self.rel_diff <= self.workload.rtol


# ------------------------------------------------------------------------------------ timing


def _rss_kib() -> tuple[int, int]:
    """(current, peak) resident set size of this process in KiB, from /proc (Linux)."""
    status = Path("/proc/self/status").read_text(encoding="ascii").splitlines()
    values = {
        line.split(":")[0]: int(line.split()[1])
        for line in status
        if line.startswith(("VmRSS:", "VmHWM:"))
    }
    return values["VmRSS"], values["VmHWM"]


def _rss_child(name: str, side: str, quick: bool) -> int:
    """In a fresh process: the peak RSS increase (bytes) during one fit, after a warm-up.

    The warm-up fit on a few rows pays imports and numba compilation; the kernel's peak
    counter is then reset (``/proc/self/clear_refs``) so only the measured fit counts. Unlike
    tracemalloc, this sees every allocation, including C extensions' ``malloc``.
    """
    workload = wl.get(name)
    n_samples = workload.n_samples // QUICK_SHRINK if quick else workload.n_samples
    holdout = workload.holdout // QUICK_SHRINK if quick else workload.holdout
    X, y = _data(workload, n_samples, holdout)
    X, y = X[:n_samples], y[:n_samples]
    make = workload.ours if side == "ours" else workload.peer
    make().fit(X[:2000], y[:2000])
    adapter = make()
    gc.collect()
    Path("/proc/self/clear_refs").write_text("5", encoding="ascii")
    before, _ = _rss_kib()
    adapter.fit(X, y)
    _, peak = _rss_kib()
    return max(peak - before, 0) * 1024


def _peak_rss_fit_bytes(workload: wl.Workload, side: str, quick: bool) -> int | None:
    """Run :func:`_rss_child` in a subprocess; ``None`` where /proc is unavailable."""
    if not Path("/proc/self/clear_refs").exists():
        return None
    cmd = [sys.executable, str(Path(__file__).resolve()), "--rss-child", workload.name, side]
    if quick:
        cmd.append("--quick")
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        _log(f"  peak RSS measurement failed: {out.stderr.strip().splitlines()[-1:]}")
        return None
    return int(out.stdout.strip().splitlines()[-1])


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


_DATA_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def _data(workload: wl.Workload, n_samples: int, holdout: int = 0):
    """Generate the workload's data, reusing the previous workload's when they are identical.

    Only one dataset is kept alive at a time, so that two 800 MB designs never coexist.
    """
    key = (*workload.data_key(n_samples), holdout)
    if key not in _DATA_CACHE:
        _DATA_CACHE.clear()
        gc.collect()
        start = time.perf_counter()
        rng = np.random.default_rng(workload.seed)
        _DATA_CACHE[key] = workload.make_data(rng, n_samples + holdout)
        X, _ = _DATA_CACHE[key]
        _log(
            f"  data {X.shape[0]:,} × {X.shape[1]:,} ({X.nbytes / 2**20:,.0f} MiB) generated in "
            f"{time.perf_counter() - start:.1f} s"
        )
    return _DATA_CACHE[key]


def run_workload(workload: wl.Workload, *, repeats: int, quick: bool, rss: bool = False) -> Result:
    n_samples = workload.n_samples // QUICK_SHRINK if quick else workload.n_samples
    _log(f"{workload.name}: {workload.description}")
    holdout = workload.holdout // QUICK_SHRINK if quick else workload.holdout
    X, y = _data(workload, n_samples, holdout)
    if holdout:
        # fit on the first n_samples rows; predict (timed and scored) on the held-out rows
        X_pred, y_pred = X[n_samples : n_samples + holdout], y[n_samples : n_samples + holdout]
        X, y = X[:n_samples], y[:n_samples]
    else:
        X_pred, y_pred = X, y

    factories = {"ours": workload.ours, "peer": workload.peer}
    fitted = {side: make() for side, make in factories.items()}
    meas = {side: Measurement(a.label) for side, a in fitted.items()}

    # Warm-up (untimed): first fit and predict of each; the predictions feed the accuracy check.
    preds = {}
    for side, adapter in fitted.items():
        _log(f"  warm-up {adapter.label}")
        adapter.fit(X, y)
        preds[side] = np.asarray(adapter.predict(X_pred), dtype=np.float64).ravel()
    scale = float(np.std(y_pred)) or 1.0
    rel_diff = float(np.max(np.abs(preds["ours"] - preds["peer"]))) / scale
    scores = None
    if workload.score is not None:
        scores = (
            float(workload.score(y_pred, preds["ours"])),
            float(workload.score(y_pred, preds["peer"])),
        )
    del preds

    _log(f"  timing fit × {repeats}")
    for _ in range(repeats):
        for side, make in factories.items():
            adapter = make()
            seconds = _timed(lambda a=adapter: a.fit(X, y))
            # a peer timed inside its own process (e.g. R through Rscript) reports that time
            meas[side].fit.append(getattr(adapter, "inner_fit_seconds", None) or seconds)
            del adapter

    _log(f"  timing predict × {repeats}")
    for _ in range(repeats):
        for side, adapter in fitted.items():
            meas[side].predict.append(_timed(lambda a=adapter: a.predict(X_pred)))
    del fitted
    gc.collect()

    _log("  peak memory of one fit (tracemalloc, untimed)")
    for side, make in factories.items():
        meas[side].peak_bytes = _peak_fit_bytes(make, X, y)
    if rss:
        _log("  peak RSS increase of one fit (fresh process each, untimed)")
        for side in factories:
            meas[side].peak_rss_bytes = _peak_rss_fit_bytes(workload, side, quick)

    return Result(workload, n_samples, meas["ours"], meas["peer"], rel_diff, scores)


# ----------------------------------------------------------------------------------- reports


def _s(seconds: float) -> str:
    return f"{seconds:.4g}"


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b > 0 else "n/a"


def markdown_table(results: list[Result]) -> str:
    header = [
        "workload",
        "n × p",
        "estimator",
        "fit median (s)",
        "fit min (s)",
        "predict median (s)",
        "predict min (s)",
        "peak MiB",
        "peak RSS MiB",
        "fit ours/peer",
        "predict ours/peer",
        "peak ours/peer",
        "peak RSS ours/peer",
        "max rel diff",
        "accuracy",
    ]
    rows = []
    for r in results:
        shape = f"{r.n_samples:,} × {r.workload.n_features:,}"
        if r.workload.holdout:
            held = r.workload.holdout // (r.workload.n_samples // r.n_samples)
            shape += f" (predict: {held:,} held-out rows)"
        med = {
            side: (statistics.median(m.fit), statistics.median(m.predict))
            for side, m in (("ours", r.ours), ("peer", r.peer))
        }
        for side, m in (("ours", r.ours), ("peer", r.peer)):
            fit_med, pred_med = med[side]
            row = [
                r.workload.name,
                shape,
                f"{side}: {m.label}",
                _s(fit_med),
                _s(min(m.fit)),
                _s(pred_med),
                _s(min(m.predict)),
                f"{m.peak_bytes / 2**20:,.1f}",
                "" if m.peak_rss_bytes is None else f"{m.peak_rss_bytes / 2**20:,.1f}",
            ]
            if side == "ours":
                if r.scores is not None:
                    got = f"held-out score {r.scores[0]:.4f} vs {r.scores[1]:.4f}"
                    flag = (
                        f"SCORE BELOW PEER by > {r.workload.score_tol:g} ({got})"
                        if r.mismatch
                        else f"ok ({got})"
                    )
                else:
                    flag = f"ACCURACY MISMATCH (rtol {r.workload.rtol:.0e})" if r.mismatch else "ok"
                row += [
                    _ratio(fit_med, med["peer"][0]),
                    _ratio(pred_med, med["peer"][1]),
                    _ratio(r.ours.peak_bytes, r.peer.peak_bytes),
                    ""
                    if r.ours.peak_rss_bytes is None or r.peer.peak_rss_bytes is None
                    else _ratio(r.ours.peak_rss_bytes, r.peer.peak_rss_bytes),
                    f"{r.rel_diff:.2e}",
                    flag,
                ]
            else:
                row += [""] * 6
            rows.append(row)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _version(module: str, *, where: bool = False) -> str:
    try:
        mod = __import__(module)
    except ImportError:
        return "not importable"
    version = getattr(mod, "__version__", "unknown")
    if where and getattr(mod, "__file__", None):
        version += f" ({Path(mod.__file__).resolve().parent})"
    return version


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _blas() -> list[str]:
    out = []
    try:
        deps = np.show_config(mode="dicts")["Build Dependencies"]
        for key in ("blas", "lapack"):
            info = deps.get(key, {})
            out.append(f"numpy {key} (build): {info.get('name', '?')} {info.get('version', '')}")
    except Exception as exc:  # the layout of show_config differs between numpy versions
        out.append(f"numpy build config unavailable ({type(exc).__name__})")
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        out.append("threadpoolctl not installed: runtime BLAS threads unknown")
        return out
    for pool in threadpool_info():
        name = " ".join(str(pool[k]) for k in ("internal_api", "version") if pool.get(k))
        extra = ", ".join(str(pool[k]) for k in ("architecture", "threading_layer") if pool.get(k))
        out.append(
            f"runtime {pool.get('user_api')}: {name}"
            + (f" ({extra})" if extra else "")
            + f", {pool.get('num_threads')} threads, {Path(pool.get('filepath', '?')).name}"
        )
    return out


def _git_revision() -> str:
    try:
        rev = subprocess.run(
            ["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(HERE), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return rev + (" (uncommitted changes)" if dirty else "")


def machine_info() -> list[str]:
    """Call after the runs, so that every BLAS loaded by the libraries is listed."""
    uname = platform.uname()
    return [
        f"platform: {platform.platform()} ({uname.machine})",
        f"CPU: {_cpu_model()}, {os.cpu_count()} logical CPUs",
        f"python {platform.python_version()}; numpy {_version('numpy')}, "
        f"scipy {_version('scipy')}, scikit-learn {_version('sklearn')}, "
        f"statsmodels {_version('statsmodels')}, numba {_version('numba')}, "
        f"statlearning {_version('statlearning', where=True)}",
        f"statlearning git revision: {_git_revision()}",
        *_blas(),
    ]


def command_line() -> str:
    prefix = (
        f"PYTHONPATH={shlex.quote(os.environ['PYTHONPATH'])} "
        if os.environ.get("PYTHONPATH")
        else ""
    )
    return prefix + shlex.join(["python", *sys.argv])


def record(results: list[Result], *, repeats: int) -> None:
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    lines = [
        "",
        f"## {now} — {', '.join(r.workload.name for r in results)}",
        "",
        "```",
        command_line(),
        "```",
        "",
        *[f"- {item}" for item in machine_info()],
        f"- repeats: {repeats} (medians and minima of the timed calls; warm-up excluded)",
        "",
        markdown_table(results),
        "",
        MEMORY_NOTE,
        RATIO_NOTE,
        "",
    ]
    if not RESULTS.exists():
        RESULTS.write_text("# Benchmark results\n", encoding="utf-8")
    with RESULTS.open("a", encoding="utf-8") as fh:
        fh.write("\n".join(lines))
    _log(f"appended to {RESULTS}")


# -------------------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Benchmark statlearning estimators against their peers.",
    )
    parser.add_argument(
        "workloads", nargs="*", metavar="WORKLOAD", help="workload names (see --list), or 'all'"
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=5,
        help="timed calls of fit and of predict per estimator (default 5)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"smoke run: n_samples / {QUICK_SHRINK}; never recorded",
    )
    parser.add_argument(
        "--no-record",
        action="store_true",
        help="do not append the results to benchmarks/RESULTS.md",
    )
    parser.add_argument(
        "--rss",
        action="store_true",
        help="also measure the peak resident-memory increase of one fit in a fresh process "
        "per library (sees C allocations that tracemalloc misses; Linux only)",
    )
    parser.add_argument(
        "--rss-child", nargs=2, metavar=("WORKLOAD", "SIDE"), help=argparse.SUPPRESS
    )
    parser.add_argument("--list", action="store_true", help="list the workloads and exit")
    parser.add_argument(
        "--grid",
        nargs="*",
        metavar="FAMILY",
        help="run the benchmark grid (every registered model and the unsupervised estimators "
        "over n and p; see grid.py), optionally only these families (space- or "
        "comma-separated)",
    )
    parser.add_argument(
        "--sizes", default=None, metavar="N,...", help="grid: row counts (1000,...,1000000)"
    )
    parser.add_argument(
        "--features", default=None, metavar="P,...", help="grid: column counts (10,100)"
    )
    parser.add_argument(
        "--limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="grid: stop growing n once the next size would take longer than this (30)",
    )
    parser.add_argument(
        "--models",
        default=None,
        metavar="NAME,...",
        help="grid: only these models (registry names, or the unsupervised rows' names)",
    )
    args = parser.parse_args(argv)

    if args.grid is not None:
        return _run_grid(args)

    if args.rss_child:
        print(_rss_child(*args.rss_child, args.quick))
        return 0

    if args.list:
        width = max(len(w.name) for w in wl.WORKLOADS)
        for w in wl.WORKLOADS:
            print(f"{w.name:<{width}}  {w.description}")
        return 0
    if not args.workloads:
        parser.error("name at least one WORKLOAD (or use --list)")
    if args.repeats < 1:
        parser.error("--repeats must be at least 1")
    names = [w.name for w in wl.WORKLOADS] if args.workloads == ["all"] else args.workloads
    try:
        selected = [wl.get(name) for name in names]
    except KeyError as exc:
        parser.error(exc.args[0])

    results = [
        run_workload(w, repeats=args.repeats, quick=args.quick, rss=args.rss) for w in selected
    ]
    _DATA_CACHE.clear()

    print()
    if args.quick:
        print(f"QUICK RUN (n_samples / {QUICK_SHRINK}) — not recorded")
        print()
    print(markdown_table(results))
    print()
    print(MEMORY_NOTE)
    print(RATIO_NOTE)
    mismatches = [r.workload.name for r in results if r.mismatch]
    if mismatches:
        print(f"ACCURACY MISMATCH in: {', '.join(mismatches)}")

    if not (args.quick or args.no_record):
        record(results, repeats=args.repeats)
    return 1 if mismatches else 0


def _run_grid(args) -> int:
    import grid

    sizes = tuple(int(float(v)) for v in args.sizes.split(",")) if args.sizes else grid.SIZES
    features = tuple(int(v) for v in args.features.split(",")) if args.features else grid.FEATURES
    limit = grid.LIMIT if args.limit is None else args.limit
    models = set(args.models.split(",")) if args.models else None
    families = [f for token in args.grid for f in token.split(",") if f] or None
    rows = grid.grid_rows(families, sizes, features, limit, log=_log, models=models)
    if not rows:  # nothing matched: say so rather than record an empty table
        known = grid.family_names()
        print(
            f"no grid rows for families {families} and models {sorted(models or [])}; "
            f"families: {', '.join(known)}",
            file=sys.stderr,
        )
        return 2
    command = "python benchmarks/run.py " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    text = grid.markdown(rows, command)
    print(text)
    if not args.no_record:
        with RESULTS.open("a", encoding="utf-8") as fh:
            fh.write(text)
    mismatched = [r.name for rs in rows.values() for r in rs for c in r.cells if c.mismatch]
    if mismatched:
        print(f"ACCURACY MISMATCH in: {', '.join(sorted(set(mismatched)))}")
    return 1 if mismatched else 0


if __name__ == "__main__":
    sys.exit(main())
