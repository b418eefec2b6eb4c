"""Fuzzing the CSV reader and the command line: random bytes, delimiters, encodings and cells.

Whatever the file, reading it either succeeds or raises one of the errors the command line
reports as one line (``ValueError``, ``TypeError``, ``OSError``, ``KeyError``); the command
itself exits with 0, 1 or 2, never a traceback. The default run tries a few dozen files; the
``fuzz`` marker (``pytest -m fuzz``) tries thousands.
"""

import datetime
import string

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from statlearning.cli import main
from statlearning.cli._data import load_data
from statlearning.cli._main import USER_ERRORS

SEPARATORS = [",", ";", "\t", "|", " ", ":"]
ENCODINGS = ["utf-8", "latin-1", "cp1252", "utf-16", "utf-8-sig"]
TOKENS = [
    "", "NA", "N/A", "NaN", "nan", "inf", "-inf", "Infinity", "NULL", "#N/A", " NA", "?",
    "1,5", "1.5e308", "1e-320", "-0", "0x10", "1_000", "TRUE", "false", '"', '""', "'",
    "é", "\u00a0", "\x00", "a\nb", "1e400",
]  # fmt: skip

_SHORT = settings(
    max_examples=25,
    deadline=datetime.timedelta(seconds=20),
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
_LONG = settings(_SHORT, max_examples=1500)

names = st.text(alphabet=string.ascii_letters + "_é", min_size=1, max_size=6) | st.text(
    alphabet=string.printable + "é", min_size=1, max_size=6
)
numbers = st.floats(allow_nan=True, allow_infinity=True, width=64).map(repr)
odd_cells = st.one_of(st.sampled_from(TOKENS), st.text(max_size=5))
plain_numbers = st.one_of(
    st.integers(-1000, 1000).map(str), st.floats(-1e6, 1e6, allow_nan=False).map(repr), numbers
)


@st.composite
def csv_files(draw):
    """A file built from random columns of random cells, or random bytes."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.binary(max_size=300)), "y", None, "utf-8"
    sep = draw(st.sampled_from(SEPARATORS))
    encoding = draw(st.sampled_from(ENCODINGS))
    header = draw(st.lists(names, min_size=1, max_size=5, unique=draw(st.booleans()) or None))
    n_rows = draw(st.integers(0, 30)) if draw(st.integers(0, 9)) == 0 else draw(st.integers(3, 30))
    odd = draw(st.sampled_from([0.0, 0.05, 0.3, 1.0]))  # share of odd cells
    ragged = draw(st.sampled_from([0.0, 0.0, 0.1]))  # share of rows with a field too few/many

    def cell():
        return draw(odd_cells if draw(st.floats(0, 1)) < odd else plain_numbers)

    rows = []
    for _ in range(n_rows):
        width = len(header)
        if draw(st.floats(0, 1)) < ragged:
            width += draw(st.sampled_from([-1, 1]))
        rows.append([cell() for _ in range(width)])
    quote = draw(st.booleans())
    lines = [sep.join(f'"{h}"' if quote else h for h in header)]
    lines += [sep.join(row) for row in rows]
    text = "\n".join(lines) + draw(st.sampled_from(["", "\n", "\r\n", "\n\n"]))
    data = text.encode(encoding, errors="replace")
    target = draw(st.sampled_from(header)) if draw(st.integers(0, 9)) else "missing"
    given_sep = draw(st.sampled_from([None, sep, ","]))
    read_as = draw(st.sampled_from([encoding, encoding, encoding, "utf-8", "latin-1"]))
    return data, target, given_sep, read_as


def _load(tmp_path, case, na):
    data, target, sep, encoding = case
    path = tmp_path / "fuzz.csv"
    path.write_bytes(data)
    try:
        loaded = load_data(str(path), target=target, sep=sep, encoding=encoding, na=na)
    except USER_ERRORS as exc:
        assert str(exc).strip(), repr(exc)
        return None
    assert loaded.X.dtype == float and loaded.X.shape[0] == len(loaded.y) > 0
    assert not np.isnan(loaded.X).any() and np.isfinite(loaded.X).all()
    if loaded.y.dtype.kind == "f":
        assert np.isfinite(loaded.y).all()
    else:
        assert all(isinstance(v, str) for v in loaded.y)
    return loaded


def _check_loader(tmp_path, case, na):
    _load(tmp_path, case, na)


def _check_command(tmp_path, capsys, case):
    data, target, sep, encoding = case
    path = tmp_path / "fuzz.csv"
    path.write_bytes(data)
    argv = ["fit", str(path), "--target", target, "--model", "ridge", "--na", "drop"]
    argv += ["--encoding", encoding] + (["--sep", sep] if sep else [])
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert code in (0, 2), (code, err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and err.startswith("statlearning: error: ")
    assert all(len(line) <= 1000 for line in (out + err).splitlines())


@_SHORT
@given(case=csv_files(), na=st.sampled_from(["error", "drop"]))
def test_loader_fuzz(tmp_path, case, na):
    _check_loader(tmp_path, case, na)


@_SHORT
@given(case=csv_files())
def test_command_fuzz(tmp_path, capsys, case):
    _check_command(tmp_path, capsys, case)


@pytest.mark.fuzz
@_LONG
@given(case=csv_files(), na=st.sampled_from(["error", "drop"]))
def test_loader_fuzz_long(tmp_path, case, na):
    _check_loader(tmp_path, case, na)


@pytest.mark.fuzz
@settings(_LONG, max_examples=300)
@given(case=csv_files())
def test_command_fuzz_long(tmp_path, capsys, case):
    _check_command(tmp_path, capsys, case)
