"""Benchmark workloads of the boosting family (loaded by ``workloads.py``).

``GradientBoostingRegressor(n_estimators=100, max_depth=3, learning_rate=0.1)`` with the
squared error and ``subsample=1`` in both libraries, fitted on 50,000 × 20 rows of the dense
Gaussian linear-signal data (``linear_gaussian``) and predicting 100,000 held-out rows.
scikit-learn's trees read ``X`` as float32, so the features are rounded to float32 (and kept as
float64): both libraries then see the same numbers and grow the same trees, so the training
predictions agree to about 1e-14. A depth-3 tree can still reach a node of a few rows where
splits on different features give the same partition of the training rows (an exact tie,
broken by the earlier feature here and by scikit-learn's random feature order there); such a
split sends held-out rows differently, so the held-out check is loose (``rtol=0.1`` of sd(y))
and the held-out R² of the two must agree within ``score_tol``. Each stage's tree is grown by
one call of the tree grower; the training predictions are updated by one leaf lookup of the
new tree.
"""

from __future__ import annotations

import numpy as np

from workloads import Adapter, Workload, linear_gaussian

__all__ = ["WORKLOADS"]

_GB_PARAMS = {"n_estimators": 100, "max_depth": 3, "learning_rate": 0.1}


def linear_gaussian_float32(
    rng: np.random.Generator, n_samples: int, n_features: int
) -> tuple[np.ndarray, np.ndarray]:
    """``linear_gaussian`` with ``X`` rounded to float32 values (stored as float64)."""
    X, y = linear_gaussian(rng, n_samples, n_features)
    return X.astype(np.float32).astype(np.float64), y


def _r2(y, y_hat) -> float:
    return 1.0 - float(np.sum((y - y_hat) ** 2) / np.sum((y - np.mean(y)) ** 2))


class _GBAdapter:
    """``<library> GradientBoostingRegressor(**params)``: fit, then predict."""

    def __init__(self, library: str, **params):
        self.library, self.params = library, params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"{library} GradientBoostingRegressor({args})"

    def fit(self, X, y) -> Adapter:
        if self.library == "statlearning":
            from statlearning.ensemble._gradient_boosting import GradientBoostingRegressor
        else:
            from sklearn.ensemble import GradientBoostingRegressor
        self.estimator_ = GradientBoostingRegressor(**self.params).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict(X)


def classification_float32(
    rng: np.random.Generator, n_samples: int, n_features: int
) -> tuple[np.ndarray, np.ndarray]:
    """``make_classification`` (10 informative features, labels 0/1), ``X`` rounded to float32
    values (stored as float64), so that both libraries grow the same trees."""
    from sklearn.datasets import make_classification

    X, y = make_classification(n_samples=n_samples, n_features=n_features, n_informative=10,
                               n_redundant=0, random_state=int(rng.integers(2**31 - 1)))
    return X.astype(np.float32).astype(np.float64), y


def _accuracy(y, pred) -> float:
    return float(np.mean(np.asarray(y) == np.asarray(pred)))


class _BoostClassifierAdapter:
    """``<library> <name>(**params)``: fit, then predict labels."""

    def __init__(self, library: str, name: str, **params):
        self.library, self.name, self.params = library, name, params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        self.label = f"{library} {name}({args})"

    def fit(self, X, y) -> Adapter:
        if self.library == "statlearning":
            import statlearning.ensemble as module
        else:
            import sklearn.ensemble as module
        self.estimator_ = getattr(module, self.name)(**self.params).fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict(X)


_ADA = {"n_estimators": 100}
_GBC = {"n_estimators": 80, "max_depth": 3}

WORKLOADS: list[Workload] = [
    Workload(
        name="adaboost_stumps_predict_120k",
        description="AdaBoostClassifier(n_estimators=100) (SAMME, stumps) fitted on 20,000 × 20 "
        "(make_classification, float32 values), predict on 120,000 held-out rows; vs "
        "scikit-learn (the same stumps: identical labels)",
        n_samples=20_000,
        n_features=20,
        ours=lambda: _BoostClassifierAdapter("statlearning", "AdaBoostClassifier", **_ADA),
        peer=lambda: _BoostClassifierAdapter("sklearn", "AdaBoostClassifier", **_ADA),
        data=classification_float32,
        rtol=0.0,
        holdout=120_000,
        score=_accuracy,
        score_tol=0.0,
    ),
    Workload(
        name="gb_classifier_predict_120k",
        description="GradientBoostingClassifier(n_estimators=80, max_depth=3) fitted on "
        "20,000 × 20 (make_classification, float32 values), predict on 120,000 held-out "
        "rows; vs scikit-learn",
        n_samples=20_000,
        n_features=20,
        ours=lambda: _BoostClassifierAdapter("statlearning", "GradientBoostingClassifier", **_GBC),
        peer=lambda: _BoostClassifierAdapter("sklearn", "GradientBoostingClassifier", **_GBC),
        data=classification_float32,
        rtol=0.0,
        holdout=120_000,
        score=_accuracy,
        score_tol=0.001,
    ),
    Workload(
        name="gradient_boosting_regressor_50k_x20",
        description="GradientBoostingRegressor(n_estimators=100, max_depth=3, "
        "learning_rate=0.1, squared error), dense Gaussian 50,000 × 20 (float32 values); "
        "fit, predict on 100,000 held-out rows; vs scikit-learn",
        n_samples=50_000,
        n_features=20,
        ours=lambda: _GBAdapter("statlearning", **_GB_PARAMS),
        peer=lambda: _GBAdapter("sklearn", **_GB_PARAMS),
        data=linear_gaussian_float32,
        rtol=0.1,
        holdout=100_000,
        score=_r2,
    ),
]
