"""statlearning: the statistical-learning canon, scikit-learn compatible, with R-grade inference.

Subpackages are imported lazily by the user (``from statlearning.linear_model import
LinearRegression``); importing :mod:`statlearning` itself stays cheap.
"""

__version__ = "0.1.0.dev0"

__all__ = [
    "__version__",
    "base",
    "cli",
    "cluster",
    "datasets",
    "decomposition",
    "discriminant_analysis",
    "ensemble",
    "exceptions",
    "feature_selection",
    "inference",
    "kernel_methods",
    "kernels",
    "linear_model",
    "metrics",
    "mixture",
    "model_selection",
    "naive_bayes",
    "neighbors",
    "plot",
    "svm",
    "tree",
]
