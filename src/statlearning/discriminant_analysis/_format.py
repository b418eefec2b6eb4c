"""Discriminant functions written out as formulas, the way the lecture notes print them."""

from __future__ import annotations

import numpy as np


def _number(value: float, digits: int) -> str:
    if value == -np.inf:
        return "-inf"
    return format(abs(value), f".{digits}g")


def _join(terms: list[tuple[float, str]], digits: int) -> str:
    """``c0 + c1·x1 - c2·x2 …`` from (coefficient, term) pairs; the first keeps its sign."""
    parts = []
    for coef, term in terms:
        body = _number(coef, digits) + (f"·{term}" if term else "")
        if not parts:
            parts.append(("-" if coef < 0 else "") + body)
        else:
            parts.append((" - " if coef < 0 else " + ") + body)
    return "".join(parts)


def formula_names(estimator) -> list[str]:
    """Feature names for formulas: the DataFrame's column names, else ``x1 … xp`` (1-based, so
    that ``c_j`` multiplies ``x_j`` as in the notes' ``δ̂_k(x) = c_k0 + c_k1 x1 + …``)."""
    if hasattr(estimator, "feature_names_in_"):
        return [str(n) for n in estimator.feature_names_in_]
    return [f"x{j + 1}" for j in range(estimator.n_features_in_)]


def format_linear(functions, classes, names, digits: int = 3) -> str:
    """One line ``δ̂_k(x) = c_k0 + c_k1·x1 + …`` per class."""
    lines = []
    for k, label in enumerate(classes):
        terms = [(functions[k, 0], "")]
        terms += [(functions[k, j + 1], name) for j, name in enumerate(names)]
        lines.append(f"δ̂_{label}(x) = {_join(terms, digits)}")
    return "\n".join(lines)


def format_quadratic(quadratic, linear, constant, classes, names, digits: int = 3) -> str:
    """One line per class: constant, linear terms, squares, then cross products."""
    p = len(names)
    lines = []
    for k, label in enumerate(classes):
        terms = [(constant[k], "")]
        terms += [(linear[k, j], names[j]) for j in range(p)]
        terms += [(quadratic[k, j, j], f"{names[j]}²") for j in range(p)]
        terms += [
            (2.0 * quadratic[k, j, m], f"{names[j]}·{names[m]}")
            for j in range(p)
            for m in range(j + 1, p)
        ]
        lines.append(f"δ̂_{label}(x) = {_join(terms, digits)}")
    return "\n".join(lines)
