"""Additive-model figures: the fitted terms with ±2 se bands (seed 004's Figure 19)."""

from __future__ import annotations

import math

import numpy as np

from ._common import new_figure, require_attributes


def _rows(X, j, values):
    """``len(values)`` copies of the first row of ``X`` with column ``j`` set to ``values``."""
    if hasattr(X, "iloc"):
        rows = X.iloc[np.zeros(len(values), dtype=int)].copy()
        col = X.columns[j]
        if str(X[col].dtype) == "category":
            import pandas as pd

            rows[col] = pd.Categorical(values, categories=X[col].cat.categories)
        else:
            rows[col] = values
        return rows.reset_index(drop=True)
    rows = np.repeat(np.asarray(X, dtype=float)[:1], len(values), axis=0)
    rows[:, j] = values
    return rows


def _column(X, j):
    return X.iloc[:, j].to_numpy() if hasattr(X, "iloc") else np.asarray(X, dtype=float)[:, j]


def plot_partial_dependence(model, X, *, terms=None, grid=100, fig=None):
    """The fitted terms of an additive model, one panel each, with ±2 se bands.

    Smooth and linear terms are curves over the range of their column in ``X`` with dashed
    ±2 se bands (mgcv's Bayesian standard errors) and a rug of the data; factor terms are steps
    (one level per step, the first level at zero) with their ±2 se; a tensor-product term is a
    contour plot. The intercept is written in the figure's title (seed 004's Figure 19: the
    prediction is the intercept plus the terms read off the panels).

    Parameters
    ----------
    model : GAMRegressor or GAMClassifier
        A fitted model (terms on the link scale).
    X : array-like or DataFrame of shape (n_samples, n_features)
        Data giving each column's range (usually the training data).
    terms : list of int or str, optional
        Terms to draw (positions in ``model.terms_`` or names such as ``"s(x1)"``); default:
        every term.
    grid : int, default=100
        Points per curve (per axis for a tensor product).
    fig : matplotlib Figure, optional
        Figure to draw in (a new one by default).

    Returns
    -------
    matplotlib.figure.Figure
        The figure; each curve is the line labelled ``"fit"``, its band the lines labelled
        ``"+2 se"`` and ``"-2 se"``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from statlearning.gam import GAMRegressor, s
    >>> from statlearning.plot import plot_partial_dependence
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(size=(200, 2))
    >>> y = np.sin(2 * np.pi * X[:, 0]) + X[:, 1] + rng.normal(scale=0.2, size=200)
    >>> fig = plot_partial_dependence(GAMRegressor([s(0), s(1)]).fit(X, y), X)
    >>> len(fig.axes)
    2
    """
    require_attributes(model, ["terms_", "intercept_"], "model", "a fitted additive model")
    blocks = model._blocks
    idx = list(range(len(blocks))) if terms is None else [model._term_index(t) for t in terms]
    if not idx:
        raise ValueError("terms is empty: there is nothing to draw")
    ncols = min(3, len(idx))
    nrows = math.ceil(len(idx) / ncols)
    fig, axes = new_figure(nrows, ncols, fig)
    for ax, i in zip(axes, idx, strict=False):
        b = blocks[i]
        t = b.term
        if t.kind == "te":
            _tensor_panel(ax, model, X, i, b, grid)
            continue
        x = _column(X, t.j)
        if t.kind == "f":
            values = _level_values(X, t.j, b)
            v, se = model.partial_dependence(i, _rows(X, t.j, values))
            pos = np.arange(len(values))
            ax.step(pos, v, where="mid", label="fit", color="k")
            ax.step(pos, v + 2 * se, where="mid", linestyle="--", color="k", label="+2 se")
            ax.step(pos, v - 2 * se, where="mid", linestyle="--", color="k", label="-2 se")
            ax.set_xticks(pos, [str(lev) for lev in b.level_labels])
        else:
            xs = np.linspace(np.nanmin(x.astype(float)), np.nanmax(x.astype(float)), grid)
            v, se = model.partial_dependence(i, _rows(X, t.j, xs))
            ax.plot(xs, v, color="k", label="fit")
            ax.plot(xs, v + 2 * se, "k--", label="+2 se")
            ax.plot(xs, v - 2 * se, "k--", label="-2 se")
            lo = np.nanmin(v - 2 * se)
            ax.plot(x, np.full(x.shape, lo), "|", color="grey", alpha=0.5)
        ax.set_xlabel(_name(X, t.j, b))
        ax.set_ylabel(f"{b.name}, edf {model.edf_[i]:.2f}" if b.smooth else b.name)
    for ax in axes[len(idx) :]:
        ax.remove()
    fig.suptitle(f"intercept = {model.intercept_:.6g}")
    return fig


def _name(X, j, b):
    if hasattr(X, "columns"):
        return str(X.columns[j])
    return getattr(b, "column_name", None) or f"x{j}"


def _level_values(X, j, b):
    """The levels as values of column ``j`` of ``X`` (labels for text, numbers otherwise)."""
    col = X.iloc[:, j] if hasattr(X, "iloc") else None
    if col is not None and str(col.dtype) == "category":
        return list(col.cat.categories)
    if col is not None and getattr(col.dtype, "kind", "O") not in "fiu":
        return list(b.level_labels)
    return list(b.levels)


def _tensor_panel(ax, model, X, i, b, grid):
    t = b.term
    xa, xb = _column(X, t.j).astype(float), _column(X, t.k).astype(float)
    ga = np.linspace(xa.min(), xa.max(), grid)
    gb = np.linspace(xb.min(), xb.max(), grid)
    A, B = np.meshgrid(ga, gb)
    rows = _rows(X, t.j, A.ravel())
    if hasattr(rows, "iloc"):
        rows[rows.columns[t.k]] = B.ravel()
    else:
        rows[:, t.k] = B.ravel()
    v, _ = model.partial_dependence(i, rows)
    cs = ax.contour(A, B, v.reshape(A.shape), colors="k")
    ax.clabel(cs, fontsize=7)
    ax.plot(xa, xb, ".", color="grey", alpha=0.4, markersize=2)
    ax.set_xlabel(_name(X, t.j, b))
    ax.set_ylabel(_name(X, t.k, b))
    ax.set_title(f"{b.name}, edf {model.edf_[i]:.2f}")
