"""Classification summaries: misclassification rate, rates for a chosen positive class and a
confusion matrix that prints with labelled axes."""

from __future__ import annotations

import numpy as np
from sklearn import metrics as skm


def _check_labels(y_true, y_pred) -> tuple[np.ndarray, np.ndarray]:
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    if y_true.ndim != 1 or y_pred.ndim != 1:
        raise ValueError(
            f"y_true and y_pred must be 1-D; got shapes {y_true.shape} and {y_pred.shape}"
        )
    if y_true.shape != y_pred.shape:
        raise ValueError(
            f"y_true and y_pred have different lengths: {y_true.shape[0]} and {y_pred.shape[0]}"
        )
    if y_true.size == 0:
        raise ValueError("y_true is empty")
    return y_true, y_pred


def misclassification_rate(y_true, y_pred, *, sample_weight=None) -> float:
    """Fraction of misclassified samples, ``1 − accuracy``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels, of any type.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights; the rate is then the weighted fraction of misclassified samples.

    Returns
    -------
    float
        The (weighted) fraction of samples with ``y_pred != y_true``, in [0, 1].

    Notes
    -----
    :math:`\\frac1n \\sum_i 1[y_i \\ne \\hat y_i]` (seed 004 §1.2; seed 001 eq. 7.7 defines the
    accuracy ``(TP + TN)/(P + N)``, its complement).
    """
    y_true, y_pred = _check_labels(y_true, y_pred)
    return float(1.0 - skm.accuracy_score(y_true, y_pred, sample_weight=sample_weight))


def rates_table(y_true, y_pred, pos_label) -> dict:
    """Counts and rates of a binary classification for the chosen positive class.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Labels of any type; every label other than ``pos_label`` counts as negative.
    pos_label : label
        The positive class (must occur in ``y_true`` or ``y_pred``).

    Returns
    -------
    dict
        ``tp, fp, tn, fn`` (counts), ``tpr`` (recall, sensitivity), ``fpr``, ``tnr``
        (specificity), ``fnr``, ``precision``, ``accuracy`` and ``misclassification``. A rate whose
        denominator is zero is ``nan``.

    Notes
    -----
    TPR = TP/(TP + FN), FPR = FP/(FP + TN), TNR = 1 − FPR, FNR = 1 − TPR,
    precision = TP/(TP + FP), accuracy = (TP + TN)/n (seed 004 E14 reports these with
    "low" as the positive class; R's ``caret::confusionMatrix(positive=...)``).
    """
    y_true, y_pred = _check_labels(y_true, y_pred)
    if not (np.any(y_true == pos_label) or np.any(y_pred == pos_label)):
        present = ", ".join(map(repr, np.unique(np.concatenate([y_true, y_pred]))[:10]))
        raise ValueError(f"pos_label={pos_label!r} is not among the labels ({present})")
    t = y_true == pos_label
    p = y_pred == pos_label
    tp, fp = int(np.sum(t & p)), int(np.sum(~t & p))
    fn, tn = int(np.sum(t & ~p)), int(np.sum(~t & ~p))

    def ratio(a, b):
        return a / b if b else float("nan")

    n = tp + fp + tn + fn
    return {
        "tp": tp,
        "fp": fp,
        "tn": tn,
        "fn": fn,
        "tpr": ratio(tp, tp + fn),
        "fpr": ratio(fp, fp + tn),
        "tnr": ratio(tn, fp + tn),
        "fnr": ratio(fn, tp + fn),
        "precision": ratio(tp, tp + fp),
        "accuracy": (tp + tn) / n,
        "misclassification": (fp + fn) / n,
    }


class ConfusionMatrix:
    """A confusion matrix with its labels: rows are the true class, columns the predicted one.

    Behaves as an array (``np.asarray(cm)``, ``cm[i, j]``), prints with labelled axes and
    converts to a DataFrame with :meth:`to_frame`.

    Usually built by :func:`confusion_matrix`.

    Parameters
    ----------
    matrix : array-like of shape (n_labels, n_labels)
        ``matrix[i, j]`` counts (or sums the weights of) samples of true class ``labels[i]``
        predicted as ``labels[j]``.
    labels : array-like of shape (n_labels,)
        The class labels, in the order of the rows and columns.

    Attributes
    ----------
    matrix : ndarray of shape (n_labels, n_labels)
        The counts, as given.
    labels : ndarray of shape (n_labels,)
        The labels, as given.
    """

    def __init__(self, matrix, labels):
        self.matrix = np.asarray(matrix)
        self.labels = np.asarray(labels)

    def __array__(self, dtype=None, copy=None):
        out = self.matrix if dtype is None else self.matrix.astype(dtype)
        return out.copy() if copy else out

    def __getitem__(self, key):
        return self.matrix[key]

    @property
    def shape(self):
        """Shape of the matrix, ``(n_labels, n_labels)``."""
        return self.matrix.shape

    def __eq__(self, other):
        return np.array_equal(self.matrix, np.asarray(other))

    __hash__ = None

    def __str__(self) -> str:
        names = [str(lab) for lab in self.labels]
        cells = [[str(v) for v in row] for row in self.matrix]
        width = max([len(s) for s in names] + [len(c) for row in cells for c in row] + [4])
        head = max(len(s) for s in [*names, "true"])
        lines = [" " * (head + 1) + "predicted".center((width + 1) * len(names))]
        lines.append("true".ljust(head) + " " + " ".join(s.rjust(width) for s in names))
        for name, row in zip(names, cells, strict=True):
            lines.append(name.ljust(head) + " " + " ".join(c.rjust(width) for c in row))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"ConfusionMatrix(rows=true, columns=predicted)\n{self}"

    def to_frame(self):
        """Return the matrix as a pandas DataFrame.

        Returns
        -------
        pandas.DataFrame
            ``matrix`` with the labels as row index (named ``"true"``) and as columns (named
            ``"predicted"``).
        """
        import pandas as pd

        return pd.DataFrame(
            self.matrix,
            index=pd.Index(self.labels, name="true"),
            columns=pd.Index(self.labels, name="predicted"),
        )


def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None) -> ConfusionMatrix:
    """Confusion matrix (rows = true class, columns = predicted, as scikit-learn).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels, of any type.
    labels : array-like, default=None
        Order of the classes; by default the sorted union of the labels. Put the positive class
        first to get the notes' layout ``[[TP, FN], [FP, TN]]``. Samples whose labels are not
        listed are left out.
    sample_weight : array-like of shape (n_samples,), default=None
        Sample weights; each cell then sums the weights of its samples instead of counting
        them.

    Returns
    -------
    ConfusionMatrix
        Rows are the true classes and columns the predicted ones, both in ``labels`` order.

    Notes
    -----
    The counts are scikit-learn's ``confusion_matrix``; R's ``table(pred, true)`` is the
    transpose.
    """
    y_true, y_pred = _check_labels(y_true, y_pred)
    if labels is None:
        labels = np.unique(np.concatenate([y_true, y_pred]))
    labels = np.asarray(labels)
    m = skm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    return ConfusionMatrix(m, labels)
