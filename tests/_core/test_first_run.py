"""The first run after installing: what compiles, and the time it takes.

Kernels with explicit signatures would compile when their module is imported; they go through
``lazy_kernel`` so that importing the package on a fresh cache compiles nothing (a command
then compiles only the kernels it calls). ``compile_timer`` measures the compilation inside a
block, which ``statlearning compare`` leaves out of its time budget.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from numba import njit

import statlearning
from statlearning._core.compiled import compile_timer

_IMPORT_EVERYTHING = """
import importlib, json, pkgutil
from collections import Counter
import numba.core.event as ev
compiled = Counter()

class Count(ev.Listener):
    def on_start(self, event):
        f = event.data["dispatcher"].py_func
        compiled[f.__module__ + "." + f.__qualname__] += 1

    def on_end(self, event):
        pass

ev.register("numba:compile", Count())
import statlearning
for info in pkgutil.walk_packages(statlearning.__path__, "statlearning."):
    if info.name.startswith("statlearning.plot"):
        continue  # matplotlib, an optional dependency
    importlib.import_module(info.name)
print(json.dumps(compiled))
"""


def test_importing_every_module_on_a_fresh_cache_compiles_nothing(tmp_path):
    src = str(Path(statlearning.__file__).parent.parent)
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path),
        "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]),
    }
    out = subprocess.run(
        [sys.executable, "-c", _IMPORT_EVERYTHING],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    compiled = json.loads(out.stdout.strip().splitlines()[-1])
    assert compiled == {}, f"compiled at import (use lazy_kernel): {sorted(compiled)}"


def test_compile_timer_counts_compiling_not_running():
    @njit
    def _fresh(a):  # not cached: compiles at its first call in this process
        return a.sum() + 1.0

    x = np.ones(3)
    with compile_timer() as timer:
        assert timer.seconds == 0.0
        assert _fresh(x) == 4.0
        first = timer.seconds
        assert first > 0.0
        _fresh(x)
    assert timer.seconds == first  # the second call ran the compiled kernel
    _fresh(np.ones(2, dtype=np.int64))  # outside the block: not counted
    assert timer.seconds == first
