"""Safe model files: save a fitted estimator and load it without executing code.

Files are skops archives (:mod:`skops.io`): loading rebuilds objects from a description of
their types and attributes instead of unpickling, and refuses any type not trusted. Every class
of statlearning, and the NumPy, SciPy and scikit-learn types skops trusts itself (arrays,
``Pipeline``, ``StandardScaler``, ...), are trusted by default; anything else must be named by
the caller. The archive also records the library versions that wrote it.
"""

from ._model_files import load, model_metadata, save

__all__ = ["load", "model_metadata", "save"]
