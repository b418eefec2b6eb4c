"""Tests of KNeighborsClassifier / KNeighborsRegressor.

Layers: scikit-learn as the oracle on data without ties (every metric, both algorithms); our
deterministic tie rules on constructed ties and on integer data against a direct sort; R's
``class::knn`` (tests/reference/knn, made by make_knn_reference.R); the notes' extremes; bad
input; bounded memory.
"""

from __future__ import annotations

import csv
import json
import pickle
import tracemalloc
import warnings

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn import neighbors as sk_neighbors

from conftest import REFERENCE
from statlearning.exceptions import InvalidParameterError, NumericalWarning
from statlearning.neighbors import KNeighborsClassifier, KNeighborsRegressor

# scikit-learn (the oracle) warns that Minkowski p < 1 is not a metric; we test that case too.
pytestmark = pytest.mark.filterwarnings("ignore:Mind that for 0 < p < 1:UserWarning")

KNN_REF = REFERENCE / "knn"
RNG_SEED = 20240601


def _data(n_train=300, n_test=60, p=4, n_classes=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n_train, p))
    Q = rng.standard_normal((n_test, p))
    y = rng.integers(0, n_classes, n_train)
    return X, y, Q


# (our metric kwargs, scikit-learn metric kwargs, algorithms to try)
def _metric_cases(p=4):
    rng = np.random.default_rng(1)
    B = rng.standard_normal((p, p))
    V = B @ B.T + p * np.eye(p)
    VI = np.linalg.inv(V)
    return [
        pytest.param({}, {"metric": "euclidean"}, ("brute", "kd_tree"), id="euclidean"),
        pytest.param(
            {"metric": "manhattan"}, {"metric": "manhattan"}, ("brute", "kd_tree"), id="l1"
        ),
        pytest.param(
            {"metric": "chebyshev"}, {"metric": "chebyshev"}, ("brute", "kd_tree"), id="chebyshev"
        ),
        pytest.param(
            {"metric": "minkowski", "p": 3},
            {"metric": "minkowski", "p": 3},
            ("brute", "kd_tree"),
            id="minkowski3",
        ),
        pytest.param(
            {"metric": "minkowski", "p": 0.5},
            {"metric": "minkowski", "p": 0.5},
            ("brute",),
            id="minkowski0.5",
        ),
        pytest.param({"metric": "cosine"}, {"metric": "cosine"}, ("brute",), id="cosine"),
        pytest.param(
            {"metric": "mahalanobis", "metric_params": {"VI": VI}},
            {"metric": "mahalanobis", "metric_params": {"VI": VI}},
            ("brute", "kd_tree"),
            id="mahalanobis-VI",
        ),
        pytest.param(
            {"metric": "mahalanobis", "metric_params": {"V": V}},
            {"metric": "mahalanobis", "metric_params": {"VI": VI}},
            ("brute", "kd_tree"),
            id="mahalanobis-V",
        ),
    ]


def _sk_algorithm(algorithm, sk_metric):
    return "brute" if sk_metric["metric"] in ("cosine", "mahalanobis") else algorithm


# --- scikit-learn as the oracle (no ties) ---------------------------------------------------


@pytest.mark.parametrize(("ours", "theirs", "algorithms"), _metric_cases())
@pytest.mark.parametrize("weights", ["uniform", "distance"])
def test_classifier_matches_sklearn_without_ties(ours, theirs, algorithms, weights):
    X, y, Q = _data()
    for algorithm in algorithms:
        clf = KNeighborsClassifier(7, weights=weights, algorithm=algorithm, **ours).fit(X, y)
        ref = sk_neighbors.KNeighborsClassifier(
            7, weights=weights, algorithm=_sk_algorithm(algorithm, theirs), **theirs
        ).fit(X, y)
        d, i = clf.kneighbors(Q)
        d_ref, i_ref = ref.kneighbors(Q)
        assert clf.algorithm_ == algorithm
        assert_array_equal(i, i_ref)
        assert_allclose(d, d_ref, rtol=1e-10, atol=1e-12)
        assert_array_equal(clf.predict(Q), ref.predict(Q))
        assert_allclose(clf.predict_proba(Q), ref.predict_proba(Q), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize(("ours", "theirs", "algorithms"), _metric_cases(p=3))
def test_regressor_matches_sklearn_without_ties(ours, theirs, algorithms):
    X, _, Q = _data(p=3)
    y = np.sin(X).sum(axis=1)
    for algorithm in algorithms:
        for weights in ("uniform", "distance"):
            reg = KNeighborsRegressor(4, weights=weights, algorithm=algorithm, **ours).fit(X, y)
            ref = sk_neighbors.KNeighborsRegressor(
                4, weights=weights, algorithm=_sk_algorithm(algorithm, theirs), **theirs
            ).fit(X, y)
            assert_allclose(reg.predict(Q), ref.predict(Q), rtol=1e-12, atol=1e-14)


def test_brute_force_over_many_tiles_matches_sklearn():
    """Several query blocks and training tiles, partial ones at the ends, and k > tile width."""
    X, y, Q = _data(n_train=1100, n_test=300, p=6, seed=3)
    for k in (1, 5, 300):
        clf = KNeighborsClassifier(k, algorithm="brute").fit(X, y)
        ref = sk_neighbors.KNeighborsClassifier(k, algorithm="brute").fit(X, y)
        d, i = clf.kneighbors(Q)
        d_ref, i_ref = ref.kneighbors(Q)
        assert_array_equal(i, i_ref)
        assert_allclose(d, d_ref, rtol=1e-10)
        assert_array_equal(clf.predict(Q), ref.predict(Q))


def test_multioutput_regression_and_kneighbors_without_X_match_sklearn():
    X, _, Q = _data(p=3, seed=4)
    Y = np.column_stack([X.sum(axis=1), np.cos(X[:, 0])])
    reg = KNeighborsRegressor(3).fit(X, Y)
    ref = sk_neighbors.KNeighborsRegressor(3).fit(X, Y)
    assert reg.predict(Q).shape == (Q.shape[0], 2)
    assert_allclose(reg.predict(Q), ref.predict(Q), rtol=1e-12)
    d, i = reg.kneighbors(n_neighbors=4)  # each training point, itself excluded
    d_ref, i_ref = ref.kneighbors(n_neighbors=4)
    assert_array_equal(i, i_ref)
    assert_allclose(d, d_ref, rtol=1e-10, atol=1e-12)
    assert not np.any(i == np.arange(X.shape[0])[:, None])


def test_callable_weights_match_sklearn():
    X, y, Q = _data(seed=5)

    def gaussian(d):
        return np.exp(-(d**2))

    clf = KNeighborsClassifier(6, weights=gaussian).fit(X, y)
    ref = sk_neighbors.KNeighborsClassifier(6, weights=gaussian).fit(X, y)
    assert_allclose(clf.predict_proba(Q), ref.predict_proba(Q), rtol=1e-12)


def test_auto_algorithm_rule():
    X, y, _ = _data(n_train=100, p=8)
    assert KNeighborsClassifier().fit(X, y).algorithm_ == "kd_tree"
    assert (
        KNeighborsClassifier(metric="mahalanobis", metric_params={"VI": np.eye(8)})
        .fit(X, y)
        .algorithm_
        == "kd_tree"
    )
    assert KNeighborsClassifier(metric="cosine").fit(X, y).algorithm_ == "brute"
    assert KNeighborsClassifier(metric="minkowski", p=0.5).fit(X, y).algorithm_ == "brute"
    assert KNeighborsClassifier(50).fit(X, y).algorithm_ == "brute"  # k >= n / 2
    X9 = np.hstack([X, X[:, :1]])
    assert KNeighborsClassifier().fit(X9, y).algorithm_ == "brute"


@pytest.mark.parametrize(("p", "name"), [(2, "euclidean"), (1, "manhattan"), (np.inf, "chebyshev")])
def test_minkowski_special_cases_are_simplified(p, name):
    X, y, Q = _data(seed=6)
    clf = KNeighborsClassifier(metric="minkowski", p=p).fit(X, y)
    assert clf.effective_metric_ == name
    direct = KNeighborsClassifier(metric=name).fit(X, y)
    assert_array_equal(clf.kneighbors(Q)[1], direct.kneighbors(Q)[1])


# --- tie rules --------------------------------------------------------------------------------

# Query 0 against 1-D training points: distances 2, 1, 1, 2, 3 (indices 0..4).
TIE_X = np.array([[2.0], [-1.0], [1.0], [-2.0], [3.0]])
TIE_Q = np.array([[0.0]])


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_equidistant_neighbours_are_ordered_by_training_index(algorithm):
    y = np.arange(5)
    clf = KNeighborsClassifier(1, algorithm=algorithm).fit(TIE_X, y)
    for k, expected in [
        (1, [1]),
        (2, [1, 2]),
        (3, [1, 2, 0]),
        (4, [1, 2, 0, 3]),
        (5, [1, 2, 0, 3, 4]),
    ]:
        d, i = clf.kneighbors(TIE_Q, n_neighbors=k)
        assert_array_equal(i[0], expected)
        assert_allclose(d[0], [1, 1, 2, 2, 3][:k])


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_ties_all_includes_every_neighbour_tied_with_the_kth(algorithm):
    y = np.array(["a", "b", "b", "a", "c"])
    index = KNeighborsClassifier(3, algorithm=algorithm).fit(TIE_X, y)
    every = KNeighborsClassifier(3, algorithm=algorithm, tie_break="all").fit(TIE_X, y)
    # index: neighbours 1, 2, 0 -> b, b, a;  all: 1, 2, 0, 3 -> b, b, a, a
    assert_allclose(index.predict_proba(TIE_Q), [[1 / 3, 2 / 3, 0]])
    assert_allclose(every.predict_proba(TIE_Q), [[0.5, 0.5, 0]])
    assert every.predict(TIE_Q)[0] == "a"  # a tied vote goes to the first class
    assert every.kneighbors(TIE_Q)[1].shape == (1, 3)  # kneighbors: exactly k
    reg = KNeighborsRegressor(3, algorithm=algorithm, tie_break="all").fit(TIE_X, np.arange(5.0))
    assert_allclose(reg.predict(TIE_Q), [1.5])  # mean of 0, 1, 2, 3


@pytest.mark.parametrize("Model", [KNeighborsClassifier, KNeighborsRegressor])
def test_ties_is_a_deprecated_alias_of_tie_break(Model):
    y = np.array(["a", "b", "b", "a", "c"]) if Model is KNeighborsClassifier else np.arange(5.0)
    new = Model(3, tie_break="all").fit(TIE_X, y)
    with pytest.warns(FutureWarning, match=f"{Model.__name__}: parameter 'ties' was renamed"):
        old = Model(3, ties="all").fit(TIE_X, y)
    assert_array_equal(old.predict(TIE_Q), new.predict(TIE_Q))
    assert not np.array_equal(Model(3).fit(TIE_X, y).predict(TIE_Q), new.predict(TIE_Q))
    with pytest.warns(FutureWarning):
        index = Model(3, ties="index").fit(TIE_X, y)
    assert_array_equal(index.predict(TIE_Q), Model(3).fit(TIE_X, y).predict(TIE_Q))
    with pytest.raises(ValueError, match="set only tie_break="):
        Model(3, tie_break="all", ties="index").fit(TIE_X, y)
    with pytest.raises(InvalidParameterError, match="'ties'"):
        Model(3, ties="first").fit(TIE_X, y)


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_n_jobs_sets_numba_threads_for_the_call_and_not_the_result(algorithm, monkeypatch):
    import numba

    from statlearning.neighbors import _search

    X, y, Q = _data()
    seen = []
    query = _search.NeighborSearch._query

    def spy(self, *args):
        seen.append(numba.get_num_threads())
        return query(self, *args)

    monkeypatch.setattr(_search.NeighborSearch, "_query", spy)
    before = numba.get_num_threads()
    ref = KNeighborsClassifier(7, algorithm=algorithm).fit(X, y)
    one = KNeighborsClassifier(7, algorithm=algorithm, n_jobs=1).fit(X, y)
    assert_array_equal(one.predict_proba(Q), ref.predict_proba(Q))
    assert_array_equal(one.kneighbors(Q)[1], ref.kneighbors(Q)[1])
    assert seen == [1, before, 1, before]  # one, ref, one, ref
    assert numba.get_num_threads() == before
    with pytest.raises(InvalidParameterError, match="'n_jobs'"):
        KNeighborsRegressor(n_jobs=0).fit(X, y)


def test_tied_votes_go_to_the_first_class_and_threshold_is_strict():
    X = np.array([[0.0], [1.0], [10.0]])
    y = np.array(["yes", "no", "no"])  # classes_ = ["no", "yes"]
    q = np.array([[0.5]])  # two neighbours, one vote each
    assert KNeighborsClassifier(2).fit(X, y).predict(q)[0] == "no"
    assert KNeighborsClassifier(2, decision_threshold=0.5).fit(X, y).predict(q)[0] == "no"
    assert KNeighborsClassifier(2, decision_threshold=0.49).fit(X, y).predict(q)[0] == "yes"
    # the notes' strict rule: class 1 iff its fraction is > t, with a 2:1 vote
    clf = KNeighborsClassifier(3, decision_threshold=2 / 3).fit(X, ["yes", "yes", "no"])
    assert clf.predict(q)[0] == "no"  # 2/3 is not > 2/3


def _naive_neighbors(X, Q, k, fuzz=0.0):
    """Direct reference: exact squared distances (integer data), lexsort by (distance, index)."""
    D = ((Q[:, None, :] - X[None, :, :]) ** 2).sum(axis=-1)
    out = []
    for row in D:
        order = np.lexsort((np.arange(row.size), row))
        kth = row[order[k - 1]]
        out.append((order[:k], np.flatnonzero(row <= kth * (1 + fuzz))))
    return out


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_massive_ties_on_integer_data_match_a_direct_sort(algorithm):
    rng = np.random.default_rng(7)
    X = rng.integers(0, 4, (400, 3)).astype(float)  # 64 distinct points: huge tie groups
    Q = rng.integers(0, 4, (50, 3)).astype(float)
    y = rng.integers(0, 2, 400)
    for k in (1, 4, 25):
        clf = KNeighborsClassifier(k, algorithm=algorithm).fit(X, y)
        every = KNeighborsClassifier(k, algorithm=algorithm, tie_break="all").fit(X, y)
        _, ind = clf.kneighbors(Q)
        proba = every.predict_proba(Q)
        for r, (first, tied) in enumerate(_naive_neighbors(X, Q, k)):
            assert_array_equal(ind[r], first)
            assert_allclose(proba[r, 1], y[tied].mean())


# --- R's class::knn -----------------------------------------------------------------------


def _read_case(name):
    rows = list(csv.reader((KNN_REF / f"{name}.csv").open()))
    X = np.array([[float(v) for v in r[:-1]] for r in rows[1:]])
    return X, np.array([r[-1] for r in rows[1:]])


KNN_REFERENCE = json.loads((KNN_REF / "knn_reference.json").read_text())


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
@pytest.mark.parametrize("case", sorted(KNN_REFERENCE["cases"]))
def test_predictions_match_class_knn(case, algorithm):
    """``tie_break="all"`` is ``knn(..., use.all = TRUE)``; R breaks tied votes at random.

    So predictions are compared where our vote is not tied (all but a handful of queries);
    R's ``prob`` (the winning vote fraction, ties included) is compared everywhere.
    """
    X, y = _read_case(f"{case}_train")
    Q, _ = _read_case(f"{case}_test")
    compared = 0
    for run in KNN_REFERENCE["cases"][case]["runs"]:
        clf = KNeighborsClassifier(run["k"], tie_break="all", algorithm=algorithm).fit(X, y)
        proba = clf.predict_proba(Q)
        top2 = np.sort(proba, axis=1)[:, -2:]
        untied = top2[:, 1] > top2[:, 0]
        assert_array_equal(clf.predict(Q)[untied], np.array(run["prediction"])[untied])
        assert_allclose(proba.max(axis=1), run["prob"], rtol=0, atol=1e-15)
        compared += untied.sum()
    assert compared >= 0.95 * len(KNN_REFERENCE["cases"][case]["runs"]) * Q.shape[0]


def test_standardisation_convention_does_not_change_neighbours():
    """Population (1/n) and sample (1/(n-1)) SDs rescale every feature alike."""
    X, y = _read_case("iris_train")
    Q, _ = _read_case("iris_test")
    Xc, Qc = X - X.mean(axis=0), Q - X.mean(axis=0)
    pop = KNeighborsClassifier(5).fit(Xc / X.std(axis=0), y)
    smp = KNeighborsClassifier(5).fit(Xc / X.std(axis=0, ddof=1), y)
    d_pop, i_pop = pop.kneighbors(Qc / X.std(axis=0))
    d_smp, i_smp = smp.kneighbors(Qc / X.std(axis=0, ddof=1))
    n = X.shape[0]
    same = np.isclose(d_pop * np.sqrt((n - 1) / n), d_smp, rtol=1e-12)
    assert same.all()
    # neighbour sets agree wherever the k-th distance is not tied within rounding
    assert (i_pop == i_smp).mean() > 0.95


# --- the notes' extremes --------------------------------------------------------------------


@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_one_neighbour_has_zero_training_error_on_distinct_points(algorithm):
    X, y, _ = _data(n_train=200, seed=8)
    for weights in ("uniform", "distance"):
        clf = KNeighborsClassifier(1, algorithm=algorithm, weights=weights).fit(X, y)
        assert clf.score(X, y) == 1.0


def test_all_neighbours_predict_the_majority_class():
    X, _, Q = _data(n_train=60, seed=9)
    y = np.array(["a"] * 15 + ["b"] * 30 + ["c"] * 15)
    clf = KNeighborsClassifier(60).fit(X, y)
    assert_array_equal(clf.predict(Q), "b")
    assert_allclose(clf.predict_proba(Q), np.tile([0.25, 0.5, 0.25], (Q.shape[0], 1)))
    reg = KNeighborsRegressor(60).fit(X, np.arange(60.0))
    assert_allclose(reg.predict(Q), 29.5)


def test_distance_weights_on_exact_matches_use_only_those_points():
    X = np.array([[0.0], [0.0], [0.1], [0.2], [0.3]])
    y = np.array([0, 1, 1, 1, 1])
    clf = KNeighborsClassifier(5, weights="distance").fit(X, y)
    assert_allclose(clf.predict_proba([[0.0]]), [[0.5, 0.5]])
    reg = KNeighborsRegressor(5, weights="distance").fit(X, [1.0, 3.0, 10.0, 10.0, 10.0])
    assert_allclose(reg.predict([[0.0]]), [2.0])


def test_zero_weights_fall_back_to_uniform_with_a_warning():
    X, y, Q = _data(seed=10)
    clf = KNeighborsClassifier(3, weights=lambda d: np.zeros_like(d)).fit(X, y)
    with pytest.warns(NumericalWarning, match="sum to 0"):
        proba = clf.predict_proba(Q[:2])
    assert_allclose(proba, KNeighborsClassifier(3).fit(X, y).predict_proba(Q[:2]))


# --- fitted state and input types -------------------------------------------------------------


def test_string_labels_pickle_float32_and_feature_names():
    pd = pytest.importorskip("pandas")
    X, y, Q = _data(seed=11)
    labels = np.array(["low", "mid", "high"])[y]
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    clf = KNeighborsClassifier(4).fit(frame, labels)
    assert_array_equal(clf.classes_, ["high", "low", "mid"])
    assert_array_equal(clf.feature_names_in_, ["a", "b", "c", "d"])
    again = pickle.loads(pickle.dumps(clf))
    Qf = pd.DataFrame(Q, columns=frame.columns)
    assert_array_equal(again.predict(Qf), clf.predict(Qf))
    f32 = KNeighborsClassifier(4).fit(X.astype(np.float32), labels)
    assert_array_equal(f32.predict(Q.astype(np.float32)), f32.predict(Q))


def test_brute_force_memory_is_bounded():
    """20,000 × 2,000 distances would be 320 MB; the tiles keep the search to a few MB."""
    rng = np.random.default_rng(12)
    X = rng.standard_normal((20_000, 5))
    Q = rng.standard_normal((2_000, 5))
    clf = KNeighborsRegressor(5, algorithm="brute").fit(X, X[:, 0])
    clf.predict(Q[:10])
    tracemalloc.start()
    try:
        clf.kneighbors(Q)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20


# --- bad input --------------------------------------------------------------------------------


def test_more_neighbours_than_training_samples_is_an_error():
    X, y, Q = _data(n_train=4)
    with pytest.raises(ValueError, match=r"n_neighbors=5 .*n_samples = 4"):
        KNeighborsClassifier(5).fit(X, y)
    clf = KNeighborsClassifier(2).fit(X, y)
    with pytest.raises(ValueError, match="n_neighbors=5"):
        clf.kneighbors(Q, n_neighbors=5)
    with pytest.raises(ValueError, match="n_neighbors=4 must be smaller"):
        clf.kneighbors(n_neighbors=4)


@pytest.mark.parametrize(
    ("params", "match"),
    [
        ({"metric": "mahalanobis"}, "exactly one of 'VI'"),
        ({"metric": "mahalanobis", "metric_params": {"VI": np.eye(3), "V": np.eye(3)}}, "one of"),
        ({"metric": "mahalanobis", "metric_params": {"VI": np.eye(2)}}, r"shape \(3, 3\)"),
        (
            {"metric": "mahalanobis", "metric_params": {"VI": [[1, 2, 0], [0, 1, 0], [0, 0, 1]]}},
            "symmetric",
        ),
        ({"metric": "mahalanobis", "metric_params": {"VI": -np.eye(3)}}, "semi-definite"),
        ({"metric": "mahalanobis", "metric_params": {"V": np.zeros((3, 3))}}, "positive definite"),
        ({"metric": "mahalanobis", "metric_params": {"VI": [["a"] * 3] * 3}}, "numeric"),
        ({"metric": "euclidean", "metric_params": {"p": 3}}, "metric_params"),
        ({"metric": "cosine", "algorithm": "kd_tree"}, "kd_tree.*cosine"),
        ({"metric": "minkowski", "p": 0.5, "algorithm": "kd_tree"}, "kd_tree.*p=0.5"),
    ],
)
def test_bad_metric_parameters_are_rejected(params, match):
    X, y, _ = _data(p=3)
    with pytest.raises(ValueError, match=match):
        KNeighborsClassifier(**params).fit(X, y)


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"p": 0}, "'p'"),
        ({"p": -1.0}, "'p'"),
        ({"metric": "seuclidean"}, "'metric'"),
        ({"n_neighbors": 0}, "'n_neighbors'"),
        ({"weights": "inverse"}, "'weights'"),
        ({"ties": "random"}, "'ties'"),
        ({"decision_threshold": 1.5}, "'decision_threshold'"),
        ({"metric_params": [("VI", 1)]}, "'metric_params'"),
    ],
)
def test_bad_hyper_parameters_name_the_parameter(params, name):
    X, y, _ = _data()
    with pytest.raises(InvalidParameterError, match=name):
        KNeighborsClassifier(**params).fit(X, y)


def test_bad_targets_and_thresholds():
    X, y, Q = _data()
    with pytest.raises(ValueError, match="Unknown label type"):
        KNeighborsClassifier().fit(X, X[:, 0])
    with pytest.raises(ValueError, match="1 class"):
        KNeighborsClassifier().fit(X, np.zeros(X.shape[0]))
    with pytest.raises(
        ValueError, match="Only binary classification is supported with a decision_threshold"
    ):
        KNeighborsClassifier(decision_threshold=0.5).fit(X, y)
    with pytest.raises(ValueError, match="NaN"):
        KNeighborsClassifier().fit(np.where(X > 2, np.nan, X), y)
    clf = KNeighborsClassifier(weights=lambda d: d[:, :1]).fit(X, y)
    with pytest.raises(ValueError, match="shape"):
        clf.predict(Q)
    with pytest.raises(ValueError, match="features"):
        clf.predict(Q[:, :3])


def test_predictions_are_deterministic_and_subset_invariant():
    X, y, Q = _data(n_train=500, n_test=400, seed=13)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clf = KNeighborsClassifier(5, algorithm="brute").fit(X, y)
        full = clf.kneighbors(Q)[1]
        assert_array_equal(clf.kneighbors(Q[::-1])[1][::-1], full)
        assert_array_equal(clf.kneighbors(Q[7:9])[1], full[7:9])


def test_brute_search_hands_non_finite_screening_to_the_exact_scan():
    # NaN screening values (an overflowing ‖q‖² + ‖x‖² − 2qᵀx) leave fewer candidates than
    # neighbours: the row must be flagged for the exact scan, never read past its candidates
    from statlearning.neighbors._brute import brute_knn
    from statlearning.neighbors._metrics import SQEUCLIDEAN

    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    Q = rng.normal(size=(2, 3))
    yn = np.einsum("ij,ij->i", X, X)
    qn = np.array([np.nan, np.einsum("i,i->", Q[1], Q[1])])
    slack = np.zeros(2)
    _vals, idx, _n_tied, overflow = brute_knn(
        Q, X, yn, qn, slack, 0.0, 3, SQEUCLIDEAN, 2.0, 2, 16, 33
    )
    assert overflow.tolist() == [True, False]
    d = ((X - Q[1]) ** 2).sum(axis=1)
    np.testing.assert_array_equal(idx[1], np.argsort(d, kind="stable")[:3])
