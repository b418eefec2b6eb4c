"""The array maths under naive Bayes and discriminant analysis: grouped moments, blocked
scatter and QR, Ledoit–Wolf, log-space likelihoods and label coding."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm
from sklearn.covariance import ledoit_wolf_shrinkage as sk_ledoit_wolf_shrinkage

from statlearning._core import discriminant as da
from statlearning._core.class_labels import encode_class_labels, log_normalise_rows
from statlearning._core.gaussian_loglik import gaussian_log_likelihood
from statlearning._core.grouped_moments import grouped_centred_squares, grouped_sums
from statlearning._core.naive_bayes import (
    categorical_log_likelihood,
    categorical_tables,
    count_log_likelihood,
    smoothed_log_prob,
)


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(500, 4)) @ rng.normal(size=(4, 4)) + 3.0
    codes = rng.integers(0, 3, 500)
    return X, codes


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks of 256 rows, so that every blocked loop runs over several blocks."""
    monkeypatch.setattr(da, "_CHUNK_BYTES", 256 * 8)


def test_grouped_sums_and_squares_skip_nan_and_use_weights(data):
    X, codes = data
    X = X.copy()
    X[[1, 7, 30], [0, 2, 2]] = np.nan
    w = np.random.default_rng(1).uniform(0.5, 2.0, X.shape[0])
    wsum, sums = grouped_sums(X, codes, 3, w)
    means = sums / wsum
    ss = grouped_centred_squares(X, codes, means, w)
    for k in range(3):
        for j in range(4):
            col, wk = X[codes == k, j], w[codes == k]
            ok = ~np.isnan(col)
            assert wsum[k, j] == pytest.approx(wk[ok].sum(), rel=1e-13)
            m = np.average(col[ok], weights=wk[ok])
            assert means[k, j] == pytest.approx(m, rel=1e-13)
            assert ss[k, j] == pytest.approx(np.sum(wk[ok] * (col[ok] - m) ** 2), rel=1e-12)


def test_blocked_scatter_qr_and_class_scatters_agree_with_direct_formulas(data, small_blocks):
    X, codes = data
    counts, means = da.class_means(X, codes, 3)
    D = X - means[codes]
    W = D.T @ D
    np.testing.assert_allclose(da.within_scatter(X, codes, means), W, rtol=1e-12)
    R = da.within_r_factor(X, codes, means)
    assert np.allclose(R, np.triu(R))
    np.testing.assert_allclose(R.T @ R, W, rtol=1e-11)
    E = np.arange(8.0).reshape(2, 4)
    R2 = da.within_r_factor(X, codes, means, extra_rows=E)
    np.testing.assert_allclose(R2.T @ R2, W + E.T @ E, rtol=1e-11)
    S = da.class_scatters(X, codes, means)
    for k in range(3):
        Dk = X[codes == k] - means[k]
        np.testing.assert_allclose(S[k], Dk.T @ Dk, rtol=1e-12)
    np.testing.assert_array_equal(counts, np.bincount(codes))


def test_r_factor_of_fewer_rows_than_columns_is_padded():
    X = np.arange(12.0).reshape(2, 6)
    R = da.within_r_factor(X, np.array([0, 1]), X.copy())
    assert R.shape == (6, 6) and np.allclose(R, 0.0)


def test_ledoit_wolf_intensity_matches_sklearn(data, small_blocks):
    X, _ = data
    Z = X - X.mean(0)
    n = Z.shape[0]
    S = Z.T @ Z / n
    m4 = da.standardised_fourth_moment_sum(X, np.zeros(n, int), X.mean(0)[None], np.ones(4))
    ours = da.ledoit_wolf_shrinkage(S, m4, n)
    assert ours == pytest.approx(sk_ledoit_wolf_shrinkage(Z, assume_centered=True), rel=1e-10)
    assert da.ledoit_wolf_shrinkage(S[:1, :1], m4, n) == 0.0


def test_shrink_covariance_keeps_the_trace():
    S = np.array([[4.0, 1.0], [1.0, 2.0]])
    out = da.shrink_covariance(S, 0.25)
    np.testing.assert_allclose(out, [[3.75, 0.75], [0.75, 2.25]])
    assert np.trace(out) == pytest.approx(np.trace(S))


def test_cholesky_rank_rule():
    assert da.cholesky_rank_ok(np.eye(3)) == (True, None)
    C = np.array([[1.0, 1.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    assert da.cholesky_rank_ok(C) == (False, 1)
    assert da.cholesky_rank_ok(np.diag([1.0, 0.0, 1.0])) == (False, 1)


def test_gaussian_log_likelihood_skips_nan():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(6, 3))
    X[2, 1] = np.nan
    theta, var = rng.normal(size=(2, 3)), rng.uniform(0.5, 2.0, size=(2, 3))
    out = gaussian_log_likelihood(X, theta, var)
    for i in range(6):
        for k in range(2):
            ok = ~np.isnan(X[i])
            expected = norm.logpdf(X[i, ok], theta[k, ok], np.sqrt(var[k, ok])).sum()
            assert out[i, k] == pytest.approx(expected, rel=1e-13)


def test_count_log_likelihood_keeps_zero_probabilities_exact():
    logp = np.array([[np.log(0.5), np.log(0.5), -np.inf], np.log([0.2, 0.3, 0.5])])
    X = np.array([[1.0, 2.0, 0.0], [0.0, 0.0, 1.0]])
    out = count_log_likelihood(X, logp)
    assert out[0, 0] == pytest.approx(3 * np.log(0.5))  # 0 · log 0 = 0
    assert out[1, 0] == -np.inf  # 1 · log 0 = −inf, not NaN
    assert not np.isnan(out).any()


def test_smoothed_log_prob_and_tables():
    X = np.array([[1.0], [1.0], [2.0], [np.nan], [2.0]])
    codes = np.array([0, 0, 0, 1, 1])
    levels, counts, observed = categorical_tables(X, codes, 2)
    np.testing.assert_array_equal(levels[0], [1.0, 2.0])
    np.testing.assert_array_equal(counts[0], [[2, 1], [0, 1]])
    np.testing.assert_array_equal(observed, [[3], [1]])
    lp = smoothed_log_prob(counts[0], observed[:, 0], 0.0, 2.0)
    np.testing.assert_allclose(np.exp(lp), [[2 / 3, 1 / 3], [0.0, 1.0]])
    assert lp[1, 0] == -np.inf
    lp1 = smoothed_log_prob(counts[0], observed[:, 0], 1.0, 3.0)
    np.testing.assert_allclose(np.exp(lp1), [[3 / 6, 2 / 6], [1 / 4, 2 / 4]])
    out, unseen = categorical_log_likelihood(np.array([[2.0], [5.0], [np.nan]]), levels, [lp])
    np.testing.assert_allclose(out, [[np.log(1 / 3), 0.0], [0.0, 0.0], [0.0, 0.0]])
    assert unseen == [(0, 5.0, 1)]


def test_zero_weight_rows_are_absent_from_the_tables():
    X = np.array([[1.0], [2.0], [3.0]])
    levels, _, _ = categorical_tables(X, np.array([0, 1, 1]), 2, np.array([1.0, 1.0, 0.0]))
    np.testing.assert_array_equal(levels[0], [1.0, 2.0])


def test_log_normalise_rows():
    scores = np.array([[0.0, np.log(3.0)], [-np.inf, 5.0]])
    np.testing.assert_allclose(np.exp(log_normalise_rows(scores, "m")), [[0.25, 0.75], [0, 1]])
    with pytest.raises(ValueError, match=r"m: 1 sample\(s\) \(rows 1\)"):
        log_normalise_rows(np.array([[0.0, 0.0], [-np.inf, -np.inf]]), "m")
    with pytest.raises(FloatingPointError, match="NaN"):
        log_normalise_rows(np.array([[np.nan, 0.0]]), "m")


def test_encode_class_labels():
    classes, codes = encode_class_labels(np.array(["b", "a", "b"]), "m")
    assert list(classes) == ["a", "b"] and list(codes) == [1, 0, 1]
    classes, codes = encode_class_labels(np.array([2.0, 1.0, 2.0]), "m")  # integral floats
    assert list(classes) == [1.0, 2.0]
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        encode_class_labels(np.array([0.5, 1.0]), "m")
    with pytest.raises(ValueError, match="Unknown label type"):
        encode_class_labels(np.array([1, "a"], dtype=object), "m")


@pytest.mark.parametrize(
    "labels",
    [
        ["b", "a", "c", "a", "b"] * 7,  # strings held as objects (from a DataFrame)
        [3, 1, 2, 1, 3],
        [(1, 2), (0, 1), (1, 2)],  # tuples: hashable and ordered
        [[1], [0], [1]],  # lists: unhashable, NumPy's sort
    ],
)
def test_encode_class_labels_of_objects_is_numpys_unique(labels):
    y = np.empty(len(labels), dtype=object)
    y[:] = labels
    classes, codes = encode_class_labels(y, "m")
    expected, inverse = np.unique(y, return_inverse=True)
    assert list(classes) == list(expected)
    np.testing.assert_array_equal(codes, inverse.reshape(-1))
    # strings become a NumPy string array (scikit-learn's classes_); other objects stay objects
    assert classes.dtype.kind == ("U" if isinstance(labels[0], str) else "O")


def test_string_classes_match_scikit_learns():
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis as SkLDA

    from statlearning.discriminant_analysis import LinearDiscriminantAnalysis

    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 3))
    y = np.empty(300, dtype=object)
    y[:] = np.where(X[:, 0] + rng.normal(size=300) > 0, "yes", "no")
    ours, peer = LinearDiscriminantAnalysis().fit(X, y), SkLDA().fit(X, y)
    assert ours.classes_.dtype == peer.classes_.dtype
    np.testing.assert_array_equal(ours.predict(X), peer.predict(X))
    assert ours.predict(X).dtype == peer.predict(X).dtype
