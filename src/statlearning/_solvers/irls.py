"""Iteratively reweighted least squares for generalised linear models (R's ``glm.fit``).

From the current linear predictor ``η`` (``μ = g⁻¹(η)``) one iteration forms the working response
and the working weights

.. math:: z_i = \\eta_i - o_i + (y_i - \\mu_i)\\, \\frac{d\\eta}{d\\mu}(\\mu_i), \\qquad
          W_i = \\frac{w_i\\, (d\\mu/d\\eta)_i^2}{V(\\mu_i)}

(``o`` the offset, ``w`` the prior weights) and solves the weighted least-squares problem
``min Σ W_i (z_i − a_iᵀθ)²`` for the coefficients ``θ`` (intercept first). This is Fisher scoring
(Newton's method for canonical links). Iterations stop when the deviance ``D`` settles,
``|D − D_old| / (|D| + 0.1) < tol`` (R's ``epsilon``, default ``1e-8``), or after ``max_iter``
iterations (R's ``maxit = 25``). Rows with zero prior weight take no part in the fit.

The step is halved exactly as in ``glm.fit``: when the deviance is not finite (R's
"step size truncated due to divergence"), then while ``η`` or ``μ`` leave the link's or the
family's domain ("step size truncated: out of bounds"), at most ``max_iter`` times each; a step
that merely increases the deviance is taken, as R takes it (the deviance may rise for some
iterations on skewed data before settling; halving such steps, as the ``glm2`` package does,
stops the iterations early, away from R's answer). R's starting means are the family's
``mustart`` (``y`` for the Gaussian, Gamma and inverse Gaussian families, ``y + 0.1`` for the
Poisson, ``(w y + 0.5)/(w + 1)`` for the binomial).

Differences from ``glm.fit``, all of them where R would fail: rows with zero weight are left
out of the domain checks of ``μ`` and ``η`` too (R checks them), so that a zero weight is the
same as a removed row; when a halving loop gives up (R: "inner loop 1/2; cannot correct step
size") the last valid iterate is kept; when R's starting means give an invalid ``η`` (a
Gaussian log-link fit with ``y ≤ 0``), or the first step leaves the domain, the fit restarts
from the intercept-only model ``μ = ȳ_w`` (or, when that is not admissible, from
``η = offset``) instead of stopping. Penalised fits start from that intercept-only model (as
glmnet starts from the null model), which usually saves an iteration, and they also halve a
step that increases the penalised deviance by more than the tolerance.

Linear algebra. Each iteration is solved through the Cholesky factor of ``AᵀWA`` (the weighted
Gram of :func:`~statlearning._core.linalg.gram`; half the cost of a QR factorisation) as long
as every column keeps a clear margin from collinearity. When the last factor ``U`` is also well
conditioned (:func:`~statlearning._core.linalg.cholesky_stands_for_qr`: ``κ₂`` of ``U`` with
unit column norms below ``CHOLESKY_FOR_QR_COND``), no column can be
aliased and the last iteration's solution and ``(AᵀWA)⁻¹ = U⁻¹U⁻ᵀ`` are the answer, within
about ``κ² ε ≈ 2e-12`` (relative) of the QR's. Otherwise the
final iteration is solved again with :func:`~statlearning._core.linalg.qr_least_squares`, R's
limited-pivoting QR with glm's tolerance ``min(1e-7, tol/1000)``, which decides the aliased
columns (``NaN`` coefficients) and gives ``(AᵀWA)⁻¹`` as ``summary.glm`` computes it. Either
way the working weights are those of the final iteration, i.e. evaluated at the previous
iterate, as R does. Any column near collinearity switches the iterations to the QR solver.
Every product of the iterations is a block of rows or a ``k × k`` matrix, so on a busy
machine they run on one BLAS thread (:func:`~statlearning._core.compiled.single_blas_thread`: a
threaded BLAS spends longer synchronising its workers than computing such products); while a
core is free, blocks of at least
:data:`~statlearning._core.compiled.PRODUCT_THREADS_FROM` multiply-adds keep their threads.
Where the weighted Gram is large enough to be cut into parts of rows that run side by side
(:func:`~statlearning._core.linalg.gram_parts`), the whole fit stays on one BLAS thread: the
parallelism is the parts', and a threaded product between two Gram matrices would leave BLAS's
workers spinning on the cores the parts need.

Penalised fits (``alpha > 0``) minimise, as scikit-learn's GLMs do,

.. math:: \\frac{D(\\theta)}{2 \\sum_i w_i}
          + \\alpha\\Big(\\rho\\,\\|\\beta\\|_1 + \\frac{1-\\rho}{2}\\|\\beta\\|_2^2\\Big)

(``ρ = l1_ratio``; the intercept is not penalised): each iteration solves the penalised
weighted least-squares problem — in closed form through a Cholesky factorisation when
``ρ = 0``, by warm-started coordinate descent
(:func:`~statlearning._solvers.coordinate_descent.enet_coordinate_descent`) otherwise — with
step halving and convergence measured on the penalised deviance
``D + 2 Σw · α · penalty``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np
from scipy import linalg
from scipy.linalg import lapack

from .._core.compiled import PRODUCT_THREADS_FROM, single_blas_thread
from .._core.families import get_family
from .._core.linalg import (
    BLOCK_ROWS,
    Factorisation,
    cholesky_stands_for_qr,
    gram,
    gram_parts,
    inverse_from_r,
    qr_least_squares,
)
from .._core.links import get_link
from ._result import SolverResult

__all__ = ["ArrayData", "IRLSData", "IRLSResult", "Point", "fit_irls", "irls"]

#: Halvings of a penalised step that increases the penalised deviance.
MAX_HALVINGS = 30
#: Cholesky iterations require every column's reduced squared norm to keep this fraction of its
#: squared norm (far above glm's aliasing tolerance, so the QR solve decides the same columns).
_CHOLESKY_MARGIN = 1e-10
#: Relative change of the penalised deviance below which chord steps stop in any case.
_CHORD_FLOOR = 1e-15


@dataclass
class IRLSResult(SolverResult):
    """What :func:`irls` found.

    Attributes
    ----------
    x, coef : ndarray of shape (k,)
        Coefficients, intercept first when fitted; ``NaN`` for aliased columns (``x`` is the
        same array).
    kept : ndarray of bool, shape (k,)
        Columns that are not aliased.
    deviance : float
        ``D`` at ``coef``.
    unscaled_cov : ndarray of shape (rank, rank) or None
        ``(A_keptᵀ W A_kept)⁻¹`` from the final weighted least-squares problem (R's
        ``summary.glm(...)$cov.unscaled``); ``None`` for penalised fits.
    rank : int
        Number of kept columns.
    eta, mu : ndarray of shape (n_samples,) or None
        Linear predictor (offset included) and fitted means at ``coef`` (``None`` when the
        data are held in blocks elsewhere, :class:`IRLSData`).
    working_weights : ndarray of shape (n_samples,) or None
        ``W`` of the final iteration (R's ``fit$weights``; zero for rows left out).
    boundary : bool
        The final step was cut back because it left the family's or the link's domain (R's
        "algorithm stopped at boundary value").
    penalized_deviance : float
        ``D + 2 Σw · α · penalty`` (equal to ``deviance`` without penalty).
    weights_at : Point or None
        The iterate at which the final working weights were evaluated (the previous iterate,
        as in R); block-held data recompute them there.
    """

    coef: np.ndarray | None = None
    kept: np.ndarray | None = None
    deviance: float = float("nan")
    unscaled_cov: np.ndarray | None = None
    rank: int = 0
    eta: np.ndarray | None = None
    mu: np.ndarray | None = None
    working_weights: np.ndarray | None = None
    boundary: bool = False
    penalized_deviance: float = float("nan")
    weights_at: object = None


@dataclass
class Point:
    """One iterate as the data provider evaluated it.

    Attributes
    ----------
    coef : ndarray of shape (k,) or None
        ``None`` for R's starting means (``mustart``), which have no coefficients.
    dev : float
        The deviance at the point (computed whatever the domain checks say; may be infinite).
    valid : bool
        ``η`` and ``μ`` are in the link's and the family's domains (rows of positive weight).
    state : object
        What the provider keeps of the point (``η`` and ``μ`` in memory; the block sums of
        the weighted least-squares problem at the point for data held in blocks).
    """

    coef: np.ndarray | None
    dev: float
    valid: bool
    state: object = None


class IRLSData(ABC):
    """Where the iterations get their data from: the sufficient-statistics provider.

    The iterations of :func:`fit_irls` never touch rows: they ask a provider for the deviance
    and the domain checks at a point (:meth:`evaluate`, :meth:`start`), for the weighted
    least-squares problem there (:meth:`system`: its Gram matrix ``[A | z]ᵀW[A | z]``, its QR
    factorisation) and for the score ``Aᵀr`` (:meth:`score`). :class:`ArrayData` answers from
    NumPy arrays; a provider over row blocks (data held by Dask) answers each question with one
    pass of mergeable block sums, so the same loop, convergence rule and step halving serve
    both.

    Attributes
    ----------
    family, link : family and link objects
    fit_intercept : bool
    alpha, l1_ratio : float
    k : int
        Coefficients (intercept included).
    sum_w : float
        ``Σ w``.
    weighted_mean_y : float
        ``Σ w y / Σ w`` (the intercept-only model's mean).
    """

    family = link = None
    fit_intercept = True
    alpha = l1_ratio = 0.0
    k = 0
    sum_w = 0.0
    weighted_mean_y = 0.0

    @abstractmethod
    def start(self) -> Point | None:
        """R's starting means as a point, or ``None`` when their ``η`` is not finite or not
        valid."""

    @abstractmethod
    def evaluate(self, coef) -> Point:
        """The point at ``coef`` (``NaN`` entries count as zero)."""

    @abstractmethod
    def system(self, point: Point, check: bool = True):
        """The weighted least-squares problem at ``point`` (``None`` when ``check`` and its
        working responses or weights are not finite)."""

    @abstractmethod
    def score(self, point: Point) -> np.ndarray:
        """``Aᵀr`` with ``r = w (y − μ) (dμ/dη) / V(μ)`` over rows of positive weight."""

    def arrays(self, point: Point, system):
        """``(η, μ, W)`` at the final point as arrays, or ``(None, None, None)``."""
        return None, None, None

    def penalty(self, coef) -> float:
        """``α (ρ‖β‖₁ + ½(1 − ρ)‖β‖²)`` (the intercept is not penalised)."""
        if self.alpha == 0.0:
            return 0.0
        b = coef[1:] if self.fit_intercept else coef
        rho = self.l1_ratio
        return self.alpha * (rho * np.abs(b).sum() + 0.5 * (1.0 - rho) * float(b @ b))

    def values(self, point: Point, coef):
        """``(D, penalised D, ok)`` of a point: ``D`` is ``NaN`` outside the domain."""
        dev = point.dev if point.valid else np.nan
        c = np.zeros(0) if coef is None else np.where(np.isnan(coef), 0.0, coef)
        pen = dev + 2.0 * self.sum_w * self.penalty(c)
        return dev, pen, bool(point.valid and np.isfinite(dev))


class ArraySystem:
    """The weighted least-squares problem of one iteration, on arrays: rows ``good`` of ``X``,
    working response ``z`` and working weights ``W``."""

    def __init__(self, data, good, z, W):
        self.data, self.good, self.z, self.W = data, good, z, W
        self.sqrt_W = np.sqrt(W)

    def rows(self):
        X = self.data.X
        return X if self.good is None else X[self.good]

    def gram(self) -> np.ndarray:
        """``[A | z]ᵀ W [A | z]``."""
        return gram(
            self.rows(), sqrt_weights=self.sqrt_W, intercept=self.data.fit_intercept,
            extra=self.z,
        )  # fmt: skip

    def qr(self, rank_tol) -> Factorisation:
        """R's QR of ``√W A`` and its least-squares solution for ``√W z``."""
        return qr_least_squares(self.rows(), self.z, self.sqrt_W, self.data.fit_intercept, rank_tol)

    def coordinate_descent(self, coef, tol):
        """The elastic-net weighted least-squares problem by warm-started coordinate
        descent."""
        from .coordinate_descent import enet_coordinate_descent

        data = self.data
        fi = data.fit_intercept
        c = np.zeros(data.k) if coef is None else np.where(np.isnan(coef), 0.0, coef)
        res = enet_coordinate_descent(
            self.rows(),
            self.z,
            alpha=data.alpha * data.sum_w / float(self.W.sum()),
            l1_ratio=data.l1_ratio,
            sample_weight=self.W,
            fit_intercept=fi,
            coef_init=c[1:] if fi else c,
            intercept_init=float(c[0]) if fi else None,
            max_iter=10_000,
            tol=max(1e-12, min(1e-10, 1e-4 * tol)),  # duality gap: well below the outer tol
        )
        new = np.concatenate([[res.intercept], res.x]) if fi else np.asarray(res.x, float)
        return new, bool(res.converged)

    def working_weights(self) -> np.ndarray:
        W = np.zeros(self.data.y.size)
        if self.good is None:
            W[:] = self.W
        else:
            W[self.good] = self.W
        return W


class ArrayData(IRLSData):
    """:class:`IRLSData` from NumPy arrays (the in-memory fit)."""

    def __init__(self, X, y, family, link, w, offset, fit_intercept, alpha, l1_ratio):
        self.X, self.y, self.family, self.link = X, y, family, link
        self.w, self.offset, self.fit_intercept = w, offset, fit_intercept
        self.alpha, self.l1_ratio = alpha, l1_ratio
        self.k = X.shape[1] + int(fit_intercept)
        self.sum_w = float(w.sum())
        self.weighted_mean_y = float(w @ y) / self.sum_w
        self.pos = None if np.all(w > 0) else w > 0
        self.unit_weights = bool(np.all(w == 1))
        self.has_offset = bool(np.any(offset != 0))

    def _valid(self, eta, mu) -> bool:
        if self.pos is not None:
            eta, mu = eta[self.pos], mu[self.pos]
        return bool(self.link.valid_eta(eta) and self.family.valid_mu(mu))

    def _eta(self, coef) -> np.ndarray:
        c = np.where(np.isnan(coef), 0.0, coef)
        if self.fit_intercept:
            slopes = c[1:]
            eta = self.X @ slopes if slopes.any() else np.zeros(self.X.shape[0])
            eta += c[0]
        else:
            eta = self.X @ c if c.size else np.zeros(self.X.shape[0])
        if self.has_offset:
            eta += self.offset
        return eta

    def _point(self, coef, eta, mu, valid) -> Point:
        with np.errstate(all="ignore"):
            dev = self.family.deviance(self.y, mu, self.w)
        return Point(coef, dev, valid, (eta, mu))

    def evaluate(self, coef) -> Point:
        eta = self._eta(coef)
        with np.errstate(all="ignore"):
            mu = self.link.inverse(eta)
        return self._point(coef, eta, mu, self._valid(eta, mu))

    def start(self) -> Point | None:
        mu0 = self.family.starting_mu(self.y, self.w)
        with np.errstate(all="ignore"):
            eta = self.link.link(mu0)
            mu = self.link.inverse(eta)
        finite = np.isfinite(eta) if self.pos is None else np.isfinite(eta[self.pos])
        if np.all(finite) and self._valid(eta, mu):
            return self._point(None, eta, mu, True)
        return None

    def system(self, point, check=True) -> ArraySystem | None:
        eta, mu = point.state
        with np.errstate(all="ignore"):
            mu_eta = self.link.inverse_derivative(eta)
            good = (self.w > 0) & (mu_eta != 0)
            z = self.y - mu
            z /= mu_eta
            z += eta
            if self.has_offset:
                z -= self.offset
            W = np.square(mu_eta, out=mu_eta)
            if not self.unit_weights:
                W *= self.w
            W /= self.family.variance(mu)
        if not good.all():
            z, W = z[good], W[good]
        else:
            good = None
        if check and not (np.all(np.isfinite(W)) and np.all(np.isfinite(z))):
            return None
        return ArraySystem(self, good, z, W)

    def score(self, point) -> np.ndarray:
        eta, mu = point.state
        with np.errstate(all="ignore"):
            r = self.w * (self.y - mu) * self.link.inverse_derivative(eta)
            r /= self.family.variance(mu)
        if self.pos is not None:
            r[~self.pos] = 0.0
        s = self.X.T @ r
        return np.concatenate([[r.sum()], s]) if self.fit_intercept else s

    def arrays(self, point, system):
        eta, mu = point.state
        return eta, mu, system.working_weights()


def _as_1d(v, n, name):
    a = np.asarray(v, dtype=np.float64)
    if a.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},); got {a.shape}")
    return a


def irls(
    X,
    y,
    *,
    family,
    link,
    sample_weight=None,
    offset=None,
    fit_intercept=True,
    alpha=0.0,
    l1_ratio=0.0,
    coef_init=None,
    max_iter=25,
    tol=1e-8,
    rank_tol=None,
) -> IRLSResult:
    """Fit a generalised linear model by IRLS; see the module docstring.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        In the family's domain (checked by the caller).
    family, link : str or family/link object
        From :mod:`statlearning._core.families` and :mod:`statlearning._core.links`.
    sample_weight : ndarray of shape (n_samples,), optional
        Non-negative prior weights (binomial: numbers of trials).
    offset : ndarray of shape (n_samples,), optional
        Added to the linear predictor.
    fit_intercept : bool
    alpha, l1_ratio : float
        Penalty strength and elastic-net mixing (``alpha = 0``: maximum likelihood).
    coef_init : ndarray of shape (k,), optional
        Starting coefficients (intercept first), R's ``start``.
    max_iter : int
    tol : float
    rank_tol : float, optional
        Aliasing tolerance of the QR; default R's ``glm.fit`` choice ``min(1e-7, tol/1000)``.

    Returns
    -------
    IRLSResult

    Raises
    ------
    ValueError
        When no valid starting values can be found (R's "cannot find valid starting values").
    """
    fam, lnk = get_family(family), get_link(link)
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    y = _as_1d(y, n, "y")
    w = np.ones(n) if sample_weight is None else _as_1d(sample_weight, n, "sample_weight")
    off = np.zeros(n) if offset is None else _as_1d(offset, n, "offset")
    data = ArrayData(X, y, fam, lnk, w, off, bool(fit_intercept), float(alpha), float(l1_ratio))
    # every product of the iterations is a row block or a k × k matrix: one BLAS thread each;
    # always one when the weighted Gram runs in parts side by side (gram_parts)
    flops = BLOCK_ROWS * (data.k + 1) ** 2 if gram_parts(X.shape[0], data.k + 1) < 2 else None
    with single_blas_thread(flops, quiet_above=PRODUCT_THREADS_FROM):
        return fit_irls(data, coef_init=coef_init, max_iter=max_iter, tol=tol, rank_tol=rank_tol)


def fit_irls(data: IRLSData, *, coef_init=None, max_iter=25, tol=1e-8, rank_tol=None):
    """The iterations of :func:`irls` on any :class:`IRLSData` provider.

    Parameters
    ----------
    data : IRLSData
    coef_init : ndarray of shape (k,), optional
    max_iter : int
    tol : float
    rank_tol : float, optional
        Default ``min(1e-7, tol/1000)``.

    Returns
    -------
    IRLSResult
    """
    if data.k == 0:
        return _empty_fit(data)
    if rank_tol is None:
        rank_tol = min(1e-7, tol / 1000.0)
    return _iterate(data, coef_init, rank_tol, tol, max_iter)


def _iterate(data, coef_init, rank_tol, tol, max_iter) -> IRLSResult:
    """The iterations of :func:`irls` and the final solve."""
    coefold, point, penold = _start(data, coef_init)
    solver = _Solver(data, rank_tol, tol)
    history: list = []
    converged = boundary = False
    coef = coefold
    n_iter = 0
    chord = False
    last_change = np.inf
    for n_iter in range(1, max_iter + 1):  # noqa: B007 - n_iter is reported after the loop
        step = solver.chord_step(point, coef) if chord else solver.step(point, coef)
        if step is None:  # non-finite coefficients (R: "non-finite coefficients at iteration")
            break
        coef = step
        point = data.evaluate(coef)
        dev, pen, ok = data.values(point, coef)
        solver.last_halved = False
        if coefold is None and not ok:  # R would stop: restart from the intercept-only model
            coefold, _, penold = _intercept_only(data)
        # R halves only a step that leaves the domain or gives a non-finite deviance; penalised
        # fits (no R counterpart) also halve a step that increases the penalised deviance
        increased = (
            data.alpha > 0 and coefold is not None and pen - penold >= tol * (abs(pen) + 0.1)
        )
        boundary = not ok  # R: reset every iteration, set when the step was halved
        if not ok:
            coef, point, dev, pen, ok = _halve_r(data, coef, coefold, max_iter)
            solver.last_halved = True
            if not ok:  # cannot leave the invalid region: keep the last valid iterate
                coef = coefold
                point = data.evaluate(coef)
                dev, pen, _ = data.values(point, coef)
        elif increased:
            coef, point, dev, pen, ok = _halve(data, coef, coefold, penold, tol)
            solver.last_halved = True
            if not ok:
                coef = coefold
                point = data.evaluate(coef)
                dev, pen, _ = data.values(point, coef)
        history.append(float(dev))
        change = abs(pen - penold) / (abs(pen) + 0.1)
        if chord:  # a chord step contracts the error only linearly: a stricter test
            if change < max(tol**1.5, _CHORD_FLOOR):
                converged = True
                break
            chord = change < 0.1 * last_change  # slow contraction: refresh the Hessian
        elif change < tol:
            converged = True
            break
        else:  # ridge fits close to the optimum reuse the last factorisation
            chord = solver.can_chord and change < np.sqrt(tol)
        coefold, penold, last_change = coef, pen, change
    if coef is None:  # not a single valid step
        raise ValueError(
            "the first iteration gave non-finite coefficients; the design may be degenerate"
        )
    return solver.finish(coef, point, n_iter, converged, boundary, history)


def _empty_fit(data) -> IRLSResult:
    """No column at all (R's ``EMPTY`` model): ``η`` is the offset."""
    coef = np.zeros(0)
    point = data.evaluate(coef)
    system = data.system(point, check=False)
    eta, mu, ww = data.arrays(point, system)
    return IRLSResult(
        x=coef, n_iter=0, converged=True, coef=coef, kept=np.zeros(0, bool), deviance=point.dev,
        unscaled_cov=np.zeros((0, 0)) if data.alpha == 0 else None, rank=0, eta=eta, mu=mu,
        working_weights=ww, penalized_deviance=point.dev, weights_at=point,
    )  # fmt: skip


def _intercept_only(data):
    """Safe starting coefficients, the constant model ``μ = ȳ_w`` or else ``η = offset``, with
    their point and penalised deviance."""
    candidates = []
    if data.fit_intercept:
        coef = np.zeros(data.k)
        with np.errstate(all="ignore"):
            coef[0] = data.link.link(np.array([data.weighted_mean_y]))[0]
        candidates.append(coef)
    candidates.append(np.zeros(data.k))
    for coef in candidates:
        if np.all(np.isfinite(coef)):
            point = data.evaluate(coef)
            _, pen, ok = data.values(point, coef)
            if ok:
                return coef, point, pen
    raise ValueError(
        "cannot find valid starting values for the iterations (the starting means are outside "
        f"the domain of the {data.link.name!r} link or of the {data.family.name!r} family); "
        "pass starting coefficients (coef_init)"
    )


def _start(data, coef_init):
    """``(coefold, point, penalised D)`` to start from: given coefficients, R's ``mustart``
    (``coefold = None``), or the constant fit."""
    if coef_init is not None:
        coef = _as_1d(coef_init, data.k, "coef_init").copy()
        point = data.evaluate(coef)
        _, pen, ok = data.values(point, coef)
        if not ok:
            raise ValueError("coef_init gives fitted means outside the family's domain")
        return coef, point, pen
    if data.alpha > 0:  # penalised: start from the null model, as glmnet does
        try:
            return _intercept_only(data)
        except ValueError:
            pass
    point = data.start()
    if point is not None:
        return None, point, point.dev
    return _intercept_only(data)


def _halve_r(data, coef, coefold, max_halvings):
    """R's two inner loops of ``glm.fit``: halve the step towards ``coefold`` until the deviance
    is finite ("step size truncated due to divergence"), then until ``η`` and ``μ`` are valid
    ("step size truncated: out of bounds"), at most ``max_halvings`` times each (R's
    ``maxit``). ``ok`` is false when a loop gave up (where R stops with an error)."""
    c = np.where(np.isnan(coef), 0.0, coef)
    c_old = np.where(np.isnan(coefold), 0.0, coefold)
    point = data.evaluate(c)
    ok = True
    for broken in (
        lambda pt: not np.isfinite(pt.dev),  # inner loop 1: divergence
        lambda pt: not pt.valid,  # inner loop 2: out of bounds
    ):
        halvings = 0
        while ok and broken(point):
            if halvings >= max_halvings:
                ok = False
                break
            halvings += 1
            c = 0.5 * (c + c_old)
            point = data.evaluate(c)
    dev = point.dev
    ok = ok and bool(np.isfinite(dev))
    pen = dev + 2.0 * data.sum_w * data.penalty(c)
    coef = np.where(np.isnan(coef), np.nan, c)
    return coef, point, dev, pen, ok


def _halve(data, coef, coefold, penold, tol):
    """Penalised fits: halving towards ``coefold`` until valid and not increasing."""
    c = np.where(np.isnan(coef), 0.0, coef)
    c_old = np.where(np.isnan(coefold), 0.0, coefold)
    point = None
    dev = pen = np.nan
    ok = False
    for _ in range(MAX_HALVINGS):
        c = 0.5 * (c + c_old)
        point = data.evaluate(c)
        dev, pen, ok = data.values(point, c)
        if ok and pen - penold < tol * (abs(pen) + 0.1):
            break
    coef = np.where(np.isnan(coef), np.nan, c)
    return coef, point, dev, pen, ok


class _Solver:
    """One weighted least-squares solve per iteration; remembers the last one for ``finish``."""

    def __init__(self, data, rank_tol, tol):
        self.data = data
        self.rank_tol = rank_tol
        self.tol = tol
        self.use_qr = False
        self.last = None  # (point, system, solved_by_qr)
        self.last_fac = None
        self.last_chol = None  # Cholesky factor U of the last unpenalised solve
        self.last_halved = False
        self.inner_converged = True
        self.factor = None  # Cholesky factor of the last ridge system
        self.can_chord = data.alpha > 0 and data.l1_ratio == 0

    def step(self, point, coef):
        """The next coefficients, or ``None`` when they are not finite."""
        system = self.data.system(point)
        if system is None:
            self.last = None
            return None
        data = self.data
        if data.alpha > 0:
            new = self._penalised(system, coef)
            self.last = (point, system, False)
        else:
            self.last_chol = None
            new = None if self.use_qr else self._cholesky(system)
            if new is None:
                self.use_qr = True
                fac = system.qr(self.rank_tol)
                self.last_fac = fac
                new = fac.coef
            self.last = (point, system, self.use_qr)
        kept = ~np.isnan(new)
        if not np.all(np.isfinite(new[kept])):
            self.last = None
            return None
        return new

    def chord_step(self, point, coef):
        """A Newton step with the last factorised Hessian (ridge fits near the optimum).

        ``θ ← θ − H⁻¹ ∇Φ(θ)`` with ``Φ = D/2 + Σw · α/2 ‖β‖²`` and ``H`` the previous
        iteration's ``AᵀWA + Σw α`` (the fixed point is the exact optimum): one gradient instead
        of a new weighted Gram matrix.
        """
        data = self.data
        grad = -self.data.score(point)
        c = np.where(np.isnan(coef), 0.0, coef)
        if data.fit_intercept:
            grad[1:] += data.sum_w * data.alpha * c[1:]
        else:
            grad += data.sum_w * data.alpha * c
        new = c - linalg.cho_solve(self.factor, grad, check_finite=False)
        return new if np.all(np.isfinite(new)) else None

    def _cholesky(self, system):
        """Normal equations by Cholesky; ``None`` if some column is close to collinear."""
        G = system.gram()
        k = self.data.k
        U, info = lapack.dpotrf(G[:k, :k], lower=0, clean=1)
        diag = np.diag(G)[:k]
        if info != 0 or np.any(np.diag(U) ** 2 < _CHOLESKY_MARGIN * np.where(diag > 0, diag, 1)):
            return None
        self.last_chol = U
        return linalg.cho_solve((U, False), G[:k, k], check_finite=False)

    def _penalised(self, system, coef):
        data = self.data
        if data.l1_ratio == 0.0:
            G = system.gram()
            k = data.k
            A = np.array(G[:k, :k])
            idx = np.arange(1 if data.fit_intercept else 0, k)
            A[idx, idx] += data.sum_w * data.alpha
            self.factor = linalg.cho_factor(A, lower=False, overwrite_a=True, check_finite=False)
            return linalg.cho_solve(self.factor, G[:k, k], check_finite=False)
        new, inner = system.coordinate_descent(coef, self.tol)
        self.inner_converged = self.inner_converged and inner
        return new

    def finish(self, coef, point, n_iter, converged, boundary, history) -> IRLSResult:
        """Final QR (aliasing and ``(AᵀWA)⁻¹`` as R) and the result."""
        data = self.data
        if self.last is None:  # the last step failed: linearise at the returned coefficients
            self.last = (point, data.system(point, check=False), False)
            self.last_halved = True  # keep coef: it is not the solution of this problem
        at, system, by_qr = self.last
        unscaled = None
        kept = np.ones(data.k, bool)
        rank = data.k
        if data.alpha == 0:
            fac = self.last_fac
            if not by_qr and cholesky_stands_for_qr(self.last_chol, self.rank_tol):
                # the Cholesky solve was this problem's: coefficients and (AᵀWA)⁻¹ from U
                fac = Factorisation(coef, kept, inverse_from_r(self.last_chol), rank)
            elif not by_qr:
                fac = system.qr(self.rank_tol)
                if not self.last_halved:  # R's final coefficients are this solve's
                    coef = fac.coef
                    point = data.evaluate(coef)
            kept, rank, unscaled = fac.kept, fac.rank, fac.unscaled_cov
            coef = np.where(kept, coef, np.nan)
        dev = point.dev
        pen = dev + 2.0 * data.sum_w * data.penalty(np.where(np.isnan(coef), 0.0, coef))
        eta, mu, W = data.arrays(point, system)
        return IRLSResult(
            x=coef, n_iter=n_iter, converged=bool(converged and self.inner_converged),
            history=history, coef=coef, kept=kept, deviance=dev, unscaled_cov=unscaled,
            rank=int(rank), eta=eta, mu=mu, working_weights=W, boundary=bool(boundary),
            penalized_deviance=pen, weights_at=at,
        )  # fmt: skip
