"""Sequential minimal optimisation (SMO) for the support-vector duals: one compiled loop.

Every support-vector problem of the package is the box- and equality-constrained QP

    min_α  ½ αᵀQα + pᵀα   s.t.  yᵀα = Δ,  0 ≤ α_t ≤ u_t,   Q_ts = y_t y_s K̃(s_t, s_s),

over ``l`` variables ``t``, each attached to a training sample ``s_t`` with a sign ``y_t = ±1``;
``K̃ = K + diag(shift)`` is the kernel with an optional ridge on its diagonal. The problems are:

* C-SVC: one variable per sample, ``y`` the ±1 labels, ``p = −1``, ``u_t = C·w_t``;
* ν-SVC: ``p = 0``, ``u_t = w_t`` and the second constraint ``Σ_{y_t=±1} α_t = ν Σw/2`` kept by
  starting feasible and moving only pairs within a class (``nu=True``);
* ε-SVR: two variables per sample (``α`` with ``y = +1, p = ε − y_i`` and ``α*`` with
  ``y = −1, p = ε + y_i``), ``u = C·w``; the squared-slack SVR has ``u = ∞`` and
  ``shift = 1/(C·w)``.

The loop is Fan, Chen & Lin's (2005) SMO: each iteration moves the pair (i, j) that violates the
KKT conditions most at second order — i maximises ``v_t = −y_t ∇f_t`` over the variables that may
move up, j minimises ``−(v_i − v_t)² / (K̃_ii + K̃_tt − 2K̃_it)`` over those that may move down
with ``v_t < v_i`` — by the exact clipped minimiser along the feasible direction
``α_i += y_i τ, α_j −= y_j τ``; it stops when ``max v − min v ≤ tol`` (libsvm's stopping rule).
Shrinking (Joachims; libsvm's rule) removes bound variables that cannot be selected from the
working loops every ``min(l, 1000)`` iterations — the variables are reordered, active ones first,
so that the loops read contiguous memory — and the gradient of removed variables is rebuilt from
``Ḡ_t = Σ_{α_s = u_s} u_s Q_ts`` and the free variables before the final check; both sums are
kept on the samples (``Ḡ_t = y_t H[s_t]``), so that they run over ``n`` contiguous entries
rather than the ``l`` variables (``2n`` for the SVR). Each iteration makes two passes over the
active variables: the choice of j, and the gradient update, which also finds the next i. Kernel
columns come from :mod:`statlearning._core._kernel_columns` through a least-recently-used cache
of whole columns bounded by ``cache_size`` MB, computed in double precision and stored in
single precision when ``tol ≥ 1e-5`` (as libsvm; double below, so that fine tolerances reach
the exact optimum), the gradient always accumulated in double precision (a precomputed Gram
is read in place). The intercept is
the average of ``y_t ∇f_t`` over the free variables (the notes' advice), or the midpoint of the
feasible interval when no variable is free.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from scipy import linalg

from .._core._kernel_columns import PRECOMPUTED, kernel_column, kernel_diagonal

__all__ = ["polish", "smo"]

_TAU = 1e-12
_INF = np.inf
#: From this ``tol`` up the kernel cache stores single precision (libsvm's choice): its
#: relative rounding, 6e-8, moves the gradient far less than ``tol``. Finer tolerances (and
#: the fine re-solve of small problems) cache double precision.
_SINGLE_TOL = 1e-5


@njit(cache=True, nogil=True)
def _column(kern, store, s):
    """The column ``K̃[:, s]`` from the cache, computed into it on a miss (evicting the least
    recently used column).

    ``kern = (X, sqnorm, code, gamma, degree, coef0, shift)`` describes the kernel and
    ``store = (cache, slot_of, owner, stamp, scratch)`` the cache (``stamp[-1]`` is the access
    clock). A column is computed in double precision into ``scratch`` and stored in the cache's
    precision. A precomputed Gram is its own cache (every column present).
    """
    X, sqnorm, code, gamma, degree, coef0, shift = kern
    cache, slot_of, owner, stamp, scratch = store
    n_slots = cache.shape[0]
    stamp[n_slots] += 1
    slot = slot_of[s]
    if slot < 0:
        slot = 0
        oldest = stamp[0]
        for k in range(1, n_slots):
            if stamp[k] < oldest:
                oldest = stamp[k]
                slot = k
        if owner[slot] >= 0:
            slot_of[owner[slot]] = -1
        owner[slot] = s
        slot_of[s] = slot
        kernel_column(X, sqnorm, code, gamma, degree, coef0, s, scratch)
        scratch[s] += shift[s]
        col = cache[slot]
        for t in range(scratch.shape[0]):
            col[t] = scratch[t]
    stamp[slot] = stamp[n_slots]
    return cache[slot]


@njit(cache=True, nogil=True)
def _may_rise(a, y, u):
    """Whether α_t may move in the direction that lowers ``v_t = −y_t∇f_t`` (the set I_up)."""
    return (y > 0 and a < u) or (y < 0 and a > 0.0)


@njit(cache=True, nogil=True)
def _may_fall(a, y, u):
    """Whether α_t may move in the direction that raises ``v_t`` (the set I_low)."""
    return (y > 0 and a > 0.0) or (y < 0 and a < u)


@njit(cache=True, nogil=True)
def _candidates(v, a, u, pos):
    """``(v or −∞, v or +∞)``: ``v`` where the variable is in I_up, resp. I_low."""
    below = a < u
    above = a > 0.0
    vr = v if (below if pos else above) else -_INF
    vf = v if (above if pos else below) else _INF
    return vr, vf


@njit(cache=True, nogil=True)
def _extremes(m, alpha, G, y, upper, nu):
    """Per group (one group, or one per class with ``nu``): max v over I_up (and its argmax)
    and min v over I_low.

    The loops here and in :func:`_update` and :func:`_select_j` are written with selects
    instead of branches on the (unpredictable) bound status of each variable: with branches
    they ran two to three times slower.
    """
    hi0, hi1, lo0, lo1 = -_INF, -_INF, _INF, _INF
    arg0, arg1 = -1, -1
    for t in range(m):
        pos = y[t] > 0
        vr, vf = _candidates(-y[t] * G[t], alpha[t], upper[t], pos)
        if nu and not pos:
            better = vr > hi1
            hi1 = vr if better else hi1
            arg1 = t if better else arg1
            lo1 = vf if vf < lo1 else lo1
        else:
            better = vr > hi0
            hi0 = vr if better else hi0
            arg0 = t if better else arg0
            lo0 = vf if vf < lo0 else lo0
    vmax = np.array([hi0, hi1])
    vmin = np.array([lo0, lo1])
    imax = np.array([arg0, arg1])
    return vmax, vmin, imax


@njit(cache=True, nogil=True)
def _update(m, tau, ki, kj, alpha, G, y, upper, sample, nu, vmax, vmin, imax):
    """``∇f += τ y (K̃_i − K̃_j)`` over the active variables and the extremes of
    :func:`_extremes` at the new point (into ``vmax``, ``vmin``, ``imax``): in the same pass
    for one group, the common case."""
    if nu:
        for t in range(m):
            st = sample[t]
            G[t] += y[t] * tau * (np.float64(ki[st]) - np.float64(kj[st]))
        hi, lo, arg = _extremes(m, alpha, G, y, upper, nu)
        for g in range(2):  # not slice assignments: those compile numba's shape-error path
            vmax[g] = hi[g]
            vmin[g] = lo[g]
            imax[g] = arg[g]
        return
    hi, lo, arg = -_INF, _INF, -1
    for t in range(m):
        st = sample[t]
        yt = y[t]
        g = G[t] + yt * tau * (np.float64(ki[st]) - np.float64(kj[st]))
        G[t] = g
        vr, vf = _candidates(-yt * g, alpha[t], upper[t], yt > 0)
        better = vr > hi
        hi = vr if better else hi
        arg = t if better else arg
        lo = vf if vf < lo else lo
    vmax[0], vmax[1] = hi, -_INF
    vmin[0], vmin[1] = lo, _INF
    imax[0], imax[1] = arg, -1


@njit(cache=True, nogil=True)
def _select_j(m, alpha, G, y, upper, qd, sample, nu, vmax, imax, ki0, ki1, k0):
    """Fan–Chen–Lin's second-order choice of j for the i of each group: the variable of I_low
    with ``v_t < v_i`` minimising ``−(v_i − v_t)² / (K̃_ii + K̃_tt − 2K̃_it)``; ``(j, group)``,
    ``j = −1`` when there is none. Ineligible variables score +1 (eligible ones score ≤ 0)."""
    best = 1.0
    j = -1
    gj = 0
    if not nu:  # maximise diff²/q without dividing: diff² · q_best ≥ diff_best² · q
        top = vmax[0]
        qi = qd[imax[0]]
        num, den = 0.0, 1.0
        for t in range(m):
            yt = y[t]
            a = alpha[t]
            fall = (a > 0.0) if yt > 0 else (a < upper[t])
            diff = top + yt * G[t]
            q = qi + qd[t] - 2.0 * np.float64(ki0[sample[t]])
            q = q if q > 0.0 else _TAU
            d2 = diff * diff if (fall and diff > 0.0) else -1.0
            better = d2 * den >= num * q
            num = d2 if better else num
            den = q if better else den
            j = t if better else j
        return j, 0
    for t in range(m):
        yt = y[t]
        a = alpha[t]
        pos = yt > 0
        fall = (a > 0.0) if pos else (a < upper[t])
        g = 0 if pos else 1
        i = imax[g]
        if not fall or i < 0:
            continue
        ki = ki0 if i == k0 else ki1
        diff = vmax[g] + yt * G[t]
        q = qd[i] + qd[t] - 2.0 * np.float64(ki[sample[t]])
        q = q if q > 0.0 else _TAU
        obj = -(diff * diff) / q
        obj = obj if diff > 0.0 else 1.0
        better = obj <= best
        best = obj if better else best
        j = t if better else j
        gj = g if better else gj
    return (j if best <= 0.0 else -1), gj


@njit(cache=True, nogil=True)
def _reconstruct(m, alpha, G, H, p, y, upper, sample, kern, store):
    """Rebuild ∇f of the inactive variables (positions ``m:``): Ḡ + p + Σ_{free s} α_s Q_ts,
    with ``Ḡ_t = y_t H[s_t]`` (see :func:`_track_upper`); the free part is summed on the
    samples too, ``F = Σ_{free s} α_s y_s K̃[:, s_s]``, over contiguous columns."""
    l = y.shape[0]
    if m == l:
        return
    F = H.copy()
    for s in range(l):
        if 0.0 < alpha[s] < upper[s]:
            col = _column(kern, store, sample[s])
            f = alpha[s] * y[s]
            for k in range(F.shape[0]):
                F[k] += f * np.float64(col[k])
    for t in range(m, l):
        G[t] = y[t] * F[sample[t]] + p[t]


@njit(cache=True, nogil=True)
def _swap(a, b, active, alpha, G, p, y, upper, sample, qd):
    """Exchange the variables at positions ``a`` and ``b`` in every per-variable array."""
    active[a], active[b] = active[b], active[a]
    alpha[a], alpha[b] = alpha[b], alpha[a]
    G[a], G[b] = G[b], G[a]
    p[a], p[b] = p[b], p[a]
    y[a], y[b] = y[b], y[a]
    upper[a], upper[b] = upper[b], upper[a]
    sample[a], sample[b] = sample[b], sample[a]
    qd[a], qd[b] = qd[b], qd[a]


@njit(cache=True, nogil=True)
def _shrink(m, active, alpha, G, p, y, upper, sample, qd, vmax, vmin, nu):
    """Move the bound variables that cannot be selected behind the active ones; new size.

    The variables are physically reordered (``active`` records where each came from), so that
    the loops over the active ones read contiguous memory, as libsvm does.
    """
    t = np.int64(0)  # not a literal: one compiled _swap
    while t < m:
        g = 0 if (not nu or y[t] > 0) else 1
        v = -y[t] * G[t]
        rise = _may_rise(alpha[t], y[t], upper[t])
        fall = _may_fall(alpha[t], y[t], upper[t])
        out = False
        if rise and not fall:
            out = v < vmin[g]
        elif fall and not rise:
            out = v > vmax[g]
        if out:
            m -= 1
            _swap(t, m, active, alpha, G, p, y, upper, sample, qd)
        else:
            t += 1
    return m


@njit(cache=True, nogil=True)
def _track_upper(v, old, alpha, upper, y, col, H):
    """Keep ``H = Σ_{α_s = u_s} u_s y_s K̃[:, s_s]`` when α_v reaches or leaves its upper bound.

    ``H`` lives on the samples, not the variables: the gradient part of the bound variables is
    ``Ḡ_t = Σ_{α_s = u_s} u_s Q_ts = y_t H[s_t]``, so this runs over the ``n`` samples (half
    the variables of the SVR) contiguously, with no gather through ``sample``.
    """
    was = old >= upper[v]
    now = alpha[v] >= upper[v]
    if was != now:
        f = upper[v] * y[v] if now else -upper[v] * y[v]
        for k in range(H.shape[0]):
            H[k] += f * np.float64(col[k])


@njit(cache=True, nogil=True)
def _intercepts(alpha, G, y, upper, nu):
    """rho per group: the mean of y∇f over free variables, else the midpoint of its bounds."""
    ub = np.full(2, _INF)
    lb = np.full(2, -_INF)
    total = np.zeros(2)
    count = np.zeros(2)
    for t in range(y.shape[0]):
        g = 0 if (not nu or y[t] > 0) else 1
        yg = y[t] * G[t]
        at_up = alpha[t] >= upper[t]
        at_lo = alpha[t] <= 0.0
        if at_up and at_lo:
            continue
        if (at_up and y[t] < 0) or (at_lo and y[t] > 0):
            ub[g] = min(ub[g], yg)
        elif at_up or at_lo:
            lb[g] = max(lb[g], yg)
        else:
            total[g] += yg
            count[g] += 1.0
    rho = np.zeros(2)
    for g in range(2):
        if count[g] > 0:
            rho[g] = total[g] / count[g]
        elif ub[g] < _INF and lb[g] > -_INF:
            rho[g] = 0.5 * (ub[g] + lb[g])
        elif ub[g] < _INF:
            rho[g] = ub[g]
        elif lb[g] > -_INF:
            rho[g] = lb[g]
    return rho


@njit(cache=True, nogil=True)
def _solve(
    X,
    sqnorm,
    code,
    gamma,
    degree,
    coef0,
    shift,
    sample,
    y,
    p,
    upper,
    alpha,
    nu,
    tol,
    max_iter,
    cache,
    shrinking,
):  # pragma: no cover - compiled
    n = sqnorm.shape[0]
    l = y.shape[0]
    slot_of = np.full(n, -1, dtype=np.int64)
    owner = np.full(cache.shape[0], -1, dtype=np.int64)
    if code == PRECOMPUTED:  # the Gram is the cache, every column present
        for s in range(n):
            slot_of[s] = s
            owner[s] = s
    stamp = np.zeros(cache.shape[0] + 1, dtype=np.int64)
    kdiag = np.empty(n)
    kernel_diagonal(X, sqnorm, code, gamma, degree, coef0, kdiag)
    for s in range(n):
        kdiag[s] += shift[s]
    qd = np.empty(l)  # K̃_tt per variable, reordered with the variables
    for t in range(l):
        qd[t] = kdiag[sample[t]]
    kern = (X, sqnorm, code, gamma, degree, coef0, shift)
    store = (cache, slot_of, owner, stamp, np.empty(n))

    # gradient and Ḡ at the (feasible) starting point
    G = p.copy()
    H = np.zeros(n)
    for t in range(l):
        if alpha[t] > 0.0:
            col = _column(kern, store, sample[t])
            f = alpha[t] * y[t]
            for s in range(l):
                G[s] += f * y[s] * col[sample[s]]
            _track_upper(t, 0.0, alpha, upper, y, col, H)

    active = np.arange(l)
    m = l
    unshrunk = False
    counter = min(l, 1000) + 1
    it = 0
    status = 0
    vmax, vmin, imax = _extremes(m, alpha, G, y, upper, nu)
    while True:
        if it >= max_iter:
            status = 1
            break
        counter -= 1
        if counter == 0:
            counter = min(l, 1000)
            if shrinking:
                gap = max(vmax[0] - vmin[0], vmax[1] - vmin[1])
                if not unshrunk and gap <= 10.0 * tol:
                    unshrunk = True
                    _reconstruct(m, alpha, G, H, p, y, upper, sample, kern, store)
                    m = l
                    vmax, vmin, imax = _extremes(m, alpha, G, y, upper, nu)
                m = _shrink(m, active, alpha, G, p, y, upper, sample, qd, vmax, vmin, nu)
                vmax, vmin, imax = _extremes(m, alpha, G, y, upper, nu)

        # working set: i by first order (per class with ν), j by second order
        gap = max(vmax[0] - vmin[0], vmax[1] - vmin[1])
        if gap < tol:
            if m == l:
                break
            _reconstruct(m, alpha, G, H, p, y, upper, sample, kern, store)
            m = l
            counter = 1
            vmax, vmin, imax = _extremes(m, alpha, G, y, upper, nu)
            gap = max(vmax[0] - vmin[0], vmax[1] - vmin[1])
            if gap < tol:
                break
        k0 = imax[0] if imax[0] >= 0 else imax[1]
        ki0 = _column(kern, store, sample[k0])
        ki1 = ki0
        if imax[1] >= 0 and imax[1] != k0:
            ki1 = _column(kern, store, sample[imax[1]])
        j, gj = _select_j(m, alpha, G, y, upper, qd, sample, nu, vmax, imax, ki0, ki1, k0)
        if j < 0:  # no descent pair (rounding only)
            break
        i = imax[gj]
        ki = ki0 if i == k0 else ki1
        kj = _column(kern, store, sample[j])
        it += 1
        # exact minimiser along α_i += y_i τ, α_j −= y_j τ, clipped to the box
        a = qd[i] + qd[j] - 2.0 * ki[sample[j]]
        if a <= 0.0:
            a = _TAU
        tau = (-y[i] * G[i] + y[j] * G[j]) / a
        lim_i = (upper[i] - alpha[i]) if y[i] > 0 else alpha[i]
        lim_j = alpha[j] if y[j] > 0 else (upper[j] - alpha[j])
        tau = min(tau, lim_i, lim_j)
        old_i = alpha[i]
        old_j = alpha[j]
        if tau == lim_i:
            alpha[i] = upper[i] if y[i] > 0 else 0.0
        else:
            alpha[i] = old_i + y[i] * tau
        if tau == lim_j:
            alpha[j] = 0.0 if y[j] > 0 else upper[j]
        else:
            alpha[j] = old_j - y[j] * tau
        _update(m, tau, ki, kj, alpha, G, y, upper, sample, nu, vmax, vmin, imax)
        _track_upper(i, old_i, alpha, upper, y, ki, H)
        _track_upper(j, old_j, alpha, upper, y, kj, H)

    if m < l:
        _reconstruct(m, alpha, G, H, p, y, upper, sample, kern, store)
    rho = _intercepts(alpha, G, y, upper, nu)
    alpha_out = np.empty(l)
    G_out = np.empty(l)
    for k in range(l):
        alpha_out[active[k]] = alpha[k]
        G_out[active[k]] = G[k]
    return alpha_out, G_out, rho, it, status


@njit(cache=True)
def _empty_single(rows, n):  # pragma: no cover - compiled
    """The cache's memory, allocated by numba rather than numpy: numpy asks the kernel for
    transparent huge pages on large arrays, and compacting memory for them made the first fit
    of a process about 0.4 s slower (SVR on 10,000 samples)."""
    return np.empty((rows, n), dtype=np.float32)


@njit(cache=True)
def _empty_double(rows, n):  # pragma: no cover - compiled
    """As :func:`_empty_single`, in double precision."""
    return np.empty((rows, n), dtype=np.float64)


def smo(
    X,
    sqnorm,
    code,
    gamma,
    degree,
    coef0,
    sample,
    y,
    p,
    upper,
    *,
    alpha0=None,
    shift=None,
    nu=False,
    tol=1e-3,
    max_iter=-1,
    cache_size=200.0,
    shrinking=True,
):
    """Solve ``min ½αᵀQα + pᵀα`` s.t. ``yᵀα = const``, ``0 ≤ α ≤ upper`` by SMO.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The data the kernel columns are evaluated on (see
        :func:`statlearning._core._kernel_columns.prepare_columns`), or the Gram matrix for
        the precomputed code.
    sqnorm : ndarray of shape (n_samples,)
    code : int
        Kernel code of :mod:`statlearning._core._kernel_columns`.
    gamma, degree, coef0 : float
    sample : ndarray of int64, shape (n_variables,)
        Sample of each variable.
    y : ndarray of shape (n_variables,)
        Sign ±1 of each variable.
    p : ndarray of shape (n_variables,)
        Linear term.
    upper : ndarray of shape (n_variables,)
        Upper bounds (``inf`` allowed).
    alpha0 : ndarray of shape (n_variables,), optional
        A feasible starting point (default 0); its ``yᵀα`` and, with ``nu``, its per-class sums
        are kept.
    shift : ndarray of shape (n_samples,), optional
        Added to the kernel's diagonal.
    nu : bool, default=False
        Move pairs within a class only (two equality constraints, ν problems).
    tol : float, default=1e-3
        Stop when the maximal violating pair's gap is below ``tol``.
    max_iter : int, default=-1
        Iteration cap (−1: none).
    cache_size : float, default=200
        Megabytes of kernel columns kept.
    shrinking : bool, default=True

    Returns
    -------
    alpha : ndarray of shape (n_variables,)
    grad : ndarray of shape (n_variables,)
        ``Qα + p`` at the solution.
    rho : ndarray of shape (2,)
        ``rho[0]`` the intercept term (decision ``Σ y_t α_t K(s_t, x) − rho``); with ``nu``
        the two classes' values ``r₊, r₋``.
    n_iter : int
    converged : bool
    """
    n = sqnorm.shape[0]
    y = np.ascontiguousarray(y, dtype=np.float64)
    alpha = np.zeros(y.shape[0]) if alpha0 is None else np.array(alpha0, dtype=np.float64)
    shift = np.zeros(n) if shift is None else np.ascontiguousarray(shift, dtype=np.float64)
    if code == PRECOMPUTED and np.any(shift):
        X = np.array(X, dtype=np.float64)  # the ridge goes on a copy of the Gram's diagonal
        X[np.diag_indices(n)] += shift
        shift = np.zeros(n)
    X = np.ascontiguousarray(X, dtype=np.float64)
    if code == PRECOMPUTED:
        cache = X
    else:
        single = tol >= _SINGLE_TOL
        width = (4 if single else 8) * max(n, 1)
        n_slots = max(min(int(cache_size * 2**20 // width), n), 4)
        cache = (_empty_single if single else _empty_double)(n_slots, n)
    if max_iter < 0:  # no cap asked: libsvm's safety cap
        max_iter = max(10_000_000, 100 * y.shape[0])
    alpha, grad, rho, n_iter, status = _solve(
        X,
        np.ascontiguousarray(sqnorm, dtype=np.float64),
        int(code),
        float(gamma),
        float(degree),
        float(coef0),
        shift,
        np.array(sample, dtype=np.int64),  # copies: the solver reorders them
        y.copy(),
        np.array(p, dtype=np.float64),
        np.array(upper, dtype=np.float64),
        alpha,
        bool(nu),
        float(tol),
        int(max_iter),
        cache,
        bool(shrinking),
    )
    return alpha, grad, rho, int(n_iter), status == 0


def _gap(alpha, grad, y, upper, nu):
    """The maximal KKT violation ``max_{I_up} v − min_{I_low} v`` (per class with ``nu``)."""
    v = -y * grad
    rise = np.where(y > 0, alpha < upper, alpha > 0)
    fall = np.where(y > 0, alpha > 0, alpha < upper)
    groups = [y > 0, y < 0] if nu else [np.ones(y.shape, dtype=bool)]
    gap = -np.inf
    for g in groups:
        if np.any(rise & g) and np.any(fall & g):
            gap = max(gap, v[rise & g].max() - v[fall & g].min())
    return gap


def polish(
    X,
    sqnorm,
    code,
    gamma,
    degree,
    coef0,
    sample,
    y,
    p,
    upper,
    alpha,
    grad,
    *,
    shift=None,
    nu=False,
    tol=1e-3,
    max_free=256,
):
    """Move an SMO solution onto the exact optimum of its active set, when that set is small.

    With the bound variables held where SMO left them, the free variables ``F`` solve the
    linear KKT system ``Q_FF δ − E r = −∇f_F``, ``Eᵀδ = 0`` (``E`` = ``y_F``, or the class
    indicators with ``nu``; ``r`` the intercept terms), solved in double precision (least
    squares: duplicated rows make ``Q_FF`` singular). The result is kept only when every free
    variable stays in its box and no bound variable then violates the KKT conditions by more
    than ``tol``; otherwise, or when ``|F| > max_free``, ``None`` is returned.

    Returns
    -------
    (alpha, grad, rho) or None
    """
    free = np.flatnonzero((alpha > 0) & (alpha < upper))
    if free.size == 0 or free.size > max_free:
        return None
    n = sqnorm.shape[0]
    shift = np.zeros(n) if shift is None else shift
    data = np.ascontiguousarray(X, dtype=np.float64)
    cols = np.empty((free.size, n))
    for k, t in enumerate(free):
        kernel_column(data, sqnorm, code, gamma, degree, coef0, sample[t], cols[k])
        cols[k, sample[t]] += shift[sample[t]]
    # Q[:, F]: rows all variables
    QF = (cols[:, sample] * y[free][:, None] * y[None, :]).T
    E = y[free][:, None] if not nu else np.stack([y[free] > 0, y[free] < 0], axis=1) * 1.0
    if nu:
        E = E[:, E.any(axis=0)]
    k = E.shape[1]
    A = np.zeros((free.size + k, free.size + k))
    A[: free.size, : free.size] = QF[free]
    A[: free.size, free.size :] = -E
    A[free.size :, : free.size] = -E.T
    b = np.concatenate([-grad[free], np.zeros(k)])
    sol = linalg.lstsq(A, b, check_finite=False)[0]
    sol += linalg.lstsq(A, b - A @ sol, check_finite=False)[0]  # one step of refinement
    delta = sol[: free.size]
    new = alpha[free] + delta
    slack = 1e-10 * np.maximum(np.where(np.isfinite(upper[free]), upper[free], 1.0), 1.0)
    if np.any(new < -slack) or np.any(new > upper[free] + slack):
        return None
    alpha = alpha.copy()
    old = alpha[free]
    alpha[free] = np.clip(new, 0.0, upper[free])
    grad = grad + QF @ (alpha[free] - old)
    if not _gap(alpha, grad, y, upper, nu) <= tol:
        return None
    return alpha, grad, _intercepts(alpha, grad, y, upper, nu)
