"""Models fitted through a formula, as R's ``lm`` and ``glm``: :func:`lm`, :func:`glm`,
:class:`FormulaFit`.

Every model function goes through :func:`fit_formula`: it reads the formula, builds the design
(:mod:`._design`), removes incomplete rows as R's ``na.omit``, fits a statlearning estimator on
a data frame whose columns carry R's coefficient names, and records R's call. A new model
function (``gam``, once GAMs take formulas) is a short function that chooses its estimator and
its call's arguments and calls :func:`fit_formula`; a term constructor of its own (``s(x)``)
joins the formula functions with :func:`statlearning.formula.register_transform`.
"""

from __future__ import annotations

import numpy as np

from .._core.families import get_family
from .._core.links import get_link
from ..linear_model import GLMRegressor, LinearRegression, LogisticRegression
from . import _deparse as rd
from ._design import (
    FormulaTransformer,
    as_frame,
    check_columns,
    design_array,
    design_values,
    expand_dot,
    materialize,
    offset_values,
    split_formula,
    split_offsets,
    variables,
)


class FormulaFit:
    """A statlearning estimator fitted through a formula, with R's call.

    Returned by :func:`lm` and :func:`glm`. It predicts from data frames through the stored
    formula (new data may have its columns in any order, and extra ones), and its
    :meth:`summary` prints as R's ``summary(fit)``. Every other attribute (``coef_``,
    ``bse_``, ``aic_``, ``classes_``, …) is the fitted estimator's.

    Parameters
    ----------
    estimator : fitted estimator
        A :class:`~statlearning.linear_model.LinearRegression`,
        :class:`~statlearning.linear_model.GLMRegressor` or
        :class:`~statlearning.linear_model.LogisticRegression` fitted on the design, whose
        ``feature_names_in_`` are R's coefficient names.
    transformer : FormulaTransformer
        The fitted design of the formula's right-hand side.
    formula : str
        The formula as given.
    call : str
        R's call, printed by :meth:`summary`.
    n_deleted : int
        Rows removed for missing values.
    offset : str or None
        The column holding the offset of a GLM, read from new data by :meth:`predict` and
        :meth:`predict_interval` unless ``offset=`` is given (R's ``predict`` on a model
        with ``offset = t``).
    stats : dict, optional
        Fit statistics replacing the estimator's in :meth:`summary` (R's R² and F of a
        linear model with an offset, whose fitted values include the offset).

    See Also
    --------
    statlearning.formula.lm, statlearning.formula.glm : the functions that return it.
    statlearning.formula.FormulaTransformer : the design in a scikit-learn pipeline.

    Examples
    --------
    >>> import pandas as pd
    >>> from statlearning.formula import lm
    >>> data = pd.DataFrame({"y": [1.0, 3.1, 4.9, 7.2, 8.8], "x": [0.0, 1.0, 2.0, 3.0, 4.0]})
    >>> fit = lm("y ~ x", data)
    >>> fit.call
    'lm(formula = y ~ x, data = data)'
    >>> fit.predict(pd.DataFrame({"x": [5.0]})).round(2)
    array([10.91])
    """

    def __init__(self, estimator, transformer, formula, call, n_deleted=0, offset=None, stats=None):
        self.estimator = estimator
        self.transformer = transformer
        self.formula = formula
        self.call = call
        self.n_deleted = int(n_deleted)
        self.offset = offset
        self.stats = {} if stats is None else dict(stats)

    def __getattr__(self, name):
        if name.startswith("__") or name in ("estimator", "transformer"):
            raise AttributeError(name)
        return getattr(self.estimator, name)

    def __repr__(self) -> str:
        return f"<FormulaFit {self.call.replace(chr(10), ' ')}: {type(self.estimator).__name__}>"

    def design(self, data):
        """The design matrix of ``data`` (a DataFrame with R's column names).

        Parameters
        ----------
        data : pandas.DataFrame

        Returns
        -------
        pandas.DataFrame
        """
        import pandas as pd

        frame = as_frame(data, type(self).__name__)
        values = design_values(self.transformer, frame)
        return pd.DataFrame(
            values, columns=list(self.transformer.feature_names_out_), index=frame.index
        )

    def predict(self, data, **kwargs):
        """The estimator's ``predict`` on the design of ``data``.

        The formula's ``offset(...)`` terms (and the ``offset`` column of a GLM) are evaluated
        on ``data``, as R's ``predict`` does with new data.

        Parameters
        ----------
        data : pandas.DataFrame
        **kwargs
            Passed on (``offset=`` for a GLM, replacing the data's).

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        X = self.design(data)
        kwargs, added = self._offset(data, kwargs)
        pred = self.estimator.predict(X, **kwargs)
        return pred if added is None else pred + added

    def predict_proba(self, data):
        """Class probabilities (a factor response fitted by logistic regression).

        Parameters
        ----------
        data : pandas.DataFrame

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        return self.estimator.predict_proba(self.design(data))

    def predict_interval(self, data, kind="confidence", level=0.95, **kwargs):
        """The estimator's ``predict_interval`` on the design of ``data``.

        Parameters
        ----------
        data : pandas.DataFrame
        kind : {"confidence", "prediction"}, default="confidence"
        level : float, default=0.95
        **kwargs
            Passed on.

        Returns
        -------
        fit, lower, upper : ndarray of shape (n_samples,)
        """
        X = self.design(data)
        kwargs, added = self._offset(data, kwargs)
        out = self.estimator.predict_interval(X, kind=kind, level=level, **kwargs)
        return out if added is None else tuple(part + added for part in out)

    def _offset(self, data, kwargs):
        """``(kwargs, added)``: the offset of ``data`` passed to an estimator that takes one
        (a GLM), else returned in ``added`` for adding to its predictions (``lm``, fitted to
        the response less the offset, as R's)."""
        if "offset" in kwargs:
            return kwargs, None
        total = None
        if self.offset is not None:
            if self.offset not in data.columns:
                raise ValueError(
                    f"{type(self).__name__}: column {self.offset!r} (the offset) missing from "
                    "the new data"
                )
            total = data[self.offset].to_numpy(dtype=np.float64)
        terms = self.transformer.offset(as_frame(data, type(self).__name__))
        if terms is not None:
            total = terms if total is None else total + terms
        if total is None:
            return kwargs, None
        if _takes_offset(self.estimator):
            return {**kwargs, "offset": total}, None
        return kwargs, total

    def summary(self, level=0.95):
        """R's ``summary(fit)``: the estimator's summary with R's call and term names.

        Parameters
        ----------
        level : float, default=0.95
            Level of the confidence intervals in ``to_frame()``.

        Returns
        -------
        statlearning.inference.Summary
            Printed exactly as R prints it.
        """
        s = self.estimator.summary(level=level)
        s.stats.update(getattr(self, "stats", {}))
        s.call = self.call
        s.n_deleted = self.n_deleted
        s.formula = rd.deparse(self.formula)
        return s


def _takes_offset(estimator) -> bool:
    import inspect

    return "offset" in inspect.signature(estimator.fit).parameters


def _column_or_array(frame, value, what: str):
    """A column of ``frame`` named by ``value``, or ``value`` as one value per row."""
    import pandas as pd

    if value is None:
        return None
    if isinstance(value, str):
        if value not in frame.columns:
            raise ValueError(f"{what}: no column {value!r} in the data")
        return pd.to_numeric(frame[value], errors="raise").astype(float)
    arr = np.asarray(value, dtype=np.float64).ravel()
    if arr.shape[0] != frame.shape[0]:
        raise ValueError(f"{what} has {arr.shape[0]} values but the data has {frame.shape[0]} rows")
    return pd.Series(arr, index=frame.index)


def _response(lhs, frame, function: str):
    """The response: one column (a Series), or the two columns of ``cbind(s, f)``."""
    import pandas as pd

    if lhs is None:
        raise ValueError(f"{function}: the formula needs a response on its left: 'y ~ x'")
    if lhs.kind == "name":
        if lhs.value not in frame.columns:
            raise ValueError(f"{function}: no column {lhs.value!r} (the response) in the data")
        return frame[lhs.value]
    if lhs.kind == "call" and lhs.value == rd.Node("name", "cbind"):
        cols = [_response(arg, frame, function) for _, arg in lhs.args]
        return pd.concat([pd.to_numeric(c) for c in cols], axis=1)
    mm, _ = materialize(
        rd.Node("binary", "+", (rd.Node("num", "0"), lhs)), frame, na_action="ignore"
    )
    return pd.Series(np.asarray(mm, dtype=float)[:, 0], index=frame.index)


def fit_formula(
    function,
    formula,
    data,
    make_estimator,
    *,
    call_args=(),
    weights=None,
    offset=None,
    prepare=None,
):
    """Fit ``make_estimator(response, design)`` through ``formula`` on ``data``.

    Parameters
    ----------
    function : str
        R's function name in the call (``"lm"``).
    formula : str
    data : pandas.DataFrame
    make_estimator : callable
        ``(y, design) -> estimator`` (unfitted), given the response and the fitted
        :class:`FormulaTransformer` (``design.has_intercept_``; ``design.term_columns_``
        groups the columns by term, e.g. the basis of each smooth).
    call_args : list of (str, str)
        Arguments of R's call after ``formula``, in R's order, as R prints them; ``data``
        is written where the pair ``("data", None)`` stands (else after ``formula``).
    weights, offset : str, array-like or None
        A column of ``data`` or one value per row.
    prepare : callable, default=None
        ``(y, weights) -> (y, weights)`` applied to the complete rows before fitting (the
        two-column binomial response).

    Returns
    -------
    FormulaFit
    """
    import pandas as pd

    frame = as_frame(data, function)
    lhs, rhs = split_formula(formula)
    y = _response(lhs, frame, function)
    rhs, offsets = split_offsets(rhs)
    rhs_full = expand_dot(rhs, [str(c) for c in frame.columns], variables(lhs))
    check_columns(function, rhs_full, frame)
    for node in offsets:
        check_columns(f"{function}: offset({rd.deparse(node)})", node, frame)
    mm, spec = materialize(rhs_full, frame, na_action="drop")
    w = _column_or_array(frame, weights, f"{function}: weights")
    off = _column_or_array(frame, offset, f"{function}: offset")
    if offsets:  # R adds every offset() term and the offset argument
        terms = pd.Series(offset_values(offsets, frame), index=frame.index)
        off = terms if off is None else off + terms
    ok = pd.Series(False, index=frame.index)
    ok.loc[mm.index] = True
    for part in (y, w, off):
        if part is not None:
            ok &= ~(part.isna().any(axis=1) if part.ndim == 2 else part.isna())
    rows = ok.to_numpy()
    transformer = FormulaTransformer(formula)
    transformer._store(spec, frame, offsets=offsets, rhs=rhs_full)
    names = transformer.feature_names_out_
    values = design_array(transformer, mm.loc[ok[ok].index])
    design = pd.DataFrame(values, columns=list(names))
    y = y[rows].reset_index(drop=True)
    w = None if w is None else w[rows].to_numpy()
    if prepare is not None:
        y, w = prepare(y, w)
    estimator = make_estimator(y, transformer)
    fit_kwargs = {} if w is None else {"sample_weight": w}
    if off is not None:
        if _takes_offset(estimator):
            fit_kwargs["offset"] = off[rows].to_numpy()
        else:  # least squares: the response less the offset (R's lm.fit)
            y = y - off[rows].to_numpy()
    estimator.fit(design, y, **fit_kwargs)
    stats = None
    if off is not None and not _takes_offset(estimator):
        stats = _offset_fit_statistics(estimator, design, y, off[rows].to_numpy(), w)
    args = [("formula", rd.parse(formula))]
    pairs = list(call_args)
    if ("data", None) not in pairs:
        pairs.insert(0, ("data", None))
    args += [(k, "data" if v is None else v) for k, v in pairs]
    call = rd.deparse_call(function, args)
    return FormulaFit(
        estimator, transformer, formula, call, n_deleted=int((~rows).sum()),
        offset=offset if isinstance(offset, str) else None, stats=stats,
    )  # fmt: skip


def _offset_fit_statistics(estimator, design, y_less_offset, off, w) -> dict:
    """R²  and F of a least-squares fit with an offset as R's ``summary.lm`` (R 4.2) computes
    them: from the fitted values *including* the offset, ``f = Xb + o``, so that the
    regression sum of squares counts the offset's variation too."""
    from scipy import stats as st

    base = estimator.summary().stats
    r = np.asarray(y_less_offset, dtype=float) - estimator.predict(design)
    f = estimator.predict(design) + off
    w = np.ones_like(f) if w is None else np.asarray(w, dtype=float)
    keep = w > 0
    f, r, w = f[keep], r[keep], w[keep]
    df_int = 1 if estimator.fit_intercept else 0
    centre = np.sum(w * f) / np.sum(w) if df_int else 0.0
    mss = float(np.sum(w * (f - centre) ** 2))
    rss = float(np.sum(w * r**2))
    rdf, df_model = base["df_resid"], base["df_model"]
    r2 = mss / (mss + rss)
    fstat = (mss / df_model) / (rss / rdf) if df_model > 0 else np.nan
    return {
        "r_squared": r2,
        "adj_r_squared": 1 - (1 - r2) * ((keep.sum() - df_int) / rdf),
        "f_statistic": fstat,
        "f_pvalue": float(st.f.sf(fstat, df_model, rdf)) if df_model > 0 else np.nan,
    }


def _argument_text(value, name: str) -> str:
    return value if isinstance(value, str) else name


def lm(formula, data, weights=None):
    """Fit a linear model through an R formula, as R's ``lm(formula, data, weights)``.

    Parameters
    ----------
    formula : str
        ``"y ~ x1 + C(g) + bs(x2, df = 4)"``: see :class:`FormulaTransformer` for the terms.
        ``y ~ 0 + x`` (or ``- 1``) fits no intercept.
    data : pandas.DataFrame
        Rows with a missing value in a variable of the model are dropped (R's ``na.omit``).
    weights : str or array-like, default=None
        Prior weights: a column of ``data`` or one value per row.

    Returns
    -------
    FormulaFit
        Wrapping a fitted :class:`~statlearning.linear_model.LinearRegression` whose
        coefficient names are R's; ``summary()`` prints as R's ``summary(lm(...))``.

    See Also
    --------
    glm : generalised linear models through a formula.

    Notes
    -----
    Least squares, :math:`\\hat\\beta = \\arg\\min_\\beta \\sum_i w_i (y_i - x_i^\\top\\beta)^2`,
    on the design ``model.matrix(formula, data)`` (treatment contrasts, R's ``poly``, ``bs``,
    ``ns`` bases). The call printed by ``summary()`` names the data ``data`` and the weights
    by their column (``weights = w``) or ``weights``.

    Examples
    --------
    >>> import pandas as pd
    >>> from statlearning.formula import lm
    >>> data = pd.DataFrame({"y": [1.0, 2.9, 5.2, 3.1, 7.0, 6.4],
    ...                      "x": [1.0, 2.0, 3.0, 1.5, 3.5, 3.0],
    ...                      "g": ["a", "b", "b", "a", "b", "a"]})
    >>> fit = lm("y ~ x + g", data)
    >>> list(fit.summary().to_frame().index)
    ['(Intercept)', 'x', 'gb']
    """
    call_args = [("data", None)]
    if weights is not None:
        call_args.append(("weights", _argument_text(weights, "weights")))
    return fit_formula(
        "lm",
        formula,
        data,
        lambda y, design: LinearRegression(fit_intercept=design.has_intercept_),
        call_args=call_args,
        weights=weights,
    )


_R_FAMILIES = {"Gamma": "gamma", "inverse.gaussian": "inverse_gaussian"}


def _binomial_counts(y, w):
    """R's two-column binomial response: proportions with prior weights ``s + f``."""
    s, f = (y.iloc[:, k].to_numpy(dtype=float) for k in (0, 1))
    n = s + f
    with np.errstate(invalid="ignore", divide="ignore"):
        prop = np.where(n == 0, 0.0, s / np.where(n == 0, 1.0, n))
    import pandas as pd

    return pd.Series(prop, name="y"), n if w is None else n * w


def glm(formula, data, family="gaussian", link=None, weights=None, offset=None):
    """Fit a generalised linear model through an R formula, as R's ``glm``.

    Parameters
    ----------
    formula : str
        ``"y ~ x + g"``; for the binomial family the response may be R's two columns of
        successes and failures, ``"cbind(s, f) ~ x"``, or a factor (string, categorical or
        boolean column: the first level is failure, as R's).
    data : pandas.DataFrame
    family : {"gaussian", "binomial", "poisson", "gamma", "inverse_gaussian"}, default="gaussian"
        R's spellings ``"Gamma"`` and ``"inverse.gaussian"`` are accepted.
    link : str, default=None
        The family's canonical link when ``None`` (see
        :class:`~statlearning.linear_model.GLMRegressor`).
    weights : str or array-like, default=None
        Prior weights: a column of ``data`` or one value per row.
    offset : str or array-like, default=None
        A known term of the linear predictor: a column or one value per row.

    Returns
    -------
    FormulaFit
        Wrapping a fitted :class:`~statlearning.linear_model.GLMRegressor`, or, for a factor
        response with the logit link, a :class:`~statlearning.linear_model.LogisticRegression`
        (a classifier: ``predict`` gives labels, ``predict_proba`` probabilities).

    See Also
    --------
    lm : linear models through a formula.

    Notes
    -----
    The model is :math:`g(\\mu_i) = x_i^\\top\\beta + o_i` fitted by IRLS, R's ``glm.fit``;
    standard errors come from the last IRLS step, as R's ``summary.glm``. With
    ``cbind(s, f)`` the response is :math:`s/(s+f)` with prior weights :math:`s+f` (times
    ``weights``), exactly as R; a row with :math:`s+f=0` gets weight 0.

    Examples
    --------
    >>> import pandas as pd
    >>> from statlearning.formula import glm
    >>> data = pd.DataFrame({"s": [1, 3, 6, 9], "f": [9, 7, 4, 1], "x": [1.0, 2.0, 3.0, 4.0]})
    >>> fit = glm("cbind(s, f) ~ x", data, family="binomial")
    >>> fit.call
    'glm(formula = cbind(s, f) ~ x, family = binomial, data = data)'
    """
    fam = get_family(_R_FAMILIES.get(family, family))
    lnk = None if link is None else get_link(link)
    if lnk is not None:
        get_family(fam.name)  # validated by the estimator at fit
    lhs, rhs = split_formula(formula)
    has_offset = offset is not None or bool(split_offsets(rhs)[1])
    two_columns = lhs is not None and lhs.kind == "call" and lhs.value == rd.Node("name", "cbind")
    family_text = fam.r_name
    if lnk is not None:
        family_text += f'(link = "{lnk.r_name}")'
    call_args = [] if fam.name == "gaussian" and lnk is None else [("family", family_text)]
    call_args.append(("data", None))
    if weights is not None:
        call_args.append(("weights", _argument_text(weights, "weights")))
    if offset is not None:
        call_args.append(("offset", _argument_text(offset, "offset")))

    def make(y, design):
        intercept = design.has_intercept_
        link_name = None if lnk is None else lnk.name
        if fam.name == "binomial" and not two_columns and not _is_numeric(y):
            if link_name in (None, "logit") and not has_offset:
                return LogisticRegression(fit_intercept=intercept)
        return GLMRegressor(family=fam.name, link=link_name, fit_intercept=intercept)

    def prepare(y, w):
        if two_columns:
            if fam.name != "binomial":
                raise ValueError("glm: a cbind(s, f) response needs family='binomial'")
            return _binomial_counts(y, w)
        if (
            fam.name == "binomial"
            and not _is_numeric(y)
            and (lnk not in (None, get_link("logit")) or has_offset)
        ):
            levels = sorted(set(y))
            return (y != levels[0]).astype(float), w
        return y, w

    return fit_formula(
        "glm",
        formula,
        data,
        make,
        call_args=call_args,
        weights=weights,
        offset=offset,
        prepare=prepare,
    )


def _is_numeric(y) -> bool:
    import pandas as pd

    return pd.api.types.is_numeric_dtype(y) and not pd.api.types.is_bool_dtype(y)
