"""Fixtures of the Dask tests (the cluster itself is ``client`` in tests/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture
def compute_calls(monkeypatch):
    """The list of ``statlearning._dask.compute`` calls (one entry, the number of results
    asked for, per pass over the data) made while the test runs."""
    from statlearning import _dask

    calls = []
    compute = _dask.compute

    def counted(*jobs):
        calls.append(len(jobs))
        return compute(*jobs)

    monkeypatch.setattr(_dask, "compute", counted)
    return calls
