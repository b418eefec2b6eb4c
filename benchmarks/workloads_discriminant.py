"""Benchmark workloads of the discriminant-analysis and naive Bayes families.

Each classifier is fitted on 1,000,000 × 50 Gaussian data in 5 classes (400 MB). ``predict``
in these workloads is ``predict_proba`` on both sides, so that the accuracy check compares
posterior probabilities, not labels (a single label flipped at a class boundary would say
nothing about accuracy).

Accuracy tolerances (``max |p_ours − p_peer| / sd(y)``, ``sd(y) ≈ 1.4``):

* Gaussian naive Bayes: the conventions coincide (``ddof=0``, the same ``var_smoothing``), so
  the posteriors agree to rounding: ``1e-8``.
* LDA: we follow MASS and divide the pooled covariance by ``n − K``; scikit-learn 1.9 divides
  by ``n``. At ``n = 10⁶`` (``10⁵`` for ``--quick``) the covariances differ by a factor
  ``1 + K/n ≈ 5·10⁻⁶`` (``5·10⁻⁵``), which moves a discriminant of size ``|δ|`` by about
  ``|δ|·K/n`` and a posterior by at most a quarter of that: ``1e-3`` bounds it with room.
* QDA: we follow MASS and divide class ``k``'s covariance by ``n_k − 1``; scikit-learn ≥ 1.9
  by ``n_k``. With ``n_k ≈ n/5`` the relative difference is ``≈ 5/n``, the same order as for
  LDA: ``1e-3``.
"""

from __future__ import annotations

import numpy as np

from workloads import Workload

N_CLASSES = 5


def gaussian_classes(rng: np.random.Generator, n_samples: int, n_features: int):
    """``K = 5`` Gaussian classes with different means, scales and correlations.

    Class ``k`` is ``μ_k + s_k (z A_k)`` with ``z ~ N(0, I)``. The class parameters are drawn
    first, so that they do not depend on ``n_samples`` (``--quick`` fits the same model on
    fewer rows). Labels are ``0 … 4``; ``X`` is float64, C-contiguous, built in blocks.
    """
    p = n_features
    means = rng.normal(scale=0.6, size=(N_CLASSES, p))
    scales = rng.uniform(0.7, 1.4, size=N_CLASSES)
    mix = np.eye(p) + 0.3 * rng.normal(size=(N_CLASSES, p, p)) / np.sqrt(p)
    y = rng.integers(0, N_CLASSES, n_samples)
    X = rng.standard_normal((n_samples, p))
    block = 65_536
    for s in range(0, n_samples, block):
        e = min(n_samples, s + block)
        yb = y[s:e]
        for k in range(N_CLASSES):
            rows = np.flatnonzero(yb == k) + s
            X[rows] = scales[k] * (X[rows] @ mix[k]) + means[k]
    return X, y


class _Adapter:
    """Fit, then ``predict_proba`` (timed as ``predict``)."""

    def __init__(self, label, make):
        self.label = label
        self._make = make

    def fit(self, X, y):
        self.estimator_ = self._make().fit(X, y)
        return self

    def predict(self, X):
        return self.estimator_.predict_proba(X)


def _ours(name: str, **params):
    def make():
        if name == "GaussianNB":
            from statlearning.naive_bayes import GaussianNB as cls
        else:
            import statlearning.discriminant_analysis as da

            cls = getattr(da, name)
        return cls(**params)

    args = ", ".join(f"{k}={v!r}" for k, v in params.items())
    return lambda: _Adapter(f"statlearning {name}({args}) + predict_proba", make)


def _sklearn(name: str, **params):
    def make():
        if name == "GaussianNB":
            from sklearn.naive_bayes import GaussianNB as cls
        else:
            import sklearn.discriminant_analysis as da

            cls = getattr(da, name)
        return cls(**params)

    args = ", ".join(f"{k}={v!r}" for k, v in params.items())
    return lambda: _Adapter(f"sklearn {name}({args}) + predict_proba", make)


WORKLOADS: list[Workload] = [
    Workload(
        name="lda_1m_x50",
        description="LinearDiscriminantAnalysis, 1,000,000 × 50, 5 Gaussian classes; default "
        "solver (MASS's SVD route, blocked QR) vs scikit-learn's default (SVD); predict = "
        "predict_proba; covariance divisors n − K vs n (see module docstring)",
        n_samples=1_000_000,
        n_features=50,
        ours=_ours("LinearDiscriminantAnalysis"),
        peer=_sklearn("LinearDiscriminantAnalysis"),
        data=gaussian_classes,
        rtol=1e-3,
    ),
    Workload(
        name="lda_eigen_1m_x50",
        description="LinearDiscriminantAnalysis(solver='eigen'), 1,000,000 × 50, 5 classes, "
        "vs scikit-learn's solver='eigen'; predict = predict_proba",
        n_samples=1_000_000,
        n_features=50,
        ours=_ours("LinearDiscriminantAnalysis", solver="eigen"),
        peer=_sklearn("LinearDiscriminantAnalysis", solver="eigen"),
        data=gaussian_classes,
        rtol=1e-3,
    ),
    Workload(
        name="qda_1m_x50",
        description="QuadraticDiscriminantAnalysis, 1,000,000 × 50, 5 Gaussian classes, vs "
        "scikit-learn; predict = predict_proba; class covariance divisors n_k − 1 vs n_k",
        n_samples=1_000_000,
        n_features=50,
        ours=_ours("QuadraticDiscriminantAnalysis"),
        peer=_sklearn("QuadraticDiscriminantAnalysis"),
        data=gaussian_classes,
        rtol=1e-3,
    ),
    Workload(
        name="gaussian_nb_1m_x50",
        description="GaussianNB, 1,000,000 × 50, 5 Gaussian classes, vs scikit-learn (same "
        "conventions); predict = predict_proba",
        n_samples=1_000_000,
        n_features=50,
        ours=_ours("GaussianNB"),
        peer=_sklearn("GaussianNB"),
        data=gaussian_classes,
        rtol=1e-8,
    ),
]
