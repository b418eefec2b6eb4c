"""What the command line prints: lines of bounded length, and warnings grouped with a count."""

from __future__ import annotations

import re

__all__ = ["MAX_LINE", "WarningLog", "clip", "one_line"]

#: No printed line is longer than this many characters.
MAX_LINE = 1000

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def one_line(message) -> str:
    """The first non-blank line of ``message``, stripped."""
    lines = [line.strip() for line in str(message).splitlines() if line.strip()]
    return lines[0] if lines else ""


def clip(line, limit=MAX_LINE) -> str:
    """``line`` cut to at most ``limit`` characters, saying how many were left out."""
    line = str(line)
    if len(line) <= limit:
        return line
    keep = limit - len(f"... ({len(line)} more characters)")  # the widest count
    return f"{line[:keep]}... ({len(line) - keep} more characters)"


def _template(message):
    """Split ``message`` into its text around numbers and the numbers themselves."""
    return tuple(_NUMBER.split(message)), _NUMBER.findall(message)


def _number_range(values):
    uniq = list(dict.fromkeys(values))
    if len(uniq) == 1:
        return uniq[0]
    try:
        floats = sorted(uniq, key=float)
    except ValueError:  # pragma: no cover - the pattern only matches numbers
        return uniq[0]
    return f"{floats[0]}–{floats[-1]}"


class WarningLog:
    """Warnings of many fits, grouped by source, category and message up to its numbers.

    A message that differs between fits only in its numbers (an iteration count, a tolerance)
    is one group, printed once with the range of each number and the count of fits.
    """

    def __init__(self):
        self._groups = {}

    def add(self, source, category, message, fit):
        """Record warning ``category: message`` of ``source`` raised in fit number ``fit``."""
        text, numbers = _template(one_line(message))
        group = self._groups.setdefault((source, category, text), {"fits": set(), "numbers": []})
        group["fits"].add(fit)
        group["numbers"].append(numbers)

    def lines(self, n_fits=None, unit="folds"):
        """One line per group: ``source: Category: message (in k of n folds)``.

        Without ``n_fits`` the count is ``(k times)``, shown when ``k > 1``.
        """
        out = []
        for (source, category, text), group in self._groups.items():
            columns = list(zip(*group["numbers"], strict=True)) if group["numbers"] else []
            parts = [text[0]]
            for j, piece in enumerate(text[1:]):
                parts.append(_number_range(columns[j]) if j < len(columns) else "")
                parts.append(piece)
            k = len(group["fits"])
            if n_fits is not None:
                count = f" (in {k} of {n_fits} {unit})"
            else:
                count = f" ({k} times)" if k > 1 else ""
            out.append(clip(f"{source}: {category}: {''.join(parts)}{count}"))
        return out

    def __len__(self):
        return len(self._groups)
