"""The functions a formula may call, as formulaic evaluates them.

``poly``, ``bs`` and ``ns`` are R's bases from :mod:`statlearning.preprocessing` (orthogonal
polynomials, B-splines and natural splines, knots at quantiles exactly as R places them),
registered as formulaic *stateful* transforms: the knots or the polynomial recurrence found
on the training data are kept in the formula's state and reused for new data, as R's
``predict`` does with ``makepredictcall``. Rows where ``x`` is missing are skipped when the
basis is fitted and give missing rows (removed, as R's ``na.omit``, when a model is fitted).

R's argument names are accepted (``poly(x, 2, raw = TRUE)``, ``bs(x, df = 4, degree = 3,
intercept = FALSE, Boundary.knots = c(0, 1))``); ``c(...)``, ``TRUE`` and ``FALSE`` read as in R,
``factor(g)`` is formulaic's ``C(g)`` (treatment coding against the first level), and
``cbind(s, f)`` on the left-hand side is R's two-column binomial response.

:data:`TRANSFORMS` is the table of these functions; a model family with terms of its own (the
smooths of a GAM formula, for example) adds its stateful transforms here with
:func:`register_transform`.
"""

from __future__ import annotations

import numpy as np

from ..preprocessing import BSplineFeatures, NaturalSplineFeatures, PolynomialFeatures


def require_formulaic():
    """Import formulaic, or fail with the extra that installs it."""
    try:
        import formulaic
    except ImportError:  # pragma: no cover - exercised only without formulaic
        raise ImportError(
            "statlearning.formula needs formulaic: pip install 'statlearning[formula]' "
            "(or pip install formulaic)"
        ) from None
    return formulaic


def _basis(x, state, make, name):
    """Evaluate a fitted (or, on first use, fit) one-column basis transformer at ``x``."""
    from formulaic.materializers.types import FactorValues

    x = np.asarray(x, dtype=np.float64).ravel()
    ok = ~np.isnan(x)
    if "basis" not in state:
        if not ok.any():
            raise ValueError(f"{name}(): every value of its variable is missing")
        state["basis"] = make().fit(x[ok, None])
    basis = state["basis"]
    out = np.full((x.size, basis.n_output_features_), np.nan)
    out[ok] = basis.transform(x[ok, None])
    return FactorValues(out, column_names=tuple(str(k + 1) for k in range(out.shape[1])))


def _boundary(lower_upper):
    return None if lower_upper is None else np.asarray(lower_upper, dtype=np.float64)


def poly(x, degree=1, raw=False, _state=None):
    """R's ``poly(x, degree, raw = FALSE)``: orthonormal polynomials of the data (or raw
    powers), columns named ``1 … degree``."""
    return _basis(
        x,
        _state,
        lambda: PolynomialFeatures(degree=int(degree), orthogonal=not raw),
        "poly",
    )


def bs(x, df=None, knots=None, degree=3, intercept=False, Boundary_knots=None, _state=None):
    """R's ``splines::bs``: a B-spline basis with ``df`` columns (knots at quantiles)."""
    return _basis(
        x,
        _state,
        lambda: BSplineFeatures(
            df=None if df is None else int(df),
            knots=None if knots is None else np.atleast_1d(np.asarray(knots, dtype=float)),
            degree=int(degree),
            include_intercept=bool(intercept),
            boundary_knots=_boundary(Boundary_knots),
        ),
        "bs",
    )


def ns(x, df=None, knots=None, intercept=False, Boundary_knots=None, _state=None):
    """R's ``splines::ns``: a natural cubic spline basis with ``df`` columns."""
    return _basis(
        x,
        _state,
        lambda: NaturalSplineFeatures(
            df=None if df is None else int(df),
            knots=None if knots is None else np.atleast_1d(np.asarray(knots, dtype=float)),
            include_intercept=bool(intercept),
            boundary_knots=_boundary(Boundary_knots),
        ),
        "ns",
    )


def c(*values):
    """R's ``c()``: the values as one array."""
    return np.concatenate([np.atleast_1d(np.asarray(v)) for v in values])


def cbind(*columns):
    """R's ``cbind`` of a binomial response: successes and failures side by side."""
    from formulaic.materializers.types import FactorValues

    cols = [np.asarray(col, dtype=np.float64).ravel() for col in columns]
    return FactorValues(
        np.column_stack(cols), column_names=tuple(str(k + 1) for k in range(len(cols)))
    )


#: Functions available inside formulas (beyond formulaic's own: ``C``, ``I``, ``log``, ``exp``,
#: ``center``, ``scale``, ...). Stateful ones are wrapped by :func:`build_context`.
TRANSFORMS: dict = {"poly": poly, "bs": bs, "ns": ns}
_PLAIN: dict = {"c": c, "cbind": cbind, "sqrt": np.sqrt, "abs": np.abs}


def register_transform(name: str, func, *, stateful: bool = True) -> None:
    """Make ``func`` callable as ``name(...)`` inside formulas.

    Parameters
    ----------
    name : str
        The name a formula uses.
    func : callable
        ``func(x, ..., _state=dict)`` for a stateful transform (it stores what it learns from
        the training data in ``_state`` and reuses it for new data), else ``func(x, ...)``.
    stateful : bool, default=True
        Whether ``func`` takes ``_state``.
    """
    (TRANSFORMS if stateful else _PLAIN)[name] = func


def build_context() -> dict:
    """The evaluation context of a formula: formulaic's transforms, ours and R's spellings."""
    require_formulaic()
    from formulaic.transforms import TRANSFORMS as FORMULAIC
    from formulaic.utils.stateful_transforms import stateful_transform

    context = dict(FORMULAIC)
    context.update(_PLAIN)
    context.update({name: stateful_transform(f) for name, f in TRANSFORMS.items()})
    context["factor"] = FORMULAIC["C"]
    return context
