"""
The lasso path and its cross-validation curve
=============================================

The lasso by coordinate descent (glmnet's algorithm; Notes 004 §5.3, Notes 001 §4.8) on the
diabetes data: the coefficient path against the penalty, then 10-fold cross-validation with the
smallest error and the one-standard-error choice (R's ``plot(cv.glmnet)``).
"""

import matplotlib.pyplot as plt
import numpy as np

from statlearning.datasets import load_diabetes
from statlearning.linear_model import LassoCV, lasso_path
from statlearning.plot import lasso_cv_curve

diabetes = load_diabetes()
X, y = diabetes.data, diabetes.target
X = (X - X.mean(axis=0)) / X.std(axis=0)

alphas, coefs, _ = lasso_path(X, y)
fig, ax = plt.subplots()
for j, name in enumerate(diabetes.feature_names):
    ax.plot(np.log10(alphas), coefs[j], label=name)
ax.set_xlabel("log10(alpha)")
ax.set_ylabel("coefficient")
ax.legend(fontsize="small", ncol=2)
ax.set_title("Lasso path")
plt.show()

# %%
# Choosing the penalty
# --------------------
cv = LassoCV(cv=10).fit(X, y)
print(f"alpha_min = {cv.alpha_min_:.4f}, alpha_1se = {cv.alpha_1se_:.4f}")
lasso_cv_curve(cv)
plt.show()
