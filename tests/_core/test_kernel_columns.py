"""The compiled kernel columns equal the one Gram implementation (1e-12)."""

from __future__ import annotations

import numpy as np
import pytest

from statlearning._core._kernel_columns import (
    kernel_column,
    kernel_diagonal,
    prepare_columns,
)
from statlearning._core.kernel_gram import gram

CASES = [
    ("linear", None, {}),
    ("poly", 0.7, {"degree": 3, "coef0": 1.5}),
    ("rbf", 0.4, {}),
    ("rbf", np.array([0.1, 0.5, 2.0, 0.3]), {}),
    ("sigmoid", 0.2, {"coef0": -0.5}),
    ("laplacian", 0.8, {}),
    ("cosine", None, {}),
]


@pytest.mark.parametrize(("kernel", "gamma", "params"), CASES, ids=[c[0] for c in CASES])
def test_columns_equal_gram(kernel, gamma, params):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(37, 4))
    X[5] = 0.0  # a zero row (cosine: zero column)
    K = gram(X, kernel=kernel, gamma=1.0 if gamma is None else gamma, **params)
    data, sqnorm, code, g = prepare_columns(X, kernel, 1.0 if gamma is None else gamma)
    degree = float(params.get("degree", 3))
    coef0 = float(params.get("coef0", 0.0))
    col = np.empty(37)
    for i in range(37):
        kernel_column(data, sqnorm, code, g, degree, coef0, i, col)
        np.testing.assert_allclose(col, K[:, i], rtol=1e-12, atol=1e-12)
    diag = np.empty(37)
    kernel_diagonal(data, sqnorm, code, g, degree, coef0, diag)
    if kernel != "cosine":  # the cosine diagonal is 1 except on zero rows, where gram gives 0
        np.testing.assert_allclose(diag, np.diag(K), rtol=1e-12, atol=1e-12)


def test_precomputed_columns_read_the_gram():
    K = np.arange(16.0).reshape(4, 4)
    K = K + K.T
    data, sqnorm, code, g = prepare_columns(K, "precomputed", None)
    col = np.empty(4)
    kernel_column(data, sqnorm, code, g, 3.0, 0.0, 2, col)
    np.testing.assert_array_equal(col, K[:, 2])
