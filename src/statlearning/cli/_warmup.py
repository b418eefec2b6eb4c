"""Compile the tree kernels in a second process while ``compare`` works on the other models.

On a fresh install the first ``compare`` compiles every numba kernel it calls, and the tree
engine (one grower for trees, forests and boosting) is most of that time: about as much CPU
as all the other models' kernels together. Compiling is single-threaded, so on a cold cache
``compare`` starts one background interpreter that fits the tree-based models once on a
small slice of the data, which compiles their kernels into numba's on-disk cache. Meanwhile
the main process times and fits the other models (compiling theirs); it waits for the
background process only when it reaches the first tree-based model, whose kernels then load
from the cache in milliseconds. The waiting, like compiling, is not charged to the time
budget.

Nothing changes when the cache is warm (no process is started), when caching is unavailable
(the background work is wasted and the main process compiles as before), or when the
background process fails: its errors are ignored, since the main process fits the same models
and reports their errors itself.

Setting the environment variable ``STATLEARNING_BACKGROUND_COMPILE=0`` turns this off (every
kernel then compiles in the main process, as it is first called).

Run as ``python -m statlearning.cli._warmup DATA.npz NAME ...`` (``DATA.npz`` holding ``X``
and ``y``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

__all__ = ["BACKGROUND_FAMILIES", "WAITING_DETAIL", "Warmup", "start_warmup"]

#: Families whose models share the tree engine, compiled in the background on a cold cache.
BACKGROUND_FAMILIES = frozenset({"tree", "ensemble"})
#: Rows of the data the background process fits on: enough for every model to split.
WARMUP_ROWS = 200
#: What the progress bar shows while ``compare`` waits for the background compilation.
WAITING_DETAIL = "compiling the tree kernels (first run only)"


class Warmup:
    """A background compilation of the kernels of the models ``names``.

    Attributes
    ----------
    names : frozenset of str
        The models whose kernels are being compiled.
    waited : float
        Seconds the caller spent in :meth:`wait`.
    """

    def __init__(self, process, names, data_path):
        self._process = process
        self.names = frozenset(names)
        self._data_path = data_path
        self.waited = 0.0

    def done(self) -> bool:
        """Whether the background process has finished (its kernels are in the cache)."""
        return self._process is None or self._process.poll() is not None

    def wait(self, timeout=600.0):
        """Block until the background process has finished (at most ``timeout`` seconds)."""
        if self._process is None:
            return
        start = time.monotonic()
        try:
            self._process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self.waited += time.monotonic() - start
        self._process = None
        self._cleanup()

    def close(self):
        """Stop the background process if it is still running."""
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None
        self._cleanup()

    def _cleanup(self):
        if self._data_path is not None:
            try:
                os.unlink(self._data_path)
            except OSError:
                pass
            self._data_path = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def start_warmup(specs, X, y):
    """Start compiling the kernels of the tree-based ``specs`` in a background process.

    Returns
    -------
    Warmup or None
        None when no spec is tree-based, the process cannot be started, or the environment
        variable ``STATLEARNING_BACKGROUND_COMPILE`` is ``0``.
    """
    names = [spec.name for spec in specs if spec.family in BACKGROUND_FAMILIES]
    if not names or os.environ.get("STATLEARNING_BACKGROUND_COMPILE", "1") == "0":
        return None
    fd, path = tempfile.mkstemp(prefix="statlearning-warmup-", suffix=".npz")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.savez(handle, X=X[:WARMUP_ROWS], y=y[:WARMUP_ROWS])
        process = subprocess.Popen(
            [sys.executable, "-m", "statlearning.cli._warmup", path, *names],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        try:
            os.unlink(path)
        except OSError:
            pass
        return None
    return Warmup(process, names, path)


def _fit_each(path, names):
    from .._registry import get_model
    from ._compare import build_estimator

    with np.load(path, allow_pickle=False) as data:
        X, y = data["X"], data["y"]
    warnings.simplefilter("ignore")
    for name in names:
        try:
            estimator = build_estimator(get_model(name))
            estimator.fit(X, y)
            estimator.predict(X)
            if hasattr(estimator, "predict_proba"):
                estimator.predict_proba(X)
        except Exception:  # the main process reports its own errors
            pass


if __name__ == "__main__":
    _fit_each(sys.argv[1], sys.argv[2:])
