"""The package imports under ``python -OO`` (docstrings stripped, ``__doc__`` is ``None``).

Code that builds docstrings at import time (``__doc__.replace(...)``, ``__doc__ % ...``) fails
there with ``AttributeError: 'NoneType' object has no attribute ...``. One interpreter started
with ``-OO`` imports ``statlearning`` and then every subpackage with all of its modules, and
reports each failure; one test per subpackage reads the report.
"""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import statlearning

SUBPACKAGES = sorted(m.name for m in pkgutil.iter_modules(statlearning.__path__) if m.ispkg)

_SCRIPT = """
import importlib, json, pkgutil, sys, traceback
import statlearning
report = {}
for name in sys.argv[1:]:
    try:
        package = importlib.import_module("statlearning." + name)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)
        report[name] = None
    except ModuleNotFoundError as exc:  # an optional dependency (matplotlib for plot)
        report[name] = "skip: " + str(exc) if exc.name and not exc.name.startswith(
            "statlearning") else traceback.format_exc()
    except Exception:
        report[name] = traceback.format_exc()
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def report():
    src = str(Path(statlearning.__file__).parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run(
        [sys.executable, "-OO", "-c", _SCRIPT, *SUBPACKAGES],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert out.returncode == 0, out.stderr  # importing statlearning itself failed
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_subpackages_are_found():
    assert {"neighbors", "linear_model", "cli", "_core"} <= set(SUBPACKAGES)


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_imports_with_docstrings_stripped(report, name):
    error = report[name]
    if error and error.startswith("skip: "):
        pytest.skip(error)
    assert error is None, f"python -OO: importing statlearning.{name} failed:\n{error}"
