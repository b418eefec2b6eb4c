"""Figures of neural networks: the training curve and the network diagram."""

from __future__ import annotations

import numpy as np

from ._common import get_ax, require_attributes


def plot_loss_curve(mlp, *, validation=True, ax=None):
    """Training loss per epoch, with the held-out score of early stopping on a second axis.

    Parameters
    ----------
    mlp : fitted :class:`~statlearning.neural_network.MLPClassifier` or ``MLPRegressor``
        Uses ``loss_curve_`` and, when early stopping ran, ``validation_scores_``.
    validation : bool, default=True
        Draw ``validation_scores_`` (accuracy or :math:`R^2`) on a right-hand axis, with the
        best epoch marked.
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        The axes of the training loss.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn.datasets import make_moons
    >>> from statlearning.neural_network import MLPClassifier
    >>> from statlearning.plot import plot_loss_curve
    >>> X, y = make_moons(200, noise=0.2, random_state=0)
    >>> clf = MLPClassifier((8,), early_stopping=True, learning_rate_init=0.05,
    ...                     random_state=0).fit(X, y)
    >>> ax = plot_loss_curve(clf)
    >>> ax.get_xlabel()
    'Epoch'
    """
    require_attributes(mlp, ("loss_curve_",), "mlp", "a fitted MLPClassifier or MLPRegressor")
    loss = np.asarray(mlp.loss_curve_, dtype=np.float64)
    if loss.size == 0:
        raise ValueError(
            "mlp has no loss curve: L-BFGS records none (solver='lbfgs'); use a stochastic "
            "solver to plot training by epoch."
        )
    ax = get_ax(ax)
    epochs = np.arange(1, loss.size + 1)
    ax.plot(epochs, loss, color="C0", label="training loss")
    ax.set_xlabel("Epoch")
    ax.set_ylabel("Training loss")
    scores = getattr(mlp, "validation_scores_", None)
    if validation and scores:
        scores = np.asarray(scores, dtype=np.float64)
        twin = ax.twinx()
        twin.plot(epochs[: scores.size], scores, color="C1", label="validation score")
        best = int(np.nanargmax(scores))
        twin.plot([best + 1], [scores[best]], "o", color="C1", label="best (weights kept)")
        twin.set_ylabel("Validation score (accuracy or R²)")
        handles = ax.get_legend_handles_labels()
        more = twin.get_legend_handles_labels()
        ax.legend(handles[0] + more[0], handles[1] + more[1], loc="center right")
    else:
        ax.legend(loc="upper right")
    return ax


def plot_network(mlp, *, weights=True, feature_names=None, max_units=20, ax=None):
    """The network diagram of the notes: layers of units joined by the weights.

    Parameters
    ----------
    mlp : fitted :class:`~statlearning.neural_network.MLPClassifier` or ``MLPRegressor``
        Uses ``coefs_`` (and ``intercepts_`` for the bias units).
    weights : bool, default=True
        Draw each connection with a width proportional to ``|w|`` (blue positive, red
        negative); ``False`` draws every connection alike.
    feature_names : sequence of str, optional
        Labels of the input units (default: ``feature_names_in_`` or ``x0, x1, …``).
    max_units : int, default=20
        Layers with more units show the first ``max_units`` only (with a note).
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes

    Notes
    -----
    Units are circles, arranged in columns from the inputs (left) to the outputs (right), as
    Figure 27 of seed 004 draws its 2-2-1 network; a network with biases has a square bias unit
    at the top of every layer but the last.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from statlearning.neural_network import MLPClassifier
    >>> from statlearning.plot import plot_network
    >>> X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]] * 10)
    >>> clf = MLPClassifier((2,), activation="logistic", use_bias=False, solver="lbfgs",
    ...                     random_state=0).fit(X, [0, 1, 1, 1] * 10)
    >>> ax = plot_network(clf)
    >>> len(ax.lines)  # 2·2 + 2·1 connections
    6
    """
    require_attributes(mlp, ("coefs_", "intercepts_"), "mlp", "a fitted MLP")
    if isinstance(max_units, bool) or not isinstance(max_units, int | np.integer) or max_units < 1:
        raise ValueError(f"max_units must be a positive integer; got {max_units!r}")
    coefs = [np.asarray(c, dtype=np.float64) for c in mlp.coefs_]
    units = [coefs[0].shape[0], *(c.shape[1] for c in coefs)]
    n_in = units[0]
    if feature_names is None:
        feature_names = getattr(mlp, "feature_names_in_", None)
    if feature_names is None:
        feature_names = [f"x{j}" for j in range(n_in)]
    feature_names = [str(f) for f in feature_names]
    if len(feature_names) != n_in:
        raise ValueError(
            f"feature_names has {len(feature_names)} names for the network's {n_in} inputs"
        )
    use_bias = bool(getattr(mlp, "use_bias", True))
    ax = get_ax(ax)
    shown = [min(u, max_units) for u in units]
    height = max(shown) + (1 if use_bias else 0)

    def positions(layer):
        k = shown[layer]
        return [(float(layer), height / 2 + (k - 1) / 2 - i) for i in range(k)]

    top = max(abs(c).max() if c.size else 0.0 for c in coefs) or 1.0
    for l, W in enumerate(coefs):
        src, dst = positions(l), positions(l + 1)
        for i, (x0, y0) in enumerate(src):
            for j, (x1, y1) in enumerate(dst):
                w = W[i, j]
                width = 0.3 + 3.0 * abs(w) / top if weights else 0.8
                colour = ("C0" if w >= 0 else "C3") if weights else "0.5"
                ax.plot([x0, x1], [y0, y1], color=colour, linewidth=width, alpha=0.7, zorder=1)
    for l in range(len(units)):
        pts = np.array(positions(l))
        ax.scatter(pts[:, 0], pts[:, 1], s=300, color="white", edgecolor="black", zorder=2)
        if units[l] > shown[l]:
            ax.annotate(f"{shown[l]} of {units[l]} units", (l, pts[:, 1].min() - 0.6),
                        ha="center", fontsize=8)  # fmt: skip
        if use_bias and l < len(units) - 1:
            ax.scatter([l], [pts[:, 1].max() + 1], s=200, marker="s", color="0.85",
                       edgecolor="black", zorder=2)  # fmt: skip
    for i, (x, y) in enumerate(positions(0)):
        ax.annotate(feature_names[i], (x - 0.12, y), ha="right", va="center")
    names = ["input", *(f"hidden {l}" for l in range(1, len(units) - 1)), "output"]
    ax.set_xticks(range(len(units)), names)
    ax.set_yticks([])
    ax.set_xlim(-0.8, len(units) - 0.5)
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    return ax
