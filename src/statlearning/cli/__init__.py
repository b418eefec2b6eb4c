"""The ``statlearning`` command line: ``compare``, ``fit`` and ``models``.

Run it as ``statlearning``, ``python -m statlearning`` or ``python -m statlearning.cli``;
``statlearning --help`` lists the commands.
"""

from ._main import main

__all__ = ["main"]
