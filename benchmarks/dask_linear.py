"""Row-decomposable models on a Dask cluster against dask-ml's, same cluster and same data.

Usage::

    python benchmarks/dask_linear.py [--rows 1000000] [--cols 20] [--chunk 100000]
                                     [--workers 1,2] [--repeats 3]
                                     [--models linear,logistic,kmeans,pca] [--no-exact]

The issue's target is ``--rows 10000000 --cols 20 --chunk 500000 --workers 1,2`` on a quiet
machine. For each number of workers a ``LocalCluster`` of that many processes (one thread
each) generates the data on the workers (blockwise, seeded by the block's index: the same
numbers whatever the number of workers), holds them there, and every fit reads them again:

* ``linear``: ``LinearRegression`` (exact least squares with R's inference: TSQR, then the
  fit statistics and the exact residual quantiles) vs dask-ml's (dask-glm, ADMM by default,
  no inference);
* ``logistic``: unpenalised ``LogisticRegression`` (distributed IRLS) vs dask-ml's with its
  defaults (L2 penalty with C = 1, negligible at these n; ADMM), both compared with the exact
  unpenalised optimum;
* ``kmeans``: ``KMeans(n_clusters=4)`` vs dask-ml's, compared by inertia and iterations: each
  with its own k-means|| seeding, then both from the same initial centres (Lloyd only);
* ``pca``: ``PCA(n_components=5, svd_solver="full")`` vs dask-ml's with the same solver (both
  TSQR), compared with the exact components.

A model is skipped, with a line saying so, when our estimator has no distributed fit
(``_fit_dask``) in this version. One function per model (``bench_<name>``), each returning
its table rows, so that models can be added without touching the others.

Accuracy is measured against the exact in-memory answer where one exists (the data are
brought to this process once for it, unless ``--no-exact``): least squares by
``numpy.linalg.lstsq``, the unpenalised logistic optimum by our in-memory Newton fit, PCA by
the eigendecomposition of the in-memory covariance. Time is the median (and min) of
``--repeats`` fits after one warm-up fit. Memory: each worker's peak resident set during one
further fit, above its resident set before it (Linux: the peak is reset through
``/proc/self/clear_refs`` before the fit and read from ``VmHWM`` after); the target is at most
two chunks plus the p² state. Prints one table per cluster size; records nothing (copy the
lines into ``benchmarks/RESULTS.md`` by hand).
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import time
from dataclasses import dataclass

import numpy as np

BETA_SEED = 12345


# -- data, generated blockwise on the workers -----------------------------------------------
def _x_block(block, seed, block_info=None):
    i = block_info[None]["chunk-location"][0]
    rng = np.random.default_rng([seed, i])
    X = rng.standard_normal(block.shape)
    centres = np.array([[2.0, 2.0], [2.0, -2.0], [-2.0, 2.0], [-2.0, -2.0]])
    X[:, :2] += centres[rng.integers(0, 4, size=block.shape[0])]
    return X


def _y_block(X, seed, block_info=None):
    i = block_info[None]["chunk-location"][0]
    rng = np.random.default_rng([seed, 10**6 + i])
    beta = np.linspace(-1.0, 1.0, X.shape[1])
    return 2.0 + X @ beta + rng.standard_normal(X.shape[0])


def _label_block(X, seed, block_info=None):
    i = block_info[None]["chunk-location"][0]
    rng = np.random.default_rng([seed, 2 * 10**6 + i])
    gamma = np.linspace(-0.5, 0.5, X.shape[1])
    eta = 0.5 + X @ gamma
    return (rng.random(X.shape[0]) < 1.0 / (1.0 + np.exp(-eta))).astype(np.float64)


def make_data(rows, cols, chunk, seed=0):
    import dask.array as da

    template = da.empty((rows, cols), chunks=(chunk, cols))
    X = template.map_blocks(_x_block, seed, dtype=np.float64)
    y = X.map_blocks(_y_block, seed, drop_axis=1, dtype=np.float64)
    label = X.map_blocks(_label_block, seed, drop_axis=1, dtype=np.float64)
    return X, y, label


# -- measurement ------------------------------------------------------------------------------
def _reset_peak():
    """Reset this process's peak RSS (VmHWM) and return its current RSS in bytes."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    return _status("VmRSS")


def _status(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def _peak():
    return _status("VmHWM")


@dataclass
class Timing:
    median: float
    best: float
    peak_mib: float  # the largest per-worker peak increase over the workers
    fitted: object


def measure(client, fit, repeats):
    """Warm-up fit, ``repeats`` timed fits, then one fit under the per-worker peak monitor."""
    fitted = fit()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fit()
        times.append(time.perf_counter() - start)
    try:
        before = client.run(_reset_peak)
        fit()
        after = client.run(_peak)
        peak = max(after[w] - before[w] for w in before) / 2**20
    except OSError:  # not Linux
        peak = float("nan")
    return Timing(statistics.median(times), min(times), peak, fitted)


@dataclass
class Context:
    client: object
    X: object
    y: object
    label: object
    args: argparse.Namespace
    exact: dict  # in-memory data when --no-exact is not given: {"X": ..., "y": ..., ...}


def _ours(module, name):
    cls = getattr(importlib.import_module(module), name)
    return cls if hasattr(cls, "_fit_dask") else None


def _row(model, timing_ours, timing_peer, accuracy):
    return (
        f"  {model:<18} ours {timing_ours.median:8.2f} s (min {timing_ours.best:7.2f})  "
        f"dask-ml {timing_peer.median:8.2f} s (min {timing_peer.best:7.2f})  "
        f"ratio {timing_ours.median / timing_peer.median:5.2f}  "
        f"peak/worker ours {timing_ours.peak_mib:6.0f} MiB, dask-ml {timing_peer.peak_mib:6.0f} "
        f"MiB\n  {'':<18} {accuracy}"
    )


def _coef_errors(coef_a, coef_b, exact, what, relative=False):
    scale = np.max(np.abs(exact)) if relative else 1.0
    label = f"max |coef - {what}|" + (" / max|exact|" if relative else "")
    err_a = np.max(np.abs(coef_a - exact)) / scale
    err_b = np.max(np.abs(coef_b - exact)) / scale
    return f"; {label}: ours {err_a:.2e}, dask-ml {err_b:.2e}"


# -- one function per model -------------------------------------------------------------------
def bench_linear(ctx):
    cls = _ours("statlearning.linear_model", "LinearRegression")
    if cls is None:
        return ["  linear: skipped (LinearRegression has no distributed fit)"]
    from dask_ml.linear_model import LinearRegression as Peer

    ours = measure(ctx.client, lambda: cls().fit(ctx.X, ctx.y), ctx.args.repeats)
    peer = measure(ctx.client, lambda: Peer().fit(ctx.X, ctx.y), ctx.args.repeats)
    a, b = ours.fitted, peer.fitted
    coef_a, coef_b = np.r_[a.intercept_, a.coef_], np.r_[b.intercept_, b.coef_]
    rss_b = float(((ctx.y - ctx.X @ b.coef_ - b.intercept_) ** 2).sum().compute())
    accuracy = f"RSS dask-ml / ours {rss_b / a.rss_:.12f}"
    if ctx.exact:
        X, y = ctx.exact["X"], ctx.exact["y"]
        A = np.column_stack([np.ones(len(y)), X])
        exact = np.linalg.lstsq(A, y, rcond=None)[0]
        accuracy += _coef_errors(coef_a, coef_b, exact, "exact", relative=True)
    return [_row("LinearRegression", ours, peer, accuracy)]


def bench_logistic(ctx):
    cls = _ours("statlearning.linear_model", "LogisticRegression")
    if cls is None:
        return ["  logistic: skipped (LogisticRegression has no distributed fit yet)"]
    from dask_ml.linear_model import LogisticRegression as Peer

    ours = measure(ctx.client, lambda: cls().fit(ctx.X, ctx.label), ctx.args.repeats)
    peer = measure(ctx.client, lambda: Peer().fit(ctx.X, ctx.label), ctx.args.repeats)
    a, b = ours.fitted, peer.fitted
    coef_a = np.r_[np.ravel(a.intercept_), np.ravel(a.coef_)]
    coef_b = np.r_[np.ravel(b.intercept_), np.ravel(b.coef_)]
    accuracy = f"max |coef difference| ours vs dask-ml {np.max(np.abs(coef_a - coef_b)):.3g}"
    if ctx.exact:
        ref = cls().fit(ctx.exact["X"], ctx.exact["label"])
        exact = np.r_[np.ravel(ref.intercept_), np.ravel(ref.coef_)]
        accuracy += _coef_errors(coef_a, coef_b, exact, "exact (in-memory Newton)")
    return [_row("LogisticRegression", ours, peer, accuracy)]


def bench_kmeans(ctx):
    cls = _ours("statlearning.cluster", "KMeans")
    if cls is None:
        return ["  kmeans: skipped (KMeans has no distributed fit yet)"]
    from dask_ml.cluster import KMeans as Peer

    def inertia(centres):  # the same definition for both: Σ min_k ‖x − c_k‖²
        c = np.asarray(centres)
        d = ((ctx.X[:, None, :] - c[None, :, :]) ** 2).sum(axis=2).min(axis=1)
        return float(d.sum().compute())

    def inertia_line(a, b):
        ia, ib = inertia(a.cluster_centers_), inertia(b.cluster_centers_)
        return (
            f"inertia of the centres ours {ia:.10g}, dask-ml {ib:.10g} "
            f"(ratio dask-ml/ours {ib / ia:.8f}; inertia_ reported {a.inertia_:.6g}, "
            f"{b.inertia_:.6g}); iterations {a.n_iter_} vs {b.n_iter_}"
        )

    # each its own k-means|| seeding
    ours = measure(ctx.client, lambda: cls(n_clusters=4, random_state=0).fit(ctx.X),
                   ctx.args.repeats)  # fmt: skip
    peer = measure(ctx.client, lambda: Peer(n_clusters=4, random_state=0).fit(ctx.X),
                   ctx.args.repeats)  # fmt: skip
    out = [_row("KMeans (k-means||)", ours, peer, inertia_line(ours.fitted, peer.fitted))]
    # like for like: the same initial centres (rows of the first block), then Lloyd only
    rng = np.random.default_rng(BETA_SEED)
    first = ctx.X.blocks[0].compute()
    init = first[rng.choice(first.shape[0], 4, replace=False)]
    ours = measure(ctx.client, lambda: cls(n_clusters=4, init=init, n_init=1).fit(ctx.X),
                   ctx.args.repeats)  # fmt: skip
    peer = measure(ctx.client, lambda: Peer(n_clusters=4, init=init, n_init=1).fit(ctx.X),
                   ctx.args.repeats)  # fmt: skip
    out.append(_row("KMeans (same init)", ours, peer, inertia_line(ours.fitted, peer.fitted)))
    return out


def bench_pca(ctx):
    cls = _ours("statlearning.decomposition", "PCA")
    if cls is None:
        return ["  pca: skipped (PCA has no distributed fit yet)"]
    from dask_ml.decomposition import PCA as Peer

    k = 5
    # both exact: a full SVD of the tall-skinny data (TSQR)
    ours = measure(ctx.client, lambda: cls(n_components=k, svd_solver="full").fit(ctx.X),
                   ctx.args.repeats)  # fmt: skip
    peer = measure(ctx.client, lambda: Peer(n_components=k, svd_solver="full").fit(ctx.X),
                   ctx.args.repeats)  # fmt: skip
    a, b = ours.fitted, peer.fitted
    accuracy = ""
    if ctx.exact:
        X = ctx.exact["X"]
        cov = np.cov(X, rowvar=False)
        values, vectors = np.linalg.eigh(cov)
        order = np.argsort(values)[::-1][:k]
        exact_var, exact_vec = values[order], vectors[:, order].T

        def err(model):
            comps = np.asarray(model.components_)
            signs = np.sign(np.sum(comps * exact_vec, axis=1))[:, None]
            return (
                np.max(np.abs(comps * signs - exact_vec)),
                np.max(np.abs(np.asarray(model.explained_variance_) / exact_var - 1)),
            )

        (ca, va), (cb, vb) = err(a), err(b)
        accuracy = (
            f"components max error (up to sign): ours {ca:.2e}, dask-ml {cb:.2e}; explained "
            f"variance max rel. error: ours {va:.2e}, dask-ml {vb:.2e}"
        )
    return [_row("PCA", ours, peer, accuracy)]


BENCHES = {
    "linear": bench_linear,
    "logistic": bench_logistic,
    "kmeans": bench_kmeans,
    "pca": bench_pca,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--cols", type=int, default=20)
    parser.add_argument("--chunk", type=int, default=100_000)
    parser.add_argument("--workers", default="2", help="comma-separated cluster sizes")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--models", default=",".join(BENCHES))
    parser.add_argument("--no-exact", action="store_true", help="skip the in-memory answers")
    args = parser.parse_args()
    names = [m.strip() for m in args.models.split(",") if m.strip()]
    unknown = sorted(set(names) - set(BENCHES))
    if unknown:
        parser.error(f"unknown model(s) {unknown}; choose from {sorted(BENCHES)}")

    from distributed import Client, LocalCluster

    import dask

    X, y, label = make_data(args.rows, args.cols, args.chunk)
    exact = {}
    if not args.no_exact:  # the same numbers as on the cluster (seeded by block)
        exact = dict(zip(("X", "y", "label"), dask.compute(X, y, label, scheduler="sync"),
                         strict=True))  # fmt: skip
    chunk_mib = args.chunk * args.cols * 8 / 2**20
    for n_workers in (int(w) for w in args.workers.split(",")):
        cluster = LocalCluster(
            n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
        Xp, yp, lp = client.persist([X, y, label])  # generated once, held by the workers
        ctx = Context(client, Xp, yp, lp, args, exact)
        print(
            f"{args.rows:,} x {args.cols} in chunks of {args.chunk:,} ({chunk_mib:.0f} MiB); "
            f"{n_workers} worker process(es) x 1 thread; median of {args.repeats} fits",
            flush=True,
        )
        for name in names:
            for line in BENCHES[name](ctx):
                print(line, flush=True)
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
