"""A local Dask cluster for the tests of fits on Dask collections.

Two worker processes with one thread each (as on a real cluster, every block is pickled to a
worker and its summary back), started once per session and only when a test asks for it. The
tests are skipped when dask or distributed is not installed (the ``[dask]`` extra).
"""

from __future__ import annotations

import pytest

pytest.importorskip("dask.array", reason="dask is not installed (pip install statlearning[dask])")
pytest.importorskip("distributed", reason="distributed is not installed (statlearning[dask])")


@pytest.fixture(scope="session")
def client():
    """A ``distributed.Client`` on a ``LocalCluster(processes=True, n_workers=2)``."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(
        processes=True,
        n_workers=2,
        threads_per_worker=1,
        dashboard_address=None,
        memory_limit="1GiB",
    )
    with Client(cluster) as c:
        yield c
    cluster.close()
