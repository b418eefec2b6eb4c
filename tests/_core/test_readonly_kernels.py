"""Read-only inputs (memory maps, ``setflags(write=False)``) reuse the compiled kernels.

Each kernel is compiled with one explicit signature whose input arrays are read-only: numba
converts writeable arrays to it, so a fit on read-only data neither fails nor compiles a second
specialisation (which took seconds per kernel).
"""

from __future__ import annotations

import numpy as np
import pytest

from statlearning._core import gaussian_loglik, glm_loss, grouped_moments, logistic, perceptron
from statlearning._solvers import _cd_kernels
from statlearning._solvers.coordinate_descent import enet_coordinate_descent
from statlearning.linear_model import GLMRegressor, Lasso, LogisticRegression

KERNELS = {
    "gram_sweeps": _cd_kernels.gram_sweeps,
    "residual_sweeps": _cd_kernels.residual_sweeps,
    "glm_loss_gradient": glm_loss.glm_loss_gradient,
    "_binary_pointwise": logistic._binary_pointwise,
    "_weighted_sums": logistic._weighted_sums,
}
#: Kernels with one signature per memory layout of the data matrix (C, F).
ANY_LAYOUT = {
    "_sums": grouped_moments._sums,
    "_centred_squares": grouped_moments._centred_squares,
    # the serial variant: these tests' data are below gaussian_loglik.PARALLEL_WORK
    "_loglik_serial": gaussian_loglik._loglik_serial,
    "perceptron": perceptron._epochs,
}


def _readonly(a):
    a = np.array(a)
    a.setflags(write=False)
    return a


def _memmap(a, tmp_path, name):
    path = tmp_path / f"{name}.npy"
    np.save(path, a)
    return np.load(path, mmap_mode="r")


def _data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 8))
    y = X @ rng.normal(size=8) + rng.normal(size=300)
    return X, y


def _fits(X, y):
    """One fit through every kernel (both coordinate-descent kernels, the GLM loss, the
    logistic loss and the column moments of the first-order solvers)."""
    return [
        Lasso(alpha=0.05).fit(X, y).coef_,  # Gram kernel
        enet_coordinate_descent(X, y, alpha=0.05, gram=False, tol=1e-10).x,  # residual kernel
        # no centring, no weights: the residual kernel reads X itself
        enet_coordinate_descent(X, y, alpha=0.05, fit_intercept=False, gram=False).x,
        enet_coordinate_descent(X[:1], y[:1], alpha=0.05, fit_intercept=False, gram=False).x,
        GLMRegressor(family="poisson", alpha=0.1).fit(X, np.exp(y / 10)).coef_,  # L-BFGS
        LogisticRegression(penalty="l2", solver="lbfgs").fit(X, y > 0).coef_,
    ]


def test_every_kernel_has_one_signature_with_read_only_inputs(tmp_path):
    X, y = _data()
    reference = _fits(X, y)
    _fits(np.asfortranarray(X), y)  # the two-product logistic loss reads a Fortran-ordered X
    before = {name: list(k.signatures) for name, k in KERNELS.items()}
    # one signature each; the residual kernel also takes a one-row (C- and F-contiguous) X
    assert all(len(s) == (2 if n == "residual_sweeps" else 1) for n, s in before.items()), before
    for arr_X, arr_y in [
        (_readonly(X), _readonly(y)),
        (_readonly(np.asfortranarray(X)), _readonly(y)),
        (_memmap(X, tmp_path, "X"), _memmap(y, tmp_path, "y")),
    ]:
        got = _fits(arr_X, arr_y)
        for a, b in zip(got, reference, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    after = {name: list(k.signatures) for name, k in KERNELS.items()}
    assert after == before  # no new specialisation was compiled
    for k in KERNELS.values():
        for sig in k.signatures:
            assert not sig[0].mutable, "the data arrays are declared read-only"


@pytest.mark.parametrize("name", ["gram_sweeps", "residual_sweeps"])
def test_kernels_write_only_their_own_buffers(name):
    """The data and penalty arrays may be read-only; the state and coefficients are written."""
    for sig in KERNELS[name].signatures:
        assert not sig[0].mutable  # G or X
        assert sig[1].mutable and sig[2].mutable  # state, beta
        assert not any(t.mutable for t in sig[3:7])  # nrm, a, b, working


def test_kernels_of_any_layout_take_read_only_data_without_new_versions(tmp_path):
    """Naive Bayes, discriminant analysis and the perceptron run these kernels on read-only,
    Fortran-ordered and strided data with the signatures compiled once."""
    from statlearning.discriminant_analysis import LinearDiscriminantAnalysis
    from statlearning.linear_model import Perceptron
    from statlearning.naive_bayes import GaussianNB

    X, y = _data()
    labels = (y > 0).astype(int)

    def fits(A):
        return [
            GaussianNB().fit(A, labels).predict_proba(A),
            LinearDiscriminantAnalysis().fit(A, labels).predict_proba(A),
            Perceptron(random_state=0).fit(A, labels).coef_,
        ]

    reference = fits(X)
    before = {name: list(k.signatures) for name, k in ANY_LAYOUT.items()}
    # compiled lazily: the C version, and the F version if earlier runs needed it
    assert all(1 <= len(s) <= 2 for s in before.values()), before
    big = np.repeat(X, 2, axis=1)
    for A in [
        _readonly(X),
        _readonly(np.asfortranarray(X)),
        _memmap(X, tmp_path, "X"),
        big[:, ::2],  # strided view: copied to C order
    ]:
        for a, b in zip(fits(A), reference, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    for name, k in ANY_LAYOUT.items():  # Fortran-ordered data add at most the F version
        assert set(k.signatures) <= set(k.signatures_declared), name
        assert all(not sig[0].mutable for sig in k.signatures)
