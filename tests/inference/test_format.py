"""R-style number formatting, checked against what R 4.2.2 prints.

Two sources of truth: the ``summary_text`` blocks stored in ``tests/reference/lm`` (printed by R's
``print(summary(lm))``), and single R calls whose output is written next to each case (checked by
hand in R 4.2.2).
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import LM_CASES, as_float_array
from statlearning.inference._format import (
    SIGNIF_LEGEND,
    coef_columns,
    format_g,
    format_pval,
    format_real,
    render_table,
    signif_stars,
)

CASES = LM_CASES


# --- single values and vectors, as R prints them ------------------------------------------------


@pytest.mark.parametrize(
    ("values", "digits", "expected"),
    [
        ([1, 10, 100], 7, ["  1", " 10", "100"]),  # format(c(1, 10, 100))
        ([123456789], 7, ["123456789"]),  # format(123456789)
        ([0.1234567], 3, ["0.123"]),  # format(0.1234567, digits = 3)
        ([1e-10], 7, ["1e-10"]),  # format(1e-10)
        ([0.00001234, 123], 4, ["1.234e-05", "1.230e+02"]),  # format(c(0.00001234, 123), digits=4)
        ([1e5], 7, ["1e+05"]),  # format(1e5)
        ([1e-4], 7, ["1e-04"]),  # format(0.0001)
        ([1e-3], 7, ["0.001"]),  # format(0.001): fixed wins ties with scientific
        ([-1.5, 2], 7, ["-1.5", " 2.0"]),  # format(c(-1.5, 2))
        ([1, np.nan, 3], 7, [" 1", "NA", " 3"]),  # format(c(1, NA, 3))
        ([np.inf, -np.inf, 1.5], 7, [" Inf", "-Inf", " 1.5"]),  # format(c(Inf, -Inf, 1.5))
        ([9.9996, 1], 4, ["10", " 1"]),  # format(c(9.9996, 1), digits = 4): rounding carries
        ([0.5], 1, ["0.5"]),  # format(0.5, digits = 1)
        ([1e100], 7, ["1e+100"]),  # format(1e100): three-digit exponent
        ([1.5e-100], 3, ["1.5e-100"]),  # format(1.5e-100, digits = 3)
        ([123.456, 0.001], 3, ["123.456", "  0.001"]),  # format(c(123.456, 0.001), digits = 3)
        ([-0.000012345], 3, ["-1.23e-05"]),  # format(-0.000012345, digits = 3)
        ([99999.5], 7, ["99999.5"]),  # format(99999.5)
        ([0], 7, ["0"]),  # format(0)
        ([0.0, 94.4], 4, [" 0.0", "94.4"]),  # format(c(0, 94.4), digits = 4)
        ([1 / 3], 3, ["0.333"]),  # format(1/3, digits = 3)
    ],
)
def test_format_real_matches_r(values, digits, expected):
    assert format_real(values, digits) == expected


@pytest.mark.parametrize(
    ("values", "digits", "expected"),
    [
        # format(c(2990.1516817850284, -0.0395944599186778), digits = 3)
        pytest.param(
            [2990.1516817850284, -0.0395944599186778],
            3,
            ["2990.1517", "  -0.0396"],
            id="sign-of-a-narrow-value",
        ),
        # format(c(40661284503, -306507218), digits = 5)
        pytest.param(
            [40661284503.0, -306507218.0],
            5,
            ["40661284503", " -306507218"],
            id="sign-of-a-narrow-integer",
        ),
        # format(c(-0, 5.123), digits = 4), e.g. a t value rounded by printCoefmat
        pytest.param([-0.0, 5.123], 4, ["0.000", "5.123"], id="negative-zero"),
        pytest.param([-0.0], 7, ["0"], id="negative-zero-alone"),
    ],
)
def test_format_real_sign_and_zero_like_r(values, digits, expected):
    assert format_real(values, digits) == expected


def test_format_real_na_text_and_width():
    assert format_real([np.nan, 12.5], na="--") == ["  --", "12.5"]
    out = format_real([1.25, -300.5, 7])
    assert len({len(s) for s in out}) == 1
    assert format_real([]) == []


@pytest.mark.parametrize(
    ("value", "digits", "expected"),
    [
        (0.761181, 4, "0.7612"),  # formatC(0.761181, digits = 4)
        (123456, 4, "1.235e+05"),  # formatC(123456, digits = 4)
        (0.0001234, 4, "0.0001234"),  # formatC(0.0001234, digits = 4)
        (1e-5, 4, "1e-05"),  # formatC(1e-5, digits = 4)
        (259.8123, 4, "259.8"),  # formatC(259.8123, digits = 4)
        (-2.5, 4, "-2.5"),  # formatC(-2.5, digits = 4)
        (np.nan, 4, "NA"),
        (np.inf, 4, "Inf"),
        (-np.inf, 4, "-Inf"),
    ],
)
def test_format_g_matches_r_formatc(value, digits, expected):
    assert format_g(value, digits) == expected


@pytest.mark.parametrize(
    ("pvalues", "digits", "expected"),
    [
        ([1e-20], 3, ["<2e-16"]),  # format.pval(1e-20, digits = 3)
        ([1e-20], 5, ["< 2.22e-16"]),  # format.pval(1e-20): R's default digits is 5
        ([0], 5, ["< 2.22e-16"]),  # format.pval(0)
        ([2e-20], 4, ["< 2.2e-16"]),  # format.pval(2e-20, digits = 4), summary.lm's F p-value
        ([0.00087, 9.83e-07, 1e-20], 3, ["0.00087", "9.83e-07", "< 2e-16"]),
        ([0.5, 1e-5], 3, ["0.5", "1e-05"]),  # format.pval(c(0.5, 1e-5), digits = 3)
        ([0.2, 0.00015], 3, ["0.20000", "0.00015"]),  # 1e-4 ≤ p < 1e-3 joins the fixed group
        ([np.nan, 0.3], 3, ["NA", "0.3"]),  # format.pval(c(NA, 0.3), digits = 3)
    ],
)
def test_format_pval_matches_r(pvalues, digits, expected):
    assert format_pval(pvalues, digits) == expected


def test_signif_stars_between_cutpoints():
    p = [0.0, 0.0005, 0.005, 0.03, 0.07, 0.5, 1.0, np.nan]
    assert signif_stars(p) == ["***", "***", "**", "*", ".", "", "", ""]


def test_signif_stars_at_cutpoints_match_r():
    # symnum(c(0.001, 0.01, 0.05, 0.1), cutpoints = c(0, .001, .01, .05, .1, 1), ...) in R 4.2.2
    assert signif_stars([0.001, 0.01, 0.05, 0.1]) == ["***", "**", "*", "."]


def test_signif_legend():
    assert SIGNIF_LEGEND == "Signif. codes:  0 '***' 0.001 '**' 0.01 '*' 0.05 '.' 0.1 ' ' 1"


def test_render_table_layout():
    text = render_table(["a", "long header"], [["1", "2"], ["333", "4"]], ["x", "name"])
    assert text.splitlines() == [
        "       a long header",
        "x      1           2",
        "name 333           4",
    ]


def test_render_table_strips_trailing_spaces():
    text = render_table(["h"], [[""]], ["row"])
    assert text.splitlines() == ["    h", "row"]


# --- R's printed summaries ----------------------------------------------------------------------


def _r_block(ref):
    """R's coefficient block: header, one line per term, the legend (trailing spaces dropped)."""
    lines = ref["summary_text"].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Coefficients:")) + 1
    stop = next(i for i, line in enumerate(lines) if line.startswith("---"))
    return lines[start], lines[start + 1 : stop], lines[stop + 1]


def _split_cells(header, rows):
    """Cells of R's right-aligned table, cut at the right edge of each header label."""
    labels = ["Estimate", "Std. Error", "t value", "Pr(>|t|)"]
    edges = [header.index(lab) + len(lab) for lab in labels]
    names, cells, stars = [], [], []
    for line in rows:
        name = line.split()[0]  # row names start the line and hold no spaces
        starts = [len(name), *edges[:-1]]
        names.append(name)
        cells.append([line[a:b].strip() for a, b in zip(starts, edges, strict=True)])
        stars.append(line[edges[-1] :].strip())
    return names, cells, stars


@pytest.mark.parametrize("case", CASES)
def test_coefficient_columns_match_r(lm_reference, case):
    ref = lm_reference[case]
    header, rows, _ = _r_block(ref)
    names, cells, stars = _split_cells(header, rows)
    assert names == ref["coef_names"]
    est = as_float_array(ref["coefficients"])
    se = as_float_array(ref["std_error"])
    tv = as_float_array(ref["t_value"])
    pv = as_float_array(ref["p_value"])
    ok = ~np.isnan(est)  # R prints NA rows separately
    e_txt, s_txt, t_txt = coef_columns(est[ok], se[ok], tv[ok], digits=4)
    p_txt = format_pval(pv[ok], digits=3)
    r_cells = [c for c, keep in zip(cells, ok, strict=True) if keep]
    assert [s.strip() for s in e_txt] == [c[0] for c in r_cells]
    assert [s.strip() for s in s_txt] == [c[1] for c in r_cells]
    assert [s.strip() for s in t_txt] == [c[2] for c in r_cells]
    assert p_txt == [c[3] for c in r_cells]
    assert signif_stars(pv[ok]) == [s for s, keep in zip(stars, ok, strict=True) if keep]
    assert all(c == ["NA"] * 4 for c, keep in zip(cells, ok, strict=True) if not keep)


@pytest.mark.parametrize("case", CASES)
def test_render_table_reproduces_r_layout(lm_reference, case):
    ref = lm_reference[case]
    header, rows, legend = _r_block(ref)
    names, cells, stars = _split_cells(header, rows)
    labels = ["Estimate", "Std. Error", "t value", "Pr(>|t|)"]
    text = render_table(labels, cells, names).splitlines()
    star_w = max(len(s) for s in stars)
    text = [text[0]] + [
        f"{line} {s.ljust(star_w)}" for line, s in zip(text[1:], stars, strict=True)
    ]
    assert [line.rstrip() for line in text] == [line.rstrip() for line in [header, *rows]]
    assert legend == SIGNIF_LEGEND


def _footer(ref):
    lines = ref["summary_text"].splitlines()
    return {line.split(":")[0]: line for line in lines if ":" in line}


@pytest.mark.parametrize("case", CASES)
def test_footer_numbers_match_r(lm_reference, case):
    ref = lm_reference[case]
    footer = _footer(ref)
    sigma = format_real([ref["sigma"]], 4)[0]
    assert footer["Residual standard error"].startswith(
        f"Residual standard error: {sigma} on {ref['df_residual']} degrees of freedom"
    )
    r2 = format_g(ref["r_squared"], 4)
    adj = format_g(ref["adj_r_squared"], 4)
    assert footer["Multiple R-squared"].rstrip() == (
        f"Multiple R-squared:  {r2},\tAdjusted R-squared:  {adj}"
    )
    f, numdf, dendf = ref["fstatistic"]
    p = format_pval([ref["f_pvalue"]], 4)[0]
    assert footer["F-statistic"].rstrip() == (
        f"F-statistic: {format_g(f, 4)} on {numdf:g} and {dendf:g} DF,  p-value: {p}"
    )


def _zapsmall(x, digits):
    """R's ``zapsmall``: round to ``digits`` significant digits of the largest value."""
    x = np.asarray(x, dtype=np.float64)
    mx = np.max(np.abs(x))
    decimals = max(0, int(np.floor(digits - np.log10(mx) + 0.5))) if mx > 0 else digits
    return np.round(x, decimals)


@pytest.mark.parametrize("case", CASES)
def test_residual_quantiles_match_r(lm_reference, case):
    """``print.summary.lm`` prints ``zapsmall(quantile(resid), digits + 1)`` with 4 digits."""
    ref = lm_reference[case]
    lines = ref["summary_text"].splitlines()
    i = next(i for i, line in enumerate(lines) if line.endswith("Residuals:"))
    assert lines[i + 1].split() == ["Min", "1Q", "Median", "3Q", "Max"]
    expected = lines[i + 2].split()
    zapped = _zapsmall(ref["residual_quantiles"], 5)
    assert [s.strip() for s in format_real(zapped, 4)] == expected
