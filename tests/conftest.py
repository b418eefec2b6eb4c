"""Shared fixtures: reference data locations and the optional shared data folder."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

TESTS = Path(__file__).resolve().parent
REFERENCE = TESTS / "reference"
REPO = TESTS.parent
SHARED_DATA = REPO.parent / "shared" / "data"


#: The R reference cases of tests/reference/lm, in the order the generating script writes them.
LM_CASES = json.loads((REFERENCE / "lm" / "lm_reference.json").read_text())["cases"]


@pytest.fixture(scope="session")
def lm_reference() -> dict:
    """R's ``lm`` results (tests/reference/lm, produced by make_lm_reference.R)."""
    return json.loads((REFERENCE / "lm" / "lm_reference.json").read_text())


def as_float_array(values) -> np.ndarray:
    """JSON lists with ``null`` for R's NA → float arrays with NaN."""
    return np.array(
        [np.nan if v is None else v for v in np.ravel(np.array(values, dtype=object))],
        dtype=np.float64,
    ).reshape(np.shape(np.array(values, dtype=object)))


@pytest.fixture(scope="session")
def client():
    """A Dask ``distributed.Client`` on a ``LocalCluster`` of two worker processes (one thread
    each: every block is pickled to a worker and its summary back, as on a real cluster),
    started once per session by the first test that asks for it (tests/dask). Skipped when
    dask or distributed is not installed (the ``[dask]`` extra)."""
    pytest.importorskip("dask.array", reason="dask is not installed (statlearning[dask])")
    distributed = pytest.importorskip(
        "distributed", reason="distributed is not installed (statlearning[dask])"
    )
    cluster = distributed.LocalCluster(
        processes=True, n_workers=2, threads_per_worker=1, dashboard_address=None,
        memory_limit="1GiB",
    )  # fmt: skip
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


@pytest.fixture
def compute_calls(monkeypatch):
    """The list of ``statlearning._dask.compute`` calls (one entry, the number of results
    asked for, per pass over the data) made while the test runs (tests/dask)."""
    from statlearning import _dask

    calls = []
    compute = _dask.compute

    def counted(*jobs):
        calls.append(len(jobs))
        return compute(*jobs)

    monkeypatch.setattr(_dask, "compute", counted)
    return calls
