"""Benchmark workloads of the support-vector machines (loaded by ``workloads.py``).

``SVC(kernel="rbf")`` fitted on 10,000 × 20 and 30,000 × 20 ``make_classification`` data, and
``SVR(kernel="rbf")`` on 10,000 × 10, against scikit-learn's ``SVC``/``SVR`` (libsvm) with the
same defaults (``C=1``, ``gamma="scale"``, ``tol=1e-3``, ``cache_size=200``, shrinking). Both
stop at the same KKT tolerance, so their decision values agree to about ``tol``; the runner
compares the decision values (classification) or predictions (regression) on the first 10,000
training rows, which is also what ``predict`` is timed on.
"""

from __future__ import annotations

import numpy as np

from workloads import Adapter, Workload

__all__ = ["WORKLOADS"]

N_PREDICT = 10_000


def classification(rng: np.random.Generator, n_samples: int, n_features: int):
    """``sklearn.datasets.make_classification`` (two classes, 1 % flipped labels)."""
    from sklearn.datasets import make_classification

    seed = int(rng.integers(2**31 - 1))
    X, y = make_classification(n_samples, n_features, random_state=seed)
    return X, y.astype(np.float64)


def regression(rng: np.random.Generator, n_samples: int, n_features: int):
    """Gaussian ``X`` and ``y = sin(x₁) + x₂²/2 + x₃ + ε``, ``ε ~ N(0, 0.3²)``."""
    X = rng.standard_normal((n_samples, n_features))
    y = np.sin(X[:, 0]) + 0.5 * X[:, 1] ** 2 + X[:, 2] + 0.3 * rng.standard_normal(n_samples)
    return X, y


class _SVMAdapter:
    """An SVM of ``library``; ``predict`` returns the decision values (SVC) or predictions
    (SVR) of the first 10,000 rows."""

    def __init__(self, library: str, kind: str, **params):
        self.library, self.kind, self.params = library, kind, params
        args = ", ".join(f"{k}={v!r}" for k, v in params.items())
        method = "decision_function" if kind == "SVC" else "predict"
        self.label = f"{library} {kind}({args}).{method}(X[:{N_PREDICT:,}])"

    def fit(self, X, y) -> Adapter:
        if self.library == "statlearning":
            import statlearning.svm as module
        else:
            import sklearn.svm as module
        self.estimator_ = getattr(module, self.kind)(**self.params).fit(X, y)
        return self

    def predict(self, X):
        if self.kind == "SVC":
            return self.estimator_.decision_function(X[:N_PREDICT])
        return self.estimator_.predict(X[:N_PREDICT])


WORKLOADS: list[Workload] = [
    *[
        Workload(
            name=f"svc_rbf_{n // 1000}k_x20",
            description=f"SVC(rbf), C=1, gamma='scale', tol=1e-3: fit {n:,} x 20 "
            "(make_classification), decision values of 10,000 rows; vs scikit-learn (libsvm)",
            n_samples=n,
            n_features=20,
            ours=lambda: _SVMAdapter("statlearning", "SVC", kernel="rbf"),
            peer=lambda: _SVMAdapter("sklearn", "SVC", kernel="rbf"),
            data=classification,
            rtol=1e-2,
        )
        for n in (10_000, 30_000)
    ],
    Workload(
        name="svr_rbf_10k_x10",
        description="SVR(rbf), C=1, epsilon=0.1, gamma='scale', tol=1e-3: fit 10,000 x 10, "
        "predict 10,000 rows; vs scikit-learn (libsvm)",
        n_samples=10_000,
        n_features=10,
        ours=lambda: _SVMAdapter("statlearning", "SVR", kernel="rbf"),
        peer=lambda: _SVMAdapter("sklearn", "SVR", kernel="rbf"),
        data=regression,
        rtol=1e-2,
    ),
]
