"""The cubic smoothing spline as R's ``smooth.spline`` computes it (private maths on ndarrays).

Minimise over cubic splines ``g`` on the B-spline basis ``B`` of the knot vector ``knots``
(x rescaled to ``[0, 1]``)

    Σ_i w̄_i (ȳ_i − g(x̄_i))² + λ ∫ g''(t)² dt,

i.e. solve the banded system ``(BᵀWB + λΩ) c = BᵀWȳ`` (bandwidth 3) in ``O(n)`` by a banded
Cholesky factorisation (compiled for this bandwidth, where LAPACK's per-call overhead
dominates). Leverages ``S_ii = w̄_i bᵢᵀ(BᵀWB + λΩ)⁻¹bᵢ``
come from the band of the inverse (Hutchinson–de Hoog, :mod:`._smoothing_kernels`), so that
``df = tr S``, GCV and leave-one-out CV cost ``O(n)`` per λ.

R's conventions, reproduced exactly: duplicated x (within ``1e-6·IQR(x)``) are merged with
summed weights and weighted mean responses, their within-group sum of squares added to the
residual sum of squares; weights are normalised to mean one over the positive ones; R's
``spar`` maps to ``λ = r · 256^(3·spar − 1)`` with ``r = tr(BᵀWB)/tr(Ω)`` over the diagonal
entries 3 … nk−3 (1-based, as R's ``sbart``); ``all_knots=False`` keeps R's
``.nknots.smspl(n)`` knots. The pieces (:func:`penalty_band`, :func:`gram_band`,
:func:`solve_band`) serve any penalised B-spline smoother, GAM terms included.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import optimize
from scipy.interpolate import BSpline

from ._smoothing_kernels import (
    band_quadratic_forms,
    banded_cholesky_solve,
    banded_inverse,
    fit_summary,
)
from .selection import golden_section_fmin
from .splines import in_sorted_order

__all__ = [
    "SplineSystem",
    "collapse_ties",
    "extrapolated_rows",
    "gram_band",
    "lambda_for_df",
    "lambda_for_df_gam",
    "lambda_from_spar",
    "minimise_criterion",
    "nknots_smspl",
    "penalty_band",
    "row_values",
    "smoothing_knots",
    "solve_band",
]


def nknots_smspl(n: int) -> int:
    """R's ``.nknots.smspl(n)``: the number of knots ``smooth.spline`` keeps for ``n``
    unique x when ``all.knots = FALSE``."""
    if n < 50:
        return n
    a1, a2, a3, a4 = np.log2(50), np.log2(100), np.log2(140), np.log2(200)
    if n < 200:
        v = 2 ** (a1 + (a2 - a1) * (n - 50) / 150)
    elif n < 800:
        v = 2 ** (a2 + (a3 - a2) * (n - 200) / 600)
    elif n < 3200:
        v = 2 ** (a3 + (a4 - a3) * (n - 800) / 2400)
    else:
        v = 200 + (n - 3200) ** 0.2
    return int(np.trunc(v))


def collapse_ties(x, y, w, tol):
    """Merge x values equal to within ``tol`` (R: ``round((x − mean(x))/tol)``).

    Returns
    -------
    ux, wbar, ybar : ndarray of shape (nx,)
        Sorted unique x (the first of each group in data order), summed weights, weighted
        mean responses.
    yssw : float
        Σ w (y − ȳ_group)², the within-group sum of squares.
    inverse : ndarray of int, shape (n,)
        Group of every observation.
    """
    xx = np.round((x - x.mean()) / tol)
    _, first, inverse = np.unique(xx, return_index=True, return_inverse=True)
    ux = x[first]
    wbar = np.bincount(inverse, weights=w)
    sy = np.bincount(inverse, weights=w * y)
    ybar = np.divide(sy, wbar, out=np.zeros_like(sy), where=wbar > 0)
    yssw = float(np.sum(w * (y - ybar[inverse]) ** 2)) if ux.size < x.size else 0.0
    return ux, wbar, ybar, yssw, inverse


def smoothing_knots(xbar, all_knots: bool, rule: str = "smooth.spline") -> np.ndarray:
    """Full cubic knot vector on the rescaled unique x: every x (``all_knots``) or
    ``.nknots.smspl(nx)`` of them, boundary knots fourfold.

    ``rule="smooth.spline"`` picks R's ``xbar[seq.int(1, nx, length.out = m)]`` (positions in
    floating point, truncated); ``rule="gam"`` the gam package's ``sknotl``, positions
    ``1 + ⌊j (nx − 1)/(m − 1)⌋`` in integer arithmetic (the two differ where the floating-point
    position falls just below an integer).
    """
    nx = xbar.size
    if all_knots:
        inner = xbar
    else:
        m = nknots_smspl(nx)
        if rule == "gam":
            idx = (np.arange(m, dtype=np.int64) * (nx - 1)) // (m - 1)
        else:
            by = (nx - 1.0) / (m - 1.0)
            pos = 1.0 + np.arange(m) * by
            pos[0], pos[-1] = 1.0, float(nx)
            idx = np.trunc(pos).astype(np.int64) - 1
        inner = xbar[idx]
    return np.concatenate([np.repeat(xbar[0], 3), inner, np.repeat(xbar[-1], 3)])


def _inv(d):
    out = np.zeros_like(d)
    np.divide(1.0, d, out=out, where=d > 0)
    return out


#: R's ``sgram`` integrates the square of the linear B'' with 0.3330 for ∫₀¹ t² dt.
R_SGRAM_THIRD = 0.3330


def penalty_band(knots, third: float = R_SGRAM_THIRD) -> np.ndarray:
    """Upper band (LAPACK storage, shape ``(4, nk)``) of ``Ω_jk = ∫ B_j''(t) B_k''(t) dt``.

    On each knot interval ``B_j''`` is linear, ``a_j + s_j u`` for ``u ∈ [0, 1]``, so
    ``∫ B_j'' B_k'' = h (a_j a_k + (a_j s_k + s_j a_k)/2 + third · s_j s_k)``: exact with
    ``third = 1/3``; R's ``sgram`` uses 0.3330 (the default here, so that ``λ`` is R's).
    The end values come from ``B_j'' = 6 Σ_i c_ji L_i`` with ``L_i`` the linear B-splines
    (``L_{m-1}`` is 1 at the left end of interval ``m`` and ``L_m`` at its right end).
    """
    t = np.asarray(knots, dtype=np.float64)
    nk = t.size - 4
    j = np.arange(nk)
    a = _inv(t[j + 3] - t[j])
    b = _inv(t[j + 4] - t[j + 1])
    coef = np.zeros((nk, 3))  # B_j'' = 6 (coef[j,0] L_j + coef[j,1] L_{j+1} + coef[j,2] L_{j+2})
    coef[:, 0] = _inv(t[j + 2] - t[j]) * a
    coef[:, 1] = -_inv(t[j + 3] - t[j + 1]) * (a + b)
    coef[:, 2] = _inv(t[j + 4] - t[j + 2]) * b
    m = np.arange(3, nk)  # intervals [t_m, t_{m+1}] where four cubic B-splines live
    h = t[m + 1] - t[m]
    m, h = m[h > 0], h[h > 0]
    left = np.zeros((m.size, 4))
    right = np.zeros((m.size, 4))
    for r in range(4):  # B-spline j = m − 3 + r
        jj = m - 3 + r
        il, ir = (m - 1) - jj, m - jj  # position of L_{m-1}, L_m in row jj
        ok = (il >= 0) & (il <= 2)
        left[ok, r] = 6.0 * coef[jj[ok], il[ok]]
        ok = (ir >= 0) & (ir <= 2)
        right[ok, r] = 6.0 * coef[jj[ok], ir[ok]]
    s = right - left
    band = np.zeros((4, nk))
    contiguous = m.size > 0 and m[-1] - m[0] == m.size - 1  # no empty interval inside
    for r in range(4):
        for q in range(r, 4):
            v = h * (
                left[:, r] * left[:, q]
                + 0.5 * (s[:, r] * left[:, q] + s[:, q] * left[:, r])
                + third * s[:, r] * s[:, q]
            )
            if contiguous:  # column m − 3 + q of each interval, in order
                band[3 - (q - r), m[0] - 3 + q : m[-1] - 2 + q] += v
            else:
                band[3 - (q - r)] += np.bincount(m - 3 + q, weights=v, minlength=nk)
    return band


def basis_rows(knots, x):
    """The four non-zero cubic B-spline values at each ``x`` and the index of the first."""

    def rows(v):
        D = BSpline.design_matrix(v, knots, 3)
        return D.data.reshape(-1, 4), D.indices.reshape(-1, 4)[:, 0].astype(np.int64)

    return in_sorted_order(rows, x)


def extrapolated_rows(knots, xs):
    """Rows ``a(x)`` (four non-zero entries from column ``first``) with ``g(x) = a(x)ᵀc`` for
    the cubic spline on ``knots`` (boundary knots 0 and 1, fourfold), continued linearly
    beyond ``[0, 1]`` (R's ``predict.smooth.spline`` and the gam package's ``gam.sp``)."""
    xs = np.asarray(xs, dtype=np.float64)
    vals, first = basis_rows(knots, np.clip(xs, 0.0, 1.0))
    for side, end in ((xs < 0, 0.0), (xs > 1, 1.0)):
        if side.any():
            i = 0 if end == 0.0 else knots.size - 8
            local = BSpline(knots[i : i + 8], np.eye(4), 3)
            v0, v1 = local(end), local(end, nu=1)
            vals[side] = v0 + (xs[side, None] - end) * v1
            first[side] = i
    return vals, first


def row_values(vals, first, coef) -> np.ndarray:
    """``a(x)ᵀc`` for rows from :func:`basis_rows` or :func:`extrapolated_rows`."""
    return np.einsum("ij,ij->i", vals, coef[first[:, None] + np.arange(4)])


def gram_band(vals, first, w, nk):
    """Upper band of ``BᵀWB`` (shape ``(4, nk)``) from the rows' four non-zero values."""
    band = np.zeros((4, nk))
    for a in range(4):
        for b in range(a, 4):
            band[3 - (b - a)] += np.bincount(
                first + b, weights=w * vals[:, a] * vals[:, b], minlength=nk
            )
    return band


def _xwy(vals, first, wy, nk):
    out = np.zeros(nk)
    for a in range(4):
        out += np.bincount(first + a, weights=wy * vals[:, a], minlength=nk)
    return out


@dataclass
class SplineSystem:
    """The penalised least-squares problem at the unique, rescaled x."""

    knots: np.ndarray
    vals: np.ndarray  # (nx, 4) non-zero basis values
    first: np.ndarray  # (nx,) first non-zero column
    w: np.ndarray  # (nx,) summed weights
    y: np.ndarray  # (nx,) weighted mean responses
    yssw: float
    gram: np.ndarray  # (4, nk)
    xwy: np.ndarray  # (nk,)
    penalty: np.ndarray  # (4, nk)

    @classmethod
    def build(cls, xbar, ybar, wbar, yssw, knots):
        vals, first = basis_rows(knots, xbar)
        return cls.from_rows(knots, vals, first, penalty_band(knots), wbar, ybar, yssw)

    @classmethod
    def from_rows(cls, knots, vals, first, penalty, wbar, ybar, yssw=0.0):
        """The system from basis rows and a penalty band already computed (a smoother
        refitted with new weights: backfitting's working weights)."""
        nk = knots.size - 4
        gram = gram_band(vals, first, wbar, nk)
        return cls(knots, vals, first, wbar, ybar, yssw, gram, _xwy(vals, first, wbar * ybar, nk),
                   penalty)  # fmt: skip

    def with_response(self, ybar, yssw=0.0) -> SplineSystem:
        """The same basis, weights and penalty with responses ``ybar`` (only ``BᵀWȳ`` is
        recomputed)."""
        xwy = _xwy(self.vals, self.first, self.w * ybar, self.xwy.size)
        return SplineSystem(self.knots, self.vals, self.first, self.w, ybar, yssw, self.gram,
                            xwy, self.penalty)  # fmt: skip

    @property
    def ratio(self) -> float:
        """R's ``r = tr(BᵀWB) / tr(Ω)`` over the diagonal entries 3 … nk−3 (1-based)."""
        nk = self.xwy.size
        return float(self.gram[3, 2 : nk - 3].sum() / self.penalty[3, 2 : nk - 3].sum())


@dataclass
class SplineFit:
    coef: np.ndarray
    fitted: np.ndarray
    leverages: np.ndarray | None
    inverse_band: np.ndarray | None
    df: float


def solve_band(system: SplineSystem, lam: float, leverages: bool = True) -> SplineFit:
    """Coefficients, fitted values and (``leverages``) the leverages and ``tr S`` at ``λ``."""
    ab = system.gram + lam * system.penalty
    U = np.zeros(ab.shape)
    coef = np.empty(ab.shape[1])
    info = banded_cholesky_solve(ab, system.xwy, U, coef)
    if info:
        raise np.linalg.LinAlgError(
            f"the penalised system is not positive definite at lambda={lam:g} (minor {info})"
        )
    rows = system.first[:, None] + np.arange(4)
    fitted = np.einsum("ij,ij->i", system.vals, coef[rows])
    if not leverages:
        return SplineFit(coef, fitted, None, None, float("nan"))
    inv = np.empty(U.shape)
    banded_inverse(U, inv)
    lev = quadratic_forms(system.vals, system.first, inv) * system.w
    return SplineFit(coef, fitted, lev, inv, float(lev.sum()))


def df_and_rss(system: SplineSystem, lam: float) -> tuple[float, float]:
    """``(tr S_λ, Σ w̄ (ȳ − ŷ)²)`` at ``λ`` in one compiled call (what the λ searches need)."""
    ab = system.gram + lam * system.penalty
    U = np.zeros(ab.shape)
    coef = np.empty(ab.shape[1])
    inv = np.empty(ab.shape)
    out = np.empty(2)
    info = fit_summary(
        ab, system.xwy, system.gram, system.vals, system.first, system.w, system.y, U, coef,
        inv, out,
    )  # fmt: skip
    if info:
        raise np.linalg.LinAlgError(
            f"the penalised system is not positive definite at lambda={lam:g} (minor {info})"
        )
    return float(out[0]), float(out[1])


def quadratic_forms(vals, first, inv) -> np.ndarray:
    """``bᵢᵀ Σ bᵢ`` for rows ``bᵢ`` with four non-zero entries from column ``first[i]``."""
    out = np.empty(vals.shape[0])
    band_quadratic_forms(
        inv, np.ascontiguousarray(vals), np.ascontiguousarray(first, dtype=np.int64), out
    )
    return out


def lambda_from_spar(ratio: float, spar: float) -> float:
    """R's ``λ = r · 256^(3·spar − 1)``."""
    return float(ratio * 256.0 ** (3.0 * spar - 1.0))


#: Fits within this fraction of the number of unique x of interpolation are not scored: there
#: ``1 − S_ii`` and ``1 − df/n`` are below the leverages' rounding error and the criteria are
#: noise (they fall to 0/0).
NEAR_INTERPOLATION = 1e-4


def criterion_value(system: SplineSystem, fit: SplineFit, criterion: str) -> float:
    """R's ``sslvrg`` criteria: GCV ``(RSS/Σw)/(1 − df/Σw)²`` (RSS including the
    within-tie sum of squares) or ordinary leave-one-out CV at the unique x; ``inf`` within
    :data:`NEAR_INTERPOLATION` of interpolation."""
    r = system.y - fit.fitted
    if criterion == "gcv":
        return gcv_value(system, fit.df, float(np.sum(system.w * r * r)))
    if fit.df > system.y.size * (1.0 - NEAR_INTERPOLATION):
        return float("inf")
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.mean(system.w * (r / (1.0 - fit.leverages)) ** 2))


def gcv_value(system: SplineSystem, df: float, rss: float) -> float:
    """GCV from ``tr S`` and the weighted RSS at the unique x (the within-tie sum of squares
    is added); ``inf`` within :data:`NEAR_INTERPOLATION` of interpolation."""
    if df > system.y.size * (1.0 - NEAR_INTERPOLATION):
        return float("inf")
    sumw = system.w.sum()
    return float(((system.yssw + rss) / sumw) / (1.0 - df / sumw) ** 2)


def lambda_for_df(system: SplineSystem, df: float, tol: float = 1e-13) -> float:
    """The ``λ`` with ``tr S_λ = df`` (root of a decreasing function of ``spar``).

    Raises
    ------
    ValueError
        Naming ``df`` when no ``λ`` representable in floating point reaches it: ``df ≤ 2``
        (the trace of the least-squares line, the limit ``λ → ∞``) or so close to 2 that the
        penalised system stops being positive definite first.
    """
    ratio = system.ratio
    if not df > 2.0:
        raise ValueError(
            f"df={df:g} is not reachable: the smoother's trace exceeds 2, that of the "
            "least-squares line (lambda -> infinity); choose df > 2."
        )

    def gap(spar):
        return df_and_rss(system, lambda_from_spar(ratio, spar))[0] - df

    lo, hi = -1.5, 1.5
    try:
        for _ in range(20):
            if gap(lo) > 0:
                break
            lo -= 1.0
        for _ in range(20):
            if gap(hi) < 0:
                break
            hi += 1.0
        spar = optimize.brentq(gap, lo, hi, xtol=tol, rtol=4 * np.finfo(float).eps, maxiter=500)
    except (np.linalg.LinAlgError, ValueError):
        raise ValueError(
            f"df={df:g} needs a lambda so large (or small) that the penalised system is not "
            "positive definite in floating point; choose a df further from 2 and from the "
            "number of unique x."
        ) from None
    return lambda_from_spar(ratio, spar)


#: The gam package's ``splsm`` settings of ``sbart``'s search for ``s(x, df)``: ``spar`` in
#: ``[−1.5, 2]``, ``tol = 1e-4``, ``eps = 2e-8``, at most 200 iterations.
GAM_SPAR_SEARCH = {"a": -1.5, "b": 2.0, "tol": 1e-4, "eps": 2e-8, "max_iter": 200}


def lambda_for_df_gam(system: SplineSystem, df: float, last: bool = False) -> float:
    """The ``λ`` the gam package's ``s(x, df)`` takes for ``tr S_λ = df``: ``sbart``'s
    golden-section search of ``(df − tr S)²`` over ``spar`` with gam's settings
    (:data:`GAM_SPAR_SEARCH`), so ``tr S_λ`` is ``df`` to about ``1e-5`` only; see
    :func:`lambda_for_df` for the exact root. ``last``: the last ``spar`` the search
    evaluated instead of the best, where ``sbart`` leaves its fit (what gam's ``gam.s``
    returns)."""
    ratio = system.ratio

    def crit(spar):  # R's criterion 3 + (df − tr S)², rounding of the 3 included
        try:
            return 3.0 + (df - df_and_rss(system, lambda_from_spar(ratio, spar))[0]) ** 2
        except np.linalg.LinAlgError:
            return np.inf

    best, _, final = golden_section_fmin(crit, **GAM_SPAR_SEARCH)
    return lambda_from_spar(ratio, final if last else best)


#: Tolerance on ``spar`` of the GCV/LOOCV search (R's ``control.spar`` default is ``1e-4``).
SPAR_TOL = 1e-6


def minimise_criterion(system: SplineSystem, criterion: str, low=-1.5, high=1.5, top=5.0):
    """``(λ, value)`` minimising GCV or LOOCV over ``spar``.

    R's own search first: ``sbart``'s golden section with parabolic steps on R's range
    ``[low, high]`` (:func:`~statlearning._core.selection.golden_section_fmin`, so the
    minimum it settles in is R's when the criterion has several), to ``spar`` within
    :data:`SPAR_TOL` instead of R's ``1e-4`` (about 15–25 evaluations). When it ends at
    ``high`` with the criterion still decreasing (large n: R's range stops short of the
    minimum), the criterion is followed upwards in steps of 0.25 until it increases (at most
    to ``spar = top``, where the fit is the least-squares line to many digits) and the same
    search runs again between the neighbours of the best point."""
    ratio = system.ratio

    def crit(spar):
        lam = lambda_from_spar(ratio, spar)
        try:
            if criterion == "gcv":
                return gcv_value(system, *df_and_rss(system, lam))
            return criterion_value(system, solve_band(system, lam), criterion)
        except np.linalg.LinAlgError:
            # a λ so large that rounding breaks positive definiteness (x of tiny spread)
            # is no candidate; the search goes on among the others
            return np.inf

    search = {"tol": SPAR_TOL, "eps": 2e-8}
    spar, value, _ = golden_section_fmin(crit, low, high, **search)
    if spar > high - 1e-3:
        points, values = [spar], [value]
        while points[-1] < top:
            points.append(min(max(points[-1], high) + 0.25, top))
            values.append(crit(points[-1]))
            if values[-1] > values[-2]:
                break
        k = int(np.argmin(values))
        lo, hi = points[max(k - 1, 0)], points[min(k + 1, len(points) - 1)]
        if hi > lo:
            s2, v2, _ = golden_section_fmin(crit, lo, hi, **search)
            if v2 < values[k]:
                points[k], values[k] = s2, v2
        spar, value = points[k], values[k]
    return lambda_from_spar(ratio, spar), float(value)
