"""Figures for fitted statlearning objects (the optional ``[plot]`` extra: matplotlib).

Every function takes objects the library fits or returns, accepts ``ax=None`` (a new figure is
created when it is ``None``) and returns the :class:`matplotlib.axes.Axes` it drew on (the
:class:`matplotlib.figure.Figure` for multi-panel figures).

Unsupervised learning: :func:`scree_plot` (PCA eigenvalues with the retention rules marked),
:func:`biplot` (R's ``biplot(prcomp)``), :func:`dendrogram` (hierarchical clustering) and
:func:`cluster_scatter` (clusters, centres and Voronoi cells). Model assessment and selection:
:func:`cv_curve` and :func:`lasso_cv_curve` (CV error with ±1 SE bars, the minimum and the
one-standard-error choice), :func:`roc_curve_plot` (ROC with the optimal threshold and the AUC),
:func:`subset_criteria_plot` (RSS, adjusted R², Cp and BIC against the model size, as ISLR's
Figure 6.2) and :func:`replicates_plot` (bootstrap or jackknife replicates). Trees:
:func:`plot_tree` (R's ``plot(fit); text(fit)`` for rpart). Classifiers:
:func:`plot_decision_boundary` (regions, an SVM's boundary and margins, support vectors circled).
MARS: :func:`plot_mars` (the fitted model against each predictor, knots marked, as R's
``plotmo``).

Nothing else in the package imports matplotlib.
"""

try:
    import matplotlib  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised with matplotlib hidden
    raise ImportError(
        'statlearning.plot needs matplotlib, an optional dependency: '
        'pip install "statlearning[plot]"'
    ) from exc

from ._decision import plot_decision_boundary
from ._mars import plot_mars
from ._selection import (
    cv_curve,
    lasso_cv_curve,
    replicates_plot,
    roc_curve_plot,
    subset_criteria_plot,
)
from ._tree import plot_tree
from ._unsupervised import biplot, cluster_scatter, dendrogram, scree_plot

__all__ = [
    "biplot",
    "cluster_scatter",
    "cv_curve",
    "dendrogram",
    "lasso_cv_curve",
    "plot_decision_boundary",
    "plot_mars",
    "plot_tree",
    "replicates_plot",
    "roc_curve_plot",
    "scree_plot",
    "subset_criteria_plot",
]
