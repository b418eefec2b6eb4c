"""ROC analysis: the optimal threshold and the AUC with its standard error."""

from __future__ import annotations

import numpy as np
from scipy import stats
from sklearn import metrics as skm


def _binary(y_true, y_score, pos_label):
    y_true = np.asarray(y_true)
    y_score = np.asarray(y_score, dtype=np.float64)
    if y_true.ndim != 1 or y_score.ndim != 1 or y_true.shape != y_score.shape:
        raise ValueError(
            f"y_true and y_score must be 1-D of equal length; got {y_true.shape}, {y_score.shape}"
        )
    if not np.all(np.isfinite(y_score)):
        raise ValueError("y_score contains NaN or infinity")
    classes = np.unique(y_true)
    if classes.size != 2:
        raise ValueError(f"y_true must have exactly two classes; found {classes.size}")
    if pos_label not in classes:
        raise ValueError(f"pos_label={pos_label!r} is not one of the classes {list(classes)}")
    return y_true == pos_label, y_score


def roc_optimal_threshold(y_true, y_score, *, pos_label=1, method="max_distance"):
    """The ROC point farthest from the diagonal, or maximising Youden's J.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two classes.
    y_score : array-like of shape (n_samples,)
        Scores, larger meaning more likely ``pos_label`` (e.g. a posterior probability).
    pos_label : label, default=1
        The positive class; must be one of the two classes of ``y_true``.
    method : {"max_distance", "youden"}, default="max_distance"
        The criterion maximised over the thresholds (see Notes).

    Returns
    -------
    threshold : float
        Classify as positive when ``y_score >= threshold``.
    fpr, tpr : float
        The ROC point of that threshold.

    Notes
    -----
    ``"max_distance"`` is seed 004 E15's criterion :math:`\\arg\\max_t (\\mathrm{FPR}_t -
    \\mathrm{TPR}_t)^2`, the point farthest from the diagonal (on either side);
    ``"youden"`` maximises :math:`J = \\mathrm{TPR} - \\mathrm{FPR}` (R's
    ``pROC::coords(roc, "best", best.method = "youden")``). Both agree whenever the best point
    lies above the diagonal. Candidate thresholds are the distinct scores (scikit-learn's
    ``roc_curve`` with ``drop_intermediate=False``); ties go to the larger threshold.
    """
    if method not in ("max_distance", "youden"):
        raise ValueError(f"method must be 'max_distance' or 'youden'; got {method!r}")
    pos, y_score = _binary(y_true, y_score, pos_label)
    fpr, tpr, thr = skm.roc_curve(pos, y_score, drop_intermediate=False)
    crit = (fpr - tpr) ** 2 if method == "max_distance" else tpr - fpr
    crit = crit[1:]  # drop the (0, 0) point at threshold +inf
    k = int(np.argmax(crit)) + 1
    return float(thr[k]), float(fpr[k]), float(tpr[k])


def auc_se(y_true, y_score, method="delong", *, pos_label=1):
    """Area under the ROC curve with its standard error.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Two classes.
    y_score : array-like of shape (n_samples,)
        Scores, larger meaning more likely ``pos_label`` (finite).
    method : {"delong", "hanley_mcneil"}, default="delong"
        Variance estimator of the AUC (see Notes); ``"delong"`` needs at least two samples
        of each class.
    pos_label : label, default=1
        The positive class; must be one of the two classes of ``y_true``.

    Returns
    -------
    auc : float
        Area under the ROC curve, the probability that a positive scores above a negative
        (ties counting one half).
    se : float
        Its standard error, the square root of the chosen variance estimate.

    Notes
    -----
    The AUC is the Mann–Whitney statistic :math:`\\hat A = \\frac{1}{mn}\\sum_{i,j}
    \\psi(X_i, Y_j)` over the :math:`m` positive scores :math:`X_i` and :math:`n` negative
    scores :math:`Y_j`, with :math:`\\psi = 1, \\tfrac12, 0` for :math:`X > Y`, ties, and
    :math:`X < Y` (scikit-learn's ``roc_auc_score``).

    DeLong, DeLong & Clarke-Pearson (1988): the structural components
    :math:`V_{10}(X_i) = \\frac1n \\sum_j \\psi(X_i, Y_j)` and
    :math:`V_{01}(Y_j) = \\frac1m \\sum_i \\psi(X_i, Y_j)` give
    :math:`\\widehat{\\mathrm{Var}}(\\hat A) = S_{10}/m + S_{01}/n` with :math:`S` their sample
    variances (R's ``pROC::var(roc, method = "delong")``). Hanley & McNeil (1982):
    :math:`(A(1-A) + (m-1)(Q_1 - A^2) + (n-1)(Q_2 - A^2))/(mn)` with
    :math:`Q_1 = A/(2-A)`, :math:`Q_2 = 2A^2/(1+A)`.
    """
    if method not in ("delong", "hanley_mcneil"):
        raise ValueError(f"method must be 'delong' or 'hanley_mcneil'; got {method!r}")
    pos, y_score = _binary(y_true, y_score, pos_label)
    x, y = y_score[pos], y_score[~pos]
    m, n = x.size, y.size
    r_all = stats.rankdata(np.concatenate([x, y]))
    r_x = stats.rankdata(x)
    r_y = stats.rankdata(y)
    v10 = (r_all[:m] - r_x) / n
    v01 = 1.0 - (r_all[m:] - r_y) / m
    auc = float(v10.mean())
    if method == "delong":
        if m < 2 or n < 2:
            raise ValueError("DeLong's variance needs at least two samples of each class")
        var = v10.var(ddof=1) / m + v01.var(ddof=1) / n
    else:
        q1, q2 = auc / (2 - auc), 2 * auc**2 / (1 + auc)
        var = (auc * (1 - auc) + (m - 1) * (q1 - auc**2) + (n - 1) * (q2 - auc**2)) / (m * n)
    return auc, float(np.sqrt(max(var, 0.0)))
