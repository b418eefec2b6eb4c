"""Term constructors of the additive models: ``s``, ``ss``, ``lo``, ``l``, ``f``, ``te``.

Each constructor returns a small immutable object naming its column(s) (an index, or a
column name of the DataFrame given to ``fit``) and its settings. Terms add up: ``s(0) + s(1)
+ f("continent")`` is a :class:`Terms` tuple, the ``terms`` argument of the estimators.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral, Real

__all__ = ["Term", "Terms", "f", "l", "lo", "s", "ss", "te"]

_BASES = ("cr", "bs", "tp")


class Terms(tuple):
    """A tuple of terms; ``+`` appends a term or another :class:`Terms`.

    Parameters
    ----------
    iterable : iterable of terms
        The terms, in order.
    """

    def __add__(self, other):
        if isinstance(other, Term):
            return Terms((*self, other))
        if isinstance(other, tuple):
            return Terms((*self, *other))
        return NotImplemented

    def __repr__(self) -> str:
        return " + ".join(repr(t) for t in self) if self else "Terms()"


class Term:
    """Base of the term objects; ``a + b`` gives :class:`Terms`."""

    kind = ""

    def __add__(self, other):
        return Terms((self,)) + other

    @property
    def columns(self) -> tuple:
        """The column(s) the term reads."""
        return (self.j,)


def _check_column(j, owner):
    if isinstance(j, bool) or not isinstance(j, (Integral, str)):
        raise TypeError(
            f"{owner}: the column must be an integer index or a column name; got {j!r}."
        )
    return int(j) if isinstance(j, Integral) else j


def _check_lam(lam, owner):
    if lam is None:
        return None
    if isinstance(lam, bool) or not isinstance(lam, Real) or not lam >= 0:
        raise ValueError(f"{owner}: lam must be a non-negative number or None; got {lam!r}.")
    return float(lam)


def _fmt(j) -> str:
    return repr(j)


@dataclass(frozen=True, repr=False)
class Smooth(Term):
    """A penalised regression spline ``s(j)``; see :func:`s`."""

    j: object
    n_basis: int = 10
    basis: str = "cr"
    lam: float | None = None
    kind = "s"

    @property
    def columns(self) -> tuple:
        """The column(s) the term reads (two for a bivariate thin plate spline)."""
        return tuple(self.j) if isinstance(self.j, tuple) else (self.j,)

    def __repr__(self) -> str:
        extra = "" if self.basis == "cr" else f", basis={self.basis!r}"
        extra += "" if self.lam is None else f", lam={self.lam!r}"
        return f"s({_fmt(self.j)}, n_basis={self.n_basis}{extra})"


@dataclass(frozen=True, repr=False)
class SmoothingSplineTerm(Term):
    """A smoothing-spline smoother ``ss(j, df)`` for backfitting; see :func:`ss`."""

    j: object
    df: float = 4.0
    kind = "ss"

    def __repr__(self) -> str:
        return f"ss({_fmt(self.j)}, df={self.df!r})"


@dataclass(frozen=True, repr=False)
class LoessTerm(Term):
    """A loess smoother ``lo(j, span)`` for backfitting; see :func:`lo`."""

    j: object
    span: float = 0.5
    degree: int = 1
    kind = "lo"

    def __repr__(self) -> str:
        return f"lo({_fmt(self.j)}, span={self.span!r}, degree={self.degree})"


@dataclass(frozen=True, repr=False)
class LinearTerm(Term):
    """A linear term ``l(j)``; see :func:`l`."""

    j: object
    kind = "l"

    def __repr__(self) -> str:
        return f"l({_fmt(self.j)})"


@dataclass(frozen=True, repr=False)
class FactorTerm(Term):
    """A treatment-coded factor ``f(j)``; see :func:`f`."""

    j: object
    kind = "f"

    def __repr__(self) -> str:
        return f"f({_fmt(self.j)})"


@dataclass(frozen=True, repr=False)
class TensorTerm(Term):
    """A tensor-product smooth ``te(j, k)``; see :func:`te`."""

    j: object
    k: object
    n_basis: int = 5
    kind = "te"

    @property
    def columns(self) -> tuple:
        """The two columns of the tensor product."""
        return (self.j, self.k)

    def __repr__(self) -> str:
        return f"te({_fmt(self.j)}, {_fmt(self.k)}, n_basis={self.n_basis})"


def s(j, n_basis=10, basis="cr", lam=None):
    """A penalised regression spline of one column (mgcv's ``s(x, bs=, k=, sp=)``).

    Parameters
    ----------
    j : int or str, or tuple of two
        Column index, or column name of the DataFrame given to ``fit``; two columns
        ``(j1, j2)`` make an isotropic smooth of both (``basis="tp"`` only, mgcv's
        ``s(x, z)``).
    n_basis : int, default=10
        Basis dimension (mgcv's ``k``) before the sum-to-zero constraint removes one
        (mgcv's default for two columns is 30).
    basis : {"cr", "bs", "tp"}, default="cr"
        Cubic regression spline, B-spline with a second-derivative penalty (mgcv's ``"bs"``)
        or mgcv's thin plate regression spline ``"tp"`` (Wood, 2003: the ``n_basis``
        leading eigenvectors of the thin plate radial basis at the unique values, at most
        2,000 of them; mgcv's default basis, here not the default).
    lam : float, default=None
        A fixed smoothing parameter on mgcv's ``sp`` scale; ``None`` chooses it.

    Returns
    -------
    Smooth
        The term.

    Examples
    --------
    >>> from statlearning.gam import s
    >>> s(0) + s("x2", n_basis=5)
    s(0, n_basis=10) + s('x2', n_basis=5)
    """
    owner = "s()"
    if isinstance(j, (tuple, list)):
        if len(j) != 2 or basis != "tp":
            raise ValueError(
                f"{owner}: a smooth of several columns takes two of them and basis='tp'; got "
                f"{tuple(j)!r} with basis={basis!r}."
            )
        j = tuple(_check_column(c, owner) for c in j)
    else:
        j = _check_column(j, owner)
    if isinstance(n_basis, bool) or not isinstance(n_basis, Integral) or n_basis < 3:
        raise ValueError(f"{owner}: n_basis must be an integer >= 3; got {n_basis!r}.")
    if basis not in _BASES:
        raise ValueError(f"{owner}: basis must be one of {list(_BASES)}; got {basis!r}.")
    if basis == "bs" and n_basis < 4:
        raise ValueError(f"{owner}: basis='bs' needs n_basis >= 4; got {n_basis}.")
    return Smooth(j, int(n_basis), basis, _check_lam(lam, owner))


def ss(j, df=4):
    """A smoothing spline with ``df`` degrees of freedom (R gam's ``s(x, df)``).

    For ``method="backfitting"``.

    Parameters
    ----------
    j : int or str
        Column index or name.
    df : float, default=4
        The smoother's degrees of freedom excluding the constant (gam's convention: the
        smoother's trace is ``df + 1``).

    Returns
    -------
    SmoothingSplineTerm
        The term.

    Examples
    --------
    >>> from statlearning.gam import ss
    >>> ss(0, df=5)
    ss(0, df=5.0)
    """
    j = _check_column(j, "ss()")
    if isinstance(df, bool) or not isinstance(df, Real) or not df > 0:
        raise ValueError(f"ss(): df must be a positive number; got {df!r}.")
    return SmoothingSplineTerm(j, float(df))


def lo(j, span=0.5, degree=1):
    """A loess smoother (R gam's ``lo(x, span, degree)``), for ``method="backfitting"``.

    Parameters
    ----------
    j : int or str
        Column index or name.
    span : float, default=0.5
        Fraction of the data in each local neighbourhood.
    degree : {1, 2}, default=1
        Degree of the local polynomials.

    Returns
    -------
    LoessTerm
        The term.

    Examples
    --------
    >>> from statlearning.gam import lo
    >>> lo(1, span=0.3)
    lo(1, span=0.3, degree=1)
    """
    j = _check_column(j, "lo()")
    if isinstance(span, bool) or not isinstance(span, Real) or not 0 < span <= 1:
        raise ValueError(f"lo(): span must be in (0, 1]; got {span!r}.")
    if degree not in (1, 2):
        raise ValueError(f"lo(): degree must be 1 or 2; got {degree!r}.")
    return LoessTerm(j, float(span), int(degree))


def l(j):  # noqa: E743 - the name of the term in the notes and in pyGAM
    """A linear term ``β x`` of one column.

    Parameters
    ----------
    j : int or str
        Column index or name.

    Returns
    -------
    LinearTerm
        The term.

    Examples
    --------
    >>> from statlearning.gam import l
    >>> l("year")
    l('year')
    """
    return LinearTerm(_check_column(j, "l()"))


def f(j):
    """A factor, treatment coded against its first level (R's default contrasts).

    The levels are the sorted distinct values of the column at ``fit`` (a pandas
    ``category`` column keeps its categories' order); a level not seen at fit is an error at
    prediction.

    Parameters
    ----------
    j : int or str
        Column index or name.

    Returns
    -------
    FactorTerm
        The term.

    Examples
    --------
    >>> from statlearning.gam import f
    >>> f("continent")
    f('continent')
    """
    return FactorTerm(_check_column(j, "f()"))


def te(j, k, n_basis=5):
    """A tensor-product smooth of two columns (mgcv's ``te(x, z, bs="cr", k=)``).

    Cubic regression spline margins of dimension ``n_basis`` each; one penalty per margin,
    each with its own smoothing parameter.

    Parameters
    ----------
    j, k : int or str
        The two columns.
    n_basis : int, default=5
        Dimension of each marginal basis.

    Returns
    -------
    TensorTerm
        The term.

    Examples
    --------
    >>> from statlearning.gam import te
    >>> te(0, 1)
    te(0, 1, n_basis=5)
    """
    j = _check_column(j, "te()")
    k = _check_column(k, "te()")
    if j == k:
        raise ValueError(f"te(): the two columns must differ; got {j!r} twice.")
    if isinstance(n_basis, bool) or not isinstance(n_basis, Integral) or n_basis < 3:
        raise ValueError(f"te(): n_basis must be an integer >= 3; got {n_basis!r}.")
    return TensorTerm(j, k, int(n_basis))
