"""From a data frame to a design matrix through a formula (formulaic), with R's column names.

:class:`FormulaTransformer` is the scikit-learn face of it; :func:`split_formula`,
:func:`materialize` and :func:`r_column_names` serve the model functions (``lm``, ``glm``).
"""

from __future__ import annotations

import numpy as np

from .._validation import InstanceOf, validate_data
from ..base import StatBase, TransformerMixin, fit_context
from . import _deparse as rd
from ._transforms import build_context, require_formulaic


def split_formula(formula: str):
    """``(lhs, rhs)`` nodes of a formula; ``lhs`` is ``None`` for ``~ x`` (or plain ``x``)."""
    if not isinstance(formula, str):
        raise TypeError(f"formula must be a string such as 'y ~ x'; got {type(formula).__name__}")
    tree = rd.parse(formula)
    if tree.kind == "binary" and tree.value == "~":
        return tree.args[0], tree.args[1]
    if tree.kind == "unary" and tree.value == "~":
        return None, tree.args[0]
    return None, tree


def variables(node) -> set:
    """The names a node reads (call names excluded)."""
    if node is None:
        return set()
    if node.kind == "name":
        return {node.value}
    if node.kind == "call":
        return set().union(*(variables(v) for _, v in node.args)) if node.args else set()
    return set().union(*(variables(a) for a in node.args)) if node.args else set()


def expand_dot(node, columns, exclude):
    """R's ``.``: every column of the data not on the left-hand side, joined by ``+``."""
    if node.kind == "name" and node.value == ".":
        names = [c for c in columns if c not in exclude]
        if not names:
            raise ValueError("the formula's '.' stands for no column: the data has none left")
        out = rd.Node("name", str(names[0]))
        for name in names[1:]:
            out = rd.Node("binary", "+", (out, rd.Node("name", str(name))))
        return out
    if node.kind in ("binary", "unary", "paren"):
        return rd.Node(
            node.kind, node.value, tuple(expand_dot(a, columns, exclude) for a in node.args)
        )
    return node


def _is_offset(node) -> bool:
    return node.kind == "call" and node.value == rd.Node("name", "offset")


def split_offsets(node):
    """R's ``offset(...)`` terms: ``(rhs without them, [their expressions])``.

    An offset is a known part of the linear predictor, not a coefficient (R's ``lm``/``glm``):
    ``y ~ x + offset(log(t))`` is the design ``~ x`` plus ``log(t)``.
    """
    offsets = []

    def strip(n):
        if _is_offset(n):
            if len(n.args) != 1 or n.args[0][0] is not None:
                raise ValueError(f"offset() takes one expression; got {rd.deparse(n)!r}")
            offsets.append(n.args[0][1])
            return None
        if n.kind == "binary" and n.value == "+":
            left, right = strip(n.args[0]), strip(n.args[1])
            if left is None or right is None:
                return right if left is None else left
            return rd.Node("binary", "+", (left, right))
        if n.kind == "paren" and n.args:
            inner = strip(n.args[0])
            return None if inner is None else rd.Node("paren", n.value, (inner,))
        if n.kind in ("binary", "unary", "call") and _contains_offset(n):
            raise ValueError(
                f"offset() must be a term of its own, added with '+'; got {rd.deparse(n)!r}"
            )
        return n

    rest = strip(node)
    return (rd.Node("num", "1") if rest is None else rest), offsets


def _contains_offset(node) -> bool:
    if _is_offset(node):
        return True
    if node.kind == "call":
        return any(_contains_offset(v) for _, v in node.args)
    return any(_contains_offset(a) for a in node.args if isinstance(a, rd.Node))


def offset_values(offsets, frame):
    """The sum of the offset expressions evaluated on ``frame`` (``None`` without any)."""
    if not offsets:
        return None
    total = np.zeros(frame.shape[0])
    for expr in offsets:
        wrapped = rd.Node("call", rd.Node("name", "I"), ((None, expr),))
        node = rd.Node("binary", "+", (rd.Node("num", "0"), wrapped))
        mm, _ = materialize(node, frame, na_action="ignore")
        total = total + np.asarray(mm, dtype=np.float64)[:, 0]
    return total


def as_frame(X, owner: str, estimator=None):
    """A pandas DataFrame of ``X``; arrays become frames with columns ``x0, x1, …``."""
    import pandas as pd

    if isinstance(X, pd.DataFrame):
        return X
    if estimator is None:
        raise TypeError(f"{owner}: data must be a pandas DataFrame; got {type(X).__name__}")
    arr = validate_data(estimator, X, reset=False, dtype=np.float64)
    return pd.DataFrame(arr, columns=[f"x{j}" for j in range(arr.shape[1])])


def r_types(frame):
    """Boolean columns as R's logical factors (levels ``FALSE``, ``TRUE``: ``flagTRUE``)."""
    import pandas as pd

    flags = [c for c in frame.columns if pd.api.types.is_bool_dtype(frame[c])]
    if not flags:
        return frame
    frame = frame.copy()
    for c in flags:
        frame[c] = pd.Categorical(
            np.where(frame[c].to_numpy(dtype=bool), "TRUE", "FALSE"), categories=["FALSE", "TRUE"]
        )
    return frame


def materialize(rhs, frame, *, spec=None, na_action="drop"):
    """The model matrix of the right-hand side ``rhs`` (a node) on ``frame``, and its spec."""
    require_formulaic()
    from formulaic import model_matrix

    frame = r_types(frame)
    context = build_context()
    try:
        if spec is None:
            mm = model_matrix(
                rd.to_python(rhs), frame, context=context, na_action=na_action,
                ensure_full_rank=False,  # every level; r_design keeps R's columns
            )  # fmt: skip
            return mm, mm.model_spec
        return spec.get_model_matrix(frame, context=context, na_action=na_action), spec
    except Exception as exc:  # formulaic's errors name the factor; keep its message
        from formulaic.errors import FormulaicError

        if isinstance(exc, FormulaicError | NameError | KeyError):
            raise ValueError(f"formula {rd.deparse(rhs)!r}: {exc}") from None
        raise


def _split_column(name: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(name):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == ":" and depth == 0:
            parts.append(name[start:i])
            start = i + 1
    parts.append(name[start:])
    return parts


def r_column_names(spec) -> list[str]:
    """R's names of the model-matrix columns: ``gB``, ``x1:x2``, ``bs(x2, df = 4)1``."""
    return [":".join(parts) for parts in _r_parts(spec, spec.column_names)]


def _r_parts(spec, columns) -> list[list[str]]:
    """R's name of each factor's part of each column (``["gB", "x"]`` for ``g[T.B]:x``)."""
    exprs = {f.expr for s in spec.structure for f in s.term.factors}
    r_expr = {e: ("(Intercept)" if e == "1" else rd.deparse(e)) for e in exprs}
    ordered = sorted(exprs, key=len, reverse=True)
    names = []
    for column in columns:
        if column == "Intercept":
            names.append(["(Intercept)"])
            continue
        out = []
        for part in _split_column(column):
            expr = next((e for e in ordered if part == e or part.startswith(e + "[")), None)
            if expr is None:
                out.append(part)
                continue
            suffix = part[len(expr) + 1 : -1] if part != expr else ""
            if suffix.startswith("T."):
                suffix = suffix[2:]
            out.append(r_expr[expr] + suffix)
        names.append(out)
    return names


def _appearance(rhs) -> list[str]:
    """The variables of a formula (R's deparse) in order of first appearance, as R's
    ``terms`` lists them: the operands of ``+ - : * / ^ %in%`` and parentheses."""
    seen = []

    def walk(node):
        if node.kind in ("binary", "unary", "paren") and node.value in _FORMULA_OPERATORS:
            operands = node.args[:1] if node.value == "^" else node.args
            for arg in operands:
                walk(arg)
            return
        if node.kind == "paren":
            for arg in node.args:
                walk(arg)
            return
        text = rd.deparse(node)
        if text not in seen:
            seen.append(text)

    if rhs is not None:
        walk(rhs)
    return seen


_FORMULA_OPERATORS = {"+", "-", ":", "*", "/", "^", "%in%", "(", None}


def _r_baselines(spec, order) -> dict:
    """R's contrasts rule (``model.matrix``): which factor of which term is coded by
    treatment contrasts, i.e. loses the column of its first level.

    A factor ``f`` of a term ``T`` is coded by contrasts when ``T`` without ``f`` is in the
    model (the intercept standing for the empty term), else by all its levels; without an
    intercept the first factor of the first term that has one gets all its levels. Returns
    ``{term: {factor expression: first level}}`` for the factors coded by contrasts.
    """
    from formulaic.parser.types import Factor

    kind = {e: k for e, (k, _) in spec.encoder_state.items()}
    levels = {e: st.get("categories") for e, (_, st) in spec.encoder_state.items()}
    terms = [s.term for s in spec.structure]
    present = {frozenset(f.expr for f in t.factors if f.expr != "1") for t in terms}
    present.add(frozenset())  # as if the intercept were in; fixed below when it is not
    intercept = any(str(t) == "1" for t in terms)
    first_full = None
    out = {}
    for t in terms:
        exprs = [f.expr for f in t.factors if f.expr != "1"]
        categorical = [e for e in exprs if kind.get(e) is Factor.Kind.CATEGORICAL and levels[e]]
        if not intercept and first_full is None and categorical:
            first_full = (str(t), min(categorical, key=lambda e: order.get(rd.deparse(e), 1e9)))
        contrasted = {}
        for e in categorical:
            if (str(t), e) == first_full:
                continue
            if frozenset(exprs) - {e} in present:
                contrasted[e] = str(levels[e][0])
        if contrasted:
            out[str(t)] = contrasted
    return out


def _at_baseline(column, factors, contrasted) -> bool:
    """Whether a full-dummy column has a contrasts-coded factor at its first level."""
    if not contrasted:
        return False
    parts = _split_column(column)
    if len(parts) != len(factors):
        return False
    return any(
        f in contrasted and part == f"{f}[{contrasted[f]}]"
        for f, part in zip(factors, parts, strict=True)
    )


def r_design(spec, rhs=None):
    """R's order and names of the design columns (the intercept left out).

    R writes the variables of an interaction in their order of first appearance in the
    formula (``y ~ g + x:g`` has the term ``g:x``, columns ``ga:x``, ``gb:x``, …) and
    enumerates its columns with the first variable varying fastest; formulaic keeps the order
    written. Returns ``(columns, names, terms)``: formulaic's column names in R's order, R's
    names of them, and R's term labels with their columns.
    """
    order = {v: k for k, v in enumerate(_appearance(rhs))}
    columns, names, terms = [], [], {}
    dropped = _r_baselines(spec, order)
    for s in spec.structure:
        if str(s.term) == "1":
            continue
        factors = [f.expr for f in s.term.factors]
        r_exprs = [rd.deparse(e) for e in factors]
        perm = sorted(range(len(factors)), key=lambda i: (order.get(r_exprs[i], len(order)), i))
        cols = [c for c in s.columns if not _at_baseline(c, factors, dropped.get(str(s.term)))]
        parts = _r_parts(spec, cols)
        if perm != list(range(len(factors))) and all(len(p) == len(factors) for p in parts):
            raw = [_split_column(c) for c in cols]
            levels = [list(dict.fromkeys(r[i] for r in raw)) for i in range(len(factors))]
            rank = [[levels[i].index(r[i]) for i in range(len(factors))] for r in raw]
            key = sorted(range(len(cols)), key=lambda j: [rank[j][i] for i in reversed(perm)])
            cols = [cols[j] for j in key]
            parts = [[parts[j][i] for i in perm] for j in key]
        label = ":".join(r_exprs[i] for i in perm)
        terms[label] = [":".join(p) for p in parts]
        columns += cols
        names += terms[label]
    return columns, names, terms


class FormulaTransformer(TransformerMixin, StatBase):
    """The design matrix of an R-style formula, for scikit-learn pipelines.

    ``fit`` reads the formula's right-hand side on a data frame and remembers everything the
    encoding learned (formulaic's ``ModelSpec``: factor levels, spline knots, polynomial
    recurrences), so that ``transform`` gives new data the same columns.

    Parameters
    ----------
    formula : str, default="~ ."
        An R formula; a left-hand side, if any, is ignored (``y ~ x`` is ``~ x``) and only
        excluded from ``.``. Factors (string, categorical or boolean columns, ``C(g)``,
        ``factor(g)``) are treatment coded against their first level, interactions are
        written ``x1:x2`` or ``x1*x2``, and the bases ``poly(x, 2)``, ``bs(x, df = 4)``,
        ``ns(x, df = 3)``, ``I(x^2)`` and ``log(x)`` are R's.

    Attributes
    ----------
    model_spec_ : formulaic.ModelSpec
        The fitted encoding.
    has_intercept_ : bool
        Whether the formula keeps the intercept (R's ``- 1`` / ``0 +`` drop it); the
        intercept column itself is not part of the output (estimators add their own).
    feature_names_out_ : ndarray of str
        R's names of the output columns (``gB``, ``x1:x2``, ``bs(x2, df = 4)1``).
    term_columns_ : dict of str to list of str
        The output columns of each term, by R's term label (``"g"``, ``"bs(x2, df = 4)"``,
        ``"x1:g"``), in the order of the formula's terms (R's ``assign``).
    variables_ : list of str
        The columns of the data the formula reads (offsets aside).
    offset_terms_ : list of str
        The expressions of the formula's ``offset(...)`` terms (``"log(t)"``): R's offsets,
        not part of the design; :meth:`offset` evaluates their sum on data.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        The columns of the data frame seen in ``fit`` (``x0, x1, …`` for arrays).

    See Also
    --------
    statlearning.formula.lm : a linear model fitted through a formula.

    Notes
    -----
    The design is R's ``model.matrix(formula, data)`` without the ``(Intercept)`` column:
    terms sorted by order (main effects, then two-way interactions, …), the variables of an
    interaction in their order of first appearance in the formula, treatment contrasts by
    R's rule (a factor of a term is coded by contrasts when the term without it is in the
    model, the intercept standing for the empty term, else by all its levels: ``y ~ x:g``
    gives ``x:ga, x:gb, x:gc``, ``y ~ 0 + g`` every level, ``y ~ g:h`` one aliased column
    as in R), and R's bases for ``poly``, ``bs`` and ``ns``
    (:mod:`statlearning.preprocessing`). Unlike ``sklearn.preprocessing`` transformers it
    selects its columns by name, so new data may have its columns in another order or extra
    columns; a missing column, a missing value in a column the formula reads, or a factor
    level not seen in ``fit`` is an error naming it.
    An array is read as a frame with columns ``x0, x1, …``.

    Pickling and model files (:func:`statlearning.io.save`) store the encoding as plain data
    (formulaic's formula text, the fitted bases, the factor levels), rebuilt into a
    ``ModelSpec`` on loading, so a model file needs no formulaic type to be trusted.

    Examples
    --------
    >>> import pandas as pd
    >>> from statlearning.formula import FormulaTransformer
    >>> data = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "g": ["a", "b", "c", "a"]})
    >>> t = FormulaTransformer("~ x + g").fit(data)
    >>> list(t.get_feature_names_out())
    ['x', 'gb', 'gc']
    >>> t.transform(data)[1]
    array([2., 1., 0.])
    """

    _parameter_constraints = {"formula": [InstanceOf(str)]}

    def __init__(self, formula="~ ."):
        self.formula = formula

    @fit_context
    def fit(self, X, y=None):
        """Learn the encoding of the formula's terms on ``X``.

        Parameters
        ----------
        X : pandas.DataFrame or array-like of shape (n_samples, n_features)
        y : None
            Ignored.

        Returns
        -------
        self : FormulaTransformer
        """
        import pandas as pd

        frame = self._frame(X, reset=True)
        lhs, rhs = split_formula(self.formula)
        rhs, offsets = split_offsets(rhs)
        rhs = expand_dot(rhs, [str(c) for c in frame.columns], variables(lhs))
        check_columns(type(self).__name__, rhs, frame)
        self._check_missing(frame, rhs)
        _, spec = materialize(rhs, frame, na_action="ignore")
        self._store(spec, frame, named=isinstance(X, pd.DataFrame), offsets=offsets, rhs=rhs)
        return self

    def _store(self, spec, frame, *, named=True, offsets=(), rhs=None) -> None:
        columns, names, terms = r_design(spec, rhs)
        self.model_spec_ = spec
        self.design_columns_ = columns
        self.offset_terms_ = [rd.deparse(o) for o in offsets]
        context = build_context()
        self.variables_ = sorted(
            str(v) for v in spec.required_variables if str(v) in frame.columns or v not in context
        )
        self.has_intercept_ = "Intercept" in spec.column_names
        self.feature_names_out_ = np.array(names, dtype=object)
        self.term_columns_ = terms
        self.n_features_in_ = frame.shape[1]
        if named:
            self.feature_names_in_ = np.asarray([str(c) for c in frame.columns], dtype=object)

    def _frame(self, X, *, reset: bool):
        import pandas as pd

        if isinstance(X, pd.DataFrame):
            if X.shape[0] == 0:
                raise ValueError(f"{type(self).__name__}: the data has 0 rows")
            return X
        if reset:
            arr = validate_data(self, X, dtype=np.float64)
            for attr in ("n_features_in_", "feature_names_in_"):
                self.__dict__.pop(attr, None)
        else:
            arr = validate_data(self, X, reset=False, dtype=np.float64)
        return pd.DataFrame(arr, columns=[f"x{j}" for j in range(arr.shape[1])])

    def _check_missing(self, frame, rhs) -> None:
        used = [c for c in frame.columns if str(c) in variables(rhs)]
        bad = [str(c) for c in used if frame[c].isna().any()]
        if bad:
            rows = int(frame[used].isna().any(axis=1).sum())
            raise ValueError(
                f"{type(self).__name__}: {_contains_nan(bad)} ({rows} row(s)); drop or impute "
                "them first (lm() and glm() drop them as R's na.omit)"
            )

    def offset(self, X):
        """The formula's offset on ``X``: the sum of its ``offset(...)`` terms.

        Parameters
        ----------
        X : pandas.DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,) or None
            ``None`` when the formula has no ``offset()`` term.
        """
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "model_spec_")
        if not self.offset_terms_:
            return None
        frame = self._frame(X, reset=False)
        nodes = [rd.parse(t) for t in self.offset_terms_]
        context = build_context()
        absent = sorted(
            {v for n in nodes for v in variables(n) if v not in frame.columns and v not in context}
        )
        if absent:
            raise ValueError(
                f"{type(self).__name__}: column{'s' if len(absent) > 1 else ''} "
                f"{', '.join(map(repr, absent))} (of the offset "
                f"{' + '.join(self.offset_terms_)}) missing from the data"
            )
        return offset_values(nodes, frame)

    def __getstate__(self):
        state = super().__getstate__()
        if "model_spec_" in state:
            state = {**state, "model_spec_": plain_spec(state["model_spec_"])}
        return state

    def __setstate__(self, state):
        if isinstance(state.get("model_spec_"), dict):
            state = {**state, "model_spec_": spec_from_plain(state["model_spec_"])}
        super().__setstate__(state)

    def transform(self, X):
        """The design matrix of ``X`` under the fitted encoding.

        Parameters
        ----------
        X : pandas.DataFrame or array-like of shape (n_samples, n_features)
            Columns are found by name (arrays: ``x0, x1, …``).

        Returns
        -------
        ndarray of shape (n_samples, n_features_out)
        """
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "model_spec_")
        frame = self._frame(X, reset=False)
        return design_values(self, frame)

    def get_feature_names_out(self, input_features=None):
        """R's names of the output columns.

        Parameters
        ----------
        input_features : None
            Ignored (the names come from the formula).

        Returns
        -------
        ndarray of str
        """
        from sklearn.utils.validation import check_is_fitted

        check_is_fitted(self, "model_spec_")
        return self.feature_names_out_.copy()

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = ["float64"]
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        return tags


def check_columns(owner: str, rhs, frame) -> None:
    """Every variable of the formula is a column of the data (or a formula function)."""
    context = build_context()
    absent = sorted(v for v in variables(rhs) if v not in frame.columns and v not in context)
    if absent:
        p = frame.shape[1]
        raise ValueError(
            f"{owner}: the formula reads column{'s' if len(absent) > 1 else ''} "
            f"{', '.join(map(repr, absent))}, not in the data (X has {p} feature(s): "
            f"{', '.join(str(c) for c in list(frame.columns)[:10])}{', …' if p > 10 else ''})"
        )


def check_new_data(owner: str, spec, frame, needed=None) -> None:
    """Missing columns, missing values and unseen factor levels, each named (``needed``: the
    columns the formula reads, by default the spec's)."""
    if needed is None:
        needed = sorted(str(v) for v in spec.required_variables)
    absent = [v for v in needed if v not in frame.columns]
    if absent:
        raise ValueError(
            f"{owner}: column{'s' if len(absent) > 1 else ''} {', '.join(map(repr, absent))} "
            f"missing from the new data; the formula reads {', '.join(needed)}"
        )
    bad = [v for v in needed if frame[v].isna().any()]
    if bad:
        raise ValueError(f"{owner}: in the new data, {_contains_nan(bad)}")
    for expr, (_, state) in spec.encoder_state.items():
        levels = state.get("categories") if isinstance(state, dict) else None
        column = _factor_column(expr)
        if levels is None or column not in frame.columns:
            continue
        values = frame[column].astype(object)
        unseen = sorted({str(v) for v in values if v not in set(levels)})
        if unseen:
            raise ValueError(
                f"{owner}: column {column!r} has level(s) unseen when the model was fitted: "
                f"{', '.join(map(repr, unseen[:5]))}; the fitted levels are "
                f"{', '.join(map(repr, levels))}"
            )


def _contains_nan(columns) -> str:
    if len(columns) == 1:
        return f"column {columns[0]!r} contains NaN"
    return f"columns {', '.join(map(repr, columns))} contain NaN"


def _factor_column(expr: str):
    try:
        node = rd.parse(expr)
    except ValueError:
        return None
    if node.kind == "call" and node.args and node.args[0][1].kind == "name":
        return node.args[0][1].value
    return node.value if node.kind == "name" else None


def design_values(transformer, frame) -> np.ndarray:
    """The fitted transformer's design of ``frame`` as a float array (no intercept column)."""
    spec = transformer.model_spec_
    frame = r_types(frame)
    check_new_data(type(transformer).__name__, spec, frame, transformer.variables_)
    mm, _ = materialize(None, frame, spec=spec, na_action="ignore")
    return design_array(transformer, mm)


def design_array(transformer, matrix) -> np.ndarray:
    """The columns of a formulaic model matrix in R's order, as floats (no intercept)."""
    columns = getattr(transformer, "design_columns_", None)
    if columns is None:  # fitted before the column order was recorded
        columns = [c for c in matrix.columns if c != "Intercept"]
    return np.asarray(matrix.loc[:, list(columns)], dtype=np.float64)


def _plain(value, where: str):
    """``value`` as dicts, lists, arrays, numbers and strings (and statlearning estimators)."""
    from ..base import StatBase

    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "O":
            return [_plain(v, where) for v in value.tolist()]
        return value.copy()
    if isinstance(value, dict):
        return {str(k): _plain(v, where) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v, where) for v in value]
    if isinstance(value, StatBase):  # a fitted basis (bs, ns, poly): a trusted type
        return value
    raise TypeError(
        f"FormulaTransformer: the state of {where!r} holds a {type(value).__name__}, which a "
        "model file cannot store; use the formula functions of statlearning.formula"
    )


def plain_spec(spec) -> dict:
    """What a fitted formula learned, as plain data: formulaic's formula text, the state of
    every stateful transform (spline knots, polynomial recurrences, centring) and the levels
    of every factor. :func:`spec_from_plain` rebuilds the ``ModelSpec``."""
    encoders = {}
    for expr, (kind, state) in spec.encoder_state.items():
        kept = {k: v for k, v in state.items() if k != "contrasts"}  # introspection only
        encoders[str(expr)] = [str(kind.value), _plain(kept, expr)]
    return {
        "formula": str(spec.formula),
        "ensure_full_rank": bool(spec.ensure_full_rank),
        "transform_state": {str(k): _plain(v, k) for k, v in spec.transform_state.items()},
        "encoder_state": encoders,
    }


def spec_from_plain(plain: dict):
    """The ``ModelSpec`` of :func:`plain_spec`'s output."""
    require_formulaic()
    from formulaic import ModelSpec
    from formulaic.parser.types import Factor

    return ModelSpec(
        formula=plain["formula"],
        materializer="pandas",
        ensure_full_rank=plain["ensure_full_rank"],
        na_action="ignore",
        output="pandas",
        transform_state={k: dict(v) for k, v in plain["transform_state"].items()},
        encoder_state={
            k: (Factor.Kind(kind), dict(state))
            for k, (kind, state) in plain["encoder_state"].items()
        },
    )
