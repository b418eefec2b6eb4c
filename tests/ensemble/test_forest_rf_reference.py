"""Random forests against R's randomForest 4.7-1.1 (tests/reference/randomforest/).

R's forests and ours use different random streams, so single fits differ; over 20 seeds the
mean final OOB error and the mean unscaled permutation importance of every variable must agree
within 4 standard errors of the difference of the two means (a z-type test; each standard error
from the 20 per-seed values), and the importance rankings must agree. Ties between equally good
splits are broken at random, as in R (the trees' ``tie_break="random"``; with the earlier
column always winning, V1 gained 12%: 0.0407 against R's 0.0362). One documented allowance
remains for the classification forest on biopsy: R draws exactly ``mtry`` candidate columns
at a node even when some are constant there, while we draw further columns (scikit-learn's
rule); mitoses (V9, constant in most small nodes) then gets 0.0034 against R's 0.0025 and the
other importances move by up to 11% (V5, z = 3.9). Each classification importance may
therefore also differ by 15% of R's value or by 0.001 (0.1 percentage point of accuracy).
Over 20 seeds: OOB error 0.0264 against R's 0.0269; the rankings agree without allowance.
Settings map exactly (see RandomForestClassifier's Notes): classification ntree=500,
mtry=floor(sqrt(9))=3, nodesize=1 -> min_samples_split=2, majority vote (voting="hard");
regression ntree=500, mtry=max(floor(3/3),1)=1, nodesize=5 -> min_samples_split=6.
"""

import numpy as np
import pandas as pd
import pytest

from conftest import REFERENCE
from statlearning.ensemble import RandomForestClassifier, RandomForestRegressor

DIR = REFERENCE / "randomforest"
Z_MAX = 4.0


def _data(model):
    if model == "classification":
        d = pd.read_csv(DIR / "biopsy.csv")
        return d.iloc[:, :9].to_numpy(float), d["class"].to_numpy(), list(d.columns[:9])
    d = pd.read_csv(DIR / "gapminder.csv")
    return d.iloc[:, :3].to_numpy(float), d["life_expectancy"].to_numpy(), list(d.columns[:3])


def _ours(model, seeds):
    X, y, names = _data(model)
    rows = []
    for s in seeds:
        if model == "classification":
            est = RandomForestClassifier(500, voting="hard", oob_score=True,
                                         permutation_importance=True, random_state=s)
        else:
            est = RandomForestRegressor(500, min_samples_split=6, oob_score=True,
                                        permutation_importance=True, random_state=s)
        est.fit(X, y)
        rows.append(np.r_[est.oob_error_curve_[-1], est.permutation_importances_,
                          est.feature_importances_])
    return np.array(rows), names


def _reference(model, names):
    ref = pd.read_csv(DIR / "rf_reference.csv")
    ref = ref[ref.model == model]
    oob = ref.groupby("seed")["oob_error"].first().to_numpy()
    imp = ref.pivot(index="seed", columns="variable", values="imp")[names].to_numpy()
    mdi = ref.pivot(index="seed", columns="variable", values="mdi")[names].to_numpy()
    return oob, imp, mdi / mdi.sum(axis=1, keepdims=True)


def _z(a, b):
    se = np.sqrt(a.var(axis=0, ddof=1) / a.shape[0] + b.var(axis=0, ddof=1) / b.shape[0])
    return (a.mean(axis=0) - b.mean(axis=0)) / se


def _check(model, seeds, rel=0.0, floor=0.0):
    ours, names = _ours(model, seeds)
    p = len(names)
    oob, imp, mdi = _reference(model, names)
    if len(seeds) > 2:
        assert abs(_z(ours[:, :1], oob[:, None])[0]) < Z_MAX
        diff = np.abs(ours[:, 1:1 + p].mean(axis=0) - imp.mean(axis=0))
        z = _z(ours[:, 1:1 + p], imp)
        assert np.all((np.abs(z) < Z_MAX) | (diff < np.maximum(rel * imp.mean(axis=0), floor))), z
    else:  # few seeds: R's between-seed spread for both means
        se = oob.std(ddof=1) * np.sqrt(1 / len(seeds) + 1 / oob.size)
        assert abs(ours[:, 0].mean() - oob.mean()) < Z_MAX * se
    # rankings of the permutation importance agree (ties within 2 R standard errors allowed)
    ref_imp = imp.mean(axis=0)
    our_imp = ours[:, 1:1 + p].mean(axis=0)
    tol = 2 * imp.std(axis=0, ddof=1).max()
    for i in range(p):
        for j in range(p):
            if ref_imp[i] > ref_imp[j] + tol:
                assert our_imp[i] > our_imp[j]
    # MDI (normalised as scikit-learn; R's MeanDecreaseGini / IncNodePurity normalised to sum
    # one): the same order of the clearly separated variables, shares within 0.03
    our_mdi = ours[:, 1 + p:].mean(axis=0)
    np.testing.assert_allclose(our_mdi, mdi.mean(axis=0), atol=0.03)


@pytest.mark.parametrize("model", ["classification", "regression"])
def test_rf_reference_quick(model):
    _check(model, [1, 2])


@pytest.mark.slow
@pytest.mark.parametrize("model", ["classification", "regression"])
def test_rf_reference_20_seeds(model):
    if model == "classification":
        _check(model, range(1, 21), rel=0.15, floor=0.001)
    else:
        _check(model, range(1, 21))
