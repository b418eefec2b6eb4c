"""Model files on skops: saving with the library's metadata, loading with a trust rule."""

from __future__ import annotations

import importlib
import inspect
import json
import os
import platform
import warnings
import zipfile
from pathlib import Path

import numpy as np
import scipy
import sklearn

from ..exceptions import ModelFileError, VersionMismatchWarning

__all__ = ["load", "model_metadata", "save"]

#: The archive member holding the metadata that :func:`save` writes.
METADATA_MEMBER = "statlearning.json"


def _skops_io():
    try:
        import skops.io as sio
    except ImportError as exc:  # pragma: no cover - skops is a dependency
        raise ImportError(
            "model files need skops (pip install skops), a dependency of statlearning"
        ) from exc
    return sio


def _library_version() -> str:
    from .. import __version__

    return __version__


def save(estimator, path, *, metadata=None):
    """Write a fitted estimator (or any object of trusted types) to a model file.

    Parameters
    ----------
    estimator : object
        Usually a fitted statlearning estimator or a scikit-learn ``Pipeline`` of them.
    path : str or path-like
        The file to write (conventionally ``*.skops``); an existing file is replaced.
    metadata : dict, optional
        Further JSON-serialisable entries recorded with the library versions (the command
        line records the target, the task and the model name).

    Returns
    -------
    pathlib.Path
        The path written.

    See Also
    --------
    load : Read it back.
    model_metadata : Read the recorded metadata only.

    Notes
    -----
    The file is a ZIP archive in skops' format (compressed), plus a member
    ``statlearning.json`` with ``statlearning_version``, ``sklearn_version``,
    ``numpy_version``, ``scipy_version``, ``python_version`` and the entries of ``metadata``.
    Nothing is pickled.

    Examples
    --------
    >>> import os, tempfile
    >>> from statlearning.io import save, load
    >>> from statlearning.linear_model import LinearRegression
    >>> model = LinearRegression().fit([[0.0], [1.0], [2.0], [3.0]], [1.0, 3.5, 5.0, 7.5])
    >>> path = save(model, os.path.join(tempfile.mkdtemp(), "model.skops"))
    >>> load(path).predict([[4.0]]).round(6)
    array([9.5])
    """
    sio = _skops_io()
    path = Path(path)
    extra = {} if metadata is None else dict(metadata)
    record = {
        "statlearning_version": _library_version(),
        "sklearn_version": sklearn.__version__,
        "numpy_version": np.__version__,
        "scipy_version": scipy.__version__,
        "python_version": platform.python_version(),
        **extra,
    }
    try:
        text = json.dumps(record, indent=2, sort_keys=True)
    except TypeError as exc:
        raise TypeError(f"metadata must be JSON-serialisable: {exc}") from None
    sio.dump(estimator, path, compression=zipfile.ZIP_DEFLATED)
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(METADATA_MEMBER, text)
    return path


def _checked_path(path) -> Path:
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"model file {os.fspath(path)!r} does not exist")
    if path.is_dir():
        raise IsADirectoryError(f"{os.fspath(path)!r} is a directory, not a model file")
    if not zipfile.is_zipfile(path):
        raise ModelFileError(
            f"{os.fspath(path)!r} is not a model file (not a ZIP archive as statlearning.io.save "
            "and skops write); is it truncated or another format?"
        )
    return path


def model_metadata(path) -> dict:
    """The metadata recorded in a model file by :func:`save`.

    Parameters
    ----------
    path : str or path-like
        The model file.

    Returns
    -------
    dict
        ``statlearning_version`` and the other entries; empty for a skops file written
        without :func:`save`.
    """
    path = _checked_path(path)
    try:
        with zipfile.ZipFile(path) as archive:
            if METADATA_MEMBER not in archive.namelist():
                return {}
            return json.loads(archive.read(METADATA_MEMBER).decode("utf-8"))
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise ModelFileError(
            f"cannot read the metadata of {os.fspath(path)!r} (corrupted file?): {exc}"
        ) from None


def _is_own_class(type_name: str) -> bool:
    """Whether a fully qualified name is a class defined in statlearning (never a function)."""
    if not type_name.startswith("statlearning."):
        return False
    parts = type_name.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr, None)
            if obj is None:
                return False
        return inspect.isclass(obj) and obj.__module__.startswith("statlearning")
    return False


def _type_names(trusted) -> set[str]:
    names = set()
    for t in trusted or ():
        if isinstance(t, str):
            names.add(t)
        elif inspect.isclass(t) or callable(t):
            names.add(f"{t.__module__}.{t.__qualname__}")
        else:
            raise TypeError(f"trusted must list types or their qualified names; got {t!r}")
    return names


def load(path, trusted=None):
    """Load an object written by :func:`save` (or by ``skops.io.dump``), executing no code.

    Parameters
    ----------
    path : str or path-like
        The model file.
    trusted : list of type or str, optional
        Further types to accept, as types or fully qualified names (as
        ``skops.io.get_untrusted_types`` lists them). Name only types whose source you trust.

    Returns
    -------
    object
        The saved object.

    Raises
    ------
    FileNotFoundError
        If the file does not exist.
    statlearning.exceptions.ModelFileError
        If the file is not a model file, is truncated or corrupted, or holds a type that is
        neither trusted by default nor listed in ``trusted`` (the message names them).

    Warns
    -----
    statlearning.exceptions.VersionMismatchWarning
        When the file was written by another version of statlearning.

    See Also
    --------
    save : Write a model file.

    Notes
    -----
    Trusted by default: every class defined in statlearning (classes only: a function of the
    package named in a file is refused like any other), and what skops trusts itself (NumPy
    and SciPy types, scikit-learn's estimators and containers such as ``Pipeline``).

    Examples
    --------
    >>> import os, tempfile
    >>> from statlearning.io import save, load
    >>> from statlearning.tree import DecisionTreeClassifier
    >>> tree = DecisionTreeClassifier(max_depth=1).fit([[0.0], [1.0]], ["a", "b"])
    >>> path = save(tree, os.path.join(tempfile.mkdtemp(), "tree.skops"))
    >>> load(path).predict([[0.9]])
    array(['b'], dtype='<U1')
    """
    sio = _skops_io()
    path = _checked_path(path)
    where = os.fspath(path)
    meta = model_metadata(path)
    written_by = meta.get("statlearning_version")
    if written_by is not None and written_by != _library_version():
        warnings.warn(
            f"{where!r} was written by statlearning {written_by}; this is "
            f"{_library_version()}. Predictions may differ; refit the model if they must not.",
            VersionMismatchWarning,
            stacklevel=2,
        )
    try:
        untrusted = sio.get_untrusted_types(file=path)
    except Exception as exc:  # a malformed schema raises whatever skops' parser meets
        raise ModelFileError(
            f"cannot read {where!r} as a model file (corrupted or truncated?): "
            f"{type(exc).__name__}: {exc}"
        ) from None
    extra = _type_names(trusted)
    refused = [t for t in untrusted if t not in extra and not _is_own_class(t)]
    if refused:
        raise ModelFileError(
            f"{where!r} holds types that are not trusted: {', '.join(refused)}. Loading "
            "them could run code; if you trust the file's source, pass them in trusted=[...]."
        )
    try:
        return sio.load(path, trusted=untrusted)
    except Exception as exc:
        raise ModelFileError(
            f"cannot load {where!r} (corrupted file, or written by an incompatible version?): "
            f"{type(exc).__name__}: {exc}"
        ) from None
