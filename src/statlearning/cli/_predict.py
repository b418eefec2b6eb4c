"""``statlearning predict``: score a new CSV file with a model saved by ``fit --save``."""

from __future__ import annotations

import sys

import numpy as np

__all__ = ["run_predict", "save_fitted"]


def save_fitted(path, estimator, data, spec, task):
    """Write the fitted model, with the encoding of its data in front, to a model file.

    The file holds a scikit-learn ``Pipeline``: the table's encoding
    (:class:`statlearning.datasets._design.TableDesign`, the levels of every categorical
    column) and then the model, so that the pipeline predicts from a table's raw columns.

    Returns
    -------
    pathlib.Path
    """
    from sklearn.pipeline import Pipeline

    from ..io import save

    if data.formula:
        bundle, features = _formula_bundle(estimator, data)
    else:
        bundle = Pipeline([("design", data.design.fit()), ("model", estimator)])
        features = list(data.design.features)
    meta = {
        "command": "fit",
        "model": spec.name,
        "task": task,
        "target": data.target_name,
        "features": features,
        "training_source": data.source,
        "training_rows": int(data.n),
    }
    if data.formula:
        meta["formula"] = data.formula
    return save(bundle, path, metadata=meta)


def _formula_bundle(estimator, data):
    """A model fitted through ``--formula`` as a :class:`~statlearning.formula.FormulaFit`
    (``lm`` returns one; another model is wrapped with the formula's fitted design), and the
    columns its formula reads."""
    from ..formula import FormulaFit
    from ..formula._deparse import deparse

    if not isinstance(estimator, FormulaFit):
        estimator = FormulaFit(estimator, data.design, data.formula, deparse(data.formula))
    return estimator, _formula_columns(estimator.transformer)


def _formula_columns(design) -> list[str]:
    return list(design.variables_)


def _split(bundle):
    """``(design, model)`` of a loaded object."""
    from sklearn.pipeline import Pipeline

    from ..datasets._design import TableDesign

    if isinstance(bundle, Pipeline) and isinstance(bundle.steps[0][1], TableDesign):
        rest = bundle[1:]
        model = rest.steps[0][1] if len(rest.steps) == 1 else rest
        return bundle.steps[0][1], model
    names = getattr(bundle, "feature_names_in_", None)
    if names is None or not callable(getattr(bundle, "predict", None)):
        raise ValueError(
            "the model file holds no estimator that knows its column names; save models with "
            "'statlearning fit ... --save FILE' (or fit them on a DataFrame)"
        )
    return TableDesign([str(n) for n in names]).fit(), bundle


def _final_step(model):
    from sklearn.pipeline import Pipeline

    if isinstance(model, Pipeline):
        return model[:-1], model.steps[-1][1]
    return None, model


def _rows_text(rows, limit=5):
    shown = ", ".join(str(r) for r in rows[:limit])
    return shown + (f" and {len(rows) - limit} more" if len(rows) > limit else "")


def run_predict(args, say):
    """Run the command; ``say(line, file=None)`` prints. Returns the exit status."""
    import pandas as pd

    from ..io import load, model_metadata

    meta = model_metadata(args.model_file)
    bundle = load(args.model_file)
    from ..formula import FormulaFit

    if isinstance(bundle, FormulaFit):
        return _predict_formula(args, say, bundle, meta)
    design, model = _split(bundle)
    levels = design.levels or {}
    frame = _read(args, dtype={name: str for name in levels})
    notes = []
    target = meta.get("target")
    extra = [c for c in frame.columns if c not in design.features and c != target]
    if extra:
        notes.append(f"columns not used by the model, ignored: {', '.join(map(str, extra))}")
    X = design.transform(frame)
    complete = ~X.isna().any(axis=1).to_numpy()
    if not complete.all():
        rows = list(np.flatnonzero(~complete) + 2)  # the header is row 1
        notes.append(
            f"{len(rows)} row(s) with missing values get no prediction (rows {_rows_text(rows)})"
        )
    out = pd.DataFrame(index=frame.index)
    Xc = X[complete]
    if args.interval is not None:
        head, last = _final_step(model)
        if not callable(getattr(last, "predict_interval", None)):
            raise ValueError(
                f"--interval: the {meta.get('model', type(last).__name__)} model gives no "
                "intervals (linear and generalised linear models do)"
            )
        Z = head.transform(Xc) if head is not None else Xc
        fit, lower, upper = last.predict_interval(Z, kind=args.interval, level=args.level)
        out["prediction"] = _spread(fit, complete)
        out["lower"] = _spread(lower, complete)
        out["upper"] = _spread(upper, complete)
    else:
        pred = model.predict(Xc) if complete.any() else np.empty(0)
        out["prediction"] = _spread(pred, complete)
    if args.proba:
        if not callable(getattr(model, "predict_proba", None)):
            raise ValueError(
                f"--proba: the {meta.get('model', type(model).__name__)} model gives no class "
                "probabilities"
            )
        proba = model.predict_proba(Xc) if complete.any() else np.empty((0, len(model.classes_)))
        for j, label in enumerate(model.classes_):
            out[f"proba_{label}"] = _spread(proba[:, j], complete)
    return _write(out, args, notes, say)


def _predict_formula(args, say, fit, meta):
    """``predict`` with a model fitted through a formula: the formula's variables (and those
    of its ``offset()`` terms) are read from DATA by name, rows missing one get none."""
    import pandas as pd

    from ..formula._deparse import parse
    from ..formula._design import variables

    frame = _read(args)
    design = fit.transformer
    needed = _formula_columns(design)
    for term in getattr(design, "offset_terms_", []):
        needed += sorted(variables(parse(term)) - set(needed))
    if getattr(fit, "offset", None):
        needed.append(fit.offset)
    absent = [c for c in needed if c not in frame.columns]
    if absent:
        raise ValueError(
            f"column{'s' if len(absent) > 1 else ''} {', '.join(map(repr, absent))} missing "
            f"from {args.data!r}; the model's formula reads {', '.join(needed)}"
        )
    notes = []
    target = meta.get("target")
    extra = [c for c in frame.columns if c not in needed and c != target]
    if extra:
        notes.append(f"columns not used by the model, ignored: {', '.join(map(str, extra))}")
    complete = ~frame[needed].isna().any(axis=1).to_numpy()
    if not complete.all():
        rows = list(np.flatnonzero(~complete) + 2)  # the header is row 1
        notes.append(
            f"{len(rows)} row(s) with missing values get no prediction (rows {_rows_text(rows)})"
        )
    rows = frame[complete]
    out = pd.DataFrame(index=frame.index)
    name = meta.get("model", type(fit.estimator).__name__)
    if args.interval is not None:
        if not callable(getattr(fit.estimator, "predict_interval", None)):
            raise ValueError(
                f"--interval: the {name} model gives no intervals (linear and generalised "
                "linear models do)"
            )
        parts = fit.predict_interval(rows, kind=args.interval, level=args.level)
        for column, values in zip(("prediction", "lower", "upper"), parts, strict=True):
            out[column] = _spread(values, complete)
    else:
        out["prediction"] = _spread(fit.predict(rows) if complete.any() else [], complete)
    if args.proba:
        if not callable(getattr(fit.estimator, "predict_proba", None)):
            raise ValueError(f"--proba: the {name} model gives no class probabilities")
        classes = fit.estimator.classes_
        proba = fit.predict_proba(rows) if complete.any() else np.empty((0, len(classes)))
        for j, label in enumerate(classes):
            out[f"proba_{label}"] = _spread(proba[:, j], complete)
    return _write(out, args, notes, say)


def _read(args, dtype=None):
    """The rows of DATA (``--sep``, ``--encoding``, ``--na-values``, ``--decimal``)."""
    from ..datasets._csv import _read_frame
    from ._data import _separator, _split_names

    frame, _ = _read_frame(
        args.data,
        _separator(args.sep),
        args.encoding,
        _split_names(args.na_values) or None,
        args.decimal,
        dtype=dtype,
    )
    return frame


def _write(out, args, notes, say):
    """Write the predictions (``-o`` or standard output), then the notes; exit status 0."""
    if args.output:
        out.to_csv(args.output, index=False)
        notes.append(f"{len(out)} predictions written to {args.output}")
    else:
        out.to_csv(sys.stdout, index=False)
    for note in notes:
        say(f"note: {note}", file=sys.stderr)
    return 0


def _spread(values, complete):
    """Values for the complete rows placed in a full-length column (missing elsewhere)."""
    values = np.asarray(values)
    full = np.full(complete.shape[0], None if values.dtype.kind in "OUS" else np.nan, dtype=object)
    full[complete] = values
    if values.dtype.kind in "biuf":
        return full.astype(np.float64)
    return full
