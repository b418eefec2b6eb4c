"""The MARS estimators: :class:`MARSRegressor` and :class:`MARSClassifier` (R's ``earth``)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from numbers import Integral, Real

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._core.class_labels import encode_class_labels
from .._core.compiled import single_blas_thread
from .._core.linalg import qr_least_squares
from .._core.scaling import column_scales
from .._solvers.irls import irls
from .._validation import Boolean, Interval, Options, validate_data
from ..base import ClassifierMixin, RegressorMixin, StatBase, fit_context
from ..exceptions import NumericalWarning, warn_not_converged
from ._forward import (
    TERM_GRSQ_INF,
    TERM_MAX_RSQ,
    TERM_MIN_GRSQ,
    TERM_NO_IMPROVEMENT,
    TERM_SMALL_DELTA,
)
from ._model import (
    anova_order,
    basis_matrix,
    default_max_terms,
    evimp,
    fit_mars,
    term_names,
)

__all__ = ["MARSClassifier", "MARSRegressor", "MARSSummary"]


@dataclass
class MARSSummary:
    """A fitted MARS model's summary, printed as R's ``summary(earth)``.

    Parameters
    ----------
    terms : list of str
        Term names in earth's ``anova`` order (``(Intercept)`` first).
    coefficients : ndarray of shape (n_terms, n_columns)
        Their coefficients: one column for a regression, one per GLM for a classifier.
    stats : dict
        ``n_selected``, ``n_forward_terms``, ``n_used_features``, ``n_features``,
        ``termination``, ``importance`` (list of names), ``degree_counts``, ``gcv``, ``rss``,
        ``grsq``, ``rsq``; a classifier adds ``glm`` (its ``glm_stats_``).
    headings : list of str, default=["coefficients"]
        Headings of the coefficient columns.
    """

    terms: list
    coefficients: np.ndarray
    stats: dict = field(default_factory=dict)
    headings: list = field(default_factory=lambda: ["coefficients"])

    def to_text(self) -> str:
        """Return the summary as text (what ``print(summary)`` shows).

        Returns
        -------
        str
        """
        s = self.stats
        glm = "glm" in s
        width = max(len(t) for t in self.terms)
        cells = [[f"{v:.7g}" for v in col] for col in np.asarray(self.coefficients).T]
        widths = [
            max(len(h), *(len(c) for c in col)) for h, col in zip(self.headings, cells, strict=True)
        ]
        head = "  ".join(h.rjust(w) for h, w in zip(self.headings, widths, strict=True))
        lines = ["GLM coefficients"] if glm else []
        lines.append(" " * width + "  " + head)
        for i, t in enumerate(self.terms):
            row = "  ".join(col[i].rjust(w) for col, w in zip(cells, widths, strict=True))
            lines.append(f"{t:<{width}}  {row}")
        if glm:
            g = s["glm"]
            lines += ["", "GLM (family binomial, link logit):"]
            table = [["", "nulldev", "df", "dev", "df", "devratio", "AIC", "iters", "converged"]]
            for j, h in enumerate(self.headings):
                table.append([
                    h if len(self.headings) > 1 else "", f"{g['null_deviance'][j]:.6g}",
                    f"{g['df_null'][j]:g}", f"{g['deviance'][j]:.6g}", f"{g['df_resid'][j]:g}",
                    f"{g['devratio'][j]:.3f}", f"{g['aic'][j]:.4g}", f"{g['n_iter'][j]}",
                    f"{int(g['converged'][j])}",
                ])  # fmt: skip
            w = [max(len(r[c]) for r in table) for c in range(len(table[0]))]
            lines += [" ".join(r[c].rjust(w[c]) for c in range(len(r))) for r in table]
        earth = "Earth " if glm else ""
        lines += [
            "",
            f"{earth}{'selected' if glm else 'Selected'} {s['n_selected']} of "
            f"{s['n_forward_terms']} terms, and {s['n_used_features']} of {s['n_features']} "
            "predictors",
            f"Termination condition: {s['termination']}",
            "Importance: " + (", ".join(s["importance"]) or "no predictors"),
            "Number of terms at each degree of interaction: "
            + " ".join(str(c) for c in s["degree_counts"])
            + (" (additive model)" if len(s["degree_counts"]) <= 2 else ""),
            f"{earth}GCV {s['gcv']:.7g}    RSS {s['rss']:.7g}    GRSq {s['grsq']:.7g}    "
            f"RSq {s['rsq']:.7g}",
        ]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return self.to_text()

    def to_frame(self):
        """Coefficients as a pandas DataFrame indexed by term.

        Returns
        -------
        pandas.DataFrame
        """
        import pandas as pd

        return pd.DataFrame(
            np.asarray(self.coefficients), index=list(self.terms), columns=list(self.headings)
        )


class _MARSBase(StatBase):
    _parameter_constraints = {
        "max_terms": [None, Interval(Integral, 1, None, closed="left")],
        "max_degree": [Interval(Integral, 1, None, closed="left")],
        "penalty": [None, Interval(Real, -1, None, closed="left")],
        "minspan": [Options({"auto"}), Interval(Integral, None, None, closed="neither")],
        "endspan": [Options({"auto"}), Interval(Integral, 1, None, closed="left")],
        "thresh": [Interval(Real, 0, None, closed="left")],
        "prune": [Boolean()],
    }

    def __init__(
        self,
        max_terms=None,
        max_degree=1,
        penalty=None,
        minspan="auto",
        endspan="auto",
        thresh=0.001,
        prune=True,
    ):
        self.max_terms = max_terms
        self.max_degree = max_degree
        self.penalty = penalty
        self.minspan = minspan
        self.endspan = endspan
        self.thresh = thresh
        self.prune = prune

    def _fit_basis(self, X, Y):
        """Run earth's forward and pruning passes on validated data (``Y`` of shape (n, r));
        set the fitted state and return the selected basis (n, n_terms + 1)."""
        n, p = X.shape
        if n < 3:
            raise ValueError(
                f"{type(self).__name__} needs at least 3 samples to place knots; got n_samples={n}."
            )
        penalty = self.penalty
        if penalty is None:
            penalty = 3.0 if self.max_degree > 1 else 2.0
        nk = default_max_terms(p) if self.max_terms is None else int(self.max_terms)
        self._x_scale = column_scales(X)
        if self._x_scale is not None:
            warnings.warn(
                f"{type(self).__name__}: X's scale (largest |value| {np.max(np.abs(X)):.3g}) "
                "is beyond float64's range for products of hinges; the model is fitted on X "
                "rescaled by powers of two per column and mapped back, exactly, but earth's "
                "fixed minimum sum of squares of a new term (0.01) then acts on the rescaled "
                "data, so the terms may differ from earth's.",
                NumericalWarning,
                stacklevel=3,
            )
            X = X / self._x_scale
        fwd, rss, gcvs, subsets, selected = fit_mars(
            X, Y, max_degree=self.max_degree, nk=nk, thresh=self.thresh, penalty=penalty,
            minspan=0 if self.minspan == "auto" else int(self.minspan),
            endspan=0 if self.endspan == "auto" else int(self.endspan), prune=self.prune,
        )  # fmt: skip
        names = self._feature_labels(p)
        cuts = fwd.cuts if self._x_scale is None else fwd.cuts * self._x_scale
        all_names = term_names(fwd.dirs, cuts, names, X if self._x_scale is None else None)
        k = len(selected)
        self.penalty_ = float(penalty)
        self.max_terms_ = nk
        self.forward_terms_ = all_names
        self.selected_terms_ = selected
        self.basis_ = [all_names[i] for i in selected[1:]]
        self.dirs_ = fwd.dirs[selected]
        self.cuts_ = cuts[selected]
        self._cuts_fit = fwd.cuts[selected]
        self.rss_per_subset_ = rss
        self.gcv_per_subset_ = gcvs
        self.prune_terms_ = subsets
        self.termination_ = self._termination(fwd.termcond, nk, fwd.dirs.shape[0])
        self.rss_ = float(rss[k - 1])
        self.rsq_ = _rsq(self.rss_, float(rss[0]))
        self.gcv_ = float(gcvs[k - 1])
        self.grsq_ = _rsq(self.gcv_, float(gcvs[0]))
        self.evimp_ = evimp(fwd.dirs, subsets, rss, gcvs, k, names)
        self._importance = evimp(fwd.dirs, subsets, rss, gcvs, k, names, trim=False)["feature"]
        return fwd.bx[:, selected]

    def _feature_labels(self, p):
        if hasattr(self, "feature_names_in_"):
            return [str(f) for f in self.feature_names_in_]
        return [f"x{j}" for j in range(p)]

    def _termination(self, code, nk, n_terms):
        terms = "term" if n_terms == 1 else "terms"
        if code == TERM_GRSQ_INF:
            return f"GRSq -Inf at {n_terms} {terms}"
        if code == TERM_MIN_GRSQ:
            return f"GRSq -10 at {n_terms} {terms}"
        if code == TERM_SMALL_DELTA:
            return f"RSq changed by less than {self.thresh:g} at {n_terms} {terms}"
        if code == TERM_MAX_RSQ:
            return f"Reached maximum RSq {1 - self.thresh:.4f} at {n_terms} {terms}"
        if code == TERM_NO_IMPROVEMENT:
            return f"No new term increases RSq at {n_terms} {terms}"
        return f"Reached nk {nk}"

    def _basis(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        if self._x_scale is not None:
            X = X / self._x_scale
        return basis_matrix(X, self.dirs_, self._cuts_fit)

    def _set_coefficients(self, coef):
        """Store ``coef`` (n_out, n_terms + 1), fitted on the basis of the (rescaled) data,
        and return the coefficients of the basis in X's units."""
        self._coef_fit = coef
        if self._x_scale is None:
            return coef
        factor = np.prod(np.where(self.dirs_ != 0, self._x_scale, 1.0), axis=1)
        return coef / factor

    def _linear_predictor(self, X):
        B = self._basis(X)
        return B[:, 1:] @ self._coef_fit[:, 1:].T + self._coef_fit[:, 0]

    def _summary_stats(self):
        deg = np.count_nonzero(self.dirs_, axis=1)
        return {
            "n_selected": len(self.selected_terms_),
            "n_forward_terms": len(self.forward_terms_),
            "n_used_features": int(np.count_nonzero(np.any(self.dirs_ != 0, axis=0))),
            "n_features": self.n_features_in_,
            "termination": self.termination_,
            "importance": list(self._importance),
            "degree_counts": np.bincount(deg).tolist(),
            "gcv": self.gcv_,
            "rss": self.rss_,
            "grsq": self.grsq_,
            "rsq": self.rsq_,
        }

    def _summary_terms(self, coefs):
        order = anova_order(self.dirs_, self.cuts_)
        names = ["(Intercept)", *self.basis_]
        return [names[i] for i in order], np.asarray(coefs)[order]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.multi_output = isinstance(self, RegressorMixin)
        return tags


def _rsq(rss, tss):
    """earth's ``get.rsq``: ``1 − rss/tss``, with values within 1e-5 of zero set to zero."""
    r = 1.0 - rss / tss if tss > 0 else 0.0
    return 0.0 if -1e-5 < r < 1e-5 else r


class MARSRegressor(RegressorMixin, _MARSBase):
    r"""Multivariate adaptive regression splines, as R's ``earth``.

    Friedman's MARS with earth's forward pass (hinge pairs and their products, Fast MARS),
    earth's pruning pass by GCV and a least-squares fit of the selected terms: on the same data
    the selected terms, knots and coefficients are R's.

    Parameters
    ----------
    max_terms : int or None, default=None
        Maximum number of terms of the forward pass, intercept included (earth's ``nk``);
        ``None`` is earth's default ``min(200, max(20, 2 p)) + 1``.
    max_degree : int, default=1
        Maximum degree of interaction (earth's ``degree``): 1 is an additive model.
    penalty : float or None, default=None
        GCV cost per knot (earth's ``penalty``); ``None`` is 2 for an additive model and 3
        with interactions; −1 makes GCV the RSS over ``n``.
    minspan : "auto" or int, default="auto"
        Number of observations between knots (earth's ``minspan``; "auto" is Friedman's
        equation 43 on the observations where the parent is positive; a negative value asks
        for about ``-minspan`` evenly spaced knots).
    endspan : "auto" or int, default="auto"
        Number of observations excluded at each end before the first knot (earth's
        ``endspan``; "auto" is Friedman's equation 45, tripled for interaction terms).
    thresh : float, default=0.001
        Forward-pass threshold on the increase of RSq (earth's ``thresh``); 0 grows to
        ``max_terms``.
    prune : bool, default=True
        Run the backward pass (earth's ``pmethod="backward"``); ``False`` keeps every
        forward-pass term (``pmethod="none"``).

    Attributes
    ----------
    basis_ : list of str
        The selected terms (intercept excluded) named as earth prints them, ``h(x-3.2)``,
        ``h(3.2-x)``, ``x`` (a bare linear term), products joined by ``*``, in earth's order
        (the forward pass's).
    coef_ : ndarray of shape (n_terms,) or (n_targets, n_terms)
        Coefficients of ``basis_``, in the same order (one row per target for a 2-D ``y``).
    intercept_ : float or ndarray of shape (n_targets,)
        Coefficient of the intercept.
    dirs_, cuts_ : ndarray of shape (n_terms + 1, n_features)
        earth's ``dirs`` and ``cuts`` of the selected terms (intercept first): 1 for
        ``(x − t)₊``, −1 for ``(t − x)₊``, 2 for a linear factor.
    forward_terms_ : list of str
        Every term of the forward pass (earth's ``rownames(dirs)``).
    selected_terms_ : ndarray of int
        Indices of the selected terms in ``forward_terms_`` (earth's ``selected.terms`` − 1).
    rss_, rsq_, gcv_, grsq_ : float
        RSS, R², GCV and generalised R² (``1 − GCV/GCV_null``) of the selected model.
    rss_per_subset_, gcv_per_subset_ : ndarray of shape (n_forward_terms,)
        RSS and GCV of the best model of each size along the backward pass.
    prune_terms_ : list of ndarray
        Per size, the indices (in ``forward_terms_``) of the terms kept by the backward pass.
    evimp_ : dict
        earth's ``evimp``: ``feature``, ``nsubsets``, ``gcv``, ``rss`` (importance on a 0–100
        scale), most important first.
    termination_ : str
        Why the forward pass stopped, in earth's words.
    penalty_ : float
        The GCV penalty used.
    max_terms_ : int
        The ``nk`` used.
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen during fit (only when X has string column names).

    See Also
    --------
    MARSClassifier : The same basis with a binomial GLM.

    Notes
    -----
    The model is :math:`f(x) = \beta_0 + \sum_{m=1}^{M-1} \beta_m B_m(x)`, each :math:`B_m` a
    product of at most ``max_degree`` hinges :math:`(x_j - t)_+`, :math:`(t - x_j)_+` (or a bare
    :math:`x_j`) on distinct predictors. The forward pass adds, among all parents :math:`B_l`
    already in the model, predictors :math:`j` not in them and knots :math:`t` at data values,
    the reflected pair :math:`B_l (x_j - t)_\pm` that most reduces the residual sum of squares
    (earth's rules exactly: minspan/endspan, Fast MARS with ``fast.k = 20``, the bare linear term
    when the best knot is the smallest value, stopping when RSq improves by less than
    ``thresh``, RSq reaches ``1 - thresh``, GRSq drops below −10 or ``max_terms`` is reached).
    The backward pass deletes one term at a time (the one whose removal increases the RSS
    least) and keeps the subset with the smallest

    .. math:: \mathrm{GCV} = \frac{\mathrm{RSS}}{n\,(1 - C(M)/n)^2}, \qquad
              C(M) = M + \mathrm{penalty}\cdot\frac{M-1}{2},

    :math:`M` terms including the intercept, :math:`(M-1)/2` being earth's count of knots.
    Seed 004's catalogue writes :math:`C(M) = M + \mathrm{penalty}\cdot K` with :math:`K` the
    number of knots actually used (Friedman's), which differs whenever a term is a bare linear
    term, a single hinge of a pair survived pruning, or a product term carries two knots; we
    follow earth so that GCV, the pruned model and ``grsq_`` match R.

    Parameters map to earth's: ``max_terms`` = ``nk``, ``max_degree`` = ``degree``, and
    ``penalty``, ``minspan``, ``endspan``, ``thresh`` as named (0 / "auto" in earth). Other earth
    settings are its defaults (``fast.k = 20``, ``fast.beta = 1``, ``Adjust.endspan = 2``,
    ``Auto.linpreds = TRUE``, ``newvar.penalty = 0``); the response is standardised for the
    forward pass as earth's ``Scale.y``. Ties among the values of a predictor are sorted
    stably; earth's C ``qsort`` may order tied values differently, which only matters for the
    minspan counting of interaction terms on tied data. Several response columns are fitted as
    earth fits them: one forward pass on all of them (unstandardised), backward elimination by
    the RSS summed over the columns (earth's ``EvalSubsetsUsingXtx``; ``rss_``, ``gcv_`` and
    the R² are the sums'), least squares per column. Case weights are not supported (earth's
    weighted forward pass refits every candidate). py-earth's ``Earth`` is the (abandoned)
    Python equivalent.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.mars import MARSRegressor
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(0, 10, size=(200, 2))
    >>> y = np.maximum(X[:, 0] - 4, 0) + 0.1 * rng.normal(size=200)
    >>> model = MARSRegressor().fit(X, y)
    >>> model.basis_
    ['h(x0-3.94187)']
    >>> print(model.summary())  # doctest: +NORMALIZE_WHITESPACE
                   coefficients
    (Intercept)     -0.02013185
    h(x0-3.94187)      0.992812
    <BLANKLINE>
    Selected 2 of 3 terms, and 1 of 2 predictors
    Termination condition: RSq changed by less than 0.001 at 3 terms
    Importance: x0, x1-unused
    Number of terms at each degree of interaction: 1 1 (additive model)
    GCV 0.01026815    RSS 1.992482    GRSq 0.9976197    RSq 0.9976673
    """

    @fit_context
    def fit(self, X, y):
        """Run the forward and backward passes and fit the selected terms.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,) or (n_samples, n_targets)
            Target values; several columns share one set of terms (earth's multi-response
            model).

        Returns
        -------
        self : MARSRegressor
            The fitted estimator.
        """
        X, y = validate_data(self, X, y, y_numeric=True, multi_output=True, dtype=np.float64)
        Y = y.astype(np.float64).reshape(y.shape[0], -1)
        B = self._fit_basis(X, Y)
        with single_blas_thread(B.size * B.shape[1]):
            coef = np.array(
                [qr_least_squares(B[:, 1:], col, fit_intercept=True).coef for col in Y.T]
            )
        coef = self._set_coefficients(coef)
        if y.ndim == 1:
            self.intercept_ = float(coef[0, 0])
            self.coef_ = coef[0, 1:].copy()
        else:
            self.intercept_ = coef[:, 0].copy()
            self.coef_ = coef[:, 1:].copy()
        return self

    def predict(self, X):
        """Predict with the selected terms.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_targets)
            Predicted values (one column per target when fitted on several).
        """
        pred = self._linear_predictor(X)
        return pred[:, 0] if np.ndim(self.intercept_) == 0 else pred

    def summary(self):
        """The fitted model as R's ``summary(earth)`` prints it.

        Returns
        -------
        MARSSummary
            Coefficients in earth's ``anova`` order and the fit statistics.
        """
        check_is_fitted(self)
        terms, coefs = self._summary_terms(np.r_[self.intercept_, self.coef_][:, None])
        return MARSSummary(terms, coefs, self._summary_stats())


class MARSClassifier(ClassifierMixin, _MARSBase):
    r"""MARS basis with a binomial GLM, as R's ``earth(glm=list(family=binomial))``.

    The terms are selected by the regression of the 0/1 response (earth's forward and pruning
    passes, exactly as :class:`MARSRegressor`), then a logistic regression is fitted on them by
    IRLS (R's ``glm.fit``).

    Parameters
    ----------
    max_terms : int or None, default=None
        Maximum number of forward-pass terms, intercept included (earth's ``nk``).
    max_degree : int, default=1
        Maximum degree of interaction.
    penalty : float or None, default=None
        GCV cost per knot; ``None`` is 2, or 3 with interactions.
    minspan : "auto" or int, default="auto"
        Observations between knots.
    endspan : "auto" or int, default="auto"
        Observations excluded at each end.
    thresh : float, default=0.001
        Forward-pass threshold on the increase of RSq.
    prune : bool, default=True
        Run the backward pass.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels. With two classes one GLM models the log-odds of the second; with more,
        one GLM per class against the rest (earth's indicator columns).
    basis_ : list of str
        Selected terms (intercept excluded), named as earth prints them.
    coef_ : ndarray of shape (n_glms, n_terms)
        GLM coefficients of ``basis_`` (earth's ``glm.coefficients``); ``n_glms`` is 1 for two
        classes, else ``n_classes``.
    intercept_ : ndarray of shape (n_glms,)
        GLM intercepts.
    deviance_, null_deviance_, aic_ : ndarray of shape (n_glms,)
        Each binomial GLM's deviance, null deviance and AIC.
    glm_stats_ : dict of ndarray of shape (n_glms,)
        earth's ``glm.stats``: ``null_deviance``, ``df_null``, ``deviance``, ``df_resid``,
        ``devratio`` (``1 − deviance/null_deviance``), ``aic``, ``n_iter``, ``converged``.
    n_iter_ : int
        IRLS iterations.
    dirs_, cuts_ : ndarray of shape (n_terms + 1, n_features)
        earth's ``dirs`` and ``cuts`` of the selected terms.
    forward_terms_ : list of str
        Every term of the forward pass.
    selected_terms_ : ndarray of int
        Indices of the selected terms in ``forward_terms_``.
    rss_, rsq_, gcv_, grsq_ : float
        Statistics of the regression on the 0/1 response that selected the terms.
    rss_per_subset_, gcv_per_subset_ : ndarray
        RSS and GCV along the backward pass.
    prune_terms_ : list of ndarray
        Terms kept at each size of the backward pass.
    evimp_ : dict
        earth's ``evimp``.
    termination_ : str
        Why the forward pass stopped.
    penalty_ : float
        The GCV penalty used.
    max_terms_ : int
        The ``nk`` used.
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (n_features_in_,)
        Names of features seen during fit (only when X has string column names).

    See Also
    --------
    MARSRegressor : The regression model.

    Notes
    -----
    The terms are those of the regression of the 0/1 coded response (earth's; with more than
    two classes, of the class indicators jointly, earth's multi-response forward pass and its
    backward elimination by the RSS summed over the columns); each GLM then
    maximises :math:`\sum_i y_i \eta_i - \log(1 + e^{\eta_i})` with
    :math:`\eta = \beta_0 + \sum_m \beta_m B_m(x)`. See :class:`MARSRegressor` for the forward and
    backward passes and the GCV count of parameters.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.mars import MARSClassifier
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-3, 3, size=(300, 2))
    >>> y = (np.abs(X[:, 0]) + 0.3 * rng.normal(size=300) > 1.5).astype(int)
    >>> clf = MARSClassifier().fit(X, y)
    >>> clf.score(X, y) > 0.9
    True
    """

    @fit_context
    def fit(self, X, y):
        """Select the terms on the 0/1 response, then fit the binomial GLM.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Two class labels.

        Returns
        -------
        self : MARSClassifier
            The fitted estimator.
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, codes = encode_class_labels(y, type(self).__name__)
        k = self.classes_.size
        Y = codes[:, None] == (np.arange(k) if k > 2 else np.array([1]))
        Y = Y.astype(np.float64)
        B = self._fit_basis(X, Y)
        coefs, rows = [], []
        for y01 in Y.T:
            res = irls(B[:, 1:], y01, family="binomial", link="logit")
            if not res.converged:
                warn_not_converged(
                    self,
                    "IRLS",
                    max_iter=25,
                    advice="the GLM stops where R's glm.fit stops, with its last iterate",
                )
            if np.any(res.mu > 1 - 1e-10) or np.any(res.mu < 1e-10):
                warnings.warn(
                    f"{type(self).__name__}: fitted probabilities numerically 0 or 1 occurred: "
                    "the selected terms (quasi-)separate the classes, so some GLM coefficients "
                    "diverge.",
                    NumericalWarning,
                )
            coefs.append(np.where(np.isnan(res.coef), 0.0, res.coef))
            p1 = y01.mean()
            null = -2 * y01.size * (p1 * np.log(p1) + (1 - p1) * np.log(1 - p1))
            rows.append(
                (null, y01.size - 1, res.deviance, y01.size - res.rank, 1 - res.deviance / null,
                 res.deviance + 2 * res.rank, res.n_iter, res.converged)
            )  # fmt: skip
        coefs = self._set_coefficients(np.array(coefs))
        self.intercept_ = coefs[:, 0].copy()
        self.coef_ = coefs[:, 1:].copy()
        cols = np.array(rows, dtype=np.float64).T
        keys = ("null_deviance", "df_null", "deviance", "df_resid", "devratio", "aic")
        self.glm_stats_ = {k: cols[i] for i, k in enumerate(keys)}
        self.glm_stats_["n_iter"] = cols[6].astype(np.int64)
        self.glm_stats_["converged"] = cols[7].astype(bool)
        self.deviance_ = self.glm_stats_["deviance"]
        self.null_deviance_ = self.glm_stats_["null_deviance"]
        self.aic_ = self.glm_stats_["aic"]
        self.n_iter_ = int(cols[6].max())
        return self

    def decision_function(self, X):
        """Log-odds of each GLM.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,) or (n_samples, n_classes)
            Two classes: the log-odds of ``classes_[1]``; more: one column per class (the
            one-against-the-rest GLMs).
        """
        eta = self._linear_predictor(X)
        return eta[:, 0] if self.classes_.size == 2 else eta

    def predict_proba(self, X):
        """Class probabilities.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns follow ``classes_``. With more than two classes the one-against-the-rest
            probabilities (earth's) are divided by their sum.
        """
        eta = self.decision_function(X)
        p = 0.5 * (1.0 + np.tanh(0.5 * eta))  # the logistic function, without overflow
        if self.classes_.size == 2:
            return np.column_stack([1.0 - p, p])
        total = p.sum(axis=1, keepdims=True)
        return np.where(total > 0, p / np.where(total > 0, total, 1.0), 1.0 / p.shape[1])

    def predict(self, X):
        """Predicted class labels (the most probable class).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples.

        Returns
        -------
        ndarray of shape (n_samples,)
            Labels from ``classes_``.
        """
        eta = self.decision_function(X)
        if self.classes_.size == 2:
            return self.classes_[(eta > 0).astype(int)]
        return self.classes_[np.argmax(eta, axis=1)]

    def summary(self):
        """The fitted model as R's ``summary(earth(glm=...))`` prints it.

        Returns
        -------
        MARSSummary
            GLM coefficients in earth's ``anova`` order and the fit statistics.
        """
        check_is_fitted(self)
        terms, coefs = self._summary_terms(np.column_stack([self.intercept_, self.coef_]).T)
        stats = self._summary_stats()
        stats["glm"] = self.glm_stats_
        labels = self.classes_[1:] if self.classes_.size == 2 else self.classes_
        return MARSSummary(terms, coefs, stats, headings=[str(c) for c in labels])
