"""MLPRegressor / MLPClassifier: optima of convex problems, held-out scores against
scikit-learn, precision, bad input, incremental training."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from statlearning.linear_model import LinearRegression, LogisticRegression
from statlearning.neural_network import MLPClassifier, MLPRegressor

ALL_SOLVERS = ("sgd", "momentum", "nesterov", "adagrad", "rmsprop", "adadelta", "adam", "lbfgs")


def _logistic_data(n=200):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 3))
    y = (X @ [1.0, -0.5, 0.3] + 0.2 + rng.logistic(size=n) > 0).astype(int)
    return X, y


#: full-batch settings under which each rule converges (constant steps for the rules that
#: converge with them, a decaying step for RMSProp, whose constant-step iterates oscillate)
CONVEX_SETTINGS = {
    "sgd": {"learning_rate_init": 2.0},
    "momentum": {"learning_rate_init": 0.5},
    "nesterov": {"learning_rate_init": 0.5},
    "adagrad": {"learning_rate_init": 1.0},
    "rmsprop": {"learning_rate_init": 0.01, "learning_rate": "adaptive", "n_iter_no_change": 5},
    "adadelta": {"epsilon": 1e-6},
    "adam": {"learning_rate_init": 0.05},
    "lbfgs": {"tol": 1e-10},
}


@pytest.mark.parametrize("solver", ALL_SOLVERS)
def test_every_optimiser_reaches_logistic_regressions_optimum(solver):
    # no hidden layer, alpha = 0, one logistic output: logistic regression (a convex problem)
    X, y = _logistic_data()
    reference = LogisticRegression().fit(X, y)
    settings = {"tol": 0.0, "n_iter_no_change": 5000, **CONVEX_SETTINGS[solver]}
    net = MLPClassifier((), solver=solver, alpha=0.0, batch_size=X.shape[0], max_iter=5000,
                        shuffle=False, random_state=0, **settings)  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        net.fit(X, y)
    # L-BFGS's relative-decrease stop (scikit-learn's 2.2e-9 at the default tol) tightens with
    # tol, so tol=1e-10 reaches the optimum as the first-order rules do
    atol = 1e-6
    np.testing.assert_allclose(net.coefs_[0][:, 0], reference.coef_.ravel(), rtol=0, atol=atol)
    np.testing.assert_allclose(net.intercepts_[0], reference.intercept_, rtol=0, atol=atol)


def test_linear_network_with_sse_is_least_squares():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 3))
    y = X @ [1.0, 2.0, -1.0] + 0.5 + rng.normal(scale=0.1, size=80)
    net = MLPRegressor((), solver="lbfgs", loss="sse", alpha=0.0, tol=1e-12).fit(X, y)
    ols = LinearRegression().fit(X, y)
    np.testing.assert_allclose(net.coefs_[0][:, 0], ols.coef_, atol=1e-7)
    np.testing.assert_allclose(net.intercepts_[0][0], ols.intercept_, atol=1e-7)


def _held_out(make_estimators, X, y, seeds=range(8)):
    from sklearn.model_selection import train_test_split

    ours, theirs = [], []
    for seed in seeds:
        X_tr, X_te, y_tr, y_te = train_test_split(X, y, test_size=0.3, random_state=seed)
        mean, sd = X_tr.mean(axis=0), X_tr.std(axis=0) + 1e-12
        X_tr, X_te = (X_tr - mean) / sd, (X_te - mean) / sd
        us, sk = make_estimators(seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            ours.append(us.fit(X_tr, y_tr).score(X_te, y_te))
            theirs.append(sk.fit(X_tr, y_tr).score(X_te, y_te))
    return 100 * np.mean(ours), 100 * np.mean(theirs)


def _classifiers(solver, theirs, **common):
    from sklearn.neural_network import MLPClassifier as SkMLP

    def make(seed):
        return (MLPClassifier(solver=solver, random_state=seed, **common),
                SkMLP(random_state=seed + 100, **theirs, **common))  # fmt: skip

    return make


@pytest.mark.slow
@pytest.mark.parametrize(
    ("data", "solver", "theirs"),
    [
        ("digits", "adam", {"solver": "adam"}),
        ("digits", "nesterov", {"solver": "sgd"}),
        ("classification", "adam", {"solver": "adam"}),
        ("classification", "lbfgs", {"solver": "lbfgs"}),
        ("biopsy", "adam", {"solver": "adam"}),
        ("biopsy", "momentum", {"solver": "sgd", "nesterovs_momentum": False}),
    ],
)
def test_held_out_accuracy_within_a_point_of_scikit_learn(data, solver, theirs):
    # different seeds for the two libraries: the comparison is of methods, not of one draw
    from sklearn.datasets import load_digits, make_classification

    from statlearning.datasets import load_biopsy

    if data == "digits":
        X, y = load_digits(return_X_y=True)
    elif data == "classification":
        X, y = make_classification(1000, 20, n_informative=8, n_classes=3, random_state=0)
    else:
        X, y = load_biopsy(return_X_y=True)
        keep = ~np.isnan(X).any(axis=1)
        X, y = X[keep], y[keep]
    extra = {"learning_rate_init": 0.01} if solver in ("nesterov", "momentum") else {}
    ours, theirs_score = _held_out(
        _classifiers(solver, theirs, hidden_layer_sizes=(50,), max_iter=100, **extra), X, y
    )
    assert abs(ours - theirs_score) <= 1.0, (ours, theirs_score)


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["adam", "lbfgs"])
def test_gapminder_r2_within_a_point_of_scikit_learn(solver):
    from sklearn.neural_network import MLPRegressor as SkMLP

    from statlearning.datasets import load_gapminder

    X, y = load_gapminder(return_X_y=True)
    X = X[::4]  # 1785 country-years
    y = y[::4]
    X = np.c_[np.log(X[:, :2] + 1), X[:, 2:]]

    def make(seed):
        common = {"hidden_layer_sizes": (32,), "max_iter": 150, "solver": solver}
        return MLPRegressor(random_state=seed, **common), SkMLP(random_state=seed + 100, **common)

    ours, theirs = _held_out(make, X, (y - y.mean()) / y.std())
    assert abs(ours - theirs) <= 1.0, (ours, theirs)


# --- precision -------------------------------------------------------------------------------


def test_float32_end_to_end_and_float16_input():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 5))
    y = (X[:, 0] - X[:, 1] > 0).astype(int)
    for Xin, kw in [
        (X.astype(np.float32), {}),
        (X.astype(np.float16), {}),
        (X, {"dtype": np.float32}),
    ]:
        clf = MLPClassifier((8,), max_iter=20, random_state=0, **kw)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            clf.fit(Xin, y)
        assert all(c.dtype == np.float32 for c in clf.coefs_ + clf.intercepts_)
        assert clf.predict_proba(Xin).dtype == np.float32
    reg = MLPRegressor((8,), solver="lbfgs", dtype="float32", random_state=0).fit(X, X[:, 0])
    assert reg.predict(X).dtype == np.float32
    assert reg.score(X, X[:, 0]) > 0.99
    f64 = MLPClassifier((8,), max_iter=20, random_state=0)
    f32 = MLPClassifier((8,), max_iter=20, random_state=0, dtype=np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        f64.fit(X, y)
        f32.fit(X, y)
    np.testing.assert_allclose(f32.coefs_[0], f64.coefs_[0], atol=1e-4)


# --- bad input and numerical trouble ---------------------------------------------------------


def test_diverging_learning_rate_names_learning_rate_init():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(100, 3)) * 10
    y = X @ [3.0, -2.0, 1.0] * 100
    with pytest.raises(ValueError, match="learning_rate_init"):
        MLPRegressor((20,), solver="sgd", learning_rate_init=10.0, random_state=0).fit(X, y)


@pytest.mark.parametrize("sizes", [(0,), (5, 0), 0, (3, -1)])
def test_hidden_layer_of_zero_units_is_an_error(sizes):
    X, y = _logistic_data(30)
    with pytest.raises(ValueError, match="hidden_layer_sizes"):
        MLPClassifier(sizes).fit(X, y)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nan_and_inf_are_errors_naming_the_column(bad):
    X, y = _logistic_data(30)
    X[4, 2] = bad
    with pytest.raises(ValueError, match="column 2"):
        MLPRegressor().fit(X, y.astype(float))


def test_unknown_loss_for_the_task():
    X, y = _logistic_data(30)
    with pytest.raises(ValueError, match="loss='log_loss'"):
        MLPRegressor(loss="log_loss").fit(X, y.astype(float))


def test_convergence_warning_names_max_iter():
    X, y = _logistic_data(60)
    with pytest.warns(ConvergenceWarning, match="max_iter=3"):
        MLPClassifier((4,), max_iter=3, random_state=0).fit(X, y)


# --- targets ----------------------------------------------------------------------------------


def test_string_labels_multiclass_and_multilabel():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(150, 4))
    labels = np.array(["a", "b", "c"])[np.argmax(X[:, :3], axis=1)]
    clf = MLPClassifier((10,), solver="lbfgs", random_state=0).fit(X, labels)
    assert clf.out_activation_ == "softmax" and clf.n_outputs_ == 3
    assert clf.score(X, labels) > 0.9
    np.testing.assert_allclose(clf.predict_proba(X).sum(axis=1), 1.0)
    Y = (X[:, :3] > 0).astype(int)
    multi = MLPClassifier((10,), solver="lbfgs", random_state=0).fit(X, Y)
    assert multi.out_activation_ == "logistic" and multi.predict(X).shape == (150, 3)
    assert (multi.predict(X) == Y).mean() > 0.9


# --- incremental training ---------------------------------------------------------------------


def test_partial_fit_continues_the_optimiser_and_needs_classes():
    X, y = _logistic_data(100)
    clf = MLPClassifier((5,), solver="momentum", random_state=0)
    with pytest.raises(ValueError, match="classes"):
        clf.partial_fit(X, y)
    clf.partial_fit(X[:50], y[:50], classes=[0, 1])
    velocity = clf._rule.state["velocity"][0].copy()
    clf.partial_fit(X[50:], y[50:])
    assert clf.t_ == 100 and clf.n_iter_ == 1 and len(clf.loss_curve_) == 2
    assert not np.array_equal(velocity, clf._rule.state["velocity"][0])
    # the same two epochs in one fit on the concatenated data (no shuffling) match
    with pytest.raises(ValueError, match="not in classes_"):
        clf.partial_fit(X[:5], np.array([0, 1, 2, 0, 1]))
    assert not hasattr(MLPClassifier(solver="lbfgs"), "partial_fit")
    assert not hasattr(MLPRegressor(early_stopping=True), "partial_fit")


def test_warm_start_continues_from_the_weights():
    X, y = _logistic_data(100)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        once = MLPClassifier((5,), max_iter=10, shuffle=False, random_state=0).fit(X, y)
        twice = MLPClassifier((5,), max_iter=5, shuffle=False, warm_start=True, random_state=0)
        twice.fit(X, y)
        first = [c.copy() for c in twice.coefs_]
        twice.fit(X, y)
    assert len(twice.loss_curve_) == 10
    assert not np.allclose(first[0], twice.coefs_[0])
    # Adam restarts its moments at the second fit, so the weights differ from ten epochs at once
    assert np.abs(once.coefs_[0] - twice.coefs_[0]).max() < 0.05


def test_adadelta_has_no_learning_rate():
    X, y = _logistic_data(100)
    fits = []
    for eta in (1e-3, 1.0):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fits.append(MLPClassifier((4,), solver="adadelta", learning_rate_init=eta,
                                      max_iter=5, random_state=0).fit(X, y))  # fmt: skip
    np.testing.assert_array_equal(fits[0].coefs_[0], fits[1].coefs_[0])


def test_float32_training_reads_float64_x_by_batches():
    import tracemalloc

    from statlearning.neural_network import MLPClassifier

    rng = np.random.default_rng(0)
    X = rng.normal(size=(20_000, 40))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)

    def make(**kw):
        return MLPClassifier((16,), dtype=np.float32, max_iter=2, random_state=0, **kw)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for shuffle in (True, False):
            a = make(shuffle=shuffle).fit(X, y)
            b = make(shuffle=shuffle).fit(X.astype(np.float32), y)
            for wa, wb in zip(a.coefs_, b.coefs_, strict=True):
                assert wa.dtype == np.float32
                np.testing.assert_array_equal(wa, wb)  # each batch cast exactly as X would be
        tracemalloc.start()
        make().fit(X, y)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert peak < X.nbytes / 4  # no float32 copy of X (that alone is X.nbytes / 2)


def test_lbfgs_runs_on_one_blas_thread(monkeypatch):
    # L-BFGS-B (SciPy's BLAS) alternates with the network's products (NumPy's): two OpenBLAS
    # libraries, whose threads spin after every call, so the whole minimisation holds one thread
    import contextlib

    from statlearning.neural_network import _base

    inside = []
    lbfgs = _base.lbfgs

    @contextlib.contextmanager
    def recording(*args, **kwargs):
        assert not args and not kwargs  # unconditional: not a flop rule
        inside.append(True)
        yield
        inside.append(False)

    def checked(*args, **kwargs):
        assert inside and inside[-1], "L-BFGS ran outside the one-thread limit"
        return lbfgs(*args, **kwargs)

    monkeypatch.setattr(_base, "single_blas_thread", recording)
    monkeypatch.setattr(_base, "lbfgs", checked)
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        MLPRegressor(solver="lbfgs", max_iter=5, random_state=0).fit(X, X[:, 0])
    assert inside == [True, False]
