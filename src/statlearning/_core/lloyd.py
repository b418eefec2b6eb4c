"""A minimal k-means (k-means++ seeding, then Lloyd's iterations) on an ``(n, d)`` array.

Used where an estimator needs a k-means step on a small derived matrix (the spectral embedding,
the initial responsibilities of a Gaussian mixture). It is the notes' algorithm (seed 001 part 2,
§9.1): assign each row to its nearest centre, move each centre to the mean of its rows, until the
assignments stop changing. An emptied cluster is re-seeded at the row farthest from its centre.
"""

from __future__ import annotations

import numpy as np

__all__ = ["kmeans_plusplus", "lloyd", "squared_distances"]


def squared_distances(X: np.ndarray, centers: np.ndarray) -> np.ndarray:
    """``‖x_i − c_k‖²`` as an ``(n, k)`` array, clipped at zero."""
    d2 = (X * X).sum(axis=1)[:, None] - 2.0 * (X @ centers.T) + (centers * centers).sum(axis=1)
    np.maximum(d2, 0.0, out=d2)
    return d2


def kmeans_plusplus(X: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Plain k-means++ (D²) seeding: ``k`` rows of ``X`` as initial centres."""
    n = X.shape[0]
    centers = np.empty((k, X.shape[1]))
    centers[0] = X[rng.integers(n)]
    closest = squared_distances(X, centers[:1])[:, 0]
    for j in range(1, k):
        total = closest.sum()
        idx = rng.integers(n) if total <= 0.0 else rng.choice(n, p=closest / total)
        centers[j] = X[idx]
        np.minimum(closest, squared_distances(X, centers[j : j + 1])[:, 0], out=closest)
    return centers


def lloyd(
    X: np.ndarray, centers: np.ndarray, *, max_iter: int = 300
) -> tuple[np.ndarray, np.ndarray, float, int]:
    """Lloyd's iterations from ``centers``; returns ``(labels, centers, inertia, n_iter)``."""
    centers = np.array(centers, dtype=np.float64)
    k = centers.shape[0]
    labels = None
    n_iter = 0
    while n_iter < max_iter:
        n_iter += 1
        d2 = squared_distances(X, centers)
        new_labels = d2.argmin(axis=1)
        if labels is not None and np.array_equal(new_labels, labels):
            break
        labels = new_labels
        counts = np.bincount(labels, minlength=k)
        for j in np.flatnonzero(counts == 0):  # re-seed an empty cluster at the worst row
            far = d2[np.arange(X.shape[0]), labels].argmax()
            labels[far] = j
            counts = np.bincount(labels, minlength=k)
        sums = np.stack(
            [np.bincount(labels, weights=X[:, f], minlength=k) for f in range(X.shape[1])],
            axis=1,
        )
        centers = sums / counts[:, None]
    d2 = squared_distances(X, centers)
    labels = d2.argmin(axis=1)
    inertia = float(d2[np.arange(X.shape[0]), labels].sum())
    return labels, centers, inertia, n_iter
