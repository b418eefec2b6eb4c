"""Support vector machines: SVC, NuSVC, SVR and NuSVR, solved by our own SMO.

The dual problems are solved by :mod:`statlearning._solvers.smo` (Fan–Chen–Lin second-order
working-set selection, shrinking, an LRU kernel-column cache); the kernels are scikit-learn's
names with ``gamma``, ``degree`` and ``coef0``, a kernel object, or a callable.
"""

from ._classes import SVC, NuSVC
from ._regression import SVR, NuSVR

__all__ = ["SVC", "SVR", "NuSVC", "NuSVR"]
