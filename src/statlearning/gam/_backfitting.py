"""Local scoring with modified backfitting: the additive models of R's ``gam`` package.

Hastie and Tibshirani's algorithm, as the ``gam`` package (``gam.fit``, ``s.wam``,
``lo.wam``, ``general.wam``) runs it. The additive predictor is

.. math:: \\eta_i = \\beta_0 + \\sum_t \\big(x_{it}^\\top\\beta_t + f_t(x_{it})\\big),

a linear part with one or more columns per term (a smoother's own variable included) and, for
the smoothers, a nonlinear part ``f_t`` with no constant or linear component.

*Local scoring* (the outer loop, ``gam.fit``): from ``μ`` and ``η = g(μ)`` form the working
response and weights of Fisher scoring,

.. math:: z_i = \\eta_i + (y_i - \\mu_i)\\,\\frac{d\\eta}{d\\mu}, \\qquad
          W_i = \\frac{w_i\\,(d\\mu/d\\eta)^2}{V(\\mu_i)},

fit the additive model to ``z`` with weights ``W`` by backfitting, and stop when the deviance
settles, ``|D_old − D| / (D_old + 0.1) ≤ tol`` (gam's ``epsilon``), or after ``max_iter``
iterations. It starts from the family's ``mustart`` (``μ = y`` for the Gaussian family, so
that its first deviance is 0 and a Gaussian fit always takes two iterations, the second one
warm-started, as in R).

*Modified backfitting* (the inner loop, ``bakfit``): every sweep first fits *all* linear
columns jointly by weighted least squares to ``z − Σ_t f_t`` (R's limited-pivoting QR with
tolerance ``1e-7``: aliased columns get ``NaN`` coefficients), then updates each smoother in
turn on its partial residual, keeping only the smoother's nonlinear part: its weighted
projection on the term's own linear columns (``1, x`` — and ``x²`` for a degree-2 ``lo``)
is removed. Sweeps stop when the relative change of the functions,
``sqrt(Σ_t mean_W (f_t − f_t^old)² / Σ_i W_i (Σ_t f_{it})²)``, is at most ``bf_tol``
(gam's ``bf.epsilon``), or after ``bf_max_iter`` sweeps. Each sweep starts from the
functions of the previous local-scoring iteration.

Smoothers (``specs``):

* ``("ss", j, df)``: gam's ``s(x, df)``, the cubic smoothing spline of
  :mod:`statlearning._core.smoothing_spline` with gam's knots (``sknotl``: every unique x up
  to 49 of them, else ``.nknots.smspl``'s number, placed by integer arithmetic) and
  ``λ`` such that the trace of the whole smoother (constant and linear part included) is
  ``df + 1``; the nonlinear part then has ``df − 1`` degrees of freedom (gam's ``nl.df``).
  The trace depends on the weights only, so ``λ`` is found again for each local-scoring
  iteration and held during its sweeps.
* ``("lo", j, span, degree)``: gam's ``lo(x, span, degree)``, R's loess at the unique x
  with the summed weights as precision weights, on R's interpolation surface as gam computes
  it (``surface = "interpolate"``, ``cell = 0.2``: local fits of
  :mod:`statlearning._core.loess` at the vertices of R's k-d tree, values and slopes
  joined by cubic Hermite interpolation; ``neighbourhood ⌊n·span⌋``); its nonlinear part has
  ``tr L − (degree + 1)`` degrees of freedom, ``L`` the surface's smoother matrix (R's
  exact leverages of the surface). One predictor per ``lo`` term.
* ``("l", j)``: a linear column; ``("f", j)``: a factor given as integer codes, treatment
  coded with the smallest code as the baseline (R's default contrasts on a factor whose
  levels sort as the codes).

``df`` is matched as gam matches it: ``λ`` comes from gam's own search, ``sbart``'s golden
section over ``spar ∈ [−1.5, 2]`` to ``1e-4``, evaluation by evaluation
(:func:`~statlearning._core.smoothing_spline.lambda_for_df_gam`), so the trace is ``df + 1``
only to about ``1e-5``, as in R; ``df_match="exact"`` takes the exact root instead. A model
with both ``ss`` and ``lo`` terms runs gam's ``general.wam``, whose splines keep the *last*
``spar`` the search tried rather than the best one (about ``3e-5`` away); so do ours there.

Where we differ from the gam package, deliberately:

* gam rounds smoothing variables to six significant digits (``signif(x, 6)``) before using
  them, in the smoother and in the linear column; we use the values given (rounding merges
  values closer than a millionth of their size, e.g. dates stored as seconds).
* Prediction at new x (``predict_terms``): gam refits each smoother to the final partial
  residuals and evaluates that fit, constant and linear component included
  (``predict.Gam``: ``gam.s``/``gam.lo`` with ``xeval``); its ``sbart`` leaves that refit at
  the *last* ``spar`` its search evaluated, not the best one, about ``3e-5`` away, so gam's
  predictions at the training x differ from its own fitted values by about ``1e-4`` of the
  term's size. We evaluate the smoother of the last backfitting update with its constant
  and linear component removed, so that the terms at the training x are exactly
  ``term_fits``. For ``lo`` terms the two coincide (the surface's vertex fits are linear
  in the responses). Splines continue linearly beyond the data (as gam); ``lo`` surfaces
  continue along their end tangents beyond the k-d tree's box (the data's range widened by
  0.5 %), where gam gives ``NA``.

Terms are centred as R's ``predict(fit, type = "terms")``: each term's linear part by the
(unweighted) column means of its columns, ``intercept`` the ``"constant"`` attribute, so
``eta = intercept + term_fits.sum(axis=1)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import linalg

from .._core import smoothing_spline as ss
from .._core.families import get_family
from .._core.linalg import R_TOL, qr_least_squares
from .._core.links import get_link
from .._core.loess import hermite_rows, kd_vertices, local_operator
from ..exceptions import warn_not_converged

__all__ = ["LocalScoringFit", "local_scoring"]

_OWNER = "local_scoring"


def _term_name(spec) -> str:
    return f"{spec[0]}({', '.join(repr(v) for v in spec[1:])})"


# --------------------------------------------------------------------------- smoothers
class _SplineSmoother:
    """gam's ``s(x, df)``: a smoothing spline whose trace is ``df + 1``, nonlinear part kept."""

    kind = "ss"

    def __init__(self, x, df, name, df_match="gam", general=False):
        self.df_match, self.general = df_match, general
        ux, self.inverse = np.unique(x, return_inverse=True)
        if ux.size < 4:
            raise ValueError(
                f"{_OWNER}: term {name} needs at least 4 unique values of its variable "
                f"(gam's rule); got {ux.size}."
            )
        self.name, self.df = name, float(df)
        self.x_min, self.x_range = float(ux[0]), float(ux[-1] - ux[0])
        self.xin = (ux - ux[0]) / self.x_range
        self.knots = ss.smoothing_knots(self.xin, all_knots=False, rule="gam")
        self.vals, self.first = ss.basis_rows(self.knots, self.xin)
        self.penalty = ss.penalty_band(self.knots)
        n_basis = self.knots.size - 4
        top = min(n_basis, ux.size)
        if self.df + 1.0 >= top:
            raise ValueError(
                f"{_OWNER}: term {name} asks for df={df:g}, a smoother of trace df + 1; its "
                f"{ux.size} unique values and {n_basis} basis functions allow df < {top - 1}."
            )

    def set_weights(self, w):
        win = np.bincount(self.inverse, weights=w, minlength=self.xin.size)
        self.win, self.sumw = win, float(win.sum())
        self.system = ss.SplineSystem.from_rows(
            self.knots, self.vals, self.first, self.penalty, win, np.zeros(win.size)
        )
        self.xbar = float(win @ self.xin) / self.sumw
        self.dsum = float(win @ (self.xin - self.xbar) ** 2) / self.sumw
        if self.df <= 1.0 or np.count_nonzero(win) <= 2:  # a straight line: no nonlinear part
            self.lam, self.nl_df = math.inf, 0.0
            return
        if self.df_match == "exact":
            try:
                self.lam = ss.lambda_for_df(self.system, self.df + 1.0)
            except ValueError:
                raise ValueError(
                    f"{_OWNER}: term {self.name}: df={self.df:g} is too close to 1 (a straight "
                    "line) for the exact root; use df=1 or a larger df."
                ) from None
        else:
            self.lam = ss.lambda_for_df_gam(self.system, self.df + 1.0, last=self.general)
        self.nl_df = ss.df_and_rss(self.system, self.lam)[0] - 2.0

    def smooth(self, r, w):
        """The nonlinear part of the spline fit to ``r`` (weights ``w``), at every row."""
        if math.isinf(self.lam):
            self.coef, self.sbar, self.slope = None, 0.0, 0.0
            return np.zeros(r.size)
        sy = np.bincount(self.inverse, weights=w * r, minlength=self.xin.size)
        ybar = np.divide(sy, self.win, out=np.zeros_like(sy), where=self.win > 0)
        fit = ss.solve_band(self.system.with_response(ybar), self.lam, leverages=False)
        sout = fit.fitted
        self.coef = fit.coef
        self.sbar = float(self.win @ sout) / self.sumw
        self.slope = float(self.win @ ((self.xin - self.xbar) * sout)) / self.sumw / self.dsum
        nl = sout - self.sbar - (self.xin - self.xbar) * self.slope
        return nl[self.inverse]

    def release(self):
        """Keep only what prediction needs (knots, coefficients, the linear part removed)."""
        for name in ("inverse", "xin", "vals", "first", "penalty", "system", "win"):
            self.__dict__.pop(name, None)

    def predict(self, x):
        if self.coef is None:
            return np.zeros(x.size)
        xs = (x - self.x_min) / self.x_range
        vals, first = ss.extrapolated_rows(self.knots, xs)
        g = ss.row_values(vals, first, self.coef)
        return g - self.sbar - (xs - self.xbar) * self.slope


class _LoessSmoother:
    """gam's ``lo(x, span, degree)``: loess at the unique x on R's interpolation surface,
    nonlinear part kept."""

    kind = "lo"

    def __init__(self, x, span, degree, name):
        ux, self.inverse = np.unique(x, return_inverse=True)
        if ux.size < 4:
            raise ValueError(
                f"{_OWNER}: term {name} needs at least 4 unique values of its variable "
                f"(gam's rule); got {ux.size}."
            )
        self.name, self.span, self.degree = name, float(span), int(degree)
        self.xin = ux[:, None]
        nef = ux.size
        self.nf = min(nef, math.floor(nef * self.span))  # lowesd's ⌊n·f⌋
        if self.nf < self.degree + 2:
            raise ValueError(
                f"{_OWNER}: term {name}: span={span:g} gives {self.nf} neighbours among the "
                f"{nef} unique values; a local polynomial of degree {degree} needs at "
                f"least {self.degree + 2}."
            )
        nvmax = math.ceil(200 + 300 * (1 - 1 / math.log(max(nef - 200, 3))))  # lo.wam's
        self.vertices = kd_vertices(ux, self.span, nvmax)
        self.cell, self.H = hermite_rows(self.vertices, ux)
        self.P = _powers(ux, self.degree)

    def set_weights(self, w):
        win = np.bincount(self.inverse, weights=w, minlength=self.xin.shape[0])
        self.win = win
        sw = np.sqrt(win)
        self.Q, self.R = np.linalg.qr(self.P * sw[:, None])
        idx, L = local_operator(self.xin, win, self.vertices[:, None], self.span, self.degree,
                                n_coef=2, nf=self.nf)  # fmt: skip
        nv, nef = self.vertices.size, win.size
        # values (G[0]) and slopes (G[1]) at the vertices as linear maps of the responses
        self.G = np.zeros((2, nv, nef))
        rows = np.repeat(np.arange(nv), idx.shape[1])
        for c in range(2):
            np.add.at(self.G[c], (rows, idx.ravel()), L[:, c].ravel())
        i, k, H = np.arange(nef), self.cell, self.H
        lev = (H[:, 0] * self.G[0, k, i] + H[:, 1] * self.G[0, k + 1, i]
               + H[:, 2] * self.G[1, k, i] + H[:, 3] * self.G[1, k + 1, i])  # fmt: skip
        self.nl_df = float(lev.sum()) - self.P.shape[1]

    def _surface(self, g, cell, H):
        return (H[:, 0] * g[0, cell] + H[:, 1] * g[0, cell + 1] + H[:, 2] * g[1, cell]
                + H[:, 3] * g[1, cell + 1])  # fmt: skip

    def smooth(self, r, w):
        sy = np.bincount(self.inverse, weights=w * r, minlength=self.win.size)
        yin = np.divide(sy, self.win, out=np.zeros_like(sy), where=self.win > 0)
        self.g = self.G @ yin  # (2, n_vertices): values and slopes
        sout = self._surface(self.g, self.cell, self.H)
        sw = np.sqrt(self.win)
        self.beta = linalg.solve_triangular(self.R, self.Q.T @ (sw * sout))
        return (sout - self.P @ self.beta)[self.inverse]

    def release(self):
        """Keep only what prediction needs (the vertices, their values and slopes, β)."""
        for name in ("inverse", "xin", "P", "cell", "H", "win", "Q", "R", "G", "yin"):
            self.__dict__.pop(name, None)

    def predict(self, x):
        cell, H = hermite_rows(self.vertices, x)
        return self._surface(self.g, cell, H) - _powers(x, self.degree) @ self.beta


def _powers(x, degree):
    return np.column_stack([x**k for k in range(degree + 1)])


# --------------------------------------------------------------------------- the design
@dataclass
class _Term:
    spec: tuple
    kind: str
    column: int
    cols: np.ndarray  # columns of the linear design (0 is the intercept)
    levels: np.ndarray | None = None
    smoother: object = None


def _check_specs(specs, n_columns):
    if not isinstance(specs, list | tuple) or len(specs) == 0:
        raise ValueError(f"{_OWNER}: specs must be a non-empty list of term tuples.")
    arity = {"ss": 3, "lo": 4, "l": 2, "f": 2}
    out = []
    for spec in specs:
        if not isinstance(spec, tuple) or not spec or spec[0] not in arity:
            raise ValueError(
                f"{_OWNER}: each term must be a tuple starting with one of 'ss', 'lo', 'l', "
                f"'f'; got {spec!r}."
            )
        if len(spec) != arity[spec[0]]:
            raise ValueError(
                f"{_OWNER}: term {spec!r} must have {arity[spec[0]]} entries "
                "(('ss', j, df), ('lo', j, span, degree), ('l', j), ('f', j))."
            )
        j = spec[1]
        if isinstance(j, bool) or not isinstance(j, int | np.integer) or not 0 <= j < n_columns:
            raise ValueError(
                f"{_OWNER}: term {spec!r} names column {j!r}; X_columns has {n_columns} columns."
            )
        if spec[0] == "ss" and not (np.isfinite(spec[2]) and spec[2] >= 1):
            raise ValueError(f"{_OWNER}: term {spec!r}: df must be a number >= 1.")
        if spec[0] == "lo":
            if not (np.isfinite(spec[2]) and spec[2] > 0):
                raise ValueError(f"{_OWNER}: term {spec!r}: span must be positive.")
            if spec[3] not in (1, 2):
                raise ValueError(f"{_OWNER}: term {spec!r}: degree must be 1 or 2.")
        out.append(spec)
    return out


def _build(X, specs, df_match):
    """Terms with their columns of the linear design ``A`` (intercept first) and ``A``."""
    columns, terms = [np.ones(X.shape[0])], []
    for spec in specs:
        kind, j = spec[0], int(spec[1])
        x = X[:, j]
        start = len(columns)
        name = _term_name(spec)
        if kind == "f":
            if not np.all(x == np.round(x)):
                raise ValueError(
                    f"{_OWNER}: term {name}: column {j} must hold integer factor codes."
                )
            levels = np.unique(x)
            columns += [(x == lv).astype(np.float64) for lv in levels[1:]]
            terms.append(_Term(spec, kind, j, np.arange(start, len(columns)), levels))
            continue
        columns.append(x)
        if kind == "lo" and spec[3] == 2:
            columns.append(x**2)
        smoother = None
        if kind == "ss":
            general = len({sp[0] for sp in specs} & {"ss", "lo"}) > 1  # gam's general.wam
            smoother = _SplineSmoother(x, spec[2], name, df_match, general)
        elif kind == "lo":
            smoother = _LoessSmoother(x, spec[2], spec[3], name)
        terms.append(_Term(spec, kind, j, np.arange(start, len(columns)), smoother=smoother))
    return terms, np.column_stack(columns)


def _linear_columns(terms, X):
    """The linear design's columns of the terms at the rows of ``X`` (no intercept)."""
    cols = []
    for t in terms:
        x = X[:, t.column]
        if t.kind == "f":
            unseen = ~np.isin(x, t.levels)
            if unseen.any():
                raise ValueError(
                    f"{_OWNER}: column {t.column} (term {_term_name(t.spec)}) has factor codes "
                    f"unseen in the fit: {np.unique(x[unseen])[:5].tolist()}."
                )
            cols += [(x == lv).astype(np.float64) for lv in t.levels[1:]]
        else:
            cols.append(x)
            if t.kind == "lo" and t.spec[3] == 2:
                cols.append(x**2)
    return np.column_stack(cols) if cols else np.zeros((X.shape[0], 0))


class _Projection:
    """Weighted least squares on the kept columns of ``A`` (R's aliasing decision)."""

    def __init__(self, A, w, z):
        sw = np.sqrt(w)
        fac = qr_least_squares(A[:, 1:], z, sqrt_w=sw, fit_intercept=True, tol=R_TOL)
        self.kept = fac.kept
        self.A = A[:, self.kept]
        self.sw = sw
        self.Q, self.R = np.linalg.qr(self.A * sw[:, None])

    def fit(self, v):
        b = linalg.solve_triangular(self.R, self.Q.T @ (self.sw * v))
        return b, self.A @ b


# --------------------------------------------------------------------------- result
@dataclass
class LocalScoringFit:
    """The fitted additive model; see :func:`local_scoring`.

    Attributes
    ----------
    intercept : float
        The constant of the centred terms (R's ``attr(predict(fit, type = "terms"),
        "constant")``).
    linear_coef : dict
        Column ``j`` → coefficients of the term's linear columns (``NaN`` when aliased): the
        slope of ``l``/``ss`` terms, ``x`` and ``x²`` for a degree-2 ``lo``, one per level but
        the first for ``f``. Not centred (R's ``coef(fit)``).
    intercept_coef : float
        The uncentred intercept (R's ``coef(fit)[1]``).
    term_fits : ndarray of shape (n_samples, n_terms)
        Centred partial fits in ``specs`` order (R's ``predict(fit, type = "terms")``).
    eta, mu : ndarray of shape (n_samples,)
        Additive predictor and fitted mean.
    deviance, null_deviance : float
    edf : ndarray of shape (n_terms,)
        Degrees of freedom per term: its linear columns (not aliased) plus, for smoothers,
        the nonlinear part's ``nl_df`` (``s(x, df)`` has about ``df``).
    nl_df : ndarray of shape (n_terms,)
        gam's ``nl.df``: the trace of the smoother minus its linear part's (0 for ``l``, ``f``).
    df_residual : float
        ``n − rank − Σ nl_df − #(zero working weights)`` (gam's ``df.residual``).
    working_weights : ndarray of shape (n_samples,)
        The weights of the last backfitting.
    n_iter : int
        Local-scoring iterations.
    bf_iter : list of int
        Backfitting sweeps of each iteration.
    converged : bool
    nl_chisq : ndarray of shape (n_terms,)
        gam's ``nl.chisq`` (``gam.nlchisq``) of each smoother (0 for ``l``, ``f``): with
        ``r = √W (z − η)`` and ``s = √W f_t`` its part off the linear columns ``s⊥``,
        ``Σ (s⊥² + 2 s r)``.
    effects : ndarray of shape (n_kept,)
        ``Qᵀ √W (z − Σ_t f_t)`` of the weighted linear columns' QR (R's ``effects``, the
        first ``rank`` entries), in the order of the kept columns of the linear design.
    assign : ndarray of shape (n_kept,)
        Term index of each kept linear column (``-1`` for the intercept).
    working_rss : float
        ``Σ W (z − η)²``: the weighted working residual sum of squares (R's
        ``sum(weights * residuals^2)``).
    """

    intercept: float
    intercept_coef: float
    linear_coef: dict
    term_fits: np.ndarray
    eta: np.ndarray
    mu: np.ndarray
    deviance: float
    null_deviance: float
    edf: np.ndarray
    nl_df: np.ndarray
    df_residual: float
    working_weights: np.ndarray
    n_iter: int
    bf_iter: list
    converged: bool
    nl_chisq: np.ndarray = field(repr=False, default=None)
    effects: np.ndarray = field(repr=False, default=None)
    assign: np.ndarray = field(repr=False, default=None)
    working_rss: float = float("nan")
    _terms: list = field(repr=False, default_factory=list)
    _coef: np.ndarray = field(repr=False, default=None)
    _means: np.ndarray = field(repr=False, default=None)
    _n_columns: int = field(repr=False, default=0)

    def predict_terms(self, X_new_columns) -> np.ndarray:
        """Centred terms at new rows, shape ``(m, n_terms)``, in ``specs`` order.

        ``intercept + predict_terms(X).sum(axis=1)`` is the additive predictor. Linear parts
        use the training column means; smoothers are evaluated as the module docstring says.
        """
        X = np.asarray(X_new_columns, dtype=np.float64)
        if X.ndim != 2 or X.shape[1] != self._n_columns:
            raise ValueError(
                f"{_OWNER}: new data must be a 2-D array with {self._n_columns} columns; got "
                f"shape {X.shape}."
            )
        if not np.all(np.isfinite(X)):
            raise ValueError(f"{_OWNER}: new data contain NaN or infinity.")
        A = _linear_columns(self._terms, X)
        out = np.empty((X.shape[0], len(self._terms)))
        for k, t in enumerate(self._terms):
            c = t.cols - 1
            out[:, k] = (A[:, c] - self._means[c]) @ self._coef[c]
            if t.smoother is not None:
                out[:, k] += t.smoother.predict(X[:, t.column])
        return out


# --------------------------------------------------------------------------- the fit
def local_scoring(
    X_columns,
    specs,
    y,
    *,
    family="gaussian",
    link=None,
    sample_weight=None,
    max_iter=30,
    tol=1e-7,
    bf_max_iter=30,
    bf_tol=None,
    df_match="gam",
    weighted_start=True,
) -> LocalScoringFit:
    """Fit an additive model by local scoring and modified backfitting (R's ``gam::gam``).

    Parameters
    ----------
    X_columns : ndarray of shape (n_samples, n_columns)
        The variables; terms refer to them by column index.
    specs : list of tuple
        ``("ss", j, df)``, ``("lo", j, span, degree)``, ``("l", j)``, ``("f", j)``; see the
        module docstring.
    y : ndarray of shape (n_samples,)
        In the family's domain (binomial: proportions, with trials as weights).
    family : str or Family, default="gaussian"
    link : str or Link, default=None
        The family's canonical link when ``None``.
    sample_weight : ndarray of shape (n_samples,), default=None
        Prior weights (R's ``weights``).
    max_iter, tol : int, float
        Local scoring: gam's ``maxit`` and ``epsilon``.
    bf_max_iter, bf_tol : int, float
        Backfitting: gam's ``bf.maxit`` and ``bf.epsilon`` (``bf_tol=None``: ``tol``).
    df_match : {"gam", "exact"}, default="gam"
        How ``ss`` terms find ``λ`` for their ``df``: gam's search (``tr S = df + 1`` to about
        ``1e-5``, R's numbers) or the exact root.
    weighted_start : bool, default=True
        Start from R's ``mustart`` with the prior weights (binomial: ``(w y + 1/2)/(w + 1)``)
        or without them (``(y + 1/2)/2``), so that a weight of 2 and a repeated row take the
        same path. The converged fits agree; they differ only where the iterations do not
        settle on an optimum (separated classes).

    Returns
    -------
    LocalScoringFit
    """
    X = np.asarray(X_columns, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"{_OWNER}: X_columns must be a 2-D array; got {X.ndim} dimensions.")
    n = X.shape[0]
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{_OWNER}: X_columns contains NaN or infinity.")
    y = np.asarray(y, dtype=np.float64)
    if y.shape != (n,) or not np.all(np.isfinite(y)):
        raise ValueError(f"{_OWNER}: y must be finite with shape ({n},); got shape {y.shape}.")
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    if w.shape != (n,) or not np.all(np.isfinite(w)) or np.any(w < 0) or not w.sum() > 0:
        raise ValueError(
            f"{_OWNER}: sample_weight must be finite, non-negative, not all zero, with shape "
            f"({n},)."
        )
    fam = get_family(family)
    lnk = get_link(fam.canonical_link if link is None else link)
    if lnk.name not in fam.links:
        raise ValueError(
            f"{_OWNER}: link {lnk.name!r} is not available for the {fam.name} family; valid "
            f"links are {', '.join(repr(v) for v in fam.links)}."
        )
    if not fam.valid_y(y[w > 0]):
        raise ValueError(f"{_OWNER}: y must be {fam.y_domain} for the {fam.name} family.")
    bf_tol = tol if bf_tol is None else bf_tol
    if df_match not in ("gam", "exact"):
        raise ValueError(f"{_OWNER}: df_match must be 'gam' or 'exact'; got {df_match!r}.")
    terms, A = _build(X, _check_specs(specs, X.shape[1]), df_match)
    smooth = [k for k, t in enumerate(terms) if t.smoother is not None]

    mu = fam.starting_mu(y, w if weighted_start else None)
    eta = lnk.link(mu)
    if not (fam.valid_mu(mu) and lnk.valid_eta(eta)):
        raise ValueError(f"{_OWNER}: cannot find valid starting values (R's mustart).")
    new_dev = fam.deviance(y, mu, w)
    S = np.zeros((n, len(smooth)))
    converged, bf_iter = False, []
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        mu_eta = lnk.inverse_derivative(eta)
        var = fam.variance(mu)
        good = (w > 0) & (mu_eta != 0)
        if np.any(~np.isfinite(var[good])) or np.any(var[good] == 0):
            raise ValueError(f"{_OWNER}: the variance function is 0 or not finite at some fit.")
        z = eta.copy()
        z[good] += (y - mu)[good] / mu_eta[good]
        wz = np.zeros(n)
        wz[good] = w[good] * mu_eta[good] ** 2 / var[good]
        proj = _Projection(A, wz, z)
        for k in smooth:
            terms[k].smoother.set_weights(wz)
        b, etal, sweeps = _backfit(z, wz, S, [terms[k].smoother for k in smooth], proj,
                                   bf_tol, bf_max_iter)  # fmt: skip
        bf_iter.append(sweeps)
        eta = etal + S.sum(axis=1)
        mu = lnk.inverse(eta)
        old_dev, new_dev = new_dev, fam.deviance(y, mu, w)
        if not np.isfinite(new_dev):
            raise ValueError(f"{_OWNER}: the deviance is not finite at iteration {n_iter}.")
        if abs(old_dev - new_dev) / (old_dev + 0.1) <= tol:
            converged = True
            break
    if not converged:
        warn_not_converged(_OWNER, "local scoring", max_iter=max_iter, tol=tol)

    for k in smooth:
        terms[k].smoother.release()
    coef = np.zeros(A.shape[1])
    coef[proj.kept] = b
    means = A.mean(axis=0)
    term_fits = np.empty((n, len(terms)))
    nl_df, edf = np.zeros(len(terms)), np.zeros(len(terms))
    linear_coef = {}
    for k, t in enumerate(terms):
        term_fits[:, k] = (A[:, t.cols] - means[t.cols]) @ coef[t.cols]
        edf[k] = np.count_nonzero(proj.kept[t.cols])
        if t.smoother is not None:
            s = smooth.index(k)
            term_fits[:, k] += S[:, s]
            nl_df[k] = t.smoother.nl_df
        c = coef[t.cols].copy()
        c[~proj.kept[t.cols]] = np.nan
        linear_coef.setdefault(t.column, c)
    edf += nl_df
    sw = np.sqrt(wz)
    r = sw * (z - eta)
    nl_chisq = np.zeros(len(terms))
    for k in smooth:
        sk = sw * S[:, smooth.index(k)]
        s_perp = sk - proj.Q @ (proj.Q.T @ sk)
        nl_chisq[k] = float(np.sum(s_perp**2 + 2 * sk * r))
    effects = proj.Q.T @ (sw * (z - S.sum(axis=1)))
    assign = np.full(A.shape[1], -1)
    for k, t in enumerate(terms):
        assign[t.cols] = k
    intercept = float(coef[0] + means[1:] @ coef[1:])
    wmean = float(w @ y) / float(w.sum())
    null_dev = fam.deviance(y, np.full(n, wmean), w)
    df_resid = n - int(proj.kept.sum()) - float(nl_df.sum()) - int(np.count_nonzero(wz == 0))
    return LocalScoringFit(
        intercept=intercept, intercept_coef=float(coef[0]), linear_coef=linear_coef,
        term_fits=term_fits, eta=eta, mu=mu, deviance=float(new_dev),
        null_deviance=float(null_dev), edf=edf, nl_df=nl_df, df_residual=float(df_resid),
        working_weights=wz, n_iter=n_iter, bf_iter=bf_iter, converged=converged,
        nl_chisq=nl_chisq, effects=effects, assign=assign[proj.kept],
        working_rss=float(r @ r), _terms=terms, _coef=coef[1:], _means=means[1:],
        _n_columns=X.shape[1],
    )  # fmt: skip


def _backfit(z, w, S, smoothers, proj, tol, max_iter):
    """Modified backfitting of ``z`` (weights ``w``) from the functions ``S`` (updated in
    place); returns the linear coefficients, the linear fit and the number of sweeps."""
    eta_s = S.sum(axis=1)
    sumw = float(w.sum())
    if not smoothers:
        b, etal = proj.fit(z)
        return b, etal, 1
    ratio, sweeps = math.inf, 0
    while ratio > tol and sweeps < max_iter:
        sweeps += 1
        b, etal = proj.fit(z - eta_s)
        deltaf = 0.0
        for k, sm in enumerate(smoothers):
            old = S[:, k].copy()
            new = sm.smooth(z - etal - eta_s + old, w)
            S[:, k] = new
            eta_s += new - old
            deltaf += float(w @ (new - old) ** 2) / sumw
        normf = float(w @ eta_s**2)
        ratio = math.sqrt(deltaf / normf) if normf > 0 else 0.0
    if ratio > tol:
        warn_not_converged(
            _OWNER, "backfitting", max_iter=max_iter, tol=tol, advice="increase bf_max_iter"
        )
    return b, etal, sweeps
