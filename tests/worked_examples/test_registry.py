"""The registry of worked examples: every example is reproduced by a test that exists, or says
why it is not; where the lecture-note catalogues are at hand, every example id is listed."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
import warnings
from functools import cache
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
NOTES = REPO.parent / "shared" / "seed-notes"

_spec = importlib.util.spec_from_file_location("worked_examples_registry", HERE / "registry.py")
registry = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = registry  # dataclasses look their module up
_spec.loader.exec_module(registry)


@cache
def _test_names(path: Path) -> frozenset[str]:
    """``function`` and ``Class::method`` names of the tests defined at the top of a file."""
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.update(
                f"{node.name}::{item.name}"
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            )
    return frozenset(names)


def test_every_example_has_a_status_and_a_test_or_a_reason():
    problems = []
    for ex in registry.EXAMPLES:
        label = f"seed {ex.seed} {ex.id}"
        if ex.seed not in registry.CATALOGUES:
            problems.append(f"{label}: unknown seed")
        if ex.status not in registry.STATUSES:
            problems.append(f"{label}: status {ex.status!r} is none of {registry.STATUSES}")
        elif ex.status == registry.REPRODUCED and not ex.tests:
            problems.append(f"{label}: reproduced, but no test named")
        elif ex.status != registry.REPRODUCED and not ex.reason.strip():
            problems.append(f"{label}: {ex.status}, but no reason given")
        if not ex.what.strip():
            problems.append(f"{label}: no description")
    assert not problems, "\n".join(problems)


def test_example_ids_are_unique():
    keys = [(ex.seed, ex.id) for ex in registry.EXAMPLES]
    duplicates = sorted({k for k in keys if keys.count(k) > 1})
    assert not duplicates, duplicates


def test_every_named_test_exists():
    missing, pending = [], []
    for ex in registry.EXAMPLES:
        for node in ex.tests:
            path, _, name = node.partition("::")
            name = re.sub(r"\[.*\]$", "", name)  # a parametrised case: its function
            file = REPO / path
            if node in registry.PENDING and not file.exists():
                pending.append(f"seed {ex.seed} {ex.id}: {node}")
                continue
            if not file.is_file():
                missing.append(f"seed {ex.seed} {ex.id}: no file {path}")
            elif name not in _test_names(file):
                missing.append(f"seed {ex.seed} {ex.id}: no test {name} in {path}")
    if pending:
        message = "Pending (their file is not in this checkout yet):\n  " + "\n  ".join(pending)
        print(message)
        warnings.warn(message, UserWarning)
    assert not missing, "\n".join(missing)


def test_pending_entries_are_named_by_the_registry():
    named = {node for ex in registry.EXAMPLES for node in ex.tests}
    assert registry.PENDING <= named


def _section_two(text: str) -> str:
    """The catalogue's '## 2. Worked examples' section."""
    match = re.search(r"^## 2\..*?(?=^## )", text, flags=re.M | re.S)
    assert match, "no section 2 in the catalogue"
    return match.group(0)


def _catalogue_ids(seed: str, text: str) -> set[str]:
    section = _section_two(text)
    if seed == "000":
        return {f"§{m}" for m in re.findall(r"^### (2\.\d+)\b", section, flags=re.M)}
    if seed == "004":
        return set(re.findall(r"^\*\*(E\d+) —", section, flags=re.M))
    if seed == "002":
        return set(re.findall(r"^\| (L[\d–-]+) \|", section, flags=re.M))
    return set(re.findall(r"^\| (E\d+) \|", section, flags=re.M))


@pytest.mark.skipif(not NOTES.is_dir(), reason="the lecture-note catalogues are not at hand")
@pytest.mark.parametrize("seed", sorted(registry.CATALOGUES))
def test_registry_lists_every_example_of_the_catalogue(seed):
    text = (NOTES / registry.CATALOGUES[seed]).read_text(encoding="utf-8")
    ids = _catalogue_ids(seed, text)
    assert ids, f"no example ids found in {registry.CATALOGUES[seed]}"
    listed = {ex.id for ex in registry.EXAMPLES if ex.seed == seed}
    assert not ids - listed, f"not in the registry: {sorted(ids - listed)}"
