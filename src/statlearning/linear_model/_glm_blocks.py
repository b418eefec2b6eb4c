"""Generalised linear models on rows held in blocks: the IRLS data provider over Dask row blocks
and the fit statistics as mergeable block sums.

:func:`statlearning._solvers.irls.fit_irls` asks an :class:`~statlearning._solvers.irls.IRLSData`
provider for everything that touches rows. :class:`BlockData` answers from Dask row blocks
(:mod:`statlearning._dask`): evaluating a point is **one pass** that returns, per block and
merged in a tree, the deviance, the domain checks, the weighted Gram matrix
``[A | z]ᵀW[A | z]`` of the working problem at that point and the score ``Aᵀr`` — so the
iteration after an accepted step needs no further pass. When the final weighted problem must
be solved by R's QR (a column close to collinearity), one more pass forms the triangular factor
of ``[√W A | √W z]`` by TSQR (the blocks' factors stacked and refactorised), from which R's
limited-pivoting QR decides the aliased columns exactly as on the rows. Only ``k``-sized
summaries leave the workers.

:func:`glm_fit_sums` is the fit statistics of a fitted GLM (null deviance, Pearson's sum for the
dispersion, the row part of the log-likelihood, the range of the deviance residuals and the
flags behind the warnings) as a summary that merges over blocks (:func:`merge_glm_sums`); the
in-memory fit computes it once on all rows.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .. import _dask
from .._core.compiled import single_blas_thread
from .._core.families import get_family
from .._core.linalg import BLOCK_ROWS, gram
from .._core.links import get_link
from .._core.logistic import certificate_gram, certificate_margin, certificate_step
from .._core.ols import block_r_factor, merge_r_factors
from .._solvers.irls import IRLSData, Point, fit_irls

__all__ = [
    "BlockData",
    "LogisticBlocks",
    "deviance_residuals",
    "glm_fit_sums",
    "logistic_deviance_residuals",
    "logistic_fit_sums",
    "merge_glm_sums",
    "merge_logistic_sums",
]

#: Quantiles of the residuals in R's summary.
QUANTILES = [0.0, 0.25, 0.5, 0.75, 1.0]


# ----------------------------------------------------------------------------------------------
# Fit statistics as mergeable sums


def deviance_residuals(y, w, mu, family) -> np.ndarray:
    """R's ``residuals(fit, type = "deviance")``: ``sign(y − μ) √(w d(y, μ))``."""
    d = np.sqrt(np.maximum(w * family.unit_deviance(y, mu), 0.0))
    return np.where(y > mu, d, -d)


def glm_fit_sums(y, w, mu, eta, W, family, link, deviance, sum_w, null_mu) -> dict:
    """The fit statistics of a GLM over some rows (merge blocks by :func:`merge_glm_sums`).

    Parameters
    ----------
    y, w, mu, eta : ndarray of shape (n,)
        Response, prior weights, fitted means and linear predictor (offset included).
    W : ndarray of shape (n,)
        Working weights of the final iteration (zero for rows left out).
    family, link : family and link objects
    deviance, sum_w : float
        The whole sample's deviance and ``Σ w`` (the log-likelihood of the Gamma family needs
        them row by row).
    null_mu : float or ndarray of shape (n,)
        The intercept-only model's means.

    Returns
    -------
    dict
        ``null_deviance``, ``pearson`` (``Σ W r²`` with working residuals
        ``r = (y − μ) dη/dμ``), ``loglik_rows`` (:meth:`Family.loglik_rows` over ``w > 0``),
        ``resid_min``/``resid_max`` (deviance residuals), ``mu_min``/``mu_max`` (``w > 0``),
        ``fractional_successes`` (``w y`` not an integer), ``fractional_y`` (``y`` not an
        integer where ``w > 0``).
    """
    pos = w > 0
    with np.errstate(all="ignore"):
        r = (y - mu) / link.inverse_derivative(eta)
        d = deviance_residuals(y, w, mu, family)
        m = w * y
        used = W > 0
        return {
            "null_deviance": family.deviance(y, np.broadcast_to(null_mu, y.shape).copy(), w),
            "pearson": float(np.sum((W * r * r)[used])),
            "loglik_rows": family.loglik_rows(y[pos], mu[pos], w[pos], deviance, sum_w),
            "resid_min": float(d.min(initial=np.inf)),
            "resid_max": float(d.max(initial=-np.inf)),
            "mu_min": float(mu[pos].min(initial=np.inf)),
            "mu_max": float(mu[pos].max(initial=-np.inf)),
            "fractional_successes": bool(np.any(np.abs(m - np.round(m)) > 1e-3)),
            "fractional_y": bool(np.any(y[pos] != np.floor(y[pos]))),
        }


def merge_glm_sums(a: dict, b: dict) -> dict:
    """Merge two :func:`glm_fit_sums` summaries."""
    out = {k: a[k] + b[k] for k in ("null_deviance", "pearson", "loglik_rows")}
    for k in ("resid_min", "mu_min"):
        out[k] = min(a[k], b[k])
    for k in ("resid_max", "mu_max"):
        out[k] = max(a[k], b[k])
    for k in ("fractional_successes", "fractional_y"):
        out[k] = a[k] or b[k]
    return out


# ----------------------------------------------------------------------------------------------
# Blocks: the response, the linear predictor and the working problem of one block


class Spec:
    """What every block function needs to know about the model (small: it travels with every
    task)."""

    def __init__(self, family, link, fit_intercept, classes=None):
        self.family, self.link, self.fit_intercept = family, link, bool(fit_intercept)
        self.classes = classes  # binary labels: y is 1 where it equals classes[1]


def _response(y, w, spec):
    """The block's float ``y`` (labels as 0/1; the binomial's zero-weight rows as 0, R's
    ``initialize``) and weights (ones when none were given)."""
    if spec.classes is not None:
        y = (np.asarray(y) == spec.classes[1]).astype(np.float64)
    w = np.ones(y.shape[0]) if w is None else w
    if spec.family.name == "binomial":
        y = np.where(w == 0, 0.0, y)
    return y, w


def _state(X, y, w, off, spec, coef):
    """``(η, μ, finite)`` of a block at ``coef`` (``None``: R's starting means)."""
    fam, link = spec.family, spec.link
    with np.errstate(all="ignore"):
        if coef is None:
            eta = link.link(fam.starting_mu(y, w))
            finite = bool(np.all(np.isfinite(eta[w > 0])))
        else:
            c = np.where(np.isnan(coef), 0.0, coef)
            eta = X @ c[1:] + c[0] if spec.fit_intercept else X @ c
            if off is not None:
                eta = eta + off
            finite = True
        mu = link.inverse(eta)
    return eta, mu, finite


def _working(X, y, w, off, spec, eta, mu):
    """The working problem of a block: rows used, ``z`` and ``W`` (as the in-memory IRLS)."""
    link = spec.link
    with np.errstate(all="ignore"):
        mu_eta = link.inverse_derivative(eta)
        good = (w > 0) & (mu_eta != 0)
        z = (y - mu) / mu_eta + eta
        if off is not None:
            z -= off
        W = mu_eta * mu_eta * w / spec.family.variance(mu)
    return good, z[good], W[good]


def _point_block(X, y, w, off, offset, spec, coef, extra=None):
    """One block's share of a point: deviance, domain checks, working Gram matrix, score, and
    ``extra = (fn, args, combine)``'s ``fn(X, y, w, off, spec, eta, mu, *args)`` (statistics
    wanted at the point, read in the same pass) or ``None``."""
    y, w = _response(y, w, spec)
    fam, link = spec.family, spec.link
    eta, mu, finite_eta = _state(X, y, w, off, spec, coef)
    pos = w > 0
    with np.errstate(all="ignore"):
        valid = finite_eta and bool(link.valid_eta(eta[pos]) and fam.valid_mu(mu[pos]))
        dev = fam.deviance(y, mu, w)
        good, z, W = _working(X, y, w, off, spec, eta, mu)
        finite = bool(np.all(np.isfinite(W)) and np.all(np.isfinite(z)))
        k = X.shape[1] + int(spec.fit_intercept)
        G = np.zeros((k + 1, k + 1))
        if finite and z.size:
            rows = X if good.all() else X[good]  # no copy of the block when every row is used
            # row blocks of k + 1 columns: one BLAS thread (as the in-memory iterations)
            with single_blas_thread(BLOCK_ROWS * (k + 1) ** 2):
                G = gram(rows, sqrt_weights=np.sqrt(W), intercept=spec.fit_intercept, extra=z)
        r = w * (y - mu) * link.inverse_derivative(eta) / fam.variance(mu)
        r[~pos] = 0.0
        score = X.T @ r
        if spec.fit_intercept:
            score = np.concatenate([[r.sum()], score])
    more = None
    if extra is not None:
        more = (extra[0](X, y, w, off, spec, eta, mu, *extra[1]), extra[2])
    return dev, valid, finite, G, score, more


def _merge_points(a, b):
    more = None if a[5] is None else (a[5][1](a[5][0], b[5][0]), a[5][1])
    return a[0] + b[0], a[1] and b[1], a[2] and b[2], a[3] + b[3], a[4] + b[4], more


def _r_block(X, y, w, off, offset, spec, coef):
    """The triangular factor of one block's ``[√W A | √W z]`` at ``coef``."""
    y, w = _response(y, w, spec)
    eta, mu, _ = _state(X, y, w, off, spec, coef)
    good, z, W = _working(X, y, w, off, spec, eta, mu)
    return block_r_factor(X if good.all() else X[good], z, np.sqrt(W), spec.fit_intercept)


def _first_block(X, y, w, off, offset, spec):
    """Pass 1 sums: rows of positive weight, ``Σw``, ``Σwy``, ``y``'s range and domain check,
    finite offsets."""
    y, w = _response(y, w, spec)
    with np.errstate(all="ignore"):
        return {
            "n_obs": int(np.count_nonzero(w > 0)),
            "sum_w": float(w.sum()),
            "sum_wy": float(w @ y),
            "y_valid": bool(spec.family.valid_y(y)),
            "y_min": float(y.min(initial=np.inf)),
            "y_max": float(y.max(initial=-np.inf)),
            "offset_finite": off is None or bool(np.all(np.isfinite(off))),
        }


def _merge_first(a, b):
    out = {k: a[k] + b[k] for k in ("n_obs", "sum_w", "sum_wy")}
    out["y_valid"] = a["y_valid"] and b["y_valid"]
    out["offset_finite"] = a["offset_finite"] and b["offset_finite"]
    out["y_min"], out["y_max"] = min(a["y_min"], b["y_min"]), max(a["y_max"], b["y_max"])
    return out


def _stats_block(X, y, w, off, offset, spec, coef, weights_coef, deviance, sum_w, null_mu):
    y, w = _response(y, w, spec)
    eta, mu, _ = _state(X, y, w, off, spec, coef)
    return _glm_sums_at(X, y, w, off, spec, eta, mu, weights_coef, deviance, sum_w, null_mu)


def _glm_sums_at(X, y, w, off, spec, eta, mu, weights_coef, deviance, sum_w, null_mu):
    """:func:`glm_fit_sums` of a block at ``(η, μ)``, the working weights at
    ``weights_coef``."""
    eta_w, mu_w, _ = _state(X, y, w, off, spec, weights_coef)
    good, _, W_good = _working(X, y, w, off, spec, eta_w, mu_w)
    W = np.zeros(y.shape[0])
    W[good] = W_good
    if null_mu is None:  # no intercept: the null model's η is the offset
        with np.errstate(all="ignore"):
            null_mu = spec.link.inverse(np.zeros(y.shape[0]) if off is None else off)
    return glm_fit_sums(y, w, mu, eta, W, spec.family, spec.link, deviance, sum_w, null_mu)


def _residual_block(X, y, w, off, offset, spec, coef):
    y, w = _response(y, w, spec)
    _, mu, _ = _state(X, y, w, off, spec, coef)
    with np.errstate(all="ignore"):
        return deviance_residuals(y, w, mu, spec.family)


# ----------------------------------------------------------------------------------------------
# The provider


class _BlockSystem:
    """The weighted least-squares problem at a point, as block sums."""

    def __init__(self, data, point):
        self.data, self.point = data, point

    def gram(self):
        return self.point.state[1]

    def qr(self, rank_tol):
        """R's QR of the final weighted problem from the TSQR factor of its blocks."""
        from .._core.linalg import qr_least_squares

        data = self.data
        (R,) = _dask.compute(data.reduce(_r_block, merge_r_factors, self.point.coef))
        k = data.k
        return qr_least_squares(R[:, :k], R[:, k], None, False, rank_tol)

    def coordinate_descent(self, coef, tol):  # pragma: no cover - refused before fitting
        raise ValueError(
            "solver='cd' does not fit on Dask collections: coordinate descent needs the rows "
            "in memory; use the default solver"
        )


class BlockData(IRLSData):
    """:class:`~statlearning._solvers.irls.IRLSData` over Dask row blocks.

    Parameters
    ----------
    rows : statlearning._dask.RowBlocks
    offset : dask array of shape (n,) or None
        Chunked as ``rows``.
    spec : Spec
    alpha, l1_ratio : float
    columns : int, optional
        Use only the first ``columns`` columns of ``X`` (``0``: the intercept-only model).
    """

    def __init__(self, rows, offset, spec, alpha=0.0, l1_ratio=0.0, columns=None):
        self.rows, self.off, self.spec = rows, offset, spec
        self.X = rows.X if columns is None else rows.X[:, :columns]
        self.family, self.link = spec.family, spec.link
        self.fit_intercept = spec.fit_intercept
        self.alpha, self.l1_ratio = float(alpha), float(l1_ratio)
        self.k = self.X.shape[1] + int(self.fit_intercept)
        self._start = None
        self.passes = 0
        self.extra = None  # (fn, combine, args): statistics read with the passes near the end
        self.extras = {}  # their results by the coefficients evaluated (and the previous ones)
        self._speculate = False
        self._last_dev = None
        self._last_coef = None  # R's starting means: no coefficients
        self._speculate_below = 0.0
        self._with_previous = False

    def reduce(self, fn, combine, *args):
        """Delayed ``combine`` over ``fn(X, y, w, offset, row, spec, *args)`` of every block."""
        self.passes += 1
        arrays = [self.X, self.rows.y, self.rows.w, self.off]
        return _dask.map_reduce(fn, combine, arrays, self.rows.offsets, self.spec, *args)

    def first_pass(self, *others):
        """Pass 1: the sums of :func:`_first_block` and R's starting point, computed with the
        delayed ``others`` (the validation pass); returns ``(sums, *others)``."""
        first = self.reduce(_first_block, _merge_first)
        start = self.reduce(_point_block, _merge_points, None)
        sums, start, *rest = _dask.compute(first, start, *others)
        self._start = start
        self.set_sums(sums)
        return (sums, *rest)

    def set_sums(self, sums):
        self.sum_w = sums["sum_w"]
        self.weighted_mean_y = sums["sum_wy"] / sums["sum_w"] if sums["sum_w"] else 0.0

    def _point(self, coef, result):
        dev, valid, finite, G, score, _ = result
        return Point(coef, float(dev), bool(valid), (finite, G, score))

    def speculate(self, fn, combine, args, below, with_previous=False):
        """Read ``fn(X, y, w, off, spec, eta, mu, *args)`` (merged by ``combine``) with every
        evaluation once the relative change of the deviance between two evaluations falls
        below ``below`` (the iterations are then about to stop): the statistics at the final
        coefficients then need no pass of their own (:meth:`extra_at`). With
        ``with_previous``, the previously evaluated coefficients come first in ``args``."""
        self.extra = (fn, combine, tuple(args))
        self._speculate_below = float(below)
        self._with_previous = bool(with_previous)

    @staticmethod
    def _key(coef, previous=None):
        def key(c):
            return None if c is None else np.where(np.isnan(c), 0.0, c).tobytes()

        return key(coef), key(previous)

    def extra_at(self, coef, previous=None):
        """The speculative statistics at ``coef`` (and the previous ``previous`` with
        ``with_previous``; aliased entries as zeros), or ``None``."""
        return self.extras.get(self._key(coef, previous if self._with_previous else None))

    def evaluate(self, coef) -> Point:
        c = np.asarray(coef, dtype=np.float64)
        extra = None
        previous = self._last_coef if self._with_previous else None
        if self.extra is not None and self._speculate:
            fn, combine, args = self.extra
            if self._with_previous:
                args = (previous, *args)
            extra = (fn, args, combine)
        (result,) = _dask.compute(self.reduce(_point_block, _merge_points, c, extra))
        if result[5] is not None:
            self.extras[self._key(c, previous)] = result[5][0]
        dev = float(result[0])
        if self._last_dev is not None and np.isfinite(dev):
            change = abs(dev - self._last_dev) / (abs(dev) + 0.1)
            self._speculate = change < self._speculate_below
        self._last_dev, self._last_coef = dev, c
        return self._point(c, result)

    def start(self) -> Point | None:
        if self._start is None:
            (self._start,) = _dask.compute(self.reduce(_point_block, _merge_points, None))
        point = self._point(None, self._start)
        return point if point.valid else None

    def system(self, point, check=True):
        if check and not point.state[0]:
            return None
        return _BlockSystem(self, point)

    def score(self, point) -> np.ndarray:
        return point.state[2].copy()

    def fit(self, **kwargs):
        """:func:`~statlearning._solvers.irls.fit_irls` on these blocks."""
        return fit_irls(self, **kwargs)

    def statistics(self, res, null_mu):
        """:func:`glm_fit_sums` of a fitted model over every block (read with the iterations'
        last pass when it was at these coefficients, see :meth:`speculate_statistics`; else
        one pass)."""
        at = res.weights_at.coef if res.weights_at is not None else None
        # the speculative sums were read with the deviance unknown: not for the Gamma family
        if self.extra is not None and self.extra[2][1:] == (self.sum_w, null_mu):
            known = self.extra_at(res.coef, at)
            if known is not None:
                return known
        job = self.reduce(
            _stats_block, merge_glm_sums, np.where(np.isnan(res.coef), 0.0, res.coef), at,
            float(res.deviance), float(self.sum_w), null_mu,
        )  # fmt: skip
        return _dask.compute(job)[0]

    def speculate_statistics(self, null_mu, tol):
        """Read :meth:`statistics` with the last iterations (:meth:`speculate`), except for
        the Gamma family, whose log-likelihood rows need the final deviance."""
        if self.family.name != "gamma":
            args = (np.nan, self.sum_w, null_mu)  # the deviance: used by the Gamma family only
            self.speculate(_glm_sums_at, merge_glm_sums, args, np.sqrt(tol), with_previous=True)

    def residual_quantiles(self, coef, n, low, high):
        """Exact quantiles of the deviance residuals (all rows), without moving them."""
        blocks = _dask.map_blocks(
            _residual_block, [self.X, self.rows.y, self.rows.w, self.off], self.rows.offsets,
            self.spec, np.where(np.isnan(coef), 0.0, coef),
        )  # fmt: skip
        return _dask.exact_quantiles(blocks, n, QUANTILES, low, high)


# ----------------------------------------------------------------------------------------------
# Binary logistic regression (binomial family, logit link, class labels)


def logistic_deviance_residuals(y, w, eta) -> np.ndarray:
    """Deviance residuals of a logistic fit from its linear predictor (no cancellation)."""
    with np.errstate(all="ignore"):
        d = np.sqrt(np.maximum(2.0 * w * (np.logaddexp(0.0, eta) - y * eta), 0.0))
    return np.sign(y - special.expit(eta)) * d


def logistic_fit_sums(y, w, eta, null_mu) -> dict:
    """The fit statistics of a binary logistic fit over some rows (merge by
    :func:`merge_logistic_sums`): half the deviance ``loss``, the null deviance, the row part
    of ``−2 log L``, the range of the deviance residuals (``w > 0``), the largest ``|η|`` and
    whether every row is classified correctly (``w > 0``)."""
    pos = w > 0
    mu = special.expit(eta)
    binomial = get_family("binomial")
    r = logistic_deviance_residuals(y, w, eta)[pos]
    with np.errstate(all="ignore"):
        return {
            "loss": float(w @ (np.logaddexp(0.0, eta) - y * eta)),
            "null_deviance": binomial.deviance(y, np.full(y.shape, null_mu), w),
            "loglik_rows": binomial.loglik_rows(y[pos], mu[pos], w[pos], 0.0, 0.0),
            "resid_min": float(r.min(initial=np.inf)),
            "resid_max": float(r.max(initial=-np.inf)),
            "extreme": float(np.abs(eta[pos]).max(initial=0.0)),
            "perfect": bool(np.all((eta[pos] > 0) == (y[pos] > 0.5))),
        }


def merge_logistic_sums(a: dict, b: dict) -> dict:
    """Merge two :func:`logistic_fit_sums` summaries."""
    out = {k: a[k] + b[k] for k in ("loss", "null_deviance", "loglik_rows")}
    out["resid_min"] = min(a["resid_min"], b["resid_min"])
    out["resid_max"] = max(a["resid_max"], b["resid_max"])
    out["extreme"] = max(a["extreme"], b["extreme"])
    out["perfect"] = a["perfect"] and b["perfect"]
    return out


def _eta(X, coef, fit_intercept):
    c = np.where(np.isnan(coef), 0.0, coef)
    return X @ c[1:] + c[0] if fit_intercept else X @ c


def _labels_block(y, offset):
    return np.unique(y)


def _logistic_block(X, y, w, off, offset, spec, coef, null_mu):
    y, w = _response(y, w, spec)
    return logistic_fit_sums(y, w, _eta(X, coef, spec.fit_intercept), null_mu)


def _logistic_sums_at(X, y, w, off, spec, eta, mu, null_mu):
    return logistic_fit_sums(y, w, eta, null_mu)


def _logistic_residual_block(X, y, w, off, offset, spec, coef):
    y, w = _response(y, w, spec)
    r = logistic_deviance_residuals(y, w, _eta(X, coef, spec.fit_intercept))
    return r[w > 0]


def _certificate_gram_block(X, y, w, off, offset, spec, coef, kept):
    y, w = _response(y, w, spec)
    pos = w > 0
    eta = _eta(X, coef, spec.fit_intercept)[pos]
    k = int(kept.sum()) + int(spec.fit_intercept)
    with single_blas_thread(BLOCK_ROWS * (k + 1) ** 2):
        G = certificate_gram(X[pos][:, kept], y[pos], eta, w[pos], spec.fit_intercept)
    return (G is not None, np.zeros((k + 1, k + 1)) if G is None else G)


def _certificate_margin_block(X, y, w, off, offset, spec, step, kept):
    y, w = _response(y, w, spec)
    pos = w > 0
    return certificate_margin(X[pos][:, kept], y[pos], step, spec.fit_intercept)


def _and_add(a, b):
    return a[0] and b[0], a[1] + b[1]


def _union(a, b):
    return np.union1d(a, b)


class LogisticBlocks:
    """The passes of a binary logistic fit on Dask row blocks, around :class:`BlockData`."""

    def __init__(self, rows, fit_intercept):
        self.rows = rows
        self.spec = Spec(get_family("binomial"), get_link("logit"), fit_intercept)
        self.data = None

    def labels(self, *others):
        """The sorted labels of ``y`` (a pass over ``y`` alone, with the delayed ``others``)."""
        job = _dask.map_reduce(_labels_block, _union, [self.rows.y], self.rows.offsets)
        return _dask.compute(job, *others)

    def first_pass(self, classes, *others):
        """Pass 1 over ``X`` (:meth:`BlockData.first_pass`) for the labels ``classes``, with
        the delayed ``others`` (the validation pass); returns ``(sums, *others)``."""
        self.spec.classes = classes
        self.data = BlockData(self.rows, None, self.spec)
        return self.data.first_pass(*others)

    def fit(self, l2, null_mu=None, **kwargs):
        """IRLS with the ridge penalty ``(l2/2)‖β‖²`` on half the deviance (as
        :func:`~statlearning._solvers.logistic.binary_irls`), after :meth:`first_pass`.

        With ``null_mu``, the fit statistics (:func:`logistic_fit_sums`) are read with the
        last iterations' passes (:meth:`BlockData.speculate`), so that :meth:`statistics`
        usually needs no pass of its own.
        """
        data = self.data
        data.alpha = l2 / data.sum_w if l2 > 0 else 0.0
        if null_mu is not None:
            tol = kwargs.get("tol", 1e-8)
            data.speculate(_logistic_sums_at, merge_logistic_sums, (null_mu,), np.sqrt(tol))
        return data.fit(**kwargs)

    def statistics(self, coef, null_mu):
        """:func:`logistic_fit_sums` at ``coef`` over every block (read with the iterations'
        last pass when it was at ``coef``, else one pass)."""
        known = self.data.extra_at(coef) if self.data.extra is not None else None
        if known is not None and self.data.extra[2] == (null_mu,):
            return known
        job = self.data.reduce(_logistic_block, merge_logistic_sums, coef, null_mu)
        return _dask.compute(job)[0]

    def residual_quantiles(self, coef, n, low, high):
        rows = self.rows
        blocks = _dask.map_blocks(
            _logistic_residual_block, [rows.X, rows.y, rows.w, None], rows.offsets, self.spec,
            coef,
        )  # fmt: skip
        return _dask.exact_quantiles(blocks, n, QUANTILES, low, high)

    def certifies_no_separation(self, coef, kept, margin=0.5) -> bool:
        """:func:`~statlearning._core.logistic.certifies_no_separation` in two passes."""
        (ok, G) = _dask.compute(self.data.reduce(_certificate_gram_block, _and_add, coef, kept))[0]
        step = certificate_step(G) if ok else None
        if step is None:
            return False
        job = self.data.reduce(_certificate_margin_block, max, step, kept)
        return _dask.compute(job)[0] < margin


# ----------------------------------------------------------------------------------------------
# D² (GLMRegressor.score) from block sums


def _d2_block(mu, y, w, offset, spec):
    out = _first_block(None, y, w, None, offset, spec)
    y, w = _response(y, w, spec)
    with np.errstate(all="ignore"):
        out["deviance"] = spec.family.deviance(y, mu, w)
    return out


def _merge_d2(a, b):
    out = _merge_first(a, b)
    out["deviance"] = a["deviance"] + b["deviance"]
    return out


def _null_block(y, w, offset, spec, ybar):
    y, w = _response(y, w, spec)
    with np.errstate(all="ignore"):
        return spec.family.deviance(y, np.full(y.shape, ybar), w)


def d2_sums(rows, mu, spec):
    """Pass 1 of D² (``Σw``, ``Σwy``, ``y``'s domain check, the deviance at ``mu``) with the
    validation pass; returns ``(sums, checks)``."""
    mu = mu.rechunk((rows.X.chunks[0],))
    job = _dask.map_reduce(_d2_block, _merge_d2, [mu, rows.y, rows.w], rows.offsets, spec)
    return _dask.compute(job, _dask.check_blocks(rows))


def null_deviance(rows, spec, ybar) -> float:
    """``D(y, ȳ_w)`` over the blocks (one pass)."""
    job = _dask.map_reduce(_null_block, _add, [rows.y, rows.w], rows.offsets, spec, ybar)
    return _dask.compute(job)[0]


def _add(a, b):
    return a + b
