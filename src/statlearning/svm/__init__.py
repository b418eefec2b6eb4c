"""Support vector machines: SVC, NuSVC and SVR, solved by our own SMO.

The dual problems are solved by :mod:`statlearning._solvers.smo` (Fan–Chen–Lin second-order
working-set selection, shrinking, an LRU kernel-column cache); the kernels are scikit-learn's
names with ``gamma``, ``degree`` and ``coef0``, or a callable.
"""

from ._classes import SVC, SVR, NuSVC

__all__ = ["SVC", "SVR", "NuSVC"]
