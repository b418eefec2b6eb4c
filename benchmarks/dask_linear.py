"""Least squares on a Dask cluster: ``LinearRegression`` against dask-ml's, same cluster and data.

Usage::

    python benchmarks/dask_linear.py [--rows 1000000] [--cols 20] [--chunk 100000]
                                     [--workers 2] [--repeats 3]

The issue's target is ``--rows 10000000 --cols 20 --chunk 500000`` on a quiet machine, with
``--workers 1`` and ``--workers 2`` for the scaling. The data are generated on the workers
(``dask.array.random``, seeded) and never pass through the client; each fit reads them again.
Ours is the exact least-squares fit with R's inference (TSQR, then the fit statistics and the
exact residual quantiles: about four passes); dask-ml's ``LinearRegression`` (dask-glm) has no
inference, and its default ADMM solver is approximate: its accuracy is reported as the largest
coefficient difference from ours and the ratio of the residual sums of squares.
Prints one table; records nothing (copy the lines into ``benchmarks/RESULTS.md`` by hand).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--cols", type=int, default=20)
    parser.add_argument("--chunk", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    import dask.array as da
    from dask_ml.linear_model import LinearRegression as DaskMLLinearRegression
    from distributed import Client, LocalCluster

    from statlearning.linear_model import LinearRegression

    cluster = LocalCluster(
        n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = Client(cluster)
    rs = da.random.RandomState(0)
    X = rs.normal(size=(args.rows, args.cols), chunks=(args.chunk, args.cols))
    beta = np.linspace(-1.0, 1.0, args.cols)
    y = X @ beta + 2.0 + rs.normal(size=args.rows, chunks=args.chunk)
    X, y = client.persist([X, y])  # generated once, held by the workers

    def ours():
        return LinearRegression().fit(X, y)

    def peer():
        return DaskMLLinearRegression().fit(X, y)

    rows = []
    fitted = {}
    for name, fit in (("statlearning", ours), ("dask-ml", peer)):
        fitted[name] = fit()  # warm-up
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            fit()
            times.append(time.perf_counter() - start)
        rows.append((name, statistics.median(times), min(times)))

    a, b = fitted["statlearning"], fitted["dask-ml"]
    coef_a = np.r_[a.intercept_, a.coef_]
    coef_b = np.r_[b.intercept_, b.coef_]
    rss_b = float(((y - X @ b.coef_ - b.intercept_) ** 2).sum().compute())
    print(
        f"LinearRegression on {args.rows:,} x {args.cols} in chunks of {args.chunk:,}, "
        f"{args.workers} worker process(es) x 1 thread"
    )
    for name, median, best in rows:
        print(f"  {name:<13} fit median {median:8.3f} s   min {best:8.3f} s")
    print(f"  ratio ours/dask-ml (median): {rows[0][1] / rows[1][1]:.2f}")
    print(
        f"  max |coef difference| {np.max(np.abs(coef_a - coef_b)):.3g}; "
        f"RSS dask-ml / ours {rss_b / a.rss_:.12f}"
    )
    client.close()
    cluster.close()


if __name__ == "__main__":
    main()
