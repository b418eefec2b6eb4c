"""The documentation's sources cover the library (fast: no Sphinx build).

The API reference is generated from the public modules (``docs/apigen.py``); this test finds the
public modules and their ``__all__`` itself and checks that each name is an entry of its module's
autosummary table, so a module or an object the generator missed fails here, before a build. The
user guide's rows must name objects that exist, and every public family must have a guide page.
"""

import importlib
import pkgutil
import re
import sys
from pathlib import Path

import pytest

import statlearning

DOCS = Path(__file__).resolve().parents[1] / "docs"
if not (DOCS / "apigen.py").exists():  # an installed package without the repository's docs/
    pytest.skip("docs/ is not present", allow_module_level=True)
sys.path.insert(0, str(DOCS))
apigen = importlib.import_module("apigen")
guidegen = importlib.import_module("guidegen")


def _public_modules():
    for info in pkgutil.iter_modules(statlearning.__path__):
        if info.name.startswith("_"):
            continue
        try:
            module = importlib.import_module(f"statlearning.{info.name}")
        except ImportError:  # an optional extra that is not installed
            continue
        yield info.name, list(getattr(module, "__all__", []))


PUBLIC = sorted(_public_modules())


def _autosummary_entries(text):
    """Names listed in the autosummary directives of one reference page."""
    entries = set()
    for block in re.findall(r"\.\. autosummary::\n((?:   .*\n|\n)*)", text):
        for line in block.splitlines():
            line = line.strip()
            if line and not line.startswith(":"):
                entries.add(line)
    return entries


def test_public_modules_found():
    names = {name for name, _ in PUBLIC}
    assert {"linear_model", "tree", "plot", "metrics"} <= names
    assert sum(len(objects) for _, objects in PUBLIC) > 200


@pytest.mark.parametrize(("module", "objects"), PUBLIC, ids=[name for name, _ in PUBLIC])
def test_every_public_name_has_a_reference_page(module, objects):
    sources = apigen.api_sources()
    page = sources.get(f"{module}.rst")
    assert page is not None, f"statlearning.{module} has no API reference page"
    assert f".. automodule:: statlearning.{module}" in page
    missing = sorted(set(objects) - _autosummary_entries(page))
    assert not missing, f"statlearning.{module}: not in the API reference: {missing}"
    assert f"   {module}\n" in sources["index.rst"], f"{module} is not in the reference index"


def test_guide_rows_name_existing_objects():
    pattern = re.compile(r":obj:`~statlearning\.(\w+)\.(\w+)`")
    for family in guidegen.FAMILIES:
        for row in family["rows"]:
            for package, name in pattern.findall(row[1]):
                module = importlib.import_module(f"statlearning.{package}")
                assert name in getattr(module, "__all__", []), (
                    f"guide page {family['page']!r} names statlearning.{package}.{name}, "
                    "which is not public"
                )


def test_every_family_has_a_guide_page():
    pages = guidegen.guide_sources()
    for module, _ in PUBLIC:
        if module in guidegen.NOT_FAMILIES:
            continue
        assert any(
            f":ref:`api-{module}`" in text for name, text in pages.items() if name != "index.rst"
        ), f"statlearning.{module} has no user-guide page"


def test_r_equivalents_page_lists_the_core_mappings():
    text = guidegen.r_page()
    for r_name, ours in [
        ("``lm``", "LinearRegression"),
        ("``MASS::lda``", "LinearDiscriminantAnalysis"),
        ("``rpart``", "DecisionTreeRegressor"),
        ("``earth::earth``", "MARSRegressor"),
        ("``smooth.spline``", "SmoothingSpline"),
        ("``loess``", "LocalRegression"),
        ("``pls::plsr``", "PLSRegression"),
        ("``cancor``", "CCA"),
        ("``kernlab::kpca``", "KernelPCA"),
        ("``e1071::svm``", "SVC"),
        ("``leaps::regsubsets``", "BestSubsetSelector"),
        ("``p.adjust``", "p_adjust"),
    ]:
        rows = [row for row in text.split("   * - ")[1:] if r_name in row.split("\n")[0]]
        assert any(ours in row for row in rows), f"{r_name} → {ours} missing"


def test_gallery_uses_bundled_data_only():
    for path in sorted((DOCS / "examples").glob("plot_*.py")):
        text = path.read_text(encoding="utf-8")
        assert "fetch_" not in text and "http" not in text, f"{path.name} may reach the network"
