"""Similarity-weighted kNN (seed 002 §5, eq. 5.1–5.2): the k most similar samples vote K(x, xₙ)."""

import numpy as np
import pytest

from statlearning.kernels import RBF, Polynomial
from statlearning.neighbors import KNeighborsClassifier, KNeighborsRegressor


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(150, 3))
    y = (X[:, 0] + 0.4 * rng.normal(size=150) > 0).astype(int)
    return X, y, rng.normal(size=(40, 3))


def test_rbf_equals_distance_weights_exp(data):
    # a kernel decreasing in distance: the most similar are the nearest
    X, y, Xt = data
    a = KNeighborsClassifier(7, weights="kernel", kernel=RBF(gamma=0.5)).fit(X, y)
    b = KNeighborsClassifier(7, weights=lambda d: np.exp(-0.5 * d**2)).fit(X, y)
    np.testing.assert_allclose(a.predict_proba(Xt), b.predict_proba(Xt), rtol=1e-13)
    np.testing.assert_array_equal(a.predict(Xt), b.predict(Xt))


def test_notes_rule_with_a_polynomial_kernel(data):
    # the notes' rule by hand: S = the k largest K(x_t, x_n); Y_t = 1 iff Σ_S K (2Y_n − 1) > 0
    X, y, Xt = data
    kernel = Polynomial(degree=2, gamma=1.0, coef0=1.0)
    k = 9
    clf = KNeighborsClassifier(k, weights="kernel", kernel=kernel).fit(X, y)
    K = kernel(Xt, X)
    want = []
    for row in K:
        S = np.argsort(-row, kind="stable")[:k]
        want.append(int(np.sum(row[S] * (2 * y[S] - 1)) > 0))
    np.testing.assert_array_equal(clf.predict(Xt), want)
    # a polynomial kernel's most similar samples are not the Euclidean nearest
    plain = KNeighborsClassifier(k).fit(X, y).kneighbors(Xt, return_distance=False)
    similar = np.argsort(-K, axis=1, kind="stable")[:, :k]
    assert any(set(a) != set(b) for a, b in zip(plain, similar, strict=True))


def test_ties_at_the_kth_similarity():
    X = np.array([[0.0], [1.0], [-1.0], [3.0]])
    y = np.array([0, 1, 1, 0])
    # from x = 0, samples 1 and 2 are equally similar (second place)
    index = KNeighborsClassifier(2, weights="kernel", kernel=RBF(gamma=1.0)).fit(X, y)
    every = KNeighborsClassifier(2, weights="kernel", kernel=RBF(1.0), tie_break="all").fit(X, y)
    e = np.exp(-1.0)
    np.testing.assert_allclose(index.predict_proba([[0.0]]), [[1 / (1 + e), e / (1 + e)]])
    np.testing.assert_allclose(
        every.predict_proba([[0.0]]), [[1 / (1 + 2 * e), 2 * e / (1 + 2 * e)]]
    )


def test_negative_similarities(data):
    X, y, Xt = data
    clf = KNeighborsClassifier(5, weights="kernel", kernel="sigmoid").fit(X, y)
    clf.predict(Xt)  # signed scores, as the notes
    scores = clf._votes(Xt)
    if np.any(scores < 0):
        with pytest.raises(ValueError, match="no vote fractions"):
            clf.predict_proba(Xt)


def test_far_queries_get_equal_fractions(data):
    X, y, _ = data
    clf = KNeighborsClassifier(3, weights="kernel", kernel=RBF(gamma=10.0)).fit(X, y)
    proba = clf.predict_proba([[1e3, 1e3, 1e3]])  # every similarity underflows to 0
    np.testing.assert_array_equal(proba, [[0.5, 0.5]])


def test_bad_input(data):
    X, y, _ = data
    with pytest.raises(ValueError, match="precomputed"):
        KNeighborsClassifier(weights="kernel", kernel="precomputed").fit(X, y)
    with pytest.raises(ValueError, match="Unknown kernel"):
        KNeighborsClassifier(weights="kernel", kernel="gauss").fit(X, y)
    with pytest.raises(ValueError, match="weights"):
        KNeighborsRegressor(weights="kernel").fit(X, y)
