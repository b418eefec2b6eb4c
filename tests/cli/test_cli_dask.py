"""``statlearning compare`` on data read with Dask: ``--scheduler``, parquet directories, CSV
globs and ``--dask-threshold``.

The models with a distributed fit are cross-validated on every row with folds given by a hash
of each row's values; the test recomputes those folds in memory and checks the scores to 1e-10.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from statlearning.cli import main
from statlearning.cli._dask_compare import _fold_rows, parse_size
from statlearning.linear_model import LinearRegression
from statlearning.naive_bayes import GaussianNB

pd = pytest.importorskip("pandas")

pytestmark = pytest.mark.dask


def table(n=240, seed=0):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(rng.normal(size=(n, 3)), columns=["a", "b", "c"])
    frame["y"] = 1.0 + frame.to_numpy() @ [1.0, -2.0, 0.5] + rng.normal(size=n)
    frame["cls"] = np.where(frame["a"] + rng.normal(size=n) > 0, "up", "down")
    return frame


def write_parts(frame, directory, kind, parts=3):
    directory.mkdir()
    for i, part in enumerate(np.array_split(np.arange(len(frame)), parts)):
        chunk = frame.iloc[part]
        if kind == "parquet":
            chunk.to_parquet(directory / f"part-{i}.parquet", index=False)
        else:
            chunk.to_csv(directory / f"part-{i}.csv", index=False)


def hash_fold_scores(frame, features, target, cv, seed, make, score):
    """The fold scores ``compare`` computes, recomputed in memory."""
    scores = []
    for k in range(cv):
        train = _fold_rows(frame, k, cv, seed, False)
        test = _fold_rows(frame, k, cv, seed, True)
        est = make().fit(train[features], train[target])
        scores.append(score(est, test[features], test[target]))
    return np.array(scores)


def rmse(est, X, y):
    return float(np.sqrt(np.mean((y.to_numpy() - est.predict(X)) ** 2)))


def accuracy(est, X, y):
    return float(np.mean(est.predict(X) == y.to_numpy()))


def run_json(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return {row["model"]: row for row in json.loads(out)}, err


def test_parquet_directory_on_a_local_cluster(tmp_path, capsys):
    pytest.importorskip("pyarrow")
    pytest.importorskip("distributed")
    frame = table()
    write_parts(frame[["a", "b", "c", "y"]], tmp_path / "data", "parquet")
    rows, err = run_json(capsys, [
        "compare", str(tmp_path / "data"), "--target", "y", "--scheduler", "local",
        "--models", "linear_regression,ridge", "--cv", "4", "--seed", "3", "--quiet",
        "--format", "json", "--time-budget", "0",
    ])  # fmt: skip
    assert "read with Dask" in err and "local cluster" in err
    ref = hash_fold_scores(frame[["a", "b", "c", "y"]], ["a", "b", "c"], "y", 4, 3,
                           LinearRegression, rmse)  # fmt: skip
    ours = rows["linear_regression"]
    assert ours["mean"] == pytest.approx(ref.mean(), rel=1e-10)
    assert ours["se"] == pytest.approx(ref.std(ddof=1) / 2.0, rel=1e-8)
    # ridge (behind a scaler) has no distributed fit: cross-validated on the sample (all rows)
    assert "ridge (sample of 240 rows)" in rows


def test_csv_glob_classification_with_a_scheduler_address(tmp_path, capsys, client):
    frame = table(seed=1)
    write_parts(frame[["a", "b", "c", "cls"]], tmp_path / "csv", "csv", parts=4)
    rows, _ = run_json(capsys, [
        "compare", str(tmp_path / "csv" / "*.csv"), "--target", "cls", "--cv", "3",
        "--scheduler", client.scheduler.address, "--models", "gaussian_nb", "--quiet",
        "--format", "json", "--sample-rows", "0",
    ])  # fmt: skip
    ref = hash_fold_scores(frame[["a", "b", "c", "cls"]], ["a", "b", "c"], "cls", 3, 0,
                           GaussianNB, accuracy)  # fmt: skip
    assert rows["gaussian_nb"]["mean"] == pytest.approx(ref.mean(), rel=1e-12)
    assert rows["baseline"]["mean"] < rows["gaussian_nb"]["mean"]


def test_threshold_sends_one_csv_file_through_dask(tmp_path, capsys):
    frame = table(seed=2)
    path = tmp_path / "one.csv"
    frame[["a", "b", "c", "y"]].to_csv(path, index=False)
    argv = ["compare", str(path), "--target", "y", "--models", "linear_regression", "--cv",
            "3", "--quiet"]  # fmt: skip
    assert main(argv) == 0
    assert "read with Dask" not in capsys.readouterr().out  # small: in memory as before
    assert main([*argv, "--dask-threshold", "1KB"]) == 0
    out = capsys.readouterr().out
    assert "read with Dask" in out and "this machine (threads)" in out
    assert "linear_regression" in out


def _error(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("statlearning: error: "), err
    return lines[0]


def test_scheduler_without_dask_names_the_extra(tmp_path, capsys, monkeypatch):
    for name in ("dask", "dask.dataframe", "distributed"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as if not installed
    path = tmp_path / "d.csv"
    table()[["a", "y"]].to_csv(path, index=False)
    line = _error(capsys, ["compare", str(path), "--target", "y", "--scheduler", "local"])
    assert "statlearning[dask]" in line


def test_text_feature_and_bad_options_are_clear_errors(tmp_path, capsys):
    frame = table(seed=3)
    write_parts(frame, tmp_path / "csv", "csv", parts=2)
    glob = str(tmp_path / "csv" / "*.csv")
    line = _error(capsys, ["compare", glob, "--target", "y"])
    assert "'cls'" in line and "--drop" in line
    line = _error(capsys, ["compare", glob, "--target", "nope"])
    assert "'nope'" in line
    line = _error(capsys, ["compare", str(tmp_path / "none" / "*.csv"), "--target", "y"])
    assert "no data files" in line
    line = _error(capsys, ["compare", glob, "--target", "y", "--dask-threshold", "lots"])
    assert "--dask-threshold" in line


def test_parse_size():
    assert parse_size("2GB") == 2 * 10**9
    assert parse_size("1GiB") == 2**30
    assert parse_size(" 3 kb ") == 3000
    with pytest.raises(ValueError, match="dask-threshold"):
        parse_size("-1MB")
