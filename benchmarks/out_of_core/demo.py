"""Out of core: OLS with inference, logistic regression and k-means on a parquet directory.

Usage::

    python benchmarks/out_of_core/make_data.py /data/ooc --size 10GiB
    python benchmarks/out_of_core/demo.py /data/ooc [--workers 2] [--memory-limit 1GiB]
                                          [--models ols,logistic,kmeans] [--json out.json]

A ``LocalCluster`` of ``--workers`` processes (one thread each) whose workers may hold
``--memory-limit`` each (Dask's default thresholds: spill to disk at 70 %, pause at 80 %,
restart at 95 %) reads the directory with ``dask.dataframe.read_parquet`` and fits

* ``LinearRegression`` of ``y`` on ``x0 …`` with R's inference (its ``summary()`` is printed);
* ``LogisticRegression`` of ``label`` on the same columns;
* ``KMeans(n_clusters=4)`` on the features;

the last two only if the estimator has a distributed fit (``_fit_dask``) in this version of the
library; otherwise the line says it was skipped. The data are never brought to the client:
each pass reads the files again on the workers.

For every model the workers are restarted first (``Client.restart``), so that the peak
resident memory each worker reports afterwards (``resource.getrusage(RUSAGE_SELF).ru_maxrss``
through ``Client.run``) is that model's peak; the idle peak after a restart is printed too.
Prints the wall time and the peaks; ``--json`` also writes them to a file. The workers use the
system allocator for Arrow's buffers (``ARROW_DEFAULT_MEMORY_POOL=system`` unless set), which
returns freed parquet buffers instead of pooling them.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path


def peak_rss_mib() -> float:
    """This process's peak resident set size in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def spilled(dask_worker) -> int:
    """Bytes this worker has written to disk so far."""
    total = getattr(dask_worker.data, "spilled_total", None)
    return int(getattr(total, "disk", 0) or 0)


def fit_ols(X, y, label):
    from statlearning.linear_model import LinearRegression

    model = LinearRegression().fit(X, y)
    return model, str(model.summary())


def fit_logistic(X, y, label):
    from statlearning.linear_model import LogisticRegression

    model = LogisticRegression().fit(X, label)
    return model, f"coef_ = {model.coef_.ravel().round(4)}"


def fit_kmeans(X, y, label):
    from statlearning.cluster import KMeans

    model = KMeans(n_clusters=4, random_state=0).fit(X)
    return (
        model,
        f"inertia_ = {model.inertia_:.6g}, centres (x0, x1):\n{model.cluster_centers_[:, :2]}",
    )


MODELS = {
    "ols": ("statlearning.linear_model", "LinearRegression", fit_ols),
    "logistic": ("statlearning.linear_model", "LogisticRegression", fit_logistic),
    "kmeans": ("statlearning.cluster", "KMeans", fit_kmeans),
}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-limit", default="1GiB")
    parser.add_argument("--models", default="ols,logistic,kmeans")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    names = [m.strip() for m in args.models.split(",") if m.strip()]
    unknown = sorted(set(names) - set(MODELS))
    if unknown:
        parser.error(f"unknown model(s) {unknown}; choose from {sorted(MODELS)}")

    import importlib
    import os

    # Arrow's default allocator keeps freed buffers for reuse: at 1 GiB a worker, a few
    # partitions' worth of parquet buffers held after their task ends cost ~100 MiB of peak
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=args.workers,
        threads_per_worker=1,
        processes=True,
        memory_limit=args.memory_limit,
        dashboard_address=None,
    )
    client = Client(cluster)
    df = dd.read_parquet(args.directory)
    features = [c for c in df.columns if c.startswith("x")]
    X, y, label = df[features], df["y"], df["label"]
    disk = sum(f.stat().st_size for f in args.directory.glob("*.parquet"))
    print(
        f"{args.directory}: {disk / 2**30:.2f} GiB on disk, {df.npartitions} partitions, "
        f"{len(features)} features; {args.workers} worker(s) x 1 thread, "
        f"memory_limit={args.memory_limit}",
        flush=True,
    )
    results = {"directory": str(args.directory), "bytes": disk, "workers": args.workers,
               "memory_limit": args.memory_limit, "models": {}}  # fmt: skip
    for name in names:
        module, cls, fit = MODELS[name]
        if not hasattr(getattr(importlib.import_module(module), cls), "_fit_dask"):
            print(f"\n{cls}: skipped (no distributed fit in this version)", flush=True)
            results["models"][name] = "skipped"
            continue
        client.restart()
        idle = client.run(peak_rss_mib)
        start = time.perf_counter()
        model, text = fit(X, y, label)
        seconds = time.perf_counter() - start
        peaks = client.run(peak_rss_mib)
        spills = client.run(spilled)
        print(f"\n{cls}: {seconds:.1f} s", flush=True)
        for worker in sorted(peaks):
            print(
                f"  worker {worker}: peak RSS {peaks[worker]:.0f} MiB "
                f"(idle {idle[worker]:.0f} MiB), spilled {spills[worker] / 2**20:.0f} MiB"
            )
        print(text, flush=True)
        results["models"][name] = {
            "seconds": seconds,
            "peak_rss_mib": peaks,
            "idle_rss_mib": idle,
            "spilled_bytes": spills,
            "n_iter": getattr(model, "n_iter_", None),
        }
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2, default=str) + "\n")
    client.close()
    cluster.close()


if __name__ == "__main__":
    main()
