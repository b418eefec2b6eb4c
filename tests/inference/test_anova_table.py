"""AnovaTable: R's print.anova layout, to_frame and HTML."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

from statlearning.inference._anova import AnovaTable

NAN = np.nan


def _table(p=0.0123, columns=None, values=None):
    columns = columns or ["Resid. Df", "Resid. Dev", "Df", "Deviance", "Pr(>Chi)"]
    if values is None:
        values = [[30, 43.2297, NAN, NAN, NAN], [28, 29.5, 2, 13.7297, p]]
    return AnovaTable(
        title="Analysis of Deviance Table",
        models=["y ~ a", "y ~ a + b + c"],
        columns=columns,
        values=np.array(values, dtype=float),
    )


def test_prints_heading_table_and_stars_as_r():
    lines = str(_table()).splitlines()
    assert lines[:4] == [
        "Analysis of Deviance Table",
        "",
        "Model 1: y ~ a",
        "Model 2: y ~ a + b + c",
    ]
    # R 4.2.2's print of the same anova object
    assert lines[4] == "  Resid. Df Resid. Dev Df Deviance Pr(>Chi)"
    assert lines[5] == "1        30      43.23"
    assert lines[6] == "2        28      29.50  2    13.73   0.0123 *"
    assert lines[7:] == ["---", "Signif. codes:  0 '***' 0.001 '**' 0.01 '*' 0.05 '.' 0.1 ' ' 1"]


def test_no_stars_and_no_legend_when_nothing_is_below_0_1():
    text = str(_table(p=0.5))
    assert "Signif. codes" not in text and "---" not in text
    assert text.splitlines()[-1].endswith("0.5")


def test_tiny_p_values_print_below_machine_epsilon():
    assert "< 2.2e-16 ***" in str(_table(p=1e-30))


def test_columns_are_zapped_and_formatted_jointly_as_r():
    values = [[30, 1000.0, NAN, NAN, NAN], [28, 999.99999, 2, 1e-5, 0.9]]
    lines = str(_table(values=values)).splitlines()
    assert lines[5:] == [  # R 4.2.2's print of the same anova object
        "1        30       1000",
        "2        28       1000  2    1e-05      0.9",
    ]


def test_to_frame_keeps_r_column_names():
    pytest.importorskip("pandas")
    frame = _table().to_frame()
    assert list(frame.columns) == ["Resid. Df", "Resid. Dev", "Df", "Deviance", "Pr(>Chi)"]
    assert list(frame.index) == [1, 2]
    assert frame.index.name == "model"
    assert np.isnan(frame.loc[1, "Df"]) and frame.loc[2, "Df"] == 2


def test_html_is_well_formed_and_escaped():
    table = _table()
    table.models = ["y ~ a < b", "y ~ a & b"]
    root = ET.fromstring(table._repr_html_())
    assert root.find("h4").text == "Analysis of Deviance Table"
    assert [li.find("code").text for li in root.find("ol")] == ["y ~ a < b", "y ~ a & b"]
    cells = [td.text for td in root.find("table").find("tbody").findall("tr")[0].findall("td")]
    assert cells == ["30", "43.2297", None, None, None]


def test_many_models_pad_the_model_numbers():
    table = AnovaTable(
        title="Analysis of Deviance Table",
        models=[f"y ~ x{i}" for i in range(10)],
        columns=["Resid. Df", "Resid. Dev"],
        values=np.column_stack([np.arange(20, 10, -1), np.linspace(50, 30, 10)]),
    )
    lines = str(table).splitlines()
    assert lines[2] == "Model  1: y ~ x0" and lines[11] == "Model 10: y ~ x9"
    assert repr(table) == str(table)
