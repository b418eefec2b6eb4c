"""
Principal components of Gapminder 2011
======================================

PCA on the standardised Gapminder indicators (Notes 004 §5.4, Notes 001 §8.1): R's
``summary(prcomp(x, scale. = TRUE))``, the scree plot with the notes' retention rules, and the
biplot.
"""

import matplotlib.pyplot as plt
import numpy as np

from statlearning.datasets import load_gapminder
from statlearning.decomposition import PCA
from statlearning.plot import biplot, scree_plot

gap = load_gapminder(year=2011, as_frame=True).frame
X = gap[["infant_mortality", "life_expectancy", "fertility"]].assign(
    log_gdp_per_capita=np.log(gap["gdp"] / gap["population"]),
    log_population=np.log(gap["population"]),
)
X = (X - X.mean()) / X.std()

pca = PCA().fit(X)
print(pca.summary())

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5))
scree_plot(pca, ax=ax1)
biplot(pca, X, feature_names=list(X.columns), ax=ax2)
plt.show()
