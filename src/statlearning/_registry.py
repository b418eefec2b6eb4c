"""The model registry of the command line (``statlearning compare``, ``models``, ``fit``).

The models themselves are listed in one table, :data:`statlearning.cli._models.MODELS`; the
estimator families know nothing of the command line. :func:`load_families` imports every family
listed in :data:`FAMILIES` and registers its rows of the table (once), skipping a family whose
optional dependency is missing. :func:`register_model` adds a model by hand (tests, plug-ins).

Examples
--------
>>> from statlearning._registry import registered_models
>>> [spec.name for spec in registered_models(task="regression")]  # doctest: +SKIP
['linear_regression']
"""

from __future__ import annotations

import difflib
import functools
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "FAMILIES",
    "ROW_REQUIREMENTS",
    "TARGET_DOMAINS",
    "TASKS",
    "ModelSpec",
    "get_model",
    "load_families",
    "register_model",
    "registered_models",
]

#: Family subpackages imported by :func:`load_families`, whose rows of the command line's table
#: are then registered. A new family appends its subpackage name here.
FAMILIES = (
    "linear_model",
    "naive_bayes",
    "discriminant_analysis",
    "feature_selection",
    "decomposition",
    "cross_decomposition",
    "cluster",
    "mixture",
    "neighbors",
    "tree",
    "ensemble",
    "svm",
    "kernel_methods",
    "mars",
    "gam",
    "preprocessing",
    "smoothing",
    "neural_network",
)

#: The tasks a model can be registered for.
TASKS = ("regression", "classification")

#: Top-level packages the library depends on; a family that fails to import one of these is
#: broken, whereas a missing package outside this set is an optional dependency.
_REQUIRED_PACKAGES = frozenset({"statlearning", "numpy", "scipy", "sklearn", "numba", "pandas"})

#: What a model needs of the number of rows ``n`` of a training set with ``p`` features:
#: ``"any"`` (penalised or nonparametric fits), ``"rows"`` (an unpenalised fit of ``p``
#: coefficients and an intercept: ``n > p + 1``), ``"class_rows"`` (a covariance matrix per
#: class: every class has more than ``p`` rows) or ``"one_feature"`` (a smoother of a single
#: predictor: ``p = 1`` and at least four rows).
ROW_REQUIREMENTS = ("any", "rows", "class_rows", "one_feature")

#: What a model needs of a numeric target: anything, ``y > 0`` or ``y >= 0``.
TARGET_DOMAINS = ("any", "positive", "nonnegative")

_NAME_PATTERN = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")


@dataclass(frozen=True)
class ModelSpec:
    """A registered model: how to build it and what it is for.

    Parameters
    ----------
    name : str
        Name used on the command line, in snake case (``"linear_regression"``).
    factory : callable
        Called without arguments, returns a fresh unfitted estimator.
    task : {"regression", "classification"}
        The task the estimator solves.
    description : str
        One-line description.
    family : str
        The subpackage the estimator belongs to (``"linear_model"``).
    needs_scaling : bool, default=False
        Whether the features should be standardised before fitting; ``statlearning compare``
        then puts a :class:`~sklearn.preprocessing.StandardScaler` in front of the estimator.
    rows : {"any", "rows", "class_rows", "one_feature"}, default="any"
        What the fit needs of the training rows (:data:`ROW_REQUIREMENTS`); ``compare`` skips
        the model where the fit is undefined or degenerate (``p >= n``).
    target : {"any", "positive", "nonnegative"}, default="any"
        The responses the model is defined for (:data:`TARGET_DOMAINS`).
    cost : tuple of (float, float), default=(1.0, 1.0)
        Exponents ``(a, b)`` of the time of one fit and prediction, proportional to
        ``n**a * p**b``; ``compare`` extrapolates a timed fit on a subsample with them.
    binary_only : bool, default=False
        A classifier of two classes only (no one-vs-rest of its own); ``compare`` leaves it
        out, with a note, on data with more classes.
    """

    name: str
    factory: Callable[[], Any]
    task: str
    description: str
    family: str
    needs_scaling: bool = False
    rows: str = "any"
    target: str = "any"
    cost: tuple = (1.0, 1.0)
    binary_only: bool = False

    def defined_for(self, n_rows, n_features, class_counts=None, n_classes=None):
        """Whether the fit is defined on ``n_rows`` training rows of ``n_features`` features.

        Parameters
        ----------
        n_rows : int
            Rows of the training set.
        n_features : int
            Its features.
        class_counts : array-like of int, optional
            Rows per class (classification).
        n_classes : int, optional
            Number of classes of the target (classification): more than two rule out a
            ``binary_only`` model.

        Returns
        -------
        bool
        """
        if self.binary_only and n_classes is not None and n_classes > 2:
            return False
        if self.rows == "rows":
            return n_rows > n_features + 1
        if self.rows == "class_rows":
            smallest = n_rows if class_counts is None else min(class_counts)
            return smallest > n_features
        if self.rows == "one_feature":
            return n_features == 1 and n_rows >= 4
        return True

    def accepts_target(self, y_min):
        """Whether a numeric target whose smallest value is ``y_min`` is in the model's domain.

        Parameters
        ----------
        y_min : float
            The smallest response.

        Returns
        -------
        bool
        """
        if self.target == "positive":
            return y_min > 0
        if self.target == "nonnegative":
            return y_min >= 0
        return True


_MODELS: dict[str, ModelSpec] = {}

#: Families whose rows of the table are registered already.
_REGISTERED_FAMILIES: set[str] = set()


def _same_factory(a, b) -> bool:
    """Whether two factories are the same object or the same importable name (module reloads)."""
    if a is b:
        return True
    if isinstance(a, functools.partial) and isinstance(b, functools.partial):
        return _same_factory(a.func, b.func) and a.args == b.args and a.keywords == b.keywords
    key_a = (getattr(a, "__module__", None), getattr(a, "__qualname__", None))
    key_b = (getattr(b, "__module__", None), getattr(b, "__qualname__", None))
    return None not in key_a and key_a == key_b and "<" not in key_a[1]


def register_model(
    name,
    factory,
    *,
    task,
    description,
    family,
    needs_scaling=False,
    rows="any",
    target="any",
    cost=(1.0, 1.0),
    binary_only=False,
):
    """Register a model so that the command line and :func:`get_model` can find it.

    Registering the same name again with the same factory and family replaces the entry (so
    re-importing a family is harmless); registering a name already taken by another factory or
    family is an error.

    Parameters
    ----------
    name : str
        Snake-case name (lower-case letters, digits and single underscores, starting with a
        letter), e.g. ``"linear_regression"``.
    factory : callable
        Called without arguments, returns a fresh unfitted estimator (typically the class).
    task : {"regression", "classification"}
        The task the estimator solves.
    description : str
        One-line description.
    family : str
        Name of the family subpackage, e.g. ``"linear_model"``.
    needs_scaling : bool, default=False
        Whether the features should be standardised before fitting.
    rows : {"any", "rows", "class_rows", "one_feature"}, default="any"
        What the fit needs of the training rows (see :class:`ModelSpec`).
    target : {"any", "positive", "nonnegative"}, default="any"
        The responses the model is defined for.
    cost : tuple of (float, float), default=(1.0, 1.0)
        Exponents ``(a, b)``: one fit takes time proportional to ``n**a * p**b``.
    binary_only : bool, default=False
        A classifier of two classes only (see :class:`ModelSpec`); only for
        ``task="classification"``.

    Returns
    -------
    spec : ModelSpec
        The registered entry.

    Raises
    ------
    TypeError
        If ``factory`` is not callable or a text argument is not a string.
    ValueError
        If ``name`` is not snake case, ``task``, ``rows`` or ``target`` is not a known value,
        ``cost`` is not two non-negative numbers, ``description`` is empty or spans several
        lines, or ``name`` is already registered with another factory or family.
    """
    for arg, value in (("name", name), ("description", description), ("family", family)):
        if not isinstance(value, str):
            raise TypeError(f"{arg} must be a string; got {value!r}")
    if not _NAME_PATTERN.fullmatch(name):
        raise ValueError(f"model name must be snake case (e.g. 'linear_regression'); got {name!r}")
    if not callable(factory):
        raise TypeError(f"factory must be callable; got {factory!r}")
    if task not in TASKS:
        raise ValueError(f"task must be one of {', '.join(map(repr, TASKS))}; got {task!r}")
    description = description.strip()
    if not description or "\n" in description:
        raise ValueError(f"description must be a single non-empty line; got {description!r}")
    if not family:
        raise ValueError("family must be a non-empty string")
    if rows not in ROW_REQUIREMENTS:
        raise ValueError(
            f"rows must be one of {', '.join(map(repr, ROW_REQUIREMENTS))}; got {rows!r}"
        )
    if target not in TARGET_DOMAINS:
        raise ValueError(
            f"target must be one of {', '.join(map(repr, TARGET_DOMAINS))}; got {target!r}"
        )
    if binary_only and task != "classification":
        raise ValueError(
            f"binary_only applies to classification models; {name!r} is a {task} model"
        )
    try:
        cost = tuple(float(c) for c in cost)
    except (TypeError, ValueError):
        cost = ()
    if len(cost) != 2 or not all(0 <= c < 10 for c in cost):
        raise ValueError(f"cost must be two exponents (a, b) in [0, 10); got {cost!r}")
    spec = ModelSpec(
        name=name,
        factory=factory,
        task=task,
        description=description,
        family=family,
        needs_scaling=bool(needs_scaling),
        rows=rows,
        target=target,
        cost=cost,
        binary_only=bool(binary_only),
    )
    old = _MODELS.get(name)
    if old is not None and (old.family != family or not _same_factory(old.factory, factory)):
        raise ValueError(
            f"a model named {name!r} is already registered by family {old.family!r} "
            f"(factory {_describe(old.factory)}); choose another name"
        )
    _MODELS[name] = spec
    return spec


def _describe(factory) -> str:
    module = getattr(factory, "__module__", None)
    qualname = getattr(factory, "__qualname__", None)
    return f"{module}.{qualname}" if module and qualname else repr(factory)


def load_families() -> list[str]:
    """Import every family subpackage in :data:`FAMILIES` and register its models (once).

    A family that cannot be imported because an optional dependency (a package outside
    statlearning's required dependencies) is not installed is skipped silently; any other
    import error propagates.

    Returns
    -------
    loaded : list of str
        The families that were imported.
    """
    from .cli._models import register_family

    loaded = []
    for family in FAMILIES:
        try:
            importlib.import_module(f"statlearning.{family}")
        except ModuleNotFoundError as exc:
            missing = (exc.name or "").partition(".")[0]
            if not missing or missing in _REQUIRED_PACKAGES:
                raise
            continue
        if family not in _REGISTERED_FAMILIES:
            register_family(family)
            _REGISTERED_FAMILIES.add(family)
        loaded.append(family)
    return loaded


def registered_models(task=None) -> list[ModelSpec]:
    """Return the registered models, sorted by name, after loading every family.

    Parameters
    ----------
    task : {"regression", "classification"}, optional
        Keep only the models for this task.

    Returns
    -------
    specs : list of ModelSpec
    """
    if task is not None and task not in TASKS:
        raise ValueError(f"task must be one of {', '.join(map(repr, TASKS))}; got {task!r}")
    load_families()
    return sorted(
        (spec for spec in _MODELS.values() if task is None or spec.task == task),
        key=lambda spec: spec.name,
    )


def get_model(name) -> ModelSpec:
    """Return the registered model called ``name``, after loading every family.

    Parameters
    ----------
    name : str
        A registered model name.

    Returns
    -------
    spec : ModelSpec

    Raises
    ------
    ValueError
        If no model is registered under ``name``; the message suggests the closest names and
        lists the known ones.
    """
    load_families()
    spec = _MODELS.get(name)
    if spec is not None:
        return spec
    known = sorted(_MODELS)
    hint = ""
    if isinstance(name, str):
        close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
        if close:
            hint = f"; did you mean {' or '.join(map(repr, close))}?"
    listing = ", ".join(known) if known else "none registered"
    raise ValueError(f"unknown model {name!r}{hint} (known models: {listing})")
