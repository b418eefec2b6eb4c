"""
Polynomial, step and spline fits with ±2 se bands (Notes 004 Figures 15–17)
===========================================================================

The non-linear fits of Notes 004 §6.1–6.2 on Gapminder 2011: a basis of one predictor
(R's ``poly``, ``cut``, ``bs``, ``ns``) and least squares on it, drawn with pointwise ±2 standard
error bands by :func:`~statlearning.plot.plot_fit`. The notes print no numbers for these figures
(examples E23–E25); the fits are R's ``lm(y ~ poly(x, 4))`` and so on.
"""

import matplotlib.pyplot as plt
import numpy as np

from statlearning.datasets import load_gapminder
from statlearning.plot import plot_fit
from statlearning.preprocessing import (
    BSplineFeatures,
    NaturalSplineFeatures,
    PolynomialFeatures,
    StepFeatures,
    fit_basis,
)

gap = load_gapminder(year=2011, as_frame=True).frame
y = gap["life_expectancy"].to_numpy()
predictors = {
    "fertility": gap["fertility"].to_numpy(),
    "infant mortality": gap["infant_mortality"].to_numpy(),
    "log GDP per capita": np.log(gap["gdp"] / gap["population"]).to_numpy(),
    "GDP": gap["gdp"].to_numpy(),
}

# %%
# Figure 15: polynomial regression of degree 4
# --------------------------------------------
# The GDP panel shows the tail behaviour of a global polynomial the notes warn about.
fig, axes = plt.subplots(2, 2, figsize=(10, 8))
for ax, (name, x) in zip(axes.ravel(), predictors.items(), strict=True):
    model = fit_basis(x[:, None], y, PolynomialFeatures(4, orthogonal=True))
    plot_fit(model, x, y, ax=ax)
    ax.set_xlabel(name)
    ax.set_ylabel("life expectancy")
fig.suptitle("Polynomial regression, d = 4, ±2 se")
plt.show()

# %%
# Figure 16: step functions
# -------------------------
# ``StepFeatures(n_bins=K)`` is R's ``cut(x, K)``: K intervals of equal width.
panels = [
    ("fertility", 3),
    ("infant mortality", 4),
    ("log GDP per capita", 3),
    ("log GDP per capita", 6),
]
fig, axes = plt.subplots(2, 2, figsize=(10, 8))
for ax, (name, k) in zip(axes.ravel(), panels, strict=True):
    x = predictors[name]
    plot_fit(fit_basis(x[:, None], y, StepFeatures(n_bins=k)), x, y, ax=ax)
    ax.set_title(f"K = {k}")
    ax.set_xlabel(name)
fig.suptitle("Step functions, ±2 se")
plt.show()

# %%
# Figure 17: cubic and natural cubic splines
# ------------------------------------------
# Knots at equally spaced quantiles of fertility, drawn as squares. A cubic B-spline basis with
# K interior knots has ``df = K + 3`` columns (R's ``bs(x, df)``), a natural spline ``df = K + 1``
# (R's ``ns(x, df)``).
x = predictors["fertility"]
fig, axes = plt.subplots(2, 4, figsize=(14, 6.5), sharey=True)
for ax, knots in zip(axes[0], [0, 1, 2, 10], strict=True):
    plot_fit(fit_basis(x[:, None], y, BSplineFeatures(df=knots + 3)), x, y, ax=ax)
    ax.set_title(f"cubic spline, {knots} knots")
for ax, knots in zip(axes[1], [0, 1, 5, 10], strict=True):
    plot_fit(fit_basis(x[:, None], y, NaturalSplineFeatures(df=knots + 1)), x, y, ax=ax)
    ax.set_title(f"natural spline, {knots} knots")
for ax in axes.ravel():
    ax.set_xlabel("fertility")
for ax in axes[:, 0]:
    ax.set_ylabel("life expectancy")
fig.tight_layout()
plt.show()
