"""LogisticRegression: optimality (KKT) at every solver's solution, agreement between solvers,
the classifier API, separation and convergence warnings, and bad input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from statlearning._core.logistic import binary_loss_gradient, multinomial_loss_gradient
from statlearning.exceptions import ConvergenceWarning, NumericalWarning, RankDeficientWarning
from statlearning.linear_model import LogisticRegression


@pytest.fixture(scope="module")
def binary():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 4))
    eta = 0.3 + X @ [1.0, -0.5, 0.0, 0.25]
    y = (rng.random(200) < 1 / (1 + np.exp(-eta))).astype(int)
    w = rng.uniform(0.5, 2.0, 200)
    return X, y, w


@pytest.fixture(scope="module")
def three_class():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(240, 3))
    B = np.array([[0.0, 0.0, 0.0], [1.0, -1.0, 0.5], [-0.5, 1.0, 1.0]])
    eta = X @ B.T + [0.0, 0.2, -0.3]
    P = np.exp(eta) / np.exp(eta).sum(1, keepdims=True)
    y = np.array([rng.choice(3, p=p) for p in P])
    return X, np.array(["a", "b", "c"])[y]


def _objective(model, X, y, w, C, rho):
    codes = np.searchsorted(model.classes_, y)
    params = np.hstack([model.intercept_[:, None], model.coef_])
    if len(model.classes_) == 2:
        f, g = binary_loss_gradient(params[0], X, codes.astype(float), w)
        g = g[None, :]
    else:
        f, g = multinomial_loss_gradient(params, X, codes, w)
    beta = model.coef_
    f += (rho * np.abs(beta).sum() + 0.5 * (1 - rho) * (beta**2).sum()) / C
    return f, g, beta


# ------------------------------------------------------------------------------ optimality


@pytest.mark.parametrize("solver", ["newton", "lbfgs", "gd"])
def test_unpenalised_gradient_vanishes(binary, solver):
    X, y, w = binary
    model = LogisticRegression(solver=solver, tol=1e-12, max_iter=100_000).fit(X, y, w)
    _, g, _ = _objective(model, X, y, w, 1.0, 0.0)
    assert np.abs(g).max() < 1e-6 * w.sum()


@pytest.mark.parametrize("solver", ["newton", "lbfgs", "gd", "cd"])
def test_l2_stationarity(binary, solver):
    X, y, w = binary
    C = 0.05
    model = LogisticRegression("l2", C, solver=solver, tol=1e-12, max_iter=100_000).fit(X, y, w)
    _, g, beta = _objective(model, X, y, w, C, 0.0)
    assert abs(g[0, 0]) < 1e-6 * w.sum()  # intercept: unpenalised
    np.testing.assert_allclose(g[0, 1:] + beta[0] / C, 0.0, atol=1e-6 * w.sum())


@pytest.mark.parametrize(("penalty", "l1_ratio"), [("l1", None), ("elasticnet", 0.6)])
def test_l1_subgradient_conditions(binary, penalty, l1_ratio):
    X, y, w = binary
    C = 0.02
    model = LogisticRegression(penalty, C, l1_ratio, solver="cd", tol=1e-12).fit(X, y, w)
    rho = 1.0 if penalty == "l1" else l1_ratio
    _, g, beta = _objective(model, X, y, w, C, rho)
    smooth = g[0, 1:] + (1 - rho) * beta[0] / C
    active = beta[0] != 0
    assert (~active).any(), "the penalty should zero some coefficient"
    np.testing.assert_allclose(
        smooth[active] + rho / C * np.sign(beta[0, active]), 0.0, atol=1e-6 * w.sum()
    )
    assert np.all(np.abs(smooth[~active]) <= rho / C * (1 + 1e-8))
    assert abs(g[0, 0]) < 1e-6 * w.sum()


@pytest.mark.parametrize("penalty", [None, "l2"])
def test_all_solvers_reach_the_same_objective(binary, penalty):
    X, y, w = binary
    C = 0.1
    solvers = ["newton", "lbfgs", "gd"] + (["cd"] if penalty else [])
    values = []
    for solver in solvers:
        m = LogisticRegression(penalty, C, solver=solver, tol=1e-12, max_iter=100_000)
        values.append(_objective(m.fit(X, y, w), X, y, w, C if penalty else np.inf, 0.0)[0])
    np.testing.assert_allclose(values, values[0], rtol=1e-6)


@pytest.mark.parametrize("solver", ["newton", "lbfgs", "gd"])
def test_multinomial_solvers_agree_and_are_stationary(three_class, solver):
    X, y = three_class
    w = np.ones(len(y))
    ref = LogisticRegression().fit(X, y)
    m = LogisticRegression(solver=solver, tol=1e-12, max_iter=100_000).fit(X, y)
    np.testing.assert_allclose(m.coef_, ref.coef_, atol=1e-5)
    _, g, _ = _objective(m, X, y, w, np.inf, 0.0)
    assert np.abs(g).max() < 1e-5 * len(y)
    pen = LogisticRegression("l2", 0.3, solver=solver, tol=1e-12, max_iter=100_000).fit(X, y)
    _, g, beta = _objective(pen, X, y, w, 0.3, 0.0)
    np.testing.assert_allclose(g[:, 1:] + beta / 0.3, 0.0, atol=1e-5 * len(y))
    assert abs(pen.intercept_.sum()) < 1e-10  # intercepts centred
    np.testing.assert_allclose(pen.coef_.sum(axis=0), 0.0, atol=1e-6)  # l2 optimality


# ------------------------------------------------------------------------------------ API


def test_string_labels_and_probability_columns(three_class):
    X, y = three_class
    model = LogisticRegression().fit(X, y)
    assert list(model.classes_) == ["a", "b", "c"]
    assert model.coef_.shape == (3, 3) and model.intercept_.shape == (3,)
    np.testing.assert_array_equal(model.coef_[0], 0.0)
    P = model.predict_proba(X)
    np.testing.assert_allclose(P.sum(axis=1), 1.0)
    np.testing.assert_allclose(np.log(P), model.predict_log_proba(X), rtol=1e-12)
    np.testing.assert_array_equal(model.predict(X), model.classes_[P.argmax(axis=1)])
    assert set(model.predict(X)) <= {"a", "b", "c"}


def test_binary_shapes_and_threshold(binary):
    X, y, _ = binary
    labels = np.where(y == 1, "sick", "healthy")
    model = LogisticRegression().fit(X, labels)
    assert model.coef_.shape == (1, 4) and model.intercept_.shape == (1,)
    p = model.predict_proba(X)[:, 1]  # P(classes_[1] = "sick")
    np.testing.assert_allclose(p, 1 / (1 + np.exp(-model.decision_function(X))))
    np.testing.assert_array_equal(model.predict(X) == "sick", p > 0.5)
    high = LogisticRegression(decision_threshold=0.8).fit(X, labels)
    np.testing.assert_array_equal(high.predict(X) == "sick", p > 0.8)
    assert (high.predict(X) == "sick").sum() < (model.predict(X) == "sick").sum()


def test_threshold_is_strict():
    X = np.array([[-1.0], [1.0], [-1.0], [1.0]])
    y = np.array([0, 0, 1, 1])  # symmetric: the fit is p = 1/2 everywhere
    model = LogisticRegression().fit(X, y)
    np.testing.assert_allclose(model.predict_proba(X)[:, 1], 0.5, atol=1e-12)
    model.coef_[:] = 0.0
    model.intercept_[:] = 0.0  # exactly 1/2: "p > t" is false
    np.testing.assert_array_equal(model.predict(X), 0)
    model.intercept_[:] = 1e-12
    np.testing.assert_array_equal(model.predict(X), 1)


def test_sample_weight_is_repetition(binary):
    X, y, _ = binary
    reps = np.arange(len(y)) % 3
    a = LogisticRegression("l2", 0.5).fit(X, y, sample_weight=reps)
    b = LogisticRegression("l2", 0.5).fit(np.repeat(X, reps, 0), np.repeat(y, reps))
    np.testing.assert_allclose(a.coef_, b.coef_, rtol=1e-8)
    u = LogisticRegression().fit(X, y, sample_weight=reps)
    v = LogisticRegression().fit(np.repeat(X, reps, 0), np.repeat(y, reps))
    np.testing.assert_allclose(u.coef_, v.coef_, rtol=1e-7)
    # R's standard errors come from the last IRLS iteration's weights, one step behind the
    # final coefficients: equal fits that stop at different iterations differ at that level
    np.testing.assert_allclose(u.bse_, v.bse_, rtol=1e-4)
    assert u.n_obs_ == (reps > 0).sum() and v.n_obs_ == reps.sum()  # R: weights are not rows


def test_no_training_data_stored(binary):
    X, y, _ = binary
    X = np.vstack([X, X[:57]])
    y = np.concatenate([y, y[:57]])
    n = len(y)
    for model in (LogisticRegression(), LogisticRegression("l1", solver="cd")):
        model.fit(X, y)
        for name, value in vars(model).items():
            if isinstance(value, np.ndarray):
                assert n not in value.shape, name


def test_summary_refuses_penalised_and_multinomial_fits(binary, three_class):
    X, y, _ = binary
    with pytest.raises(ValueError, match="unpenalised binary"):
        LogisticRegression("l2").fit(X, y).summary()
    with pytest.raises(ValueError, match="multinomial"):
        LogisticRegression().fit(*three_class).summary()


def test_summary_frame_and_stats(binary):
    pytest.importorskip("pandas")
    X, y, _ = binary
    model = LogisticRegression().fit(X, y)
    s = model.summary(level=0.9)
    frame = s.to_frame()
    assert list(frame.index) == ["(Intercept)", "x0", "x1", "x2", "x3"]
    half = frame["conf_high"] - frame["estimate"]
    np.testing.assert_allclose(half, 1.6448536269514722 * model.bse_, rtol=1e-10)
    for key in ("deviance", "null_deviance", "df_resid", "df_null", "loglik", "aic", "dispersion"):
        assert key in s.stats


def test_aliased_column_is_nan_with_warning(binary):
    X, y, _ = binary
    X2 = np.column_stack([X, X[:, 0] + X[:, 1]])
    for solver in ("newton", "lbfgs"):
        with pytest.warns(RankDeficientWarning, match="x4"):
            model = LogisticRegression(solver=solver).fit(X2, y)
        assert np.isnan(model.coef_[0, 4]) and not np.isnan(model.coef_[0, :4]).any()
        ref = LogisticRegression().fit(X, y)
        np.testing.assert_allclose(model.coef_[0, :4], ref.coef_[0], rtol=1e-5)
        np.testing.assert_allclose(model.predict_proba(X2), ref.predict_proba(X), atol=1e-6)


# --------------------------------------------------------------------- warnings and errors


@pytest.mark.parametrize("solver", ["newton", "lbfgs", "gd"])
def test_complete_separation_is_reported(solver):
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
    y = np.array([0, 0, 0, 1, 1, 1])
    with pytest.warns(ConvergenceWarning, match="separated"):
        warnings.simplefilter("ignore", NumericalWarning)
        LogisticRegression(solver=solver).fit(X, y)
    # a penalty gives a finite, silent fit
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        LogisticRegression("l2", solver=solver, max_iter=10_000).fit(X, y)


@pytest.mark.filterwarnings("ignore::statlearning.exceptions.NumericalWarning")
def test_quasi_complete_separation_is_reported():
    X = np.array([[0.0], [1.0], [2.0], [2.0], [3.0], [4.0], [1.5], [2.5]])
    y = np.array([0, 0, 0, 1, 1, 1, 0, 1])
    with pytest.warns(ConvergenceWarning, match="separated"):
        LogisticRegression().fit(X, y)


@pytest.mark.filterwarnings("ignore::statlearning.exceptions.NumericalWarning")
def test_separation_linear_program_only_when_the_fit_cannot_rule_it_out(monkeypatch):
    import statlearning.linear_model._logistic as module

    calls = []
    original = module.separation_direction

    def counted(*args, **kwargs):
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, "separation_direction", counted)
    # nearly separable, not separated: fitted probabilities reach 0 and 1 numerically (|η| >
    # 23), yet the converged fit proves a finite MLE, and no linear program is solved
    rng = np.random.default_rng(0)
    X = rng.normal(size=(3000, 8))
    eta = 6.0 * X @ rng.normal(size=8)
    y = (rng.uniform(size=3000) < 1.0 / (1.0 + np.exp(-eta))).astype(int)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = LogisticRegression().fit(X, y)
    assert np.abs(model.decision_function(X)).max() > 23.0
    assert calls == []
    # separated data: the certificate cannot exist, the program runs and the warning fires
    Xs = np.array([[0.0], [1.0], [2.0], [2.0], [3.0], [4.0], [1.5], [2.5]])
    ys = np.array([0, 0, 0, 1, 1, 1, 0, 1])
    with pytest.warns(ConvergenceWarning, match="separated"):
        LogisticRegression().fit(Xs, ys)
    assert calls == [1]


def test_no_separation_certificate_on_separated_data():
    from statlearning._core.logistic import certifies_no_separation

    rng = np.random.default_rng(1)
    X = rng.normal(size=(200, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(float)
    for scale in (1.0, 10.0, 100.0):  # any finite point along the separating direction
        eta = scale * (X[:, 0] + X[:, 1])
        assert not certifies_no_separation(X, y, eta)
    # ... while the MLE of non-separated data certifies itself
    y2 = (rng.uniform(size=200) < 1.0 / (1.0 + np.exp(-(X[:, 0] + X[:, 1])))).astype(float)
    model = LogisticRegression().fit(X, y2)
    assert certifies_no_separation(X, y2, model.decision_function(X))


@pytest.mark.filterwarnings("ignore::statlearning.exceptions.NumericalWarning")
@pytest.mark.parametrize(("n", "p", "signal", "weighted"), [
    (3000, 8, 6.0, False), (2000, 40, 3.0, True), (20000, 30, 5.0, False), (500, 3, 30.0, True),
])  # fmt: skip
def test_nearly_separable_fits_certify_themselves_from_their_own_weights(
    monkeypatch, n, p, signal, weighted
):
    """The converged IRLS fit proves there is no separation from its last weighted
    least-squares problem (no Gram matrix): neither the Gram certificate nor the linear
    program runs."""
    import statlearning.linear_model._logistic as module

    calls = {"fit": [], "gram": 0}
    by_fit, by_gram = module.certifies_with_fit_weights, module.certifies_no_separation
    monkeypatch.setattr(
        module, "certifies_with_fit_weights",
        lambda *a, **k: calls["fit"].append(by_fit(*a, **k)) or calls["fit"][-1],
    )  # fmt: skip
    monkeypatch.setattr(
        module, "certifies_no_separation",
        lambda *a, **k: calls.__setitem__("gram", calls["gram"] + 1) or by_gram(*a, **k),
    )  # fmt: skip
    rng = np.random.default_rng(p)
    X = rng.normal(size=(n, p))
    eta = signal * X @ rng.normal(size=p)
    y = (rng.uniform(size=n) < 1.0 / (1.0 + np.exp(-eta))).astype(int)
    w = None
    if weighted:
        w = rng.uniform(0.5, 2.0, n)
        w[:5] = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = LogisticRegression().fit(X, y, w)
    assert np.abs(model.decision_function(X)).max() > 23.0
    assert calls == {"fit": [True], "gram": 0}


def test_fit_weights_certify_nothing_on_separated_data():
    """Whatever positive weights ``D`` stand in the correction, separated data admit no
    certificate; the IRLS's own weights at its (diverging) last iterate give none either."""
    from statlearning._core.logistic import certifies_with_fit_weights
    from statlearning._solvers.irls import irls

    rng = np.random.default_rng(2)
    X = rng.normal(size=(200, 3))
    y = (X[:, 0] + X[:, 1] > 0).astype(float)
    A = np.column_stack([np.ones(200), X])
    for scale in (1.0, 10.0, 100.0):
        eta = scale * (X[:, 0] + X[:, 1])
        for _ in range(5):
            W = rng.uniform(1e-3, 1.0, 200)
            cov = np.linalg.inv(A.T @ (W[:, None] * A))
            assert not certifies_with_fit_weights(X, y, eta, W, cov)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = irls(X, y, family="binomial", link="logit")
    assert not certifies_with_fit_weights(X, y, res.eta, res.working_weights, res.unscaled_cov)
    assert not certifies_with_fit_weights(X, y, res.eta, np.zeros(200), res.unscaled_cov)


def test_r_warning_for_fitted_probabilities_0_or_1():
    with pytest.warns(NumericalWarning, match="numerically 0 or 1"):
        warnings.simplefilter("ignore", ConvergenceWarning)
        LogisticRegression().fit([[0.0], [1.0], [2.0], [3.0]], [0, 0, 1, 1])


@pytest.mark.parametrize("learning_rate", ["armijo", "wolfe"])
def test_line_searches_reach_the_newton_fit(binary, learning_rate):
    X, y, w = binary
    newton = LogisticRegression().fit(X, y, w)
    gd = LogisticRegression(solver="gd", learning_rate=learning_rate, tol=1e-10, max_iter=10_000)
    gd.fit(X, y, w)
    np.testing.assert_allclose(gd.coef_, newton.coef_, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(gd.intercept_, newton.intercept_, rtol=1e-6, atol=1e-8)


def test_non_convergence_warns(binary):
    X, y, _ = binary
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        LogisticRegression(solver="gd", max_iter=3).fit(X, y)


@pytest.mark.filterwarnings("ignore::statlearning.exceptions.NumericalWarning")
def test_too_large_fixed_step_is_reported(binary):
    X, y, _ = binary
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        LogisticRegression(solver="gd", learning_rate=10.0, max_iter=500).fit(X, y)
    # the same problem converges with a step below 2/L (L = λ_max of the Hessian ≤ Σ‖a_i‖²/4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        LogisticRegression(solver="gd", learning_rate=0.01, max_iter=20_000).fit(X, y)


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"penalty": "l1", "solver": "newton"}, "valid solvers for it: 'auto', 'cd'"),
        ({"penalty": "elasticnet", "solver": "lbfgs", "l1_ratio": 0.5}, "'cd'"),
        ({"solver": "cd"}, "'newton', 'lbfgs', 'gd'"),
        ({"penalty": "elasticnet", "solver": "cd"}, "needs l1_ratio"),
        ({"penalty": "lasso"}, "penalty"),
        ({"C": 0.0}, "'C'"),
        ({"decision_threshold": 1.0}, "decision_threshold"),
        ({"solver": "sag"}, "solver"),
    ],
)
def test_bad_parameters(binary, params, match):
    X, y, _ = binary
    with pytest.raises(ValueError, match=match):
        LogisticRegression(**params).fit(X, y)


@pytest.mark.parametrize(
    ("penalty", "l1_ratio", "chosen"),
    [(None, None, "newton"), ("l2", None, "lbfgs"), ("l1", None, "cd"), ("elasticnet", 0.5, "cd")],
)
def test_auto_solver_by_penalty(binary, penalty, l1_ratio, chosen):
    X, y, w = binary
    auto = LogisticRegression(penalty, C=0.5, l1_ratio=l1_ratio).fit(X, y, w)
    assert auto.solver_ == chosen
    same = LogisticRegression(penalty, C=0.5, l1_ratio=l1_ratio, solver=chosen).fit(X, y, w)
    np.testing.assert_array_equal(auto.coef_, same.coef_)


@pytest.mark.parametrize("multinomial", [False, True])
def test_auto_l2_finishes_with_newton_when_lbfgs_stops(binary, three_class, multinomial):
    X, y, w = (*three_class, None) if multinomial else binary
    newton = LogisticRegression("l2", C=0.5, solver="newton", tol=1e-12, max_iter=100).fit(X, y, w)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Newton converges from where L-BFGS stopped
        auto = LogisticRegression("l2", C=0.5, max_iter=4, tol=1e-12).fit(X, y, w)
    assert auto.solver_ == "lbfgs" and auto.n_iter_ > 4
    np.testing.assert_allclose(auto.coef_, newton.coef_, rtol=1e-7, atol=1e-9)


def test_threshold_needs_two_classes(three_class):
    X, y = three_class
    with pytest.raises(
        ValueError, match="Only binary classification is supported with a decision_threshold"
    ):
        LogisticRegression(decision_threshold=0.3).fit(X, y)


def test_bad_targets():
    X = np.arange(12.0).reshape(6, 2)
    with pytest.raises(ValueError, match="only one class"):
        LogisticRegression().fit(X, ["a"] * 6)
    with pytest.raises(ValueError, match="Unknown label type"):
        LogisticRegression().fit(X, [0.5, 1.2, 3.3, 0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="NaN"):
        LogisticRegression().fit(np.where(X > 10, np.nan, X), [0, 1] * 3)
    with pytest.raises(ValueError, match="sample_weight"):
        LogisticRegression().fit(X, [0, 1] * 3, sample_weight=[-1.0] * 6)


@pytest.mark.parametrize(
    ("penalty", "l1_ratio", "solver"),
    [("l2", None, "newton"), ("l2", None, "cd"), ("l1", None, "cd"), ("elasticnet", 0.3, "cd")],
)
def test_binary_fits_run_the_glm_irls(penalty, l1_ratio, solver):
    """Binary Newton-type fits are GLMRegressor's IRLS with the binomial family:
    F = Σ w ℓ + penalty/C is Σw times the GLM objective with alpha = 1/(C Σw)."""
    from statlearning.linear_model import GLMRegressor

    rng = np.random.default_rng(5)
    X = rng.normal(size=(150, 4))
    y = (rng.random(150) < 1 / (1 + np.exp(-(X @ [1.0, -0.5, 0.0, 0.3])))).astype(int)
    w = rng.uniform(0.5, 2.0, size=150)
    C = 0.4
    rho = {"l2": 0.0, "l1": 1.0}.get(penalty, l1_ratio)
    ours = LogisticRegression(penalty=penalty, C=C, l1_ratio=l1_ratio, solver=solver)
    ours.fit(X, y, sample_weight=w)
    glm = GLMRegressor(
        family="binomial", alpha=1 / (C * w.sum()), l1_ratio=rho, max_iter=100, solver="irls"
    )
    glm.fit(X, y.astype(float), sample_weight=w)
    np.testing.assert_allclose(ours.coef_[0], glm.coef_, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(ours.intercept_[0], glm.intercept_, rtol=1e-12)
    assert ours.n_iter_ == glm.n_iter_


@pytest.mark.parametrize("solver", ["lbfgs", "gd"])
def test_first_order_solvers_precondition_columns_of_tiny_spread(solver):
    """A column whose standard deviation is below 1e-10 is rescaled by the preconditioner,
    not taken for a constant: with X × 1e-10 and C × 1e20 (the same objective in scaled
    coordinates) the fit equals the unscaled one (it returned zeros for two coefficients)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(200, 3))
    y = (X[:, 0] + rng.normal(size=200) > 0).astype(int)
    ref = LogisticRegression(penalty="l2", C=1.0, solver=solver, max_iter=2000).fit(X, y)
    small = LogisticRegression(penalty="l2", C=1e20, solver=solver, max_iter=2000).fit(X * 1e-10, y)
    np.testing.assert_allclose(small.coef_ * 1e-10, ref.coef_, rtol=1e-6)
    np.testing.assert_allclose(small.intercept_, ref.intercept_, rtol=1e-6, atol=1e-9)


def test_rank_tol_zero_still_aliases_an_exactly_zero_column():
    # found by fuzzing: rank_tol=0 left an all-zero column in the QR (a zero pivot, LinAlgError)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = LogisticRegression(rank_tol=0.0).fit(np.array([[0.0], [-0.0]]), [0, 1])
    assert np.isnan(model.coef_[0, 0]) and model.intercept_ == 0.0


@pytest.mark.parametrize("model", ["logistic", "glm"])
def test_irls_fits_run_on_one_blas_thread_when_the_gram_runs_in_parts(monkeypatch, model):
    """A threaded product anywhere in an IRLS fit leaves BLAS's workers spinning on the cores
    the Gram's parts need: such fits run on one BLAS thread from end to end, other solvers
    keep BLAS's threads."""
    from threadpoolctl import threadpool_info

    from statlearning._core import linalg as linalg_module
    from statlearning.linear_model import GLMRegressor

    def blas_threads():
        return {i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"}

    if max(blas_threads()) < 2:
        pytest.skip("BLAS runs on one thread here")
    monkeypatch.setattr(linalg_module, "GRAM_SPLIT_FROM", 1)
    monkeypatch.setattr(linalg_module, "CORES", 2)
    seen = []
    cls = LogisticRegression if model == "logistic" else GLMRegressor
    solve = cls._solve
    monkeypatch.setattr(
        cls, "_solve", lambda self, *a, **k: seen.append(blas_threads()) or solve(self, *a, **k)
    )
    rng = np.random.default_rng(3)
    X = rng.normal(size=(9000, 3))
    if model == "logistic":
        y = (rng.uniform(size=9000) < 1.0 / (1.0 + np.exp(-X[:, 0]))).astype(int)
        irls, other = LogisticRegression(), LogisticRegression("l2", solver="lbfgs")
    else:
        y = rng.poisson(np.exp(0.3 * X[:, 0])).astype(float)
        irls = GLMRegressor(family="poisson")
        other = GLMRegressor(family="poisson", alpha=0.1, solver="lbfgs")
    assert linalg_module.gram_parts(9000, 5) > 1
    irls.fit(X, y)
    assert seen[-1] == {1}
    other.fit(X, y)
    assert max(seen[-1]) > 1
    assert max(blas_threads()) > 1  # restored
