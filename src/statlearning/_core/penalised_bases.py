"""Penalised regression-spline bases with mgcv's conventions (private maths on ndarrays).

* :func:`cr_knots`, :func:`cr_basis`, :func:`cr_penalty`: mgcv's cubic regression spline
  (``bs="cr"``). Knots at the type-7 quantiles of the unique x; the basis is *cardinal* (the
  coefficients are the function's values at the knots, second derivative zero at the end
  knots) and continued linearly beyond the end knots; the penalty is ``∫ f''(x)² dx = βᵀSβ``
  with ``S = DᵀB⁻¹D`` (Wood, *Generalized Additive Models*, 2nd ed., §5.3.1).
* :func:`bs_knots`, :func:`bs_basis`, :func:`bs_penalty`: mgcv's B-spline basis ``bs="bs"``
  (cubic, ``k − 2`` evenly spaced knot intervals over the range of x, extended by three
  intervals each side) with the exact integrated squared second-derivative penalty.
* :func:`scale_penalty`: mgcv's ``smoothCon(scale.penalty=TRUE)`` rescaling
  ``S ← S · ‖X‖∞² / ‖S‖₁``, which makes mgcv's smoothing parameters comparable across terms.
* :func:`sum_to_zero`: mgcv's identifiability constraint ``1ᵀXβ = 0`` absorbed by the QR of
  ``Xᵀ1``: ``Z`` spans the null space of the constraint, the term's basis becomes ``XZ`` and its
  penalties ``ZᵀSZ``.
* :class:`ThinPlate`: mgcv's thin plate regression spline ``bs="tp"`` (Wood, 2003): the
  truncated eigen-basis of the thin plate radial functions at the unique covariate values.
* :func:`tensor_rows`, :func:`tensor_penalties`: row-wise Kronecker products of marginal
  bases, and one penalty ``S_j ⊗ I`` per margin (mgcv's ``te``).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
from scipy import linalg

from .linalg import symmetric_eigh

__all__ = [
    "ThinPlate",
    "bs_basis",
    "bs_knots",
    "bs_penalty",
    "cr_basis",
    "cr_knots",
    "cr_penalty",
    "scale_penalty",
    "sum_to_zero",
    "tensor_penalties",
    "tensor_rows",
]


def cr_knots(x, k: int) -> np.ndarray:
    """mgcv's ``cr`` knots: ``quantile(unique(x), seq(0, 1, length = k))`` (type 7)."""
    return np.quantile(np.unique(np.asarray(x, dtype=np.float64)), np.linspace(0.0, 1.0, k))


def _cr_matrices(knots):
    """``D`` ((k−2) × k), ``B`` ((k−2) × (k−2)) and ``F⁺`` (k × k, zero first and last rows)."""
    h = np.diff(knots)
    k = knots.size
    D = np.zeros((k - 2, k))
    B = np.zeros((k - 2, k - 2))
    i = np.arange(k - 2)
    D[i, i] = 1.0 / h[:-1]
    D[i, i + 1] = -1.0 / h[:-1] - 1.0 / h[1:]
    D[i, i + 2] = 1.0 / h[1:]
    B[i, i] = (h[:-1] + h[1:]) / 3.0
    B[i[:-1], i[:-1] + 1] = h[1:-1] / 6.0
    B[i[:-1] + 1, i[:-1]] = h[1:-1] / 6.0
    F = linalg.solve(B, D, assume_a="pos")
    Fp = np.zeros((k, k))
    Fp[1:-1] = F
    return D, F, Fp


def cr_penalty(knots) -> np.ndarray:
    """``S = DᵀB⁻¹D``: ``βᵀSβ = ∫ f''(x)² dx`` for the cardinal cubic spline."""
    D, F, _ = _cr_matrices(np.asarray(knots, dtype=np.float64))
    S = D.T @ F
    return (S + S.T) / 2.0


def cr_basis(x, knots) -> np.ndarray:
    """Cardinal cubic regression spline basis at ``x`` (linear beyond the end knots)."""
    x = np.asarray(x, dtype=np.float64)
    knots = np.asarray(knots, dtype=np.float64)
    k = knots.size
    _, _, Fp = _cr_matrices(knots)
    h = np.diff(knots)
    X = np.zeros((x.size, k))
    inside = (x >= knots[0]) & (x <= knots[-1])
    xi = x[inside]
    j = np.clip(np.searchsorted(knots, xi, side="right") - 1, 0, k - 2)
    hj = h[j]
    am = (knots[j + 1] - xi) / hj
    ap = (xi - knots[j]) / hj
    cm = ((knots[j + 1] - xi) ** 3 / hj - hj * (knots[j + 1] - xi)) / 6.0
    cp = ((xi - knots[j]) ** 3 / hj - hj * (xi - knots[j])) / 6.0
    rows = cm[:, None] * Fp[j] + cp[:, None] * Fp[j + 1]
    r = np.arange(xi.size)
    rows[r, j] += am
    rows[r, j + 1] += ap
    X[inside] = rows
    for side in (x < knots[0], x > knots[-1]):
        if not side.any():
            continue
        left = bool(np.all(x[side] < knots[0]))
        e = np.zeros(k)
        slope = np.zeros(k)
        if left:
            h0 = h[0]
            e[0] = 1.0
            slope[0], slope[1] = -1.0 / h0, 1.0 / h0
            slope -= h0 / 6.0 * Fp[1]
            end = knots[0]
        else:
            hl = h[-1]
            e[-1] = 1.0
            slope[-2], slope[-1] = -1.0 / hl, 1.0 / hl
            slope += hl / 6.0 * Fp[-2]
            end = knots[-1]
        X[side] = e + (x[side] - end)[:, None] * slope
    return X


def bs_knots(x, k: int, degree: int = 3) -> np.ndarray:
    """mgcv's ``bs="bs"`` knot vector: ``k − degree + 1`` evenly spaced knots over the range
    of x widened by 1/1000 of it at each end, extended by ``degree`` equal intervals at each
    end (``k + degree + 1`` knots)."""
    x = np.asarray(x, dtype=np.float64)
    nk = k - degree + 1
    lo, hi = float(np.min(x)), float(np.max(x))
    lo, hi = lo - (hi - lo) * 0.001, hi + (hi - lo) * 0.001
    dx = (hi - lo) / (nk - 1)
    return np.linspace(lo - dx * degree, hi + dx * degree, nk + 2 * degree)


def bs_basis(x, knots, degree: int = 3) -> np.ndarray:
    """B-spline basis (``len(knots) − degree − 1`` columns); beyond the interior range the
    spline is continued linearly from the end of the range (as mgcv's ``Predict.matrix``)."""
    from scipy.interpolate import BSpline

    x = np.asarray(x, dtype=np.float64)
    t = np.asarray(knots, dtype=np.float64)
    nb = t.size - degree - 1
    lo, hi = t[degree], t[-degree - 1]
    spl = BSpline(t, np.eye(nb), degree, extrapolate=False)
    X = np.zeros((x.size, nb))
    inside = (x >= lo) & (x <= hi)
    X[inside] = spl(x[inside])
    for side, end in ((x < lo, lo), (x > hi, hi)):
        if side.any():
            v0 = spl(np.array([end]))[0]
            v1 = spl(np.array([end]), nu=1)[0]
            X[side] = v0 + (x[side] - end)[:, None] * v1
    return X


def bs_penalty(knots, degree: int = 3, m: int = 2) -> np.ndarray:
    """Exact ``∫ f^(m)(x)² dx`` over the interior knot range: Gauss–Legendre on each interval
    (the integrand is a polynomial of degree ``2(degree − m)``)."""
    from scipy.interpolate import BSpline

    t = np.asarray(knots, dtype=np.float64)
    nb = t.size - degree - 1
    spl = BSpline(t, np.eye(nb), degree, extrapolate=False)
    inner = t[degree : t.size - degree]
    nodes, weights = np.polynomial.legendre.leggauss(max(degree - m + 1, 1))
    S = np.zeros((nb, nb))
    for a, b in itertools.pairwise(inner):
        xs = (a + b) / 2.0 + (b - a) / 2.0 * nodes
        d = spl(xs, nu=m)
        S += d.T @ (d * ((b - a) / 2.0 * weights)[:, None])
    return (S + S.T) / 2.0


def scale_penalty(S, X) -> tuple[np.ndarray, float]:
    """mgcv's penalty rescaling: ``S / (‖S‖₁ / ‖X‖∞²)``; returns the scaled ``S`` and the
    divisor (``S.scale``)."""
    max_row = float(np.max(np.sum(np.abs(X), axis=1))) if X.size else 1.0
    norm_s = float(np.max(np.sum(np.abs(S), axis=0)))
    scale = norm_s / max_row**2 if norm_s > 0 and max_row > 0 else 1.0
    return S / scale, scale


def sum_to_zero(X) -> np.ndarray:
    """``Z`` (k × (k−1), orthonormal columns) spanning ``{β : 1ᵀXβ = 0}`` (the QR of the
    column means, as mgcv absorbs the constraint)."""
    c = np.mean(X, axis=0)[:, None]
    Q, _ = linalg.qr(c, mode="full")
    return Q[:, 1:]


def tensor_rows(blocks) -> np.ndarray:
    """Row-wise Kronecker product of the marginal bases (the first margin varies slowest)."""
    out = blocks[0]
    for B in blocks[1:]:
        out = (out[:, :, None] * B[:, None, :]).reshape(out.shape[0], -1)
    return out


def tensor_penalties(penalties) -> list[np.ndarray]:
    """``I ⊗ … ⊗ S_j ⊗ … ⊗ I``, one per margin."""
    dims = [S.shape[0] for S in penalties]
    out = []
    for j, S in enumerate(penalties):
        M = np.ones((1, 1))
        for i, d in enumerate(dims):
            M = np.kron(M, S if i == j else np.eye(d))
        out.append(M)
    return out


# --------------------------------------------------------------------------- thin plate
def _tp_order(d: int) -> int:
    """mgcv's default penalty order ``m`` for ``d`` covariates (``2m > d``, at least 2)."""
    return max(2, (d + 1) // 2 + 1) if d > 1 else 2


def _tp_eta(r, d: int, m: int):
    """The thin plate radial function ``η_{md}(r)`` with Duchon's constants (mgcv's)."""
    r = np.asarray(r, dtype=np.float64)
    if d % 2:  # odd d
        c = math.gamma(d / 2 - m) / (2 ** (2 * m) * math.pi ** (d / 2) * math.factorial(m - 1))
        return c * r ** (2 * m - d)
    c = (-1) ** (m + 1 + d // 2) / (
        2 ** (2 * m - 1) * math.pi ** (d / 2) * math.factorial(m - 1) * math.factorial(m - d // 2)
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        out = c * r ** (2 * m - d) * np.log(r)
    return np.where(r > 0, out, 0.0)


def _tp_powers(d: int, m: int):
    """Exponents of the null-space monomials (total degree < m), constant first."""
    out = []
    for deg in range(m):
        for combo in itertools.combinations_with_replacement(range(d), deg):
            out.append(np.bincount(np.asarray(combo, dtype=int), minlength=d))
    return np.array(out)


class ThinPlate:
    """mgcv's thin plate regression spline ``bs="tp"`` (Wood, 2003) of ``d`` covariates.

    The covariates are centred (mgcv's ``shift``); the knots are the unique rows. With
    ``E_ij = η(‖x_i − x_j‖)`` over the knots and ``T`` the polynomials of total degree
    ``< m`` (``M`` of them), the ``k`` eigenvectors ``U_k`` of ``E`` with the largest
    absolute eigenvalues ``D_k`` (ordered by value) are restricted by ``Tᵀ U_k δ = 0``
    (``Z``: mgcv's ``QT`` factorisation ``(TᵀU_k) Q = [0, R]``, Householder reflections
    from the right, ``Z`` the first ``k − M`` columns of ``Q``); the basis is ``[E U_k Z, T]``
    with penalty ``ZᵀD_kZ`` on the first block, and every column is divided by its root
    mean square over the data, as mgcv's ``construct_tprs`` does. Beyond ``max_knots``
    unique rows (mgcv's ``xt$max.knots``) a random subset of them are the knots; mgcv
    draws it with R's generator, so there the bases span different spaces.
    """

    def __init__(self, x, k: int, max_knots: int = 2000):
        x = np.asarray(x, dtype=np.float64)
        x = x[:, None] if x.ndim == 1 else x
        d = x.shape[1]
        self.d, self.m = d, _tp_order(d)
        self.powers = _tp_powers(d, self.m)
        M = self.powers.shape[0]
        self.shift = x.mean(axis=0)
        xc = x - self.shift
        self.knots = np.unique(xc, axis=0)
        if self.knots.shape[0] > max_knots:  # mgcv draws them with R's RNG (seed 1)
            pick = np.random.default_rng(1).choice(self.knots.shape[0], max_knots, replace=False)
            self.knots = self.knots[np.sort(pick)]
        nk = self.knots.shape[0]
        if k <= M or k > nk:
            raise ValueError(
                f"the thin plate basis needs {M} < k <= {nk} (unique covariate values); got k={k}"
            )
        E = _tp_eta(_distances(self.knots, self.knots), d, self.m)
        ev, U = symmetric_eigh(E)
        order = np.argsort(-np.abs(ev), kind="stable")[:k]
        order = order[np.argsort(-ev[order], kind="stable")]  # then by value, as mgcv
        Dk, Uk = ev[order], U[:, order]
        Z = _qt_null(self._null(self.knots).T @ Uk)
        self.UZ = Uk @ Z
        self.M = M
        raw = self._raw(xc)
        self.w = np.sqrt(np.mean(raw**2, axis=0))
        self.w[self.w == 0] = 1.0
        S = np.zeros((k, k))
        S[: k - M, : k - M] = Z.T @ (Dk[:, None] * Z)
        self.S = S / np.outer(self.w, self.w)

    def _null(self, xc):
        return np.prod(xc[:, None, :] ** self.powers[None, :, :], axis=2)

    def _raw(self, xc):
        E = _tp_eta(_distances(xc, self.knots), self.d, self.m)
        return np.hstack([E @ self.UZ, self._null(xc)])

    def basis(self, x) -> np.ndarray:
        """The basis at new rows ``x`` (shape ``(n,)`` or ``(n, d)``)."""
        x = np.asarray(x, dtype=np.float64)
        x = x[:, None] if x.ndim == 1 else x
        return self._raw(x - self.shift) / self.w


def _qt_null(A):
    """mgcv's ``QT``: Householder reflections ``H_r`` (row ``r`` of ``A`` reduced to its
    last working element) with ``A H_0 ⋯ H_{M−1} = [0, R]``; returns the first ``k − M``
    columns of ``H_0 ⋯ H_{M−1}``, a basis of ``{δ : Aδ = 0}``."""
    A = np.array(A, dtype=np.float64)
    M, k = A.shape
    Q = np.eye(k)
    for r in range(M):
        t = k - r
        p = A[r, :t].copy()
        scale = np.abs(p).max()
        if scale == 0:
            continue
        p /= scale
        s = math.copysign(float(np.sqrt(p @ p)), p[t - 1])
        p[t - 1] += s
        u = p / np.sqrt(s * p[t - 1])
        A[:, :t] -= np.outer(A[:, :t] @ u, u)
        Q[:, :t] -= np.outer(Q[:, :t] @ u, u)
    return Q[:, : k - M]


def _distances(a, b):
    return np.sqrt(np.maximum(np.sum((a[:, None, :] - b[None, :, :]) ** 2, axis=2), 0.0))
