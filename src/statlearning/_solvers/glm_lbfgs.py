"""Ridge-penalised generalised linear models by L-BFGS (scikit-learn's GLM objective).

:func:`glm_lbfgs` minimises

.. math:: F(b_0, \\beta) = \\frac{1}{2 \\sum_i w_i} \\sum_i w_i\\, d(y_i, \\mu_i)
          + \\frac{\\alpha}{2} \\|\\beta\\|_2^2

(the objective of :func:`~statlearning._solvers.irls.irls` with ``l1_ratio = 0``, and of
scikit-learn's ``PoissonRegressor``/``GammaRegressor``/``TweedieRegressor``) with
:func:`~statlearning._solvers.lbfgs.lbfgs`, from the intercept-only model. Each evaluation of
``F`` and its gradient is one pass over the rows of ``X``
(:func:`~statlearning._core.glm_loss.glm_loss_gradient`). Iteration stops when the largest
gradient component is at most ``tol`` (scikit-learn's ``tol`` for ``solver="lbfgs"``).

Only the (family, link) pairs of :data:`~statlearning._core.glm_loss.UNCONSTRAINED_LINKS` are
handled: under them every linear predictor gives an admissible mean, so the line search never
leaves the domain. Other pairs, the lasso and maximum likelihood with R's inference use IRLS.
"""

from __future__ import annotations

import numpy as np

from .._core.families import get_family
from .._core.glm_loss import FAMILY_CODES, glm_loss_gradient, supports
from .._core.links import LINK_CODES, get_link
from .irls import IRLSResult
from .lbfgs import lbfgs

__all__ = ["glm_lbfgs"]


def glm_lbfgs(
    X,
    y,
    *,
    family,
    link,
    alpha,
    sample_weight=None,
    offset=None,
    fit_intercept=True,
    coef_init=None,
    max_iter=100,
    tol=1e-8,
) -> IRLSResult:
    """Minimise the ridge-penalised mean half deviance by L-BFGS; see the module docstring.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
    family, link : str or family/link object
        A pair accepted by :func:`~statlearning._core.glm_loss.supports`.
    alpha : float
        Ridge penalty (``≥ 0``); the intercept is not penalised.
    sample_weight, offset : ndarray of shape (n_samples,), optional
    fit_intercept : bool
    coef_init : ndarray of shape (k,), optional
        Starting coefficients (intercept first); default: the intercept-only model.
    max_iter : int
    tol : float
        Gradient tolerance.

    Returns
    -------
    IRLSResult
        With ``kept`` all True, ``unscaled_cov`` and ``working_weights`` ``None``, ``n_iter``
        the L-BFGS iterations and ``penalized_deviance = D + Σw · α ‖β‖²``.
    """
    fam, lnk = get_family(family), get_link(link)
    if not supports(fam.name, lnk.name):
        raise ValueError(
            f"L-BFGS does not handle the {fam.name!r} family with the {lnk.name!r} link"
        )
    X = np.ascontiguousarray(X, dtype=np.float64)
    n, p = X.shape
    y = np.ascontiguousarray(y, dtype=np.float64)
    w = np.ones(n) if sample_weight is None else np.ascontiguousarray(sample_weight, float)
    off = np.zeros(n) if offset is None else np.ascontiguousarray(offset, float)
    sum_w = float(w.sum())
    fcode, lcode = FAMILY_CODES[fam.name], LINK_CODES[lnk.name]
    fi = bool(fit_intercept)

    def fun_and_grad(theta):
        b0 = theta[0] if fi else 0.0
        beta = theta[1:] if fi else theta
        loss, g0, g = glm_loss_gradient(X, y, w, off, beta, b0, fcode, lcode)
        value = loss / sum_w + 0.5 * alpha * float(beta @ beta)
        grad = g / sum_w + alpha * beta
        if fi:
            grad = np.concatenate([[g0 / sum_w], grad])
        return value, grad

    if coef_init is None:
        theta0 = np.zeros(p + int(fi))
        if fi:
            ybar = float(w @ y) / sum_w
            with np.errstate(all="ignore"):
                theta0[0] = float(lnk.link(np.array([ybar]))[0])
            if not np.isfinite(theta0[0]):
                theta0[0] = 0.0
    else:
        theta0 = np.array(coef_init, dtype=np.float64)
    res = lbfgs(fun_and_grad, theta0, max_iter=max_iter, tol=tol, blas_flops=2 * X.size)
    coef = res.x
    b0 = coef[0] if fi else 0.0
    beta = coef[1:] if fi else coef
    eta = X @ beta + b0 + off
    mu = lnk.inverse(eta)
    dev = fam.deviance(y, mu, w)
    return IRLSResult(
        x=coef, n_iter=res.n_iter, converged=res.converged, coef=coef,
        kept=np.ones(coef.size, bool), deviance=dev, unscaled_cov=None, rank=coef.size,
        eta=eta, mu=mu, working_weights=None, boundary=False,
        penalized_deviance=dev + sum_w * alpha * float(beta @ beta),
    )  # fmt: skip
