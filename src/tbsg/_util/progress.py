"""Progress reports for long runs: a bar on a terminal, plain lines elsewhere.

A long phase (enumerating states, solving levels, finding parametric regions) calls a
callback ``report(done, total)`` now and then: every :data:`tbsg.engine.compile.REPORT_EVERY`
new states, after each level, after each region. The callback costs a clock read, so the
phases call it every so many units of work, never per state, and the callback decides
whether anything is shown:

- nothing for a run shorter than :data:`DELAY` seconds (most runs: tests and small games
  stay silent);
- then, on an interactive terminal or in a notebook with tqdm installed, a bar;
- otherwise (standard error is a file, a pipe or a log, or tqdm is missing) one plain
  line on standard error at most every :data:`INTERVAL` seconds, so that a batch job's
  log shows the run is alive without being flooded.

An enumeration reports states found against the state limit ``max_states``, which is a
bound, not the work to do: nobody knows the number of states before the enumeration ends.
What the states found and the rate do tell is when the limit *would* be reached if the
game kept growing at that rate; once the states found pass :data:`LIMIT_WARNING` of the
limit, a line says so with the rate and that estimate, so a game heading for the limit
is stopped by its user rather than after minutes and gigabytes.

``progress=False`` silences a call, ``progress=True`` reports from the start, and
:func:`quiet` silences every report in its block (``tbsg --quiet``). :data:`DELAY`,
:data:`INTERVAL` and :data:`LIMIT_WARNING` are module settings that a program (or a test)
may change.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = ["DELAY", "INTERVAL", "LIMIT_WARNING", "make_progress", "quiet"]

#: Seconds a run goes on before anything is shown.
DELAY = 2.0

#: Seconds at least between two plain lines.
INTERVAL = 5.0

#: Fraction of ``max_states`` found after which an enumeration estimates when it reaches it.
LIMIT_WARNING = 0.1

_silenced = 0


@contextmanager
def quiet() -> Iterator[None]:
    """Silence every progress report (bars and lines) inside the block."""
    global _silenced
    _silenced += 1
    try:
        yield
    finally:
        _silenced -= 1


def _interactive() -> bool:
    """A notebook's kernel runs this process, or standard error is a terminal.

    A notebook is an IPython shell with a kernel; ``ipykernel`` merely imported (by a test
    collector, say) is not one.
    """
    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)()
    if getattr(shell, "kernel", None) is not None:
        return True
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


def _count(n: float) -> str:
    return f"{n:,.0f}"


class _Report:
    """Callback ``(done, total)``: a tqdm bar or throttled lines, after a delay.

    ``limit`` says that ``total`` is the state limit rather than the work to do;
    ``open_ended`` that ``total`` grows as the work goes (``total - done`` are still to do).
    """

    def __init__(self, label: str, force: bool, limit: bool, unit: str, open_ended: bool) -> None:
        self.label, self.limit, self.unit, self.open_ended = label, limit, unit, open_ended
        self.start = time.perf_counter()
        self.delay = 0.0 if force else DELAY
        self.next_line = self.start + self.delay
        self.bar: Any = None
        self.lines = not _interactive()
        self.warned = False

    def __call__(self, done: int, total: int) -> None:
        if _silenced:
            return
        now = time.perf_counter()
        if self.lines:
            self._line(now, done, total)
        elif now - self.start >= self.delay:
            self._bar(done, total)

    def _bar(self, done: int, total: int) -> None:
        if self.bar is None:
            try:
                from tqdm.auto import tqdm
            except ImportError:  # the notebook extra is not installed: plain lines instead
                self.lines = True
                return
            desc = f"{self.label} (bar: max_states)" if self.limit else self.label
            self.bar = tqdm(total=total, desc=desc, unit=self.unit, leave=False)
        self.bar.update(done - self.bar.n)  # redraws at most every tqdm mininterval

    def _line(self, now: float, done: int, total: int) -> None:
        elapsed = now - self.start
        if self.limit and not self.warned and done >= LIMIT_WARNING * total and elapsed >= self.delay:
            self.warned = True
            self._write(self._warning(done, total, elapsed))
        if now < self.next_line:
            return
        self.next_line = now + INTERVAL
        if self.limit:
            rate = done / elapsed if elapsed > 0 else 0.0
            text = f"{_count(done)} {self.unit}s found ({_count(rate)} {self.unit}s/s)"
        elif self.open_ended:
            text = f"{_count(done)} {self.unit}s found, {_count(total - done)} still searched"
        else:
            share = f" ({100 * done // total}%)" if total > 0 else ""
            text = f"{_count(done)} of {_count(total)} {self.unit}s done{share}"
        self._write(f"tbsg: {self.label}: {text}, {elapsed:.0f} s")

    def _warning(self, done: int, total: int, elapsed: float) -> str:
        rate = done / elapsed if elapsed > 0 else float("inf")
        left = (total - done) / rate
        return (f"tbsg: {self.label}: at {_count(rate)} {self.unit}s/s the limit of "
                f"{_count(total)} {self.unit}s is reached in ~{left:.0f} s if the game keeps "
                f"growing; pass a larger max_states= (--max-states) or make the game smaller")

    @staticmethod
    def _write(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


Callback = Callable[[int, int], None]


def make_progress(progress: bool | None, label: str, *, limit: bool = False, unit: str = "state",
                  open_ended: bool = False) -> tuple[Callback | None, Callable[[], None]]:
    """The callback to hand to a long phase, and a function to close its bar afterwards.

    Parameters
    ----------
    progress : bool or None
        ``False``: no callback (nothing is shown); ``None``: reports after :data:`DELAY`
        seconds; ``True``: reports from the start.
    label : str
        What the phase does, e.g. ``"enumerating"``: each line starts ``tbsg: <label>:``.
    limit : bool
        The callback's ``total`` is a limit (``max_states``), not the work to do: lines
        say how many were found and at what rate, and warn when the limit is near.
    unit : str
        What ``done`` counts (singular).
    open_ended : bool
        ``total`` is what is known so far and may grow (parametric regions: the regions
        found plus the intervals still to search): lines say so.
    """
    if progress is False or _silenced:
        return None, lambda: None
    report = _Report(label, progress is True, limit, unit, open_ended)
    return report, report.close
