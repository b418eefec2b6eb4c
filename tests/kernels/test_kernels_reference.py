"""Kernel Gram matrices against R's kernlab, KernelRidge and KernelDensity against R-computed
formulas (tests/reference/kernels, made by make_kernels_reference.R)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from statlearning.kernel_methods import KernelRidge
from statlearning.kernels import RBF, Linear, Polynomial
from statlearning.neighbors import KernelDensity

HERE = Path(__file__).resolve().parents[1] / "reference" / "kernels"
REF = json.loads((HERE / "kernels_reference.json").read_text())
DATA = np.genfromtxt(HERE / "mtcars_kernels.csv", delimiter=",", skip_header=1)
X, y = DATA[:, :4], DATA[:, 4]
XTR, XTE, YTR = X[:24], X[24:], y[:24]


@pytest.mark.parametrize(
    ("name", "kernel"),
    [("rbf", RBF(gamma=0.3)), ("poly", Polynomial(degree=3, gamma=0.5, coef0=1.0)),
     ("linear", Linear())],
)  # fmt: skip
def test_gram_matches_kernlab(name, kernel):
    np.testing.assert_allclose(kernel(XTR), REF["gram"][name]["train"], rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(kernel(XTE, XTR), REF["gram"][name]["test"], rtol=1e-13, atol=1e-14)


def test_kernel_ridge_matches_the_r_solution():
    krr = REF["krr"]
    model = KernelRidge(alpha=krr["lambda"], kernel=RBF(0.3)).fit(XTR, YTR)
    np.testing.assert_allclose(model.dual_coef_, krr["dual_coef"], rtol=1e-10)
    np.testing.assert_allclose(model.predict(XTE), krr["dual_predict"], rtol=1e-10)
    model = KernelRidge(alpha=krr["lambda"], kernel=RBF(0.3), fit_intercept=True)
    model.fit(XTR, YTR, sample_weight=krr["weights"])
    assert model.intercept_ == pytest.approx(krr["intercept"], rel=1e-8)
    np.testing.assert_allclose(model.predict(XTE), krr["intercept_predict"], rtol=1e-9)


@pytest.mark.parametrize("kernel", ["gaussian", "epanechnikov"])
@pytest.mark.parametrize("algorithm", ["brute", "kd_tree"])
def test_kernel_density_matches_the_r_formula(kernel, algorithm):
    kde = REF["kde"]
    expected = np.array([np.nan if v is None else v for v in kde[kernel]])
    model = KernelDensity(bandwidth=kde["bandwidth"], kernel=kernel, algorithm=algorithm)
    got = model.fit(XTR[:, :2]).score_samples(np.array(kde["queries"]))
    finite = np.isfinite(expected)
    assert np.all(np.isneginf(got[~finite]))
    np.testing.assert_allclose(got[finite], expected[finite], rtol=1e-10)
