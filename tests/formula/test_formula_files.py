"""Models fitted through formulas in model files: the encoding kept as plain data."""

from __future__ import annotations

import pickle
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("formulaic")
pytest.importorskip("skops")

import skops.io as sio

from statlearning.formula import FormulaTransformer, gam, glm, lm
from statlearning.io import load, save

REF = Path(__file__).resolve().parents[1] / "reference" / "formula"


def _gapminder():
    return pd.read_csv(REF / "gapminder2011.csv")


def _binomial():
    return pd.read_csv(REF / "binomial.csv")


FITS = {
    "lm": lambda: (
        lm(
            "life_expectancy ~ bs(infant_mortality, df = 4) + ns(fertility, df = 3) + "
            "poly(log(gdp), 2) + C(continent) + fertility:infant_mortality",
            _gapminder(),
        ),
        _gapminder(),
    ),
    "glm": lambda: (
        glm("s ~ poly(x, 2) + C(grp) + offset(log(s + f))", _binomial(), family="poisson"),
        _binomial(),
    ),
    "glm_binomial": lambda: (
        glm("cbind(s, f) ~ bs(x, df = 3) + grp", _binomial(), family="binomial"),
        _binomial(),
    ),
    "gam": lambda: (
        gam("life_expectancy ~ s(infant_mortality) + s(fertility) + C(continent)", _gapminder()),
        _gapminder(),
    ),
}


def _plain(value):
    """Every leaf of a getstate is plain data or a statlearning object."""
    if isinstance(value, dict):
        return all(_plain(v) for v in value.values())
    if isinstance(value, list | tuple):
        return all(_plain(v) for v in value)
    if value is None or isinstance(value, str | int | float | bool | np.ndarray | np.generic):
        return True
    return type(value).__module__.startswith("statlearning")


@pytest.mark.parametrize("case", sorted(FITS))
def test_model_file_round_trip(case, tmp_path):
    fit, data = FITS[case]()
    path = save(fit, tmp_path / f"{case}.skops")
    untrusted = sio.get_untrusted_types(file=path)
    assert all(t.startswith("statlearning.") for t in untrusted), untrusted
    back = load(path)  # the default trust: no type named
    new = data.dropna().sample(frac=1.0, random_state=0)
    new = new[list(reversed(new.columns))].assign(extra=1.0)  # reordered, one extra column
    np.testing.assert_array_equal(back.predict(new), fit.predict(new))
    assert str(back.summary()) == str(fit.summary())
    assert list(back.transformer.get_feature_names_out()) == list(
        fit.transformer.get_feature_names_out()
    )


def test_transformer_state_is_plain_and_pickles():
    data = _gapminder().dropna()
    t = FormulaTransformer(
        "~ bs(infant_mortality, df = 4) + poly(fertility, 3) + C(continent) + center(gdp)"
    ).fit(data)
    state = t.__getstate__()
    assert isinstance(state["model_spec_"], dict) and _plain(state)
    back = pickle.loads(pickle.dumps(t))
    np.testing.assert_array_equal(back.transform(data.iloc[::-1]), t.transform(data.iloc[::-1]))
    new = data.iloc[:3].assign(continent=["Europe", "Atlantis", "Asia"])
    with pytest.raises(ValueError, match="'Atlantis'"):
        back.transform(new)
    with pytest.raises(ValueError, match="column 'fertility' missing"):
        back.transform(data.drop(columns="fertility"))


def test_offset_terms_are_not_coefficients():
    data = _binomial()
    fit = glm("s ~ x + offset(log(s + f))", data, family="poisson")
    assert list(fit.transformer.get_feature_names_out()) == ["x"]
    assert fit.transformer.offset_terms_ == ["log(s + f)"]
    explicit = glm("s ~ x", data.assign(t=np.log(data.s + data.f)), family="poisson", offset="t")
    np.testing.assert_allclose(fit.coef_, explicit.coef_, rtol=1e-12)
    doubled = data.assign(f=2 * data.f + data.s)  # exposure s + f doubled: rates halve
    np.testing.assert_allclose(fit.predict(doubled), 2 * fit.predict(data), rtol=1e-12)
    with pytest.raises(ValueError, match="offset"):
        fit.predict(data.drop(columns="f"))
    with pytest.raises(ValueError, match="a term of its own"):
        lm("s ~ x * offset(f)", data)
