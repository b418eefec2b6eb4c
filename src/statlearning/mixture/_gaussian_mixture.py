"""Gaussian mixture models fitted by EM: :class:`GaussianMixture`."""

from __future__ import annotations

import warnings
from numbers import Integral, Real

import numpy as np
from sklearn.base import DensityMixin
from sklearn.utils import check_random_state
from sklearn.utils.validation import check_is_fitted

from .. import _dask
from .._core.linalg import symmetric_eigh
from .._core.scaling import log_scale, max_abs, scale_for, times
from .._validation import ArrayLike, Interval, Options, RandomState, validate_data
from ..base import StatBase, fit_context
from ..cluster import KMeans, kmeans_plusplus
from ..exceptions import (
    NumericalWarning,
    external_stacklevel,
    warn_data_scale,
    warn_not_converged,
    warn_unrescaled_scale,
)
from . import _em

_COV_TYPES = ("full", "tied", "diag", "spherical")


class GaussianMixture(DensityMixin, StatBase):
    """Gaussian mixture model fitted by the EM algorithm.

    Parameters
    ----------
    n_components : int, default=1
        Number of mixture components K.
    covariance_type : {"full", "tied", "diag", "spherical"}, default="full"
        One general covariance per component, one shared by all, diagonal, or a single
        variance per component.
    tol : float, default=1e-3
        Stop when the average log-likelihood changes by less than ``tol`` between iterations.
    reg_covar : float, default=1e-6
        Added to the diagonal of every covariance (keeps them positive definite).
    max_iter : int, default=100
        EM iterations per initialisation; reaching it raises a ``ConvergenceWarning``.
    n_init : int, default=1
        Initialisations; the one with the largest final log-likelihood is kept.
    init_params : {"kmeans", "random"}, default="kmeans"
        Initial responsibilities: hard k-means labels, or random responsibilities.
    weights_init, means_init, precisions_init : array-like or None, default=None
        User-supplied initial weights ``(K,)``, means ``(K, d)`` and precisions (inverse
        covariances, in the ``covariance_type`` layout); they override ``init_params``.
    random_state : int, RandomState instance or None, default=None

    Attributes
    ----------
    weights_ : ndarray of shape (n_components,)
    means_ : ndarray of shape (n_components, n_features)
    covariances_ : ndarray
        ``(K, d, d)`` full, ``(d, d)`` tied, ``(K, d)`` diag, ``(K,)`` spherical.
    precisions_ : ndarray
        Inverse covariances, same layout.
    precisions_cholesky_ : ndarray
        ``U`` with ``Σ⁻¹ = U Uᵀ``, same layout.
    converged_ : bool
    n_iter_ : int
        EM iterations of the kept initialisation.
    lower_bound_ : float
        Average log-likelihood at the last iteration of the kept initialisation.
    loglik_path_ : ndarray of shape (n_iter_,)
        Average log-likelihood at each EM iteration of the kept initialisation (never
        decreasing, up to rounding: the EM guarantee).
    n_features_in_ : int
    feature_names_in_ : ndarray of str

    Notes
    -----
    The model is :math:`p(x) = \\sum_{k=1}^K \\pi_k N(x \\mid \\mu_k, \\Sigma_k)` and EM
    maximises the log-likelihood :math:`\\sum_i \\log \\sum_k \\pi_k N(x_i \\mid \\mu_k,
    \\Sigma_k)` (seed 001 part 2, §9.5, Algorithm 13). E-step: responsibilities
    :math:`p_{k|i} \\propto \\pi_k N(x_i \\mid \\mu_k, \\Sigma_k)`, computed in log space with
    log-sum-exp. M-step: :math:`n_k = \\sum_i p_{k|i}`, :math:`\\mu_k = \\sum_i p_{k|i} x_i / n_k`,
    :math:`\\Sigma_k = \\sum_i p_{k|i} (x_i - \\mu_k)(x_i - \\mu_k)^\\top / n_k +
    \\text{reg\\_covar}\\, I` (with the *new* means), :math:`\\pi_k = n_k / n`. The iteration
    stops when the average log-likelihood changes by less than ``tol``.

    ``reg_covar`` is not in the notes. When a covariance is singular (a component collapsed
    onto a point or a subspace), the default ``reg_covar`` is what keeps it invertible and a
    ``NumericalWarning`` says so; if even that is not enough (Cholesky fails), ``reg_covar`` is
    increased tenfold until it succeeds, again with a warning.

    Data whose largest ``|x|`` is beyond ``2^±200`` (about ``1e±60``) are fitted on ``X``
    divided by a power of two (exact in floating point), with ``reg_covar`` and the initial
    means and precisions in those units, and the results mapped back (means by ``s``,
    covariances by ``s²``, log-likelihoods less ``d·log s``); prediction uses the rescaled
    parameters, so it is exact where covariances that float64 cannot hold are ``inf`` or 0
    (a ``NumericalWarning`` says so). On data so small that ``reg_covar`` would overflow on that
    scale, the fit is on ``X`` as given, with a warning that the data's scale is the problem.

    Dask collections (``pip install statlearning[dask]``): ``fit`` accepts a
    ``dask.array.Array`` or ``dask.dataframe`` chunked by rows. Each EM iteration is one pass:
    every block runs the E-step and reduces its responsibilities to per-component weights,
    means and centred cross-products, merged by Chan's update; the M-step runs on the client.
    From the same initial parameters (``weights_init``, ``means_init``, ``precisions_init``)
    the fit is the in-memory one; ``init_params="kmeans"`` starts from the Dask
    :class:`~statlearning.cluster.KMeans` (k-means|| seeding). ``predict``, ``predict_proba``
    and ``score_samples`` of a Dask collection are lazy Dask arrays. Data beyond
    ``2^±200`` are refused (they are not rescaled block by block).

    Mapping: the notes' π, μ, Σ are ``weights_``, ``means_``, ``covariances_``. R's
    ``mclust::Mclust`` model names: ``"full"`` is VVV, ``"tied"`` EEE, ``"diag"`` VVI,
    ``"spherical"`` VII. :meth:`bic` follows the usual sign (lower is better), the opposite of
    mclust's. The parameters and attributes are scikit-learn's ``GaussianMixture``'s.

    Examples
    --------
    >>> import numpy as np
    >>> from statlearning.mixture import GaussianMixture
    >>> X = np.array([[0.0], [0.1], [0.2], [0.3], [0.4], [9.0], [9.2], [9.4], [9.6], [9.8]])
    >>> gm = GaussianMixture(2, random_state=0).fit(X)
    >>> sorted(np.round(gm.means_.ravel(), 2).tolist())
    [0.2, 9.4]
    """

    _parameter_constraints = {
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "covariance_type": [Options(_COV_TYPES)],
        "tol": [Interval(Real, 0.0, None, closed="left")],
        "reg_covar": [Interval(Real, 0.0, None, closed="left")],
        "max_iter": [Interval(Integral, 0, None, closed="left")],
        "n_init": [Interval(Integral, 1, None, closed="left")],
        "init_params": [Options({"kmeans", "random"})],
        "weights_init": [ArrayLike(), None],
        "means_init": [ArrayLike(), None],
        "precisions_init": [ArrayLike(), None],
        "random_state": [RandomState()],
    }

    def __init__(
        self,
        n_components=1,
        *,
        covariance_type="full",
        tol=1e-3,
        reg_covar=1e-6,
        max_iter=100,
        n_init=1,
        init_params="kmeans",
        weights_init=None,
        means_init=None,
        precisions_init=None,
        random_state=None,
    ):
        self.n_components = n_components
        self.covariance_type = covariance_type
        self.tol = tol
        self.reg_covar = reg_covar
        self.max_iter = max_iter
        self.n_init = n_init
        self.init_params = init_params
        self.weights_init = weights_init
        self.means_init = means_init
        self.precisions_init = precisions_init
        self.random_state = random_state

    # ------------------------------------------------------------------------------ fitting

    @fit_context
    def fit(self, X, y=None):
        """Estimate the mixture by EM (``n_init`` starts, the best kept).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        self
        """
        self._fit(X, final_estep=False)
        return self

    def fit_predict(self, X, y=None):
        """Fit, then return the most probable component of each training row.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        labels : ndarray of shape (n_samples,)
            Index of the component with the largest responsibility for each row, from an
            E-step with the final parameters (so it equals ``predict(X)``).
        """
        if _dask.is_dask_collection(X):  # fitted on the workers; lazy labels
            return self.fit(X).predict(X)
        return self._fit_labels(X)

    @fit_context
    def _fit_labels(self, X):
        return self._fit(X, final_estep=True).argmax(axis=1)

    def _fit(self, X, *, final_estep):
        X = validate_data(self, X, dtype=[np.float64, np.float32], ensure_min_samples=2)
        X = np.asarray(X, dtype=np.float64)
        # data near float64's ends: EM on X / scale (a power of two, exact) with reg_covar,
        # the initial means and precisions in those units; the results are mapped back
        scale = scale_for(X)
        if scale is not None and not np.isfinite(times(self.reg_covar, 1.0 / scale, 2)):
            scale = None  # tiny data: reg_covar, in X's units, is all the covariance left
            warn_unrescaled_scale(self, X, "X")
        self._scale = scale
        self._reg = self.reg_covar if scale is None else times(self.reg_covar, 1.0 / scale, 2)
        if scale is not None:
            X = X / scale
        n, d = X.shape
        K = self.n_components
        if n < K:
            raise ValueError(
                f"n_components={K} must be at most the number of samples, got n_samples={n}."
            )
        best = self._best_run(_InMemory(self, X), d)
        self._store(best, scale, float(max_abs(X)) * (scale or 1.0), d)
        if final_estep:  # so that fit_predict agrees with predict on the training data
            return _em.e_step(X, *self._params_for_estep())[1]
        return None

    def _fit_dask(self, X, y=None):
        """:meth:`fit` on a Dask collection (:mod:`statlearning.mixture._gaussian_mixture_dask`)."""
        from ._gaussian_mixture_dask import fit_mixture

        return fit_mixture(self, X)

    def _best_run(self, data, d):
        """The best of ``n_init`` EM runs on ``data`` (see :meth:`_run_em`)."""
        inits = self._check_inits(d)
        rng = check_random_state(self.random_state)
        best = None
        for _ in range(self.n_init):
            run = self._run_em(data, rng, inits)
            if best is None or run["lower_bound"] > best["lower_bound"]:
                best = run
        return best

    def _store(self, best, scale, magnitude, d):
        """The fitted attributes from the best run (computed on ``X / scale``)."""
        if not best["converged"] and self.max_iter > 0:
            warn_not_converged(
                self,
                "EM",
                max_iter=self.max_iter,
                advice="increase max_iter or raise tol, or try another initialisation",
            )
        self._rescaled = best["params"]
        self._set_parameters(best["params"], scale, magnitude)
        self.converged_ = best["converged"]
        self.n_iter_ = best["n_iter"]
        shift = d * log_scale(scale)  # log-densities of X: those of X / s minus d·log s
        self.lower_bound_ = best["lower_bound"] - shift
        self.loglik_path_ = np.asarray(best["path"], dtype=np.float64) - shift
        self._warn_singular(best["params"][2])

    def _in_fit_units(self, values, power):
        """``values`` given in X's units (``power`` of the scale) in the units of the fit."""
        return values if self._scale is None else times(values, 1.0 / self._scale, power)

    def _check_inits(self, d):
        K, ct = self.n_components, self.covariance_type
        out = {}
        if self.weights_init is not None:
            w = np.asarray(self.weights_init, dtype=np.float64)
            if w.shape != (K,) or np.any(w < 0) or not np.isclose(w.sum(), 1.0):
                raise ValueError(
                    f"weights_init must be {K} non-negative numbers summing to 1, got {w!r}."
                )
            out["weights"] = w
        if self.means_init is not None:
            m = np.asarray(self.means_init, dtype=np.float64)
            if m.shape != (K, d) or not np.all(np.isfinite(m)):
                raise ValueError(f"means_init must be finite of shape ({K}, {d}), got {m.shape}.")
            out["means"] = self._in_fit_units(m, 1)
        if self.precisions_init is not None:
            p = np.asarray(self.precisions_init, dtype=np.float64)
            shape = {"full": (K, d, d), "tied": (d, d), "diag": (K, d), "spherical": (K,)}[ct]
            if p.shape != shape:
                raise ValueError(
                    f"precisions_init must have shape {shape} for covariance_type={ct!r}, "
                    f"got {p.shape}."
                )
            if self._scale is not None:  # a precision has the units of 1/x²
                p = times(p, self._scale, 2)
            if ct in ("full", "tied"):
                mats = p if ct == "full" else p[None]
                for mat in mats:
                    if (
                        not np.allclose(mat, mat.T)
                        or symmetric_eigh(mat, eigvals_only=True, driver="evd")[0] <= 0
                    ):
                        raise ValueError("precisions_init must be symmetric positive definite.")
                chol = np.array([np.linalg.cholesky(mat) for mat in mats])
                out["prec_chol"] = chol if ct == "full" else chol[0]
            else:
                if np.any(p <= 0):
                    raise ValueError("precisions_init must be positive.")
                out["prec_chol"] = np.sqrt(p)
        return out

    def _initial_resp(self, X, rng):
        n, K = X.shape[0], self.n_components
        if self.init_params == "kmeans":
            gen = np.random.default_rng(rng.randint(np.iinfo(np.int32).max))
            centers = kmeans_plusplus(X, K, random_state=gen, n_local_trials=1)[0]
            labels = KMeans(K, init=centers, n_init=1, tol=0.0).fit(X).labels_
            resp = np.zeros((n, K))
            resp[np.arange(n), labels] = 1.0
        else:
            resp = rng.uniform(size=(n, K))
            resp /= resp.sum(axis=1, keepdims=True)
        return resp

    def _m_step(self, estimate):
        """M-step with the Cholesky guard: returns ``(weights, means, cov, prec_chol)``;
        ``estimate(reg_covar)`` gives ``(n_k, means, cov)``."""
        reg = self._reg
        nk, means, cov = estimate(reg)
        while True:
            try:
                prec = _em.precisions_cholesky(cov, self.covariance_type)
                break
            except np.linalg.LinAlgError:
                new_reg = max(10.0 * reg, 1e-10)
                warnings.warn(
                    f"{type(self).__name__}: a component's covariance is not positive "
                    "definite even with "
                    f"reg_covar={reg:g}; increasing the regularisation to {new_reg:g}. "
                    "Consider fewer components or a larger reg_covar.",
                    NumericalWarning,
                    stacklevel=external_stacklevel(),
                )
                reg = new_reg
                nk, means, cov = estimate(reg)
        return nk / nk.sum(), means, cov, prec

    def _run_em(self, data, rng, inits):
        """EM from ``inits`` on ``data``, which gives the initial M-step's estimates
        (``data.initial(rng)``) and the E-step (``data.e_step(weights, means, prec_chol)``: the
        mean log-likelihood and the M-step's estimates): :class:`_InMemory`, or the blocks of a
        Dask collection (:mod:`statlearning.mixture._gaussian_mixture_dask`)."""
        ct = self.covariance_type
        need_resp = not {"weights", "means", "prec_chol"} <= inits.keys()
        if need_resp:
            weights, means, cov, prec = self._m_step(data.initial(rng))
        else:
            weights = means = cov = prec = None
        weights = inits.get("weights", weights)
        means = inits.get("means", means)
        if "prec_chol" in inits:
            prec = inits["prec_chol"]
            cov = _em.covariance_from_precision(prec, ct)
        lower_bound, converged, n_iter, path = -np.inf, False, 0, []
        while n_iter < self.max_iter:
            n_iter += 1
            previous = lower_bound
            lower_bound, estimate = data.e_step(weights, means, prec)
            path.append(lower_bound)
            weights, means, cov, prec = self._m_step(estimate)
            if abs(lower_bound - previous) < self.tol:
                converged = True
                break
        if self.max_iter == 0:
            lower_bound = data.e_step(weights, means, prec)[0]
        return {
            "params": (weights, means, cov, prec),
            "lower_bound": lower_bound,
            "converged": converged,
            "n_iter": n_iter,
            "path": path,
        }

    def _set_parameters(self, params, scale, magnitude):
        weights, means, cov, u = params
        ct = self.covariance_type
        if ct == "full":
            prec = np.einsum("kij,klj->kil", u, u)
        elif ct == "tied":
            prec = u @ u.T
        else:
            prec = u**2
        self.weights_ = weights
        if scale is None:
            self.means_, self.covariances_, self.precisions_cholesky_ = means, cov, u
            self.precisions_ = prec
            return
        # means by s, covariances by s², precisions by 1/s² (their Cholesky factors by 1/s)
        self.means_, self.covariances_ = means * scale, times(cov, scale, 2)
        self.precisions_cholesky_ = u / scale
        self.precisions_ = times(prec, 1.0 / scale, 2)
        pairs = [(self.covariances_, cov), (self.precisions_cholesky_, u), (self.precisions_, prec)]
        if not all(np.all(np.isfinite(a) & ((a != 0) | (b == 0))) for a, b in pairs):
            warn_data_scale(
                self, ["covariances_", "precisions_", "precisions_cholesky_"], magnitude
            )

    def _warn_singular(self, cov):
        lam = _em.min_eigenvalue_unregularised(cov, self._reg, self.covariance_type)
        scale = max(float(np.max(np.abs(cov))), 1.0)
        bad = np.flatnonzero(lam <= 1e-10 * scale)
        if bad.size:
            warnings.warn(
                f"{type(self).__name__}: the covariance of component(s) {bad.tolist()} is "
                "singular; only "
                f"reg_covar={self.reg_covar:g} keeps it positive definite. The component has "
                "collapsed onto a point or subspace: consider fewer components.",
                NumericalWarning,
                stacklevel=5,
            )

    # --------------------------------------------------------------------------- prediction

    def _params_for_estep(self):
        weights, means, _, prec_chol = self._rescaled  # in the units of the fit
        return weights, means, prec_chol, self.covariance_type

    def _validated(self, X):
        check_is_fitted(self, "means_")
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        return np.asarray(X, dtype=np.float64)

    def _e_step(self, X):
        """``(responsibilities, log-densities)`` of validated ``X`` (on the fit's scale)."""
        _, resp, log_density = _em.e_step(self._in_fit_units(X, 1), *self._params_for_estep())
        return resp, log_density - X.shape[1] * log_scale(self._scale)

    def score_samples(self, X):
        """Log-density of each row under the fitted mixture.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to evaluate, with the features seen in ``fit``.

        Returns
        -------
        log_density : ndarray of shape (n_samples,)
            :math:`\\log p(x_i) = \\log \\sum_k \\pi_k N(x_i \\mid \\mu_k, \\Sigma_k)`.
        """
        if _dask.is_dask_collection(X):  # lazy, block by block
            check_is_fitted(self, "means_")
            return _dask.predict_blocks(self, X, "score_samples")
        return self._e_step(self._validated(X))[1]

    def score(self, X, y=None):
        """Average log-likelihood of ``X`` under the fitted mixture.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to evaluate, with the features seen in ``fit``.
        y : ignored

        Returns
        -------
        log_likelihood : float
            Mean of :meth:`score_samples` over the rows of ``X``.
        """
        if _dask.is_dask_collection(X):
            return float(self.score_samples(X).mean().compute())
        return float(self.score_samples(X).mean())

    def predict_proba(self, X):
        """Posterior probability of each component for each row (the responsibilities).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to evaluate, with the features seen in ``fit``.

        Returns
        -------
        resp : ndarray of shape (n_samples, n_components)
            :math:`p(k \\mid x_i)`; each row sums to 1.
        """
        if _dask.is_dask_collection(X):  # lazy, block by block
            check_is_fitted(self, "means_")
            return _dask.predict_blocks(self, X, "predict_proba", self.n_components)
        return self._e_step(self._validated(X))[0]

    def predict(self, X):
        """Most probable component of each row.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to evaluate, with the features seen in ``fit``.

        Returns
        -------
        labels : ndarray of shape (n_samples,)
            Index of the component with the largest responsibility (the first on ties).
        """
        if _dask.is_dask_collection(X):  # lazy, block by block
            check_is_fitted(self, "means_")
            return _dask.predict_blocks(self, X, "predict", dtype=np.int64)
        return self.predict_proba(X).argmax(axis=1)

    def _n_parameters(self):
        return _em.n_parameters(self.n_components, self.means_.shape[1], self.covariance_type)

    def aic(self, X):
        """Akaike information criterion ``−2 log L + 2 k`` on ``X`` (lower is better).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to evaluate, with the features seen in ``fit``.

        Returns
        -------
        aic : float
            ``log L`` is the log-likelihood of ``X`` (the sum over its rows) and ``k`` the
            number of free parameters of the mixture (weights, means and covariances).
        """
        X = self._validated(X)
        return -2.0 * self.score(X) * X.shape[0] + 2.0 * self._n_parameters()

    def bic(self, X):
        """Bayesian information criterion ``−2 log L + k log n`` on ``X`` (lower is better).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Rows to evaluate, with the features seen in ``fit``.

        Returns
        -------
        bic : float
            ``log L`` is the log-likelihood of ``X`` (the sum over its rows), ``k`` the number
            of free parameters of the mixture and ``n`` the number of rows of ``X``.
        """
        X = self._validated(X)
        return -2.0 * self.score(X) * X.shape[0] + self._n_parameters() * np.log(X.shape[0])

    def sample(self, n_samples=1):
        """Draw random points from the fitted mixture.

        The number of points from each component is multinomial with probabilities
        ``weights_``; the generator is seeded from ``random_state`` on every call, so an integer
        ``random_state`` gives the same sample each time.

        Parameters
        ----------
        n_samples : int, default=1
            Number of points to draw.

        Returns
        -------
        X : ndarray of shape (n_samples, n_features)
            The points, grouped by component (component 0 first).
        labels : ndarray of shape (n_samples,)
            The component each point was drawn from.
        """
        check_is_fitted(self, "means_")
        if not isinstance(n_samples, Integral) or n_samples < 1:
            raise ValueError(f"n_samples must be a positive integer, got {n_samples!r}.")
        rng = check_random_state(self.random_state)
        counts = rng.multinomial(n_samples, self.weights_)
        _, means, cov, _ = self._rescaled  # drawn on the fit's scale, then scaled back
        d = means.shape[1]
        ct = self.covariance_type
        parts = []
        for k, c in enumerate(counts):
            if ct == "full":
                parts.append(rng.multivariate_normal(means[k], cov[k], c))
            elif ct == "tied":
                parts.append(rng.multivariate_normal(means[k], cov, c))
            else:
                sd = np.sqrt(cov[k]) * np.ones(d)
                parts.append(means[k] + rng.standard_normal((c, d)) * sd)
        labels = np.repeat(np.arange(self.n_components), counts)
        return times(np.vstack(parts), self._scale), labels


class _InMemory:
    """The data of an in-memory EM fit (see :meth:`GaussianMixture._run_em`)."""

    def __init__(self, gm, X):
        self.gm, self.X = gm, X

    def _estimate(self, resp):
        X, ct = self.X, self.gm.covariance_type
        return lambda reg: _em.estimate_parameters(X, resp, reg, ct)

    def initial(self, rng):
        return self._estimate(self.gm._initial_resp(self.X, rng))

    def e_step(self, weights, means, prec):
        lower_bound, resp, _ = _em.e_step(self.X, weights, means, prec, self.gm.covariance_type)
        return lower_bound, self._estimate(resp)
