"""The partial least squares algorithms on centred (and scaled) data, as R's ``pls`` package.

Each function takes ``Xs`` (``n × p``, centred and, with ``scale=True``, divided by the column
standard deviations) and ``Yc`` (``n × m``, centred) and returns a :class:`PLSPath`, whose
matrices carry ``pls``'s names: ``W`` (``loading.weights``), ``P`` (``loadings``), ``Q``
(``Yloadings``, ``m × k``), ``R`` (``projection``), ``T`` (``scores``), ``U`` (``Yscores``).
Coefficients for ``a`` components are ``R[:, :a] Q[:, :a]ᵀ`` on the scaled ``X``.

* :func:`nipals` is ``oscorespls.fit`` (orthogonal scores, Wold's NIPALS). ``X`` is never
  deflated in memory: with ``S_a = X_aᵀY_a`` the deflated cross-product (``S_{a+1} = S_a −
  t_aᵀt_a p_a q_aᵀ``), the NIPALS inner loop ``w ∝ X_aᵀu, t = X_a w, q = Y_aᵀt/tᵀt,
  u = Y_a q/qᵀq`` is the power iteration ``w ← S_a S_aᵀ w`` on ``p × m`` numbers, and
  ``t_a = X r_a`` with the projection ``r_a = w_a − Σ_{j<a} (p_jᵀw_a) r_j``: two passes over
  the data per component, whatever the number of inner iterations. Convergence is tested on
  ``w`` (R tests the change of ``t``, ``Σ|Δt/t| < √ε``).
* :func:`kernel_pls` is ``kernelpls.fit`` (Dayal & MacGregor's algorithm 2): the same
  path computed from ``XᵀX`` and ``XᵀY`` alone (the dominant eigenvector of ``S_aᵀS_a``
  instead of the power iteration); the data are read once for the Gram matrix and once for the
  scores.
* :func:`simpls` is ``simpls.fit`` (de Jong 1993): scores of unit length, ``S`` deflated
  by an orthonormal basis of the loadings. For one response it equals the other two (scores
  rescaled); for several responses it is a different model.
* :func:`canonical_pls` is scikit-learn's ``PLSCanonical`` (Wegelin's PLS-W2A): the first
  singular pair of ``X_aᵀY_a``, ``X`` and ``Y`` each deflated by their own scores.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import linalg

from .._core.linalg import symmetric_eigh

__all__ = ["PLSPath", "canonical_pls", "kernel_pls", "nipals", "simpls"]

#: A score of squared length below this fraction of ``‖X‖²_F`` means ``X`` is exhausted.
RANK_TOL = 1e-10


class RankError(ValueError):
    """More components were asked for than the rank of the centred ``X`` allows."""

    def __init__(self, rank: int):
        self.rank = rank
        super().__init__(f"rank {rank}")


@dataclass
class PLSPath:
    """The matrices of a fitted PLS path (``pls``'s names; see the module docstring)."""

    W: np.ndarray
    P: np.ndarray
    Q: np.ndarray
    R: np.ndarray
    T: np.ndarray | None
    U: np.ndarray | None
    tsq: np.ndarray
    n_iter: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    converged: bool = True
    y_exhausted: int | None = None

    def coefficients(self) -> np.ndarray:
        """``B[a]`` = coefficients (``p × m``, scaled ``X``) with ``a + 1`` components."""
        steps = self.R[:, :, None] * self.Q.T[None, :, :]  # (p, k, m)
        return np.moveaxis(np.cumsum(steps, axis=1), 1, 0)


def _dominant(S: np.ndarray) -> np.ndarray:
    """Unit dominant left singular vector of ``S`` (``p × m``), via the smaller Gram side."""
    p, m = S.shape
    if m == 1:
        w = S[:, 0].copy()
    elif m < p:
        _, vec = symmetric_eigh(S.T @ S, subset_by_index=[m - 1, m - 1])
        w = S @ vec[:, 0]
    else:
        _, vec = symmetric_eigh(S @ S.T, subset_by_index=[p - 1, p - 1])
        w = vec[:, 0]
    return w / np.linalg.norm(w)


def _power_weight(S, start, tol, max_iter):
    """NIPALS inner loop on ``S = X_aᵀY_a``: ``w ← S Sᵀ w`` from ``w ∝ S[:, start]``."""
    w = S[:, start] / np.linalg.norm(S[:, start])
    for it in range(1, max_iter + 1):
        w_new = S @ (S.T @ w)
        w_new /= np.linalg.norm(w_new)
        if np.sum(np.abs(w_new - w)) < tol:
            return w_new, it, True
        w = w_new
    return w, max_iter, False


def _stop(a, x_left, x_ss, S, ref, stop_at_rank) -> str | None:
    """Why the path ends before component ``a``: ``"x"`` (X exhausted: the rank is ``a``;
    :class:`RankError` unless ``stop_at_rank``), ``"y"`` (the deflated cross-product is zero:
    Y is fully explained) or None."""
    if x_left <= RANK_TOL * x_ss:
        if not stop_at_rank:
            raise RankError(a)
        return "x"
    if not np.any(np.abs(S) > 1e-13 * ref):
        return "y"
    return None


def _path(Xs, Yc, k, weight_of, cross=None, XtX=None, stop_at_rank=False):
    """The orthogonal-scores path shared by :func:`nipals` and :func:`kernel_pls`.

    When ``X`` is exhausted before ``k`` components: :class:`RankError`, or with
    ``stop_at_rank`` the remaining components left at zero (the coefficients stay those of the
    full-rank fit)."""
    n, p = Xs.shape if Xs is not None else (0, XtX.shape[0])
    m = Yc.shape[1] if Yc is not None else cross.shape[1]
    S = (Xs.T @ Yc) if cross is None else cross.copy()
    x_ss = float(np.einsum("ij,ij->", Xs, Xs)) if XtX is None else float(np.trace(XtX))
    ref = float(np.linalg.norm(S)) or 1.0
    W, P, R = np.zeros((p, k)), np.zeros((p, k)), np.zeros((p, k))
    Q = np.zeros((m, k))
    T = np.zeros((n, k)) if XtX is None else None
    tsq = np.zeros(k)
    n_iter = np.zeros(k, dtype=int)
    converged, y_exhausted, x_left = True, None, x_ss
    for a in range(k):
        stop = _stop(a, x_left, x_ss, S, ref, stop_at_rank)
        if stop:
            y_exhausted = a if stop == "y" else None
            break
        w, n_iter[a], ok = weight_of(S)
        converged &= ok
        r = w - R[:, :a] @ (P[:, :a].T @ w)
        if XtX is None:
            t = Xs @ r
            ts = float(t @ t)
            if ts <= RANK_TOL * x_ss:
                if stop_at_rank:
                    break
                raise RankError(a)
            pa = (Xs.T @ t) / ts
            T[:, a] = t
        else:
            Xr = XtX @ r
            ts = float(r @ Xr)
            if ts <= RANK_TOL * x_ss:
                if stop_at_rank:
                    break
                raise RankError(a)
            pa = Xr / ts
        qa = (S.T @ r) / ts
        S -= ts * np.outer(pa, qa)
        W[:, a], P[:, a], R[:, a], Q[:, a], tsq[a] = w, pa, r, qa, ts
        x_left -= ts * float(pa @ pa)
    return PLSPath(W, P, Q, R, T, None, tsq, n_iter, bool(converged), y_exhausted)


def _y_scores(Yc, T, Q, tsq):
    """``pls``'s ``Yscores`` of the orthogonal-scores algorithms: ``u_a = Y q_a / q_aᵀq_a``
    orthogonalised against the earlier scores (R's ``kernelpls.fit``)."""
    k = Q.shape[1]
    U = np.zeros((Yc.shape[0], k))
    for a in range(k):
        qq = float(Q[:, a] @ Q[:, a])
        if qq == 0:
            continue
        u = Yc @ Q[:, a] / qq
        if a:
            u -= T[:, :a] @ ((T[:, :a].T @ u) / tsq[:a])
        U[:, a] = u
    return U


def nipals(Xs, Yc, k, *, tol=1e-12, max_iter=500, stop_at_rank=False) -> PLSPath:
    """``oscorespls``: NIPALS with orthogonal scores (see the module docstring)."""
    if Yc.shape[1] == 1:

        def weight_of(S):
            return S[:, 0] / np.linalg.norm(S[:, 0]), 1, True
    else:
        # started from the largest column of S (R starts from the largest response column:
        # the same fixed point, reached from another start)
        def weight_of(S):
            col_ss = np.einsum("ij,ij->j", S, S)
            return _power_weight(S, int(np.argmax(col_ss)), tol, max_iter)

    path = _path(Xs, Yc, k, weight_of, stop_at_rank=stop_at_rank)
    if Yc.shape[1] == 1:
        # R's NIPALS Yscores for one response: the deflated response itself
        U = np.zeros_like(path.T)
        resid = Yc[:, 0].copy()
        for a in range(k):
            U[:, a] = resid
            resid -= path.T[:, a] * path.Q[0, a]
        path.U = U
    else:
        path.U = _y_scores(Yc, path.T, path.Q, path.tsq)
    return path


def kernel_pls(Xs, Yc, k, XtX, *, stop_at_rank=False) -> PLSPath:
    """``kernelpls``: the orthogonal-scores path from ``XᵀX`` and ``XᵀY``."""
    path = _path(
        None,
        None,
        k,
        lambda S: (_dominant(S), 1, True),
        cross=Xs.T @ Yc,
        XtX=XtX,
        stop_at_rank=stop_at_rank,
    )
    path.T = Xs @ path.R
    path.U = _y_scores(Yc, path.T, path.Q, path.tsq)
    return path


def simpls(Xs, Yc, k, *, stop_at_rank=False) -> PLSPath:
    """``simpls``: de Jong's SIMPLS (see the module docstring)."""
    n, p = Xs.shape
    m = Yc.shape[1]
    S = Xs.T @ Yc
    x_ss = float(np.einsum("ij,ij->", Xs, Xs))
    ref = float(np.linalg.norm(S)) or 1.0
    R, P, V = np.zeros((p, k)), np.zeros((p, k)), np.zeros((p, k))
    Q, T, U = np.zeros((m, k)), np.zeros((n, k)), np.zeros((n, k))
    y_exhausted = None
    x_left = x_ss
    for a in range(k):
        stop = _stop(a, x_left, x_ss, S, ref, stop_at_rank)
        if stop:
            y_exhausted = a if stop == "y" else None
            break
        q = np.ones(1) if m == 1 else _dominant(S.T)  # the dominant right singular vector
        r = S @ q
        t = Xs @ r
        t -= t.mean()
        tnorm = float(np.sqrt(t @ t))
        if tnorm**2 <= RANK_TOL * x_ss * float(r @ r):
            if stop_at_rank:
                break
            raise RankError(a)
        t /= tnorm
        r /= tnorm
        pa = Xs.T @ t
        qa = Yc.T @ t
        v = pa - V[:, :a] @ (V[:, :a].T @ pa)
        v /= np.linalg.norm(v)
        S -= np.outer(v, v @ S)
        u = Yc @ qa
        if a:
            u -= T[:, :a] @ (T[:, :a].T @ u)
        R[:, a], P[:, a], V[:, a], Q[:, a], T[:, a], U[:, a] = r, pa, v, qa, t, u
        x_left -= float(pa @ pa)
    return PLSPath(R.copy(), P, Q, R, T, U, np.ones(k), np.ones(k, dtype=int), True, y_exhausted)


def canonical_pls(Xs, Ys, k) -> dict:
    """PLS-W2A (scikit-learn's ``PLSCanonical``): weights from the first singular pair of the
    deflated cross-product, symmetric deflation of ``X`` and ``Y`` by their own scores."""
    n, p = Xs.shape
    q = Ys.shape[1]
    Xa, Ya = Xs.copy(), Ys.copy()
    x_ss = float(np.einsum("ij,ij->", Xs, Xs))
    y_ss = float(np.einsum("ij,ij->", Ys, Ys))
    out = {
        name: np.zeros(shape)
        for name, shape in (
            ("x_weights", (p, k)), ("y_weights", (q, k)), ("x_loadings", (p, k)),
            ("y_loadings", (q, k)), ("x_scores", (n, k)), ("y_scores", (n, k)),
        )
    }  # fmt: skip
    for a in range(k):
        C = Xa.T @ Ya
        if float(np.einsum("ij,ij->", Xa, Xa)) <= RANK_TOL * x_ss or not np.any(C):
            raise RankError(a)
        u, _, vt = linalg.svd(C, full_matrices=False)
        w, c = u[:, 0], vt[0]
        # scikit-learn's sign: the largest-magnitude x weight positive (svd_flip)
        sign = np.sign(w[np.argmax(np.abs(w))]) or 1.0
        w, c = w * sign, c * sign
        t, s = Xa @ w, Ya @ c
        tt, ss = float(t @ t), float(s @ s)
        if tt <= RANK_TOL * x_ss or ss <= RANK_TOL * y_ss:
            raise RankError(a)
        px, py = Xa.T @ t / tt, Ya.T @ s / ss
        Xa -= np.outer(t, px)
        Ya -= np.outer(s, py)
        for name, vec in (("x_weights", w), ("y_weights", c), ("x_loadings", px),
                          ("y_loadings", py), ("x_scores", t), ("y_scores", s)):  # fmt: skip
            out[name][:, a] = vec
    return out


def projection(weights: np.ndarray, loadings: np.ndarray) -> np.ndarray:
    """Rotations ``W (PᵀW)⁻¹`` mapping the (scaled) data to the scores."""
    return weights @ linalg.pinv(loadings.T @ weights)
