"""Every public object's docstring passes numpydoc's validation (a chosen set of its checks).

The public objects are discovered from each public subpackage's ``__all__`` (so a new estimator is
covered the day it lands), together with the public methods and properties its classes define in
statlearning (methods inherited from scikit-learn's mixins are scikit-learn's business).
"""

import importlib
import inspect
import pkgutil

import pytest

import statlearning

numpydoc_validate = pytest.importorskip("numpydoc.validate")

# The checks enforced. Left out on purpose: SA01 (See Also everywhere), EX01 (Examples on every
# method), ES01 (an extended summary for one-line methods), PR07/PR04/RT03 (descriptions and types
# repeated on every ``X``), PR08/PR09 (capitalisation and full stops inside descriptions), SS05
# (infinitive verbs), GL01/GL02 (blank-line placement), RT02.
CHECKS = {
    "GL06",  # unknown section
    "GL07",  # sections in the wrong order
    "GL08",  # no docstring
    "PR01",  # a parameter is not documented
    "PR02",  # a documented parameter does not exist
    "PR03",  # parameters documented in another order
    "PR06",  # types spelled "integer"/"boolean"/"string"
    "PR10",  # "x: int" without a space before the colon
    "RT01",  # no Returns section on a function that returns
    "SS01",  # no summary
    "SS02",  # summary does not start with a capital letter
    "SS03",  # summary does not end with a full stop
    "SS06",  # summary over more than one line
    "YD01",  # a generator without a Yields section
    "SA04",  # a See Also entry without a description
}

# Subpackages that are plumbing, not library API.
NOT_API = {"cli"}


def _public_names():
    names = set()
    for info in pkgutil.iter_modules(statlearning.__path__):
        if info.name.startswith("_") or info.name in NOT_API:
            continue
        try:
            module = importlib.import_module(f"statlearning.{info.name}")
        except ImportError:  # an optional extra (matplotlib for statlearning.plot)
            continue
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if not getattr(obj, "__module__", "").startswith("statlearning"):
                continue
            qualname = f"{obj.__module__}.{obj.__qualname__}"
            names.add(qualname)
            if not inspect.isclass(obj):
                continue
            for klass in obj.__mro__:
                if not klass.__module__.startswith("statlearning"):
                    continue
                for attr, member in vars(klass).items():
                    if attr.startswith("_"):
                        continue
                    if inspect.isfunction(member) or isinstance(member, property):
                        names.add(f"{klass.__module__}.{klass.__qualname__}.{attr}")
    return sorted(names)


PUBLIC = _public_names()


def test_public_objects_are_found():
    assert len(PUBLIC) > 200
    assert "statlearning.linear_model._least_squares.LinearRegression.fit" in PUBLIC


@pytest.mark.parametrize("name", PUBLIC)
def test_docstring(name):
    errors = [
        f"{code}: {message}"
        for code, message in numpydoc_validate.validate(name)["errors"]
        if code in CHECKS
    ]
    assert not errors, f"{name}:\n" + "\n".join(errors)
