"""A parquet directory read with ``dask.dataframe.read_parquet`` fits as in memory.

Dask fuses small parquet partitions when it counts rows; the fit must still line up the blocks
of ``X`` and ``y`` (the row counts are taken from the array's own blocks then).
"""

from __future__ import annotations

import numpy as np
import pytest

from statlearning.linear_model import LinearRegression

dd = pytest.importorskip("dask.dataframe")
pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")

pytestmark = pytest.mark.dask


def test_parquet_directory_of_small_files(tmp_path, client):
    rng = np.random.default_rng(0)
    frames = []
    for i in range(7):
        X = rng.normal(size=(40 + 3 * i, 3))
        frame = pd.DataFrame(X, columns=["a", "b", "c"])
        frame["target"] = 1.0 + X @ [1.0, -2.0, 0.5] + rng.normal(size=len(X))
        frame.to_parquet(tmp_path / f"part-{i}.parquet")
        frames.append(frame)
    whole = pd.concat(frames, ignore_index=True)
    df = dd.read_parquet(str(tmp_path))
    ours = LinearRegression().fit(df[["a", "b", "c"]], df["target"])
    ref = LinearRegression().fit(whole[["a", "b", "c"]], whole["target"])
    np.testing.assert_allclose(ours.coef_, ref.coef_, rtol=1e-10)
    np.testing.assert_allclose(ours.bse_, ref.bse_, rtol=1e-10)
    assert ours.n_obs_ == len(whole)
    assert list(ours.feature_names_in_) == ["a", "b", "c"]
    assert str(ours.summary()).splitlines()[0] == str(ref.summary()).splitlines()[0]
