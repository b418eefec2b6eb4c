"""Number formatting that prints like R.

R decides, for a whole column at once, between fixed and scientific notation and on a common number
of decimals (``formatReal`` in R's C sources): every value gets at most ``digits`` significant
digits, trailing zeros are dropped, the column uses the largest number of decimals any value needs,
and scientific notation wins when it is narrower. ``format_pval`` follows R's ``format.pval`` and
``coef_columns`` R's ``printCoefmat``.
"""

from __future__ import annotations

import math

import numpy as np

DOUBLE_EPS = float(np.finfo(np.float64).eps)  # R's .Machine$double.eps


def _sci_parts(x: float, digits: int) -> tuple[int, int]:
    """(exponent, number of significant digits) of ``x`` rounded to ``digits`` digits."""
    alpha = abs(x)
    kp = math.floor(math.log10(alpha))
    mant = round(alpha / 10.0**kp * 10 ** (digits - 1))
    if mant >= 10**digits:  # rounding carried into a new digit (9.9996 -> 10.00)
        kp += 1
        mant = round(mant / 10)
    nsig = digits
    while nsig > 1 and mant % 10 == 0:
        mant //= 10
        nsig -= 1
    return kp, nsig


def format_real(values, digits: int = 7, na: str = "NA") -> list[str]:
    """Format numbers jointly as R's ``format(x, digits=digits)`` does.

    Parameters
    ----------
    values : array-like of float
    digits : int
        Significant digits for the value needing the most.
    na : str
        Text for NaN.

    Returns
    -------
    list of str, right-aligned to a common width.
    """
    x = np.asarray(values, dtype=np.float64).ravel() + 0.0  # + 0.0 turns -0.0 into 0.0
    finite = [v for v in x if np.isfinite(v)]
    nonzero = [v for v in finite if v != 0.0]
    neg = any(v < 0 for v in finite)
    if nonzero:
        parts = [_sci_parts(v, digits) for v in nonzero]
        rgt = max(max(0, nsig - kp - 1) for kp, nsig in parts)
        # fixed notation: the sign counts for the value that carries it (R's `sleft`)
        sleft = max((v < 0) + max(1, kp + 1) for v, (kp, _) in zip(nonzero, parts, strict=True))
        width_fixed = sleft + (rgt + 1 if rgt else 0)
        mxns = max(nsig for _, nsig in parts)
        big_exp = any(abs(kp) >= 100 for kp, _ in parts)
        width_sci = neg + mxns + (mxns > 1) + 4 + big_exp
        sci = width_fixed > width_sci
        sci_dec = mxns - 1
    else:
        rgt, sci, sci_dec = 0, False, 0
    out = []
    for v in x:
        if np.isnan(v):
            out.append(na)
        elif np.isinf(v):
            out.append("Inf" if v > 0 else "-Inf")
        elif sci:
            out.append(_r_sci(v, sci_dec))
        else:
            out.append(f"{v:.{rgt}f}")
    width = max((len(s) for s in out), default=0)
    return [s.rjust(width) for s in out]


def _r_sci(v: float, decimals: int) -> str:
    """Scientific notation with R's two-digit signed exponent (``1.5e-07``)."""
    mant, exp = f"{v:.{decimals}e}".split("e")
    return f"{mant}e{int(exp):+03d}"


def format_g(value: float, digits: int = 4) -> str:
    """R's ``formatC(x, digits=digits)`` (C's ``%g``) for a single number."""
    if not np.isfinite(value):
        return "NA" if np.isnan(value) else ("Inf" if value > 0 else "-Inf")
    s = f"{value:.{digits}g}"
    if "e" in s:
        mant, exp = s.split("e")
        s = f"{mant}e{int(exp):+03d}"
    return s


def format_c(value: float, digits: int = 4) -> str:
    """R's ``formatC(x, digits=digits)`` with its default width ``digits + 1`` (``" 72.6"``)."""
    return format_g(value, digits).rjust(digits + 1)


def format_pval(pvalues, digits: int = 3, eps: float = DOUBLE_EPS) -> list[str]:
    """Format p-values as R's ``format.pval``: values below ``eps`` print as ``<2e-16``."""
    p = np.asarray(pvalues, dtype=np.float64).ravel()
    out = ["NA"] * p.size
    is_na = np.isnan(p)
    is0 = ~is_na & (p < eps)
    rest = ~is_na & ~is0
    formatted_rest: list[str] = []
    if rest.any():
        pv = p[rest]
        expo = np.floor(np.log10(np.where(pv > 0, pv, 1e-50)))
        fixp = (expo >= -3) | ((expo == -4) & (digits > 1)) | (pv == 0)
        rr = np.empty(pv.size, dtype=object)
        if fixp.any():
            rr[fixp] = [s.strip() for s in format_real(pv[fixp], digits)]
        if (~fixp).any():
            rr[~fixp] = [s.strip() for s in format_real(pv[~fixp], digits)]
        formatted_rest = list(rr)
        for i, s in zip(np.flatnonzero(rest), formatted_rest, strict=True):
            out[i] = s
    if is0.any():
        d = max(1, digits - 2)
        if formatted_rest:
            nc = max(len(s) for s in formatted_rest)
            if d > 1 and d + 6 > nc:
                d = max(1, nc - 7)
            sep = "" if (d == 1 and nc <= 6) else " "
        else:
            sep = "" if d == 1 else " "
        text = "<" + sep + format_real([eps], d)[0].strip()
        for i in np.flatnonzero(is0):
            out[i] = text
    return out


def signif_stars(pvalues) -> list[str]:
    """R's significance codes, intervals closed on the right as in R's ``symnum``:
    ``***`` for p ≤ 0.001, ``**`` ≤ 0.01, ``*`` ≤ 0.05, ``.`` ≤ 0.1."""
    stars = []
    for p in np.asarray(pvalues, dtype=np.float64).ravel():
        if np.isnan(p):
            stars.append("")
        elif p <= 0.001:
            stars.append("***")
        elif p <= 0.01:
            stars.append("**")
        elif p <= 0.05:
            stars.append("*")
        elif p <= 0.1:
            stars.append(".")
        else:
            stars.append("")
    return stars


SIGNIF_LEGEND = "Signif. codes:  0 '***' 0.001 '**' 0.01 '*' 0.05 '.' 0.1 ' ' 1"


def coef_columns(estimate, std_error, statistic, digits: int = 4) -> tuple[list, list, list]:
    """Format the estimate, standard-error and statistic columns as R's ``printCoefmat``.

    Estimates and standard errors are rounded together to ``digits - digmin`` decimals
    (``digmin = 1 + floor(log10(min |value|))``) and then formatted jointly; statistics are
    rounded to ``digits - 1`` decimals and formatted with ``digits`` significant digits.
    """
    est = np.asarray(estimate, dtype=np.float64)
    se = np.asarray(std_error, dtype=np.float64)
    both = np.concatenate([est, se])
    acs = np.abs(both[np.isfinite(both) & (both != 0)])
    if acs.size:
        digmin = 1 + math.floor(math.log10(acs.min()))
        both = np.round(both, max(1, digits - digmin))
    joint = format_real(both, digits)
    dig_tst = max(1, min(5, digits - 1))
    stat = format_real(np.round(np.asarray(statistic, dtype=np.float64), dig_tst), digits)
    return joint[: est.size], joint[est.size :], stat


def zapsmall(values, digits: int) -> np.ndarray:
    """R's ``zapsmall``: round to ``digits − log10(max |x|)`` decimals (rounded to an integer,
    as R's ``round`` does with a fractional ``digits``)."""
    x = np.asarray(values, dtype=np.float64)
    finite = x[np.isfinite(x)]
    mx = float(np.max(np.abs(finite))) if finite.size else 0.0
    d = max(0.0, digits - math.log10(mx)) if mx > 0 else float(digits)
    return np.round(x, math.floor(d + 0.5))


def render_table(header: list[str], rows: list[list[str]], row_names: list[str]) -> str:
    """A character matrix printed as R prints one: row names left, cells right-aligned."""
    name_w = max((len(r) for r in row_names), default=0)
    cols = list(zip(*rows, strict=True)) if rows else [[] for _ in header]
    widths = [max([len(h), *(len(c) for c in col)]) for h, col in zip(header, cols, strict=True)]
    lines = [" " * name_w + "".join(" " + h.rjust(w) for h, w in zip(header, widths, strict=True))]
    for name, row in zip(row_names, rows, strict=True):
        cells = "".join(" " + c.rjust(w) for c, w in zip(row, widths, strict=True))
        lines.append(name.ljust(name_w) + cells)
    return "\n".join(line.rstrip() for line in lines)
