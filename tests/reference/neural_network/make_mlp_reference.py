"""Reference trajectories of scikit-learn's MLPs from fixed initial weights.

Writes ``mlp_reference.json``: the data, the initial weights (drawn here once, stored), and the
weights scikit-learn's ``MLPClassifier`` / ``MLPRegressor`` reach after ``EPOCHS`` epochs (L-BFGS:
iterations) for each solver, with ``shuffle=False``. Run from this directory:
``python make_mlp_reference.py``. Versions are recorded in the JSON and in README.md.
"""

from __future__ import annotations

import itertools
import json
import warnings

import numpy as np
import sklearn
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier, MLPRegressor

EPOCHS = 4
HIDDEN = (5, 3)
COMMON = dict(
    hidden_layer_sizes=HIDDEN,
    activation="tanh",
    alpha=1e-3,
    batch_size=16,
    learning_rate_init=0.05,
    shuffle=False,
    tol=0.0,
    n_iter_no_change=10_000,
)
#: our solver name -> scikit-learn's settings
SOLVERS = {
    "sgd": dict(solver="sgd", momentum=0.0),
    "momentum": dict(solver="sgd", momentum=0.9, nesterovs_momentum=False),
    "nesterov": dict(solver="sgd", momentum=0.9, nesterovs_momentum=True),
    "adam": dict(solver="adam"),
    "lbfgs": dict(solver="lbfgs"),
}


def main():
    rng = np.random.default_rng(20261126)
    n, p = 60, 4
    X = rng.normal(size=(n, p))
    targets = {
        "multiclass": (X[:, 0] + X[:, 1] ** 2 > 1).astype(int) + (X[:, 2] > 0.5),
        "binary": (X[:, 0] - X[:, 3] + 0.3 * rng.normal(size=n) > 0).astype(int),
        "regression": np.sin(X[:, 0]) + 0.5 * X[:, 1] * X[:, 2] + 0.1 * rng.normal(size=n),
    }
    out = {
        "versions": {"sklearn": sklearn.__version__, "numpy": np.__version__},
        "epochs": EPOCHS,
        "settings": COMMON,
        "X": X.tolist(),
        "cases": {},
    }
    for task, y in targets.items():
        n_out = {"multiclass": 3, "binary": 1, "regression": 1}[task]
        units = [p, *HIDDEN, n_out]
        coefs = [rng.uniform(-0.7, 0.7, size=(a, b)) for a, b in itertools.pairwise(units)]
        intercepts = [rng.uniform(-0.3, 0.3, size=b) for b in units[1:]]
        case = {
            "y": y.tolist(),
            "coefs": [c.tolist() for c in coefs],
            "intercepts": [b.tolist() for b in intercepts],
            "after": {},
        }
        for ours, theirs in SOLVERS.items():
            cls = MLPRegressor if task == "regression" else MLPClassifier
            est = cls(**COMMON, **theirs, max_iter=1, random_state=0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                est.fit(X, y)
                est.coefs_ = [c.copy() for c in coefs]
                est.intercepts_ = [b.copy() for b in intercepts]
                est.set_params(warm_start=True, max_iter=EPOCHS)
                est.fit(X, y)
            case["after"][ours] = {
                "coefs": [c.tolist() for c in est.coefs_],
                "intercepts": [b.tolist() for b in est.intercepts_],
                "loss": float(est.loss_),
                "n_iter": int(est.n_iter_),
            }
        out["cases"][task] = case
    with open("mlp_reference.json", "w") as fh:
        json.dump(out, fh, indent=1)


if __name__ == "__main__":
    main()
