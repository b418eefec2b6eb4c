"""The package's import layering (DESIGN.md, "Layering"), checked by parsing every module.

Each module under ``src/statlearning`` is parsed with :mod:`ast`; every ``import`` and
``from ... import`` (relative imports resolved to absolute module paths) and every
``importlib.import_module`` call with a literal argument is checked against the rules below. A
violation is reported as ``file:line: rule``.

Layers (the first component under ``statlearning``):

* ``_core``: stdlib, numpy, scipy, numba, threadpoolctl (BLAS thread limits), and ``_core`` itself.
* ``_solvers``: the same plus ``_core`` (and ``_solvers``).
* ``_validation``, ``exceptions``: stdlib, numpy, public scikit-learn, and each other.
* ``base``: stdlib, numpy, public scikit-learn, ``_validation``, ``exceptions``, ``_dask``.
* ``_dask``: stdlib, numpy (dask, distributed and pandas only inside functions), ``_core``,
  ``_validation``, ``exceptions``.
* ``inference``: stdlib, numpy, scipy (pandas only inside functions), ``_core``, ``exceptions``
  and ``inference`` itself.
* every other subpackage (an *estimator subpackage*, found by listing directories): ``base``,
  ``_validation``, ``_core``, ``_solvers``, ``inference``, ``exceptions``, ``_registry``, itself,
  the root package, and other subpackages' public names only (no component or imported name
  starting with ``_``), except the pairs in :data:`ALLOWED_PRIVATE`.
* other top-level modules (``__init__``, ``_registry``): the global rules only.

Global rules: no private scikit-learn module or name, no scikit-learn estimator module, only the
scikit-learn modules in :data:`ALLOWED_SKLEARN_MODULES`, and no statsmodels, pygam or pyearth.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "statlearning"
PACKAGE_DIR = SRC / PACKAGE

#: (importer, imported) subpackage pairs where the importer may use the other's private modules.
ALLOWED_PRIVATE = {
    ("ensemble", "tree"),
    # the command line reads and encodes files with the datasets' CSV reader and table encoding
    ("cli", "datasets"),
    # --formula: the command line reads the formula and builds its design as R's model frame
    # (bases fitted on every row, then incomplete rows left out) with the formula module's parts
    ("cli", "formula"),
}

#: Top-level modules and subpackages every estimator subpackage may use, private parts included.
INFRASTRUCTURE = {
    "base",
    "_validation",
    "_core",
    "_solvers",
    "inference",
    "exceptions",
    "_registry",
    "_dask",
}

#: scikit-learn modules that may be imported (public names only).
ALLOWED_SKLEARN_MODULES = {
    "sklearn",
    "sklearn.base",
    "sklearn.utils",
    "sklearn.utils.validation",
    "sklearn.utils.parallel",
    "sklearn.utils.estimator_checks",
    "sklearn.utils.metaestimators",  # available_if: methods that exist only in some settings
    "sklearn.model_selection",
    "sklearn.metrics",
    "sklearn.datasets",
    "sklearn.exceptions",
    "sklearn.pipeline",
    "sklearn.preprocessing",
    "sklearn.inspection",  # permutation importance and partial dependence (functions only)
}

#: scikit-learn modules holding estimators: never imported from ``src``.
SKLEARN_ESTIMATOR_MODULES = {
    "linear_model",
    "tree",
    "ensemble",
    "svm",
    "cluster",
    "neighbors",
    "naive_bayes",
    "discriminant_analysis",
    "decomposition",
    "cross_decomposition",
    "mixture",
    "neural_network",
    "kernel_ridge",
    "gaussian_process",
    "isotonic",
    "semi_supervised",
    "manifold",
    "covariance",
    "feature_selection",
    "dummy",
    "kernel_approximation",
    "multiclass",
    "multioutput",
    "calibration",
    "random_projection",
}

#: Public functions of the scikit-learn root package (``from sklearn import clone``).
SKLEARN_ROOT_NAMES = {"clone", "config_context", "get_config", "set_config", "show_versions"}

#: Third-party packages never imported from ``src``.
FORBIDDEN_PACKAGES = {"statsmodels", "pygam", "pyearth"}

STDLIB = frozenset(sys.stdlib_module_names)
NUMERIC = {"numpy", "scipy", "numba"}

#: Third-party (non-statlearning) top-level packages allowed per layer; None = no restriction
#: beyond the global rules.
THIRD_PARTY = {
    "_core": NUMERIC | {"threadpoolctl"},
    "_solvers": NUMERIC,
    "_validation": {"numpy", "sklearn"},
    "exceptions": {"numpy", "sklearn"},
    "base": {"numpy", "sklearn"},
    "inference": {"numpy", "scipy"},
    "_dask": {"numpy"},
}
#: Third-party packages a layer may import only inside a function (optional dependencies).
LAZY_THIRD_PARTY = {"inference": {"pandas"}, "_dask": {"dask", "distributed", "pandas"}}

#: statlearning layers each restricted layer may import.
INTERNAL = {
    "_core": {"_core"},
    "_solvers": {"_core", "_solvers"},
    "_validation": {"_validation", "exceptions"},
    "exceptions": {"_validation", "exceptions"},
    "base": {"base", "_validation", "exceptions", "_dask"},
    "inference": {"inference", "_core", "exceptions"},
    "_dask": {"_dask", "_core", "_validation", "exceptions"},
}


@dataclass(frozen=True)
class Import:
    """One imported module (and, for ``from`` imports, one imported name)."""

    module: str
    name: str | None
    lineno: int
    in_function: bool


@dataclass(frozen=True)
class Violation:
    path: str
    lineno: int
    rule: str

    def __str__(self) -> str:
        return f"{self.path}:{self.lineno}: {self.rule}"


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _resolve_relative(module: str | None, level: int, current: str, is_package: bool) -> str:
    """Absolute module of ``from <level dots><module> import ...`` written in ``current``."""
    if level == 0:
        return module or ""
    package = current.split(".") if is_package else current.split(".")[:-1]
    if level - 1 > len(package) - 1:
        raise ValueError(f"relative import beyond the top-level package in {current}")
    base = package[: len(package) - (level - 1)]
    return ".".join([*base, module] if module else base)


class _ImportCollector(ast.NodeVisitor):
    def __init__(self, current: str, is_package: bool):
        self.current = current
        self.is_package = is_package
        self.depth = 0
        self.imports: list[Import] = []

    def _function(self, node):
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Import(self, node: ast.Import):
        for alias in node.names:
            self.imports.append(Import(alias.name, None, node.lineno, self.depth > 0))

    def visit_ImportFrom(self, node: ast.ImportFrom):
        module = _resolve_relative(node.module, node.level, self.current, self.is_package)
        for alias in node.names:
            name = alias.name
            if module == PACKAGE and name != "*" and not name.startswith("__"):
                # ``from statlearning import tree`` / ``from .. import datasets``: a subpackage
                self.imports.append(Import(f"{module}.{name}", None, node.lineno, self.depth > 0))
            elif module == "sklearn" and name not in SKLEARN_ROOT_NAMES and name != "*":
                self.imports.append(Import(f"sklearn.{name}", None, node.lineno, self.depth > 0))
            else:
                self.imports.append(Import(module, name, node.lineno, self.depth > 0))

    def visit_Call(self, node: ast.Call):
        func = node.func
        dynamic = (
            isinstance(func, ast.Attribute)
            and func.attr == "import_module"
            and isinstance(func.value, ast.Name)
            and func.value.id == "importlib"
        ) or (isinstance(func, ast.Name) and func.id in ("import_module", "__import__"))
        if dynamic and node.args and isinstance(node.args[0], ast.Constant):
            target = node.args[0].value
            if isinstance(target, str) and not target.startswith("."):
                self.imports.append(Import(target, None, node.lineno, self.depth > 0))
        self.generic_visit(node)


def collect_imports(source: str, module: str, is_package: bool = False) -> list[Import]:
    """Every import in ``source`` (the code of ``module``), with absolute module paths."""
    collector = _ImportCollector(module, is_package)
    collector.visit(ast.parse(source))
    return collector.imports


def layer_of(module: str) -> str | None:
    """``"_core"`` for ``statlearning._core.linalg``; ``None`` for the root package."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def _global_violations(imp: Import) -> list[str]:
    top = imp.module.split(".")[0]
    rules = []
    if top in FORBIDDEN_PACKAGES:
        rules.append(f"imports {imp.module}: {top} is a reference oracle, never used in src")
    if top != "sklearn":
        return rules
    parts = imp.module.split(".")
    if any(_is_private(p) for p in parts):
        rules.append(f"imports private scikit-learn module {imp.module}")
    elif len(parts) > 1 and parts[1] in SKLEARN_ESTIMATOR_MODULES:
        rules.append(f"imports scikit-learn estimator module {imp.module}")
    elif imp.module not in ALLOWED_SKLEARN_MODULES:
        rules.append(f"imports scikit-learn module {imp.module}, not in ALLOWED_SKLEARN_MODULES")
    if imp.name is not None and _is_private(imp.name):
        rules.append(f"imports private scikit-learn name {imp.name} from {imp.module}")
    return rules


def _layer_violations(imp: Import, layer: str, estimator_packages: set[str]) -> list[str]:
    top = imp.module.split(".")[0]
    if top != PACKAGE:
        allowed = THIRD_PARTY.get(layer)
        if allowed is None or top in STDLIB or top in allowed:
            return []
        if imp.in_function and top in LAZY_THIRD_PARTY.get(layer, set()):
            return []
        where = " at module level" if top in LAZY_THIRD_PARTY.get(layer, set()) else ""
        names = ", ".join(sorted(allowed))
        return [f"{layer} imports {imp.module}{where} (allowed: stdlib, {names})"]
    target = layer_of(imp.module)
    if layer in INTERNAL:
        if target not in INTERNAL[layer]:
            names = ", ".join(sorted(INTERNAL[layer]))
            return [f"{layer} imports {imp.module} (allowed: {names})"]
        return []
    if layer not in estimator_packages:  # other top-level modules: global rules only
        return []
    if target is None or target == layer or target in INFRASTRUCTURE:
        return []
    if (layer, target) in ALLOWED_PRIVATE:
        return []
    parts = imp.module.split(".")[1:]
    private = [p for p in parts if _is_private(p)]
    if imp.name is not None and _is_private(imp.name):
        private.append(imp.name)
    if private:
        return [
            f"{layer} imports private {'.'.join(private)} of {PACKAGE}.{target} "
            f"({imp.module}); use the public names of {PACKAGE}.{target}"
        ]
    return []


def check_source(
    source: str,
    module: str,
    *,
    is_package: bool = False,
    path: str = "<string>",
    estimator_packages: set[str] | None = None,
) -> list[Violation]:
    """The layering violations in ``source``, the code of ``module``."""
    if estimator_packages is None:
        estimator_packages = find_estimator_packages()
    layer = layer_of(module) or ""
    found = []
    for imp in collect_imports(source, module, is_package):
        for rule in _global_violations(imp) + _layer_violations(imp, layer, estimator_packages):
            found.append(Violation(path, imp.lineno, rule))
    return found


def find_estimator_packages() -> set[str]:
    """Every subpackage directory of ``statlearning`` that is not an infrastructure layer."""
    return {
        d.name
        for d in PACKAGE_DIR.iterdir()
        if d.is_dir()
        and not d.name.startswith(".")
        and d.name != "__pycache__"
        and d.name not in INFRASTRUCTURE
        and any(d.rglob("*.py"))
    }


def _module_name(path: Path) -> tuple[str, bool]:
    rel = path.relative_to(SRC).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


SOURCE_FILES = sorted(p for p in PACKAGE_DIR.rglob("*.py") if "__pycache__" not in p.parts)


def test_source_tree_is_found():
    rel = {p.relative_to(PACKAGE_DIR).as_posix() for p in SOURCE_FILES}
    assert {"_core/linalg.py", "base.py", "linear_model/__init__.py"} <= rel
    packages = find_estimator_packages()
    assert "linear_model" in packages
    assert not packages & INFRASTRUCTURE


@pytest.mark.parametrize(
    "path", SOURCE_FILES, ids=[p.relative_to(PACKAGE_DIR).as_posix() for p in SOURCE_FILES]
)
def test_module_respects_layering(path):
    module, is_package = _module_name(path)
    violations = check_source(
        path.read_text(encoding="utf-8"),
        module,
        is_package=is_package,
        path=str(path.relative_to(SRC.parent)),
    )
    assert not violations, "forbidden imports:\n" + "\n".join(map(str, violations))


# --- the checker itself -------------------------------------------------------------------------

ESTIMATORS = {"linear_model", "tree", "ensemble", "cli", "datasets"}
PACKAGES = {"statlearning.linear_model", "statlearning.inference", "statlearning.ensemble"}

BAD_SOURCES = [
    pytest.param(
        "import sklearn\n", "statlearning._core.linalg", "_core imports sklearn", id="core-sklearn"
    ),
    pytest.param(
        "from sklearn.utils._param_validation import Interval\n",
        "statlearning.linear_model._ridge",
        "private scikit-learn module sklearn.utils._param_validation",
        id="sklearn-private-module",
    ),
    pytest.param(
        "from sklearn.utils import _safe_indexing\n",
        "statlearning.linear_model._ridge",
        "private scikit-learn name _safe_indexing",
        id="sklearn-private-name",
    ),
    pytest.param(
        "from sklearn.linear_model import Ridge\n",
        "statlearning.linear_model._ridge",
        "scikit-learn estimator module sklearn.linear_model",
        id="sklearn-estimator",
    ),
    pytest.param(
        "from sklearn import tree\n",
        "statlearning.linear_model._ridge",
        "scikit-learn estimator module sklearn.tree",
        id="sklearn-estimator-from-root",
    ),
    pytest.param(
        "def f():\n    import sklearn.svm\n",
        "statlearning.cli._compare",
        "scikit-learn estimator module sklearn.svm",
        id="sklearn-estimator-in-function",
    ),
    pytest.param(
        "import statsmodels.api as sm\n",
        "statlearning.linear_model._glm",
        "statsmodels is a reference oracle",
        id="statsmodels",
    ),
    pytest.param(
        "from pygam import LinearGAM\n",
        "statlearning.additive._gam",
        "pygam is a reference oracle",
        id="pygam",
    ),
    pytest.param(
        "from ..tree._splitter import f\n",
        "statlearning.linear_model._ridge",
        "linear_model imports private _splitter of statlearning.tree",
        id="relative-private",
    ),
    pytest.param(
        "from statlearning.tree import _splitter\n",
        "statlearning.linear_model._ridge",
        "linear_model imports private _splitter of statlearning.tree",
        id="private-submodule-by-name",
    ),
    pytest.param(
        "import statlearning.tree._splitter\n",
        "statlearning.linear_model",
        "linear_model imports private _splitter of statlearning.tree",
        id="absolute-private",
    ),
    pytest.param(
        "from ..linear_model import LinearRegression\n",
        "statlearning._core.linalg",
        "_core imports statlearning.linear_model",
        id="core-up",
    ),
    pytest.param(
        "from .. import base\n",
        "statlearning._solvers.gd",
        "_solvers imports statlearning.base",
        id="solvers-base",
    ),
    pytest.param(
        "from .._validation import Interval\n",
        "statlearning.inference._tables",
        "inference imports statlearning._validation",
        id="inference-validation",
    ),
    pytest.param(
        "import pandas as pd\n",
        "statlearning.inference._tables",
        "inference imports pandas at module level",
        id="inference-pandas-top",
    ),
    pytest.param(
        "from .linear_model import LinearRegression\n",
        "statlearning.base",
        "base imports statlearning.linear_model",
        id="base-up",
    ),
    pytest.param(
        "from . import base\n",
        "statlearning._validation",
        "_validation imports statlearning.base",
        id="validation-base",
    ),
    pytest.param(
        "import pandas\n", "statlearning._core.splines", "_core imports pandas", id="core-pandas"
    ),
    pytest.param(
        "import importlib\nimportlib.import_module('sklearn.ensemble')\n",
        "statlearning.cli._compare",
        "scikit-learn estimator module sklearn.ensemble",
        id="dynamic-import",
    ),
    pytest.param(
        "from .._utils import helper\n",
        "statlearning.linear_model._ridge",
        "linear_model imports private _utils",
        id="unlisted-private-top-level",
    ),
    pytest.param(
        "from sklearn.utils.multiclass import type_of_target\n",
        "statlearning.linear_model._logistic",
        "not in ALLOWED_SKLEARN_MODULES",
        id="sklearn-unlisted-module",
    ),
]


@pytest.mark.parametrize(("source", "module", "expected"), BAD_SOURCES)
def test_checker_reports_forbidden_import(source, module, expected):
    is_package = module in PACKAGES
    violations = check_source(
        source, module, is_package=is_package, path="fake.py", estimator_packages=ESTIMATORS
    )
    assert violations, f"{source!r} in {module} was not reported"
    assert any(expected in v.rule for v in violations), [str(v) for v in violations]
    assert all(str(v).startswith("fake.py:") for v in violations)


def test_checker_reports_file_and_line():
    source = "import numpy as np\n\n\nfrom sklearn.svm import SVC\n"
    (violation,) = check_source(
        source, "statlearning.svm._classes", path="src/x.py", estimator_packages=ESTIMATORS
    )
    assert str(violation).startswith("src/x.py:4: ")


CLEAN_SOURCE = """
from __future__ import annotations
import math
import numpy as np
from scipy import linalg
from sklearn.base import BaseEstimator
from sklearn.utils import Bunch, check_random_state
from sklearn.utils.validation import validate_data
from sklearn.model_selection import KFold
from sklearn import clone
from .._core.linalg import qr_least_squares
from .._solvers.gradient_descent import gradient_descent
from .._validation import Interval
from ..base import StatBase
from ..exceptions import ConvergenceWarning
from ..inference import CoefTable
from ..inference._format import format_real
from .._registry import register_model
from ..tree import DecisionTreeRegressor
from statlearning.tree.export import export_text
from .. import datasets, __version__
from . import _helpers
from ._helpers import _private_helper
import statlearning.linear_model._ridge
"""


def test_checker_accepts_clean_estimator_module():
    violations = check_source(
        CLEAN_SOURCE, "statlearning.linear_model._ridge", estimator_packages=ESTIMATORS
    )
    assert violations == []


@pytest.mark.parametrize(
    ("source", "module"),
    [
        ("from ..tree._splitter import best_split\n", "statlearning.ensemble._forest"),
        ("from ._core.linalg import gram\nfrom . import exceptions\n", "statlearning.inference"),
        ("def to_frame():\n    import pandas as pd\n", "statlearning.inference._tables"),
        ("from .linalg import gram\nimport numba\n", "statlearning._core.splines"),
        ("from .._core import linalg\nfrom ._result import R\n", "statlearning._solvers.cd"),
        ("from .exceptions import E\nimport sklearn.utils\n", "statlearning._validation"),
        ("from ._validation import v\nfrom .exceptions import E\n", "statlearning.base"),
    ],
    ids=[
        "ensemble-tree",
        "inference",
        "inference-lazy-pandas",
        "core",
        "solvers",
        "validation",
        "base",
    ],
)
def test_checker_accepts_allowed_edges(source, module):
    is_package = module in PACKAGES
    assert check_source(source, module, is_package=is_package, estimator_packages=ESTIMATORS) == []


@pytest.mark.parametrize(
    ("source", "module", "is_package", "expected"),
    [
        ("from . import x", "statlearning.linear_model", True, ("statlearning.linear_model", "x")),
        (
            "from . import x",
            "statlearning.linear_model._ols",
            False,
            ("statlearning.linear_model", "x"),
        ),
        (
            "from .._core.linalg import g",
            "statlearning.linear_model._ols",
            False,
            ("statlearning._core.linalg", "g"),
        ),
        ("from ..tree import T", "statlearning.ensemble", True, ("statlearning.tree", "T")),
        (
            "from .. import datasets",
            "statlearning.cli._data",
            False,
            ("statlearning.datasets", None),
        ),
        ("from ... import base", "statlearning.a.b.c", False, ("statlearning.base", None)),
        (
            "import sklearn.utils.validation",
            "statlearning.base",
            False,
            ("sklearn.utils.validation", None),
        ),
    ],
)
def test_relative_imports_are_resolved(source, module, is_package, expected):
    (imp,) = collect_imports(source, module, is_package)
    assert (imp.module, imp.name) == expected


def test_relative_import_beyond_the_package_is_an_error():
    with pytest.raises(ValueError, match="beyond the top-level package"):
        collect_imports("from .. import x", "statlearning.base")
