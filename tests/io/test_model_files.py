"""Model files: round trips of every registered model, the trust rule, damaged files."""

import json
import os
import warnings
import zipfile

import numpy as np
import pytest
import skops.io as sio

import statlearning.io._model_files as model_files
from statlearning._registry import load_families, registered_models
from statlearning.cli._compare import build_estimator
from statlearning.datasets import load_biopsy, load_gapminder
from statlearning.exceptions import ModelFileError, VersionMismatchWarning
from statlearning.io import load, model_metadata, save
from statlearning.linear_model import LinearRegression

load_families()
SPECS = registered_models()


@pytest.fixture(scope="module")
def tables():
    g = load_gapminder(year=2011, as_frame=True).frame
    Xr = g[["infant_mortality", "fertility", "population", "gdp"]]
    Xc, yc = load_biopsy(complete_cases=True, return_X_y=True, as_frame=True)
    return {"regression": (Xr, g["life_expectancy"]), "classification": (Xc, yc)}


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_round_trip_of_every_registered_model(spec, tables, tmp_path):
    X, y = tables[spec.task]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = build_estimator(spec).fit(X, y)
    path = save(model, tmp_path / f"{spec.name}.skops")
    back = load(path)
    np.testing.assert_array_equal(np.asarray(back.predict(X)), np.asarray(model.predict(X)))
    if hasattr(model, "predict_proba"):
        np.testing.assert_array_equal(back.predict_proba(X), model.predict_proba(X))


def _fitted():
    return LinearRegression().fit([[0.0], [1.0], [2.0], [3.0]], [0.1, 1.1, 1.9, 3.2])


def test_metadata_records_versions_and_extras(tmp_path):
    from statlearning import __version__

    path = save(_fitted(), tmp_path / "m.skops", metadata={"target": "y"})
    meta = model_metadata(path)
    assert meta["statlearning_version"] == __version__
    assert meta["target"] == "y"
    assert {"sklearn_version", "numpy_version", "scipy_version", "python_version"} <= set(meta)


def test_other_version_warns(tmp_path, monkeypatch):
    monkeypatch.setattr(model_files, "_library_version", lambda: "0.0.1")
    path = save(_fitted(), tmp_path / "old.skops")
    monkeypatch.undo()
    with pytest.warns(VersionMismatchWarning, match="0.0.1"):
        load(path)


def test_untrusted_function_is_refused_and_nothing_runs(tmp_path, monkeypatch):
    payload = {"model": _fitted(), "hook": os.system}
    path = tmp_path / "evil.skops"
    sio.dump(payload, path)
    calls = []
    monkeypatch.setattr(os, "system", lambda *a: calls.append(a))
    with pytest.raises(ModelFileError, match=r"evil\.skops.*not trusted: .*system"):
        load(path)
    assert calls == []


def test_a_function_of_the_package_is_not_trusted(tmp_path):
    from statlearning.cli import main

    path = tmp_path / "f.skops"
    sio.dump({"run": main}, path)
    with pytest.raises(ModelFileError, match=r"statlearning\.cli\._main\.main"):
        load(path)


def test_trusted_types_can_be_named(tmp_path):
    import operator

    from sklearn.preprocessing import FunctionTransformer

    path = tmp_path / "ft.skops"
    sio.dump(FunctionTransformer(operator.neg), path)
    names = sio.get_untrusted_types(file=path)
    assert names  # the function a FunctionTransformer holds is not trusted by default
    with pytest.raises(ModelFileError, match="not trusted"):
        load(path)
    assert load(path, trusted=names).transform(np.array([[2.0]]))[0, 0] == -2.0


def test_damaged_files(tmp_path):
    path = save(_fitted(), tmp_path / "m.skops")
    data = path.read_bytes()
    truncated = tmp_path / "truncated.skops"
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelFileError, match="truncated"):
        load(truncated)
    text = tmp_path / "text.skops"
    text.write_text("not a model")
    with pytest.raises(ModelFileError, match="not a model file"):
        load(text)
    broken = tmp_path / "broken.skops"
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(broken, "w") as dst:
        for item in src.namelist():
            content = b"{not json" if item == "schema.json" else src.read(item)
            dst.writestr(item, content)
    with pytest.raises(ModelFileError, match=r"broken\.skops"):
        load(broken)
    with pytest.raises(FileNotFoundError, match=r"nowhere\.skops"):
        load(tmp_path / "nowhere.skops")


def test_metadata_must_be_json(tmp_path):
    with pytest.raises(TypeError, match="JSON"):
        save(_fitted(), tmp_path / "m.skops", metadata={"x": object()})


def test_skops_file_without_metadata_loads(tmp_path):
    path = tmp_path / "plain.skops"
    sio.dump(_fitted(), path)
    assert model_metadata(path) == {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load(path).predict([[1.0]]).shape == (1,)


def test_metadata_member_is_json(tmp_path):
    path = save(_fitted(), tmp_path / "m.skops")
    with zipfile.ZipFile(path) as archive:
        assert json.loads(archive.read("statlearning.json"))["statlearning_version"]
