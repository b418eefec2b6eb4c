"""Drawing a fitted decision tree: :func:`plot_tree` (R's ``plot(fit); text(fit)`` for rpart)."""

from __future__ import annotations

import numpy as np

from ._common import get_ax, require_attributes

__all__ = ["plot_tree"]

_LEAF = -1


def _layout(tree, uniform: bool, max_depth: int | None):
    """``(x, y, shown, is_leaf)`` for every node; leaves (of the shown tree) spaced one apart.

    ``uniform=True`` puts every level one unit below its parent; ``uniform=False`` is rpart's
    default: a split's children sit below it by the split's risk decrease
    :math:`R(t) - R(t_L) - R(t_R)`, so long branches mark the important splits.
    """
    left, right = tree.children_left, tree.children_right
    n = left.size
    x = np.zeros(n)
    y = np.zeros(n)
    shown = np.zeros(n, dtype=bool)
    is_leaf = np.zeros(n, dtype=bool)
    risk = np.asarray(tree.risk, dtype=np.float64)
    next_leaf = [0.0]

    # iterative post-order so deep trees do not hit the recursion limit
    stack = [(0, 0, False)]
    while stack:
        node, depth, children_done = stack.pop()
        shown[node] = True
        cut = max_depth is not None and depth >= max_depth
        if left[node] == _LEAF or cut:
            is_leaf[node] = True
            x[node] = next_leaf[0]
            next_leaf[0] += 1.0
            continue
        if children_done:
            x[node] = 0.5 * (x[left[node]] + x[right[node]])
            continue
        stack.append((node, depth, True))
        stack.append((right[node], depth + 1, False))
        stack.append((left[node], depth + 1, False))

    # vertical positions, top-down (children have larger ids than their parent)
    for node in range(n):
        if not shown[node] or is_leaf[node]:
            continue
        if uniform:
            drop = 1.0
        else:
            drop = max(risk[node] - risk[left[node]] - risk[right[node]], 0.0)
        y[left[node]] = y[node] - drop
        y[right[node]] = y[node] - drop
    if not uniform:
        # rpart keeps a minimum spacing so zero-gain splits stay visible
        span = max(-y[shown].min(), 1e-300)
        for node in range(n):
            if shown[node] and not is_leaf[node]:
                lo = y[node] - 0.04 * span
                for child in (left[node], right[node]):
                    y[child] = min(y[child], lo)
    return x, y, shown, is_leaf


def _split_label(estimator, tree, node: int, names, precision: int) -> str:
    feature = int(tree.feature[node])
    name = names[feature]
    if getattr(tree, "cat_left", None) is not None and np.isnan(tree.threshold[node]):
        # a categorical split: the levels sent to the left child
        cats = estimator.categories_[feature]
        bits = tree.cat_left[node]
        levels = [cats[c] for c in range(len(cats)) if (int(bits[c >> 6]) >> (c & 63)) & 1]
        text = ", ".join(str(int(v)) if isinstance(v, float) and float(v).is_integer()
                         else str(v) for v in levels)
        return f"{name} in {{{text}}}"
    return f"{name} < {tree.threshold[node]:.{precision}g}"


def _node_label(estimator, tree, node: int, class_names, precision: int, show_n: bool) -> str:
    value = tree.value[node]
    n_text = f"\nn={int(tree.n_node_samples[node])}" if show_n else ""
    if hasattr(estimator, "classes_"):
        k = int(np.argmax(value))
        label = str(class_names[k])
        probs = "/".join(f"{p:.{precision}g}" for p in value)
        return f"{label}\n{probs}{n_text}"
    return f"{value[0]:.{precision}g}{n_text}"


def plot_tree(estimator, *, feature_names=None, class_names=None, max_depth=None, uniform=True,
              precision=3, show_n=True, fontsize=8, ax=None):
    """Draw a fitted decision tree (R's ``plot(fit); text(fit)`` for an rpart tree).

    Parameters
    ----------
    estimator : DecisionTreeClassifier, DecisionTreeRegressor or their CV variants, fitted
    feature_names : list of str, default=None
        Column names for the split labels; defaults to ``feature_names_in_`` or ``x0, x1, …``.
    class_names : list of str, default=None
        Leaf labels of a classifier; defaults to ``classes_``.
    max_depth : int, default=None
        Draw only the top ``max_depth`` levels (deeper subtrees are drawn as their root).
    uniform : bool, default=True
        ``True``: one unit per level. ``False``: rpart's ``plot(uniform = FALSE)``, where each
        split's children sit below it by the split's risk decrease (SSE or misclassified
        weight), so the drop shows how much the split improves the fit.
    precision : int, default=3
        Significant digits of thresholds and node values.
    show_n : bool, default=True
        Print every leaf's number of training rows.
    fontsize : float, default=8
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        Node labels are ``ax.texts`` (split labels on internal nodes, ``"value\\nn=…"`` or
        ``"class\\nproportions\\nn=…"`` on leaves); branches are one ``LineCollection``.

    Notes
    -----
    An internal node is labelled with its split ``feature < threshold`` (a categorical split
    with the set of levels sent left); the left branch is the ``True`` side, as
    :func:`statlearning.tree.export_text` with ``style="indented"``. Leaves show the
    prediction: the mean for regression, the majority class and the class proportions for
    classification, coloured by class.
    """
    from matplotlib.collections import LineCollection

    require_attributes(estimator, ["tree_", "n_features_in_"], "estimator",
                       "a fitted decision tree")
    if max_depth is not None and (isinstance(max_depth, bool) or not isinstance(
            max_depth, int | np.integer) or max_depth < 0):
        raise ValueError(f"max_depth must be a non-negative integer or None; got {max_depth!r}")
    if isinstance(precision, bool) or not isinstance(precision, int | np.integer) \
            or precision < 1:
        raise ValueError(f"precision must be a positive integer; got {precision!r}")
    tree = estimator.tree_
    p = estimator.n_features_in_
    if feature_names is None:
        names = [str(v) for v in getattr(estimator, "feature_names_in_", [])] or \
            [f"x{j}" for j in range(p)]
    else:
        names = [str(v) for v in feature_names]
        if len(names) != p:
            raise ValueError(f"feature_names has {len(names)} entries but the tree was fitted "
                             f"on {p} features")
    classes = getattr(estimator, "classes_", None)
    if classes is not None:
        class_names = list(classes) if class_names is None else list(class_names)
        if len(class_names) != len(classes):
            raise ValueError(f"class_names has {len(class_names)} entries but the tree has "
                             f"{len(classes)} classes")

    ax = get_ax(ax)
    x, y, shown, is_leaf = _layout(tree, bool(uniform), max_depth)
    segments = []
    for node in np.flatnonzero(shown & ~is_leaf):
        for child in (tree.children_left[node], tree.children_right[node]):
            # rpart's square-shouldered branches: across at the parent's level, then down
            segments.append([(x[node], y[node]), (x[child], y[node]), (x[child], y[child])])
    ax.add_collection(LineCollection(segments, colors="0.35", linewidths=1.0))

    colours = None
    if classes is not None:
        import matplotlib

        colours = matplotlib.colormaps["tab10"]
    box = {"boxstyle": "round,pad=0.3", "fc": "white", "ec": "0.5", "lw": 0.6}
    for node in np.flatnonzero(shown):
        if is_leaf[node]:
            text = _node_label(estimator, tree, node, class_names, precision, show_n)
            style = dict(box)
            if colours is not None:
                style["fc"] = colours(int(np.argmax(tree.value[node])) % 10)
                style["alpha"] = 0.35
            ax.text(x[node], y[node], text, ha="center", va="top", fontsize=fontsize, bbox=style)
        else:
            # a white box hides the stem that arrives from the parent behind the label
            label = _split_label(estimator, tree, node, names, precision)
            ax.text(x[node], y[node], label, ha="center", va="bottom", fontsize=fontsize, zorder=3,
                    bbox={"boxstyle": "square,pad=0.15", "fc": "white", "ec": "none"})
    pad_x = 0.6
    ax.set_xlim(x[shown].min() - pad_x, x[shown].max() + pad_x)
    low, high = y[shown].min(), y[shown].max()
    span = max(high - low, 1.0 if uniform else 1e-12)
    ax.set_ylim(low - 0.35 * span, high + 0.12 * span)
    ax.set_axis_off()
    return ax
