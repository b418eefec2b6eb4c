"""KernelDensity: the explicit formula (far queries included), normalisation by numerical
integration in 1–3 dimensions, the tree path within its bound, scikit-learn, bandwidth rules,
likelihood cross-validation and sampling."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate, special
from sklearn.neighbors import KernelDensity as SkKernelDensity

from statlearning.neighbors import KernelDensity

KERNELS = ["gaussian", "tophat", "epanechnikov", "exponential", "linear", "cosine"]
RNG = np.random.default_rng(3)
X3 = RNG.normal(size=(120, 3))
W3 = RNG.uniform(0.2, 2.0, size=120)
# near, moderately far and very far queries (the Gaussian terms underflow at the last ones)
Q3 = np.vstack([RNG.normal(size=(25, 3)), [[4.0, 4.0, 4.0], [40.0, -3.0, 0.0], [1e3, 0.0, 0.0]]])


def _radial(kernel, u):
    return {
        "gaussian": np.exp(-0.5 * u**2),
        "tophat": (u < 1).astype(float),
        "epanechnikov": np.clip(1 - u**2, 0, None),
        "exponential": np.exp(-u),
        "linear": np.clip(1 - u, 0, None),
        "cosine": np.where(u < 1, np.cos(0.5 * np.pi * u), 0.0),
    }[kernel]


def _log_radial(kernel, u):
    if kernel == "gaussian":
        return -0.5 * u**2
    if kernel == "exponential":
        return -u
    with np.errstate(divide="ignore"):
        return np.log(_radial(kernel, u))


def _explicit_log_density(kernel, X, w, Q, h):
    """The formula written out in log space, with the constant from a 1-D radial integral."""
    D = X.shape[1]
    area = 2 * math.pi ** (D / 2) / math.gamma(D / 2)
    upper = np.inf if kernel in ("gaussian", "exponential") else 1.0
    radial = integrate.quad(lambda r: _radial(kernel, np.array(r)) * r ** (D - 1), 0, upper)[0]
    log_c = -math.log(area * radial) - D * math.log(h)
    d = np.sqrt(((Q[:, None, :] - X[None, :, :]) ** 2).sum(axis=2))
    terms = _log_radial(kernel, d / h) + np.log(w / w.sum())[None, :]
    return special.logsumexp(terms, axis=1) + log_c


@pytest.mark.parametrize("kernel", KERNELS)
def test_explicit_formula_including_far_points(kernel):
    h = 0.8
    expected = _explicit_log_density(kernel, X3, W3, Q3, h)
    got = KernelDensity(bandwidth=h, kernel=kernel, algorithm="brute").fit(X3, sample_weight=W3)
    got = got.score_samples(Q3)
    finite = np.isfinite(expected)
    np.testing.assert_array_equal(np.isfinite(got), finite)
    np.testing.assert_allclose(got[finite], expected[finite], rtol=1e-10, atol=1e-10)
    if kernel == "gaussian":
        assert got[-1] == pytest.approx(expected[-1], rel=1e-12)  # about −7.8e5, no underflow


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("D", [1, 2, 3])
def test_density_integrates_to_one(kernel, D):
    rng = np.random.default_rng(D)
    X = rng.normal(scale=0.3, size=(4, D))
    kde = KernelDensity(bandwidth=0.5, kernel=kernel, algorithm="brute").fit(X)
    lim = 6.0 if kernel in ("gaussian", "exponential") else 1.5
    if kernel == "exponential":
        lim = 14.0 if D < 3 else 9.0
    n = {1: 4001, 2: 401, 3: 81}[D]
    axis = np.linspace(-lim, lim, n)
    grid = np.stack(np.meshgrid(*([axis] * D), indexing="ij"), axis=-1).reshape(-1, D)
    dens = np.exp(kde.score_samples(grid)).reshape((n,) * D)
    total = dens
    for _ in range(D):
        total = integrate.trapezoid(total, axis, axis=0)
    tol = {1: 1e-4, 2: 2e-3, 3: 2e-2}[D]
    assert total == pytest.approx(1.0, abs=tol)


@pytest.mark.parametrize("kernel", KERNELS)
def test_tree_path_within_its_bound(kernel):
    h = 0.5
    exact = KernelDensity(bandwidth=h, kernel=kernel, algorithm="brute").fit(X3, sample_weight=W3)
    atol = 1e-6
    tree = KernelDensity(bandwidth=h, kernel=kernel, algorithm="kd_tree", atol=atol)
    tree.fit(X3, sample_weight=W3)
    assert tree.algorithm_ == "kd_tree"
    p, q = np.exp(exact.score_samples(Q3)), np.exp(tree.score_samples(Q3))
    if kernel in ("gaussian", "exponential"):
        assert np.all(q <= p * (1 + 1e-12))
        assert np.all(p - q <= atol)
        # far queries (no neighbour within the radius) are summed exactly, in log space
        np.testing.assert_allclose(tree.score_samples(Q3[-2:]), exact.score_samples(Q3[-2:]))
    else:  # compact kernels: exact
        np.testing.assert_allclose(q, p, rtol=1e-12, atol=0)


@pytest.mark.parametrize("kernel", ["gaussian", "tophat", "epanechnikov", "exponential", "linear"])
def test_agrees_with_scikit_learn(kernel):
    ours = KernelDensity(bandwidth=0.7, kernel=kernel, algorithm="brute").fit(X3, sample_weight=W3)
    theirs = SkKernelDensity(bandwidth=0.7, kernel=kernel).fit(X3, sample_weight=W3)
    a, b = ours.score_samples(Q3[:25]), theirs.score_samples(Q3[:25])
    finite = np.isfinite(a) & np.isfinite(b)
    np.testing.assert_allclose(a[finite], b[finite], rtol=1e-10)
    assert ours.score(Q3[:25]) == pytest.approx(a.sum())


def test_rules_of_thumb_scale_by_the_mean_sd():
    X = RNG.normal(scale=[1.0, 3.0], size=(200, 2))
    sd = X.std(axis=0, ddof=1).mean()
    scott = KernelDensity(bandwidth="scott").fit(X).bandwidth_
    silverman = KernelDensity(bandwidth="silverman").fit(X).bandwidth_
    assert scott == pytest.approx(200 ** (-1 / 6) * sd, rel=1e-12)
    assert silverman == pytest.approx((200 * 4 / 4) ** (-1 / 6) * sd, rel=1e-12)
    with pytest.raises(ValueError, match="standard deviation"):
        KernelDensity(bandwidth="scott").fit(np.ones((5, 2)))


def test_likelihood_cross_validation_picks_a_sensible_bandwidth():
    X = RNG.normal(size=(150, 1))
    kde = KernelDensity(bandwidth="cv", cv=5).fit(X)
    silverman = KernelDensity(bandwidth="silverman").fit(X).bandwidth_
    assert 0.3 * silverman < kde.bandwidth_ < 3 * silverman
    best = kde.cv_scores_.max()
    # the chosen bandwidth is (one of) the best tried
    assert kde.cv_scores_[np.argmin(np.abs(kde.cv_bandwidths_ - kde.bandwidth_))] == best
    # integer weights are repeated points: the same folds, scores and bandwidth
    w = RNG.integers(0, 4, size=150)
    weighted = KernelDensity(bandwidth="cv", cv=5).fit(X, sample_weight=w)
    repeated = KernelDensity(bandwidth="cv", cv=5).fit(np.repeat(X, w, axis=0))
    np.testing.assert_allclose(weighted.cv_scores_, repeated.cv_scores_, rtol=1e-12)
    assert weighted.bandwidth_ == pytest.approx(repeated.bandwidth_, rel=1e-12)


def test_likelihood_cross_validation_keeps_copies_in_one_fold():
    """Duplicated points would make a held-out copy look certain and drive h to 0."""
    X = RNG.normal(size=(60, 1))
    kde = KernelDensity(bandwidth="cv", cv=5).fit(np.repeat(X, 2, axis=0))
    single = KernelDensity(bandwidth="cv", cv=5).fit(X)
    assert kde.bandwidth_ > 0.3 * single.bandwidth_


@pytest.mark.parametrize("kernel", KERNELS)
def test_sample_follows_the_kernel(kernel):
    X = np.zeros((1, 1))
    kde = KernelDensity(bandwidth=1.0, kernel=kernel).fit(X)
    draws = kde.sample(20000, random_state=0)[:, 0]
    assert draws.shape == (20000,)
    # second moment of the normalised kernel, by quadrature
    c = math.exp(kde.score_samples([[0.0]])[0])
    upper = np.inf if kernel in ("gaussian", "exponential") else 1.0
    m2 = 2 * integrate.quad(lambda r: c * _radial(kernel, np.array(r)) * r * r, 0, upper)[0]
    assert np.mean(draws**2) == pytest.approx(m2, rel=0.05)
    np.testing.assert_array_equal(kde.sample(5, random_state=1), kde.sample(5, random_state=1))


def test_auto_takes_the_tree_only_for_a_small_radius():
    X = RNG.normal(size=(500, 2))
    assert KernelDensity(bandwidth=0.2, kernel="epanechnikov").fit(X).algorithm_ == "kd_tree"
    assert KernelDensity(bandwidth=5.0, kernel="epanechnikov").fit(X).algorithm_ == "brute"
    assert KernelDensity(bandwidth=0.2).fit(X).algorithm_ == "brute"  # exact Gaussian
    assert KernelDensity(bandwidth=0.05, atol=1e-3).fit(X).algorithm_ == "kd_tree"
    assert KernelDensity(bandwidth=0.2, kernel="tophat").fit(
        RNG.normal(size=(50, 20))
    ).algorithm_ == ("brute")
