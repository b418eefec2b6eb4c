"""Penalised IRLS and the choice of several smoothing parameters (mgcv's outer iteration).

The model ``g(μ) = Xβ`` is fitted for fixed smoothing parameters ``λ`` by minimising the
penalised deviance

.. math:: D_p(β) = D(β) + β^T S_λ β, \\qquad S_λ = \\sum_k λ_k S_k

by Fisher scoring: from the working response ``z`` and weights ``W`` (as in
:mod:`statlearning._solvers.irls`), each step solves ``(XᵀWX + S_λ)β = XᵀWz``, halving the
step while the penalised deviance increases or the means leave the family's domain, until
``|ΔD_p| < 1e-10 (|D_p| + 0.1)``. Gaussian identity-link fits need a single solve.

The ``ρ = log λ`` of the penalties not fixed by the user minimise one of mgcv's criteria
(``H = XᵀWX + S_λ`` at the fitted β, ``τ = tr(H⁻¹XᵀWX)`` the effective degrees of freedom,
``n`` the observations of positive weight):

* GCV (scale unknown): ``n D / (n − τ)²``;
* UBRE / Cp (scale ``φ`` known, binomial and Poisson): ``D/n + 2τφ/n − φ``;
* REML (Laplace-approximate restricted likelihood, Wood 2011):
  ``D_p/(2φ) − l_s(φ) + ½ log|H| − ½ log|S_λ|₊ − (M_p/2) log(2πφ)`` with ``M_p`` the
  dimension of the penalty's null space and ``l_s`` the saturated log-likelihood (mgcv's
  ``family$ls``); an unknown ``φ`` is profiled out (closed form for the Gaussian family, a
  one-dimensional search otherwise).

The reported scale (and the ``φ`` of ``Vp``) is mgcv's default estimate whatever the
criterion: Pearson's statistic over ``n − τ`` with Fletcher's correction (``RSS/(n − τ)`` for
the Gaussian family); the REML criterion itself uses its own profiled ``φ``.

Weights are case weights: ``n = Σw`` and the saturated likelihood sums ``w_i`` copies of each
row, so a weight of 2 is a repeated row (mgcv counts rows and treats weights as precisions:
the same with unit weights).

The minimisation is Newton's method on ρ with the exact gradient (the implicit derivative
``∂β/∂ρ_k = −λ_k H⁻¹S_kβ`` and, for non-Gaussian families, the change of ``W`` with η) and
the Hessian by forward differences of that gradient; a non-positive-definite Hessian is
replaced by its absolute eigenvalues (floored), steps are capped at 5 in ρ and halved while the
criterion increases, and ρ stays in ``[−25, 25]`` around mgcv's scale-free penalties.
Iterations stop when the gradient is below ``1e-7 (|V| + 1e-8)`` per component or ρ changes
by less than ``1e-8``. With canonical links Fisher's weights are the Hessian's and the
gradient is exact; with other links it uses Fisher's weights (mgcv's outer iteration uses the
full Newton weights there).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import linalg, optimize, special

from .._core.compiled import single_blas_thread
from .._core.families import get_family
from .._core.linalg import gram, symmetric_eigh
from .._core.links import get_link

__all__ = ["PenalisedFit", "Penalty", "fit_penalised"]

_RHO_BOUND = 25.0
_PIRLS_TOL = 1e-10
_PIRLS_MAX_ITER = 200
#: Deviance per unit weight below which the iterations stop (separated classes, or a Poisson
#: mean driven to zero): the coefficients diverge and no later iterate is better.
_SEPARATED = 1e-9
_MAX_OUTER = 200


@dataclass
class Penalty:
    """One penalty ``S`` acting on the coefficients ``start:stop``; ``lam`` fixed or None."""

    start: int
    stop: int
    S: np.ndarray
    lam: float | None = None


@dataclass
class PenalisedFit:
    """What :func:`fit_penalised` found.

    ``coef`` (intercept and all columns of X), ``lam`` (one per penalty), ``Vp`` (the
    Bayesian posterior covariance ``φ H⁻¹``), ``Ve`` (``φ H⁻¹XᵀWXH⁻¹``), ``edf`` (per
    coefficient, ``diag(F)`` with ``F = H⁻¹XᵀWX``), ``edf1`` (``diag(2F − F²)``), ``scale``
    (``φ``: the estimate, or 1 when known), ``score`` (the criterion at the optimum),
    ``deviance``, ``eta``, ``mu``, ``working_weights``, ``n_iter`` (outer iterations),
    ``converged``.
    """

    coef: np.ndarray
    lam: np.ndarray
    Vp: np.ndarray
    Ve: np.ndarray
    edf: np.ndarray
    edf1: np.ndarray
    scale: float
    score: float
    deviance: float
    penalty: float
    eta: np.ndarray
    mu: np.ndarray
    working_weights: np.ndarray
    n_iter: int
    converged: bool
    null_space_dim: int = 0
    history: list = field(default_factory=list)


class _Problem:
    def __init__(self, X, y, w, family, link, penalties, criterion, scale):
        self.X, self.y, self.w = X, y, w
        self.family, self.link = family, link
        self.penalties = penalties
        self.criterion = criterion
        self.p = X.shape[1]
        self.n = float(np.sum(w))  # case weights: a weight of 2 counts as two observations
        self.gaussian = family.name == "gaussian" and link.name == "identity"
        self.scale_known = scale is not None or family.dispersion_fixed
        self.known_scale = 1.0 if scale is None else float(scale)
        self.free = [i for i, pen in enumerate(penalties) if pen.lam is None]
        self.full = [self._embed(pen.S, pen) for pen in penalties]
        self.blocks = self._blocks()
        self.Mp = self.p - sum(rank for _, rank in self.blocks)
        if self.gaussian:
            G = gram(X, sqrt_weights=np.sqrt(w), extra=y)
            self.A, self.b = G[: self.p, : self.p], G[: self.p, self.p]
        self.beta = None

    def _embed(self, S, pen):
        M = np.zeros((self.p, self.p))
        M[pen.start : pen.stop, pen.start : pen.stop] = S
        return M

    def _blocks(self):
        """Groups of penalties on the same coefficients, with the rank of their sum."""
        groups: dict = {}
        for i, pen in enumerate(self.penalties):
            groups.setdefault((pen.start, pen.stop), []).append(i)
        out = []
        for (a, b), members in groups.items():
            tot = sum(self.penalties[i].S / np.linalg.norm(self.penalties[i].S) for i in members)
            ev = symmetric_eigh(tot, eigvals_only=True, driver="evd")
            rank = int(np.sum(ev > ev.max() * 1e-10)) if ev.size else 0
            out.append(((a, b, members), rank))
        return out

    def S_lambda(self, lam):
        S = np.zeros((self.p, self.p))
        for lk, Sk in zip(lam, self.full, strict=True):
            S += lk * Sk
        return S

    def log_det_S(self, lam):
        """``log|S_λ|₊`` and its derivatives ``λ_k tr(S_λ⁺ S_k)``."""
        total = 0.0
        grad = np.zeros(len(self.penalties))
        for (_, _, members), rank in self.blocks:
            if rank == 0:
                continue
            Sb = sum(lam[i] * self.penalties[i].S for i in members)
            ev, vec = symmetric_eigh(Sb, driver="evd")
            top = np.argsort(ev)[::-1][:rank]
            e, U = ev[top], vec[:, top]
            total += float(np.sum(np.log(e)))
            pinv = (U / e) @ U.T
            for i in members:
                grad[i] = lam[i] * float(np.sum(pinv * self.penalties[i].S))
        return total, grad

    # ----------------------------------------------------------------- inner fit
    def working(self, eta, mu):
        with np.errstate(all="ignore"):
            mu_eta = self.link.inverse_derivative(eta)
            z = eta + (self.y - mu) / mu_eta
            W = self.w * mu_eta**2 / self.family.variance(mu)
        return z, W

    def evaluate(self, beta):
        eta = self.X @ beta
        with np.errstate(all="ignore"):
            mu = self.link.inverse(eta)
            dev = self.family.deviance(self.y, mu, self.w)
        ok = np.isfinite(dev) and self.link.valid_eta(eta) and self.family.valid_mu(mu)
        return eta, mu, dev, bool(ok)

    def pirls(self, S):
        """Penalised IRLS at fixed ``S_λ``: ``(β, η, μ, D, A = XᵀWX, H)``."""
        if self.gaussian:
            H = self.A + S
            beta = _solve(H, self.b)
            eta, mu, dev, _ = self.evaluate(beta)
            return beta, eta, mu, dev, self.A, H
        if self.beta is None:
            # R's mustart without the weights (binomial: (y + 1/2)/2), so that a weight of 2
            # and a repeated row start alike
            mu = self.family.starting_mu(self.y, None)
            eta = self.link.link(mu)
            beta_old, pdev_old = None, np.inf
        else:
            beta_old = self.beta
            eta, mu, dev, _ = self.evaluate(beta_old)
            pdev_old = dev + beta_old @ S @ beta_old
        for _ in range(_PIRLS_MAX_ITER):
            z, W = self.working(eta, mu)
            G = gram(self.X, sqrt_weights=np.sqrt(W), extra=z)
            A, b = G[: self.p, : self.p], G[: self.p, self.p]
            beta = _solve(A + S, b)
            eta, mu, dev, ok = self.evaluate(beta)
            pdev = dev + beta @ S @ beta if ok else np.inf
            halvings = 0
            while beta_old is not None and (not ok or pdev > pdev_old + 1e-12 * abs(pdev_old)):
                if halvings >= 40:
                    break
                beta = 0.5 * (beta + beta_old)
                eta, mu, dev, ok = self.evaluate(beta)
                pdev = dev + beta @ S @ beta if ok else np.inf
                halvings += 1
            if not np.isfinite(pdev):
                raise FloatingPointError("penalised IRLS diverged")
            done = abs(pdev - pdev_old) < _PIRLS_TOL * (abs(pdev) + 0.1)
            # separated data (deviance → 0 as η → ±∞): stop at a deterministic point
            done = done or dev < _SEPARATED * self.n
            beta_old, pdev_old = beta, pdev
            if done:
                break
        self.beta = beta
        z, W = self.working(eta, mu)
        A = gram(self.X, sqrt_weights=np.sqrt(W))
        return beta, eta, mu, dev, A, A + S

    # ------------------------------------------------------------- the criterion
    def lam_of(self, rho):
        lam = np.array([np.nan if pen.lam is None else pen.lam for pen in self.penalties])
        lam[self.free] = np.exp(rho)
        return lam

    def criterion_at(self, rho, gradient=True):
        lam = self.lam_of(rho)
        S = self.S_lambda(lam)
        beta, eta, mu, dev, A, H = self.pirls(S)
        st = _State(beta, eta, mu, dev, A, H, S, lam)
        value = self._value(st)
        if not gradient:
            return value, None, st
        return value, self._gradient(st)[self.free], st

    def _value(self, st):
        n = self.n
        st.Hc = _cholesky(st.H)
        Hinv_A = linalg.cho_solve(st.Hc, st.A, check_finite=False)
        st.F = Hinv_A
        st.tau = float(np.trace(Hinv_A))
        st.pen = float(st.beta @ st.S @ st.beta)
        if self.criterion == "gcv" and not self.scale_known:
            dof = max(n - st.tau, 1e-12 * n)  # an interpolating fit: τ = n
            st.scale = st.dev / dof
            return n * st.dev / dof**2
        if self.criterion == "gcv":
            phi = self.known_scale
            st.scale = phi
            return st.dev / n + 2.0 * st.tau * phi / n - phi
        st.logdetH = 2.0 * float(np.sum(np.log(np.abs(np.diag(st.Hc[0])))))
        st.logdetS, st.dlogdetS = self.log_det_S(st.lam)
        Dp = st.dev + st.pen
        phi = self.known_scale if self.scale_known else self._reml_scale(Dp)
        st.scale = phi
        return (
            Dp / (2.0 * phi)
            - self._ls(phi)
            + 0.5 * st.logdetH
            - 0.5 * st.logdetS
            - 0.5 * self.Mp * np.log(2.0 * np.pi * phi)
        )

    def _ls(self, phi):
        """mgcv's ``family$ls``: the saturated log-likelihood."""
        y, w = self.y, self.w
        name = self.family.name
        if name == "gaussian":
            return -self.n * np.log(2 * np.pi * phi) / 2
        if name == "binomial":
            ok = (y > 0) & (y < 1)
            m = w[ok]
            yy = y[ok]
            val = special.gammaln(w + 1).sum() - np.sum(
                special.gammaln(w * y + 1) + special.gammaln(w * (1 - y) + 1)
            )
            val += np.sum(m * (yy * np.log(yy) + (1 - yy) * np.log(1 - yy)))
            return float(val)
        if name == "poisson":
            pos = y > 0
            return float(np.sum(w[pos] * (y[pos] * np.log(y[pos]) - y[pos]))
                         - np.sum(w * special.gammaln(y + 1)))  # fmt: skip
        if name == "gamma":
            k = -special.gammaln(1 / phi) - np.log(phi) / phi - 1 / phi
            return float(np.sum(w * (k - np.log(y))))
        raise ValueError(
            f"no saturated log-likelihood for the {name!r} family (REML needs one of gaussian, "
            "binomial, poisson, gamma)"
        )

    def _reml_scale(self, Dp):
        if self.family.name == "gaussian":
            # an exact fit (Dp = 0) has no finite REML optimum: the smallest positive scale
            return max(Dp / max(self.n - self.Mp, 1.0), np.finfo(float).tiny)

        def f(lphi):
            phi = np.exp(lphi)
            return Dp / (2 * phi) - self._ls(phi) - 0.5 * self.Mp * np.log(2 * np.pi * phi)

        guess = np.log(max(Dp / max(self.n - self.Mp, 1), 1e-300))
        res = optimize.minimize_scalar(f, bracket=(guess - 1, guess + 1), tol=1e-12)
        return float(np.exp(res.x))

    def _gradient(self, st):
        """Derivatives of the criterion with respect to every ``log λ_k``."""
        n, m = self.n, len(self.penalties)
        Hinv = linalg.cho_solve(st.Hc, np.eye(self.p), check_finite=False)
        dbeta = [-st.lam[k] * (Hinv @ (self.full[k] @ st.beta)) for k in range(m)]
        dA = [None] * m
        if not self.gaussian:
            dW_deta = self._dW_deta(st.eta, st.mu)
            for k in range(m):
                deta = self.X @ dbeta[k]
                dA[k] = self.X.T @ (self.X * (dW_deta * deta)[:, None])
        grad = np.zeros(m)
        Sb = st.S @ st.beta
        for k in range(m):
            lk, Sk = st.lam[k], self.full[k]
            dH = lk * Sk + (dA[k] if dA[k] is not None else 0.0)
            if self.criterion == "gcv":
                ddev = -2.0 * Sb @ dbeta[k]
                HdH = Hinv @ dH
                dtau = -float(np.sum(HdH.T * st.F))
                if dA[k] is not None:
                    dtau += float(np.sum(Hinv * dA[k]))
                if self.scale_known:
                    phi = self.known_scale
                    grad[k] = ddev / n + 2.0 * dtau * phi / n
                else:
                    dof = max(n - st.tau, 1e-12 * n)
                    grad[k] = n * ddev / dof**2 + 2 * n * st.dev * dtau / dof**3
            else:
                dDp = lk * float(st.beta @ Sk @ st.beta)
                dlogH = float(np.sum(Hinv * dH))
                grad[k] = dDp / (2.0 * st.scale) + 0.5 * dlogH - 0.5 * st.dlogdetS[k]
        return grad

    def _dW_deta(self, eta, mu):
        """``dW/dη`` elementwise by central differences of the working weights."""
        h = 1e-6 * np.maximum(np.abs(eta), 1.0)
        Wp = self._weights_at(eta + h)
        Wm = self._weights_at(eta - h)
        return (Wp - Wm) / (2 * h)

    def _weights_at(self, eta):
        with np.errstate(all="ignore"):
            mu = self.link.inverse(eta)
            mu_eta = self.link.inverse_derivative(eta)
            return self.w * mu_eta**2 / self.family.variance(mu)


@dataclass
class _State:
    beta: np.ndarray
    eta: np.ndarray
    mu: np.ndarray
    dev: float
    A: np.ndarray
    H: np.ndarray
    S: np.ndarray
    lam: np.ndarray
    Hc: tuple | None = None
    F: np.ndarray | None = None
    tau: float = 0.0
    pen: float = 0.0
    scale: float = 1.0
    logdetH: float = 0.0
    logdetS: float = 0.0
    dlogdetS: np.ndarray | None = None


def _cholesky(H):
    """Cholesky factor of ``H``; a numerically singular ``H`` (fitted probabilities at 0 or 1
    leave directions without information) gets the smallest ridge ``δ·max diag(H)``, δ from
    1e-12 up to 1e-6, that makes it positive definite."""
    try:
        return linalg.cho_factor(H, lower=False, check_finite=False)
    except linalg.LinAlgError:
        pass
    top = float(np.max(np.abs(np.diag(H)))) or 1.0
    for delta in (1e-12, 1e-10, 1e-8, 1e-6):
        try:
            return linalg.cho_factor(
                H + delta * top * np.eye(H.shape[0]), lower=False, check_finite=False
            )
        except linalg.LinAlgError:
            continue
    raise linalg.LinAlgError("the penalised Hessian is singular")


def _solve(H, b):
    return linalg.cho_solve(_cholesky(H), b, check_finite=False)


def _fletcher_scale(prob, st):
    """mgcv's default scale estimate (``scale.est = "fletcher"``): Pearson's statistic over
    ``n − τ``, divided by ``1 + s̄`` with ``s̄ = max(−0.9, mean(V'(μ)(y − μ)/V(μ)))``."""
    mu, fam = st.mu, prob.family
    with np.errstate(all="ignore"):
        V = fam.variance(mu)
        pearson = float(np.sum(prob.w * (prob.y - mu) ** 2 / V))
        h = 1e-6 * np.maximum(np.abs(mu), 1e-8)
        dV = (fam.variance(mu + h) - fam.variance(mu - h)) / (2 * h)
        s_bar = max(-0.9, float(np.mean(dV * (prob.y - mu) / V)))
    phi = pearson / max(prob.n - st.tau, 1e-12 * prob.n)
    return phi / (1 + s_bar) if np.isfinite(s_bar) else phi


def _initial_rho(prob):
    """mgcv-like starting values: ``λ_k`` balancing the penalty against ``XᵀWX`` on its block."""
    if prob.gaussian:
        A = prob.A
    else:
        A = gram(prob.X, sqrt_weights=np.sqrt(prob.w))
    rho = []
    for i in prob.free:
        pen = prob.penalties[i]
        dA = np.diag(A)[pen.start : pen.stop]
        dS = np.diag(pen.S)
        on = dS > dS.max() * 1e-8
        rho.append(np.log(max(np.mean(dA[on]) / np.mean(dS[on]), 1e-10)))
    return np.clip(np.array(rho), -_RHO_BOUND, _RHO_BOUND)


def _newton(prob, rho):
    """Newton on ρ with forward-difference Hessians of the exact gradient."""
    value, grad, st = prob.criterion_at(rho)
    history = [value]
    converged = False
    n_iter = 0
    while n_iter < _MAX_OUTER:
        n_iter += 1
        scale = abs(value) + 1e-8
        if np.all(np.abs(grad) < 1e-7 * scale):
            converged = True
            break
        m = rho.size
        H = np.zeros((m, m))
        h = 1e-4
        for j in range(m):
            r = rho.copy()
            r[j] += h
            H[:, j] = (prob.criterion_at(r)[1] - grad) / h
        H = (H + H.T) / 2
        ev, vec = symmetric_eigh(H, driver="evd")
        ev = np.maximum(np.abs(ev), max(np.abs(ev).max(), 1e-12) * 1e-7 + 1e-12 * scale)
        step = -(vec @ ((vec.T @ grad) / ev))
        big = np.max(np.abs(step))
        if big > 5.0:
            step *= 5.0 / big
        for _ in range(30):
            new = np.clip(rho + step, -_RHO_BOUND, _RHO_BOUND)
            v_new, g_new, st_new = prob.criterion_at(new)
            if np.isfinite(v_new) and v_new <= value + 1e-12 * scale:
                break
            step /= 2.0
        else:
            converged = True  # no decrease possible along the step: at the optimum
            break
        moved = np.max(np.abs(new - rho))
        rho, value, grad, st = new, v_new, g_new, st_new
        history.append(value)
        if moved < 1e-8:
            converged = True
            break
    return rho, value, st, n_iter, converged, history


def fit_penalised(
    X, y, *, family, link, penalties, criterion="gcv", sample_weight=None, scale=None
) -> PenalisedFit:
    """Fit ``g(μ) = Xβ`` with penalties ``Σλ_k S_k`` (see the module docstring).

    Parameters
    ----------
    X : ndarray of shape (n, p)
        The model matrix, intercept column included.
    y : ndarray of shape (n,)
    family, link : str or objects of :mod:`statlearning._core.families` / ``links``
    penalties : list of Penalty
        A penalty with ``lam=None`` has its λ chosen by ``criterion``.
    criterion : {"gcv", "reml"}
        ``"gcv"`` is mgcv's "GCV.Cp": GCV when the scale is unknown, UBRE when known.
    sample_weight : ndarray of shape (n,), optional
        Prior weights (positive: rows of zero weight are to be removed by the caller).
    scale : float, optional
        A known scale for the Gaussian or Gamma family (binomial and Poisson: 1).

    Returns
    -------
    PenalisedFit
    """
    fam, lnk = get_family(family), get_link(link)
    X = np.asarray(X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    w = np.ones(y.size) if sample_weight is None else np.asarray(sample_weight, np.float64)
    # every product is a row block of X or a p × p matrix: one BLAS thread each (a threaded
    # BLAS on such products mostly waits for its workers). Not the idle-core rule of single
    # products: the search alternates NumPy's and SciPy's BLAS (two OpenBLAS libraries, each
    # with its own workers, which spin after every call), and with both threaded a second
    # GAM fit of 1,000 × 20 took 26–34 s against 5.6 s on one thread
    with single_blas_thread(X.shape[0] * X.shape[1] ** 2):
        return _fit(X, y, w, fam, lnk, penalties, criterion, scale)


def _fit(X, y, w, fam, lnk, penalties, criterion, scale):
    prob = _Problem(X, y, w, fam, lnk, list(penalties), criterion, scale)
    if prob.free:
        rho0 = _initial_rho(prob)
        _, value, st, n_iter, converged, history = _newton(prob, rho0)
    else:
        value, _, st = prob.criterion_at(np.zeros(0), gradient=False)
        n_iter, converged, history = 0, True, [value]
    Hinv = linalg.cho_solve(st.Hc, np.eye(prob.p), check_finite=False)
    phi = st.scale
    if not prob.scale_known:  # mgcv reports (and scales Vp by) this estimate after REML too
        phi = _fletcher_scale(prob, st)
    F = st.F
    return PenalisedFit(
        coef=st.beta,
        lam=st.lam,
        Vp=Hinv * phi,
        Ve=F @ Hinv * phi,
        edf=np.diag(F).copy(),
        edf1=np.diag(2 * F - F @ F).copy(),
        scale=float(phi),
        score=float(value),
        deviance=float(st.dev),
        penalty=float(st.pen),
        eta=st.eta,
        mu=st.mu,
        working_weights=prob._weights_at(st.eta),
        n_iter=n_iter,
        converged=converged,
        null_space_dim=prob.Mp,
        history=history,
    )
