"""
Smoothing splines from wiggly to linear (Notes 004 Figure 18)
=============================================================

R's ``smooth.spline(fertility, life_expectancy, spar = s)`` for ``spar`` = 0, 0.5, 1 and 1.5
(Notes 004 §6.2, example E27): as the penalty grows the fit goes from wiggly to the least-squares
line. The bands are ±2 se from the smoother's Bayesian standard errors. The last panel lets
generalised cross-validation choose the penalty.
"""

import matplotlib.pyplot as plt

from statlearning.datasets import load_gapminder
from statlearning.plot import plot_fit
from statlearning.smoothing import SmoothingSpline

gap = load_gapminder(year=2011, as_frame=True).frame
x = gap["fertility"].to_numpy()
y = gap["life_expectancy"].to_numpy()

fig, axes = plt.subplots(1, 5, figsize=(17, 3.8), sharey=True)
for ax, spar in zip(axes, [0, 0.5, 1, 1.5, None], strict=True):
    model = SmoothingSpline(spar=spar).fit(x, y)
    plot_fit(model, x, y, ax=ax)
    label = "GCV" if spar is None else f"spar = {spar}"
    ax.set_title(f"{label}: df = {model.df_:.1f}")
    ax.set_xlabel("fertility")
axes[0].set_ylabel("life expectancy")
fig.tight_layout()
plt.show()
