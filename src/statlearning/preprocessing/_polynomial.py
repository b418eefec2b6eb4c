"""Global bases: polynomials (raw or R's orthogonal ``poly``) and step functions (R's ``cut``)."""

from __future__ import annotations

from numbers import Integral

import numpy as np

from .._core import splines
from .._validation import ArrayLike, Boolean, Interval
from ._base import BasisTransformer, one_sample, warn_power_scale


class PolynomialFeatures(BasisTransformer):
    """Powers of each column, raw or orthogonal as R's ``poly``; no bias column.

    Parameters
    ----------
    degree : int, default=2
        Highest power ``d``; each column gives ``d`` features.
    orthogonal : bool, default=False
        ``False``: ``x, x², …, x^d`` (R's ``poly(x, d, raw = TRUE)``). ``True``: R's
        ``poly(x, d)``, polynomials orthonormal over the training data, evaluated on new data
        by the stored three-term recurrence (``alpha_``, ``norm2_``).

    Attributes
    ----------
    alpha_ : list of ndarray
        Per column, R's ``attr(poly, "coefs")$alpha`` (``orthogonal=True`` only).
    norm2_ : list of ndarray
        Per column, R's ``norm2`` (``orthogonal=True`` only).
    n_output_features_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When X was a DataFrame with string column names.

    See Also
    --------
    statlearning.preprocessing.fit_basis : least squares on a basis with R's summary.

    Notes
    -----
    The polynomial regression of the notes (Boily, §6.1, item 56) is
    :math:`y = \\beta_0 + \\sum_{k=1}^d \\beta_k x^k + \\varepsilon`, least squares on these
    features plus an intercept. Orthogonal polynomials span the same space (same fitted values
    and bands) with uncorrelated coefficient estimates. Unlike scikit-learn's
    ``PolynomialFeatures``, several columns give one polynomial per column (no interactions,
    no bias column), as R's ``poly`` terms added in a formula.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.preprocessing import PolynomialFeatures
    >>> X = np.array([[1.0], [2.0], [3.0], [4.0]])
    >>> PolynomialFeatures(degree=2).fit_transform(X)
    array([[ 1.,  1.],
           [ 2.,  4.],
           [ 3.,  9.],
           [ 4., 16.]])
    >>> PolynomialFeatures(degree=1, orthogonal=True).fit_transform(X).ravel().round(4)
    array([-0.6708, -0.2236,  0.2236,  0.6708])
    """

    _suffix = "poly"
    _parameter_constraints = {
        "degree": [Interval(Integral, 1, None, closed="left")],
        "orthogonal": [Boolean()],
    }

    def __init__(self, degree=2, *, orthogonal=False):
        self.degree = degree
        self.orthogonal = orthogonal

    def _fit_column(self, x, j):
        anchor = float(x[0])
        if not self.orthogonal:
            return {"anchor": anchor}
        n_unique = np.unique(x).size
        if self.degree >= n_unique:
            raise ValueError(
                f"PolynomialFeatures: degree={self.degree} must be less than the number of "
                f"unique values of column {j} ({n_unique}) for orthogonal polynomials"
                f"{one_sample(x)}."
            )
        _, alpha, norm2 = splines.poly_coefs(x, self.degree)
        return {"anchor": anchor, "alpha": alpha, "norm2": norm2}

    def _check_params_against(self, X) -> None:
        warn_power_scale(self, X, self.degree)

    def _store_attributes(self) -> None:
        if self.orthogonal:
            self.alpha_ = [s["alpha"] for s in self._states]
            self.norm2_ = [s["norm2"] for s in self._states]

    def _transform_column(self, x, state):
        if "alpha" in state:
            return splines.poly_basis(x, state["alpha"], state["norm2"])
        return x[:, None] ** np.arange(1, self.degree + 1)

    def _width(self, state) -> int:
        return self.degree


class StepFeatures(BasisTransformer):
    """Piecewise-constant basis: dummy variables of intervals (R's ``cut``), first as baseline.

    Parameters
    ----------
    n_bins : int, default=4
        Number of equal-width intervals over the column's range (R's ``cut(x, n_bins)``,
        whose outer breaks are moved out by 1/1000 of the range). Ignored when ``breaks``
        is given.
    breaks : array-like, default=None
        R's full vector of breaks, end points included (``cut(x, breaks)``): ``K + 1``
        increasing values give ``K`` intervals; a list of arrays gives one per column.
    right : bool, default=False
        ``False``: intervals ``[b_i, b_{i+1})`` (the notes' convention, R's
        ``right = FALSE``); ``True``: ``(b_i, b_{i+1}]`` (R's default).

    Attributes
    ----------
    breaks_ : list of ndarray
        The breaks of every column.
    n_output_features_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        When X was a DataFrame with string column names.

    See Also
    --------
    statlearning.preprocessing.fit_basis : least squares on a basis with R's summary.

    Notes
    -----
    The notes' step functions (Boily, §6.1, item 57): cut points
    :math:`c_1 < \\dots < c_K` give indicators :math:`C_k(x) = I(c_k \\le x < c_{k+1})`,
    and :math:`y = \\beta_0 + \\sum_{k \\ge 1} \\beta_k C_k(x) + \\varepsilon`; the first
    interval is the baseline, so each column gives ``K − 1`` dummies for ``K`` intervals (R's
    treatment coding of ``cut``). ``n_bins`` counts intervals, as R's ``cut(x, K)``; the
    notes' "K cut points" is ``n_bins = K + 1``. Values beyond the outer breaks (new data)
    fall in the first or last interval rather than R's ``NA``.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.preprocessing import StepFeatures
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> StepFeatures(breaks=[0, 1.5, 2.5, 3.5]).fit_transform(X)
    array([[0., 0.],
           [0., 0.],
           [1., 0.],
           [0., 1.]])
    """

    _suffix = "step"
    _parameter_constraints = {
        "n_bins": [Interval(Integral, 2, None, closed="left")],
        "breaks": [None, ArrayLike()],
        "right": [Boolean()],
    }

    def __init__(self, n_bins=4, *, breaks=None, right=False):
        self.n_bins = n_bins
        self.breaks = breaks
        self.right = right

    def _fit_column(self, x, j):
        breaks = self._per_column(self.breaks, j, "breaks")
        if breaks is None:
            breaks = splines.cut_breaks(x, self.n_bins)
        elif breaks.size < 2 or np.any(np.diff(breaks) <= 0) or not np.all(np.isfinite(breaks)):
            raise ValueError(
                "StepFeatures: breaks must be at least two finite, strictly increasing values "
                f"(R's full break vector); got {breaks.tolist()}."
            )
        return {"anchor": float(x[0]), "breaks": breaks}

    def _store_attributes(self) -> None:
        self.breaks_ = [s["breaks"] for s in self._states]

    def _transform_column(self, x, state):
        codes = splines.cut_codes(x, state["breaks"], right=self.right)
        k = state["breaks"].size - 1
        return (codes[:, None] == np.arange(1, k)[None, :]).astype(np.float64)

    def _width(self, state) -> int:
        return state["breaks"].size - 2
