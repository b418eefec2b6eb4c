"""The command line's model table: the one place that lists models; families know nothing of it."""

import ast
import importlib
from pathlib import Path

import pytest
from sklearn.base import clone

import statlearning
from statlearning import _registry
from statlearning.cli._models import MODELS, register_family

PACKAGE_DIR = Path(statlearning.__file__).resolve().parent


def _imports(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            yield "." * node.level + (node.module or ""), [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []


@pytest.mark.parametrize("family", _registry.FAMILIES)
def test_families_do_not_know_the_command_line(family):
    for path in sorted((PACKAGE_DIR / family).rglob("*.py")):
        for module, names in _imports(path):
            parts = module.lstrip(".").split(".")
            assert "_registry" not in parts and "cli" not in parts, (path, module)
            assert "register_model" not in names, (path, module)


def test_table_rows_are_unique_public_and_registered():
    names = [m.name for m in MODELS]
    assert len(names) == len(set(names))
    assert {m.family for m in MODELS} <= set(_registry.FAMILIES)
    for model in MODELS:
        if isinstance(model.estimator, str):
            module = importlib.import_module(f"statlearning.{model.family}")
            assert model.estimator in module.__all__, model
    _registry.load_families()
    for model in MODELS:
        spec = _registry.get_model(model.name)
        assert (spec.family, spec.task, spec.description, spec.needs_scaling) == (
            model.family,
            model.task,
            model.description,
            model.needs_scaling,
        )
        est = spec.factory()
        assert spec.factory() is not est  # a fresh estimator each time
        clone(est)
        for key, value in model.params.items():
            assert est.get_params()[key] == value


def test_registering_a_family_again_is_harmless():
    _registry.load_families()
    before = dict(_registry._MODELS)
    assert register_family("linear_model")  # the same factories: entries replaced, no error
    assert set(_registry._MODELS) == set(before)
    assert _registry.load_families() == list(_registry.FAMILIES)
