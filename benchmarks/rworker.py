"""A persistent ``Rscript`` process for peers that run in R (in the same benchmark run).

The worker script reads one command per line on its standard input and answers one line.
:class:`RWorker` starts it at first use (once per process), writes a data set to a temporary
CSV once per distinct ``(X, y)`` (the untimed warm-up; the script answers ``load <path>`` with
``ok``) and closes it when Python exits. The timing itself is the script's business: it times
the call under test with ``proc.time()`` and sends the seconds back, which the adapters report
as ``inner_fit_seconds``.
"""

from __future__ import annotations

import atexit
import hashlib
import os
import subprocess
import tempfile

import numpy as np

_LOOP = r"""
suppressPackageStartupMessages(library(%(package)s))
con <- file("stdin", open = "r")
x <- NULL; y <- NULL; fit <- NULL
repeat {
  line <- readLines(con, n = 1)
  if (length(line) == 0 || line == "quit") break
  cmd <- strsplit(line, " ", fixed = TRUE)[[1]]
  if (cmd[1] == "load") {
    d <- as.matrix(read.csv(cmd[2], header = FALSE))
    y <- d[, 1]; x <- d[, -1, drop = FALSE]
    colnames(x) <- paste0("x", seq_len(ncol(x)) - 1)
    cat("ok\n")
  }%(commands)s
  flush(stdout())
}
"""


class RWorker:
    """One ``Rscript --vanilla`` process (single-threaded BLAS) serving ``package``'s peer.

    ``commands`` is R code continuing the worker's ``if (cmd[1] == "load") {...}`` chain with
    ``else if (cmd[1] == "...") {...}`` branches; each must write exactly one line. The data
    are ``x`` (columns ``x0, x1, …``) and ``y``; ``fit`` holds the last model.
    """

    def __init__(self, package: str, commands: str):
        self.script = _LOOP % {"package": package, "commands": commands.rstrip()}
        self.proc = None
        self.key = None

    def _start(self) -> subprocess.Popen:
        if self.proc is None:
            f = tempfile.NamedTemporaryFile("w", suffix=".R", delete=False)
            f.write(self.script)
            f.close()
            self.proc = subprocess.Popen(
                ["Rscript", "--vanilla", f.name],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env={**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"},
            )
            proc = self.proc

            def _close():
                proc.stdin.write("quit\n")
                proc.stdin.close()
                proc.wait(timeout=10)
                os.unlink(f.name)

            atexit.register(_close)
        return self.proc

    def ask(self, line: str) -> str:
        """Send one command line; return the worker's one-line answer."""
        proc = self._start()
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        return proc.stdout.readline().strip()

    def load(self, X, y) -> None:
        """Make ``[y, X]`` the worker's data (transferred once per distinct data set)."""
        key = hashlib.sha1(X.tobytes() + y.tobytes()).hexdigest()
        if self.key == key:
            return
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            np.savetxt(f, np.column_stack([y, X]), delimiter=",", fmt="%.17g")
        if self.ask(f"load {f.name}") != "ok":
            raise RuntimeError("the R worker could not read the data")
        os.unlink(f.name)
        self.key = key
