"""
A regression tree of Gapminder 2011, pruned by cross-validation
===============================================================

The notes' tree (Notes 004 §7.1, example E29): life expectancy on infant mortality and fertility
with rpart's defaults (``minsplit = 20``, ``minbucket = 7``, ``cp = 0.01``). The printed tree is
rpart's ``print(fit)`` line for line; the figure is rpart's ``plot(fit); text(fit)``. Then the
subtree chosen by 10-fold cross-validation with the one-standard-error rule (rpart's cp table).
"""

import matplotlib.pyplot as plt

from statlearning.datasets import load_gapminder
from statlearning.plot import plot_tree
from statlearning.tree import DecisionTreeRegressor, DecisionTreeRegressorCV, export_text

gap = load_gapminder(year=2011, as_frame=True)
X = gap.frame[["infant_mortality", "fertility"]]
y = gap.frame["life_expectancy"]

tree = DecisionTreeRegressor(min_samples_split=20, min_samples_leaf=7, cp=0.01).fit(X, y)
print(export_text(tree))

ax = plot_tree(tree, feature_names=list(X.columns))
ax.set_title("LE ~ IM + fert (rpart defaults)")
plt.show()

# %%
# Cost-complexity pruning by cross-validation
# -------------------------------------------
cv_tree = DecisionTreeRegressorCV(
    min_samples_split=20, min_samples_leaf=7, cv=10, rule="1se", random_state=0
).fit(X, y)
print(export_text(cv_tree))
