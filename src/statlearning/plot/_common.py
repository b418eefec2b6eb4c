"""Helpers shared by the plotting modules: axes creation and argument checks."""

from __future__ import annotations

import numpy as np


def get_ax(ax):
    """``ax`` itself, or the Axes of a new figure when ``ax`` is ``None``."""
    if ax is not None:
        if not hasattr(ax, "plot") or not hasattr(ax, "figure"):
            raise TypeError(f"ax must be a matplotlib Axes or None; got {type(ax).__name__}")
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    return ax


def new_figure(nrows: int, ncols: int, fig=None):
    """A figure with an ``nrows × ncols`` grid of Axes (added to ``fig`` when given)."""
    import matplotlib.pyplot as plt

    if fig is None:
        fig = plt.figure(figsize=(4.0 * ncols, 3.2 * nrows))
    elif not hasattr(fig, "add_subplot"):
        raise TypeError(f"fig must be a matplotlib Figure or None; got {type(fig).__name__}")
    axes = [fig.add_subplot(nrows, ncols, i + 1) for i in range(nrows * ncols)]
    return fig, axes


def require_attributes(obj, names, argument: str, what: str) -> None:
    """``TypeError`` naming ``argument`` unless ``obj`` has every attribute in ``names``."""
    missing = [n for n in names if not hasattr(obj, n)]
    if missing:
        raise TypeError(
            f"{argument} must be {what}; {type(obj).__name__} has no attribute(s) "
            f"{', '.join(missing)} (is it fitted?)"
        )


def as_vector(values, name: str) -> np.ndarray:
    """A finite 1-D float array; ``ValueError`` naming ``name`` otherwise."""
    arr = np.asarray(values, dtype=np.float64)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D array; got shape {arr.shape}")
    return arr


def check_index(index, size: int, name: str):
    """``index`` as an int in ``[0, size)`` (or ``None``); ``ValueError`` naming ``name``."""
    if index is None:
        return None
    if isinstance(index, bool) or not isinstance(index, int | np.integer):
        raise TypeError(f"{name} must be an integer or None; got {index!r}")
    if not 0 <= index < size:
        raise ValueError(f"{name}={index} is out of range for {size} values")
    return int(index)


def fmt(value: float) -> str:
    """A short number for labels and legends."""
    return f"{value:.4g}"
