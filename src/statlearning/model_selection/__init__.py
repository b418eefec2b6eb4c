"""Model assessment and selection scikit-learn lacks: cross-validation estimates with standard
errors, the one-standard-error rule, nested CV, the bootstrap (pairs/residual, percentile /
normal / BCa intervals, .632 and .632+ error) and the jackknife. Splitters, ``GridSearchCV`` and
``cross_validate`` are scikit-learn's: use them from :mod:`sklearn.model_selection`."""

from ._bootstrap import BootstrapErrorResult, BootstrapResult, bootstrap, bootstrap_error
from ._cv import CVEstimate, NestedCVResult, cv_estimate, nested_cv, one_standard_error_rule
from ._jackknife import JackknifeResult, jackknife

__all__ = [
    "BootstrapErrorResult",
    "BootstrapResult",
    "CVEstimate",
    "JackknifeResult",
    "NestedCVResult",
    "bootstrap",
    "bootstrap_error",
    "cv_estimate",
    "jackknife",
    "nested_cv",
    "one_standard_error_rule",
]
