"""Compiled kernels see one array type: read-only or non-contiguous input does not recompile.

Numba compiles a kernel once per argument type, and a read-only array (``np.load(...,
mmap_mode="r")``, a joblib memmap) has another type than a writeable one. The estimators pass
every array through ``_core.compiled.kernel_array``; these tests fit and predict on writeable
data first, record the signatures of every numba dispatcher in the package, then repeat with
read-only and non-contiguous data and check that no dispatcher gained a signature.
"""

from __future__ import annotations

import sys

import numba
import numpy as np
import pytest
from numba.core.registry import CPUDispatcher

from statlearning._core.compiled import kernel_array, numba_threads, resolve_n_threads
from statlearning.cluster import DBSCAN, AgglomerativeClustering, KMeans, MiniBatchKMeans
from statlearning.discriminant_analysis import (
    LinearDiscriminantAnalysis,
    QuadraticDiscriminantAnalysis,
)
from statlearning.mixture import GaussianMixture
from statlearning.naive_bayes import BernoulliNB, CategoricalNB, GaussianNB, MixedNB, MultinomialNB
from statlearning.neighbors import BayesClassifier, KNeighborsClassifier, KNeighborsRegressor


def _signatures() -> dict[str, int]:
    """Number of compiled signatures of every numba dispatcher in the package's modules."""
    out = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("statlearning") or module is None:
            continue
        for obj in vars(module).values():
            if isinstance(obj, CPUDispatcher):
                out[f"{obj.py_func.__module__}.{obj.py_func.__qualname__}"] = len(obj.signatures)
    return out


def _read_only(X, tmp_path, kind):
    if kind == "mmap":
        path = tmp_path / "X.npy"
        np.save(path, X)
        return np.load(path, mmap_mode="r")
    if kind == "flag":
        X = X.copy()
        X.setflags(write=False)
        return X
    return np.asfortranarray(X)  # "fortran": not C-contiguous


def _classification(n=120, p=3, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2], n // 3)
    X = rng.standard_normal((n, p)) + y[:, None]
    return X, y


CASES = [
    (KNeighborsClassifier(5, algorithm="brute"), "classify"),
    (KNeighborsClassifier(5, algorithm="kd_tree", tie_break="all"), "classify"),
    (KNeighborsRegressor(4, metric="manhattan"), "regress"),
    (BayesClassifier(), "classify"),
    (GaussianNB(), "classify"),
    (MixedNB(categorical_features=[0]), "classify_counts"),
    (MultinomialNB(), "classify_counts"),
    (BernoulliNB(), "classify_counts"),
    (CategoricalNB(), "classify_counts"),
    (LinearDiscriminantAnalysis(), "classify"),
    (LinearDiscriminantAnalysis(solver="eigen", shrinkage="auto"), "classify"),
    (QuadraticDiscriminantAnalysis(), "classify"),
    (KMeans(3, n_init=2, random_state=0), "cluster"),
    (KMeans(3, n_init=1, random_state=0, n_jobs=2), "cluster"),
    (KMeans(3, n_init=1, algorithm="elkan", random_state=0), "cluster"),
    (MiniBatchKMeans(3, batch_size=32, random_state=0), "cluster"),
    (AgglomerativeClustering(3, linkage="ward"), "cluster"),
    (AgglomerativeClustering(3, linkage="average"), "cluster"),
    (DBSCAN(eps=0.8, min_samples=4), "cluster"),
    (GaussianMixture(3, random_state=0), "cluster"),
]


def _run(estimator, task, X, y):
    if task == "cluster":
        est = estimator.fit(X)
        if hasattr(est, "predict"):
            est.predict(X)
        return
    est = estimator.fit(X, y)
    est.predict(X)
    if hasattr(est, "predict_proba"):
        est.predict_proba(X)


@pytest.mark.parametrize(("estimator", "task"), CASES, ids=lambda c: getattr(c, "__name__", None))
@pytest.mark.parametrize("kind", ["mmap", "flag", "fortran"])
def test_read_only_input_does_not_recompile(estimator, task, kind, tmp_path):
    X, y = _classification()
    if task == "classify_counts":
        X = np.floor(np.abs(X) * 2)
    elif task == "regress":
        y = X[:, 0] + y
    _run(estimator, task, X, y)  # warm: compiles (or loads from the cache) every kernel used
    before = _signatures()
    _run(estimator, task, _read_only(X, tmp_path, kind), y)
    after = _signatures()
    grown = {k: (before.get(k, 0), v) for k, v in after.items() if v > before.get(k, 0)}
    assert not grown, f"{type(estimator).__name__} recompiled on {kind} input: {grown}"


def _freeze(obj, seen=None):
    """Make every array held by a fitted estimator read-only (as a memmapped joblib load)."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    values = obj.values() if isinstance(obj, dict) else getattr(obj, "__dict__", {}).values()
    if isinstance(obj, list | tuple):
        values = obj
    for value in values:
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
        elif isinstance(value, dict | list | tuple) or type(value).__module__.startswith(
            "statlearning"
        ):
            _freeze(value, seen)


@pytest.mark.parametrize(("estimator", "task"), CASES, ids=lambda c: getattr(c, "__name__", None))
def test_read_only_fitted_state_does_not_recompile(estimator, task):
    X, y = _classification(seed=1)
    if task == "classify_counts":
        X = np.floor(np.abs(X) * 2)
    elif task == "regress":
        y = X[:, 0] + y
    _run(estimator, task, X, y)
    if not hasattr(estimator, "predict"):
        pytest.skip("no prediction after fit")
    expected = estimator.predict(X)
    _freeze(estimator)
    before = _signatures()
    np.testing.assert_array_equal(estimator.predict(X), expected)
    if hasattr(estimator, "kneighbors"):
        estimator.kneighbors()
    after = _signatures()
    grown = {k: (before.get(k, 0), v) for k, v in after.items() if v > before.get(k, 0)}
    assert not grown, f"{type(estimator).__name__} recompiled on a read-only model: {grown}"


def test_kernel_array_copies_only_when_needed():
    X = np.arange(12.0).reshape(3, 4)
    assert kernel_array(X) is X
    ro = X.copy()
    ro.setflags(write=False)
    out = kernel_array(ro)
    assert out is not ro and out.flags.writeable and out.flags.c_contiguous
    np.testing.assert_array_equal(out, X)
    F = np.asfortranarray(X)
    assert kernel_array(F).flags.c_contiguous
    assert kernel_array(X[:, ::2]).flags.c_contiguous
    assert kernel_array([1, 2], dtype=None).dtype.kind == "i"
    assert kernel_array(np.arange(3, dtype=np.int64), dtype=np.int64).dtype == np.int64


def test_numba_threads_sets_and_restores():
    before = numba.get_num_threads()
    total = numba.config.NUMBA_NUM_THREADS
    with numba_threads(1):
        assert numba.get_num_threads() == 1
    assert numba.get_num_threads() == before
    with numba_threads(None):
        assert numba.get_num_threads() == before
    with pytest.raises(RuntimeError), numba_threads(1):
        raise RuntimeError
    assert numba.get_num_threads() == before
    assert resolve_n_threads(-1) == total
    assert resolve_n_threads(-2) == max(total - 1, 1)
    assert resolve_n_threads(10**6) == total
    assert resolve_n_threads(None) is None


def _blas_threads():
    from threadpoolctl import threadpool_info

    return [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]


def test_single_blas_thread_limits_and_restores(monkeypatch):
    import scipy.linalg  # noqa: F401  (its BLAS is loaded too)

    from statlearning._core import compiled

    before = _blas_threads()
    with compiled.single_blas_thread():
        assert set(_blas_threads()) == {1}
    assert _blas_threads() == before
    with pytest.raises(RuntimeError), compiled.single_blas_thread():
        raise RuntimeError
    assert _blas_threads() == before
    # bounds: above keeps the threads, below leaves the block alone
    with compiled.single_blas_thread(2**28):
        assert _blas_threads() == before
    with compiled.single_blas_thread(2**10, below=2**12):
        assert _blas_threads() == before
    # a product between the two bounds keeps its threads only while a core is free
    if max(before) > 1:
        for free, expected in ((True, before), (False, [1] * len(before))):
            monkeypatch.setattr(compiled, "core_is_free", lambda free=free: free)
            with compiled.single_blas_thread(2**25, quiet_above=compiled.PRODUCT_THREADS_FROM):
                assert _blas_threads() == expected
            with compiled.single_blas_thread(2**25):  # factorisations keep the busy rule
                assert set(_blas_threads()) == {1}


def test_core_is_free_reads_the_other_processes_load(monkeypatch):
    from statlearning._core import compiled

    if compiled._machine_busy_seconds() is None or compiled.CORES < 2:
        pytest.skip("needs Linux's /proc/stat and two cores")
    clock = iter([100.0, 100.05, 101.0, 102.0])
    busy = iter([50.0, 50.0 + compiled.CORES - 1.0, 50.0 + compiled.CORES - 0.8])
    monkeypatch.setattr(compiled.time, "monotonic", lambda: next(clock))
    monkeypatch.setattr(compiled, "_machine_busy_seconds", lambda: next(busy))
    monkeypatch.setattr(compiled.os, "getloadavg", lambda: (0.2, 0.2, 0.2))
    monkeypatch.setattr(compiled, "_LOAD", {"time": None, "busy": 0.0, "own": 0.0, "free": False})
    own = compiled.os.times()
    monkeypatch.setattr(compiled.os, "times", lambda: own)  # this process used nothing
    assert compiled.core_is_free()  # first reading: the load average
    assert compiled.core_is_free()  # within the window: the last verdict, no new reading
    # over the next second the others used cores − 1 of them: no core left beside ours
    assert not compiled.core_is_free()
    # over the one after, 0.2 of a core: free again
    assert compiled.core_is_free()
