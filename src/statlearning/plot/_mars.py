"""MARS figures: the fitted model against each predictor (R's ``plotmo`` for ``earth``)."""

from __future__ import annotations

import math

import numpy as np

from ._common import new_figure, require_attributes


def plot_mars(model, X, y=None, *, features=None, grid=200, fig=None):
    """The fitted MARS model against each predictor it uses, the others at their medians.

    One panel per predictor (R's ``plotmo(earth_model)``): the prediction as the predictor runs
    over its range in ``X`` with every other predictor held at its median in ``X``, the knots
    of the terms involving it marked, and the data when ``y`` is given.

    Parameters
    ----------
    model : MARSRegressor or MARSClassifier
        A fitted model (a classifier is drawn on the log-odds of its last GLM: that of
        ``classes_[1]`` for two classes, of ``classes_[-1]`` against the rest for more).
    X : array-like of shape (n_samples, n_features)
        Data giving each predictor's range and the medians of the others (usually the
        training data).
    y : array-like of shape (n_samples,), optional
        Responses, drawn as points on every panel (regression only).
    features : list of int, optional
        Column indices to draw; default: every predictor used by the model, in ``evimp_``
        order.
    grid : int, default=200
        Points per curve.
    fig : matplotlib Figure, optional
        Figure to draw in (a new one by default).

    Returns
    -------
    matplotlib.figure.Figure
        The figure; each panel's curve is the line labelled ``"fit"`` and its knots the
        points labelled ``"knots"``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from statlearning.mars import MARSRegressor
    >>> from statlearning.plot import plot_mars
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(0, 10, size=(200, 2))
    >>> y = np.maximum(X[:, 0] - 4, 0) + 0.1 * rng.normal(size=200)
    >>> fig = plot_mars(MARSRegressor().fit(X, y), X, y)
    >>> len(fig.axes)
    1
    """
    require_attributes(model, ["dirs_", "cuts_", "evimp_"], "model", "a fitted MARS model")
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != model.n_features_in_:
        raise ValueError(
            f"X must be a 2-D array with {model.n_features_in_} columns (the model's features); "
            f"got shape {X.shape}"
        )
    names = list(getattr(model, "feature_names_in_", [f"x{j}" for j in range(X.shape[1])]))
    if features is None:
        features = [names.index(f) for f in model.evimp_["feature"]]
    features = [int(j) for j in features]
    if not features:
        raise ValueError("the model uses no predictor: there is nothing to draw")
    ncols = min(3, len(features))
    nrows = math.ceil(len(features) / ncols)
    fig, axes = new_figure(nrows, ncols, fig)
    centre = np.median(X, axis=0)
    is_classifier = hasattr(model, "classes_")
    for ax, j in zip(axes, features, strict=False):
        lo, hi = X[:, j].min(), X[:, j].max()
        grid_x = np.linspace(lo, hi, grid)
        knots = np.unique(model.cuts_[model.dirs_[:, j] != 0, j])
        knots = knots[(knots >= lo) & (knots <= hi)]
        xs = np.union1d(grid_x, knots)  # the curve bends exactly at the knots
        rows = np.tile(centre, (xs.size, 1))
        rows[:, j] = xs
        fit = _response(model, rows, is_classifier)
        if y is not None and not is_classifier:
            ax.scatter(X[:, j], np.asarray(y, dtype=float), s=6, color="0.7", label="data")
        ax.plot(xs, fit, color="C0", label="fit")
        at = np.tile(centre, (knots.size, 1))
        at[:, j] = knots
        ax.plot(knots, _response(model, at, is_classifier), "s", color="C3", label="knots")
        ax.set_xlabel(names[j])
        ax.set_ylabel("log-odds" if is_classifier else "prediction")
    for ax in axes[len(features) :]:
        ax.set_visible(False)
    return fig


def _response(model, rows, is_classifier):
    import warnings

    with warnings.catch_warnings():  # a DataFrame-fitted model sees an array here
        warnings.simplefilter("ignore", UserWarning)
        if is_classifier:
            eta = model.decision_function(rows)
            return eta if eta.ndim == 1 else eta[:, -1]
        return model.predict(rows)
