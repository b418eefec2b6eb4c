"""Generalised additive models: :class:`GAMRegressor` and :class:`GAMClassifier`."""

from __future__ import annotations

import warnings
from dataclasses import replace

import numpy as np
from scipy import linalg
from sklearn.utils.validation import check_is_fitted

from .._core.class_labels import encode_class_labels
from .._core.compiled import single_blas_thread
from .._core.families import get_family
from .._core.linalg import qr_least_squares
from .._core.links import LINKS, get_link
from .._solvers.pirls import Penalty, fit_penalised
from .._validation import InstanceOf, Options, check_sample_weight, validate_data
from ..base import ClassifierMixin, RegressorMixin, StatBase, fit_context
from ..exceptions import ConvergenceWarning, warn_aliased
from ..inference import CoefTable
from ._backfit_model import backfit_summary, fit_backfitting, warn_separation
from ._design import build_blocks, encode_columns, resolve_terms
from ._summary import GAMSummary, smooth_test
from ._terms import FactorTerm, LinearTerm, LoessTerm, SmoothingSplineTerm, Term

__all__ = ["GAMClassifier", "GAMRegressor"]

_FAMILIES = ("gaussian", "binomial", "poisson", "gamma")
_R_FAMILY = {"gaussian": "gaussian", "binomial": "binomial", "poisson": "poisson", "gamma": "Gamma"}


class _GAMBase(StatBase):
    """Fitting, prediction, partial dependence and summary shared by both estimators."""

    _parameter_constraints = {
        "terms": [Options({"auto"}), InstanceOf(list), InstanceOf(tuple), InstanceOf(Term)],
        "link": [None, Options(set(LINKS))],
        "method": [Options({"pirls", "backfitting"})],
        "criterion": [Options({"gcv", "reml"})],
    }

    # ------------------------------------------------------------------ fitting
    def _fit(self, X, y, sample_weight, family, link, y_numeric, y_transform=None):
        name = type(self).__name__
        X, levels = encode_columns(name, X)
        X, y = validate_data(self, X, y, dtype=np.float64, y_numeric=y_numeric)
        n = X.shape[0]
        w = check_sample_weight(sample_weight, n, estimator_name=name)
        if y_transform is not None:
            y = y_transform(y)
        fam = get_family(family)
        lnk = get_link(link) if link is not None else get_link(fam.canonical_link)
        if lnk.name not in fam.links:
            raise ValueError(
                f"{name}: link={lnk.name!r} is not available for the {fam.name} family; "
                f"choose one of {sorted(fam.links)}."
            )
        y = np.asarray(y, dtype=np.float64)
        pos = w > 0
        X, y, w = X[pos], y[pos], w[pos]
        if X.shape[0] < 2:
            raise ValueError(
                f"{name}: an additive model needs at least 2 samples of positive weight; got "
                f"n_samples = {X.shape[0]}."
            )
        if not fam.valid_y(y):
            raise ValueError(f"{name}: y must be {fam.y_domain} for the {fam.name} family.")
        names = (
            [str(c) for c in self.feature_names_in_]
            if hasattr(self, "feature_names_in_")
            else [f"x{j}" for j in range(X.shape[1])]
        )
        self._levels = levels
        terms = resolve_terms(
            name,
            self.terms,
            X,
            set(levels),
            getattr(self, "feature_names_in_", None),
            w.sum(),
            smoother="ss" if self.method == "backfitting" else "s",
        )
        self.terms_ = terms
        self._local = None
        if self.method == "backfitting":
            return fit_backfitting(self, X, y, w, fam, lnk, terms, names)
        bad = [t for t in terms if isinstance(t, (SmoothingSplineTerm, LoessTerm))]
        if bad:
            raise ValueError(
                f"{name}: {bad[0]!r} is a backfitting smoother; use method='backfitting' for "
                "ss() and lo() terms, or s() with method='pirls'."
            )
        blocks = build_blocks(name, terms, X, names, levels)
        Xd, penalties, offsets = self._model_matrix(blocks, X)
        kept = self._aliased(Xd, w, blocks, offsets)
        if kept.sum() > w.sum():
            raise ValueError(
                f"{name}: the model has {kept.sum()} coefficients but only {w.sum():g} "
                "observations; reduce n_basis or the number of terms."
            )
        penalties = [
            Penalty(int(kept[: p.start].sum()), int(kept[: p.stop].sum()), p.S, p.lam)
            for p in penalties
        ]
        try:
            res = fit_penalised(
                Xd[:, kept], y, family=fam, link=lnk, penalties=penalties, criterion=self.criterion,
                sample_weight=w,
            )  # fmt: skip
        except (linalg.LinAlgError, FloatingPointError) as exc:
            raise ValueError(
                f"{name}: the penalised fit failed ({exc}): the model matrix is singular, the "
                "unpenalised parts of its terms collinear (a column in two terms, duplicated "
                "columns) or the data too few for its terms."
            ) from exc
        if not res.converged:
            warnings.warn(
                f"{name}: the smoothing parameter search did not converge in {res.n_iter} "
                "iterations; the smoothing parameters may be inaccurate.",
                ConvergenceWarning,
            )
        self._store(_expand(res, kept), blocks, offsets, Xd, y, w, fam, lnk)
        warn_separation(name, fam, res.mu)
        return self

    @staticmethod
    def _model_matrix(blocks, X):
        cols = [np.ones((X.shape[0], 1))]
        penalties, offsets = [], []
        start = 1
        for b in blocks:
            cols.append(b.design(X))
            offsets.append((start, start + b.size))
            lam = getattr(b.term, "lam", None)
            for S in b.penalties:
                penalties.append(Penalty(start, start + b.size, S, lam))
            start += b.size
        return np.hstack(cols), penalties, offsets

    def _aliased(self, Xd, w, blocks, offsets):
        """Columns of the unpenalised part that depend on earlier ones (R's aliasing, by
        ``lm``'s QR): they are left out of the fit and their coefficients are NaN."""
        par = [
            i
            for b, (a, e) in zip(blocks, offsets, strict=True)
            if not b.smooth
            for i in range(a, e)
        ]
        kept = np.ones(Xd.shape[1], dtype=bool)
        if not par:
            return kept
        fac = qr_least_squares(Xd[:, par], np.zeros(Xd.shape[0]), np.sqrt(w), True)
        kept[par] = fac.kept[1:]
        if not kept.all():
            names = [n for b in blocks if not b.smooth for n in b.coef_names]
            warn_aliased(self, [n for n, k in zip(names, fac.kept[1:], strict=True) if not k])
        return kept

    def _store(self, res, blocks, offsets, Xd, y, w, fam, lnk):
        self.family_, self.link_ = fam.name, lnk.name
        self._blocks, self._offsets = blocks, offsets
        self.intercept_ = float(res.coef[0])
        self.coef_ = res.coef[1:].copy()
        self._coef = np.nan_to_num(self.coef_)  # aliased columns are ignored
        self.cov_params_ = res.Vp
        self._Ve = res.Ve
        self.edf_ = np.array([res.edf[a:e].sum() for a, e in offsets])
        self._edf1 = np.array([res.edf1[a:e].sum() for a, e in offsets])
        self.smoothing_params_ = np.asarray(res.lam, dtype=np.float64)
        self.scale_ = float(res.scale)
        self.deviance_ = float(res.deviance)
        n = y.size
        ybar = float(np.sum(w * y) / np.sum(w))
        self.null_deviance_ = float(fam.deviance(y, np.full(n, ybar), w))
        self.deviance_explained_ = (
            (self.null_deviance_ - self.deviance_) / self.null_deviance_
            if self.null_deviance_ > 0
            else float("nan")
        )
        self.n_obs_ = int(n)
        self.df_resid_ = float(np.sum(w) - res.edf.sum())  # case weights (see fit)
        self.gcv_score_ = float(res.score) if self.criterion == "gcv" else float("nan")
        self.reml_score_ = float(res.score) if self.criterion == "reml" else float("nan")
        self.n_iter_ = int(res.n_iter)
        self._scale_known = bool(fam.dispersion_fixed)
        sw = np.sqrt(w)
        r_num = np.var(sw * (y - res.mu), ddof=1) * (n - 1)
        r_den = np.var(sw * (y - ybar), ddof=1) * self.df_resid_
        self._r_sq = float(1 - r_num / r_den) if n > 1 and r_den > 0 else float("nan")
        kept = ~np.isnan(res.coef)
        with single_blas_thread(Xd.shape[0] * Xd.shape[1] ** 2):
            Xk = Xd[:, kept] * np.sqrt(res.working_weights)[:, None]
            Rk = linalg.qr(Xk, mode="r")[0][: min(Xk.shape)]
        R = np.zeros((Rk.shape[0], Xd.shape[1]))
        R[:, kept] = Rk
        self._R_blocks = [
            R[:, a:e].copy() if b.smooth else None
            for b, (a, e) in zip(blocks, offsets, strict=True)
        ]

    # --------------------------------------------------------------- prediction
    def _design(self, X):
        check_is_fitted(self, "coef_")
        name = type(self).__name__
        X, _ = encode_columns(name, X, self._levels)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        try:
            return X, [b.design(X) for b in self._blocks]
        except ValueError as exc:
            if "not seen at fit" in str(exc):
                raise ValueError(f"{name}: {exc}") from None
            raise

    def _local_terms(self, X):
        """The centred terms of a backfitted model at the rows of ``X``."""
        name = type(self).__name__
        X, _ = encode_columns(name, X, self._levels)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        try:
            return self._local.predict_terms(X)
        except ValueError as exc:
            raise ValueError(str(exc).replace("local_scoring:", f"{name}:", 1)) from None

    def _linear_predictor(self, X):
        check_is_fitted(self, "coef_")
        if self._local is not None:
            return self.intercept_ + self._local_terms(X).sum(axis=1)
        _, parts = self._design(X)
        eta = np.full(parts[0].shape[0] if parts else 0, self.intercept_)
        for P, (a, e) in zip(parts, self._offsets, strict=True):
            eta += P @ self._coef[a - 1 : e - 1]
        return eta

    def _mean(self, X):
        eta = self._linear_predictor(X)
        return get_link(self.link_).inverse(eta)

    def _rename_terms(self, names):
        """Give the fitted terms the names a formula wrote them with (summary, lookup)."""
        if self._local is not None:
            self._term_names = list(names)
            return
        for b, nm in zip(self._blocks, names, strict=True):
            if b.smooth:
                b.name = nm
                b.coef_names = [f"{nm}.{i + 1}" for i in range(b.size)]

    def _term_index(self, term):
        if self._local is not None:
            pairs = list(zip(self.terms_, self._term_names, strict=True))
        else:
            pairs = [(b.term, b.name) for b in self._blocks]
        names = [nm for _, nm in pairs]
        if isinstance(term, (int, np.integer)) and not isinstance(term, bool):
            if not -len(names) <= term < len(names):
                raise ValueError(
                    f"{type(self).__name__}: term index {term} is out of range for "
                    f"{len(names)} term(s)."
                )
            return int(term) % len(names)
        if isinstance(term, Term):
            for i, (t, _) in enumerate(pairs):
                if t == term or repr(t) == repr(term):
                    return i
        if isinstance(term, str) and term in names:
            return names.index(term)
        raise ValueError(f"{type(self).__name__}: unknown term {term!r}; the terms are {names}.")

    def partial_dependence(self, term, X):
        """The fitted term ``f_j`` at the rows of ``X``, with its standard errors.

        As mgcv's ``predict(type = "terms", se.fit = TRUE)``: smooth terms are centred by
        their sum-to-zero constraint, parametric terms are ``β x`` (linear) or the level
        effects (factors, zero at the first level); the standard errors come from the
        Bayesian covariance ``Vp`` of the term's coefficients.

        Parameters
        ----------
        term : int, str or term
            Position in ``terms_``, the term's name (``"s(x1)"``, a column name for linear
            and factor terms) or the term object.
        X : array-like of shape (n_samples, n_features)
            Rows at which to evaluate (every column of the training data).

        Returns
        -------
        values : ndarray of shape (n_samples,)
        se : ndarray of shape (n_samples,) or None
            ``None`` with backfitting (see the class Notes).
        """
        check_is_fitted(self, "coef_")
        i = self._term_index(term)
        if self._local is not None:
            return self._local_terms(X)[:, i], None
        _, parts = self._design(X)
        a, e = self._offsets[i]
        P = parts[i]
        V = np.nan_to_num(self.cov_params_[a:e, a:e])
        values = P @ self._coef[a - 1 : e - 1]
        se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", P, V, P), 0.0))
        return values, se

    # ------------------------------------------------------------------ summary
    def summary(self):
        """Parametric coefficients and approximate tests of the smooth terms (``summary.gam``).

        Returns
        -------
        GAMSummary or BackfitSummary
            A :class:`~statlearning.inference.Summary`; ``print`` shows mgcv's layout.
            ``coef_table`` holds the parametric coefficients; ``smooth_table`` the columns
            ``edf, Ref.df, F`` (``Chi.sq`` for a known scale) and ``p-value``. With
            ``method="backfitting"``, ``summary(gam::gam)``: deviances, dispersion, AIC,
            ``edf`` per term and the tables ``parametric_anova`` ("Anova for Parametric
            Effects": sequential sums of squares of the linear parts against the working
            residual mean square) and ``nonparametric_anova`` (gam's ``nl.chisq`` over the
            dispersion: F on ``Npar Df`` when it is estimated, χ² when known).
        """
        check_is_fitted(self, "coef_")
        if self._local is not None:
            return backfit_summary(self)
        known = self._scale_known
        df = None if known else self.df_resid_
        se = np.sqrt(np.diag(self.cov_params_))
        coef = np.r_[self.intercept_, self.coef_]
        p_idx, p_names = [0], ["(Intercept)"]
        s_names, edf, refdf, stat, pval = [], [], [], [], []
        res_df = -1.0 if known else self.df_resid_
        for k, (b, (a, e)) in enumerate(zip(self._blocks, self._offsets, strict=True)):
            if not b.smooth:
                p_idx += list(range(a, e))
                p_names += b.coef_names
                continue
            V = self.cov_params_[a:e, a:e]
            rank = min(e - a, self._edf1[k])
            T, p, r = smooth_test(coef[a:e], self._R_blocks[k], V, rank, res_df)
            s_names.append(b.name)
            edf.append(self.edf_[k])
            refdf.append(r)
            stat.append(T if known else T / r)
            pval.append(p)
        table = CoefTable.from_estimates(p_names, coef[p_idx], se[p_idx], df=df)
        criterion = ("UBRE" if known else "GCV") if self.criterion == "gcv" else "-REML"
        score = self.gcv_score_ if self.criterion == "gcv" else self.reml_score_
        stats = {
            "n_obs": self.n_obs_,
            "df_resid": self.df_resid_,
            "adj_r_squared": self._r_sq,
            "deviance_explained": self.deviance_explained_,
            "deviance": self.deviance_,
            "null_deviance": self.null_deviance_,
            "dispersion": self.scale_,
            "criterion": criterion,
            "score": score,
            "n_iter": self.n_iter_,
        }
        fam = _R_FAMILY[self.family_]
        return GAMSummary(
            coef_table=table,
            stats=stats,
            title="",
            formula=self._formula(),
            kind="other",
            smooth_names=s_names,
            smooth_table={
                "edf": np.array(edf),
                "Ref.df": np.array(refdf),
                ("Chi.sq" if known else "F"): np.array(stat),
                "p-value": np.array(pval),
            },
            family_text=f"Family: {fam} \nLink function: {self.link_} ",
        )

    def _formula(self):
        parts = []
        for b in self._blocks:
            t = b.term
            if isinstance(t, FactorTerm):
                parts.append(f"factor({b.column_name})")
            elif isinstance(t, LinearTerm):
                parts.append(b.name)
            else:
                inner = b.name[:-1]
                if t.kind == "s":
                    parts.append(f'{inner}, bs = "{t.basis}", k = {t.n_basis})')
                else:
                    parts.append(f'{inner}, bs = "cr", k = {t.n_basis})')
        return f"{getattr(self, '_target_name', 'y')} ~ " + " + ".join(parts)


def _expand(res, kept):
    """The fit with NaN coefficients (and covariance rows) at the aliased columns."""
    if kept.all():
        return res
    k = kept.size
    coef = np.full(k, np.nan)
    coef[kept] = res.coef
    out = {}
    for name in ("Vp", "Ve"):
        M = np.full((k, k), np.nan)
        M[np.ix_(kept, kept)] = getattr(res, name)
        out[name] = M
    edf, edf1 = np.zeros(k), np.zeros(k)
    edf[kept], edf1[kept] = res.edf, res.edf1
    return replace(res, coef=coef, edf=edf, edf1=edf1, **out)


class GAMRegressor(RegressorMixin, _GAMBase):
    r"""Generalised additive model fitted by penalised regression splines, as mgcv's ``gam``.

    Parameters
    ----------
    terms : "auto" or list of terms, default="auto"
        The additive terms, built by :func:`~statlearning.gam.s`, :func:`~statlearning.gam.te`,
        :func:`~statlearning.gam.l`, :func:`~statlearning.gam.f` (and, for backfitting,
        :func:`~statlearning.gam.ss`, :func:`~statlearning.gam.lo`), e.g. ``[s(0), s(1),
        f("continent")]`` or ``s(0) + s(1) + f(2)``. ``"auto"``: ``f()`` on text, boolean and
        ``category`` columns of a DataFrame, ``s()`` (``n_basis`` at most 10, fewer when the
        column has fewer distinct values or the data are few) on numeric columns with at
        least 5 distinct values, ``l()`` on the other numeric columns; constant columns are
        left out. With ``method="backfitting"``: ``ss(j, df=4)`` (gam's ``s(x, 4)``) on
        numeric columns with at least 6 distinct values, ``l()`` on the others.
    family : {"gaussian", "binomial", "poisson", "gamma"}, default="gaussian"
        The response distribution (binomial: proportions, with the numbers of trials as
        ``sample_weight``).
    link : str, default=None
        The link function; ``None`` is the family's canonical link (mgcv's defaults).
    method : {"pirls", "backfitting"}, default="pirls"
        Penalised IRLS with smoothing parameters chosen by ``criterion`` (mgcv), or R gam's
        local scoring with modified backfitting (``ss``, ``lo``, ``l`` and ``f`` terms; an
        ``s()`` or ``te()`` term is an error: gam's ``s(x, df)`` is ``ss(j, df)``).
    criterion : {"gcv", "reml"}, default="gcv"
        mgcv's ``method="GCV.Cp"`` (GCV when the scale is estimated, UBRE/Cp when it is
        known, binomial and Poisson) or ``method="REML"``. Not used by backfitting, whose
        smoothers have fixed ``df`` or ``span``.

    Attributes
    ----------
    terms_ : Terms
        The terms with integer columns (``"auto"`` resolved).
    intercept_ : float
        The intercept; with every term centred (smooths by the sum-to-zero constraint) it is
        near the mean of the response on the link scale.
    coef_ : ndarray of shape (n_coef,)
        The other coefficients, the terms' blocks in ``terms_`` order. Backfitting: the
        linear coefficients (R's ``coef(gam)`` without the intercept: the slope of each
        ``l``/``ss``/``lo`` term's variable, ``x²`` too for a degree-2 ``lo``, the level
        effects of ``f``).
    cov_params_ : ndarray of shape (n_coef + 1, n_coef + 1) or None
        mgcv's Bayesian posterior covariance ``Vp`` (intercept first); ``None`` with
        backfitting.
    edf_ : ndarray of shape (n_terms,)
        Effective degrees of freedom of each term (1 for ``l()``, levels − 1 for ``f()``).
        Backfitting, as the gam package counts them: a smoother's linear part plus its
        nonlinear ``nl.df`` (``ss(j, df)`` has about ``df``).
    smoothing_params_ : ndarray of shape (n_penalties,)
        The smoothing parameters on mgcv's ``sp`` scale (one per ``s()``, two per ``te()``,
        in term order). Backfitting: the ``λ`` of each ``ss()`` term (``x`` mapped to
        ``[0, 1]``, the penalty of :class:`~statlearning.smoothing.SmoothingSpline`).
    scale_ : float
        The scale parameter ``φ`` (mgcv's ``sig2``; 1 for binomial and Poisson).
        Backfitting: gam's dispersion, the weighted working residual sum of squares over
        the residual degrees of freedom.
    aic_ : float
        Backfitting only: gam's AIC, ``−2 log L + 2 (n − df_resid_)``.
    deviance_, null_deviance_ : float
        Deviance of the fit and of the constant model.
    deviance_explained_ : float
        ``1 − deviance_/null_deviance_``.
    gcv_score_ : float
        The minimised GCV (or UBRE) score (mgcv's ``gcv.ubre``); NaN with
        ``criterion="reml"``.
    reml_score_ : float
        The minimised negative restricted log-likelihood (mgcv's ``-REML``); NaN with
        ``criterion="gcv"``.
    df_resid_ : float
        ``n − Σ edf``.
    n_obs_ : int
        Observations of positive weight.
    n_iter_ : int
        Newton iterations of the smoothing-parameter search.
    family_, link_ : str
        The family and link used.
    n_features_in_ : int
        Number of columns of X.
    feature_names_in_ : ndarray of str
        Column names, when X was a DataFrame with string column names.

    See Also
    --------
    GAMClassifier : the binomial model for class labels.
    statlearning.smoothing.SmoothingSpline : one smooth term on its own.

    Notes
    -----
    The model is :math:`g(\mu_i) = \beta_0 + \sum_j f_j(x_{ij})` with each smooth
    :math:`f_j(x) = b_j(x)^T\beta_j` a penalised regression spline. For fixed smoothing
    parameters the coefficients minimise the penalised deviance

    .. math:: D(\beta) + \sum_k \lambda_k \beta^T S_k \beta

    by penalised IRLS; the :math:`\lambda_k` minimise GCV :math:`nD/(n-\tau)^2`, UBRE
    :math:`D/n + 2\tau\phi/n - \phi` or the Laplace-approximate REML criterion (Wood, 2011),
    with :math:`\tau = \mathrm{tr}\{(X^TWX + S_\lambda)^{-1}X^TWX\}`, by Newton's method on
    :math:`\log\lambda` (exact gradients, finite-difference Hessians; see
    ``statlearning._solvers.pirls``). The bases are mgcv's: ``"cr"`` cubic regression
    splines with knots at quantiles of the unique x, ``"bs"`` cubic B-splines with an
    integrated squared second-derivative penalty, and ``te`` tensor products of ``cr``
    margins with one penalty per margin; each penalty is scaled as mgcv scales it and each
    smooth carries mgcv's sum-to-zero constraint, so ``smoothing_params_`` are mgcv's ``sp``.
    The notes (Boily, §6.3, item 61 of the catalogue) fit GAMs by backfitting smoothing
    splines; ``method="backfitting"`` is that algorithm, as R's ``gam`` package.

    Mapping to R: ``GAMRegressor([s(0), s(1), f(2)], criterion="reml")`` is
    ``mgcv::gam(y ~ s(x0, bs = "cr") + s(x1, bs = "cr") + x2, method = "REML")`` with
    ``x2`` a factor; ``criterion="gcv"`` is ``method = "GCV.Cp"``; ``s(j, n_basis=k)`` is
    ``s(x, k = k)``; ``s(j, lam=v)`` is ``s(x, sp = v)``.

    Standard errors: ``partial_dependence`` and ``summary`` use mgcv's Bayesian covariance
    ``Vp = φ (XᵀWX + S_λ)⁻¹``; the smooth-term p-values are Wood's (2013) test as
    ``summary.gam`` computes it (see ``summary``).

    Backfitting (``method="backfitting"``, ``statlearning.gam._backfitting``): local
    scoring, the linear parts of all terms fitted jointly in each sweep, with smoothers of
    fixed size, ``ss(j, df)`` the cubic smoothing spline of trace ``df + 1`` and
    ``lo(j, span, degree)`` loess on R's interpolation surface. Mapping to R:
    ``GAMRegressor([ss(0, 4), l(1), f(2)], method="backfitting")`` is
    ``gam::gam(y ~ s(x0, 4) + x1 + factor(x2))``; ``lo(j, span=0.5)`` is
    ``lo(x, span = 0.5)``. ``summary()`` gives gam's two anova tables;
    ``partial_dependence`` returns ``se=None`` (gam's per-term variances are the diagonals
    of the smoothers' operators at the training x, which it interpolates at new x; they
    are not reproduced here).

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.gam import GAMRegressor, s
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(size=(200, 2))
    >>> y = np.sin(2 * np.pi * X[:, 0]) + X[:, 1] + rng.normal(scale=0.2, size=200)
    >>> model = GAMRegressor(terms=[s(0), s(1)], criterion="reml").fit(X, y)
    >>> model.edf_.round(1)
    array([7.7, 1.3])
    """

    _parameter_constraints = {
        **_GAMBase._parameter_constraints,
        "family": [Options(set(_FAMILIES))],
    }

    def __init__(
        self, terms="auto", *, family="gaussian", link=None, method="pirls", criterion="gcv"
    ):
        self.terms = terms
        self.family = family
        self.link = link
        self.method = method
        self.criterion = criterion

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        if self.family in ("poisson", "gamma"):
            tags.target_tags.positive_only = True
        return tags

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the additive model.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Predictors; a DataFrame may hold text or ``category`` columns for ``f()`` terms.
        y : array-like of shape (n_samples,)
            In the family's domain.
        sample_weight : array-like of shape (n_samples,), default=None
            Case weights: a weight of 2 counts as a repeated row in the criteria and in the
            residual degrees of freedom (mgcv's ``weights`` are precisions and leave its row
            count unchanged; with unit weights the two agree). Rows of zero weight are left
            out. Binomial: the numbers of trials of proportions ``y``.

        Returns
        -------
        self : GAMRegressor
        """
        self._target_name = str(getattr(y, "name", None) or "y")
        return self._fit(X, y, sample_weight, self.family, self.link, True)

    def predict(self, X):
        """Fitted mean on the response scale.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._mean(X)


class GAMClassifier(ClassifierMixin, _GAMBase):
    r"""Binary additive logistic regression, as mgcv's ``gam(family = binomial)``.

    The log-odds of the second class of ``classes_`` is an additive model; see
    :class:`GAMRegressor` for the terms, the fit and the smoothing-parameter criteria (with a
    known scale, ``criterion="gcv"`` is UBRE).

    Parameters
    ----------
    terms : "auto" or list of terms, default="auto"
        As :class:`GAMRegressor`.
    link : {"logit", "probit", "cloglog", ...}, default=None
        ``None`` is the logit.
    method : {"pirls", "backfitting"}, default="pirls"
        As :class:`GAMRegressor`.
    criterion : {"gcv", "reml"}, default="gcv"
        As :class:`GAMRegressor`.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The class labels.
    terms_ : Terms
        The resolved terms.
    intercept_ : float
        The intercept (log-odds scale).
    coef_ : ndarray of shape (n_coef,)
        The other coefficients, in ``terms_`` order.
    cov_params_ : ndarray of shape (n_coef + 1, n_coef + 1)
        mgcv's Bayesian covariance ``Vp``.
    edf_ : ndarray of shape (n_terms,)
        Effective degrees of freedom per term.
    smoothing_params_ : ndarray of shape (n_penalties,)
        mgcv's ``sp``.
    scale_ : float
        1.
    deviance_, null_deviance_, deviance_explained_ : float
        Deviances and their ratio.
    gcv_score_, reml_score_ : float
        The criterion at the optimum (UBRE for ``criterion="gcv"``); the other is NaN (both
        with backfitting).
    aic_ : float
        Backfitting only: gam's AIC (see :class:`GAMRegressor`).
    df_resid_ : float
        ``n − Σ edf``.
    n_obs_ : int
        Observations of positive weight.
    n_iter_ : int
        Newton iterations of the smoothing-parameter search.
    family_, link_ : str
        ``"binomial"`` and the link.
    n_features_in_ : int
        Number of columns of X.
    feature_names_in_ : ndarray of str
        Column names, when X was a DataFrame with string column names.

    See Also
    --------
    GAMRegressor : the same model for a numeric response.

    Notes
    -----
    The model is :math:`\mathrm{logit}\, P(Y = c_1 \mid x) = \beta_0 + \sum_j f_j(x_j)`
    (the notes' logistic GAM, item 61 of the catalogue), fitted by penalised IRLS as
    :class:`GAMRegressor` with ``family="binomial"``, or with ``method="backfitting"`` by
    gam's local scoring (``gam::gam(y ~ s(x, 4), family = binomial)``; ``cov_params_`` is
    then ``None``). Only two classes are supported.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.gam import GAMClassifier, s
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(size=(300, 1))
    >>> y = rng.uniform(size=300) < 1 / (1 + np.exp(-3 * np.sin(2 * np.pi * X[:, 0])))
    >>> clf = GAMClassifier(terms=[s(0)]).fit(X, y)
    >>> clf.predict_proba([[0.25], [0.75]]).round(2)
    array([[0.02, 0.98],
           [0.95, 0.05]])
    """

    def __init__(self, terms="auto", *, link=None, method="pirls", criterion="gcv"):
        self.terms = terms
        self.link = link
        self.method = method
        self.criterion = criterion

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.classifier_tags.multi_class = False
        return tags

    @fit_context
    def fit(self, X, y, sample_weight=None):
        """Fit the additive logistic model.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            Two class labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Prior weights.

        Returns
        -------
        self : GAMClassifier
        """
        self._target_name = str(getattr(y, "name", None) or "y")
        return self._fit(X, y, sample_weight, "binomial", self.link, False, self._encode_y)

    def _encode_y(self, y):
        name = type(self).__name__
        self.classes_, codes = encode_class_labels(y, name)
        if self.classes_.size != 2:
            raise ValueError(
                f"{name}: Only binary classification is supported. The type of the target "
                f"is multiclass ({self.classes_.size} classes); fit one GAMClassifier per "
                "class (one-vs-rest) for more."
            )
        return codes.astype(np.float64)

    def decision_function(self, X):
        """Linear predictor (log-odds of ``classes_[1]`` with the logit link).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._linear_predictor(X)

    def predict_proba(self, X):
        """Class probabilities, columns in ``classes_`` order.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, 2)
        """
        p = self._mean(X)
        return np.column_stack([1.0 - p, p])

    def predict(self, X):
        """Most probable class.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        p = self._mean(X)
        return self.classes_[(p > 0.5).astype(int)]
