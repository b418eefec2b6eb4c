"""Text export of a fitted tree: rpart's ``print()`` layout or an indented layout."""

from __future__ import annotations

import numpy as np
from sklearn.utils.validation import check_is_fitted

from ._structure import TREE_LEAF

__all__ = ["export_text"]


def _r_format(values, digits: int, nsmall: int = 0, signif: bool = True) -> list[str]:
    """R's ``format(signif(x, digits), nsmall = nsmall)`` (or ``format(x, ...)``) of a vector.

    Common number of decimals (the most any element needs to show ``digits`` significant
    digits, at least ``nsmall``), right-justified to a common width; scientific notation
    when it is narrower, as R decides.
    """
    x = np.asarray(values, dtype=np.float64).ravel()
    if signif:
        x = np.array([float(f"{v:.{digits - 1}e}") if np.isfinite(v) else v for v in x])
    rgt, left, sig, exps, neg = 0, 1, 1, [], False
    for v in x:
        if v == 0 or not np.isfinite(v):
            exps.append(0)
            continue
        mant, e = f"{abs(v):.{digits - 1}e}".split("e")
        kp = int(e)
        nsig = len(mant.replace(".", "").rstrip("0")) or 1
        sig = max(sig, nsig)
        exps.append(kp)
        rgt = max(rgt, nsig - kp - 1)
        left = max(left, kp + 1)
        neg = neg or v < 0
    rgt = max(rgt, nsmall)
    fixed_width = neg + left + (rgt > 0) + rgt
    exp_width = 2 if max((abs(k) for k in exps), default=0) < 100 else 3
    sci_width = neg + (sig + 1 if sig > 1 else sig) + 2 + exp_width
    if fixed_width <= sci_width:
        out = [f"{v:.{rgt}f}" for v in x]
    else:
        out = [f"{v:.{sig - 1}e}" for v in x]
    width = max(len(s) for s in out)
    return [s.rjust(width) for s in out]


def _names(estimator, feature_names):
    if feature_names is not None:
        names = [str(n) for n in feature_names]
        if len(names) != estimator.n_features_in_:
            raise ValueError(
                f"feature_names has {len(names)} entries but the tree was fitted on "
                f"{estimator.n_features_in_} features."
            )
        return names
    if hasattr(estimator, "feature_names_in_"):
        return [str(n) for n in estimator.feature_names_in_]
    return [f"feature_{j}" for j in range(estimator.n_features_in_)]


def _rpart_order(estimator, tree):
    """Pre-order list of ``(node, rpart_id, depth, label)`` in rpart's printed order.

    rpart puts first (id ``2k``) the child with the smaller mean response (regression) or
    the smaller mean class index (classification); ties keep ``x < t`` first.
    """
    classification = hasattr(estimator, "classes_")
    if classification:
        score = tree.value @ np.arange(tree.value.shape[1], dtype=np.float64)
    else:
        score = tree.value[:, 0]
    out = []
    stack = [(0, 1, 0, "root")]
    while stack:
        node, rid, depth, label = stack.pop()
        out.append((node, rid, depth, label))
        left, right = tree.children_left[node], tree.children_right[node]
        if left == TREE_LEAF:
            continue
        if tree.rpart_left is not None:
            first_is_left = bool(tree.rpart_left[node])
        else:
            first_is_left = score[left] <= score[right]
        lt, ge = (left, right) if first_is_left else (right, left)
        op_first, op_second = ("< ", ">=") if first_is_left else (">=", "< ")
        children = [(lt, op_first), (ge, op_second)]
        for k in (1, 0):
            child, op = children[k]
            stack.append((child, 2 * rid + k, depth + 1, op))
    return out


def _level_labels(estimator, feature, bits):
    """Labels (as R prints factor levels) of the levels in the bitset ``bits``."""
    cats = estimator.categories_[feature]
    codes = [c for c in range(len(cats)) if (int(bits[c >> 6]) >> (c & 63)) & 1]
    return [_level_str(cats[c]) for c in codes]


def _level_str(value) -> str:
    if isinstance(value, float | np.floating) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _child_levels(estimator, tree, parent, child):
    """Level labels sent to ``child`` by a categorical split at ``parent`` (else ``None``)."""
    if tree.cat_left is None or not np.isnan(tree.threshold[parent]):
        return None
    bits = tree.cat_left if child == tree.children_left[parent] else tree.cat_right
    return _level_labels(estimator, tree.feature[parent], bits[parent])


def _export_rpart(estimator, names, digits):
    tree = estimator.tree_
    classification = hasattr(estimator, "classes_")
    order = _rpart_order(estimator, tree)
    nodes = np.array([o[0] for o in order])
    ids = [o[1] for o in order]
    id_width = max(len(str(i)) for i in ids)
    # parent of each printed node, to write its split label
    parent = {}
    for t in nodes:
        if tree.children_left[t] != TREE_LEAF:
            parent[tree.children_left[t]] = t
            parent[tree.children_right[t]] = t
    dev = _r_format(tree.risk[nodes], digits)
    if classification:
        probs = tree.value[nodes]
        if probs.shape[1] < 5:
            flat = _r_format(probs, digits, nsmall=min(20, digits), signif=False)
        else:
            flat = [f"{v:.2g}" for v in probs.ravel()]
        k = probs.shape[1]
        labels = estimator.classes_[np.argmax(probs, axis=1)]
        yval = [
            f"{labels[i]} (" + " ".join(flat[i * k:(i + 1) * k]) + ")"
            for i in range(nodes.size)
        ]
        header = "node), split, n, loss, yval, (yprob)"
    else:
        yval = _r_format(tree.value[nodes, 0], digits)
        header = "node), split, n, deviance, yval"
    dropped = getattr(estimator, "n_rows_all_missing_", 0)
    if dropped:
        s = "s" if dropped > 1 else ""
        first = f"n={tree.n_node_samples[0]} ({dropped} observation{s} deleted due to missingness)"
    else:
        first = f"n= {tree.n_node_samples[0]} "
    lines = [first, "", header, "      * denotes terminal node", ""]
    for i, (node, rid, depth, op) in enumerate(order):
        if node == 0:
            label = "root"
        else:
            p = parent[node]
            levels = _child_levels(estimator, tree, p, node)
            if levels is not None:
                label = f"{names[tree.feature[p]]}={','.join(levels)}"
            else:
                label = f"{names[tree.feature[p]]}{op}{tree.threshold[p]:.{digits}g}"
        term = "*" if tree.children_left[node] == TREE_LEAF else " "
        lines.append(
            f"{' ' * (2 * depth)}{rid:>{id_width}}) {label} {tree.n_node_samples[node]} "
            f"{dev[i]} {yval[i]} {term}"
        )
    return "\n".join(lines) + "\n"


def _export_indented(estimator, names, digits):
    tree = estimator.tree_
    classification = hasattr(estimator, "classes_")
    lines = []

    def leaf_text(node):
        if classification:
            return f"class: {estimator.classes_[np.argmax(tree.value[node])]}"
        return f"value: [{tree.value[node, 0]:.{digits}f}]"

    def walk(node, depth):
        pad = "|   " * depth + "|--- "
        left, right = tree.children_left[node], tree.children_right[node]
        if left == TREE_LEAF:
            lines.append(pad + leaf_text(node))
            return
        name, t = names[tree.feature[node]], tree.threshold[node]
        levels = _child_levels(estimator, tree, node, left)
        if levels is not None:
            right_levels = _child_levels(estimator, tree, node, right)
            lines.append(f"{pad}{name} in {{{', '.join(levels)}}}")
            walk(left, depth + 1)
            lines.append(f"{pad}{name} in {{{', '.join(right_levels)}}}")
            walk(right, depth + 1)
            return
        lines.append(f"{pad}{name} <  {t:.{digits}f}")
        walk(left, depth + 1)
        lines.append(f"{pad}{name} >= {t:.{digits}f}")
        walk(right, depth + 1)

    walk(0, 0)
    return "\n".join(lines) + "\n"


def export_text(tree, *, style="rpart", feature_names=None, digits=None) -> str:
    """Text rendering of a fitted decision tree.

    Parameters
    ----------
    tree : DecisionTreeRegressor or DecisionTreeClassifier
        A fitted tree.
    style : {"rpart", "indented"}, default="rpart"
        ``"rpart"`` reproduces R's ``print(rpart_fit)`` line for line: the header, node ids
        (children of node ``k`` are ``2k`` and ``2k + 1``, the child with the smaller mean
        response or mean class index first, as rpart orders them), the split, ``n``, the
        deviance (regression: SSE) or loss (classification: weighted misclassification
        count), ``yval`` (and the class probabilities), ``*`` for leaves.
        ``"indented"`` is scikit-learn's ``export_text`` layout, with ``x < t`` on the
        first branch.
    feature_names : list of str, default=None
        Defaults to ``feature_names_in_`` when fitted on a DataFrame, else ``feature_j``.
    digits : int, default=None
        Significant digits (rpart style, default 7 as R's ``getOption("digits")``) or
        decimals (indented style, default 2).

    Returns
    -------
    str
    """
    check_is_fitted(tree, "tree_")
    if style not in ("rpart", "indented"):
        raise ValueError(f"style must be 'rpart' or 'indented'; got {style!r}.")
    if digits is not None and (not isinstance(digits, int) or isinstance(digits, bool)
                               or digits < 1):
        raise ValueError(f"digits must be a positive int; got {digits!r}.")
    names = _names(tree, feature_names)
    if style == "rpart":
        return _export_rpart(tree, names, 7 if digits is None else digits)
    return _export_indented(tree, names, 2 if digits is None else digits)
