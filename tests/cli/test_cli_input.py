"""The command line on awkward files and targets: missing-value tokens, stray text in numeric
columns, encodings, delimiters, constant and out-of-domain targets, grouped warnings."""

import tomllib
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin

from statlearning import _registry
from statlearning._registry import load_families, register_model
from statlearning.cli import main
from statlearning.cli._output import MAX_LINE, WarningLog, clip

ROOT = Path(__file__).resolve().parents[2]


def _csv(tmp_path, rows, name="data.csv", sep=",", encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(("\n".join(sep.join(map(str, r)) for r in rows) + "\n").encode(encoding))
    return path


def _linear(n=60, seed=0):
    rng = np.random.default_rng(seed)
    x1, x2 = rng.normal(size=n), rng.normal(size=n)
    y = 1 + 2 * x1 - x2 + 0.1 * rng.normal(size=n)
    return [["x1", "x2", "y"]] + [
        [f"{a:.6f}", f"{b:.6f}", f"{c:.6f}"] for a, b, c in zip(x1, x2, y, strict=True)
    ]


def _run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def _error(capsys, argv):
    code, out, err = _run(capsys, argv)
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("statlearning: error: "), err
    return lines[0]


FAST = ["--models", "linear_regression,ridge", "--cv", "3", "--quiet"]


# --- missing-value tokens ---------------------------------------------------------------------


@pytest.mark.parametrize("token", ["NaN", "nan", "inf", "-inf", "N/A", "NULL", "#N/A"])
def test_nan_and_inf_cells_are_missing(tmp_path, capsys, token):
    """Literal NaN/nan/inf cells (what pandas writes) and pandas' NA tokens are missing
    values: an error under --na error, dropped rows under --na drop, never a failed model."""
    rows = _linear()
    rows[3][0] = token
    rows[7][1] = token
    path = _csv(tmp_path, rows)
    message = _error(capsys, ["compare", str(path), "--target", "y", *FAST])
    assert "missing values" in message and "'x1' (1)" in message and "--na drop" in message
    code, out, _ = _run(capsys, ["compare", str(path), "--target", "y", "--na", "drop", *FAST])
    assert code == 0
    assert "2 rows with missing values dropped" in out and "n = 58" in out
    assert "failed" not in out


def test_nan_target_is_missing(tmp_path, capsys):
    """A NaN in the target is a missing value, not 'non-finite predictions'."""
    rows = _linear()
    rows[5][2] = "NaN"
    path = _csv(tmp_path, rows)
    assert "'y' (1)" in _error(capsys, ["fit", str(path), "--target", "y"])
    code, out, _ = _run(capsys, ["fit", str(path), "--target", "y", "--na", "drop"])
    assert code == 0 and "n = 59" in out and "Residual standard error" in out


def test_na_values_option(tmp_path, capsys):
    """--na-values adds tokens read as missing."""
    rows = _linear()
    rows[2][0] = "-999"
    rows[4][1] = "?"
    path = _csv(tmp_path, rows)
    argv = ["compare", str(path), "--target", "y", "--na", "drop", *FAST]
    code, out, _ = _run(capsys, [*argv, "--na-values", "?,-999"])
    assert code == 0 and "2 rows with missing values dropped" in out


# --- stray tokens in numeric columns ----------------------------------------------------------


@pytest.mark.parametrize("token", [" NA", "?", "n.a."])
def test_stray_token_in_numeric_column_is_an_error(tmp_path, capsys, token):
    """One ' NA', '?' or other text cell in a numeric column is an error naming the column,
    the value and its row, not a categorical column with a dummy for the value."""
    rows = _linear()
    rows[10][1] = token
    path = _csv(tmp_path, rows)
    message = _error(capsys, ["compare", str(path), "--target", "y", "--na", "drop", *FAST])
    assert f"column 'x2' is numeric but has 1 non-numeric value(s): {token!r} (row 11)" in message
    assert "--na-values" in message


def test_stray_token_in_target_is_an_error(tmp_path, capsys):
    """A '?' in a numeric target is an error, not a classification with one class per value."""
    rows = _linear(n=300)
    rows[20][2] = "?"
    rows[30][2] = "?"
    path = _csv(tmp_path, rows)
    message = _error(capsys, ["compare", str(path), "--target", "y", *FAST])
    assert "column 'y'" in message and "'?' (rows 21, 31)" in message


def test_na_token_in_target_is_missing_not_a_class(tmp_path, capsys):
    """'N/A' in the target is a missing value: the task stays regression."""
    rows = _linear(n=300)
    rows[20][2] = "N/A"
    path = _csv(tmp_path, rows)
    code, out, _ = _run(capsys, ["compare", str(path), "--target", "y", "--na", "drop", *FAST])
    assert code == 0 and "task: regression" in out and "n = 299" in out


def test_decimal_comma(tmp_path, capsys):
    """A decimal comma in one cell, or in a whole column, is an error suggesting --decimal;
    with --sep ';' --decimal ',' the file reads as numbers."""
    rows = _linear()
    rows[6][0] = rows[6][0].replace(".", ",")
    path = _csv(tmp_path, rows, sep=";")
    message = _error(capsys, ["compare", str(path), "--target", "y", *FAST])
    assert "column 'x1'" in message and "--decimal ," in message
    all_commas = [[cell.replace(".", ",") for cell in row] for row in _linear()]
    path = _csv(tmp_path, all_commas, name="commas.csv", sep=";")
    message = _error(capsys, ["compare", str(path), "--target", "y", *FAST])
    assert "column 'x1'" in message and "--decimal ," in message
    code, out, _ = _run(capsys, ["compare", str(path), "--target", "y", "--decimal", ",", *FAST])
    assert code == 0 and "p = 2" in out


def test_real_categorical_column_stays_categorical(tmp_path, capsys):
    """A column of words (with an NA) is still treatment-coded."""
    rows = _linear()
    for i, row in enumerate(rows[1:]):
        row.insert(0, ["low", "mid", "high"][i % 3] if i != 4 else "NA")
    rows[0].insert(0, "level")
    path = _csv(tmp_path, rows)
    code, out, _ = _run(capsys, ["compare", str(path), "--target", "y", "--na", "drop", *FAST])
    assert code == 0 and "baseline level 'high'" in out and "p = 4" in out


def test_mostly_numeric_column_read_as_categorical_says_so(tmp_path, capsys):
    """A column whose non-numbers are too many for a numeric column (here 25 % '?') is
    categorical, with a note naming it and suggesting --na-values."""
    rows = _linear(n=40)
    for i in range(1, 41, 4):
        rows[i][1] = "?"
    path = _csv(tmp_path, rows)
    code, out, _ = _run(capsys, ["compare", str(path), "--target", "y", *FAST])
    assert code == 0
    assert "note: column 'x2' is read as categorical although 75% of its values are numbers" in out
    assert "'?'" in out and "--na-values" in out


# --- files: encodings, directories, delimiters ------------------------------------------------


def test_latin1_file(tmp_path, capsys):
    """A Latin-1 file: the error names the file and suggests --encoding, which reads it."""
    rows = _linear()
    rows[0][0] = "température"
    path = _csv(tmp_path, rows, encoding="latin-1")
    message = _error(capsys, ["compare", str(path), "--target", "y", *FAST])
    assert str(path) in message and "--encoding" in message and "0xe9" in message
    code, out, _ = _run(
        capsys, ["compare", str(path), "--target", "y", "--encoding", "latin-1", *FAST]
    )
    assert code == 0 and "p = 2" in out
    assert "unknown encoding" in _error(
        capsys, ["compare", str(path), "--target", "y", "--encoding", "nope-42"]
    )


def test_directory_is_named(tmp_path, capsys):
    """A directory given as DATA is named as a directory, not 'no such file'."""
    message = _error(capsys, ["compare", str(tmp_path), "--target", "y"])
    assert "is a directory" in message and str(tmp_path) in message


@pytest.mark.parametrize(("sep", "name"), [(";", "';'"), ("\t", "tab"), ("|", "'|'")])
def test_delimiter_detected(tmp_path, capsys, sep, name):
    """Semicolon-, tab- and pipe-separated files are read, and the delimiter is stated."""
    path = _csv(tmp_path, _linear(), sep=sep)
    code, out, _ = _run(capsys, ["compare", str(path), "--target", "y", *FAST])
    assert code == 0 and "p = 2" in out and f"delimiter {name} detected" in out


def test_sep_option(tmp_path, capsys):
    """--sep overrides the detection; a wrong one gives a hint at the delimiter."""
    path = _csv(tmp_path, _linear(), sep=";")
    code, out, _ = _run(capsys, ["compare", str(path), "--target", "y", "--sep", ";", *FAST])
    assert code == 0 and "detected" not in out
    message = _error(capsys, ["compare", str(path), "--target", "y", "--sep", ","])
    assert "not found" in message and "--sep" in message
    path = _csv(tmp_path, _linear(), name="tab.tsv", sep="\t")
    code, out, _ = _run(capsys, ["compare", str(path), "--target", "y", "--sep", "tab", *FAST])
    assert code == 0


# --- targets ----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["3", "2.5"])
def test_constant_target_is_one_error(tmp_path, capsys, value):
    """A constant target (integer or not) is one up-front error, for compare and fit."""
    rows = _linear()
    for row in rows[1:]:
        row[2] = value
    path = _csv(tmp_path, rows)
    message = _error(capsys, ["compare", str(path), "--target", "y"])
    assert "constant" in message and "'y'" in message
    assert "constant" in _error(capsys, ["fit", str(path), "--target", "y"])


def test_gamma_glm_not_applicable_to_nonpositive_target(tmp_path, capsys):
    """y <= 0: the gamma GLM is left out with a note (compare) or refused (fit), not listed
    and then failed."""
    path = _csv(tmp_path, _linear())  # y takes negative values
    argv = ["compare", str(path), "--target", "y", "--cv", "3", "--quiet"]
    code, out, _ = _run(capsys, [*argv, "--models", "glm_gamma_log,linear_regression"])
    assert code == 0
    assert "note: glm_gamma_log left out: it needs y > 0" in out
    assert "failed" not in out
    message = _error(capsys, ["fit", str(path), "--target", "y", "--model", "glm_gamma_log"])
    assert "needs y > 0" in message


def test_exit_code_when_no_model_fits(tmp_path, capsys, monkeypatch):
    """Exit code 1 when every model fails."""

    class Broken(RegressorMixin, BaseEstimator):
        def fit(self, X, y):
            raise RuntimeError("cannot fit")

    load_families()
    monkeypatch.setattr(_registry, "_MODELS", {})
    register_model("test_broken", Broken, task="regression", description="d", family="t")
    code, out, err = _run(capsys, ["compare", "--cv", "3", "--quiet"])
    assert code == 1 and "failed: RuntimeError" in out and "no model could be fitted" in err


# --- warnings and line lengths ----------------------------------------------------------------


class _Warns(RegressorMixin, BaseEstimator):
    """Warns once per fit with a fold-dependent number, and once with a very long message."""

    def fit(self, X, y):
        warnings.warn(f"stopped after {len(y) % 7 + 30} iterations", UserWarning)
        warnings.warn("x" * 20_000, RuntimeWarning)
        self.mean_ = float(np.mean(y))
        return self

    def predict(self, X):
        return np.full(len(X), self.mean_)


def test_repeated_warnings_grouped_and_lines_bounded(capsys, monkeypatch):
    """A warning repeated over folds with different numbers is one line with a count, and no
    output line exceeds 1,000 characters."""
    load_families()
    monkeypatch.setattr(_registry, "_MODELS", {})
    register_model("test_warns", _Warns, task="regression", description="d", family="t")
    code, out, err = _run(capsys, ["compare", "--cv", "10", "--quiet"])
    assert code == 0
    lines = [x for x in out.splitlines() if x.startswith("warning: test_warns: UserWarning")]
    assert len(lines) == 1 and "(in 10 of 10 folds)" in lines[0]
    assert "stopped after 3" in lines[0] and "–" in lines[0]
    assert max(len(x) for x in (out + err).splitlines()) <= MAX_LINE
    assert "more characters" in out


def test_separable_data_one_warning_line(tmp_path, capsys):
    """Separable classes: the logistic regression's convergence warning is one line."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(100, 3))
    rows = [["x1", "x2", "x3", "y"]] + [
        [*(f"{v:.5f}" for v in x), "a" if x[0] > 0 else "b"] for x in X
    ]
    path = _csv(tmp_path, rows)
    argv = ["compare", str(path), "--target", "y", "--models", "logistic_regression", "--quiet"]
    code, out, _ = _run(capsys, argv)
    assert code == 0
    lines = [x for x in out.splitlines() if "ConvergenceWarning" in x]
    assert len(lines) == 1 and "(in 10 of 10 folds)" in lines[0]


def test_clip_and_warning_log():
    assert clip("abc") == "abc"
    long = clip("y" * 5000)
    assert len(long) <= MAX_LINE and long.endswith(f"({5000 - long.index('.')} more characters)")
    log = WarningLog()
    for k, it in enumerate([31, 30, 31]):
        log.add("m", "ConvergenceWarning", f"stopped after {it} iterations.\nmore", k)
    log.add("m", "UserWarning", "other", 0)
    assert log.lines(3) == [
        "m: ConvergenceWarning: stopped after 30–31 iterations. (in 3 of 3 folds)",
        "m: UserWarning: other (in 1 of 3 folds)",
    ]
    assert len(log) == 2


# --- dependencies -----------------------------------------------------------------------------


def test_pandas_is_a_core_dependency():
    """The README's Python example (load_gapminder(as_frame=True)) and the CSV reader need
    pandas, so a plain install brings it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = {
        dep.split(">")[0].split("=")[0].split("[")[0].strip() for dep in project["dependencies"]
    }
    assert "pandas" in names
    assert "pandas" in _registry._REQUIRED_PACKAGES
