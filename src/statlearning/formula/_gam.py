"""Additive models through a formula: :func:`gam`, mgcv's and the gam package's term syntax.

``s()``, ``te()`` and ``lo()`` are registered with :func:`register_transform` as functions
that pass their variables through unchanged (one column each); :func:`gam` reads each term's
label back (``s(x1, k = 5)``) to build the estimator's term (:func:`statlearning.gam.s`,
:func:`~statlearning.gam.te`, :func:`~statlearning.gam.ss`, :func:`~statlearning.gam.lo`).
Every other column of the design (numeric variables, the treatment dummies of factors,
interactions, ``poly``/``bs`` bases) is a linear term ``l()``.
"""

from __future__ import annotations

from ..gam import GAMClassifier, GAMRegressor, l, lo, s, ss, te
from . import _deparse as rd
from ._models import FormulaFit, _argument_text, _is_numeric, fit_formula
from ._transforms import register_transform

__all__ = ["gam"]

_METHODS = {"GCV.Cp": "gcv", "REML": "reml", "backfitting": None}
_R_FAMILIES = {"Gamma": "gamma"}


def _pass_through(*columns, **settings):
    """The variables of a smooth term, unchanged (the estimator builds the basis)."""
    import numpy as np
    from formulaic.materializers.types import FactorValues

    cols = [np.asarray(c, dtype=np.float64).ravel() for c in columns]
    names = ("",) if len(cols) == 1 else tuple(str(k + 1) for k in range(len(cols)))
    return FactorValues(np.column_stack(cols), column_names=names)


def _one(x, *args, **kw):
    import numpy as np

    if args and np.ndim(args[0]) == 1 and np.size(args[0]) == np.size(x) > 1:
        return _pass_through(x, args[0])  # s(x, z): a smooth of two variables
    return _pass_through(x)


def _two(x, z, *args, **kw):
    return _pass_through(x, z)


register_transform("s", _one, stateful=False)
register_transform("lo", _one, stateful=False)
register_transform("te", _two, stateful=False)


def _value(node, label):
    if node.kind == "num":
        v = float(node.value)
        return int(v) if v.is_integer() else v
    if node.kind == "str":
        return node.value
    if node.kind == "bool" or (node.kind == "name" and node.value in ("TRUE", "FALSE")):
        return node.value in (True, "TRUE")
    if node.kind == "unary" and node.value == "-":
        return -_value(node.args[0], label)
    raise ValueError(f"gam: cannot read the argument {rd.deparse(node)!r} of {label}")


def _settings(label, call, n_vars, positional_names):
    """Keyword settings of a smooth call (``n_vars`` leading variables skipped)."""
    out = {}
    extra = [a for k, a in call.args[n_vars:] if k is None]
    for name, node in zip(positional_names, extra, strict=False):
        out[name] = _value(node, label)
    if len(extra) > len(positional_names):
        raise ValueError(f"gam: too many unnamed arguments in {label}")
    for key, node in call.args[n_vars:]:
        if key is not None:
            out[key] = _value(node, label)
    return out


def _term(label, columns, backfitting):
    """The estimator term of one formula term (``None``: linear columns)."""
    try:
        node = rd.parse(label)
    except ValueError:
        return None
    if node.kind != "call" or node.value.kind != "name":
        return None
    fn = node.value.value
    if fn == "s":
        if backfitting:
            opts = _settings(label, node, 1, ["df"])
            unknown = set(opts) - {"df", "spar"}
            if unknown or "spar" in opts:
                raise ValueError(
                    f"gam: {label}: with method='backfitting' s(x, df) is gam's smoothing "
                    "spline and takes only df"
                )
            return ss(columns[0], df=float(opts.get("df", 4)))
        n_vars = 2 if len(columns) == 2 else 1
        if any(k is None for k, _ in node.args[n_vars:]):
            raise ValueError(
                f"gam: {label}: an unnamed second argument: s(x, df) is gam's smoothing "
                "spline (method='backfitting'); mgcv's settings are named (k = , bs = )"
            )
        opts = _settings(label, node, n_vars, [])
        unknown = set(opts) - {"k", "bs", "sp"}
        if unknown:
            raise ValueError(
                f"gam: {label}: s() takes k, bs and sp (mgcv's names); got {sorted(unknown)}; "
                "s(x, df) is gam's smoothing spline: use method='backfitting'"
            )
        k = int(opts.get("k", 10 if n_vars == 1 else 30))
        bs = opts.get("bs", "tp")
        j = columns[0] if n_vars == 1 else (columns[0], columns[1])
        return s(j, n_basis=k, basis=bs, lam=opts.get("sp"))
    if fn == "te":
        if backfitting:
            raise ValueError(f"gam: {label}: te() needs method='GCV.Cp' or 'REML'")
        opts = _settings(label, node, 2, [])
        if opts.get("bs", "cr") != "cr" or set(opts) - {"k", "bs"}:
            raise ValueError(f"gam: {label}: te() takes k and bs = 'cr' only")
        return te(columns[0], columns[1], n_basis=int(opts.get("k", 5)))
    if fn == "lo":
        if not backfitting:
            raise ValueError(f"gam: {label}: lo() needs method='backfitting'")
        opts = _settings(label, node, 1, ["span", "degree"])
        if set(opts) - {"span", "degree"}:
            raise ValueError(f"gam: {label}: lo() takes span and degree")
        return lo(columns[0], span=float(opts.get("span", 0.5)), degree=int(opts.get("degree", 1)))
    return None


def gam(formula, data, family="gaussian", link=None, method="GCV.Cp", weights=None):
    """Fit a generalised additive model through an R formula, as mgcv's or gam's ``gam``.

    Parameters
    ----------
    formula : str
        ``"y ~ s(x1) + s(x2, k = 5, bs = 'bs') + te(x3, x4) + C(g) + x5"`` (mgcv's terms) or,
        with ``method="backfitting"``, ``"y ~ s(x1, 4) + lo(x2, span = 0.5) + x3"`` (the gam
        package's).
    data : pandas.DataFrame
        Rows with a missing value in a variable of the model are dropped (R's ``na.omit``).
    family : {"gaussian", "binomial", "poisson", "gamma"}, default="gaussian"
        R's spelling ``"Gamma"`` is accepted. A binomial response that is a factor (text,
        categorical or boolean) fits a :class:`~statlearning.gam.GAMClassifier`.
    link : str, default=None
        The family's canonical link when ``None``.
    method : {"GCV.Cp", "REML", "backfitting"}, default="GCV.Cp"
        mgcv's smoothing-parameter criteria (``criterion="gcv"``/``"reml"`` of the
        estimators) or the gam package's local scoring with backfitting.
    weights : str or array-like, default=None
        Prior weights: a column of ``data`` or one value per row.

    Returns
    -------
    FormulaFit
        Wrapping the fitted :class:`~statlearning.gam.GAMRegressor` (or
        :class:`~statlearning.gam.GAMClassifier`); ``summary()`` shows the formula as mgcv
        prints it, or gam's ``Call:`` line with backfitting.

    See Also
    --------
    statlearning.gam.GAMRegressor : the estimator, its terms and the fits.

    Notes
    -----
    The model is :math:`g(\\mu_i) = \\beta_0 + \\sum_j f_j(x_{ij})`, see
    :class:`~statlearning.gam.GAMRegressor`. The two packages give ``s()`` different
    meanings and the method tells them apart: with ``method="GCV.Cp"`` or ``"REML"``,
    ``s(x, k = 10, bs = "cr", sp = NULL)`` is mgcv's penalised regression spline
    (``s(j, n_basis=k, basis=bs, lam=sp)``; an unnamed second argument is an error, since
    mgcv would read it as a second variable), ``te(x, z, k = 5)`` its tensor product; with
    ``method="backfitting"``, ``s(x, df)`` (``s(x, 4)``, or ``df = 4``) is gam's smoothing
    spline of ``df`` degrees of freedom (``ss(j, df)``) and ``lo(x, span, degree)`` its loess.
    ``bs`` defaults to mgcv's ``"tp"`` (thin plate regression spline), ``k`` to 10;
    ``s(x, z)`` is the isotropic thin plate spline of two variables (``k`` 30 by default,
    as mgcv). Factors (``C(g)``,
    ``factor(g)``, text columns) and the other variables are linear terms, one per column of
    the design (a factor's treatment dummies), as mgcv's parametric part.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from statlearning.formula import gam
    >>> rng = np.random.default_rng(0)
    >>> data = pd.DataFrame({"x": rng.uniform(size=200), "g": rng.choice(["a", "b"], 200)})
    >>> data["y"] = np.sin(2 * np.pi * data.x) + (data.g == "b") + rng.normal(0, 0.2, 200)
    >>> fit = gam("y ~ s(x, k = 8) + g", data, method="REML")
    >>> fit.call
    'gam(formula = y ~ s(x, k = 8) + g, data = data, method = "REML")'
    >>> [round(float(e), 1) for e in fit.edf_]
    [6.6, 1.0]
    """
    if method not in _METHODS:
        raise ValueError(
            f"gam: method must be 'GCV.Cp', 'REML' (mgcv) or 'backfitting' (the gam "
            f"package); got {method!r}"
        )
    backfitting = method == "backfitting"
    fam = _R_FAMILIES.get(family, family)
    call_args = [] if fam == "gaussian" else [("family", family if family != "gamma" else "Gamma")]
    call_args.append(("data", None))
    if weights is not None:
        call_args.append(("weights", _argument_text(weights, "weights")))
    if not backfitting and method != "GCV.Cp":
        call_args.append(("method", f'"{method}"'))

    names = []

    def make(y, design):
        if not design.has_intercept_:
            raise ValueError("gam: an additive model keeps its intercept; remove '- 1' / '0 +'")
        terms = []
        for label, cols in design.term_columns_.items():
            t = _term(label, cols, backfitting)
            terms += [l(c) for c in cols] if t is None else [t]
            # a factor's dummies: one row of gam's anova; mgcv names its coefficients
            names.extend([label] * len(cols) if t is None and backfitting else
                         cols if t is None else [label])  # fmt: skip
        kw = {"method": "backfitting" if backfitting else "pirls", "link": link}
        if not backfitting:
            kw["criterion"] = _METHODS[method]
        if fam == "binomial" and not _is_numeric(y):
            return GAMClassifier(terms, **kw)
        return GAMRegressor(terms, family=fam, **kw)

    fit = fit_formula("gam", formula, data, make, call_args=call_args, weights=weights)
    fit.estimator._rename_terms(names)  # the formula's labels: s(x1, k = 5), not s(s(x1, …))
    fit.__class__ = _GAMFormulaFit
    return fit


class _GAMFormulaFit(FormulaFit):
    """A :class:`FormulaFit` whose summary is the additive model's (no ``level``)."""

    def summary(self):
        """The estimator's ``summary()`` with the formula (mgcv) or R's call (gam).

        Returns
        -------
        statlearning.inference.Summary
        """
        out = self.estimator.summary()
        out.formula = rd.deparse(rd.parse(self.formula))
        out.call = self.call
        return out
