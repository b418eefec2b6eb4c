"""The MARS forward pass, compiled (numba, ``cache=True``): the hot loop of MARS.

The rules are those of R's ``earth`` (Milborrow's ``earth.c``, after Friedman 1991 and Friedman's
"Fast MARS" 1993), so that the same data give the same terms and knots:

* The basis is kept orthonormalised (modified Gram–Schmidt): ``Q`` holds one unit-length column
  per term (term-major, ``Q[k]``), the first being the constant ``1/√n``; ``QcT`` is the same basis
  centred, stored case-major so that the knot sweep reads one case's row contiguously.
* A candidate (parent term ``b``, predictor ``x``) is scored in two parts: the predictor entering
  linearly (``b·x`` orthogonalised against the model), then every admissible knot ``t`` for the
  hinge ``b·(x − t)₊`` on top of it. ``{b, b·x, b·(x − t)₊}`` spans the same space as the reflected
  pair ``{b·(x − t)₊, b·(t − x)₊}`` with ``b``, so this scores the pair. The knots are swept from
  the largest ``x`` down with running sums (``O(M)`` per case), so a predictor costs ``O(n·M)``
  and a step ``O(n·p·M·K)`` with ``K`` parents (``K ≤ fast_k``): no refit per candidate.
* The reduction in RSS of the hinge column ``c`` after the columns already in the model is
  ``(yᶜᵀc − Σₖ (yᶜᵀqₖ)(qₖᶜᵀc))² / (‖c − c̄‖² − Σₖ (qₖᶜᵀc)²)`` (superscript ``c``: centred), with
  ``qₖᶜᵀc`` and ``‖c − c̄‖²`` updated from one knot to the next by the running sums.
* Knots: minspan/endspan counts (Friedman's equations 43 and 45, earth's constants), the
  endspan tripled for interaction terms (``Adjust.endspan = 2``), a knot only where the parent is
  positive; the best knot beats the linear entry or the predictor enters linearly
  (``Auto.linpreds``: the term ``b·x``, a "bare linear term").
* Parents are taken from the Fast-MARS queue (``fast.k = 20``, ageing ``fast.beta = 1``), with
  earth's ordering of the queue (including its quirk that a single added term shifts the queue's
  term numbering).
* Stopping: RSq change below ``thresh``, RSq above ``1 − thresh``, GRSq below −10, no improving
  term, or ``nk`` terms.
"""

from __future__ import annotations

import math

import numba
import numpy as np

MIN_GRSQ = -10.0
MIN_BX_SOS = 0.01  # a column with less residual sum of squares is not a new direction (earth)
ALMOST_ZERO = 1e-10
INVALID_DEGREE = 101  # degree given to a term that may never be a parent
# Arguments of the compiled helpers: numba types a literal (``0``, ``True``) as a constant of
# its own and compiles the callee once more for it; these are typed ``int64`` and ``bool``.
_ZERO = np.int64(0)
_TRUE = np.bool_(True)
_FALSE = np.bool_(False)

# termination codes (earth's ``termcond``)
TERM_MAX_TERMS_SMALL = 1
TERM_GRSQ_INF = 2
TERM_MIN_GRSQ = 3
TERM_SMALL_DELTA = 4
TERM_MAX_RSQ = 5
TERM_NO_IMPROVEMENT = 6
TERM_NK = 7


@numba.njit(cache=True)
def _mean(v):
    m = 0.0
    n = v.shape[0]
    for i in range(n):
        m += v[i] / n
    return m


@numba.njit(cache=True)
def gcv(n_terms, n, rss, penalty):
    """earth's GCV ``RSS / (n (1 − C/n)²)``, ``C = M + penalty (M − 1) / 2`` (``inf`` if C ≥ n)."""
    if penalty == -1.0:
        cost = 0.0
    else:
        cost = (n_terms + penalty * (n_terms - 1.0) / 2.0) / n
    if cost >= 1.0:
        return np.inf
    return rss / (n * (1.0 - cost) ** 2)


@numba.njit(cache=True)
def _end_span(p, degree, n, endspan, adjust):
    if endspan > 0:
        e = endspan
    else:
        e = int(7.32193 + math.log(p) / 0.69315)  # 3 + log2(20 p)
    if degree >= 2:
        e += int(adjust * e + 0.5)
    if e > n // 2 - 1:
        e = n // 2 - 1
    return max(1, e)


@numba.njit(cache=True)
def _spans(n, p, degree, parent_col, minspan, endspan, adjust):
    """(minspan, endspan, startspan) for a parent term (earth's rules, Friedman's eqs 43, 45)."""
    e = _end_span(p, degree, n, endspan, adjust)
    if minspan < 0:  # a negative minspan asks for about −minspan knots
        m = math.ceil(n / (1.0 - minspan))
        s = m
        while s < e:
            s += m
        s = max(1, s - 1)
        return m, e, s
    if minspan > 0:
        m = minspan
    else:
        n_used = 0
        for i in range(n):
            if parent_col[i] > 0.0:
                n_used += 1
        m = int((2.9702 + math.log(p * n_used)) / 1.7329)
    m = max(1, m)
    avail = max(0, n - 2 * e)
    s = avail // 2
    if avail > m:
        ndiv = avail // m
        if avail == ndiv * m:
            s = m // 2
        else:
            s = (avail - ndiv * m) // 2
    return m, e, max(1, e + s)


@numba.njit(cache=True)
def _orthogonalise(Q, Qmean, QcT, k, v, used, cache, use_cache):
    """Put ``v`` orthogonalised against the used columns ``< k`` into column ``k`` (unit length).

    Returns whether the residual sum of squares exceeds ``MIN_BX_SOS``. With ``use_cache`` (a
    candidate linear term) the Gram–Schmidt coefficients are read from and stored in ``cache``
    (they do not change while the model grows) and a column below ``MIN_BX_SOS`` is zeroed.
    """
    n = v.shape[0]
    qk = Q[k]
    if k == 0:
        c = 1.0 / math.sqrt(n)
        for i in range(n):
            qk[i] = c
        Qmean[0] = c
        for i in range(n):
            QcT[i, 0] = 0.0
        return True
    if k == 1:
        m = _mean(v)
        for i in range(n):
            qk[i] = v[i] - m
    else:
        for i in range(n):
            qk[i] = v[i]
        for t in range(k):
            if not used[t]:
                continue
            qt = Q[t]
            if use_cache and cache[t] != np.inf:
                beta = cache[t]
            else:
                beta = 0.0
                for i in range(n):
                    beta += qt[i] * qk[i]
                if use_cache:
                    cache[t] = beta
            for i in range(n):
                qk[i] -= beta * qt[i]
    ss = 0.0
    for i in range(n):
        ss += qk[i] * qk[i]
    good = ss > MIN_BX_SOS
    if ss > (MIN_BX_SOS if use_cache else 0.0):
        Qmean[k] = _mean(qk)
        length = math.sqrt(ss)
        for i in range(n):
            qk[i] /= length
    else:
        Qmean[k] = 0.0
        for i in range(n):
            qk[i] = 0.0
    mk = Qmean[k]
    for i in range(n):
        QcT[i, k] = qk[i] - mk
    return good


@numba.njit(cache=True)
def _new_form(pred, parent, dirs, used, n_terms):
    """earth's test that a term of this form is not yet in the model (else add one hinge only)."""
    p = dirs.shape[1]
    is_new = True
    for i in range(1, n_terms):
        if used[i]:
            is_new = False
            if dirs[i, pred] == 0:
                return True
            for j in range(p):
                if j != pred and (dirs[i, j] != 0) != (dirs[parent, j] != 0):
                    return True
    return is_new


@numba.njit(cache=True)
def _find_knot(
    new_col, parent, pred, rss_lin, max_legal, bx, QcT, xT, order, yT, ymean, ycbo,
    start_span, min_span, end_span, cov_sx, cov_col, ybx,
):  # fmt: skip
    """Best knot for the hinge ``bx[parent]·(x − t)₊`` in column ``new_col``.

    Returns ``(case position in the sorted order or −1, RSS reduction)``, the reduction
    including ``rss_lin`` (the linear entry); only reductions above ``rss_lin`` and below
    ``max_legal`` count.
    """
    n = xT.shape[1]
    r = yT.shape[0]
    tol = 0.01 if new_col < 15 else 1e-5
    x = xT[pred]
    ords = order[pred]
    bxp = bx[parent]
    for j in range(r):
        ycbo[new_col, j] = 0.0
        ybx[j] = 0.0
    for t in range(new_col + 1):
        cov_col[t] = 0.0
        cov_sx[t] = 0.0
    best = rss_lin
    best_case = -1
    bx_sum = 0.0
    bx_sq_sum = 0.0
    bx_sqx_sum = 0.0
    bxx_sum = 0.0
    st = 0.0
    i_span = start_span
    for i in range(n - 2, end_span - 1, -1):
        ix0 = ords[i]
        x0 = x[ix0]
        ix1 = ords[i + 1]
        x1 = x[ix1]
        b1 = bxp[ix1]
        b_sq = b1 * b1
        dx = x1 - x0
        row = QcT[ix1]
        for t in range(new_col):
            cov_sx[t] += row[t] * b1
            cov_col[t] += dx * cov_sx[t]
        bx_sum += b1
        bx_sq_sum += b_sq
        bxx_sum += b1 * x1
        bx_sqx_sum += b_sq * x1
        su = st
        st = bxx_sum - bx_sum * x0
        inc = dx * (2.0 * bx_sqx_sum - bx_sq_sum * (x0 + x1)) + (su * su - st * st) / n
        cov_col[new_col] += inc
        for j in range(r):
            ybx[j] += (yT[j, ix1] - ymean[j]) * b1
            ycbo[new_col, j] += dx * ybx[j]
        if b1 > 0.0 and cov_col[new_col] > 0.0:
            i_span -= 1
            if i_span == 0:
                i_span = min_span
                delta = 0.0
                for j in range(r):
                    t1 = ycbo[new_col, j]
                    t2 = cov_col[new_col]
                    for t in range(new_col):
                        t1 -= ycbo[t, j] * cov_col[t]
                        t2 -= cov_col[t] * cov_col[t]
                    if t2 / cov_col[new_col] > tol:
                        delta += t1 * t1 / t2
                delta = rss_lin + delta
                if delta > best and delta < max_legal:
                    best_case = i
                    best = delta
    return best_case, best


@numba.njit(cache=True)
def _sort_queue(idx, key1, key2, parent, ascending1):
    """Insertion sort of ``idx`` by key1 (asc or desc), then key2 desc, then parent asc."""
    m = idx.shape[0]
    for a in range(1, m):
        cur = idx[a]
        b = a - 1
        while b >= 0:
            o = idx[b]
            # is cur before o?
            if ascending1:
                d1 = key1[o] - key1[cur]
            else:
                d1 = key1[cur] - key1[o]
            if d1 > 0:
                before = True
            elif d1 < 0:
                before = False
            else:
                d2 = key2[cur] - key2[o]
                if d2 > 0:
                    before = True
                elif d2 < 0:
                    before = False
                else:
                    before = parent[cur] < parent[o]
            if not before:
                break
            idx[b + 1] = o
            b -= 1
        idx[b + 1] = cur


@numba.njit(cache=True)
def forward_pass(
    xT, order, yT, max_degree, nk, thresh, penalty, minspan, endspan, adjust_endspan,
    fast_k, fast_beta, auto_linpreds,
):  # fmt: skip
    """Run the forward pass.

    Parameters: ``xT`` (p, n) predictors, ``order`` (p, n) each row's ascending order,
    ``yT`` (r, n) the (scaled) responses, then earth's parameters.

    Returns ``(bx, dirs, cuts, used, n_terms, termcond)``: ``bx`` (nk, n) the basis (term-major),
    ``dirs`` (nk, p) 0 / 1 (``x − t``) / −1 (``t − x``) / 2 (linear), ``cuts`` (nk, p), ``used``
    the terms in the model.
    """
    p, n = xT.shape
    r = yT.shape[0]
    if fast_k <= 0:
        fast_k = 10001
    if fast_k < 3:
        fast_k = 3
    bx = np.zeros((nk, n))
    Q = np.zeros((nk, n))
    QcT = np.zeros((n, nk))
    Qmean = np.zeros(nk)
    dirs = np.zeros((nk, p), dtype=np.int64)
    cuts = np.zeros((nk, p))
    degree = np.zeros(nk, dtype=np.int64)
    used = np.zeros(nk, dtype=np.bool_)
    beta_cache = np.full((nk, p, nk), np.inf)
    ycbo = np.zeros((nk, r))
    cov_sx = np.zeros(nk)
    cov_col = np.zeros(nk)
    ybx = np.zeros(r)
    xbx = np.empty(n)
    ymean = np.empty(r)
    for i in range(n):
        bx[0, i] = 1.0
    _orthogonalise(Q, Qmean, QcT, _ZERO, bx[0], used, beta_cache[0, 0], _FALSE)
    used[0] = True
    rss_null = 0.0
    for j in range(r):
        ymean[j] = _mean(yT[j])
        ss = 0.0
        for i in range(n):
            ss += (yT[j, i] - ymean[j]) ** 2
        if ss < 1e-8 * n:
            ss = 1e-8 * n
        rss_null += ss
    rss = rss_null
    rss_delta = rss_null
    rsq = 0.0
    rsq_delta = 0.0
    n_used_terms = 1
    g = 0.0
    gcv_null = gcv(1, n, rss_null, penalty)
    # Fast-MARS queue: q_* indexed by queue slot (whose parent is the slot number)
    q_rss = np.full(nk, -1.0)
    q_nterms = np.full(nk, -99, dtype=np.int64)
    q_parent = np.arange(nk)
    q_aged = np.zeros(nk)
    sorted_q = np.zeros(0, dtype=np.int64)
    nq = 0
    # the intercept enters the queue
    q_nterms[0] = 1
    q_rss[0] = max(q_rss[0], rss_null)
    nq = 1
    sorted_q = np.arange(1)
    n_terms = np.int64(1)  # not a literal: the helpers taking it compile once
    best_case = -1
    while nk >= 3:
        max_legal = min(1.01 * rss, 10.0 * rss_delta)
        # ---- find the best new term
        best_case = -1
        best_delta = 0.0
        best_pred = -1
        best_parent = -1
        lin_best = False
        best_new_form = False
        for k in range(n_terms):
            for j in range(r):
                s = 0.0
                for i in range(n):
                    s += (yT[j, i] - ymean[j]) * Q[k, i]
                ycbo[k, j] = s
        for iq in range(min(nq, fast_k)):
            parent = q_parent[sorted_q[iq]]
            best_for_parent = -1.0
            if degree[parent] >= max_degree:
                continue
            min_span, end_span, start_span = _spans(
                n, p, degree[parent] + 1, bx[parent], minspan, endspan, adjust_endspan
            )
            for pred in range(p):
                if dirs[parent, pred] != 0:
                    continue
                rss_lin = 0.0
                is_new = _new_form(pred, parent, dirs, used, n_terms)
                if is_new:
                    for i in range(n):
                        xbx[i] = xT[pred, i] * bx[parent, i]
                    is_new = _orthogonalise(
                        Q, Qmean, QcT, n_terms, xbx, used, beta_cache[parent, pred], _TRUE
                    )
                    qn = Q[n_terms]
                    for j in range(r):
                        s = 0.0
                        s2 = 0.0
                        for i in range(n):
                            s += (yT[j, i] - ymean[j]) * qn[i]
                            s2 += yT[j, i] * qn[i]
                        ycbo[n_terms, j] = s
                        rss_lin += s2 * s2
                    if rss_lin > best_for_parent:
                        best_for_parent = rss_lin
                    if rss_lin > best_delta:
                        best_delta = rss_lin
                        lin_best = True
                        best_case = 0
                        best_pred = pred
                        best_parent = parent
                case, delta = _find_knot(
                    n_terms + 1 if is_new else n_terms, parent, pred, rss_lin, max_legal,
                    bx, QcT, xT, order, yT, ymean, ycbo, start_span, min_span, end_span,
                    cov_sx, cov_col, ybx,
                )  # fmt: skip
                if delta > best_for_parent:
                    best_for_parent = delta
                if delta > best_delta:
                    best_delta = delta
                    lin_best = False
                    best_case = case
                    best_pred = pred
                    best_parent = parent
                    best_new_form = is_new
            q_nterms[parent] = n_terms
            q_rss[parent] = best_for_parent
        if not auto_linpreds:
            lin_best = False
        # ---- add it
        if best_case >= 0:
            t0 = n_terms
            t1 = n_terms + 1
            for j in range(p):
                dirs[t0, j] = dirs[best_parent, j]
                dirs[t1, j] = dirs[best_parent, j]
                cuts[t0, j] = cuts[best_parent, j]
                cuts[t1, j] = cuts[best_parent, j]
            degree[t0] = degree[best_parent] + 1
            degree[t1] = degree[t0]
            dirs[t0, best_pred] = 2 if lin_best else 1
            dirs[t1, best_pred] = -1
            ords = order[best_pred]
            cut = xT[best_pred, ords[best_case]]
            cuts[t0, best_pred] = cut
            cuts[t1, best_pred] = cut
            if lin_best:
                for i in range(n):
                    bx[t0, i] = bx[best_parent, i] * xT[best_pred, i]
            else:
                for i in range(n):
                    ix = ords[i]
                    xi = xT[best_pred, ix]
                    if i > best_case:
                        bx[t0, ix] = bx[best_parent, ix] * (xi - cut)
                    else:
                        bx[t1, ix] = bx[best_parent, ix] * (cut - xi)
            used[t0] = True
            _orthogonalise(Q, Qmean, QcT, t0, bx[t0], used, beta_cache[0, 0], _FALSE)
            if not lin_best and best_new_form:
                used[t1] = True
                _orthogonalise(Q, Qmean, QcT, t1, bx[t1], used, beta_cache[0, 0], _FALSE)
            else:
                degree[t1] = INVALID_DEGREE
                for i in range(n):
                    Q[t1, i] = 0.0
                    QcT[i, t1] = 0.0
                Qmean[t1] = 0.0
        rss_delta = best_delta
        is_pair = best_case > 0 and best_new_form
        n_used_terms += 1
        if is_pair:
            n_used_terms += 1
        rss -= rss_delta
        if -ALMOST_ZERO < rss < ALMOST_ZERO:
            rss = 0.0
        g = gcv(n_used_terms, n, rss, penalty)
        old_rsq = rsq
        rsq = 1.0 - rss / rss_null
        rsq_delta = rsq - old_rsq
        if -ALMOST_ZERO < rsq_delta < ALMOST_ZERO:
            rsq_delta = 0.0
        grsq = 1.0 - g / gcv_null
        if best_case < 0 or (thresh != 0.0 and (rsq_delta < thresh or grsq < MIN_GRSQ)):
            used[n_terms] = False
            used[n_terms + 1] = False
            break
        # queue: new parents (earth numbers the queue slots consecutively)
        n_new = 2 if (not lin_best and best_new_form) else 1
        for _ in range(n_new):
            q_nterms[nq] = n_terms
            q_rss[nq] = np.inf
            nq += 1
        sorted_q = np.arange(nq)
        _sort_queue(sorted_q, q_rss, q_rss, q_parent, _FALSE)
        if fast_beta > 0.0:
            for rank in range(nq):
                s = sorted_q[rank]
                q_aged[s] = rank + fast_beta * (n_terms - q_nterms[s])
            _sort_queue(sorted_q, q_aged, q_rss, q_parent, _TRUE)
        n_terms += 2
        if rsq >= 1.0 - thresh or n_terms >= nk - 1:
            break
    # the reason, in earth's order of tests
    grsq = 1.0 - g / gcv_null
    if nk < 3:
        termcond = TERM_MAX_TERMS_SMALL
    elif thresh != 0.0 and grsq < MIN_GRSQ:
        termcond = TERM_GRSQ_INF if grsq < -1000.0 else TERM_MIN_GRSQ
    elif thresh != 0.0 and rsq_delta < thresh:
        termcond = TERM_SMALL_DELTA
    elif rsq >= 1.0 - thresh:
        termcond = TERM_MAX_RSQ
    elif best_case < 0:
        termcond = TERM_NO_IMPROVEMENT
    else:
        termcond = TERM_NK
    return bx, dirs, cuts, used, n_terms, termcond
