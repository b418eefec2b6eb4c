"""``python -m statlearning``: the command line (see :mod:`statlearning.cli`)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
