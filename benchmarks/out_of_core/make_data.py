"""Write a seeded regression/classification data set as a directory of parquet files.

Usage::

    python benchmarks/out_of_core/make_data.py DIRECTORY [--size 10GiB] [--cols 20]
                                              [--rows-per-file 200000] [--seed 0]

The data are generated one file at a time (never whole in memory): file ``i`` draws its rows
from ``numpy.random.default_rng([seed, i])``, so a file's contents do not depend on how many
files are written, and the same command writes the same bytes. Columns:

* ``x0 … x{p-1}``: independent standard normal features (float64);
* ``y``: ``2 + X β + ε`` with ``β = linspace(-1, 1, p)`` and ``ε ~ N(0, 1)`` (float64);
* ``label``: a Bernoulli draw with ``P(label = 1) = 1 / (1 + exp(-(0.5 + X γ)))``,
  ``γ = linspace(-0.5, 0.5, p)`` (int64), so that logistic regression has a known truth;
* the features are drawn around one of four centres (``±1.5`` on the first two features), so
  that k-means with four clusters has structure to find.

``--size`` sets the number of rows, ``size / (8 (p + 2))`` rounded up to whole files: the
data's size in memory. The files are written uncompressed (random doubles do not compress) and
come out about 12 % larger than that on disk (parquet's page headers and statistics; the actual
size is printed and recorded). The
directory must not exist yet (or be empty); a ``_SUCCESS`` file with the row count is written
last, so that an interrupted run is recognisable.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

from statlearning.cli._dask_compare import parse_size


def size_option(text: str) -> int:
    """Bytes in ``--size`` (``10GiB``, ``500MB``, ``123456``)."""
    try:
        return parse_size(text, "--size")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def make_block(rng: np.random.Generator, rows: int, cols: int) -> dict:
    """One file's columns."""
    centres = np.array([[1.5, 1.5], [1.5, -1.5], [-1.5, 1.5], [-1.5, -1.5]])
    X = rng.standard_normal((rows, cols))
    X[:, :2] += centres[rng.integers(0, 4, size=rows)]
    beta = np.linspace(-1.0, 1.0, cols)
    gamma = np.linspace(-0.5, 0.5, cols)
    y = 2.0 + X @ beta + rng.standard_normal(rows)
    eta = 0.5 + X @ gamma
    label = (rng.random(rows) < 1.0 / (1.0 + np.exp(-eta))).astype(np.int64)
    columns = {f"x{j}": X[:, j] for j in range(cols)}
    columns["y"] = y
    columns["label"] = label
    return columns


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", type=Path)
    parser.add_argument("--size", type=size_option, default=size_option("10GiB"))
    parser.add_argument("--cols", type=int, default=20)
    parser.add_argument("--rows-per-file", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    import pyarrow as pa
    import pyarrow.parquet as pq

    out = args.directory
    if out.exists() and any(out.iterdir()):
        parser.error(f"{out} is not empty")
    out.mkdir(parents=True, exist_ok=True)
    bytes_per_row = 8 * (args.cols + 2)
    n_files = max(1, math.ceil(args.size / (bytes_per_row * args.rows_per_file)))
    start = time.perf_counter()
    for i in range(n_files):
        rng = np.random.default_rng([args.seed, i])
        table = pa.table(make_block(rng, args.rows_per_file, args.cols))
        pq.write_table(table, out / f"part-{i:05d}.parquet", compression="none")
        if (i + 1) % 10 == 0 or i + 1 == n_files:
            print(f"{i + 1}/{n_files} files, {time.perf_counter() - start:.0f} s", flush=True)
    rows = n_files * args.rows_per_file
    disk = sum(f.stat().st_size for f in out.glob("*.parquet"))
    info = {"rows": rows, "cols": args.cols, "files": n_files, "bytes": disk, "seed": args.seed}
    (out / "_SUCCESS").write_text(json.dumps(info) + "\n")
    print(f"{rows:,} rows x {args.cols + 2} columns in {n_files} files, {disk / 2**30:.2f} GiB")


if __name__ == "__main__":
    main()
