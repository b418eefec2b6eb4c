#!/usr/bin/env bash
# Build the documentation site into docs/_build/html, warnings as errors.
#
#   docs/build.sh                                   # everything, the whole gallery
#   STATLEARNING_DOCS_GALLERY='/plot_(gapminder|biopsy)' docs/build.sh   # a subset of the gallery
#   STATLEARNING_DOCS_GALLERY=none docs/build.sh    # no gallery (API and guide only)
#
# Needs the docs extra: pip install -e ".[docs]". Extra arguments go to sphinx-build.
set -euo pipefail
cd "$(dirname "$0")/.."
export MPLBACKEND=Agg
exec python -m sphinx -W --keep-going -b html "$@" docs docs/_build/html
