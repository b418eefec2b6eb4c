"""
Linear regression on Gapminder 2011, as R's ``summary(lm)``
===========================================================

The notes' motivating regression (Notes 004 §2.1.2): life expectancy of 166 countries in 2011
against infant mortality and fertility. :class:`~statlearning.linear_model.LinearRegression`
prints R's ``summary(lm(life_expectancy ~ infant_mortality + fertility))`` and gives R's
confidence and prediction intervals (``predict.lm(interval = ...)``).
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from statlearning.datasets import load_gapminder
from statlearning.linear_model import LinearRegression

gap = load_gapminder(year=2011, as_frame=True)  # complete cases, n = 166
X = gap.frame[["infant_mortality", "fertility"]]
y = gap.frame["life_expectancy"]

model = LinearRegression().fit(X, y)
print(model.summary())

# %%
# Intervals for new countries
# ---------------------------
# The mean response (``kind="confidence"``) and a new country's response (``kind="prediction"``)
# at infant mortality 1 to 100 with fertility held at 3.
grid = pd.DataFrame({"infant_mortality": np.linspace(1, 100, 50), "fertility": 3.0})
fit, lower, upper = model.predict_interval(grid, kind="prediction")
_, clow, cup = model.predict_interval(grid, kind="confidence")

fig, ax = plt.subplots()
ax.scatter(X["infant_mortality"], y, s=10, alpha=0.5, label="countries")
ax.plot(grid["infant_mortality"], fit, color="k", label="fit (fertility = 3)")
ax.fill_between(grid["infant_mortality"], lower, upper, alpha=0.2, label="95% prediction")
ax.fill_between(grid["infant_mortality"], clow, cup, alpha=0.4, label="95% confidence")
ax.set_xlabel("infant mortality (per 1000)")
ax.set_ylabel("life expectancy (years)")
ax.legend()
plt.show()
