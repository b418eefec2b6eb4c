"""The data file readers: pandas' CSV reader (byte-order mark, delimiter sniffing), parquet and
Excel files when their readers are installed, and a clear error naming the reader otherwise."""

from __future__ import annotations

import importlib.util

import numpy as np
import pandas as pd
import pytest

from statlearning.datasets import load_csv
from statlearning.datasets._csv import read_table

FRAME = pd.DataFrame(
    {"x": [1.0, 2.5, 3.0, 4.0], "g": ["a", "b", "a", "b"], "y": [1.0, 2.0, 2.9, 4.2]}
)


def test_byte_order_mark_and_quotes(tmp_path):
    path = tmp_path / "bom.csv"
    path.write_bytes(b'\xef\xbb\xbf"x","g","y"\n1,"a",1\n2.5,"b",2\n3,"a, b",2.9\n')
    bunch = load_csv(path, "y")
    assert bunch.feature_names == ["x", "ga, b", "gb"]
    np.testing.assert_array_equal(bunch.data[:, 0], [1.0, 2.5, 3.0])


@pytest.mark.parametrize("sep", [";", "\t", "|"])
def test_delimiter_sniffed_from_the_header(tmp_path, sep):
    path = tmp_path / "data.txt"
    FRAME.to_csv(path, sep=sep, index=False)
    bunch = load_csv(path, "y")
    assert bunch.sep == sep and bunch.feature_names == ["x", "gb"]


def test_na_and_empty_cells_are_missing(tmp_path):
    path = tmp_path / "na.csv"
    path.write_text("x,g,y\n1,a,1\nNA,b,2\n3,,2.9\n4,b,\n5,b,3\n")
    frame, sep = read_table(path)
    assert sep == "," and frame["x"].isna().sum() == 1
    assert frame["g"].isna().sum() == 1 and frame["y"].isna().sum() == 1
    assert load_csv(path, "y", na="drop").dropped_rows == 3


@pytest.mark.parametrize(
    ("suffix", "package", "writer"),
    [
        (".parquet", "pyarrow", lambda f, p: f.to_parquet(p)),
        (".xlsx", "openpyxl", lambda f, p: f.to_excel(p, index=False)),
    ],
)
def test_parquet_and_excel(tmp_path, suffix, package, writer):
    path = tmp_path / f"data{suffix}"
    if importlib.util.find_spec(package) is None:
        path.write_bytes(b"not read")
        with pytest.raises(ImportError, match=f"needs the .* reader '{package}'"):
            load_csv(path, "y")
        return
    writer(FRAME, path)
    bunch = load_csv(path, "y")
    assert bunch.feature_names == ["x", "gb"]
    np.testing.assert_array_equal(bunch.target, FRAME["y"])
