"""Decision regions of a fitted classifier on two features, with the SVM's margins."""

from __future__ import annotations

import numpy as np

from ._common import get_ax, require_attributes


def plot_decision_boundary(estimator, X, y, *, grid=200, margins=True, ax=None):
    """Decision regions of a classifier fitted on two features, as ISLR's Figure 9.x.

    The plane is coloured by ``estimator.predict`` and the samples by ``y``. For a two-class
    estimator with ``decision_function``, the boundary ``f(x) = 0`` is drawn solid and, with
    ``margins=True``, the margins ``f(x) = ±1`` dashed; support vectors (``support_``) are
    circled.

    Parameters
    ----------
    estimator : fitted classifier
        Fitted on two features; needs ``predict`` and ``classes_``.
    X : array-like of shape (n_samples, 2)
        The samples to draw (usually the training data).
    y : array-like of shape (n_samples,)
        Their labels.
    grid : int, default=200
        Grid points along each axis.
    margins : bool, default=True
        Draw the margins ``f(x) = ±1`` of a two-class ``decision_function``.
    ax : matplotlib Axes, default=None
        Where to draw; a new figure when ``None``.

    Returns
    -------
    ax : matplotlib Axes
        One filled contour set (the regions), one contour set (boundary and margins, two-class
        estimators with ``decision_function``), one scatter collection per class and one for
        the support vectors.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from statlearning.plot import plot_decision_boundary
    >>> from statlearning.svm import SVC
    >>> X = np.array([[0.2, -1.4], [-2.1, 1.7], [0.9, 1.0], [-1.0, -3.1],
    ...               [-0.2, -1.0], [-0.2, 1.3], [2.0, -1.0], [0.5, 2.1]])
    >>> y = np.array([-1, 1, 1, -1, -1, 1, -1, 1])
    >>> ax = plot_decision_boundary(SVC(kernel="linear", C=np.inf).fit(X, y), X, y)
    """
    require_attributes(estimator, ["predict", "classes_"], "estimator", "a fitted classifier")
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (n_samples, 2); got {X.shape}")
    y = np.asarray(y)
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},); got {y.shape}")
    if isinstance(grid, bool) or not isinstance(grid, int | np.integer) or grid < 2:
        raise ValueError(f"grid must be an integer >= 2; got {grid!r}")
    ax = get_ax(ax)
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = 0.1 * np.maximum(hi - lo, 1e-12)
    g0 = np.linspace(lo[0] - pad[0], hi[0] + pad[0], grid)
    g1 = np.linspace(lo[1] - pad[1], hi[1] + pad[1], grid)
    G0, G1 = np.meshgrid(g0, g1)
    points = np.column_stack([G0.ravel(), G1.ravel()])
    classes = np.asarray(estimator.classes_)
    codes = np.searchsorted(classes, estimator.predict(points)).reshape(G0.shape)
    ax.contourf(G0, G1, codes, levels=np.arange(classes.size + 1) - 0.5, alpha=0.2,
                colors=[f"C{k % 10}" for k in range(classes.size)])  # fmt: skip
    if classes.size == 2 and hasattr(estimator, "decision_function"):
        f = np.asarray(estimator.decision_function(points)).reshape(G0.shape)
        levels = [-1.0, 0.0, 1.0] if margins else [0.0]
        styles = ["dashed", "solid", "dashed"] if margins else ["solid"]
        ax.contour(G0, G1, f, levels=levels, colors="black", linestyles=styles, linewidths=1)
    for k, label in enumerate(classes):
        rows = y == label
        ax.scatter(*X[rows].T, s=18, color=f"C{k % 10}", label=str(label), zorder=3)
    support = getattr(estimator, "support_", None)
    if support is not None and np.size(support) and np.max(support) < X.shape[0]:
        ax.scatter(*X[support].T, s=90, facecolors="none", edgecolors="black",
                   label="support vectors", zorder=4)  # fmt: skip
    ax.set_xlabel("Feature 1")
    ax.set_ylabel("Feature 2")
    ax.legend(fontsize="small")
    return ax
