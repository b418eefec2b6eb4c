"""
A GAM of Gapminder 2011 and its partial effects (Notes 004 Figure 19)
=====================================================================

The notes' additive model (Notes 004 §6.3, example E28): life expectancy as an intercept plus
smooth functions of fertility, infant mortality and GDP and a continent effect, drawn one panel per
term with ±2 se bands; a prediction is the intercept plus the values read off the panels.

This example needs :mod:`statlearning.gam`; a build without that module prints a note instead.
"""

import importlib.util

import matplotlib.pyplot as plt

from statlearning.datasets import load_gapminder

HAVE_GAM = importlib.util.find_spec("statlearning.gam") is not None

gap = load_gapminder(year=2011, as_frame=True).frame
X = gap[["fertility", "infant_mortality", "gdp", "continent"]]
y = gap["life_expectancy"]

if HAVE_GAM:
    from statlearning.gam import GAMRegressor, f, s
    from statlearning.plot import plot_partial_dependence

    gam = GAMRegressor(terms=[s(0), s(1), s(2), f(3)]).fit(X, y)
    print(gam.summary())
    plot_partial_dependence(gam, X)
    plt.show()
else:
    print("statlearning.gam is not part of this installation: no GAM figure.")
