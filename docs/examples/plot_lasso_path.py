"""
The lasso path and its cross-validation curve
=============================================

The lasso by coordinate descent (glmnet's algorithm; Notes 004 §5.3, Notes 001 §4.8) on the
diabetes data: the coefficient paths against the penalty with the penalties chosen by 10-fold
cross-validation marked (R's ``plot(glmnet, xvar = "lambda")``), then the cross-validation
curve with the smallest error and the one-standard-error choice (R's ``plot(cv.glmnet)``).
"""

import matplotlib.pyplot as plt

from statlearning.datasets import load_diabetes
from statlearning.linear_model import LassoCV
from statlearning.plot import lasso_cv_curve, plot_coefficient_path

diabetes = load_diabetes()
X, y = diabetes.data, diabetes.target
X = (X - X.mean(axis=0)) / X.std(axis=0)

cv = LassoCV(cv=10).fit(X, y)
print(f"alpha_min = {cv.alpha_min_:.4f}, alpha_1se = {cv.alpha_1se_:.4f}")
plot_coefficient_path(cv, X, y, feature_names=list(diabetes.feature_names))
plt.show()

# %%
# Choosing the penalty
# --------------------
# The same grid's 10-fold cross-validation error; the dashed and dotted lines of the path
# above are its minimum and its one-standard-error choice.
lasso_cv_curve(cv)
plt.show()
