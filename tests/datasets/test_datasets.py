"""Tests of statlearning.datasets: bundled data, scikit-learn wrappers and load_csv."""

import importlib.util
from collections import Counter
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
import sklearn.datasets
from sklearn.utils import Bunch

from statlearning.datasets import (
    load_biopsy,
    load_breast_cancer,
    load_csv,
    load_diabetes,
    load_gapminder,
    load_iris,
    load_wine,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"
HAS_PANDAS = importlib.util.find_spec("pandas") is not None
needs_pandas = pytest.mark.skipif(not HAS_PANDAS, reason="pandas is not installed")


def bundled(name):
    return (resources.files("statlearning.datasets") / "data" / name).read_bytes()


# --- bundled files ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["gapminder.csv", "biopsy.csv"])
def test_bundled_csv_matches_reference_copy(name):
    reference = SHARED_DATA / name
    if not reference.is_file():
        pytest.skip(f"reference copy {reference} not available")
    assert bundled(name) == reference.read_bytes()


def test_export_script_and_readme_are_bundled():
    script = bundled("export_datasets.R").decode()
    assert "Rscript export_datasets.R" in script
    assert "Artistic-2.0" in bundled("README.md").decode()


# --- scikit-learn wrappers -------------------------------------------------------------


@pytest.mark.parametrize(
    "ours, theirs",
    [
        (load_iris, sklearn.datasets.load_iris),
        (load_wine, sklearn.datasets.load_wine),
        (load_breast_cancer, sklearn.datasets.load_breast_cancer),
        (load_diabetes, sklearn.datasets.load_diabetes),
    ],
)
def test_sklearn_wrappers_return_what_sklearn_returns(ours, theirs):
    bunch = ours()
    ref = theirs()
    assert isinstance(bunch, Bunch)
    assert set(bunch) == set(ref)
    np.testing.assert_array_equal(bunch.data, ref.data)
    np.testing.assert_array_equal(bunch.target, ref.target)
    X, y = ours(return_X_y=True)
    np.testing.assert_array_equal(X, ref.data)
    np.testing.assert_array_equal(y, ref.target)
    assert ours.__doc__


def test_load_diabetes_unscaled():
    X, _ = load_diabetes(return_X_y=True, scaled=False)
    X_ref, _ = sklearn.datasets.load_diabetes(return_X_y=True, scaled=False)
    np.testing.assert_array_equal(X, X_ref)


@needs_pandas
def test_sklearn_wrapper_as_frame():
    X, y = load_iris(return_X_y=True, as_frame=True)
    assert X.shape == (150, 4)
    assert len(y) == 150


# --- gapminder -------------------------------------------------------------------------


def test_gapminder_complete_cases():
    g = load_gapminder()
    assert g.data.shape == (7139, 5)
    assert g.data.dtype == float
    assert g.feature_names == ["infant_mortality", "fertility", "population", "gdp", "year"]
    assert g.target.shape == (7139,)
    assert not np.isnan(g.data).any() and not np.isnan(g.target).any()
    assert g.year.min() == 1960 and g.year.max() == 2011
    assert g.year.dtype.kind == "i"
    np.testing.assert_array_equal(g.data[:, -1], g.year)
    assert g.target_name == "life_expectancy"
    assert g.target_names == ["life_expectancy"]
    assert g.frame is None
    for name in ("country", "continent", "region"):
        assert g[name].dtype == object and g[name].shape == (7139,)
    assert "7139" in g.DESCR and "166" in g.DESCR and "Artistic" in g.DESCR


def test_gapminder_year_2011():
    g = load_gapminder(year=2011)
    assert g.data.shape == (166, 4)
    assert g.feature_names == ["infant_mortality", "fertility", "population", "gdp"]
    assert set(g.year) == {2011}
    assert Counter(g.continent) == {
        "Africa": 49,
        "Asia": 40,
        "Europe": 39,
        "Americas": 29,
        "Oceania": 9,
    }
    assert len(set(g.country)) == 166


def test_gapminder_full_data_keeps_nan():
    g = load_gapminder(complete_cases=False)
    assert g.data.shape == (10545, 5)
    assert g.year.min() == 1960 and g.year.max() == 2016
    n_missing = dict(zip(g.feature_names, np.isnan(g.data).sum(axis=0), strict=True))
    assert n_missing == {
        "infant_mortality": 1453,
        "fertility": 187,
        "population": 185,
        "gdp": 2972,
        "year": 0,
    }
    assert len(set(g.country)) == 185
    assert load_gapminder(complete_cases=False, year=2016).data.shape == (185, 4)


def test_gapminder_values_and_quoted_names():
    g = load_gapminder(complete_cases=False, year=1960)
    i = list(g.country).index("Albania")
    assert g.target[i] == 62.87
    assert g.data[i, 2] == 1636054.0 and np.isnan(g.data[i, 3])
    assert "Congo, Dem. Rep." in set(g.country)


def test_gapminder_return_X_y():
    X, y = load_gapminder(year=2011, return_X_y=True)
    assert X.shape == (166, 4) and y.shape == (166,)


@pytest.mark.parametrize("year", [1959, 2012, 2016])
def test_gapminder_year_out_of_range(year):
    with pytest.raises(ValueError, match=r"year .*1960 and 2011"):
        load_gapminder(year=year)


@pytest.mark.parametrize("year", ["2011", 2011.0, True])
def test_gapminder_year_not_an_integer(year):
    with pytest.raises(TypeError, match="year"):
        load_gapminder(year=year)


def test_gapminder_year_numpy_integer():
    assert load_gapminder(year=np.int64(2011)).data.shape == (166, 4)


@needs_pandas
def test_gapminder_as_frame():
    g = load_gapminder(year=2011, as_frame=True)
    assert list(g.frame.columns) == [
        "country",
        "year",
        "infant_mortality",
        "life_expectancy",
        "fertility",
        "population",
        "gdp",
        "continent",
        "region",
    ]
    assert g.frame.shape == (166, 9)
    assert isinstance(g.data, np.ndarray)
    np.testing.assert_array_equal(g.frame["life_expectancy"].to_numpy(), g.target)


# --- biopsy ----------------------------------------------------------------------------


def test_biopsy():
    b = load_biopsy()
    assert b.data.shape == (699, 9)
    assert b.feature_names == [f"V{k}" for k in range(1, 10)]
    assert np.isnan(b.data).sum() == 16
    assert np.isnan(b.data[:, 5]).sum() == 16
    assert Counter(b.target) == {"benign": 458, "malignant": 241}
    assert b.target_names == ["benign", "malignant"]
    assert b.ID.shape == (699,) and b.ID[0] == "1000025"
    assert b.feature_descriptions["V1"] == "clump thickness"
    assert b.feature_descriptions["V6"] == "bare nuclei"
    assert b.feature_descriptions["V9"] == "mitoses"
    assert "Wolberg" in b.DESCR and "9193" in b.DESCR
    assert b.frame is None


def test_biopsy_complete_cases():
    X, y = load_biopsy(complete_cases=True, return_X_y=True)
    assert X.shape == (683, 9) and y.shape == (683,)
    assert not np.isnan(X).any()
    assert np.all((X >= 1) & (X <= 10))


@needs_pandas
def test_biopsy_as_frame():
    b = load_biopsy(as_frame=True)
    assert list(b.frame.columns) == ["ID", *b.feature_names, "class"]
    assert b.frame.shape == (699, 11)


# --- load_csv --------------------------------------------------------------------------


def write(tmp_path, text, name="data.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


TOY = (
    '"y","x","continent","label"\n'
    '1.5,1,"Europe","a"\n'
    "2.5,2,Asia,b\n"
    '3.5,3,"Africa","a"\n'
    "4.5,4,Asia,b\n"
)


def test_load_csv_numeric_and_treatment_coding(tmp_path):
    b = load_csv(write(tmp_path, TOY), "y")
    assert b.feature_names == ["x", "continentAsia", "continentEurope", "labelb"]
    assert b.baselines == {"continent": "Africa", "label": "a"}
    np.testing.assert_array_equal(
        b.data,
        [[1, 0, 1, 0], [2, 1, 0, 1], [3, 0, 0, 0], [4, 1, 0, 1]],
    )
    assert b.data.dtype == float
    np.testing.assert_array_equal(b.target, [1.5, 2.5, 3.5, 4.5])
    assert b.target.dtype == float
    assert b.target_name == "y"
    assert b.dropped_rows == 0
    assert b.frame is None


def test_load_csv_features_and_drop(tmp_path):
    path = write(tmp_path, TOY)
    b = load_csv(path, "y", features=["continent", "x"])
    assert b.feature_names == ["continentAsia", "continentEurope", "x"]
    b = load_csv(path, "y", drop=["label"])
    assert b.feature_names == ["x", "continentAsia", "continentEurope"]
    assert b.baselines == {"continent": "Africa"}


def test_load_csv_string_target(tmp_path):
    b = load_csv(write(tmp_path, TOY), "label", drop=["continent"])
    assert b.target.tolist() == ["a", "b", "a", "b"]
    assert b.feature_names == ["y", "x"]


def test_load_csv_levels_sorted_lexicographically(tmp_path):
    text = "y,g\n1,b\n2,B\n3,a\n4,c\n"
    b = load_csv(write(tmp_path, text), "y")
    assert b.baselines == {"g": "B"}
    assert b.feature_names == ["ga", "gb", "gc"]


def test_load_csv_single_level_dropped_with_warning(tmp_path):
    text = "y,x,g\n1,1,a\n2,3,a\n"
    with pytest.warns(UserWarning, match="'g'.*single level"):
        b = load_csv(write(tmp_path, text), "y")
    assert b.feature_names == ["x"]
    assert b.baselines == {}


def test_load_csv_too_many_levels(tmp_path):
    rows = "".join(f"{i},id{i}\n" for i in range(60))
    path = write(tmp_path, "y,country\n" + rows)
    with pytest.raises(ValueError, match=r"'country' has 60 distinct levels.*drop=\['country'\]"):
        load_csv(path, "y")
    assert load_csv(path, "y", max_levels=60).data.shape == (60, 59)


def test_load_csv_categorical_error(tmp_path):
    with pytest.raises(ValueError, match=r"non-numeric feature column\(s\): 'continent', 'label'"):
        load_csv(write(tmp_path, TOY), "y", categorical="error")


def test_load_csv_na_error(tmp_path):
    text = "y,x,z\n1,NA,1\n2,,2\n3,3,\n4,4,4\n"
    with pytest.raises(ValueError, match=r"'x' \(2\), 'z' \(1\).*na='drop'"):
        load_csv(write(tmp_path, text), "y")


def test_load_csv_na_drop(tmp_path):
    text = "y,x,z,unused\n1,NA,1,NA\n2,,2,1\n3,3,,1\n4,4,4,NA\n5,5,5,1\nNA,6,6,1\n"
    path = write(tmp_path, text)
    b = load_csv(path, "y", features=["x", "z"], na="drop")
    assert b.dropped_rows == 4
    np.testing.assert_array_equal(b.data, [[4, 4], [5, 5]])
    np.testing.assert_array_equal(b.target, [4, 5])


def test_load_csv_na_in_categorical_column(tmp_path):
    text = "y,g\n1,a\n2,NA\n3,b\n"
    b = load_csv(write(tmp_path, text), "y", na="drop")
    assert b.dropped_rows == 1
    assert b.feature_names == ["gb"]


def test_load_csv_quoted_fields(tmp_path):
    text = 'y,name,x\n1,"Congo, Dem. Rep.",1\n2,"say ""hi""",2\n3,plain,3\n'
    b = load_csv(write(tmp_path, text), "y")
    assert b.baselines == {"name": "Congo, Dem. Rep."}
    assert b.feature_names == ["nameplain", 'namesay "hi"', "x"]


def test_load_csv_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"no such file: '.*nope\.csv'"):
        load_csv(tmp_path / "nope.csv", "y")


def test_load_csv_missing_target(tmp_path):
    with pytest.raises(ValueError, match=r"'z' not found; available columns: y, x, continent"):
        load_csv(write(tmp_path, TOY), "z")


def test_load_csv_unknown_feature(tmp_path):
    with pytest.raises(ValueError, match=r"features entry 'w' not found"):
        load_csv(write(tmp_path, TOY), "y", features=["x", "w"])
    with pytest.raises(ValueError, match=r"drop entry 'w' not found"):
        load_csv(write(tmp_path, TOY), "y", drop=["w"])


def test_load_csv_target_in_features(tmp_path):
    with pytest.raises(ValueError, match="target 'y' is also listed in features"):
        load_csv(write(tmp_path, TOY), "y", features=["x", "y"])


def test_load_csv_empty_file(tmp_path):
    with pytest.raises(ValueError, match="empty file"):
        load_csv(write(tmp_path, ""), "y")


def test_load_csv_header_only(tmp_path):
    with pytest.raises(ValueError, match="header but no data rows"):
        load_csv(write(tmp_path, "y,x\n"), "y")


def test_load_csv_duplicated_column(tmp_path):
    with pytest.raises(ValueError, match=r"duplicated column name\(s\).*'x'"):
        load_csv(write(tmp_path, "y,x,x\n1,2,3\n"), "y")


def test_load_csv_ragged_row(tmp_path):
    # A short row is padded with missing values (R's read.csv, fill = TRUE); a long one is an error.
    with pytest.raises(ValueError, match=r"missing values .* 'z' \(1\)"):
        load_csv(write(tmp_path, "y,x,z\n1,2,3\n1,2\n"), "y")
    with pytest.raises(ValueError, match=r"Expected 3 fields in line 3, saw 4"):
        load_csv(write(tmp_path, "y,x,z\n1,2,3\n1,2,3,4\n"), "y")


@pytest.mark.parametrize(
    "kwargs, match",
    [({"categorical": "dummy"}, "categorical"), ({"na": "omit"}, "na")],
)
def test_load_csv_invalid_options(tmp_path, kwargs, match):
    with pytest.raises(ValueError, match=match):
        load_csv(write(tmp_path, TOY), "y", **kwargs)


@needs_pandas
def test_load_csv_as_frame(tmp_path):
    b = load_csv(write(tmp_path, TOY), "y", as_frame=True)
    assert list(b.frame.columns) == b.feature_names
    np.testing.assert_array_equal(b.frame.to_numpy(), b.data)
    assert isinstance(b.data, np.ndarray)


def test_load_csv_as_frame_without_pandas(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("No module named 'pandas'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(ImportError, match=r"as_frame=True\) requires pandas"):
        load_csv(write(tmp_path, TOY), "y", as_frame=True)
    with pytest.raises(ImportError, match="requires pandas"):
        load_gapminder(as_frame=True)


def test_load_csv_on_bundled_gapminder():
    path = resources.files("statlearning.datasets") / "data" / "gapminder.csv"
    with resources.as_file(path) as p:
        b = load_csv(p, "life_expectancy", drop=["country", "region"], na="drop")
        with pytest.raises(ValueError, match=r"'country'.*drop=\['country'\]"):
            load_csv(p, "life_expectancy", na="drop")
    assert b.data.shape == (7139, 9)
    assert b.dropped_rows == 10545 - 7139
    assert b.baselines == {"continent": "Africa"}
    assert b.feature_names[-4:] == [
        "continentAmericas",
        "continentAsia",
        "continentEurope",
        "continentOceania",
    ]
