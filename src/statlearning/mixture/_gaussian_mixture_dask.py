"""Gaussian mixtures on Dask collections: one pass over the row blocks per EM iteration.

:meth:`GaussianMixture.fit <statlearning.mixture.GaussianMixture.fit>` hands a Dask collection
here (through :mod:`statlearning._dask`) and runs the in-memory EM loop
(:meth:`GaussianMixture._run_em`) with :class:`_Blocks` as its data. In each pass every block
runs the in-memory E-step (:func:`statlearning.mixture._em.e_step`) with the current parameters
and reduces its responsibilities at once to the M-step's sufficient statistics: per component,
the total responsibility, the responsibility-weighted mean and the centred cross-products
(:func:`statlearning._core.linalg.block_cross_moments`), merged over blocks by Chan's update, so
no ``Σ r x xᵀ − n μ μᵀ`` cancellation arises; the block's summed log-densities give the lower
bound. The responsibilities never leave the block. The client finishes the M-step from the
merged moments (:func:`statlearning.mixture._em.parameters_from_moments`, with the in-memory
Cholesky guard).

Initialisation: ``init_params="kmeans"`` runs the Dask :class:`~statlearning.cluster.KMeans`
(k-means|| seeding, Lloyd to stable labels, as the in-memory fit runs the in-memory one) and
starts from its hard labels; ``"random"`` draws each block's responsibilities from its own seed.
User-supplied ``weights_init``, ``means_init`` and ``precisions_init`` are used as given, so from
them the fit is the in-memory one.
"""

from __future__ import annotations

import numpy as np

from .. import _dask
from .._core.linalg import block_cross_moments, merge_cross_moments
from . import _em


def _moments(X, resp):
    """Per-component ``(W_k, m_k, C_k)`` of one block from its responsibilities."""
    return [block_cross_moments(X, np.ascontiguousarray(r)) for r in resp.T]


def _e_step_block(X, offset, weights, means, prec, covariance_type):
    if not X.shape[0]:
        return 0.0, _moments(X, np.zeros((0, means.shape[0])))
    _, resp, log_density = _em.e_step(X, weights, means, prec, covariance_type)
    return float(log_density.sum()), _moments(X, resp)


def _labels_block(X, labels, offset, k):
    resp = np.zeros((X.shape[0], k))
    resp[np.arange(X.shape[0]), labels] = 1.0
    return 0.0, _moments(X, resp)


def _random_block(X, seed, offset, k):
    resp = np.random.default_rng(int(seed[0])).uniform(size=(X.shape[0], k))
    resp /= resp.sum(axis=1, keepdims=True)
    return 0.0, _moments(X, resp)


def _merge(a, b):
    return a[0] + b[0], [merge_cross_moments(x, y) for x, y in zip(a[1], b[1], strict=True)]


class _Blocks:
    """The data of an EM fit on Dask row blocks (see ``GaussianMixture._run_em``)."""

    def __init__(self, gm, rows):
        self.gm, self.rows = gm, rows

    def _estimate(self, job):
        ((loglik, moments),) = _dask.compute(job)
        ct = self.gm.covariance_type
        return loglik / self.rows.n, lambda reg: _em.parameters_from_moments(moments, reg, ct)

    def initial(self, rng):
        import dask.array as da

        from ..cluster import KMeans

        rows, k = self.rows, self.gm.n_components
        if self.gm.init_params == "kmeans":
            seed = int(rng.randint(np.iinfo(np.int32).max))
            labels = KMeans(k, n_init=1, tol=0.0, random_state=seed).fit(rows.X).labels_
            job = _dask.map_reduce(_labels_block, _merge, [rows.X, labels], rows.offsets, k)
        else:  # each block's responsibilities from a seed of its own
            seeds = rng.randint(np.iinfo(np.int32).max, size=len(rows.offsets))
            job = _dask.map_reduce(
                _random_block, _merge, [rows.X, da.from_array(seeds, chunks=1)], rows.offsets, k
            )
        return self._estimate(job)[1]

    def e_step(self, weights, means, prec):
        rows = self.rows
        job = _dask.map_reduce(
            _e_step_block, _merge, [rows.X], rows.offsets, weights, means, prec,
            self.gm.covariance_type,
        )  # fmt: skip
        return self._estimate(job)


def fit_mixture(gm, X):
    """Fit ``gm`` (a :class:`~statlearning.mixture.GaussianMixture`) on the Dask collection
    ``X``."""
    rows = _dask.row_blocks(gm, X)
    (checks,) = _dask.compute(_dask.check_blocks(rows))
    _dask.raise_for_bad_blocks(gm, rows, checks)
    n, d = rows.n, rows.X.shape[1]
    if n < 2:
        raise ValueError(
            f"Found array with {n} sample(s) (shape=({n}, {d})) while a minimum of 2 is "
            f"required by {type(gm).__name__}."
        )
    K = gm.n_components
    if n < K:
        raise ValueError(
            f"n_components={K} must be at most the number of samples, got n_samples={n}."
        )
    gm._scale, gm._reg = None, gm.reg_covar  # extreme data were refused by the check above
    best = gm._best_run(_Blocks(gm, rows), d)
    gm._store(best, None, float(np.max(checks[2][:d])) if d else 0.0, d)
    return gm
