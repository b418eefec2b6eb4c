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

    bundle = Pipeline([("design", data.design.fit()), ("model", estimator)])
    meta = {
        "command": "fit",
        "model": spec.name,
        "task": task,
        "target": data.target_name,
        "features": list(data.design.features),
        "training_source": data.source,
        "training_rows": int(data.n),
    }
    return save(bundle, path, metadata=meta)


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

    from ..datasets._csv import _read_frame
    from ..io import load, model_metadata
    from ._data import _separator, _split_names

    meta = model_metadata(args.model_file)
    design, model = _split(load(args.model_file))
    levels = design.levels or {}
    frame, _ = _read_frame(
        args.data,
        _separator(args.sep),
        args.encoding,
        _split_names(args.na_values) or None,
        args.decimal,
        dtype={name: str for name in levels},
    )
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
