"""The model matrix of an additive model: columns read, terms resolved, bases remembered.

A DataFrame's text, boolean and ``category`` columns are coded as level indices before the
numeric validation (their levels kept for prediction, where an unseen level is an error
naming the column). Each term becomes a fitted block that builds its columns for new data:
intercept first, then the terms in order (``l``: the column; ``f``: treatment dummies;
``s``/``te``: the spline basis with mgcv's sum-to-zero constraint absorbed).
"""

from __future__ import annotations

import numpy as np

from .._core import penalised_bases as pb
from .._core.linalg import symmetric_eigh
from ._terms import (
    FactorTerm,
    LinearTerm,
    Smooth,
    SmoothingSplineTerm,
    TensorTerm,
    Term,
    Terms,
)

__all__ = ["Block", "build_blocks", "encode_columns", "resolve_terms"]


def _is_frame(X) -> bool:
    return hasattr(X, "columns") and hasattr(X, "dtypes") and hasattr(X, "iloc")


def _is_categorical_dtype(dtype) -> bool:
    kind = getattr(dtype, "kind", "O")
    return str(dtype) in ("category", "string", "str") or kind in "OSUb"


def encode_columns(owner, X, levels=None):
    """Code a DataFrame's non-numeric columns as float level indices.

    At fit (``levels=None``) returns ``(X_coded, {column index: levels})``; at prediction the
    stored levels are used and a value outside them raises, naming the column.
    """
    if not _is_frame(X):
        return X, ({} if levels is None else levels)
    fitting = levels is None
    cat_cols = (
        [i for i, dt in enumerate(X.dtypes) if _is_categorical_dtype(dt)]
        if fitting
        else [i for i in levels if i < X.shape[1]]
    )
    if not cat_cols:
        return X, ({} if fitting else levels)
    import pandas as pd

    out = X.copy()
    found = {}
    for i in cat_cols:
        col = X.iloc[:, i]
        name = str(X.columns[i])
        if fitting:
            if str(col.dtype) == "category":
                lev = np.asarray(col.cat.categories, dtype=object)
            else:
                present = col.dropna()
                try:
                    lev = np.asarray(sorted(set(present.tolist())), dtype=object)
                except TypeError as exc:
                    raise ValueError(
                        f"{owner}: the levels of column {name!r} cannot be sorted (mixed types)."
                    ) from exc
            found[i] = lev
        else:
            lev = levels[i]
        lookup = {v: k for k, v in enumerate(lev.tolist())}
        values = col.astype(object).tolist()
        codes = np.empty(len(values))
        unseen = []
        for r, v in enumerate(values):
            if v is None or (isinstance(v, float) and np.isnan(v)) or v is pd.NA:
                codes[r] = np.nan
            elif v in lookup:
                codes[r] = lookup[v]
            else:
                unseen.append(v)
        if unseen:
            shown = sorted({str(u) for u in unseen})[:5]
            raise ValueError(
                f"{owner}: column {name!r} has level(s) {shown} not seen at fit (levels: "
                f"{[str(v) for v in lev.tolist()]})."
            )
        out[X.columns[i]] = codes
    return out.astype(np.float64), (found if fitting else levels)


def _column_index(owner, j, feature_names, n_features):
    if isinstance(j, str):
        if feature_names is None:
            raise ValueError(
                f"{owner}: term column {j!r} is a name, but X has no column names (pass a "
                "DataFrame or use column indices)."
            )
        names = [str(c) for c in feature_names]
        if j not in names:
            raise ValueError(f"{owner}: term column {j!r} is not a column of X {names}.")
        return names.index(j)
    if not -n_features <= j < n_features:
        raise ValueError(
            f"{owner}: term column index {j} is out of range for X with {n_features} column(s)."
        )
    return j % n_features


def resolve_terms(owner, terms, X, categorical, feature_names, n_obs=None, smoother="s"):
    """The list of terms with integer columns (``"auto"`` expanded with ``s()`` or, for
    backfitting, ``ss()`` smooths)."""
    p = X.shape[1]
    if isinstance(terms, str):
        if terms != "auto":
            raise ValueError(f"{owner}: terms must be 'auto' or a list of terms; got {terms!r}.")
        return _auto_terms(X, categorical, X.shape[0] if n_obs is None else n_obs, smoother)
    if isinstance(terms, Term):
        terms = (terms,)
    if not isinstance(terms, (list, tuple)) or not terms:
        raise ValueError(f"{owner}: terms must be 'auto' or a non-empty list of terms.")
    out = []
    for t in terms:
        if not isinstance(t, Term):
            raise TypeError(
                f"{owner}: every entry of terms must be built by s(), ss(), lo(), l(), f() or "
                f"te(); got {t!r}."
            )
        cols = [_column_index(owner, c, feature_names, p) for c in t.columns]
        if isinstance(t, TensorTerm):
            out.append(TensorTerm(cols[0], cols[1], t.n_basis))
        elif isinstance(t, Smooth) and len(cols) == 2:
            out.append(Smooth((cols[0], cols[1]), t.n_basis, t.basis, t.lam))
        else:
            out.append(type(t)(cols[0], *[getattr(t, k) for k in _fields(t)[1:]]))
    return Terms(out)


def _fields(t):
    return list(t.__dataclass_fields__)


def _auto_terms(X, categorical, n, smoother="s"):
    """``s()`` on numeric columns with enough distinct values, ``l()`` on the other numeric
    columns, ``f()`` on categorical columns; constant columns are left out. ``n`` (the sum of
    the case weights) bounds the number of coefficients. ``smoother="ss"``: ``ss(j, df=4)``
    (gam's ``s(x, 4)``) on numeric columns with at least 6 distinct values (the smoother's
    trace ``df + 1`` must stay below their number) while the degrees of freedom fit in
    ``n``."""
    p = X.shape[1]
    uniques = [np.unique(X[:, j][~np.isnan(X[:, j])]).size for j in range(p)]
    smooth_cols = [j for j in range(p) if j not in categorical and uniques[j] >= 5]
    n_param = 1 + sum(
        (uniques[j] - 1) if j in categorical else 1
        for j in range(p)
        if j not in smooth_cols and uniques[j] > 1
    )
    budget = int((n - n_param - 1) // max(len(smooth_cols), 1) + 1)  # coefficients per smooth + 1
    out = []
    for j in range(p):
        if uniques[j] <= 1:
            continue
        if j in categorical:
            out.append(FactorTerm(j))
        elif smoother == "ss":
            out.append(
                SmoothingSplineTerm(j, 4.0) if uniques[j] >= 6 and budget >= 6 else LinearTerm(j)
            )
        elif j in smooth_cols and min(10, uniques[j], budget) >= 4:
            out.append(Smooth(j, int(min(10, uniques[j], budget))))
        else:
            out.append(LinearTerm(j))
    if not out:
        out.append(LinearTerm(0))
    return Terms(out)


class Block:
    """One fitted term: its columns of the model matrix and its penalties.

    Attributes: ``term`` (with integer columns), ``name`` (as mgcv prints it), ``size``
    (number of coefficients), ``penalties`` (list of ``S`` on the block), ``null_dim``
    (dimension of the penalties' null space), and what :meth:`design` needs.
    """

    def __init__(self, term, name):
        self.term = term
        self.name = name
        self.penalties: list = []
        self.size = 0

    @property
    def smooth(self) -> bool:
        """Whether the term is penalised."""
        return bool(self.penalties)

    def design(self, X) -> np.ndarray:
        t = self.term
        if isinstance(t, LinearTerm):
            return X[:, [t.j]]
        if isinstance(t, FactorTerm):
            x = X[:, t.j]
            codes = np.searchsorted(self.levels, x)
            codes = np.clip(codes, 0, self.levels.size - 1)
            bad = self.levels[codes] != x
            if bad.any():
                shown = sorted({repr(float(v)) for v in x[bad]})[:5]
                raise ValueError(
                    f"column {self.column_name!r} has level(s) {shown} not seen at fit "
                    f"(levels: {[float(v) for v in self.levels]})."
                )
            return (codes[:, None] == np.arange(1, self.levels.size)[None, :]).astype(float)
        if isinstance(t, TensorTerm):
            blocks = [
                pb.cr_basis(_std(X[:, c], m), k)
                for c, k, m in zip((t.j, t.k), self.knots, self.maps, strict=True)
            ]
            return pb.tensor_rows(blocks) @ self.Z
        if isinstance(t.j, tuple):
            return self.tp.basis(_std(X[:, list(t.j)], self.maps[0])) @ self.Z
        return self._basis(_std(X[:, t.j], self.maps[0])) @ self.Z

    def _basis(self, x):
        if self.term.basis == "tp":
            return self.tp.basis(x)
        if self.term.basis == "bs":
            return pb.bs_basis(x, self.knots)
        return pb.cr_basis(x, self.knots)


def _name(t, names):
    def nm(j):
        return names[j]

    if isinstance(t, Smooth):
        return f"s({','.join(nm(c) for c in t.columns)})"
    if isinstance(t, TensorTerm):
        return f"te({nm(t.j)},{nm(t.k)})"
    return nm(t.j)


def build_blocks(owner, terms, X, names, level_names):
    """Fit the bases of ``terms`` on ``X``; returns the blocks in term order."""
    blocks = []
    for t in terms:
        b = Block(t, _name(t, names))
        if isinstance(t, LinearTerm):
            b.size = 1
            b.coef_names = [names[t.j]]
        elif isinstance(t, FactorTerm):
            x = X[:, t.j]
            b.levels = np.unique(x)
            b.column_name = names[t.j]
            shown = level_names.get(t.j)
            labels = [str(v) for v in shown] if shown is not None else [_num(v) for v in b.levels]
            b.level_labels = labels
            b.size = b.levels.size - 1
            b.coef_names = [f"{names[t.j]}{lab}" for lab in labels[1:]]
        elif isinstance(t, TensorTerm):
            mats, pens = [], []
            b.knots = []
            b.maps = []
            for c in (t.j, t.k):
                _check_unique(owner, X[:, c], t.n_basis, names[c])
                b.maps.append(_std_map(X[:, c]))
                xc = _std(X[:, c], b.maps[-1])
                kn = pb.cr_knots(xc, t.n_basis)
                b.knots.append(kn)
                mats.append(pb.cr_basis(xc, kn))
                S = pb.cr_penalty(kn)
                pens.append(S / symmetric_eigh(S, eigvals_only=True, driver="evd")[-1])
            B = pb.tensor_rows(mats)
            b.Z = pb.sum_to_zero(B)
            for S in pb.tensor_penalties(pens):
                S, _ = pb.scale_penalty(S, B)
                b.penalties.append(b.Z.T @ S @ b.Z)
            b.size = b.Z.shape[1]
            b.coef_names = [f"{b.name}.{i + 1}" for i in range(b.size)]
        elif isinstance(t, Smooth) and isinstance(t.j, tuple):
            xz = X[:, list(t.j)]
            _check_unique(owner, xz, t.n_basis, b.name)
            b.maps = [_std_map_common(xz)]
            b.tp = pb.ThinPlate(_std(xz, b.maps[0]), t.n_basis)
            B = b.tp.basis(_std(xz, b.maps[0]))
            S, _ = pb.scale_penalty(b.tp.S, B)
            b.Z = pb.sum_to_zero(B)
            b.penalties.append(b.Z.T @ S @ b.Z)
            b.size = b.Z.shape[1]
            b.coef_names = [f"{b.name}.{i + 1}" for i in range(b.size)]
        elif isinstance(t, Smooth):
            _check_unique(owner, X[:, t.j], t.n_basis, names[t.j])
            b.maps = [_std_map(X[:, t.j])]
            x = _std(X[:, t.j], b.maps[0])
            if t.basis == "tp":
                b.tp = pb.ThinPlate(x, t.n_basis)
                B, S = b.tp.basis(x), b.tp.S
            else:
                b.knots = (
                    pb.bs_knots(x, t.n_basis) if t.basis == "bs" else pb.cr_knots(x, t.n_basis)
                )
                B = b._basis(x)
                S = pb.bs_penalty(b.knots) if t.basis == "bs" else pb.cr_penalty(b.knots)
            S, _ = pb.scale_penalty(S, B)
            b.Z = pb.sum_to_zero(B)
            b.penalties.append(b.Z.T @ S @ b.Z)
            b.size = b.Z.shape[1]
            b.coef_names = [f"{b.name}.{i + 1}" for i in range(b.size)]
        else:
            raise ValueError(
                f"{owner}: {t!r} is a backfitting smoother; use method='backfitting' for ss() "
                "and lo() terms."
            )
        blocks.append(b)
    return blocks


def _std_map(x):
    """``(shift, scale)`` taking x to ``[0, 1]``: the bases and their scaled penalties are
    invariant under such maps (mgcv's penalty scaling removes the factor), and computing
    them on ``[0, 1]`` keeps data of any scale (1e±300) finite."""
    lo, hi = float(np.min(x)), float(np.max(x))
    scale = hi - lo if np.isfinite(hi - lo) and hi > lo else max(abs(lo), abs(hi), 1.0)
    if not np.isfinite(scale):  # a range beyond float64: halve first
        scale = 2.0 * (hi / 2.0 - lo / 2.0)
    return lo, scale


def _std_map_common(X):
    """Per-column shifts and one common scale (the largest range): a thin plate spline of
    several columns is isotropic, so they share the scale."""
    lo = np.min(X, axis=0)
    rng = float(np.max(np.max(X, axis=0) - lo))
    return lo, (rng if np.isfinite(rng) and rng > 0 else 1.0)


def _std(x, m):
    return (x - m[0]) / m[1] if np.isfinite(m[1]) else (x / 2.0 - m[0] / 2.0) / (m[1] / 2.0)


def _check_unique(owner, x, k, name):
    nu = np.unique(x, axis=0).shape[0] if x.ndim == 2 else np.unique(x).size
    if nu < k:
        raise ValueError(
            f"{owner}: column {name!r} has {nu} distinct value(s), fewer than the basis "
            f"dimension n_basis={k}; reduce n_basis to at most {nu} (and at least 3)."
        )


def _num(v) -> str:
    v = float(v)
    return str(int(v)) if v.is_integer() else repr(v)
