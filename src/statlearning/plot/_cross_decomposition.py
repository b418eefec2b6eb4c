"""Figures for component regressions: the cross-validated RMSEP curve and PLS loadings."""

from __future__ import annotations

import numpy as np

from ._common import check_index, get_ax, require_attributes
from ._selection import cv_curve


def rmsep_curve(estimator, response=0, ax=None):
    """Cross-validated RMSEP against the number of components (R's ``validationplot``).

    Parameters
    ----------
    estimator : fitted PLSRegression or PCRegression
        Fitted with ``n_components="cv"`` (it uses ``validation_`` and ``n_components_``).
    response : int, default=0
        The response (column of ``y``) to draw.
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        :func:`cv_curve` of the ``"RMSEP"`` row (0 components: the mean), with ±1 SE bars for
        one response (the delta-method SE ``se(MSEP) / (2 RMSEP)``), the minimum and, with
        ``selection="1se"``, the one-SE choice marked; ``adjCV`` dashed.

    Notes
    -----
    R: ``validationplot(fit, val.type="RMSEP")`` for ``plsr``/``pcr`` fits with
    ``validation="CV"``; its curve is ``RMSEP(fit)``, the same numbers as ``validation_``.
    """
    require_attributes(
        estimator, ("validation_", "n_components_"), "estimator",
        "a PLSRegression or PCRegression fitted with n_components='cv'",
    )  # fmt: skip
    v = estimator.validation_
    rmsep = np.asarray(v["RMSEP"], dtype=np.float64)
    response = check_index(response, rmsep.shape[0], "response")
    curve = rmsep[response]
    if rmsep.shape[0] == 1:
        se = np.asarray(v["MSEP_se"], dtype=np.float64) / (2 * np.where(curve > 0, curve, 1.0))
    else:
        se = np.full(curve.shape, np.nan)
    comps = np.asarray(v["n_components"], dtype=np.float64)
    one_se = estimator.n_components_ if estimator.selection == "1se" else None
    ax = cv_curve(
        comps, curve, se, best_index=int(np.argmin(v["MSEP"])), one_se_index=one_se,
        xscale="linear", xlabel="Number of components", ylabel="RMSEP (CV)", ax=ax,
    )  # fmt: skip
    ax.plot(comps, v["adjCV"][response], linestyle="--", color="grey", label="adjCV")
    ax.legend(fontsize="small")
    return ax


def pls_loadings_plot(pls, components=(0, 1), feature_names=None, ax=None):
    """X loadings of a PLS fit against the predictors (R's ``plot(fit, "loadings")``).

    Parameters
    ----------
    pls : fitted PLSRegression
    components : sequence of int, default=(0, 1)
        The components to draw (0-based), each as one line.
    feature_names : sequence of str, default=None
        Tick labels; the fit's ``feature_names_in_``, else ``x0, x1, …``.
    ax : matplotlib Axes, default=None

    Returns
    -------
    ax : matplotlib Axes
        One line per component (labelled ``Comp a (x % X variance)``), a horizontal line at 0.
    """
    require_attributes(
        pls, ("x_loadings_", "explained_variance_ratio_"), "pls", "a fitted PLSRegression"
    )
    loadings = np.asarray(pls.x_loadings_)
    p, k = loadings.shape
    comps = [check_index(int(c), k, "components") for c in components]
    if feature_names is None:
        feature_names = getattr(pls, "feature_names_in_", None)
    names = [f"x{j}" for j in range(p)] if feature_names is None else list(feature_names)
    if len(names) != p:
        raise ValueError(f"feature_names has {len(names)} names for {p} predictors")
    ax = get_ax(ax)
    positions = np.arange(p)
    for c in comps:
        share = 100 * pls.explained_variance_ratio_[0, c]
        ax.plot(positions, loadings[:, c], marker="o", label=f"Comp {c + 1} ({share:.1f} %)")
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xticks(positions)
    ax.set_xticklabels(names, rotation=90 if p > 10 else 0)
    ax.set_xlabel("Variable")
    ax.set_ylabel("Loading value")
    ax.legend(fontsize="small")
    return ax
