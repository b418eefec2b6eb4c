"""Principal component analysis with R's conventions and the notes' retention rules."""

from __future__ import annotations

import re
import warnings
from numbers import Integral, Real

import numpy as np
from scipy import linalg
from sklearn.base import ClassNamePrefixFeaturesOutMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .. import _dask
from .._core.compiled import PRODUCT_THREADS_FROM, single_blas_thread
from .._core.linalg import gram, symmetric_eigh
from .._core.scaling import max_abs, scale_for_magnitude, times, validated_magnitude
from .._validation import Boolean, Interval, Options, RandomState, validate_data
from ..base import StatBase, TransformerMixin, fit_context
from ..exceptions import NumericalWarning, warn_data_scale
from ._summary import PCASummary

__all__ = ["PCA", "retained_components"]

_RULE = re.compile(r"^(cumulative|individual):(.+)$")
_CHUNK = 1024  # rows per block when a centred Gram matrix is accumulated
#: :meth:`PCA.transform` computes ``X W − x̄ W`` (no centred copy of ``X``) when, for every
#: retained component, ``Σ_j |x̄_j w_j|`` is at most this many times the component's standard
#: deviation: the subtraction then adds at most ~2¹⁰ ε ≈ 2e-13 of that deviation to each score's
#: error. Beyond it (a mean far from the origin relative to the spread, or a null component)
#: the cancellation would cost digits, and ``(X − x̄) W`` is computed instead.
_UNCENTRED_MAX_OFFSET = 2.0**10


def _parse_rule(rule):
    """``(kind, threshold)`` for a retention-rule string; ``ValueError`` otherwise."""
    if rule in ("kaiser", "elbow"):
        return rule, None
    match = _RULE.match(rule) if isinstance(rule, str) else None
    if match is None:
        raise ValueError(
            f"n_components: unknown retention rule {rule!r}; use 'cumulative:<t>', "
            "'individual:<t>', 'kaiser' or 'elbow' (t a proportion in (0, 1])."
        )
    try:
        threshold = float(match.group(2))
    except ValueError:
        raise ValueError(f"n_components: threshold in {rule!r} is not a number.") from None
    if not 0 < threshold <= 1:
        raise ValueError(f"n_components: threshold in {rule!r} must be in (0, 1].")
    return match.group(1), threshold


def retained_components(eigenvalues, rule: str) -> int:
    """Number of principal components kept by one of the notes' retention rules.

    Parameters
    ----------
    eigenvalues : array-like of shape (n,)
        Variances of the components (eigenvalues of the covariance or of ``XᵀX``: the rules
        are scale free), in decreasing order.
    rule : str
        - ``"cumulative:t"``: keep the components whose cumulative proportion of variance is
          ``≤ t`` (the notes' rule "while the cumulative proportion stays below t"; seed 004 E22
          keeps 4 at ``t = 0.95``, where the "smallest k reaching t" rule would keep 5);
        - ``"individual:t"``: keep the components whose own proportion is ``> t``;
        - ``"kaiser"``: keep the eigenvalues above their mean (above 1 for a correlation
          matrix, Kaiser's rule);
        - ``"elbow"``: the kink of the scree plot, located as the component farthest below the
          chord joining the first and the last eigenvalue (the "knee" heuristic); it and the
          components before it are kept. Ties go to the earlier component.

        At least one component is always kept.

    Returns
    -------
    int

    Examples
    --------
    >>> ev = [17, 8, 3, 2, 1, 0.5, 0.25, 0]
    >>> [retained_components(ev, r) for r in ("cumulative:0.95", "individual:0.25", "elbow")]
    [4, 2, 3]
    """
    lam = np.asarray(eigenvalues, dtype=np.float64).ravel()
    if lam.size == 0 or not np.all(np.isfinite(lam)):
        raise ValueError("eigenvalues must be a non-empty array of finite numbers.")
    if np.any(lam < -1e-12 * max(lam.max(), 1.0)):
        raise ValueError("eigenvalues must be non-negative.")
    if np.any(np.diff(lam) > 1e-12 * max(lam.max(), 1.0)):
        raise ValueError("eigenvalues must be sorted in decreasing order.")
    lam = np.clip(lam, 0.0, None)
    total = lam.sum()
    if total <= 0:
        return 1
    kind, threshold = _parse_rule(rule)
    prop = lam / total
    eps = 1e-12  # proportions computed in floating point: 0.95 must count as ≤ 0.95
    if kind == "cumulative":
        k = int(np.sum(np.cumsum(prop) <= threshold + eps))
    elif kind == "individual":
        k = int(np.sum(prop > threshold + eps))
    elif kind == "kaiser":
        k = int(np.sum(lam > lam.mean() * (1 + eps)))
    else:
        n = lam.size
        if n <= 2:
            return 1
        chord = lam[0] + (lam[-1] - lam[0]) * np.arange(n) / (n - 1)
        k = int(np.argmax(chord - lam)) + 1
    return max(k, 1)


def check_n_components(nc, n_max: int, bound: str = "min(n_samples, n_features)"):
    """A validated ``n_components``: None, an int in ``[1, n_max]``, a float in (0, 1) or a
    retention-rule string (``bound`` names ``n_max`` in the error message)."""
    if nc is None or isinstance(nc, str):
        if isinstance(nc, str):
            _parse_rule(nc)
        return nc
    if isinstance(nc, Integral) and not isinstance(nc, bool):
        if not 1 <= nc <= n_max:
            raise ValueError(f"n_components={nc} must be between 1 and {bound}={n_max}.")
        return int(nc)
    if isinstance(nc, Real) and not isinstance(nc, bool):
        if not 0 < nc < 1:
            raise ValueError(f"n_components={nc!r}: a float must be in (0, 1).")
        return float(nc)
    raise TypeError(
        f"n_components must be None, an int, a float in (0, 1) or a rule string; got "
        f"{nc!r} (of type {type(nc).__name__})."
    )


def n_retained(nc, eigenvalues, total_var, n_max) -> int:
    """Components kept for a validated ``n_components`` (:func:`check_n_components`), given
    the variances in decreasing order and their total."""
    if nc is None:
        return n_max
    if isinstance(nc, int):
        return nc
    if isinstance(nc, float):
        ratio = np.cumsum(eigenvalues) / total_var if total_var > 0 else np.ones(1)
        return int(min(np.searchsorted(ratio, nc - 1e-12) + 1, n_max))
    return retained_components(eigenvalues, nc)


def _flip_signs(components: np.ndarray) -> np.ndarray:
    """Make the largest-magnitude loading of each component positive (deterministic signs)."""
    idx = np.argmax(np.abs(components), axis=1)
    signs = np.sign(components[np.arange(components.shape[0]), idx])
    signs[signs == 0] = 1.0
    return components * signs[:, None]


def _centred_gram(X: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """``(X − 1μᵀ)ᵀ(X − 1μᵀ)`` without a centred copy of ``X`` (one product ``XᵀX − n μμᵀ``
    when it keeps every diagonal entry to four digits, centred row blocks otherwise:
    :func:`statlearning._core.linalg.gram`)."""
    return gram(X, center=mean, center_is_mean=True)


def _centred_squares(X, mean) -> np.ndarray:
    """Column sums of squares about ``mean``, in blocks of rows (no centred copy of ``X``)."""
    col_ss = np.zeros(X.shape[1])
    for start in range(0, X.shape[0], _CHUNK):
        col_ss += ((X[start : start + _CHUNK] - mean) ** 2).sum(axis=0)
    return col_ss


def _randomized_svd(X, mean, scale, k, n_oversamples, n_iter, rng):
    """Top-``k`` SVD of ``(X − 1μᵀ) D⁻¹`` by Halko, Martinsson & Tropp's range finder.

    Centring and scaling are applied implicitly (rank-one corrections), so ``X`` is not copied.
    """
    inv = 1.0 / scale
    shift = mean * inv

    def matmul(B):  # A B
        return X @ (B * inv[:, None]) - np.outer(np.ones(X.shape[0]), shift @ B)

    def rmatmul(C):  # Aᵀ C
        return (X.T @ C - np.outer(mean, C.sum(axis=0))) * inv[:, None]

    size = min(k + n_oversamples, min(X.shape))
    Q = range_finder(matmul, rmatmul, X.shape[1], size, n_iter, rng)
    B = rmatmul(Q).T
    _, s, vt = linalg.svd(B, full_matrices=False, check_finite=False)
    return s[:k], vt[:k]


#: Gram matrices up to this order are decomposed in one call (every eigenvector).
_ONE_EIGH_MAX = 60


def _gram_spectrum(gram, nc, n_max):
    """``(s², Vᵀ)`` of the centred (scaled) data from their Gram matrix: every eigenvalue
    (the first ``n_max``), and only the ``nc`` leading vectors when ``nc`` is a small integer."""
    p = gram.shape[0]
    if isinstance(nc, int) and nc < n_max // 2 and p > _ONE_EIGH_MAX:
        # all eigenvalues (for eigenvalues_) but only the nc leading vectors: 1.35 x faster at
        # p = 200 (below ~60 columns the one full decomposition is the faster: 3 x at p = 10)
        evals = symmetric_eigh(gram, eigvals_only=True, check_finite=False)
        evals = evals[::-1][:n_max]
        _, evecs = symmetric_eigh(gram, subset_by_index=[p - nc, p - 1], check_finite=False)
        evecs = evecs[:, ::-1]
    else:
        evals, evecs = symmetric_eigh(gram, check_finite=False)
        evals, evecs = evals[::-1][:n_max], evecs[:, ::-1][:, :n_max]
    return np.clip(evals, 0.0, None), evecs.T


def range_finder(matmul, rmatmul, n_cols, size, n_iter, rng):
    """Orthonormal basis ``Q`` (``size`` columns) of the range of ``A`` by Halko, Martinsson &
    Tropp's randomised range finder with ``n_iter`` power iterations (LU-normalised);
    ``matmul(B) = A B``, ``rmatmul(C) = Aᵀ C``, ``n_cols`` the columns of ``A``."""
    Q = matmul(rng.standard_normal((n_cols, size)))
    for _ in range(n_iter):
        Q, _ = linalg.lu(Q, permute_l=True, check_finite=False)
        Q, _ = linalg.lu(rmatmul(Q), permute_l=True, check_finite=False)
        Q = matmul(Q)
    Q, _ = linalg.qr(Q, mode="economic", check_finite=False)
    return Q


class PCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, StatBase):
    """Principal component analysis, as R's ``prcomp``, with the notes' retention rules.

    Parameters
    ----------
    n_components : None, int, float or str, default=None
        How many components to keep:

        - ``None``: all ``min(n_samples, n_features)``;
        - int ``k ≥ 1``: the first ``k``;
        - float ``t`` in ``(0, 1)``: the smallest number whose cumulative proportion of variance
          reaches ``t`` (scikit-learn's meaning);
        - ``"cumulative:t"``, ``"individual:t"``, ``"kaiser"``, ``"elbow"``: the retention
          rules of :func:`retained_components` (seed 004's definitions). Note that
          ``"cumulative:0.95"`` keeps the components *at or below* 95% (4 on seed 004's E22)
          whereas ``0.95`` keeps the smallest number *reaching* 95% (5 on E22).
    scale : bool, default=False
        Divide each centred column by its sample standard deviation (divisor ``n − 1``), i.e.
        PCA of the correlation matrix: R's ``prcomp(x, scale. = TRUE)``.
    whiten : bool, default=False
        Divide each score by its component's standard deviation
        ``sqrt(explained_variance_)`` (divisor ``n − 1``), so that the scores of the training
        data have unit sample variance and are uncorrelated: :math:`Z = \\Lambda^{-1/2}
        W^\\top (x - \\bar x)` (see Notes). :meth:`inverse_transform` undoes it.
    svd_solver : {"auto", "full", "randomized"}, default="auto"
        - ``"full"``: LAPACK SVD of the centred (scaled) data;
        - ``"randomized"``: randomised range finder for the leading ``k`` components (an
          integer ``n_components`` is required);
        - ``"auto"``: eigen-decomposition of the centred Gram matrix ``XcᵀXc`` (accumulated in
          row blocks, so the data are never copied) when ``n_samples ≥ n_features`` and
          ``n_features ≤ 1000`` (exact, and cheaper than the SVD; it squares the condition
          number, which only affects the accuracy of eigenvalues far below the largest);
          otherwise the randomised solver when ``n_components`` is an integer below
          ``0.8 · min(n_samples, n_features)`` and ``max(n_samples, n_features) > 500``;
          otherwise ``"full"``. The solver used is recorded in ``solver_``.
    n_oversamples : int, default=10
        Extra random directions of the randomised solver.
    iterated_power : int, default=7
        Power iterations of the randomised solver.
    random_state : None, int or RandomState, default=None
        Seeds the randomised solver.

    Attributes
    ----------
    mean_ : ndarray of shape (n_features,)
        Column means (R's ``center``).
    scale_ : ndarray of shape (n_features,) or None
        Column standard deviations (divisor ``n − 1``) when ``scale=True`` (R's ``scale``).
    components_ : ndarray of shape (n_components, n_features)
        Loadings (rows are R's ``rotation`` columns); the sign of each is fixed so that its
        largest-magnitude entry is positive (R does not fix signs: compare up to sign).
    explained_variance_ : ndarray of shape (n_components,)
        Component variances with divisor ``n − 1``: R's ``sdev²``.
    explained_variance_ratio_ : ndarray of shape (n_components,)
        Proportion of the total variance.
    singular_values_ : ndarray of shape (n_components,)
        Singular values of the centred (scaled) data.
    eigenvalues_ : ndarray
        Variances of every component the solver computed (all ``min(n, p)`` of them for the
        exact solvers): what the retention rules and a scree plot use.
    total_variance_ : float
        Sum of the column variances of the centred (scaled) data.
    n_components_ : int
    n_samples_ : int
    solver_ : {"gram", "full", "randomized"}
        The solver used (``"gram"``: eigen-decomposition of the centred Gram matrix).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    With :math:`X_c` the centred (and, with ``scale=True``, standardised) data, PCA solves

    .. math::

        w_m = \\arg\\max_{\\|w\\| = 1,\\ w \\perp w_1, \\dots, w_{m-1}}
        w^\\top X_c^\\top X_c w,

    i.e. the eigenvectors of :math:`K = X_c^\\top X_c` (seed 004 §1.6; seed 001 part 2 ch. 8), or
    the right singular vectors of :math:`X_c = U\\Sigma W^\\top` with :math:`\\lambda_i = s_i^2`.
    The scores are :math:`T = X_c W` (:meth:`transform`). Variances are reported with divisor
    :math:`n - 1` (``explained_variance_ = s² / (n − 1)``), as R's ``prcomp`` and scikit-learn;
    proportions are the same whatever the divisor.

    Mapping to R: ``PCA(scale=s).fit(X)`` is ``prcomp(X, scale. = s)``: ``sqrt(
    explained_variance_)`` is ``sdev``, ``components_.T`` is ``rotation``, ``transform(X)`` is
    ``x`` (up to the sign of each component), :meth:`summary` is ``summary(prcomp)``.

    Whitening (``whiten=True``) is seed 002's "centre, rotate, then scale" (P5): with the
    covariance :math:`C = W \\Lambda W^\\top`, the whitened scores are
    :math:`z = \\Lambda_k^{-1/2} W_k^\\top (x - \\bar x)`, :math:`\\Lambda_k` the retained
    ``explained_variance_``. The divisor of :math:`C` is this class's :math:`n - 1` (as
    scikit-learn's ``PCA(whiten=True)``, to the sign of each component), so the training
    scores have sample variance exactly 1. The notes' covariance divides by :math:`N`: their
    whitened scores are ours times :math:`\\sqrt{N/(N-1)}` (unit variance with divisor
    :math:`N`). A retained component with numerically zero variance (rank-deficient data:
    :math:`s_k \\le s_1 \\max(n, p)\\,\\epsilon`, or
    :math:`\\lambda_k \\le \\lambda_1 \\max(n, p)\\,\\epsilon` for the Gram solver, whose
    small eigenvalues carry an error of order :math:`\\epsilon\\lambda_1`) has no
    direction to rescale: its whitened score is 0 and ``fit`` warns (scikit-learn divides
    by a variance clipped at machine epsilon instead, returning amplified rounding noise).

    Dask collections (``pip install statlearning[dask]``): ``fit`` accepts a
    ``dask.array.Array`` or ``dask.dataframe`` chunked by rows and gives the in-memory fit
    (the same ``solver_``): the Gram solver from per-block centred cross-products merged by
    Chan's update, ``"full"`` from the SVD of the TSQR factor of the centred blocks,
    ``"randomized"`` by the same range finder with lazy blockwise products. Only ``p``-sized
    summaries leave the workers; ``transform`` of a Dask collection is a lazy Dask array.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.decomposition import PCA
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 3)) @ [[2.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.5, 0.3]]
    >>> Z = PCA(whiten=True).fit_transform(X)
    >>> np.cov(Z, rowvar=False).round(12) + 0.0  # identity: unit variances, uncorrelated
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    """

    _parameter_constraints: dict = {
        "n_components": "no_validation",  # int, float or rule string: checked in fit
        "scale": [Boolean()],
        "whiten": [Boolean()],
        "svd_solver": [Options({"auto", "full", "randomized"})],
        "n_oversamples": [Interval(Integral, 0, None, closed="left")],
        "iterated_power": [Interval(Integral, 0, None, closed="left")],
        "random_state": [RandomState()],
    }

    def __init__(
        self,
        n_components=None,
        *,
        scale=False,
        whiten=False,
        svd_solver="auto",
        n_oversamples=10,
        iterated_power=7,
        random_state=None,
    ):
        self.n_components = n_components
        self.scale = scale
        self.whiten = whiten
        self.svd_solver = svd_solver
        self.n_oversamples = n_oversamples
        self.iterated_power = iterated_power
        self.random_state = random_state

    def _check_n_components(self, n_max: int):
        return check_n_components(self.n_components, n_max)

    def _choose_solver(self, n: int, p: int, nc) -> str:
        if self.svd_solver != "auto":
            if self.svd_solver == "randomized" and not isinstance(nc, int):
                raise ValueError(
                    "svd_solver='randomized' needs an integer n_components; the retention rules "
                    "and proportions need the whole spectrum (use 'full' or 'auto')."
                )
            return self.svd_solver
        if n >= p and p <= 1000:
            return "gram"
        if isinstance(nc, int) and max(n, p) > 500 and nc < 0.8 * min(n, p):
            return "randomized"
        return "full"

    @fit_context
    def fit(self, X, y=None):
        """Fit the principal components of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        X, m = validated_magnitude(
            lambda A, **params: validate_data(
                self, A, dtype=np.float64, ensure_min_samples=2, **params
            ),
            X,
            type(self).__name__,
        )
        # computed on X / s (s a power of two) when variances would leave float64's range
        s_data = scale_for_magnitude(m)
        if s_data is not None:
            X = X / s_data
        n, p = X.shape
        n_max = min(n, p)
        nc = self._check_n_components(n_max)
        solver = self._choose_solver(n, p, nc)
        mean = X.mean(axis=0)
        if solver == "gram":
            gram = _centred_gram(X, mean)
            col_ss = np.diag(gram).copy()
        else:
            col_ss = None
        if self.scale:
            if col_ss is None:
                col_ss = _centred_squares(X, mean)
        scale = self._column_scale(col_ss, n, mean)

        if solver == "gram":
            gram /= np.outer(scale, scale)
            total_ss = np.trace(gram)
            sv_sq, vt = _gram_spectrum(gram, nc, n_max)
        elif solver == "full":
            Xc = X - mean
            Xc /= scale
            total_ss = float(np.einsum("ij,ij->", Xc, Xc))
            _, s, vt = linalg.svd(Xc, full_matrices=False, overwrite_a=True, check_finite=False)
            sv_sq = s**2
        else:
            if col_ss is None:
                col_ss = _centred_squares(X, mean)
            total_ss = float(np.sum(col_ss / scale**2))
            rng = check_random_state(self.random_state)
            s, vt = _randomized_svd(
                X, mean, scale, nc, self.n_oversamples, self.iterated_power, rng
            )
            sv_sq = s**2
        self._store(n, nc, solver, mean, scale, sv_sq, vt, total_ss)
        if s_data is not None:
            self._unscale(s_data, max_abs(X) * s_data)
        self._warn_null_components()
        return self

    def _fit_dask(self, X, y=None):
        """:meth:`fit` on a Dask collection (:mod:`statlearning.decomposition._pca_dask`)."""
        from ._pca_dask import fit_pca

        return fit_pca(self, X)

    def _store(self, n, nc, solver, mean, scale, sv_sq, vt, total_ss) -> None:
        """The fitted attributes from the spectrum of the centred (scaled) data."""
        n_max = min(n, mean.size)
        eigenvalues = sv_sq / (n - 1)
        total_var = total_ss / (n - 1)
        k = self._n_retained(nc, eigenvalues, total_var, n_max)
        self.mean_ = mean
        self.scale_ = scale if self.scale else None
        self.components_ = _flip_signs(vt[:k].copy())
        self.explained_variance_ = eigenvalues[:k].copy()
        self.explained_variance_ratio_ = (
            self.explained_variance_ / total_var if total_var > 0 else np.zeros(k)
        )
        self.singular_values_ = np.sqrt(sv_sq[:k])
        self.eigenvalues_ = eigenvalues
        self.total_variance_ = float(total_var)
        self.n_components_ = k
        self.n_samples_ = n
        self.solver_ = solver

    def _column_scale(self, col_ss, n, mean) -> np.ndarray:
        """Column standard deviations (``scale=True``; constant columns are an error), else ones."""
        if not self.scale:
            return np.ones(mean.size)
        sd = np.sqrt(col_ss / (n - 1))
        const = np.flatnonzero(sd <= 1e-12 * max(1.0, np.abs(mean).max()))
        if const.size:
            names = self._column_names(const)
            raise ValueError(
                f"scale=True: cannot rescale constant column(s) {names} to unit variance "
                "(R's prcomp refuses too); drop them or use scale=False."
            )
        return sd

    def _warn_null_components(self) -> None:
        if self.whiten:
            null = np.flatnonzero(self._null_components())
            if null.size:
                warnings.warn(
                    f"PCA(whiten=True): {null.size} retained component(s) (PC{null[0] + 1}"
                    f"{', …' if null.size > 1 else ''}) have numerically zero variance (the "
                    "centred data are rank deficient), so they cannot be rescaled to unit "
                    "variance; their whitened scores are set to 0. Keep fewer components "
                    "(n_components) to drop them.",
                    NumericalWarning,
                )

    def _null_components(self) -> np.ndarray:
        """Mask of retained components whose variance is zero to working precision."""
        s = self.singular_values_
        if s.size == 0 or s[0] == 0:
            return np.ones(s.size, bool)
        tol = max(self.n_samples_, self.n_features_in_) * np.finfo(np.float64).eps
        if self.solver_ == "gram":  # eigenvalues of the Gram matrix: absolute error ~ ε λ₁
            return (s / s[0]) ** 2 <= tol
        return s / s[0] <= tol

    def _whitening_sd(self) -> np.ndarray:
        """Standard deviation of each retained component (``inf`` for a null component, whose
        whitened score is 0), from the singular values: finite even where a rescaled fit's
        ``explained_variance_`` left float64's range."""
        sd = self.singular_values_ / np.sqrt(self.n_samples_ - 1)
        return np.where(self._null_components(), np.inf, sd)

    def _unscale(self, s, magnitude) -> None:
        """Map a fit on ``X / s`` back to ``X``: centres and scales by ``s``; without
        ``scale=True``, variances by ``s²`` and singular values by ``s``."""
        self.mean_ = self.mean_ * s
        if self.scale_ is not None:  # the standardised data do not depend on s
            self.scale_ = self.scale_ * s
            return
        self.singular_values_ = times(self.singular_values_, s)
        self.explained_variance_ = times(self.explained_variance_, s, 2)
        self.eigenvalues_ = times(self.eigenvalues_, s, 2)
        before = self.total_variance_
        self.total_variance_ = times(self.total_variance_, s, 2)
        if before > 0 and (self.total_variance_ == 0 or np.isinf(self.total_variance_)):
            warn_data_scale(
                self, ["explained_variance_", "eigenvalues_", "total_variance_"], magnitude
            )

    @staticmethod
    def _n_retained(nc, eigenvalues, total_var, n_max) -> int:
        return n_retained(nc, eigenvalues, total_var, n_max)

    def _column_names(self, idx) -> list:
        if hasattr(self, "feature_names_in_"):
            return [str(self.feature_names_in_[j]) for j in idx]
        return [f"x{j}" for j in idx]

    def _projection(self) -> tuple[np.ndarray, np.ndarray, bool]:
        """``(W, x̄ W, uncentred)``: the loadings divided by the column scales, the score of the
        mean, and whether ``X W − x̄ W`` is accurate (see :data:`_UNCENTRED_MAX_OFFSET`)."""
        W = self.components_.T
        if self.scale_ is not None:
            W = W / self.scale_[:, None]
        offset = self.mean_ @ W
        reach = np.abs(self.mean_) @ np.abs(W)  # the cancellation's size, per component
        sd = self.singular_values_ / np.sqrt(self.n_samples_ - 1)
        null = self._null_components()
        uncentred = bool(np.all(~null & (reach <= _UNCENTRED_MAX_OFFSET * sd)))
        return W, offset, uncentred

    def transform(self, X) -> np.ndarray:
        """Scores: ``X`` centred (and scaled) times the loadings (R's ``predict(prcomp, X)``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_components_)
            With ``whiten=True`` each column is divided by its component's standard
            deviation (unit sample variance on the training data).
        """
        if _dask.is_dask_collection(X):  # lazy, block by block
            check_is_fitted(self, "components_")
            return _dask.predict_blocks(self, X, "transform", self.n_components_)
        check_is_fitted(self, "components_")
        X = validate_data(self, X, dtype=np.float64, reset=False)
        W, offset, uncentred = self._projection()
        # a threaded BLAS gains little on this thin product and loses much on a busy machine
        with single_blas_thread(
            X.shape[0] * X.shape[1] * W.shape[1], below=2**20, quiet_above=PRODUCT_THREADS_FROM
        ):
            if uncentred:  # no centred copy of X
                scores = X @ W
                scores -= offset
            else:
                scores = (X - self.mean_) @ W
        if self.whiten:
            scores /= self._whitening_sd()
        return scores

    def inverse_transform(self, X) -> np.ndarray:
        """Map scores back to the original space: ``Z Wᵀ`` unscaled and uncentred.

        Exact at full rank (``n_components_ = n_features``). Whitened scores are first
        multiplied back by the components' standard deviations.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_components_)

        Returns
        -------
        ndarray of shape (n_samples, n_features_in_)
        """
        check_is_fitted(self, "components_")
        Z = np.asarray(X, dtype=np.float64)
        if Z.ndim != 2 or Z.shape[1] != self.n_components_:
            raise ValueError(
                f"X must have shape (n_samples, {self.n_components_}) (the scores); got {Z.shape}."
            )
        if self.whiten:
            Z = Z * np.where(np.isinf(sd := self._whitening_sd()), 0.0, sd)
        out = Z @ self.components_
        if self.scale_ is not None:
            out *= self.scale_
        return out + self.mean_

    def reconstruction_error(self, X) -> float:
        """Mean over samples of ``‖x − x̂‖²`` on the original scale (``x̂`` the reconstruction).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        float
        """
        X_arr = validate_data(self, X, dtype=np.float64, reset=False)
        resid = X_arr - self.inverse_transform(self.transform(X_arr))
        return float(np.mean(np.sum(resid**2, axis=1)))

    def score(self, X, y=None) -> float:
        """Negative :meth:`reconstruction_error` (higher is better, for model selection).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        float
        """
        return -self.reconstruction_error(X)

    def summary(self) -> PCASummary:
        """Importance of the retained components, as R's ``summary(prcomp(...))``.

        Returns
        -------
        PCASummary
            Rows "Standard deviation", "Proportion of Variance", "Cumulative Proportion";
            proportions are of the total variance (all components).
        """
        check_is_fitted(self, "components_")
        return PCASummary(np.sqrt(self.explained_variance_), self.total_variance_)

    @property
    def _n_features_out(self) -> int:
        return self.n_components_

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        return tags
