"""
k-means clustering with its Voronoi cells
=========================================

Lloyd's algorithm with k-means++ seeding (Notes 001 §9.1; R's ``kmeans``) on two standardised
Gapminder indicators, with the cells of the fitted centres (Notes 001 §9.1.2).
"""

import matplotlib.pyplot as plt
import numpy as np

from statlearning.cluster import KMeans
from statlearning.datasets import load_gapminder
from statlearning.plot import cluster_scatter

gap = load_gapminder(year=2011, as_frame=True).frame
X = np.column_stack([np.log(gap["gdp"] / gap["population"]), gap["life_expectancy"]])
X = (X - X.mean(axis=0)) / X.std(axis=0)

km = KMeans(n_clusters=3, n_init=10, random_state=0).fit(X)
print(f"total within-cluster sum of squares: {km.inertia_:.2f}")

ax = cluster_scatter(X, km.labels_, centers=km.cluster_centers_, voronoi=True)
ax.set_xlabel("log GDP per capita (standardised)")
ax.set_ylabel("life expectancy (standardised)")
plt.show()
