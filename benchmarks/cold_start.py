"""The first run after installing: ``statlearning compare`` on a fresh numba cache, then again.

Usage::

    PYTHONPATH=src python benchmarks/cold_start.py [--runs warm,warm] [-- COMPARE ARGS ...]

Each run is a fresh interpreter running ``statlearning compare --quiet`` (the embedded default
data unless arguments follow ``--``) with ``NUMBA_CACHE_DIR`` pointing at a new, empty
directory that the later runs share: the first run compiles every kernel it calls, the others
load them from the cache. For each run the script prints the wall time, the CPU time of the
process (and of its child processes: on a cold cache ``compare`` compiles the tree kernels in
a background process, :mod:`statlearning.cli._warmup`), and the time spent compiling
(outermost numba compilations, measured inside the run by
``statlearning._core.compiled.compile_timer``, wall clock) with the number of kernels compiled
and the five most expensive; with ``--modules N`` also the ``N`` modules whose kernels took the
most compile CPU (exclusive of the kernels they call that live elsewhere; numba's own
overloads, such as ``np.empty`` or sorting, as one row; with
``STATLEARNING_BACKGROUND_COMPILE=0`` every kernel compiles in the measured process, so the
table covers them all). On a shared machine the CPU times and
the counts are the reliable measures. Not recorded in ``RESULTS.md``; never run in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

_RUN = """
import json, resource, sys, time
import numba.core.event as ev
wall0, cpu0 = time.perf_counter(), time.process_time()
kernels = []
starts = []
modules = {}

class Each(ev.Listener):  # outermost compilations, with their CPU time; CPU by module
    def on_start(self, event):
        f = event.data["dispatcher"].py_func
        starts.append([f.__module__, f.__qualname__, time.thread_time(), 0.0])

    def on_end(self, event):
        module, name, t0, inner = starts.pop()
        seconds = time.thread_time() - t0
        key = module if module.startswith("statlearning") else "numba's own overloads"
        modules[key] = modules.get(key, 0.0) + seconds - inner
        if starts:
            starts[-1][3] += seconds
        else:
            kernels.append((module + "." + name, seconds))

ev.register("numba:compile", Each())
from statlearning._core.compiled import compile_timer
from statlearning.cli import main
with compile_timer() as timer:
    status = main(["compare", "--quiet", *sys.argv[1:]])
children = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"status": status, "wall": time.perf_counter() - wall0,
                  "cpu": time.process_time() - cpu0, "compile_wall": timer.seconds,
                  "children_cpu": children.ru_utime + children.ru_stime,
                  "kernels": sorted(kernels, key=lambda k: -k[1]),
                  "modules": sorted(modules.items(), key=lambda k: -k[1])}))
"""


def _run(args, cache):
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", _RUN, *args], capture_output=True, text=True, env=env, check=False
    )
    elapsed = time.perf_counter() - start
    if out.returncode not in (0, 1):
        sys.exit(out.stderr)
    report = json.loads(out.stdout.strip().splitlines()[-1])
    report["process_wall"] = elapsed
    return report


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", default="warm", help="runs after the cold one (comma list)")
    parser.add_argument(
        "--modules", type=int, default=0, help="also print the N most expensive modules"
    )
    parser.add_argument("compare_args", nargs="*", help="arguments of compare, after --")
    args = parser.parse_args(argv)
    labels = ["cold"] + [r for r in args.runs.split(",") if r]
    with tempfile.TemporaryDirectory(prefix="numba-cache-") as cache:
        for label in labels:
            r = _run(args.compare_args, cache)
            compile_cpu = sum(t for _, t in r["kernels"])
            print(
                f"{label}: wall {r['process_wall']:.1f} s (in-process {r['wall']:.1f} s), "
                f"CPU {r['cpu']:.1f} s (+ {r['children_cpu']:.1f} s in child processes: the "
                "background compilation, parallel folds); "
                f"compiling {r['compile_wall']:.1f} s wall, "
                f"{compile_cpu:.1f} s CPU, kernels compiled: {len(r['kernels'])}"
            )
            for name, seconds in r["kernels"][:5]:
                print(f"    {seconds:6.2f} s CPU  {name}")
            if args.modules and r["modules"]:
                print("  compile CPU by module:")
                for name, seconds in r["modules"][: args.modules]:
                    print(f"    {seconds:6.2f} s  {name}")


if __name__ == "__main__":
    main()
