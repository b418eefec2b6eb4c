"""Reference solutions of scikit-learn's SGDRegressor / SGDClassifier with ``shuffle=False``.

Writes ``sgd_reference.json``: one small data set (80 × 4, drawn here once and stored), a numeric
response, two- and three-class labels, sample weights, and for every combination of loss, penalty,
learning-rate schedule and averaging that scikit-learn offers, the coefficients, intercepts,
``n_iter_`` and ``t_`` it reaches (``max_iter=8``, ``tol=None``; without averaging also
``tol=1e-3``), plus a
few cases with class weights, sample weights and ``partial_fit``. A fit that overflows is recorded
as ``"error"``. Run from this directory: ``python make_sgd_reference.py``. Versions are recorded in
the JSON and in README.md.
"""

from __future__ import annotations

import itertools
import json
import warnings

import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import SGDClassifier, SGDRegressor

REGRESSION_LOSSES = ["squared_error", "huber", "epsilon_insensitive", "squared_epsilon_insensitive"]
CLASSIFICATION_LOSSES = [
    "hinge", "log_loss", "modified_huber", "squared_hinge", "perceptron", *REGRESSION_LOSSES,
]  # fmt: skip
PENALTIES = [None, "l2", "l1", "elasticnet"]
SCHEDULES = ["constant", "optimal", "invscaling", "adaptive"]
AVERAGES = [False, True, 50]
COMMON = dict(alpha=0.01, l1_ratio=0.3, eta0=0.02, power_t=0.4, epsilon=0.2, max_iter=8)


def record(est):
    return {
        "coef": np.asarray(est.coef_).tolist(),
        "intercept": np.asarray(est.intercept_).tolist(),
        "n_iter": int(est.n_iter_),
        "t": float(est.t_),
    }


def run(cls, params, X, y, **fit):
    est = cls(shuffle=False, **COMMON, **params)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            est.fit(X, y, **fit)
    except ValueError:
        return "error"
    return record(est)


def main():
    rng = np.random.default_rng(20261126)
    n, p = 80, 4
    X = rng.normal(size=(n, p))
    y_reg = 0.5 + X @ np.array([1.0, -2.0, 0.0, 0.5]) + 0.5 * rng.standard_t(3, size=n)
    y_bin = (X[:, 0] - X[:, 1] + 0.8 * rng.normal(size=n) > 0).astype(int)
    y_multi = np.argmax(X[:, :3] + 0.8 * rng.normal(size=(n, 3)), axis=1)
    sw = rng.uniform(0.5, 2.0, size=n)
    out = {
        "versions": {"sklearn": sklearn.__version__, "numpy": np.__version__},
        "common": COMMON,
        "X": X.tolist(),
        "y_reg": y_reg.tolist(),
        "y_bin": y_bin.tolist(),
        "y_multi": y_multi.tolist(),
        "sample_weight": sw.tolist(),
        "cases": [],
    }
    grids = [
        ("regressor", "y_reg", REGRESSION_LOSSES),
        ("classifier", "y_bin", CLASSIFICATION_LOSSES),
    ]
    for kind, target, losses in grids:
        cls = SGDRegressor if kind == "regressor" else SGDClassifier
        for loss, pen, lr, avg, tol in itertools.product(
            losses, PENALTIES, SCHEDULES, AVERAGES, [None, 1e-3]
        ):
            if avg and tol is not None:
                continue  # the stopping rule is tested without averaging
            params = dict(loss=loss, penalty=pen, learning_rate=lr, average=avg, tol=tol)
            result = run(cls, params, X, out[target])
            out["cases"].append({"kind": kind, "target": target, "params": params, "fit": result})
    # three classes (one-vs-all), class and sample weights
    for loss, pen, avg in itertools.product(
        ["hinge", "log_loss", "modified_huber"], ["l2", "elasticnet"], [False, True]
    ):
        for weights in [None, "sample", "class"]:
            params = dict(loss=loss, penalty=pen, average=avg, tol=1e-3, learning_rate="optimal")
            fit = {}
            if weights == "class":
                params["class_weight"] = {0: 2.0, 1: 0.5, 2: 1.0}
            if weights == "sample":
                fit["sample_weight"] = sw
            result = run(SGDClassifier, params, X, y_multi, **fit)
            out["cases"].append(
                {"kind": "classifier", "target": "y_multi", "params": params,
                 "sample_weight": weights == "sample", "fit": result}
            )  # fmt: skip
    for loss in ["hinge", "log_loss"]:
        params = dict(loss=loss, class_weight="balanced", tol=None)
        out["cases"].append(
            {"kind": "classifier", "target": "y_bin", "params": params, "sample_weight": True,
             "fit": run(SGDClassifier, params, X, y_bin, sample_weight=sw)}
        )  # fmt: skip
    # partial_fit over two halves (no averaging: see the test for scikit-learn's averaged case)
    for kind, target, loss in [
        ("regressor", "y_reg", "huber"),
        ("classifier", "y_bin", "hinge"),
        ("classifier", "y_multi", "log_loss"),
    ]:
        cls = SGDRegressor if kind == "regressor" else SGDClassifier
        est = cls(shuffle=False, **{**COMMON, "max_iter": 1000}, loss=loss)
        y = np.asarray(out[target])
        extra = {} if kind == "regressor" else {"classes": np.unique(y)}
        est.partial_fit(X[:50], y[:50], **extra)
        est.partial_fit(X[50:], y[50:])
        out["cases"].append(
            {"kind": kind, "target": target, "params": {"loss": loss}, "partial_fit": 50,
             "fit": record(est)}
        )  # fmt: skip
    with open("sgd_reference.json", "w") as fh:
        json.dump(out, fh, separators=(",", ":"))


if __name__ == "__main__":
    main()
