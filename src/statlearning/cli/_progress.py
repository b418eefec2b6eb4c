"""The command line's progress bar, written to standard error.

The bar stays silent for short jobs: it appears only once the work has been running for more
than ``delay`` seconds. On a terminal it is a tqdm bar on one line, cleared when the job ends;
when standard error is redirected (a log file, a pipe, a CI job) it is plain text: a line at
each 10 % step and after any step that ends ``interval`` seconds or more after the last line,
so that a job of slow steps shows every one of them.
"""

from __future__ import annotations

import sys
import time

__all__ = ["Progress"]

_BAR_WIDTH = 24
_BAR_FORMAT = "{desc}{percentage:3.0f}%|{bar}| ({n_fmt}/{total_fmt}){postfix}"


class Progress:
    """Count completed steps of a job and show the progress on a stream.

    Parameters
    ----------
    total : int
        Number of steps of the whole job.
    label : str, default=""
        Text written in front of the bar.
    stream : file-like, optional
        Where to write; standard error by default.
    enabled : bool, default=True
        ``False`` disables all output (``--quiet``).
    delay : float, default=1.0
        Seconds of work before the bar first appears.
    clock : callable, default=time.monotonic
        Returns the current time in seconds (replaceable in tests).
    interval : float, default=2.0
        When not on a terminal: a step ending this many seconds after the last line printed
        gets a line of its own.

    Examples
    --------
    >>> with Progress(10, label="cv") as bar:  # doctest: +SKIP
    ...     for _ in range(10):
    ...         bar.update()
    """

    def __init__(
        self, total, *, label="", stream=None, enabled=True, delay=1.0, clock=None, interval=2.0
    ):
        self.total = max(int(total), 0)
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.enabled = bool(enabled) and self.total > 0
        self.delay = float(delay)
        self.clock = time.monotonic if clock is None else clock
        self.done = 0
        self._start = self.clock()
        self._tty = self.enabled and _isatty(self.stream)
        self._shown = False  # has anything been written yet?
        self._bar = None  # TTY: the tqdm bar, made when first shown
        self._last_step = -1  # non-TTY: the last 10 % step printed
        self.interval = float(interval)
        self._last_time = self._start  # non-TTY: when the last line was printed
        self.detail = ""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()
        return False

    def update(self, n=1, detail=None):
        """Record ``n`` more completed steps and redraw if the bar is showing.

        Parameters
        ----------
        n : int, default=1
            Number of steps just completed.
        detail : str, optional
            What was just done (a model name), shown after the count.
        """
        if detail is not None:
            self.detail = str(detail)
        self.done = min(self.done + int(n), self.total)
        if not self.enabled:
            return
        if not self._shown and self.clock() - self._start <= self.delay:
            return
        self._draw()

    def set_total(self, total):
        """Change the number of steps of the whole job (steps dropped or added on the way).

        Parameters
        ----------
        total : int
            The new number of steps; at least the steps done.
        """
        self.total = max(int(total), self.done)

    def close(self):
        """Finish the display: clear the terminal line, or print the final step."""
        if not (self.enabled and self._shown):
            return
        if self._tty:
            try:
                self._bar.close()
            except (OSError, ValueError):
                pass
        else:
            self._draw()
        self._shown = False
        self.enabled = False

    def _fraction(self):
        return self.done / self.total if self.total else 1.0

    def _draw(self):
        fraction = self._fraction()
        if self._tty:
            self._draw_tqdm()
        else:
            step = int(fraction * 10 + 1e-9)  # 0..10, one line per 10 % step
            now = self.clock()
            slow = self.done > 0 and now - self._last_time >= self.interval
            if step <= self._last_step and not (slow and self.done < self.total):
                return
            percent = f"{int(fraction * 100 + 1e-9)}%"
            self._write(f"{self._prefix()}{percent} ({self.done}/{self.total}){self._detail()}\n")
            self._last_step = max(step, self._last_step)
            self._last_time = now
        self._shown = True

    def _draw_tqdm(self):
        from tqdm import tqdm

        try:
            if self._bar is None:
                self._bar = tqdm(
                    total=self.total, desc=self._prefix(), file=self.stream, leave=False,
                    ncols=80 + len(self._prefix()), bar_format=_BAR_FORMAT, mininterval=0,
                    miniters=1, ascii=" #", dynamic_ncols=False,
                )  # fmt: skip
            self._bar.total = self.total
            self._bar.n = self.done
            detail = self._detail()
            self._bar.set_postfix_str(detail.strip(), refresh=False)
            self._bar.refresh()
        except (OSError, ValueError):  # closed or broken stream: give up quietly
            self.enabled = False

    def _detail(self):
        return f" {self.detail}" if self.detail and self.done < self.total else ""

    def _prefix(self):
        return f"{self.label}: " if self.label else ""

    def _write(self, text):
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # closed or broken stream: give up quietly
            self.enabled = False


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, OSError, ValueError):
        return False
