"""The leaderboard of ``statlearning compare`` as data: ranks, the one-SE choice, JSON.

The text table is :func:`statlearning.cli._compare.leaderboard`; this module gives the same
ranking to ``--format json`` and to the HTML report, and decides which models count as
*interpretable* and how complex each is (for the one-standard-error choice) from the family a
model is registered under.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np

from .._core.selection import select_index
from ._compare import METRICS

__all__ = [
    "INTERPRETABLE_FAMILIES",
    "Row",
    "complexity",
    "interpretable",
    "rank_results",
    "to_json",
]

#: Families whose fitted models a reader can inspect directly: linear (coefficients, including
#: discriminant functions and component regressions) and the additive or tree-shaped fits.
LINEAR_FAMILIES = frozenset(
    {"linear_model", "discriminant_analysis", "feature_selection", "cross_decomposition"}
)
INTERPRETABLE_FAMILIES = LINEAR_FAMILIES | {"tree", "mars", "gam", "smoothing"}


def complexity(family: str) -> int:
    """1 for linear families, 2 for the other interpretable ones (and naive Bayes), 3 else."""
    if family in LINEAR_FAMILIES:
        return 1
    if family in INTERPRETABLE_FAMILIES or family == "naive_bayes":
        return 2
    return 3


def interpretable(family: str) -> bool:
    """Whether a model of ``family`` counts as interpretable (:data:`INTERPRETABLE_FAMILIES`)."""
    return family in INTERPRETABLE_FAMILIES


@dataclass
class Row:
    """One line of the leaderboard."""

    model: str
    rank: int | None  # None for the baseline and for failed or skipped models
    mean: float
    se: float
    fit_seconds: float
    family: str = ""
    baseline: bool = False
    best: bool = False
    one_se: bool = False
    best_interpretable: bool = False
    notes: list = field(default_factory=list)
    result: object = None  # the CVResult (None for a skipped model)


def _number(x):
    return None if x is None or not math.isfinite(x) else float(x)


def rank_results(results, task, specs, skipped_notes=()):
    """The leaderboard rows: the baseline, the models best first, then failed and skipped ones.

    Parameters
    ----------
    results : list of CVResult
        From :func:`statlearning.cli._compare.cross_validate_models` (baseline first).
    task : {"regression", "classification"}
    specs : list of ModelSpec
        The models run (their families decide complexity and interpretability).
    skipped_notes : sequence of str
        Notes of the run; those of the form ``"<model> skipped: <why>"`` become rows.

    Returns
    -------
    list of Row

    Notes
    -----
    The *one-SE choice* is the simplest model whose mean score is within one standard error
    (of the best model's mean) of the best: complexity 1 (linear families) before 2 (trees,
    MARS, GAMs, smoothers, naive Bayes) before 3 (the rest), ties by the better mean
    (:func:`statlearning._core.selection.select_index` with ``rule="1se"``). The *best
    interpretable* model is the best of the interpretable families.
    """
    _, _, larger_is_better = METRICS[task]
    family = {s.name: s.family for s in specs}
    sign = -1.0 if larger_is_better else 1.0
    ok = [r for r in results if not r.baseline and r.error is None and r.primary]
    ok.sort(key=lambda r: (sign * r.mean, r.name))
    rows = []
    for r in results:
        if r.baseline:
            what = "mean of y" if task == "regression" else "majority class"
            rows.append(
                Row(
                    "baseline",
                    None,
                    r.mean,
                    r.se,
                    0.0,
                    baseline=True,
                    notes=[f"baseline: {what}"],
                    result=r,
                )
            )
    ranked = []
    for i, r in enumerate(ok, 1):
        row = Row(
            r.name, i, r.mean, r.se, float(np.mean(r.fit_times)), family.get(r.name, ""), result=r
        )
        if r.planned > len(r.primary):
            row.notes.append(f"ranked on {len(r.primary)} of {r.planned} folds (time budget)")
        ranked.append(row)
    if ranked:
        ranked[0].best = True
        ranked[0].notes.append("best mean")
        errors = [sign * row.mean for row in ranked]
        ses = [row.se for row in ranked]
        cx = [complexity(row.family) for row in ranked]
        if math.isfinite(ranked[0].se):
            choice = ranked[select_index(errors, ses, cx, rule="1se")]
            choice.one_se = True
            choice.notes.append("one-SE choice: the simplest model within one SE of the best")
        for row in ranked:
            if interpretable(row.family):
                row.best_interpretable = True
                row.notes.append("best interpretable model")
                break
    rows += ranked
    for r in results:
        if not r.baseline and r.error is not None:
            rows.append(
                Row(
                    r.name,
                    None,
                    math.nan,
                    math.nan,
                    math.nan,
                    family.get(r.name, ""),
                    notes=[f"failed: {r.error}"],
                    result=r,
                )
            )
    for note in skipped_notes:
        name, sep, why = note.partition(" skipped: ")
        if sep and name in family:
            rows.append(
                Row(
                    name,
                    None,
                    math.nan,
                    math.nan,
                    math.nan,
                    family[name],
                    notes=[f"skipped: {why}"],
                )
            )
    return rows


def to_json(rows, task) -> str:
    """The leaderboard as a JSON list of objects (``model, task, metric, mean, se,
    fit_seconds, notes``); a missing number is ``null``."""
    metric = METRICS[task][0]
    records = [
        {
            "model": row.model,
            "task": task,
            "metric": metric,
            "mean": _number(row.mean),
            "se": _number(row.se),
            "fit_seconds": _number(row.fit_seconds),
            "notes": list(row.notes),
        }
        for row in rows
    ]
    return json.dumps(records, indent=2, ensure_ascii=False)
