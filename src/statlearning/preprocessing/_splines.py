"""Regression-spline bases: truncated powers (the notes'), B-splines (R's ``bs``) and natural
cubic splines (R's ``ns``), with knots at quantiles by default."""

from __future__ import annotations

from numbers import Integral

import numpy as np

from .._core import splines
from .._validation import ArrayLike, Boolean, Interval
from ._base import BasisTransformer, one_sample, warn_power_scale


class _KnotBasis(BasisTransformer):
    """Shared knot placement: explicit ``knots`` or ``df`` → interior knots at quantiles of
    the column inside the boundary knots (R's ``bs``/``ns`` rule). A subclass that places
    knots with :meth:`_knots_for` defines ``_n_interior()``, the interior knots its ``df``
    asks for."""

    def _knots_for(self, x, j):
        name = type(self).__name__
        lo, hi = float(x.min()), float(x.max())
        if self.boundary_knots is not None:
            bk = np.asarray(self.boundary_knots, dtype=np.float64).ravel()
            if bk.size != 2 or not bk[0] < bk[1]:
                raise ValueError(
                    f"{name}: boundary_knots must be two increasing numbers (lower, upper); "
                    f"got {bk.tolist()}."
                )
            lo, hi = float(bk[0]), float(bk[1])
        if not lo < hi:
            raise ValueError(
                f"{name}: column {j} is constant ({lo:g}{one_sample(x)}); a spline basis "
                "needs distinct boundary knots."
            )
        knots = self._per_column(self.knots, j, "knots")
        if knots is None:
            inside = x[(x >= lo) & (x <= hi)]
            knots = splines.quantile_knots(inside, self._n_interior())
        elif not np.all(np.isfinite(knots)):
            raise ValueError(f"{name}: knots must be finite; got {knots.tolist()}.")
        return np.sort(knots), np.array([lo, hi])

    def _store_attributes(self) -> None:
        self.knots_ = [s["knots"] for s in self._states]
        self.boundary_knots_ = [s["boundary"] for s in self._states]

    def _fit_column(self, x, j):
        knots, boundary = self._knots_for(x, j)
        return {"anchor": float(boundary.mean()), "knots": knots, "boundary": boundary}


_KNOT_CONSTRAINTS = {
    "df": [None, Interval(Integral, 1, None, closed="left")],
    "knots": [None, ArrayLike()],
    "include_intercept": [Boolean()],
    "boundary_knots": [None, ArrayLike()],
}


class BSplineFeatures(_KnotBasis):
    """B-spline basis of each column, R's ``splines::bs``; no bias column by default.

    Parameters
    ----------
    df : int, default=None
        Columns per input column; ``df − degree − include_intercept`` interior knots are put
        at equally spaced quantiles of the column (R's ``bs(x, df)``). Ignored when ``knots``
        is given. With neither, there are no interior knots (``degree`` columns).
    knots : array-like, default=None
        Interior knots for every column, or a list of arrays (one per column).
    degree : int, default=3
        Polynomial degree (3: cubic splines).
    include_intercept : bool, default=False
        Keep the first B-spline (R's ``intercept = TRUE``); the basis then sums to one.
    boundary_knots : array-like of shape (2,), default=None
        R's ``Boundary.knots``; default the column's range.

    Attributes
    ----------
    knots_ : list of ndarray
        Interior knots of every column.
    boundary_knots_ : list of ndarray
        Boundary knots of every column.
    n_output_features_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When X was a DataFrame with string column names.

    See Also
    --------
    statlearning.preprocessing.NaturalSplineFeatures : linear beyond the boundary knots.
    statlearning.preprocessing.fit_basis : least squares on a basis with R's summary.

    Notes
    -----
    A cubic regression spline with ``K`` knots (Boily, §6.2, item 58) has ``K + 4``
    coefficients with the intercept: :math:`f(x) = \\beta_0 + \\sum_{j=1}^{K+3} \\beta_j
    B_j(x)`; B-splines span the same functions as the truncated power basis
    (:class:`TruncatedPowerFeatures`) with far better conditioning. Beyond the boundary
    knots the basis continues as R's ``bs`` does (R ≥ 3.2.3): each function's Taylor
    polynomial of degree ``degree`` at a point a quarter of the way into the end interval —
    extrapolation, which R warns may be ill-conditioned. Mapping: ``BSplineFeatures(df=6)``
    is ``bs(x, df = 6)``; scikit-learn's ``SplineTransformer`` places knots uniformly or at
    quantiles but differs in its end knots and keeps all columns.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.preprocessing import BSplineFeatures
    >>> X = np.linspace(0, 1, 5)[:, None]
    >>> BSplineFeatures(df=4).fit(X).knots_
    [array([0.5])]
    >>> BSplineFeatures(df=4).fit_transform(X).shape
    (5, 4)
    """

    _suffix = "bs"
    _parameter_constraints = {
        **_KNOT_CONSTRAINTS,
        "degree": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(
        self, df=None, *, knots=None, degree=3, include_intercept=False, boundary_knots=None
    ):
        self.df = df
        self.knots = knots
        self.degree = degree
        self.include_intercept = include_intercept
        self.boundary_knots = boundary_knots

    def _n_interior(self) -> int:
        if self.df is None:
            return 0
        k = self.df - self.degree - int(self.include_intercept)
        if k < 0:
            raise ValueError(
                f"BSplineFeatures: df={self.df} is too small for degree={self.degree}: df must "
                f"be at least degree + include_intercept = "
                f"{self.degree + int(self.include_intercept)}."
            )
        return k

    def _transform_column(self, x, state):
        return splines.bs_basis(
            x, state["knots"], state["boundary"], self.degree, self.include_intercept
        )

    def _width(self, state) -> int:
        return state["knots"].size + self.degree + int(self.include_intercept)


class NaturalSplineFeatures(_KnotBasis):
    """Natural cubic spline basis of each column, R's ``splines::ns``; no bias column.

    Parameters
    ----------
    df : int, default=None
        Columns per input column; ``df − 1 − include_intercept`` interior knots at equally
        spaced quantiles (R's ``ns(x, df)``). Ignored when ``knots`` is given. With
        neither, there are no interior knots (one column: the line).
    knots : array-like, default=None
        Interior knots for every column, or a list of arrays (one per column).
    include_intercept : bool, default=False
        R's ``intercept = TRUE``.
    boundary_knots : array-like of shape (2,), default=None
        R's ``Boundary.knots``; default the column's range.

    Attributes
    ----------
    knots_ : list of ndarray
        Interior knots of every column.
    boundary_knots_ : list of ndarray
        Boundary knots of every column.
    n_output_features_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When X was a DataFrame with string column names.

    See Also
    --------
    statlearning.preprocessing.BSplineFeatures : the unconstrained cubic spline.
    statlearning.smoothing.SmoothingSpline : a knot at every x, with a roughness penalty.

    Notes
    -----
    A natural cubic spline (Boily, §6.2, item 58) is cubic between the boundary knots and
    linear beyond them: the cubic B-splines of ``K`` interior knots (``K + 4`` functions)
    are restricted by the two conditions ``f''(ξ_lo) = f''(ξ_hi) = 0``, and R's basis of that
    subspace (the complement of the constraints in their QR decomposition) is reproduced,
    so ``K + 1`` columns remain (``K + 2`` with the intercept). New data beyond the boundary
    knots get the linear continuation. Mapping: ``NaturalSplineFeatures(df=4)`` is
    ``ns(x, df = 4)``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.preprocessing import NaturalSplineFeatures
    >>> X = np.linspace(0, 1, 6)[:, None]
    >>> NaturalSplineFeatures(df=3).fit_transform(X).shape
    (6, 3)
    """

    _suffix = "ns"
    _parameter_constraints = dict(_KNOT_CONSTRAINTS)

    def __init__(self, df=None, *, knots=None, include_intercept=False, boundary_knots=None):
        self.df = df
        self.knots = knots
        self.include_intercept = include_intercept
        self.boundary_knots = boundary_knots

    def _n_interior(self) -> int:
        if self.df is None:
            return 0
        k = self.df - 1 - int(self.include_intercept)
        if k < 0:
            raise ValueError(
                f"NaturalSplineFeatures: df={self.df} is too small: df must be at least "
                f"1 + include_intercept = {1 + int(self.include_intercept)}."
            )
        return k

    def _transform_column(self, x, state):
        return splines.ns_basis(x, state["knots"], state["boundary"], self.include_intercept)

    def _width(self, state) -> int:
        return state["knots"].size + 1 + int(self.include_intercept)


class TruncatedPowerFeatures(_KnotBasis):
    """The notes' truncated power basis ``x, …, x^d, (x − ξ_1)₊^d, …, (x − ξ_K)₊^d``.

    Parameters
    ----------
    knots : int or array-like, default=3
        An int: that many knots at equally spaced quantiles of each column; an array: the
        knots of every column; a list of arrays: one per column.
    degree : int, default=3
        ``1`` is the notes' linear spline, ``3`` the cubic spline.

    Attributes
    ----------
    knots_ : list of ndarray
        Knots of every column.
    boundary_knots_ : list of ndarray
        Range of every column (not part of the basis).
    n_output_features_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When X was a DataFrame with string column names.

    See Also
    --------
    statlearning.preprocessing.BSplineFeatures : the same spline space, well conditioned.

    Notes
    -----
    Boily, §6.2 (item 58): the linear spline
    :math:`y = \\beta_0 + \\beta_1 x + \\sum_k \\beta_{k+1}(x - \\xi_k)_+` and the cubic
    spline :math:`y = \\beta_0 + \\beta_1 x + \\beta_2 x^2 + \\beta_3 x^3 + \\sum_k
    \\beta_{k+3}(x - \\xi_k)_+^3`. With the intercept the linear spline has ``K + 2``
    coefficients (the notes' "K + 1" miscounts) and the cubic ``K + 4``. The powers are
    badly conditioned for large or far-from-zero x; prefer :class:`BSplineFeatures` for
    fitting and this basis for reading the notes' coefficients.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.preprocessing import TruncatedPowerFeatures
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> TruncatedPowerFeatures(knots=[1.5], degree=1).fit_transform(X)
    array([[0. , 0. ],
           [1. , 0. ],
           [2. , 0.5],
           [3. , 1.5]])
    """

    _suffix = "tp"
    _parameter_constraints = {
        "knots": [Interval(Integral, 0, None, closed="left"), ArrayLike()],
        "degree": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(self, knots=3, *, degree=3):
        self.knots = knots
        self.degree = degree

    def _check_params_against(self, X) -> None:
        warn_power_scale(self, X, self.degree)

    def _fit_column(self, x, j):
        if isinstance(self.knots, Integral):
            knots = splines.quantile_knots(x, int(self.knots))
        else:
            knots = self._per_column(self.knots, j, "knots")
            if not np.all(np.isfinite(knots)):
                raise ValueError(
                    f"TruncatedPowerFeatures: knots must be finite; got {knots.tolist()}."
                )
            knots = np.sort(knots)
        return {"anchor": float(x[0]), "knots": knots, "boundary": np.array([x.min(), x.max()])}

    def _transform_column(self, x, state):
        return splines.truncated_power_basis(x, state["knots"], self.degree)

    def _width(self, state) -> int:
        return self.degree + state["knots"].size
