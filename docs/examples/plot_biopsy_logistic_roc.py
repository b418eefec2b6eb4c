"""
Logistic regression on the biopsy data, with its ROC curve
==========================================================

The Wisconsin breast-cancer biopsies (R's ``MASS::biopsy``; Notes 004 §3.1 and §3.3): a logistic
regression of malignancy on the nine cytological scores, R's ``summary(glm(family = binomial))``,
then the ROC curve with the optimal threshold (the point farthest from the diagonal, the notes'
rule) and the AUC with DeLong's standard error, on a held-out quarter of the data.
"""

import matplotlib.pyplot as plt
from sklearn.model_selection import train_test_split

from statlearning.datasets import load_biopsy
from statlearning.linear_model import LogisticRegression
from statlearning.metrics import auc_se, confusion_matrix, roc_optimal_threshold
from statlearning.plot import roc_curve_plot

biopsy = load_biopsy(as_frame=True)
data = biopsy.frame.dropna()  # 16 biopsies lack the bare-nuclei score (V6)
X = data[biopsy.feature_names]
y = (data["class"] == "malignant").astype(int)
X_train, X_test, y_train, y_test = train_test_split(
    X, y, test_size=0.25, random_state=0, stratify=y
)

model = LogisticRegression().fit(X_train, y_train)
print(model.summary())

# %%
# ROC on the test set
# -------------------
score = model.predict_proba(X_test)[:, 1]
threshold, fpr, tpr = roc_optimal_threshold(y_test, score)
print(f"optimal threshold {threshold:.3f}: FPR {fpr:.3f}, TPR {tpr:.3f}")
auc, se = auc_se(y_test, score)
print(f"AUC {auc:.4f} (DeLong SE {se:.4f})")
print(confusion_matrix(y_test, (score >= 0.5).astype(int)))

ax = roc_curve_plot(y_test, score)
ax.set_title("Biopsy: logistic regression, test set")
plt.show()
