"""Misclassification rate, rates tables, the labelled confusion matrix (seed 001 E1; seed 004
E14), the ROC-optimal threshold and the AUC standard error."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import f1_score, roc_auc_score

from statlearning.metrics import (
    ConfusionMatrix,
    auc_se,
    confusion_matrix,
    misclassification_rate,
    rates_table,
    roc_optimal_threshold,
)


def test_seed001_e1_imbalanced_accuracy():
    # 90 ones and 10 zeros; the classifier that always says 1 scores accuracy 0.9
    y = np.r_[np.ones(90, int), np.zeros(10, int)]
    pred = np.ones(100, int)
    t = rates_table(y, pred, pos_label=1)
    assert (t["tp"], t["fp"], t["tn"], t["fn"]) == (90, 10, 0, 0)
    assert t["accuracy"] == pytest.approx(0.9)
    assert t["precision"] == pytest.approx(0.9)
    assert t["tpr"] == 1.0 and t["fpr"] == 1.0 and t["tnr"] == 0.0 and t["fnr"] == 0.0
    assert f1_score(y, pred) == pytest.approx(18 / 19)
    assert misclassification_rate(y, pred) == pytest.approx(0.1)
    # the text's layout [[TP, FP], [FN, TN]] is the transpose of ours with 1 first
    cm = confusion_matrix(y, pred, labels=[1, 0])
    np.testing.assert_array_equal(np.asarray(cm).T, [[90, 10], [0, 0]])


def test_seed004_e14_lda_rates():
    # LDA, positive class "low": [[22, 10], [0, 18]] (rows true low/high, columns predicted)
    y = np.array(["low"] * 32 + ["high"] * 18)
    pred = np.array(["low"] * 22 + ["high"] * 10 + ["high"] * 18)
    t = rates_table(y, pred, pos_label="low")
    assert t["accuracy"] == pytest.approx(0.80)
    assert t["fpr"] == 0.0
    assert t["fnr"] == pytest.approx(0.3125) and t["tpr"] == pytest.approx(0.6875)
    assert t["tnr"] == 1.0
    cm = confusion_matrix(y, pred, labels=["low", "high"])
    assert cm == [[22, 10], [0, 18]]


def test_confusion_matrix_prints_with_labelled_axes():
    cm = confusion_matrix(["a", "b", "b", "c"], ["a", "b", "c", "c"])
    assert isinstance(cm, ConfusionMatrix)
    text = str(cm)
    assert "predicted" in text and "true" in text
    lines = text.splitlines()
    assert lines[1].split() == ["true", "a", "b", "c"]
    assert lines[3].split() == ["b", "0", "1", "1"]
    assert "rows=true" in repr(cm)
    assert cm[1, 2] == 1 and cm.shape == (3, 3)
    frame = cm.to_frame()
    assert frame.loc["b", "c"] == 1
    assert frame.index.name == "true" and frame.columns.name == "predicted"
    np.testing.assert_array_equal(np.asarray(cm, dtype=float), cm.matrix.astype(float))


def test_rates_table_bad_input():
    with pytest.raises(ValueError, match="pos_label"):
        rates_table([0, 1], [0, 1], pos_label=2)
    with pytest.raises(ValueError, match="different lengths"):
        rates_table([0, 1], [0], pos_label=1)
    assert np.isnan(rates_table([0, 0], [0, 0], pos_label=0)["fpr"])


def test_roc_optimal_threshold():
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    s = np.array([0.1, 0.2, 0.35, 0.6, 0.4, 0.7, 0.8, 0.9])
    # thresholds: 0.7 → (0, .75); 0.4 → (.25, 1): J = .75 for both; ties go to the larger
    thr, fpr, tpr = roc_optimal_threshold(y, s, method="youden")
    assert (thr, fpr, tpr) == (0.7, 0.0, 0.75)
    thr, fpr, tpr = roc_optimal_threshold(y, s)
    assert (thr, fpr, tpr) == (0.7, 0.0, 0.75)
    # max distance also catches a classifier that is reliably wrong (below the diagonal)
    thr, fpr, tpr = roc_optimal_threshold(y, 1 - s)
    assert (fpr, tpr) in {(1.0, 0.25), (0.75, 0.0)}
    assert roc_optimal_threshold(y, 1 - s, method="youden")[1:] != (fpr, tpr)
    labels = np.where(y == 1, "high", "low")
    assert roc_optimal_threshold(labels, s, pos_label="high") == (0.7, 0.0, 0.75)
    with pytest.raises(ValueError, match="pos_label"):
        roc_optimal_threshold(labels, s)
    with pytest.raises(ValueError, match="method"):
        roc_optimal_threshold(y, s, method="closest")


def brute_delong(y, s):
    x, z = s[y == 1], s[y == 0]
    psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    return psi.mean(), np.sqrt(v10.var(ddof=1) / x.size + v01.var(ddof=1) / z.size)


def test_auc_se_delong_against_brute_force():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, size=80)
    s = np.round(y + rng.normal(size=80), 1)  # rounding creates ties
    auc, se = auc_se(y, s)
    a2, se2 = brute_delong(y, s)
    assert auc == pytest.approx(roc_auc_score(y, s), rel=1e-14)
    assert auc == pytest.approx(a2, rel=1e-14)
    assert se == pytest.approx(se2, rel=1e-12)


def test_auc_se_hanley_mcneil():
    rng = np.random.default_rng(1)
    y = np.r_[np.ones(30, int), np.zeros(50, int)]
    s = y + rng.normal(size=80)
    auc, se = auc_se(y, s, method="hanley_mcneil")
    q1, q2 = auc / (2 - auc), 2 * auc**2 / (1 + auc)
    var = (auc * (1 - auc) + 29 * (q1 - auc**2) + 49 * (q2 - auc**2)) / (30 * 50)
    assert se == pytest.approx(np.sqrt(var), rel=1e-14)
    # the two standard errors are close on well-behaved (binormal) data
    assert se == pytest.approx(auc_se(y, s)[1], rel=0.25)
    with pytest.raises(ValueError, match="method"):
        auc_se(y, s, method="bootstrap")
    with pytest.raises(ValueError, match="two classes"):
        auc_se(np.ones(5), np.arange(5.0))


def test_auc_se_delong_against_proc():
    # tests/reference/roc: pROC's auc() and sqrt(var(roc, method = "delong")), ties included
    import json

    from conftest import REFERENCE

    ref = json.loads((REFERENCE / "roc" / "roc_reference.json").read_text())
    data = np.loadtxt(REFERENCE / "roc" / "roc_data.csv", delimiter=",", skiprows=1)
    auc, se = auc_se(data[:, 0].astype(int), data[:, 1])
    assert auc == pytest.approx(ref["auc"], rel=1e-12)
    assert se == pytest.approx(ref["se_delong"], rel=1e-10)
