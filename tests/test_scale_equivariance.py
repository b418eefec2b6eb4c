"""Scale-equivariant methods at the edges of float64: ``X × 1e±300`` (and ``y`` where the model
is equivariant in it) gives the exactly scaled answer of the unscaled fit, and a quantity that
float64 cannot hold at that scale (a sum of squares near ``1e600``) is ``inf``/``0`` with a
:class:`NumericalWarning` naming it and the data's scale.

The reference is always the same estimator on the unscaled data; ``1e±300`` is not a power of
two, so the scaled data differ from ``X · s`` by one rounding per entry and the comparison
allows ``rtol = 1e-8``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from statlearning.cluster import (
    DBSCAN,
    AgglomerativeClustering,
    KMeans,
    MiniBatchKMeans,
    SpectralClustering,
    kmeans_plusplus,
)
from statlearning.decomposition import PCA
from statlearning.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)
from statlearning.ensemble import (
    BaggingRegressor,
    GradientBoostingRegressor,
    RandomForestRegressor,
)
from statlearning.exceptions import ConvergenceWarning, NumericalWarning
from statlearning.feature_selection import (
    BestSubsetSelector,
    FilterSelector,
    LassoPathSelector,
    StepwiseSelector,
    f_scores,
    mutual_info_scores,
    variance_mean_scores,
)
from statlearning.linear_model import (
    BayesianLinearRegression,
    ElasticNet,
    GLMRegressor,
    HuberRegressor,
    LADRegressor,
    Lasso,
    LeastSquaresClassifier,
    LinearRegression,
    LogisticRegression,
    Ridge,
)
from statlearning.mixture import GaussianMixture
from statlearning.model_selection import bootstrap, jackknife
from statlearning.naive_bayes import GaussianNB, MixedNB
from statlearning.neighbors import (
    BayesClassifier,
    KernelDensity,
    KNeighborsClassifier,
    KNeighborsRegressor,
)
from statlearning.tree import DecisionTreeRegressor

SCALES = [1e300, 1e-300]
RTOL = 1e-8

rng = np.random.default_rng(0)
N, P = 60, 4
X = rng.normal(size=(N, P)) + np.array([0.0, 3.0, -1.0, 10.0])
Y = X @ np.array([1.0, -2.0, 0.5, 0.0]) + rng.normal(size=N)
Y_BIN = (X[:, 0] - X[:, 1] + 3 + rng.normal(size=N) > 0).astype(int)
Y_COUNT = rng.poisson(np.exp(0.3 * X[:, 0])).astype(float)
BLOBS = np.vstack([rng.normal(c, 0.3, size=(20, 2)) for c in ([0, 0], [4, 0], [0, 4])])


def fit_quietly(estimator, *args, **kwargs):
    """Fit and return ``(estimator, warnings)``; no RuntimeWarning other than ours may escape."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        estimator.fit(*args, **kwargs)
    numpy_noise = [
        w for w in caught
        if w.category is RuntimeWarning and "encountered" in str(w.message)
    ]  # fmt: skip
    assert not numpy_noise, [str(w.message) for w in numpy_noise]
    return estimator, caught


def scale_warnings(caught):
    return [
        w for w in caught if issubclass(w.category, NumericalWarning) and "scale" in str(w.message)
    ]


def assert_scaled(actual, expected, factor=1.0):
    """``actual == expected · factor`` to RTOL (factor applied in a way that cannot overflow)."""
    actual = np.asarray(actual, dtype=float)
    expected = np.asarray(expected, dtype=float)
    with np.errstate(over="ignore", under="ignore"):
        np.testing.assert_allclose(actual / factor, expected, rtol=RTOL, atol=0)


# ---------------------------------------------------------------------------- linear models


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize("solver", ["qr", "normal", "svd", "gd"])
def test_linear_regression_scaled_x_and_y(solver, s):
    ref = LinearRegression(solver=solver).fit(X, Y)
    est, caught = fit_quietly(LinearRegression(solver=solver), X * s, Y * s)
    assert_scaled(est.coef_, ref.coef_)  # t / s = 1
    assert_scaled(est.intercept_, ref.intercept_, s)
    assert_scaled(est.predict(X * s), ref.predict(X), s)
    np.testing.assert_allclose(est.pvalues_, ref.pvalues_, rtol=1e-6)
    np.testing.assert_allclose(est.tvalues_, ref.tvalues_, rtol=1e-6)
    assert_scaled(est.bse_[1:], ref.bse_[1:])
    assert_scaled(est.sigma_, ref.sigma_, s)
    assert est.r_squared_ == pytest.approx(ref.r_squared_, rel=1e-10)
    assert est.f_statistic_ == pytest.approx(ref.f_statistic_, rel=1e-6)
    assert est.loglik_ == pytest.approx(ref.loglik_ - N * math.log(s), rel=1e-10)
    assert est.aic_ == pytest.approx(ref.aic_ + 2 * N * math.log(s), rel=1e-10)
    assert est.rss_ == (np.inf if s > 1 else 0.0)  # s² · RSS is out of float64's range
    (w,) = scale_warnings(caught)
    assert "rss_" in str(w.message) and "data's scale" in str(w.message)
    assert "RankDeficient" not in " ".join(x.category.__name__ for x in caught)
    est.summary()  # prints without error


@pytest.mark.parametrize("s", SCALES)
def test_linear_regression_scaled_x_only(s):
    ref = LinearRegression().fit(X, Y)
    est, _ = fit_quietly(LinearRegression(), X * s, Y)
    assert_scaled(est.coef_, ref.coef_, 1 / s)
    assert est.intercept_ == pytest.approx(ref.intercept_, rel=RTOL)
    assert_scaled(est.predict(X * s), ref.predict(X))
    np.testing.assert_allclose(est.pvalues_, ref.pvalues_, rtol=1e-6)
    assert est.rss_ == pytest.approx(ref.rss_, rel=1e-10)
    assert est.loglik_ == pytest.approx(ref.loglik_, rel=1e-10)


def test_linear_regression_one_extreme_column():
    """Each column gets its own power of two: a column near 1e300 next to ordinary ones."""
    Xm = X.copy()
    Xm[:, 2] *= 1e300
    ref = LinearRegression().fit(X, Y)
    est, caught = fit_quietly(LinearRegression(), Xm, Y)
    assert_scaled(est.coef_[[0, 1, 3]], ref.coef_[[0, 1, 3]])
    assert_scaled(est.coef_[2], ref.coef_[2], 1e-300)
    (w,) = scale_warnings(caught)  # its variance, near 1e-600, underflows
    assert "cov_params_" in str(w.message)
    np.testing.assert_allclose(est.pvalues_, ref.pvalues_, rtol=1e-6)


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize(
    "family, y, scale_y",
    [("gaussian", Y, True), ("binomial", Y_BIN, False), ("poisson", Y_COUNT, False)],
)
def test_glm(family, y, scale_y, s):
    t = s if scale_y else 1.0
    ref = GLMRegressor(family=family).fit(X, y)
    est, _ = fit_quietly(GLMRegressor(family=family), X * s, y * t)
    assert_scaled(est.coef_, ref.coef_, t / s)
    assert_scaled(est.intercept_, ref.intercept_, t)
    assert_scaled(est.predict(X * s), ref.predict(X), t)
    np.testing.assert_allclose(est.pvalues_, ref.pvalues_, rtol=1e-6)
    assert_scaled(est.bse_[1:], ref.bse_[1:], t / s)
    if scale_y:
        assert est.aic_ == pytest.approx(ref.aic_ + 2 * N * math.log(s), rel=1e-10)
    else:
        assert est.deviance_ == pytest.approx(ref.deviance_, rel=1e-10)
        assert est.aic_ == pytest.approx(ref.aic_, rel=1e-10)


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize("solver", ["newton", "lbfgs"])
def test_logistic_regression(solver, s):
    ref = LogisticRegression(solver=solver).fit(X, Y_BIN)
    est, caught = fit_quietly(LogisticRegression(solver=solver), X * s, Y_BIN)
    assert_scaled(est.coef_, ref.coef_, 1 / s)
    np.testing.assert_allclose(est.intercept_, ref.intercept_, rtol=1e-6)
    np.testing.assert_allclose(est.predict_proba(X * s), ref.predict_proba(X), rtol=1e-6)
    np.testing.assert_allclose(est.pvalues_, ref.pvalues_, rtol=1e-5)
    assert est.deviance_ == pytest.approx(ref.deviance_, rel=1e-8)
    assert not [w for w in caught if "singularities" in str(w.message)]


@pytest.mark.parametrize(
    "kw",
    [
        {"penalty": "l2"},
        {"penalty": "l2", "solver": "lbfgs"},
        {"penalty": "l2", "solver": "cd"},
        {"penalty": "l2", "solver": "gd"},
        {"penalty": "l1", "solver": "cd"},
        {"penalty": "elasticnet", "l1_ratio": 0.5, "solver": "cd"},
    ],
)
def test_penalised_logistic_regression_large_scale(kw):
    """On X × s the objective C·loss + λ₁‖β‖₁ + (λ₂/2)‖β‖² is, with γ = sβ, the same loss with
    penalties λ₁/s and λ₂/s²: at s = 1e300 they vanish and the fit is the unpenalised one."""
    s = 1e300
    ref = LogisticRegression().fit(X, Y_BIN)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # CD's gap test at a tiny penalty
        est, _ = fit_quietly(LogisticRegression(**kw, max_iter=1000), X * s, Y_BIN)
    np.testing.assert_allclose(est.coef_ * s, ref.coef_, rtol=1e-5)
    np.testing.assert_allclose(est.intercept_, ref.intercept_, rtol=1e-5)
    np.testing.assert_allclose(est.predict_proba(X * s), ref.predict_proba(X), rtol=1e-5)


@pytest.mark.parametrize("s", SCALES)
def test_multinomial_logistic_regression(s):
    y3 = np.digitize(X[:, 0] - X[:, 1] + rng.normal(size=N), [-4.0, -2.5])
    ref = LogisticRegression().fit(X, y3)
    est, _ = fit_quietly(LogisticRegression(), X * s, y3)
    np.testing.assert_allclose(est.predict_proba(X * s), ref.predict_proba(X), rtol=1e-6)
    assert_scaled(est.coef_, ref.coef_, 1 / s)


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize("selector", [BestSubsetSelector, StepwiseSelector])
def test_subset_selection(selector, s):
    ref = selector().fit(X, Y)
    est, caught = fit_quietly(selector(), X * s, Y * s)
    np.testing.assert_array_equal(est.support_, ref.support_)
    assert est.best_size_ == ref.best_size_
    for a, b in zip(est.path_, ref.path_, strict=True):
        assert a["variables"] == b["variables"]
        assert a["r2"] == pytest.approx(b["r2"], rel=1e-10)
        assert a["bic"] == pytest.approx(b["bic"], rel=1e-8)
        assert a["aic"] == pytest.approx(b["aic"] + 2 * N * math.log(s), rel=1e-10)
    assert scale_warnings(caught)  # the RSS column is out of range
    est_x, _ = fit_quietly(selector(criterion="cv", cv=3), X * s, Y)
    ref_x = selector(criterion="cv", cv=3).fit(X, Y)
    np.testing.assert_array_equal(est_x.support_, ref_x.support_)
    np.testing.assert_allclose(
        [r["cv"] for r in est_x.path_], [r["cv"] for r in ref_x.path_], rtol=1e-8
    )


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize("solver", ["highs", "irls"])
def test_lad_regressor(solver, s):
    ref = LADRegressor(solver=solver).fit(X, Y)
    est, _ = fit_quietly(LADRegressor(solver=solver), X * s, Y * s)
    np.testing.assert_allclose(est.coef_, ref.coef_, rtol=1e-6)
    assert_scaled(est.intercept_, ref.intercept_, s)
    assert est.objective_ / s == pytest.approx(ref.objective_, rel=1e-6)
    np.testing.assert_allclose(est.predict(X * s) / s, ref.predict(X), rtol=1e-6)


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize("solver", ["lbfgs", "irls"])
def test_huber_regressor(solver, s):
    """Huber's loss is equivariant when y and its threshold delta scale together:
    ``ρ_{sδ}(s r) = s² ρ_δ(r)``; the columns of X scale freely."""
    ref = HuberRegressor(solver=solver).fit(X, Y)
    est, _ = fit_quietly(HuberRegressor(solver=solver), X * s, Y)
    assert_scaled(est.coef_, ref.coef_, 1 / s)
    np.testing.assert_allclose(est.predict(X * s), ref.predict(X), rtol=1e-6)
    est, caught = fit_quietly(HuberRegressor(solver=solver, delta=1.35 * s), X * s, Y * s)
    np.testing.assert_allclose(est.coef_, ref.coef_, rtol=1e-6)
    np.testing.assert_allclose(est.predict(X * s) / s, ref.predict(X), rtol=1e-6)
    assert est.objective_ == (np.inf if s > 1 else 0.0)
    assert scale_warnings(caught)


@pytest.mark.parametrize("s", SCALES)
def test_least_squares_classifier(s):
    y3 = np.digitize(X[:, 0] - X[:, 1], [-4.0, -2.5])
    ref = LeastSquaresClassifier().fit(X, y3)
    est, _ = fit_quietly(LeastSquaresClassifier(), X * s, y3)
    assert_scaled(est.coef_, ref.coef_, 1 / s)
    np.testing.assert_allclose(est.decision_function(X * s), ref.decision_function(X), rtol=1e-8)
    np.testing.assert_array_equal(est.predict(X * s), ref.predict(X))


# ------------------------------------------------------------------ penalised least squares
# A penalty is not scale free, so "the exactly scaled answer" is the optimum of the same
# objective on the scaled data. With β = (t/s) γ:
#   Ridge  ‖ty − sXβ‖² + α‖β‖²            = t² (‖y − Xγ‖² + (α/s²)‖γ‖²)
#   Lasso  ‖ty − sXβ‖²/2n + α‖β‖₁         = t² (‖y − Xγ‖²/2n + (α/(st))‖γ‖₁)
# so the fit on (sX, ty) is t/s times the fit of the transformed penalty on (X, y); at
# s = 1e300 the transformed penalty underflows to 0 (least squares), at s = 1e-300 it
# exceeds float64 and the slopes are the limit Zᵀt/α' (ridge) or exactly 0 (lasso).


@pytest.mark.parametrize("solver", ["cholesky", "svd", "dual"])
@pytest.mark.parametrize(("s", "t"), [(1e300, 1e300), (1e300, 1.0), (1e-300, 1.0)])
def test_ridge_scaled_objective(solver, s, t):
    est, _ = fit_quietly(Ridge(alpha=2.0, solver=solver), X * s, Y * t)
    if s > 1:  # alpha / s² underflows: least squares
        ref = LinearRegression().fit(X, Y)
        coef, intercept = ref.coef_, ref.intercept_
    else:  # alpha / s² overflows: β = s t Xcᵀyc / alpha, intercept ȳ
        coef = (X - X.mean(axis=0)).T @ (Y - Y.mean()) * (s / 2.0)
        intercept = Y.mean()
    assert_scaled(est.coef_, coef, t / s if s > 1 else t)
    assert_scaled(est.intercept_, intercept, t)
    np.testing.assert_allclose(
        est.predict(X * s) / t,
        LinearRegression().fit(X, Y).predict(X) if s > 1 else np.full(N, Y.mean()),
        rtol=1e-8,
    )


@pytest.mark.parametrize("solver", ["cholesky", "svd", "dual"])
def test_ridge_power_of_two_rescaling_is_exact(solver):
    s = 2.0**-250  # X near 1e-75: rescaled; the penalty becomes alpha / s² = alpha · 2^500
    est = Ridge(alpha=2.0, solver=solver).fit(X * s, Y)
    ref = Ridge(alpha=2.0 / s / s, solver=solver).fit(X, Y)
    np.testing.assert_allclose(est.coef_ * s, ref.coef_, rtol=1e-12)
    assert est.intercept_ == pytest.approx(ref.intercept_, rel=1e-12)


@pytest.mark.parametrize("estimator", [Lasso, lambda **kw: ElasticNet(l1_ratio=0.5, **kw)])
@pytest.mark.parametrize(("s", "t"), [(1e300, 1e300), (1e300, 1.0)])
def test_enet_large_scale_is_least_squares(estimator, s, t):
    est, _ = fit_quietly(estimator(alpha=0.5, tol=1e-12, max_iter=100_000), X * s, Y * t)
    ref = LinearRegression().fit(X, Y)
    np.testing.assert_allclose(est.coef_ * (s / t), ref.coef_, rtol=1e-6)
    assert est.intercept_ / t == pytest.approx(ref.intercept_, rel=1e-6)


@pytest.mark.parametrize("estimator", [Lasso, lambda **kw: ElasticNet(l1_ratio=0.5, **kw)])
@pytest.mark.parametrize(("s", "t"), [(1e-300, 1.0), (1e-300, 1e-300)])
def test_enet_small_scale_is_the_null_model(estimator, s, t):
    est, caught = fit_quietly(estimator(alpha=0.5), X * s, Y * t)
    np.testing.assert_array_equal(est.coef_, np.zeros(P))
    assert est.intercept_ / t == pytest.approx(Y.mean(), rel=1e-12)
    assert not scale_warnings(caught)


def test_lasso_rescaled_penalty_is_exact():
    """X × 2^-300 and y × 2^300: the L1 strength α/(st) is α again, so the fit is 2^600 times
    the fit on the unscaled data."""
    s, t = 2.0**-300, 2.0**300
    est = Lasso(alpha=0.3, tol=1e-12).fit(X * s, Y * t)
    ref = Lasso(alpha=0.3, tol=1e-12).fit(X, Y)
    assert np.count_nonzero(ref.coef_) not in (0, P)
    np.testing.assert_allclose(est.coef_ * (s / t), ref.coef_, rtol=1e-10)
    assert est.intercept_ / t == pytest.approx(ref.intercept_, rel=1e-10)


# ----------------------------------------------------------------- distance-based methods


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize("metric", ["euclidean", "manhattan", "chebyshev"])
def test_dbscan(metric, s):
    ref = DBSCAN(eps=0.6, min_samples=4, metric=metric).fit(BLOBS)
    assert ref.n_clusters_ == 3
    est, _ = fit_quietly(DBSCAN(eps=0.6 * s, min_samples=4, metric=metric), BLOBS * s)
    np.testing.assert_array_equal(est.labels_, ref.labels_)
    np.testing.assert_array_equal(est.core_sample_indices_, ref.core_sample_indices_)
    np.testing.assert_array_equal(est.components_, (BLOBS * s)[ref.core_sample_indices_])


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize(
    "make",
    [
        lambda: KMeans(3, random_state=0),
        lambda: KMeans(3, init="random", n_init=3, random_state=0, algorithm="elkan"),
        lambda: MiniBatchKMeans(3, random_state=0, batch_size=20),
    ],
    ids=["lloyd", "elkan", "minibatch"],
)
def test_kmeans(make, s):
    ref = make().fit(BLOBS)
    est, caught = fit_quietly(make(), BLOBS * s)
    np.testing.assert_array_equal(est.labels_, ref.labels_)
    assert_scaled(est.cluster_centers_, ref.cluster_centers_, s)
    assert est.inertia_ == (np.inf if s > 1 else 0.0)  # s² · inertia: out of range
    (w,) = scale_warnings(caught)
    assert "inertia_" in str(w.message)
    np.testing.assert_array_equal(est.predict(BLOBS * s), ref.labels_)
    assert_scaled(est.transform(BLOBS * s), ref.transform(BLOBS), s)


@pytest.mark.parametrize("s", [2.0**-300, 2.0**300])
def test_kmeans_inertia_in_range_is_scaled(s):
    """Data near 1e±90 are rescaled too; there s² · inertia is a normal number: exact, no
    warning (s a power of two: bit for bit)."""
    data = BLOBS * s
    ref = KMeans(3, random_state=0).fit(BLOBS)
    est, caught = fit_quietly(KMeans(3, random_state=0), data)
    np.testing.assert_array_equal(est.labels_, ref.labels_)
    assert est.inertia_ == ref.inertia_ * s * s
    np.testing.assert_array_equal(est.cluster_centers_, ref.cluster_centers_ * s)
    assert not scale_warnings(caught)


@pytest.mark.parametrize("s", SCALES)
def test_kmeans_plusplus_chooses_the_same_rows(s):
    _, ref = kmeans_plusplus(BLOBS, 3, random_state=1)
    centres, idx = kmeans_plusplus(BLOBS * s, 3, random_state=1)
    np.testing.assert_array_equal(idx, ref)
    np.testing.assert_array_equal(centres, (BLOBS * s)[ref])


@pytest.mark.parametrize("estimator", [KMeans, MiniBatchKMeans])
def test_kmeans_fewer_distinct_points_than_clusters(estimator):
    with pytest.warns(ConvergenceWarning, match=r"only 1 distinct cluster.*n_clusters=3"):
        estimator(n_clusters=3, random_state=0).fit(np.ones((10, 2)))
    data = np.repeat([[0.0, 0.0], [1.0, 1.0]], 5, axis=0)
    with pytest.warns(ConvergenceWarning, match=r"only 2 distinct"):
        estimator(n_clusters=3, random_state=0).fit(data)


def test_kmeans_enough_distinct_points_no_warning():
    data = np.repeat([[0.0, 0.0], [1.0, 1.0], [5.0, 5.0]], 4, axis=0)
    _, caught = fit_quietly(KMeans(n_clusters=3, random_state=0), data)
    assert not [w for w in caught if issubclass(w.category, ConvergenceWarning)]


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize("linkage", ["ward", "single", "complete", "average"])
def test_agglomerative(linkage, s):
    ref = AgglomerativeClustering(n_clusters=3, linkage=linkage).fit(X)
    est, caught = fit_quietly(AgglomerativeClustering(n_clusters=3, linkage=linkage), X * s)
    np.testing.assert_array_equal(est.labels_, ref.labels_)
    assert est.n_clusters_ == 3
    np.testing.assert_array_equal(est.children_, ref.children_)
    assert_scaled(est.distances_, ref.distances_, s)
    assert not scale_warnings(caught)


@pytest.mark.parametrize("s", SCALES)
def test_agglomerative_ward_sse_increase_out_of_range(s):
    est, caught = fit_quietly(AgglomerativeClustering(ward_height="sse_increase"), X * s)
    assert est.distances_.max() == np.inf or est.distances_.min() == 0.0
    assert scale_warnings(caught)


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize("weights", ["uniform", "distance"])
@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_knn(algorithm, weights, s):
    kw = {"n_neighbors": 5, "weights": weights, "algorithm": algorithm}
    ref_c = KNeighborsClassifier(**kw).fit(X, Y_BIN)
    est_c, _ = fit_quietly(KNeighborsClassifier(**kw), X * s, Y_BIN)
    np.testing.assert_allclose(est_c.predict_proba(X * s), ref_c.predict_proba(X), rtol=1e-8)
    dist, ind = est_c.kneighbors(X[:7] * s)
    ref_dist, ref_ind = ref_c.kneighbors(X[:7])
    np.testing.assert_array_equal(ind, ref_ind)
    assert_scaled(dist, ref_dist, s)
    ref_r = KNeighborsRegressor(**kw).fit(X, Y)
    est_r, _ = fit_quietly(KNeighborsRegressor(**kw), X * s, Y * s)
    assert_scaled(est_r.predict(X * s), ref_r.predict(X), s)
    np.testing.assert_array_equal(est_r.kneighbors()[1], ref_r.kneighbors()[1])


# ----------------------------------------------------------------------------------- PCA


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize("solver", ["full", "randomized", "auto"])
def test_pca(solver, s):
    kw = {"svd_solver": solver, "random_state": 0}
    if solver == "randomized":
        kw["n_components"] = 2
    ref = PCA(**kw).fit(X)
    est, caught = fit_quietly(PCA(**kw), X * s)
    np.testing.assert_allclose(est.components_, ref.components_, rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(
        est.explained_variance_ratio_, ref.explained_variance_ratio_, rtol=1e-8
    )
    assert_scaled(est.mean_, ref.mean_, s)
    assert_scaled(est.singular_values_, ref.singular_values_, s)
    assert_scaled(est.transform(X * s), ref.transform(X), s)
    (w,) = scale_warnings(caught)  # variances: s² out of range
    assert "explained_variance_" in str(w.message)


@pytest.mark.parametrize("s", SCALES)
def test_pca_standardised_is_scale_free(s):
    ref = PCA(scale=True).fit(X)
    est, caught = fit_quietly(PCA(scale=True), X * s)
    np.testing.assert_allclose(est.components_, ref.components_, rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(est.explained_variance_, ref.explained_variance_, rtol=1e-8)
    assert_scaled(est.scale_, ref.scale_, s)
    np.testing.assert_allclose(est.transform(X * s), ref.transform(X), rtol=1e-6, atol=1e-10)
    assert not scale_warnings(caught)


@pytest.mark.parametrize("s", [1e300, 1e200, 1e-300])
@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_knn_queries_far_from_the_training_scale(algorithm, s):
    """Queries whose squared distances to ordinary training rows overflow are answered on a
    common rescaling (a brute search), not with inf distances (which crashed the search)."""
    est = KNeighborsClassifier(5, algorithm=algorithm).fit(X, Y_BIN)
    Q = X[:3] * s
    dist, ind = est.kneighbors(Q)
    assert np.all(np.isfinite(dist))
    c = max(s, 1.0)
    expected = np.sqrt((((Q[:, None, :] - X[ind]) / c) ** 2).sum(axis=2)) * c
    np.testing.assert_allclose(dist, expected, rtol=1e-12)
    assert est.predict(Q).shape == (3,)


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize("affinity", ["nearest_neighbors", "epsilon"])
def test_spectral_clustering(affinity, s):
    kw = {"n_clusters": 3, "affinity": affinity, "random_state": 0}
    ref = SpectralClustering(**kw, eps=1.5).fit(BLOBS)
    est, _ = fit_quietly(SpectralClustering(**kw, eps=1.5 * s), BLOBS * s)
    np.testing.assert_array_equal(est.labels_, ref.labels_)


@pytest.mark.parametrize("s", [2.0**300, 2.0**-300])
def test_spectral_clustering_rbf(s):
    """exp(-γ‖x − x'‖²) is unchanged when X is multiplied by s and γ divided by s²."""
    ref = SpectralClustering(n_clusters=3, gamma=0.5, random_state=0).fit(BLOBS)
    est, _ = fit_quietly(
        SpectralClustering(n_clusters=3, gamma=0.5 / s / s, random_state=0), BLOBS * s
    )
    np.testing.assert_array_equal(est.labels_, ref.labels_)


@pytest.mark.parametrize("s", SCALES)
def test_lasso_path_selector(s):
    for kw in ({}, {"standardize": False}, {"max_features": 2}):
        ref = LassoPathSelector(**kw).fit(X, Y)
        est, _ = fit_quietly(LassoPathSelector(**kw), X * s, Y)
        np.testing.assert_array_equal(est.entry_order_, ref.entry_order_)
        np.testing.assert_array_equal(est.support_, ref.support_)
        if kw.get("standardize", True):
            np.testing.assert_allclose(est.alphas_, ref.alphas_, rtol=1e-8)
        else:  # the grid follows max |Xᵀy| / n
            assert_scaled(est.alphas_, ref.alphas_, s)


# ------------------------------------- estimators that do not rescale: a warning, not silence


@pytest.mark.parametrize(
    "make, target, s",
    [
        (lambda: GaussianMixture(2, random_state=0), "X", 1e-300),  # reg_covar swamps the data
        (lambda: QuadraticDiscriminantAnalysis(reg_param=0.1), "X", 1e-300),  # so does r·I
        (lambda: GradientBoostingRegressor(n_estimators=3), "y", 1e300),
        (lambda: GradientBoostingRegressor(n_estimators=3), "y", 1e-300),
    ],
)
def test_unrescaled_estimators_say_the_scale_is_the_problem(make, target, s):
    Xs, ys = (X * s, Y_BIN) if target == "X" else (X, Y * s)
    if "GaussianMixture" in repr(make()):
        ys = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            make().fit(Xs) if ys is None else make().fit(Xs, ys)
        except (ValueError, FloatingPointError, np.linalg.LinAlgError):
            pass  # what follows may fail; the warning came first
    messages = [str(w.message) for w in caught if issubclass(w.category, NumericalWarning)]
    assert any(f"largest |{target}|" in m and "data's scale" in m for m in messages), messages


# ------------------------------------------- Gaussian class models and mixtures: rescaled fits


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize(
    "make, variances",
    [
        (GaussianNB, "var_"),
        (lambda: GaussianNB(ddof=1, var_smoothing=0.0), "var_"),
        (lambda: MixedNB(categorical_features=[3]), "var_"),
        (QuadraticDiscriminantAnalysis, "covariances_"),
    ],
)
def test_gaussian_class_models(make, variances, s):
    Xc = X.copy()
    Xc[:, 3] = np.arange(N) % 3  # level codes for MixedNB's categorical column
    if "MixedNB" in repr(make()):
        Xs = Xc * np.array([s, s, s, 1.0])
        Xc[5, 1] = Xs[5, 1] = np.nan  # a missing value is passed over by the scale too
        shift = np.sum(~np.isnan(Xc[:, :3]), axis=1) * np.log(s)
    else:
        Xs, shift = X * s, None
        Xc = X
    ref = make().fit(Xc, Y_BIN)
    est, caught = fit_quietly(make(), Xs, Y_BIN)
    np.testing.assert_allclose(est.predict_proba(Xs), ref.predict_proba(Xc), rtol=1e-8)
    np.testing.assert_array_equal(est.predict(Xs), ref.predict(Xc))
    means = est.theta_ if hasattr(est, "theta_") else est.means_
    ref_means = ref.theta_ if hasattr(ref, "theta_") else ref.means_
    assert_scaled(means, ref_means, s)
    if shift is not None:
        np.testing.assert_allclose(
            est.predict_log_likelihood(Xs), ref.predict_log_likelihood(Xc) - shift[:, None],
            rtol=1e-10,
        )  # fmt: skip
    (w,) = scale_warnings(caught)  # the variances are out of float64's range
    assert variances in str(w.message)


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize("covariance_type", ["full", "tied", "diag", "spherical"])
def test_gaussian_mixture(covariance_type, s):
    def make():
        return GaussianMixture(3, covariance_type=covariance_type, reg_covar=0.0, random_state=0)

    ref = make().fit(BLOBS)
    est, caught = fit_quietly(make(), BLOBS * s)
    np.testing.assert_allclose(est.predict_proba(BLOBS * s), ref.predict_proba(BLOBS), atol=1e-12)
    shift = 2 * np.log(s)
    np.testing.assert_allclose(est.score_samples(BLOBS * s), ref.score_samples(BLOBS) - shift)
    np.testing.assert_allclose(est.lower_bound_, ref.lower_bound_ - shift)
    assert_scaled(est.means_, ref.means_, s)
    assert_scaled(est.sample(7)[0], ref.sample(7)[0], s)
    (w,) = scale_warnings(caught)
    assert "covariances_" in str(w.message)


def test_gaussian_mixture_initial_values_in_x_units():
    s = 2.0**400  # beyond 2**200: the fit rescales, and so must the initial values
    means, prec = np.array([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]]), np.full(3, 10.0)

    def make(scale):
        kw = {"means_init": means * scale, "precisions_init": prec / scale**2}
        return GaussianMixture(3, covariance_type="spherical", max_iter=0, **kw)

    ref = make(1.0).fit(BLOBS)
    est, _ = fit_quietly(make(s), BLOBS * s)
    np.testing.assert_allclose(est.predict_proba(BLOBS * s), ref.predict_proba(BLOBS), atol=1e-12)


@pytest.mark.parametrize(
    "kw",
    [{}, {"solver": "eigen"}, {"solver": "eigen", "shrinkage": "auto"}, {"covariance": "total"}],
)
@pytest.mark.parametrize("s", SCALES)
def test_lda(kw, s):
    y3 = np.digitize(X[:, 0] - X[:, 1] + rng.normal(size=N), [-4.0, -2.5])
    ref = LinearDiscriminantAnalysis(**kw).fit(X, y3)
    est, caught = fit_quietly(LinearDiscriminantAnalysis(**kw), X * s, y3)
    np.testing.assert_allclose(est.predict_proba(X * s), ref.predict_proba(X), rtol=1e-8)
    np.testing.assert_array_equal(est.predict(X * s), ref.predict(X))
    assert_scaled(est.means_, ref.means_, s)
    assert_scaled(est.scalings_, ref.scalings_, 1 / s)
    assert_scaled(est.discriminant_functions_[:, 1:], ref.discriminant_functions_[:, 1:], 1 / s)
    np.testing.assert_allclose(
        est.discriminant_functions_[:, 0], ref.discriminant_functions_[:, 0], rtol=1e-8
    )
    np.testing.assert_allclose(est.transform(X * s), ref.transform(X), rtol=1e-7, atol=1e-9)
    (w,) = scale_warnings(caught)
    assert "covariance_" in str(w.message)


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize(
    "make",
    [
        DecisionTreeRegressor,
        lambda: DecisionTreeRegressor(criterion="absolute_error", max_depth=3),
        lambda: DecisionTreeRegressor(cp=0.01, xval=3, random_state=0),
        lambda: DecisionTreeRegressor(max_leaf_nodes=6, min_samples_leaf=3),
        lambda: RandomForestRegressor(n_estimators=5, oob_score=True, random_state=0),
        lambda: BaggingRegressor(n_estimators=5, random_state=0),
    ],
)
def test_regression_trees_scaled_y(make, s):
    """Splits depend on y only through impurity comparisons, which y / t (t a power of two)
    keeps exactly: node values scale by s, impurities by s² (out of range: a warning)."""
    ref = make().fit(X, Y)
    est, caught = fit_quietly(make(), X, Y * s)
    assert_scaled(est.predict(X), ref.predict(X), s)
    if hasattr(ref, "tree_"):
        np.testing.assert_array_equal(est.tree_.feature, ref.tree_.feature)
        np.testing.assert_array_equal(est.tree_.threshold, ref.tree_.threshold)
        if ref.criterion == "squared_error":
            assert scale_warnings(caught)
    if hasattr(ref, "cptable_"):
        np.testing.assert_allclose(est.cptable_["xerror"], ref.cptable_["xerror"], rtol=1e-12)
    if hasattr(ref, "oob_score_"):
        assert est.oob_score_ == pytest.approx(ref.oob_score_, rel=1e-12)


@pytest.mark.parametrize("s", SCALES)
def test_bootstrap_and_jackknife_standard_errors(s):
    """Replicates near 1e±300: standard errors from rescaled replicates (their squares would
    leave float64's range); LinearRegression's batched path gives way to its rescaling fit."""
    ref = bootstrap(LinearRegression(), X, Y, attribute="coef_", n_resamples=40, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumericalWarning)  # each refit's rss_ is out of range
        est = bootstrap(
            LinearRegression(), X * s, Y, attribute="coef_", n_resamples=40, random_state=0
        )
    assert_scaled(est.se, ref.se, 1 / s)
    assert_scaled(est.ci_low, ref.ci_low, 1 / s)

    def stat(A, _):
        return np.array([A.mean(), A[:, 0].max()])

    assert_scaled(jackknife(stat, X * s).se, jackknife(stat, X).se, s)
    assert_scaled(
        bootstrap(stat, X * s, n_resamples=30, random_state=0).se,
        bootstrap(stat, X, n_resamples=30, random_state=0).se,
        s,
    )


@pytest.mark.parametrize("s", SCALES)
@pytest.mark.parametrize("metric", ["cosine", "manhattan", "chebyshev", "minkowski"])
def test_knn_other_metrics(metric, s):
    kw = {"n_neighbors": 5, "metric": metric, "p": 3}
    ref = KNeighborsClassifier(**kw).fit(X, Y_BIN)
    est, _ = fit_quietly(KNeighborsClassifier(**kw), X * s, Y_BIN)
    np.testing.assert_allclose(est.predict_proba(X * s), ref.predict_proba(X), rtol=1e-8)
    dist, ind = est.kneighbors(X[:7] * s)
    ref_dist, ref_ind = ref.kneighbors(X[:7])
    np.testing.assert_array_equal(ind, ref_ind)
    if metric == "cosine":  # scale free; a row's distance to itself is 0 up to rounding
        np.testing.assert_allclose(dist, ref_dist, rtol=1e-8, atol=1e-12)
    else:
        assert_scaled(dist, ref_dist, s)


@pytest.mark.parametrize("s", SCALES)
def test_bayes_classifier_fitted_gaussians(s):
    Xs = X * np.array([s, 1.0, s, 1.0])  # two extreme columns beside two ordinary ones
    ref = BayesClassifier().fit(X[:, :2], Y_BIN)
    est, caught = fit_quietly(BayesClassifier(), Xs[:, :2], Y_BIN)
    np.testing.assert_allclose(est.predict_proba(Xs[:, :2]), ref.predict_proba(X[:, :2]), rtol=1e-8)
    assert_scaled(est.means_[:, 0], ref.means_[:, 0], s)
    np.testing.assert_allclose(est.means_[:, 1], ref.means_[:, 1], rtol=1e-12)
    (w,) = scale_warnings(caught)
    assert "covariances_" in str(w.message)
    a, b = est.bayes_error_rate(), ref.bayes_error_rate()
    assert abs(a.rate - b.rate) <= a.std_error + b.std_error
    full, _ = fit_quietly(BayesClassifier(), Xs, Y_BIN)
    np.testing.assert_array_equal(full.predict(Xs), BayesClassifier().fit(X, Y_BIN).predict(X))


@pytest.mark.parametrize("estimate", [False, True])
@pytest.mark.parametrize("ex, ey", [(300, 0), (0, 300), (-300, -300), (300, 300), (-250, 250)])
def test_bayesian_linear_regression(ex, ey, estimate):
    """With the prior and noise given in the data's units (α by g², σ² by t² for
    ``g = s/t``), the posterior on ``X·s``, ``y·t`` is the unscaled one, scaled."""
    s, t = 2.0**ex, 2.0**ey
    g = s / t
    kw = {"estimate_hyperparameters": estimate}
    ref = BayesianLinearRegression(alpha=0.5, sigma2=2.0, **kw).fit(X, Y)
    est, caught = fit_quietly(
        BayesianLinearRegression(alpha=0.5 * g * g, sigma2=2.0 * t * t, **kw), X * s, Y * t
    )
    assert not scale_warnings(caught)
    mean, std = est.predict(X * s, return_std=True)
    ref_mean, ref_std = ref.predict(X, return_std=True)
    assert_scaled(mean, ref_mean, t)
    assert_scaled(std, ref_std, t)
    assert_scaled(est.coef_, ref.coef_, 1 / g)
    assert_scaled(est.alpha_, ref.alpha_, g * g)
    assert_scaled(est.sigma2_, ref.sigma2_, t * t)
    n = X.shape[0]
    np.testing.assert_allclose(est.log_evidence_, ref.log_evidence_ - (n - 1) * np.log(t))


def test_bayesian_linear_regression_default_prior_at_1e300():
    """The fixed prior α = 1 is negligible beside XᵀX ~ 1e600: the posterior is the least
    squares fit, exact, and its covariance (~1e-600) is what float64 cannot hold."""
    est, caught = fit_quietly(BayesianLinearRegression(), X * 1e300, Y)
    np.testing.assert_allclose(
        est.predict(X * 1e300), LinearRegression().fit(X, Y).predict(X), rtol=1e-10
    )
    (w,) = scale_warnings(caught)
    assert "posterior_cov_" in str(w.message)
    assert np.all(np.isfinite(est.predict(X * 1e300, return_std=True)[1]))


@pytest.mark.parametrize("s", SCALES)
def test_filter_scores(s):
    Xs = X * np.array([s, 1.0, s, 1.0])
    np.testing.assert_allclose(mutual_info_scores(Xs, Y), mutual_info_scores(X, Y), rtol=1e-12)
    np.testing.assert_allclose(mutual_info_scores(Xs, Y * s), mutual_info_scores(X, Y), rtol=1e-12)
    np.testing.assert_allclose(f_scores(Xs, Y_BIN), f_scores(X, Y_BIN), rtol=1e-10)
    counts = np.abs(X) + 1.0
    got = variance_mean_scores(counts * np.array([s, 1.0, s, 1.0]))
    want = variance_mean_scores(counts)
    assert_scaled(got[[0, 2]], want[[0, 2]], s)
    np.testing.assert_allclose(got[[1, 3]], want[[1, 3]], rtol=1e-12)
    kw = {"score_func": mutual_info_scores, "p_value": 0.5, "n_permutations": 20, "random_state": 0}
    est, ref = FilterSelector(**kw).fit(X * s, Y), FilterSelector(**kw).fit(X, Y)
    np.testing.assert_array_equal(est.get_support(), ref.get_support())
    np.testing.assert_allclose(est.pvalues_, ref.pvalues_)


@pytest.mark.parametrize("s", [*SCALES, 2.0**1000])
@pytest.mark.parametrize(
    "kw",
    [
        {"bandwidth": "scott"},
        {"bandwidth": "silverman", "kernel": "epanechnikov"},
        {"bandwidth": "cv"},
        {"bandwidth": 0.7, "kernel": "exponential"},
    ],
)
def test_kernel_density(kw, s):
    """Rule-of-thumb and cross-validated bandwidths follow the data's scale, so the density of
    X·s is that of X divided by s^D; a fixed bandwidth given in X·s's units likewise (the
    cross-validation's optimiser, stopped at 1e-3 in log h, is allowed its own rounding)."""
    ref = KernelDensity(**kw).fit(BLOBS)
    if not isinstance(kw["bandwidth"], str):
        kw = {**kw, "bandwidth": kw["bandwidth"] * s}
    est, caught = fit_quietly(KernelDensity(**kw), BLOBS * s)
    assert not scale_warnings(caught)
    rtol = 1e-6 if kw["bandwidth"] == "cv" else 1e-10
    np.testing.assert_allclose(
        est.score_samples(BLOBS * s), ref.score_samples(BLOBS) - 2 * np.log(s), rtol=rtol
    )
    with np.errstate(over="ignore", under="ignore"):
        np.testing.assert_allclose(est.bandwidth_ / s, ref.bandwidth_, rtol=rtol)
        np.testing.assert_allclose(
            est.sample(5, random_state=0) / s, ref.sample(5, random_state=0), rtol=rtol
        )
    np.testing.assert_array_equal(est.X_fit_, BLOBS * s)


@pytest.mark.parametrize("sx, sy", [(1e300, 1e300), (1e-300, 1e300), (1.0, 1e300), (1e300, 1e-300)])
def test_bayesian_linear_regression_fixed_prior_and_noise_far_from_the_data(sx, sy):
    """With α = σ² = 1 fixed, σ²α on the rescaled data is (σ²α)/s_x² whatever y's scale, and
    the predictive variance σ²·(x̃ᵀUx̃ + 1): the mean is exact and the standard deviations
    finite, whatever the data's scales."""
    ref = BayesianLinearRegression().fit(X * sx, Y)  # y on the unit scale: no y rescaling
    est, _ = fit_quietly(BayesianLinearRegression(), X * sx, Y * sy)
    mean, std = est.predict(X * sx, return_std=True)
    assert_scaled(mean, ref.predict(X * sx), sy)  # the posterior mean is linear in y
    assert np.all(np.isfinite(std)) and np.all(std > 0)
