"""``statlearning compare`` on wide and long data: models undefined when p >= n, the time budget
and its cost model, parallel folds, and progress that moves when piped."""

import functools
import io
import time

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin

from statlearning import _registry
from statlearning._registry import get_model, load_families, register_model
from statlearning.cli import _compare, _main, main
from statlearning.cli._budget import Estimate, estimate_cost, probe_order
from statlearning.cli._compare import applicable
from statlearning.cli._progress import Progress


def _write(tmp_path, X, y, name="data.csv"):
    path = tmp_path / name
    header = ",".join([*(f"x{j}" for j in range(X.shape[1])), "y"])
    body = np.column_stack([X, y])
    np.savetxt(path, body, delimiter=",", header=header, comments="", fmt="%.6g")
    return path


def _run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


@pytest.fixture
def wide(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 60))
    return _write(tmp_path, X, X[:, :3].sum(axis=1) + 0.1 * rng.normal(size=30))


def test_unpenalised_models_left_out_when_p_exceeds_n(wide, capsys):
    """30 rows x 60 columns: least squares, LAD and the gamma GLM are not ranked (their fits
    are undefined), each with a note; the penalised ridge is."""
    models = "linear_regression,lad_regression,huber_regression,best_subset_ols,ridge"
    argv = ["compare", str(wide), "--target", "y", "--cv", "3", "--quiet", "--models", models]
    code, out, _ = _run(capsys, argv)
    assert code == 0
    for name in ("linear_regression", "lad_regression", "huber_regression", "best_subset_ols"):
        (note,) = [x for x in out.splitlines() if x.startswith(f"note: {name} left out")]
        assert "p = 60 features for 20 training rows" in note
    ranked = [x.split()[1] for x in out.splitlines() if x.strip()[:1].isdigit()]
    assert ranked == ["ridge"]


def test_applicable_per_class_rows():
    load_families()
    specs = [get_model(n) for n in ("qda", "lda", "gaussian_nb", "gaussian_bayes_classifier")]
    y = np.array([0] * 40 + [1] * 8)
    splits = [(np.arange(48), np.arange(48))]
    kept, notes = applicable(specs, y, 10, splits, "classification")
    assert [s.name for s in kept] == ["lda", "gaussian_nb"]
    assert all("a class has 8 training rows for p = 10" in n for n in notes)


class _Slow(RegressorMixin, BaseEstimator):
    """Fit time proportional to the rows: ``rate`` seconds per row, beyond ``free`` rows."""

    def __init__(self, rate=2e-4, free=0):
        self.rate = rate
        self.free = free

    def fit(self, X, y):
        time.sleep(self.rate * max(0, len(y) - self.free))
        self.mean_ = float(np.mean(y))
        return self

    def predict(self, X):
        return np.full(len(X), self.mean_)


@pytest.fixture
def long_csv(tmp_path):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(2000, 3))
    return _write(tmp_path, X, X @ [1.0, 2.0, 3.0] + rng.normal(size=2000))


@pytest.fixture
def slow_registry(monkeypatch):
    load_families()
    models = {"linear_regression": _registry._MODELS["linear_regression"]}
    monkeypatch.setattr(_registry, "_MODELS", models)
    return models


def test_model_over_budget_skipped_with_its_estimate(long_csv, capsys, slow_registry):
    """A model expected to need more than the time budget is skipped, named with its estimate;
    the budget is stated in the header and the cheap model is ranked."""
    register_model("test_slow", _Slow, task="regression", description="d", family="t")
    argv = ["compare", str(long_csv), "--target", "y", "--quiet", "--time-budget", "2"]
    code, out, _ = _run(capsys, argv)
    assert code == 0
    assert "time budget 2 s (--time-budget)" in out
    (note,) = [x for x in out.splitlines() if x.startswith("note: test_slow skipped")]
    estimate = float(note.split("estimated ")[1].split(" s")[0])
    assert 2.0 < estimate < 8.0  # 10 folds x 1800 rows x 2e-4 s = 3.6 s
    assert "1  linear_regression" in out


def test_model_slower_than_estimated_is_stopped(long_csv, capsys, slow_registry, monkeypatch):
    """A model whose folds turn out much slower than estimated is stopped once it cannot
    finish within the budget, with a note."""
    register_model("test_sudden", _Slow, task="regression", description="d", family="t")

    def underestimate(spec, *args, **kwargs):
        return Estimate(spec.name, 0.01)

    monkeypatch.setattr(_compare, "estimate_cost", underestimate)
    argv = ["compare", str(long_csv), "--target", "y", "--quiet", "--time-budget", "1"]
    start = time.monotonic()
    code, out, _ = _run(capsys, argv)
    assert code == 0 and time.monotonic() - start < 5
    (note,) = [x for x in out.splitlines() if x.startswith("note: test_sudden stopped")]
    assert "after 1 of 10 folds" in note
    assert "1  linear_regression" in out


class _Slowing(_Slow):
    """Six fast fits, then 1.5 s each."""

    fits = [0]

    def fit(self, X, y):
        self.fits[0] += 1
        if self.fits[0] > 6:
            time.sleep(1.5)
        return super().fit(X, y)


def test_model_stopped_late_is_ranked_on_its_folds(long_csv, capsys, slow_registry, monkeypatch):
    """A model stopped by the budget after half its folds or more keeps them: it is ranked,
    its row saying how many folds it completed."""
    _Slowing.fits[0] = 0
    factory = functools.partial(_Slowing, rate=0.0)
    register_model("test_slowing", factory, task="regression", description="d", family="t")
    monkeypatch.setattr(_compare, "estimate_cost", lambda spec, *a, **k: Estimate(spec.name, 0.01))
    argv = ["compare", str(long_csv), "--target", "y", "--quiet", "--time-budget", "4"]
    code, out, _ = _run(capsys, argv)
    assert code == 0
    (note,) = [x for x in out.splitlines() if x.startswith("note: test_slowing stopped")]
    assert "(ranked on those folds)" in note
    (row,) = [x for x in out.splitlines() if "test_slowing (" in x]
    assert "of 10 folds)" in row and row.split()[0].isdigit()


def test_timing_stops_at_half_the_budget(long_csv, capsys, slow_registry, monkeypatch):
    """Once timing the models has used half the budget, the models not yet timed are skipped
    with a note instead of being run without an estimate."""
    for name in ("test_a", "test_b"):
        register_model(name, _Slow, task="regression", description="d", family="t")

    def slow_estimate(spec, *args, **kwargs):
        time.sleep(0.7)
        return Estimate(spec.name, 1e-3)

    monkeypatch.setattr(_compare, "estimate_cost", slow_estimate)
    argv = ["compare", str(long_csv), "--target", "y", "--quiet", "--time-budget", "1"]
    code, out, _ = _run(capsys, argv)
    assert code == 0 and "1  linear_regression" in out
    for name in ("test_a", "test_b"):
        assert f"note: {name} skipped: not timed" in out


def test_no_budget(long_csv, capsys, slow_registry):
    code, out, _ = _run(capsys, ["compare", str(long_csv), "--target", "y", "--quiet",
                                 "--time-budget", "0", "--cv", "3"])  # fmt: skip
    assert code == 0 and "no time budget" in out
    for bad in (["--time-budget", "-1"], ["--jobs", "0"]):
        code, _, err = _run(capsys, ["compare", "--quiet", *bad])
        assert code == 2 and err.startswith("statlearning: error: ")


def test_parallel_folds_give_the_same_scores(capsys, slow_registry, monkeypatch):
    """--jobs 2 runs the folds of a slow model in worker processes with the same scores."""
    argv = ["compare", "--cv", "4", "--quiet"]
    code, serial, _ = _run(capsys, [*argv, "--jobs", "1"])
    monkeypatch.setattr(_compare, "PARALLEL_MIN_SECONDS", 0.0)
    calls = []
    real = _compare.Parallel

    def spy(*args, **kwargs):
        calls.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(_compare, "Parallel", spy)
    code2, parallel, _ = _run(capsys, [*argv, "--jobs", "2"])
    assert code == code2 == 0 and calls and calls[0]["n_jobs"] == 2
    row = next(x for x in serial.splitlines() if "linear_regression" in x)
    row2 = next(x for x in parallel.splitlines() if "linear_regression" in x)
    assert row.split()[:5] == row2.split()[:5]  # rank, name, mean ± SE


def test_default_budget_is_a_few_minutes():
    assert 60 <= _main.DEFAULT_BUDGET <= 600


class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_cost_model_extrapolates_fixed_and_growing_parts():
    """A fit costing 0.05 s + 1e-6 s per row x column: the estimate for 10^6 rows is close."""
    clock = _Clock()

    def run_fold(spec, X, y, train, test, task, classes):
        clock.now += 0.05 + 1e-6 * len(train) * X.shape[1]

    load_families()
    spec = get_model("ridge")  # cost (1, 2): the estimate errs on the high side in p
    X, y = np.zeros((10_000, 4)), np.arange(10_000.0)
    order, columns = probe_order(y, "regression", 0), np.arange(4)
    est = estimate_cost(spec, X, y, "regression", 9000, 1000, order, columns, run_fold, clock)
    truth = 0.05 + 1e-6 * 9000 * 4
    assert est.seconds == pytest.approx(truth, rel=0.01)  # reached the full size
    X = np.zeros((2_000_000, 4))
    y = np.arange(2_000_000.0)
    order = probe_order(y, "regression", 0)
    est = estimate_cost(spec, X, y, "regression", 10**6, 10**5, order, columns, run_fold, clock)
    truth = 0.05 + 1e-6 * 10**6 * 4
    assert 0.999 * truth <= est.seconds <= 1.5 * truth
    assert est.rows < 10**6  # extrapolated from a subsample


def test_probe_order_interleaves_classes():
    y = np.array(["a"] * 90 + ["b"] * 10)
    order = probe_order(y, "classification", 0)
    assert set(y[order[:20]]) == {"a", "b"} and sorted(order) == list(range(100))


class _Stream(io.StringIO):
    def isatty(self):
        return False


def test_progress_moves_per_slow_fit_when_piped():
    """Piped progress: each slow fit gets a line with the model's name, not just 10 % steps."""
    clock, stream = _Clock(), _Stream()
    with Progress(190, label="compare", stream=stream, clock=clock) as bar:
        for _ in range(5):
            clock.now += 30.0
            bar.update(detail="knn_regressor")
    lines = stream.getvalue().splitlines()
    assert [line.split(" ", 2)[2] for line in lines[:5]] == [
        f"({k}/190) knn_regressor" for k in range(1, 6)
    ]
    assert len(lines) == 5 and lines[-1].startswith("compare: 2% ")


@pytest.mark.slow
@pytest.mark.parametrize(("n", "p"), [(200_000, 20), (50, 2_000)])
def test_long_and_wide_data_within_the_default_budget(tmp_path, capsys, n, p):
    """200,000 x 20 and 50 x 2,000 generated rows: compare with its defaults ends within its
    time budget with a leaderboard of several models (minutes; run with -m slow)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, p))
    y = X[:, 0] + 2 * X[:, 1] - X[:, 2] * X[:, 3] + rng.normal(size=n)
    path = _write(tmp_path, X, y)
    start = time.monotonic()
    code, out, _ = _run(capsys, ["compare", str(path), "--target", "y", "--quiet"])
    assert code == 0
    assert time.monotonic() - start <= _main.DEFAULT_BUDGET
    ranked = [x for x in out.splitlines() if x.strip()[:1].isdigit()]
    assert len(ranked) >= 5
    assert max(len(x) for x in out.splitlines()) <= 1000


def test_smoothing_spline_on_one_feature_and_left_out_otherwise(tmp_path, capsys):
    rng = np.random.default_rng(1)
    x = rng.uniform(0, 6, size=(120, 1))
    one = _write(tmp_path, x, np.sin(x[:, 0]) + 0.1 * rng.normal(size=120), "one.csv")
    argv = [
        "compare",
        str(one),
        "--target",
        "y",
        "--cv",
        "3",
        "--quiet",
        "--models",
        "smoothing_spline,linear_regression",
    ]
    code, out, _ = _run(capsys, argv)
    assert code == 0
    ranked = [line.split()[1] for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert ranked[0] == "smoothing_spline"
    two = _write(tmp_path, np.column_stack([x, x**2]), np.sin(x[:, 0]), "two.csv")
    argv[1] = str(two)
    code, out, _ = _run(capsys, argv)
    assert code == 0
    assert (
        "note: smoothing_spline left out: the fit is undefined or degenerate: it smooths "
        "a single feature and the data have p = 2" in out
    )
