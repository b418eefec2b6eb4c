"""Figures for unsupervised learning: scree plot, biplot, dendrogram, cluster scatter."""

from __future__ import annotations

import numpy as np
from scipy.cluster import hierarchy
from scipy.spatial import QhullError, Voronoi

from ..decomposition import retained_components
from ._common import as_vector, get_ax, require_attributes

_RULE_STYLES = ("--", ":", "-.", (0, (5, 1, 1, 1)), (0, (1, 3)))


def scree_plot(
    pca, rules=("cumulative:0.95", "individual:0.25", "kaiser", "elbow"), ax=None
):
    """Scree plot: proportions of variance with the components each retention rule keeps.

    Parameters
    ----------
    pca : fitted :class:`~statlearning.decomposition.PCA` or array-like of shape (n,)
        The fitted PCA (its ``eigenvalues_`` are used, so every computed component is shown,
        not only the retained ones), or eigenvalues in decreasing order.
    rules : sequence of str, default=("cumulative:0.95", "individual:0.25", "kaiser", "elbow")
        Retention rules of :func:`~statlearning.decomposition.retained_components`; each is
        marked by a vertical line at the number of components it keeps, named in the legend.
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        Lines: the individual proportions, the cumulative proportions, then one per rule.

    Notes
    -----
    The proportion of variance of component :math:`m` is :math:`\\lambda_m / \\sum_j
    \\lambda_j` (seed 004 §1.6, E22); R: ``screeplot(prcomp(x))`` draws the variances, and
    ``summary(prcomp(x))`` lists both proportions.
    """
    if hasattr(pca, "eigenvalues_"):
        eigenvalues = np.asarray(pca.eigenvalues_, dtype=np.float64)
    elif hasattr(pca, "components_") or hasattr(pca, "get_params"):
        raise TypeError("pca must be a fitted statlearning PCA (with eigenvalues_) or eigenvalues")
    else:
        eigenvalues = as_vector(pca, "pca")
    if isinstance(rules, str):
        rules = (rules,)
    kept = [(rule, retained_components(eigenvalues, rule)) for rule in rules]
    total = eigenvalues.sum()
    prop = eigenvalues / total if total > 0 else np.zeros_like(eigenvalues)
    m = np.arange(1, eigenvalues.size + 1)
    ax = get_ax(ax)
    ax.plot(m, prop, "o-", color="C0", label="proportion of variance")
    ax.plot(m, np.cumsum(prop), "s--", color="C1", label="cumulative proportion")
    for i, (rule, k) in enumerate(kept):
        ax.axvline(
            k,
            color=f"C{(i + 2) % 10}",
            linestyle=_RULE_STYLES[i % len(_RULE_STYLES)],
            label=f"{rule}: {k} component{'s' if k != 1 else ''}",
        )
    ax.set_xlabel("Principal component")
    ax.set_ylabel("Proportion of variance")
    ax.set_xticks(m)
    ax.set_ylim(0, 1.05)
    ax.set_title("Scree plot")
    ax.legend(loc="center right", fontsize="small")
    return ax


def _component_pair(components, k: int, what: str) -> tuple[int, int]:
    """Two different zero-based component indices below ``k``; ``ValueError`` otherwise."""
    comps = tuple(int(c) for c in components)
    if len(comps) != 2 or comps[0] == comps[1]:
        raise ValueError(f"components must be two different indices; got {components!r}")
    if not all(0 <= c < k for c in comps):
        raise ValueError(f"components={components!r}: the {what} kept {k} components (0…{k - 1})")
    return comps


def _component_axes(ax, comps, ratio, prefix: str) -> None:
    """Axis labels ``<prefix><m> (<share>%)`` and the zero lines of a score scatter."""
    for setter, c in ((ax.set_xlabel, comps[0]), (ax.set_ylabel, comps[1])):
        share = f" ({100 * ratio[c]:.1f}%)" if ratio is not None else ""
        setter(f"{prefix}{c + 1}{share}")
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.axvline(0, color="grey", linewidth=0.5)


def biplot(pca, X, feature_names=None, components=(0, 1), ax=None):
    """Scores of the samples and loading arrows of the features, like R's ``biplot(prcomp)``.

    Parameters
    ----------
    pca : fitted :class:`~statlearning.decomposition.PCA`
    X : array-like of shape (n_samples, n_features)
        Data to project (usually the training data).
    feature_names : sequence of str, default=None
        Arrow labels; default ``feature_names_in_`` when the PCA was fitted on a DataFrame,
        else ``x0, x1, …``.
    components : pair of int, default=(0, 1)
        Zero-based components on the horizontal and vertical axes (R's ``choices = 1:2``).
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        One scatter collection (the scores), one arrow patch and one text per feature.

    Notes
    -----
    R's ``biplot.prcomp(scale = 1)``: with :math:`\\ell_j = s_j \\sqrt{n}` (``s_j`` the
    standard deviation of component :math:`j`), the points are the scores :math:`t_{ij} /
    \\ell_j` and the arrows the loadings :math:`w_{kj} \\ell_j`. R draws the arrows on a second
    pair of axes; here they are multiplied by one common factor so they span 80% of the score
    range (directions and relative lengths are unchanged).
    """
    require_attributes(pca, ("components_", "explained_variance_"), "pca", "a fitted PCA")
    comps = _component_pair(components, pca.components_.shape[0], "PCA")
    scores = np.asarray(pca.transform(X))[:, comps]
    loadings = pca.components_[list(comps)].T
    p = loadings.shape[0]
    if feature_names is None:
        names = getattr(pca, "feature_names_in_", None)
        feature_names = list(names) if names is not None else [f"x{j}" for j in range(p)]
    feature_names = [str(f) for f in feature_names]
    if len(feature_names) != p:
        raise ValueError(f"feature_names has {len(feature_names)} names for {p} features")
    lam = np.sqrt(pca.explained_variance_[list(comps)] * scores.shape[0])
    lam[lam == 0] = 1.0
    points = scores / lam
    arrows = loadings * lam
    reach = np.abs(arrows).max()
    factor = 0.8 * np.abs(points).max() / reach if reach > 0 else 1.0
    arrows = arrows * factor
    ax = get_ax(ax)
    ax.scatter(points[:, 0], points[:, 1], s=12, color="C0", alpha=0.7, label="samples")
    width = 0.004 * max(np.ptp(points[:, 0]), np.ptp(points[:, 1]), 1e-12)
    for (dx, dy), name in zip(arrows, feature_names, strict=True):
        ax.arrow(0, 0, dx, dy, color="C3", width=width, length_includes_head=True)
        ax.text(1.08 * dx, 1.08 * dy, name, color="C3", ha="center", va="center")
    _component_axes(ax, comps, getattr(pca, "explained_variance_ratio_", None), "PC")
    ax.set_title("Biplot")
    return ax


def dendrogram(agglomerative, ax=None, **kwargs):
    """Dendrogram of a fitted hierarchical clustering.

    Parameters
    ----------
    agglomerative : fitted :class:`~statlearning.cluster.AgglomerativeClustering` or ndarray
        Its ``linkage_matrix_`` (SciPy's format), or such a matrix of shape (n − 1, 4).
    ax : matplotlib Axes, default=None
    **kwargs
        Passed to :func:`scipy.cluster.hierarchy.dendrogram` (``color_threshold``,
        ``truncate_mode``, ``labels``, …).

    Returns
    -------
    ax : matplotlib Axes
        One tick label per leaf.

    Notes
    -----
    The merge heights are those of the fitted linkage (R's ``hclust``'s ``height``); R:
    ``plot(hclust(d, method))``.
    """
    Z = getattr(agglomerative, "linkage_matrix_", agglomerative)
    if hasattr(agglomerative, "get_params") and not hasattr(agglomerative, "linkage_matrix_"):
        raise TypeError("agglomerative must be a fitted AgglomerativeClustering")
    Z = np.asarray(Z, dtype=np.float64)
    if Z.ndim != 2 or Z.shape[1] != 4 or Z.shape[0] < 1:
        raise ValueError(f"agglomerative: a linkage matrix has shape (n - 1, 4); got {Z.shape}")
    ax = get_ax(ax)
    hierarchy.dendrogram(Z, ax=ax, **kwargs)
    ax.set_xlabel("Sample")
    ax.set_ylabel("Height")
    ax.set_title("Dendrogram")
    return ax


def _voronoi_segments(centers: np.ndarray, span: float) -> np.ndarray:
    """Edges of the Voronoi cells of 2-D ``centers``; unbounded edges end ``span`` away."""
    if centers.shape[0] >= 3:
        try:
            vor = Voronoi(centers)
        except QhullError:
            vor = None
    else:
        vor = None
    if vor is None:  # two or collinear centres: the cells are strips between bisectors
        axis = centers[-1] - centers[0]
        axis /= np.linalg.norm(axis)
        ordered = centers[np.argsort(centers @ axis)]
        normal = np.array([-axis[1], axis[0]])
        mids = 0.5 * (ordered[1:] + ordered[:-1])
        return np.stack([mids - span * normal, mids + span * normal], axis=1)
    segments = []
    centre = centers.mean(axis=0)
    for pair, ridge in zip(vor.ridge_points, vor.ridge_vertices, strict=True):
        ridge = np.asarray(ridge)
        if np.all(ridge >= 0):
            segments.append(vor.vertices[ridge])
            continue
        start = vor.vertices[ridge[ridge >= 0][0]]
        t = centers[pair[1]] - centers[pair[0]]
        t /= np.linalg.norm(t)
        normal = np.array([-t[1], t[0]])
        mid = centers[pair].mean(axis=0)
        direction = np.sign(np.dot(mid - centre, normal)) * normal
        if not np.any(direction):
            direction = normal
        segments.append(np.stack([start, start + span * direction]))
    return np.asarray(segments)


def cluster_scatter(X, labels, centers=None, voronoi=False, ax=None):
    """Two-dimensional scatter of the samples coloured by cluster, with centres and cells.

    Parameters
    ----------
    X : array-like of shape (n_samples, 2)
        Two features (e.g. the first two principal component scores).
    labels : array-like of shape (n_samples,)
        Cluster labels (``labels_``); the label ``-1`` is drawn in grey as noise (DBSCAN).
    centers : array-like of shape (n_clusters, 2), default=None
        Centres to mark (e.g. ``KMeans.cluster_centers_``).
    voronoi : bool, default=False
        Draw the Voronoi cells of ``centers`` (the regions k-means assigns to each centre,
        computed with :class:`scipy.spatial.Voronoi`).
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        One scatter collection per label, one for the centres, and one line collection for the
        cell edges.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (n_samples, 2); got {X.shape}")
    labels = np.asarray(labels)
    if labels.shape != (X.shape[0],):
        raise ValueError(f"labels must have shape ({X.shape[0]},); got {labels.shape}")
    if centers is not None:
        centers = np.asarray(centers, dtype=np.float64)
        if centers.ndim != 2 or centers.shape[1] != 2 or centers.shape[0] < 1:
            raise ValueError(f"centers must have shape (n_clusters, 2); got {centers.shape}")
    if voronoi and (centers is None or centers.shape[0] < 2):
        raise ValueError("voronoi=True needs centers with at least two rows")
    ax = get_ax(ax)
    colour = 0
    for lab in np.unique(labels):
        rows = labels == lab
        if lab == -1:
            ax.scatter(*X[rows].T, s=10, color="lightgrey", label="noise")
        else:
            ax.scatter(*X[rows].T, s=14, color=f"C{colour % 10}", label=f"cluster {lab}")
            colour += 1
    if centers is not None:
        ax.scatter(*centers.T, marker="X", s=120, color="black", edgecolor="white",
                   label="centres", zorder=3)
    if voronoi:
        from matplotlib.collections import LineCollection

        xlim, ylim = ax.get_xlim(), ax.get_ylim()
        both = np.vstack([X, centers])
        span = 10.0 * max(np.ptp(both, axis=0).max(), 1e-12)
        segs = _voronoi_segments(centers, span)
        ax.add_collection(
            LineCollection(segs, colors="black", linewidths=1, linestyles="dashed",
                           label="Voronoi cells"),
            autolim=False,
        )
        ax.set_xlim(xlim)
        ax.set_ylim(ylim)
    ax.set_xlabel("Feature 1")
    ax.set_ylabel("Feature 2")
    ax.legend(fontsize="small")
    return ax


def kernel_pca_scatter(kpca, X, y=None, components=(0, 1), ax=None):
    """Scatter of kernel principal component scores, coloured by class or cluster.

    Parameters
    ----------
    kpca : fitted :class:`~statlearning.decomposition.KernelPCA`
    X : array-like of shape (n_samples, n_features)
        Points to project (the training data, or new points; their Gram matrix against the
        training points for a precomputed kernel).
    y : array-like of shape (n_samples,), default=None
        Labels (classes or clusters) to colour the points by; None draws one colour.
    components : pair of int, default=(0, 1)
        Zero-based components on the horizontal and vertical axes.
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        One scatter collection per label (one in all without ``y``), in the order of
        ``np.unique(y)``.

    Notes
    -----
    The scores are :meth:`~statlearning.decomposition.KernelPCA.transform`'s ``Σⱼ αⱼ
    K^c(x, xⱼ)`` (test points centred with the training statistics, seed 002 (12.17–12.18));
    the axis labels give each component's share of the feature-space variance
    (``explained_variance_ratio_``, λ / trace K^c). R: ``plot(rotated(kpca(x)), col = y)``
    with kernlab, whose scores are ours times √N.
    """
    require_attributes(
        kpca, ("eigenvalues_", "dual_coef_", "transform"), "kpca", "a fitted KernelPCA"
    )
    comps = _component_pair(components, kpca.eigenvalues_.shape[0], "KernelPCA")
    scores = np.asarray(kpca.transform(X))[:, comps]
    ax = get_ax(ax)
    if y is None:
        ax.scatter(scores[:, 0], scores[:, 1], s=14, color="C0", alpha=0.8)
    else:
        y = np.asarray(y)
        if y.shape != (scores.shape[0],):
            raise ValueError(f"y must have shape ({scores.shape[0]},); got {y.shape}")
        for i, lab in enumerate(np.unique(y)):
            rows = y == lab
            ax.scatter(*scores[rows].T, s=14, color=f"C{i % 10}", alpha=0.8, label=str(lab))
        ax.legend(fontsize="small")
    _component_axes(ax, comps, getattr(kpca, "explained_variance_ratio_", None), "KPC")
    ax.set_title("Kernel PCA")
    return ax
