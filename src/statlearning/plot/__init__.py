"""Figures for fitted statlearning objects (the optional ``[plot]`` extra: matplotlib).

Every function takes objects the library fits or returns, accepts ``ax=None`` (a new figure is
created when it is ``None``) and returns the :class:`matplotlib.axes.Axes` it drew on (the
:class:`matplotlib.figure.Figure` for multi-panel figures).

Unsupervised learning: :func:`scree_plot` (PCA eigenvalues with the retention rules marked),
:func:`biplot` (R's ``biplot(prcomp)``), :func:`kernel_pca_scatter` (kernel principal component
scores by class or cluster), :func:`dendrogram` (hierarchical clustering) and
:func:`cluster_scatter` (clusters, centres and Voronoi cells). Model assessment and selection:
:func:`cv_curve` and :func:`lasso_cv_curve` (CV error with ±1 SE bars, the minimum and the
one-standard-error choice), :func:`roc_curve_plot` (ROC with the optimal threshold and the AUC),
:func:`subset_criteria_plot` (RSS, adjusted R², Cp and BIC against the model size, as ISLR's
Figure 6.2) and :func:`replicates_plot` (bootstrap or jackknife replicates). Component
regressions: :func:`rmsep_curve` (cross-validated RMSEP of PCR/PLS, R's ``validationplot``) and
:func:`pls_loadings_plot` (R's ``plot(fit, "loadings")``). Trees:
:func:`plot_tree` (R's ``plot(fit); text(fit)`` for rpart). Basis fits and smoothers:
:func:`plot_fit` (a curve of one predictor with its pointwise ±2 se band). Classifiers:
:func:`plot_decision_boundary` (regions, an SVM's boundary and margins, support vectors circled).
Additive models: :func:`plot_partial_dependence` (one panel per term with ±2 se bands,
factors as steps, the intercept in the title: seed 004's Figure 19).
MARS: :func:`plot_mars` (the fitted model against each predictor, knots marked, as R's
``plotmo``).
Neural networks: :func:`plot_loss_curve` (training loss and validation score by epoch) and
:func:`plot_network` (the network diagram, weights as edge widths).
A fitted model: :func:`plot_regression_diagnostics` (R's four ``plot(lm)`` panels),
:func:`plot_confusion_matrix`, :func:`plot_roc` (AUC ± SE, the optimal threshold; one class
against the rest for several), :func:`plot_calibration` (reliability curve with binomial error
bars), :func:`plot_coefficients` (estimates with their intervals),
:func:`plot_coefficient_path` (a lasso or elastic net's paths, the CV choices marked) and
:func:`plot_permutation_importance` (OOB for forests). Comparing models: :func:`plot_cv_scores`
(per-fold scores of a leaderboard, box and dots with mean ± SE).

Nothing else in the package imports matplotlib, except the HTML report of the command line
(``statlearning report``), which needs the ``[report]`` extra.
"""

try:
    import matplotlib  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised with matplotlib hidden
    raise ImportError(
        "statlearning.plot needs matplotlib, an optional dependency: "
        'pip install "statlearning[plot]"'
    ) from exc

from ._cross_decomposition import pls_loadings_plot, rmsep_curve
from ._decision import plot_decision_boundary
from ._diagnostics import plot_calibration, plot_confusion_matrix, plot_regression_diagnostics
from ._effects import plot_coefficients, plot_cv_scores, plot_permutation_importance
from ._gam import plot_partial_dependence
from ._mars import plot_mars
from ._network import plot_loss_curve, plot_network
from ._selection import (
    cv_curve,
    lasso_cv_curve,
    plot_coefficient_path,
    plot_roc,
    replicates_plot,
    roc_curve_plot,
    subset_criteria_plot,
)
from ._smooth import plot_fit
from ._tree import plot_tree
from ._unsupervised import biplot, cluster_scatter, dendrogram, kernel_pca_scatter, scree_plot

__all__ = [
    "biplot",
    "cluster_scatter",
    "cv_curve",
    "dendrogram",
    "kernel_pca_scatter",
    "lasso_cv_curve",
    "plot_calibration",
    "plot_coefficient_path",
    "plot_coefficients",
    "plot_confusion_matrix",
    "plot_cv_scores",
    "plot_decision_boundary",
    "plot_fit",
    "plot_loss_curve",
    "plot_mars",
    "plot_network",
    "plot_partial_dependence",
    "plot_permutation_importance",
    "plot_regression_diagnostics",
    "plot_roc",
    "plot_tree",
    "pls_loadings_plot",
    "replicates_plot",
    "rmsep_curve",
    "roc_curve_plot",
    "scree_plot",
    "subset_criteria_plot",
]
