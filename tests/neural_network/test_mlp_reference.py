"""Same initial weights and data order as scikit-learn → the same weights after k epochs.

The reference trajectories (tests/reference/neural_network, produced by scikit-learn with the
committed script) start from stored initial weights; the live tests run scikit-learn itself with
the same seed, shuffles and early stopping included.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from conftest import REFERENCE
from statlearning.neural_network import MLPClassifier, MLPRegressor

REF = json.loads((REFERENCE / "neural_network" / "mlp_reference.json").read_text())


def _from_weights(cls, settings, solver, X, y, coefs, intercepts, epochs):
    est = cls(**settings, solver=solver, max_iter=1, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(X, y)
        est.coefs_ = [np.array(c) for c in coefs]
        est.intercepts_ = [np.array(b) for b in intercepts]
        est.set_params(warm_start=True, max_iter=epochs)
        est.fit(X, y)
    return est


@pytest.mark.parametrize("solver", ["sgd", "momentum", "nesterov", "adam", "lbfgs"])
@pytest.mark.parametrize("task", ["multiclass", "binary", "regression"])
def test_weights_after_k_epochs_equal_scikit_learns(task, solver):
    case = REF["cases"][task]
    X, y = np.array(REF["X"]), np.array(case["y"])
    cls = MLPRegressor if task == "regression" else MLPClassifier
    est = _from_weights(
        cls, REF["settings"], solver, X, y, case["coefs"], case["intercepts"], REF["epochs"]
    )
    expected = case["after"][solver]
    assert est.n_iter_ == expected["n_iter"]
    for ours, theirs in zip(est.coefs_ + est.intercepts_,
                            expected["coefs"] + expected["intercepts"], strict=True):  # fmt: skip
        np.testing.assert_allclose(ours, np.array(theirs), rtol=0, atol=1e-8)
    np.testing.assert_allclose(est.loss_, expected["loss"], rtol=1e-10)


@pytest.mark.parametrize(
    ("ours", "theirs"),
    [
        ({"solver": "sgd"}, {"solver": "sgd", "momentum": 0.0}),
        ({"solver": "momentum"}, {"solver": "sgd", "nesterovs_momentum": False}),
        ({"solver": "nesterov"}, {"solver": "sgd"}),
        ({"solver": "adam"}, {"solver": "adam"}),
        ({"solver": "lbfgs"}, {"solver": "lbfgs"}),
        ({"solver": "nesterov", "learning_rate": "adaptive"},
         {"solver": "sgd", "learning_rate": "adaptive"}),
        ({"solver": "sgd", "learning_rate": "invscaling", "learning_rate_init": 0.3},
         {"solver": "sgd", "momentum": 0.0, "learning_rate": "invscaling",
          "learning_rate_init": 0.3}),
        ({"solver": "adam", "early_stopping": True}, {"solver": "adam", "early_stopping": True}),
    ],
    ids=lambda d: "-".join(str(v) for v in d.values()),
)  # fmt: skip
def test_same_seed_same_network_as_scikit_learn(ours, theirs):
    from sklearn.datasets import load_digits
    from sklearn.neural_network import MLPClassifier as SkMLP

    X, y = load_digits(return_X_y=True)
    X, y = X[:400] / 16, y[:400]
    common = {"hidden_layer_sizes": (16,), "max_iter": 15, "random_state": 3, "batch_size": 50}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk = SkMLP(**common, **theirs).fit(X, y)
        us = MLPClassifier(**common, **ours).fit(X, y)
    assert us.n_iter_ == sk.n_iter_
    for a, b in zip(us.coefs_ + us.intercepts_, sk.coefs_ + sk.intercepts_, strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-10)
    if "lbfgs" not in ours.values():
        np.testing.assert_allclose(us.loss_curve_, sk.loss_curve_, rtol=1e-12)
    if ours.get("early_stopping"):
        np.testing.assert_allclose(us.validation_scores_, sk.validation_scores_)


def test_regressor_same_seed_as_scikit_learn_with_weights_and_two_outputs():
    from sklearn.neural_network import MLPRegressor as SkMLP

    rng = np.random.default_rng(5)
    X = rng.normal(size=(150, 3))
    Y = np.c_[np.sin(X[:, 0]), X[:, 1] * X[:, 2]]
    sw = rng.uniform(0.2, 3.0, size=150)
    common = {"hidden_layer_sizes": (8, 4), "max_iter": 10, "random_state": 0, "batch_size": 32,
              "activation": "logistic", "solver": "adam", "learning_rate_init": 0.01,
              "alpha": 0.0}  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        sk = SkMLP(**common).fit(X, Y, sample_weight=sw)
        us = MLPRegressor(**common).fit(X, Y, sample_weight=sw)
    for a, b in zip(us.coefs_ + us.intercepts_, sk.coefs_ + sk.intercepts_, strict=True):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-10)
    # scikit-learn reports the data term divided by the number of outputs (its gradient is
    # that of our objective)
    np.testing.assert_allclose(np.array(us.loss_curve_) / 2, sk.loss_curve_, rtol=1e-12)
