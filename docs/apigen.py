"""Write the API reference sources from the public modules' ``__all__``.

Every module of :mod:`statlearning` whose name does not start with an underscore is public; its
``__all__`` lists its public objects. Each module gets one page, ``api/<module>.rst``, whose
autosummary table gives every listed object a page of its own (``api/generated/``). A module added
to the package (a new family) joins the reference at the next build with no edit here.

Run by ``conf.py`` at the start of every build; ``python docs/apigen.py`` writes the sources
without building.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Optional extras: a module that cannot be imported without one is still listed (its page says
# which extra it needs) so that the reference never silently loses a family.
EXTRAS = {"plot": "plot", "formula": "formula"}


def public_modules() -> list[str]:
    """Names of the public modules of statlearning (``statlearning.<name>``), sorted."""
    import statlearning

    return sorted(
        info.name
        for info in pkgutil.iter_modules(statlearning.__path__)
        if not info.name.startswith("_")
    )


def module_all(name: str) -> list[str]:
    """The ``__all__`` of ``statlearning.<name>``."""
    module = importlib.import_module(f"statlearning.{name}")
    return list(getattr(module, "__all__", []))


def heading(text: str, char: str = "=") -> str:
    """A reStructuredText section title."""
    return f"{text}\n{char * len(text)}\n"


def module_page(name: str) -> str:
    """The reStructuredText of one module's reference page."""
    full = f"statlearning.{name}"
    lines = [
        f".. _api-{name}:",
        "",
        heading(f":mod:`{full}`"),
        f".. automodule:: {full}",
        "   :no-members:",
        "",
        f".. currentmodule:: {full}",
        "",
    ]
    if name in EXTRAS:
        lines += [
            ".. note::",
            f"   Needs the ``{EXTRAS[name]}`` extra:",
            f'   ``pip install "statlearning[{EXTRAS[name]}]"``.',
            "",
        ]
    names = module_all(name)
    if names:
        lines += [".. autosummary::", "   :toctree: generated/", "   :nosignatures:", ""]
        lines += [f"   {obj}" for obj in names]
        lines.append("")
    return "\n".join(lines)


def index_page(names: list[str]) -> str:
    lines = [
        ".. _api:",
        "",
        heading("API reference"),
        "One page per public module, generated from its ``__all__``; every public object has a",
        "page of its own with its numpydoc docstring (parameters, attributes, the objective in",
        "the Notes, and a runnable example).",
        "",
        ".. toctree::",
        "   :maxdepth: 1",
        "",
    ]
    lines += [f"   {name}" for name in names]
    lines.append("")
    return "\n".join(lines)


def api_sources() -> dict[str, str]:
    """File name (relative to ``docs/api``) → text, for every public module and the index."""
    names = public_modules()
    sources = {f"{name}.rst": module_page(name) for name in names}
    sources["index.rst"] = index_page(names)
    return sources


def write_sources(directory: Path, sources: dict[str, str]) -> list[Path]:
    """Write ``sources`` (file name → text) into ``directory``, rewriting only what changed.

    Pages in ``directory`` that are not in ``sources`` (a module or family that no longer exists,
    or a build of another checkout) are removed.
    """
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for filename, text in sources.items():
        path = directory / filename
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            written.append(path)
    for path in directory.glob("*.rst"):
        if path.name not in sources:
            path.unlink()
    return written


def write_api_sources(directory: Path | None = None) -> list[Path]:
    """Write the API sources into ``directory`` (``docs/api``)."""
    directory = HERE / "api" if directory is None else Path(directory)
    written = write_sources(directory, api_sources())
    objects = {
        f"statlearning.{module}.{name}.rst"
        for module in public_modules()
        for name in module_all(module)
    }
    for path in (directory / "generated").glob("statlearning.*.rst"):  # objects now gone
        if path.name not in objects:
            path.unlink()
    return written


if __name__ == "__main__":
    for path in write_api_sources():
        print(path)
