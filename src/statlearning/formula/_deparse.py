"""R's reading and printing of formulas: a small parser of R's formula syntax (with the Python
spellings formulaic writes: ``**``, ``=`` for arguments, lists, ``True``) and R's ``deparse``.

R prints a model's call and its coefficient names by deparsing expressions: binary operators
``+ - * ~ == < %in% ...`` with a space either side, ``/ ^ :`` without, arguments as
``name = value``, numbers with 15 significant digits (``1e+05``), strings in double quotes, and a
line break (indented four spaces) after an operator or a comma once a line exceeds 60
characters (``deparse``'s ``width.cutoff``). :func:`parse` reads a formula or an expression;
:func:`deparse` prints it as R does; :func:`to_python` writes it back for formulaic, with the
arithmetic inside calls in Python's spelling (``I(x^2)`` → ``I(x**2)``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..inference._format import format_real

WIDTH_CUTOFF = 60  # R's deparse(width.cutoff = 60)

_TOKEN = re.compile(
    r"""\s*(?:
    (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?L?)
  | (?P<str>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')
  | (?P<bq>`[^`]*`)
  | (?P<name>[A-Za-z_.][A-Za-z0-9_.]*)
  | (?P<op>%[^%]*%|\*\*|==|!=|<=|>=|&&|\|\||[-+*/^:~()\[\],=<>&|!])
    )""",
    re.VERBOSE,
)

#: Binary operators by increasing precedence (R's ?Syntax); ``right`` marks right-associative.
_LEVELS = [
    ({"~"}, False),
    ({"||", "|"}, False),
    ({"&&", "&"}, False),
    ({"==", "!=", "<", ">", "<=", ">="}, False),
    ({"+", "-"}, False),
    ({"*", "/"}, False),
    ({"%"}, False),  # any %op%
    ({":"}, False),
]
#: Printed without spaces (R's PP_BINARY2); every other binary operator has a space each side.
_TIGHT = {"/", ":", "^"}


@dataclass(frozen=True)
class Node:
    """An expression: ``kind`` is ``name``, ``num``, ``str``, ``bool``, ``call``, ``binary``,
    ``unary`` or ``paren``; ``value`` the name, number text, operator or callee; ``args`` the
    operands, or the ``(keyword or None, Node)`` pairs of a call."""

    kind: str
    value: object = None
    args: tuple = ()


class FormulaSyntaxError(ValueError):
    """A formula that cannot be read."""


def _tokens(text: str) -> list[tuple[str, str]]:
    out, pos, text = [], 0, text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise FormulaSyntaxError(
                f"cannot read the formula {text!r} at character {pos + 1}: {text[pos : pos + 10]!r}"
            )
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0

    def peek(self, k: int = 0):
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else (None, None)

    def take(self, value=None):
        kind, tok = self.peek()
        if kind is None or (value is not None and tok != value):
            want = f"{value!r}" if value else "more"
            raise FormulaSyntaxError(f"cannot read the formula {self.text!r}: expected {want}")
        self.i += 1
        return kind, tok

    def parse(self) -> Node:
        node = self.expr(0)
        if self.i != len(self.toks):
            raise FormulaSyntaxError(
                f"cannot read the formula {self.text!r}: unexpected {self.peek()[1]!r}"
            )
        return node

    def _level_of(self, tok) -> int | None:
        if tok is None:
            return None
        if tok.startswith("%") and len(tok) > 1:
            return 6
        for lvl, (ops, _) in enumerate(_LEVELS):
            if tok in ops:
                return lvl
        return None

    def expr(self, level: int) -> Node:
        if level == len(_LEVELS):
            return self.unary()
        if level == 0 and self.peek()[1] == "~":  # one-sided formula
            self.take()
            return Node("unary", "~", (self.expr(1),))
        if level == 3 and self.peek()[1] == "!":
            self.take()
            return Node("unary", "!", (self.expr(3),))
        left = self.expr(level + 1)
        while True:
            kind, tok = self.peek()
            if kind != "op" or self._level_of(tok) != level:
                return left
            self.take()
            left = Node("binary", tok, (left, self.expr(level + 1)))

    def unary(self) -> Node:
        if self.peek()[1] in ("-", "+"):
            _, op = self.take()
            return Node("unary", op, (self.unary(),))
        return self.power()

    def power(self) -> Node:
        base = self.postfix()
        if self.peek()[1] in ("^", "**"):
            self.take()
            return Node("binary", "^", (base, self.unary()))  # right-associative
        return base

    def postfix(self) -> Node:
        node = self.atom()
        while self.peek()[1] == "(":
            self.take("(")
            node = Node("call", node, tuple(self.arguments(")")))
        return node

    def arguments(self, close: str) -> list:
        args = []
        while self.peek()[1] != close:
            key = None
            if self.peek()[0] in ("name", "bq") and self.peek(1)[1] == "=":
                key = self.take()[1].strip("`")
                self.take("=")
            args.append((key, self.expr(0)))
            if self.peek()[1] == ",":
                self.take(",")
            elif self.peek()[1] != close:
                self.take(close)
        self.take(close)
        return args

    def atom(self) -> Node:
        kind, tok = self.take()
        if kind == "num":
            return Node("num", tok)
        if kind == "str":
            return Node("str", bytes(tok[1:-1], "utf-8").decode("unicode_escape"))
        if kind == "bq":
            return Node("name", tok[1:-1])
        if kind == "name":
            if tok in ("True", "False", "TRUE", "FALSE"):
                return Node("bool", tok in ("True", "TRUE"))
            return Node("name", tok)
        if tok == "(":
            inner = self.expr(0)
            self.take(")")
            return Node("paren", None, (inner,))
        if tok == "[":  # a Python list: R's c(...)
            return Node("call", Node("name", "c"), tuple(self.arguments("]")))
        raise FormulaSyntaxError(f"cannot read the formula {self.text!r}: unexpected {tok!r}")


def parse(text: str) -> Node:
    """Read a formula (``y ~ x + g``, ``~ x``) or an expression (``bs(x2, df = 4)``)."""
    return _Parser(text).parse()


_SYNTACTIC = re.compile(r"(?:[A-Za-z]|\.(?![0-9]))[A-Za-z0-9_.]*|\.")


def _name(name: str) -> str:
    return name if _SYNTACTIC.fullmatch(name) else f"`{name}`"


def _number(text: str) -> str:
    if text.endswith("L"):
        return text
    return format_real([float(text)], 15)[0].strip()


class _Writer:
    """R's deparse buffer: the current line's length, the indentation, line breaks."""

    def __init__(self, cutoff: int):
        self.lines: list[str] = []
        self.line = ""
        self.indent = 0
        self.cutoff = cutoff

    def put(self, text: str) -> None:
        if not self.line and self.lines:
            self.line = "    " * min(self.indent, 4) + "  " * max(0, self.indent - 4)
        self.line += text

    def linebreak(self, broken: bool) -> bool:
        if len(self.line) > self.cutoff:
            if not broken:
                broken = True
                self.indent += 1
            self.lines.append(self.line)
            self.line = ""
        return broken

    def text(self) -> str:
        return "\n".join([*self.lines, self.line])


def _write(node: Node, w: _Writer) -> None:
    kind = node.kind
    if kind == "name":
        w.put(_name(node.value))
    elif kind == "num":
        w.put(_number(node.value))
    elif kind == "str":
        w.put('"' + node.value.replace("\\", "\\\\").replace('"', '\\"') + '"')
    elif kind == "bool":
        w.put("TRUE" if node.value else "FALSE")
    elif kind == "paren":
        w.put("(")
        _write(node.args[0], w)
        w.put(")")
    elif kind == "unary":
        w.put(node.value)
        _write(node.args[0], w)
    elif kind == "binary":
        left, right = node.args
        _write(left, w)
        if node.value in _TIGHT:
            w.put(node.value)
            _write(right, w)
            return
        w.put(f" {node.value} ")
        broken = w.linebreak(False)
        _write(right, w)
        if broken:
            w.indent -= 1
    elif kind == "call":
        _write(node.value, w)
        w.put("(")
        write_arguments(node.args, w)
        w.put(")")
    else:  # pragma: no cover - the parser makes no other kind
        raise AssertionError(kind)


def write_arguments(args, w: _Writer) -> None:
    """``name = value, ...`` with R's line breaks after the commas."""
    broken = False
    for k, (key, value) in enumerate(args):
        if key is not None:
            w.put(f"{_name(key)} = ")
        if isinstance(value, str):
            w.put(value)
        else:
            _write(value, w)
        if k < len(args) - 1:
            w.put(", ")
            broken = w.linebreak(broken)
    if broken:
        w.indent -= 1


def deparse(node: Node | str, cutoff: int = 10**9) -> str:
    """R's ``deparse`` of an expression (a :class:`Node` or text to :func:`parse`).

    With the default ``cutoff`` the result is one line (a coefficient's name); ``cutoff=60``
    breaks lines as R's ``print`` of a call does.
    """
    if isinstance(node, str):
        node = parse(node)
    w = _Writer(cutoff)
    _write(node, w)
    return w.text()


def deparse_call(function: str, args, cutoff: int = WIDTH_CUTOFF) -> str:
    """A call as R prints it (``lm(formula = y ~ x, data = data)``), lines broken as R's.

    ``args`` is a list of ``(name, value)`` pairs; a value is a :class:`Node` or text printed
    verbatim.
    """
    w = _Writer(cutoff)
    w.put(f"{function}(")
    write_arguments(args, w)
    w.put(")")
    return w.text()


def to_python(node: Node, inside_call: bool = False) -> str:
    """The expression written for formulaic: formula operators as R's, arithmetic inside calls
    in Python's spelling (``^`` → ``**``, ``TRUE`` → ``True``)."""
    kind = node.kind
    if kind == "name":
        return node.value if _SYNTACTIC.fullmatch(node.value) else f"`{node.value}`"
    if kind == "num":
        return node.value.rstrip("L")
    if kind == "str":
        return repr(node.value)
    if kind == "bool":
        return "True" if node.value else "False"
    if kind == "paren":
        return f"({to_python(node.args[0], inside_call)})"
    if kind == "unary":
        return f"{node.value}{to_python(node.args[0], inside_call)}"
    if kind == "binary":
        op = node.value
        if inside_call and op == "^":
            op = "**"
        left, right = (to_python(a, inside_call) for a in node.args)
        return f"{left} {op} {right}"
    args = ", ".join(
        (f"{key.replace('.', '_')}=" if key else "") + to_python(value, True)
        for key, value in node.args
    )
    return f"{to_python(node.value, inside_call)}({args})"
