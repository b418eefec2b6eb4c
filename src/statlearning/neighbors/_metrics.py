"""Distance metrics of the neighbour searches: validation, preprocessing and codes.

Every metric is reduced to one of five *kernel codes* understood by the compiled search
(:mod:`statlearning.neighbors._exact`): squared Euclidean, cosine, Manhattan, Chebyshev and the
Minkowski power sum ``Σ|x_f − y_f|^p``. The searches order neighbours by these *reduced values*
(monotone in the distance) and :meth:`MetricSpec.to_distance` turns them into distances at the
end (a square root, a ``p``-th root, or nothing).

Two metrics are rewritten as another one on transformed data, once at fit time:

* Mahalanobis, ``d(x, y) = sqrt((x − y)ᵀ VI (x − y))``, is the Euclidean distance between
  ``A x`` and ``A y`` where ``A = VI^{1/2}`` is the symmetric square root of ``VI`` (given as
  ``metric_params={"VI": VI}``, or ``{"V": V}`` with ``VI = V⁻¹``). It can then use the KD-tree.
* Cosine, ``d(x, y) = 1 − xᵀy / (‖x‖‖y‖)``, is ``1 − x̂ᵀŷ`` on rows scaled to unit norm; a zero
  row stays zero (its distance to everything is 1, as in scikit-learn). Values are clipped to
  ``[0, 2]``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._core.compiled import kernel_array
from .._core.linalg import symmetric_eigh
from .._core.scaling import column_scales
from ._exact import CHEBYSHEV, COSINE, MANHATTAN, MINKOWSKI, SQEUCLIDEAN

__all__ = ["METRICS", "MetricSpec", "resolve_metric"]

#: Metric names accepted by the ``metric`` parameter.
METRICS = ("euclidean", "manhattan", "chebyshev", "minkowski", "cosine", "mahalanobis")

_TREE_P = {SQEUCLIDEAN: 2.0, MANHATTAN: 1.0, CHEBYSHEV: np.inf}


@dataclass(frozen=True)
class MetricSpec:
    """A validated metric, ready for the searches.

    Attributes
    ----------
    name : str
        The effective metric (``"minkowski"`` with ``p=2`` becomes ``"euclidean"``, ``p=1``
        ``"manhattan"``, ``p=inf`` ``"chebyshev"``).
    code : int
        Kernel code of the reduced value.
    power : float
        The Minkowski exponent (used with ``code == MINKOWSKI`` only).
    transform : ndarray of shape (n_features, n_features) or None
        Mahalanobis: the symmetric square root ``A`` of ``VI``; rows are mapped to ``x A``.
    params : dict
        The effective metric parameters (``{"p": p}`` for Minkowski, ``{"VI": VI}`` for
        Mahalanobis, else empty).
    """

    name: str
    code: int
    power: float
    transform: np.ndarray | None
    params: dict

    @property
    def tree_p(self) -> float | None:
        """The ``p`` of :class:`scipy.spatial.cKDTree` for this metric, or None (no tree)."""
        if self.code == MINKOWSKI:
            return self.power if self.power >= 1 else None
        return _TREE_P.get(self.code)

    def prepare(self, X: np.ndarray) -> np.ndarray:
        """Rows as the kernels see them: transformed when needed, then
        :func:`~statlearning._core.compiled.kernel_array` (writeable C-contiguous float64, so
        that a read-only input does not compile the kernels again).

        The caller's array is returned unchanged when nothing has to be done (no copy).
        """
        if self.transform is not None:
            X = X @ self.transform
        elif self.code == COSINE:
            rows = column_scales(X.T)  # rows whose squared norms leave float64's range
            if rows is not None:
                X = X / rows[:, None]
            norms = np.sqrt(np.einsum("ij,ij->i", X, X))
            norms[norms == 0.0] = 1.0
            X = X / norms[:, None]
        return kernel_array(X)

    def to_distance(self, values: np.ndarray) -> np.ndarray:
        """Reduced values → distances (in place when possible)."""
        if self.code == SQEUCLIDEAN:
            return np.sqrt(values, out=values)
        if self.code == MINKOWSKI:
            return np.power(values, 1.0 / self.power, out=values)
        return values


def resolve_metric(metric, p, metric_params, n_features, owner="") -> MetricSpec:
    """Validate ``metric``, ``p`` and ``metric_params`` and return the :class:`MetricSpec`.

    Parameters
    ----------
    metric : str
        One of :data:`METRICS`.
    p : float
        Minkowski exponent, ``p > 0`` (``inf`` allowed); only used by ``"minkowski"``. For
        ``p < 1`` the "distance" is not a metric (no triangle inequality) and only the brute
        force search applies.
    metric_params : dict or None
        ``"mahalanobis"`` needs exactly one of ``"VI"`` (inverse covariance, positive
        semi-definite) or ``"V"`` (covariance, positive definite), of shape
        ``(n_features, n_features)``. The other metrics take no parameters.
    n_features : int
    owner : str
        Prefix of the error messages (the estimator's name).

    Raises
    ------
    ValueError
        Naming ``metric``, ``p`` or ``metric_params``.
    """
    prefix = f"{owner}: " if owner else ""
    if metric not in METRICS:
        raise ValueError(f"{prefix}metric must be one of {METRICS}; got {metric!r}")
    params = dict(metric_params) if metric_params is not None else {}
    if metric != "mahalanobis" and params:
        raise ValueError(
            f"{prefix}metric_params {sorted(params)} are not used by metric={metric!r}; "
            "only 'mahalanobis' takes metric_params ({'VI': ...} or {'V': ...}). Set the "
            "Minkowski exponent with the p parameter."
        )
    if metric == "minkowski":
        if not (isinstance(p, int | float | np.floating | np.integer) and p > 0):
            raise ValueError(f"{prefix}p must be a number > 0 (or inf); got {p!r}")
        p = float(p)
        if p == 2.0:
            metric = "euclidean"
        elif p == 1.0:
            metric = "manhattan"
        elif np.isinf(p):
            metric = "chebyshev"
        else:
            return MetricSpec("minkowski", MINKOWSKI, p, None, {"p": p})
    if metric == "euclidean":
        return MetricSpec("euclidean", SQEUCLIDEAN, 2.0, None, {})
    if metric == "manhattan":
        return MetricSpec("manhattan", MANHATTAN, 1.0, None, {})
    if metric == "chebyshev":
        return MetricSpec("chebyshev", CHEBYSHEV, np.inf, None, {})
    if metric == "cosine":
        return MetricSpec("cosine", COSINE, 2.0, None, {})
    VI, A = _mahalanobis_root(params, n_features, prefix)
    return MetricSpec("mahalanobis", SQEUCLIDEAN, 2.0, A, {"VI": VI})


def _mahalanobis_root(params: dict, n_features: int, prefix: str):
    """Validate ``VI`` or ``V`` and return ``(VI, A)`` with ``A`` the symmetric root of VI."""
    keys = set(params)
    if keys not in ({"VI"}, {"V"}):
        raise ValueError(
            f"{prefix}metric='mahalanobis' needs metric_params with exactly one of 'VI' (the "
            f"inverse covariance) or 'V' (the covariance); got keys {sorted(keys)}"
        )
    (key,) = keys
    try:
        M = np.array(params[key], dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{prefix}metric_params[{key!r}] must be a numeric matrix: {exc}"
        ) from None
    if M.shape != (n_features, n_features):
        raise ValueError(
            f"{prefix}metric_params[{key!r}] must have shape ({n_features}, {n_features}) "
            f"(n_features × n_features); got shape {M.shape}"
        )
    if not np.all(np.isfinite(M)):
        raise ValueError(f"{prefix}metric_params[{key!r}] contains NaN or infinite values")
    scale = np.max(np.abs(M)) if M.size else 0.0
    if not np.allclose(M, M.T, rtol=1e-10, atol=1e-12 * scale):
        raise ValueError(f"{prefix}metric_params[{key!r}] must be symmetric")
    M = 0.5 * (M + M.T)
    lam, Q = symmetric_eigh(M, driver="evd")
    tol = max(n_features, 1) * np.finfo(np.float64).eps * max(scale, np.finfo(np.float64).tiny)
    if key == "VI":
        if lam.size and lam[0] < -tol * 1e3:
            raise ValueError(
                f"{prefix}metric_params['VI'] must be positive semi-definite; its smallest "
                f"eigenvalue is {lam[0]:.3g}"
            )
        root = np.sqrt(np.clip(lam, 0.0, None))
        VI = M
    else:
        if lam.size and lam[0] <= tol:
            raise ValueError(
                f"{prefix}metric_params['V'] must be positive definite (it is inverted); its "
                f"smallest eigenvalue is {lam[0]:.3g}"
            )
        root = 1.0 / np.sqrt(lam)
        VI = (Q / lam) @ Q.T
    A = (Q * root) @ Q.T
    return VI, 0.5 * (A + A.T)
