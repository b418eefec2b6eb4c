"""Sphinx configuration of the statlearning documentation.

Build: ``docs/build.sh`` (``python -m sphinx -W --keep-going -b html docs docs/_build/html``).
The gallery runs every ``docs/examples/plot_*.py``; ``STATLEARNING_DOCS_GALLERY`` narrows it to a
regular expression on the file names (CI builds the fast subset), and ``=none`` skips it.
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # apigen, guidegen

import apigen  # noqa: E402
import guidegen  # noqa: E402

import statlearning  # noqa: E402

apigen.write_api_sources()
guidegen.write_guide_stubs()

project = "statlearning"
author = "The statlearning developers"
copyright = "The statlearning developers"
release = statlearning.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "README.md", "examples", "Thumbs.db", ".DS_Store"]
root_doc = "index"

# autosummary writes one page per public object (api/generated/); the class template documents the
# methods statlearning defines (scikit-learn's inherited mixin methods are scikit-learn's).
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # the numpydoc sections carry the types
autodoc_inherit_docstrings = False

# numpydoc: the class pages list members themselves (autosummary template), so numpydoc's own
# member tables (which would ask for a stub page per method) are off. Parameter types are prose
# ("array-like of shape (n_samples, n_features)"), not cross-reference targets.
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_attributes_as_param_list = True

# The gallery: every example runs at build time on the bundled data (no network).
_pattern = os.environ.get("STATLEARNING_DOCS_GALLERY", "")
sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_" if not _pattern or _pattern == "none" else _pattern,
    "plot_gallery": "False" if _pattern == "none" else "True",
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
    "doc_module": ("statlearning",),
    "backreferences_dir": "api/generated/backreferences",
    "reference_url": {"statlearning": None},
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "min_reported_time": 1,
}

# Examples print numbers; warnings they raise on purpose are part of the text, others fail.
warnings.filterwarnings("ignore", category=UserWarning, message="Matplotlib is currently using agg")

html_theme = "pydata_sphinx_theme"
html_title = f"statlearning {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 6,
}
html_static_path: list[str] = []
html_show_sourcelink = False


def _skip_member(app, what, name, obj, skip, options):
    # scikit-learn attaches ``set_fit_request``-style methods (metadata routing) to every
    # estimator class; they are scikit-learn's, documented there, and their docstrings cite
    # scikit-learn's glossary, which this site does not have.
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


# Shapes such as ``(n_samples, n_components_)`` name fitted attributes, scikit-learn style; in
# reStructuredText a word ending in "_" is a hyperlink reference, so each docstring would need
# every such word quoted. The docstrings are written for ``help()`` as much as for the site, so
# the escape is added here, outside literals, roles and maths.
_LITERAL = re.compile(r"(``.+?``|:\w+:`[^`]+`|`[^`]+`)", re.DOTALL)
_TRAILING_UNDERSCORE = re.compile(r"(?<![\\\w`|])([A-Za-z][A-Za-z0-9_]*)_(?=$|[\s,.;:)\]}])")


def _escape_line(line):
    if line.lstrip().startswith((">>>", "...", ".. ")):
        return line
    return _TRAILING_UNDERSCORE.sub(r"\1\\_", line)


def _escape_trailing_underscores(app, what, name, obj, options, lines):
    # Literals may run over a line break, so the docstring is split as one text.
    parts = _LITERAL.split("\n".join(lines))
    for j in range(0, len(parts), 2):  # even parts are outside literals
        parts[j] = "\n".join(_escape_line(line) for line in parts[j].split("\n"))
    lines[:] = "".join(parts).split("\n")


# statlearning.base re-exports scikit-learn's mixins; their docstrings cite scikit-learn's own
# glossary and labels, so their pages point to scikit-learn instead of repeating them.
def _foreign_docstring(app, what, name, obj, options, lines):
    module = getattr(obj, "__module__", "") or ""
    if module.startswith("sklearn"):
        lines[:] = [
            f"scikit-learn's ``{module}.{getattr(obj, '__qualname__', name)}``, re-exported here;",
            "see scikit-learn's documentation.",
        ]


def setup(app):
    app.connect("autodoc-process-docstring", _foreign_docstring)
    app.connect("autodoc-skip-member", _skip_member)
    app.connect("autodoc-process-docstring", _escape_trailing_underscores)
