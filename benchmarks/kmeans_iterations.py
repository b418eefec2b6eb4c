"""Lloyd's iterations like for like: KMeans against scikit-learn from the same initial centres.

Usage::

    python benchmarks/kmeans_iterations.py [--sizes 8000,80000,800000] [--features 3,12,80]
                                           [--clusters 3,10,30] [--iterations 30]
                                           [--repeats 3] [--no-record]

Both sides start from the same ``init`` array with ``n_init=1``, ``tol=0`` and ``max_iter``
iterations, so each runs the same number of Lloyd steps on the same problem (the centres must
agree to 1e-8, or the cell is marked); the time per iteration is the fit's median over
``--repeats`` fits divided by ``n_iter_``. Both libraries use their defaults for threads.
The table (ours / scikit-learn per iteration, rows n × p, columns k) is printed and appended
to ``RESULTS.md``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).with_name("RESULTS.md")


def _blobs(n: int, p: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = 3.0 * rng.standard_normal((10, p))
    return rng.standard_normal((n, p)) + centres[rng.integers(0, 10, n)]


def _per_iteration(make, X, repeats):
    model = make().fit(X)  # warm-up (compilation, caches)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        model = make().fit(X)
        times.append(time.perf_counter() - start)
    return statistics.median(times) / model.n_iter_, model


def cell(n: int, p: int, k: int, iterations: int, repeats: int) -> tuple[float, float, bool]:
    """Seconds per iteration (ours, scikit-learn) and whether the centres agree."""
    from sklearn.cluster import KMeans as PeerKMeans

    from statlearning.cluster import KMeans

    X = _blobs(n, p)
    init = X[np.random.default_rng(1).choice(n, k, replace=False)]
    settings = {"n_clusters": k, "init": init, "n_init": 1, "max_iter": iterations, "tol": 0.0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, a = _per_iteration(lambda: KMeans(**settings), X, repeats)
        peer, b = _per_iteration(lambda: PeerKMeans(**settings), X, repeats)
    same = a.n_iter_ == b.n_iter_ and np.allclose(
        a.cluster_centers_, b.cluster_centers_, rtol=1e-8, atol=1e-8
    )
    return ours, peer, same


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="8000,80000,800000")
    parser.add_argument("--features", default="3,12,80")
    parser.add_argument("--clusters", default="3,10,30")
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args(argv)
    sizes = [int(v) for v in args.sizes.split(",")]
    features = [int(v) for v in args.features.split(",")]
    clusters = [int(v) for v in args.clusters.split(",")]
    head = " | ".join(f"k = {k}" for k in clusters)
    lines = [
        f"\n## KMeans per Lloyd iteration, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n",
        "`python benchmarks/kmeans_iterations.py " + " ".join(sys.argv[1:]) + "`\n",
        "Cells: ours / scikit-learn seconds per iteration (ours in ms); `≠` the centres differ.\n",
        f"| n × p | {head} |",
        "|---|" + "---|" * len(clusters),
    ]
    for n in sizes:
        for p in features:
            cells = []
            for k in clusters:
                ours, peer, same = cell(n, p, k, args.iterations, args.repeats)
                cells.append(f"{ours / peer:.2f} ({ours * 1e3:.3g})" + ("" if same else " ≠"))
                print(f"n={n:,} p={p} k={k}: {ours * 1e3:.3f} / {peer * 1e3:.3f} ms", flush=True)
            lines.append(f"| {n:,} × {p} | " + " | ".join(cells) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_record:
        with RESULTS.open("a", encoding="utf-8") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
