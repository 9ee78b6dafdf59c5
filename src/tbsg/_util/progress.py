"""Progress bars for long solves: shown only when they help.

A bar appears when the solve has run for more than :data:`DELAY` seconds, standard error
is an interactive terminal (or a notebook, where tqdm's ``auto`` front end draws a widget),
and tqdm is installed (the ``notebook`` extra). Tests and batch runs stay silent.
``progress=True`` forces a bar (if tqdm is available), ``progress=False`` disables it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

__all__ = ["DELAY", "make_progress"]

#: Seconds a solve runs before a bar appears.
DELAY = 2.0


def _interactive() -> bool:
    if "ipykernel" in sys.modules:
        return True
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


class _Bar:
    """Callback ``(done, total)`` that opens a tqdm bar after ``DELAY`` seconds."""

    def __init__(self, label: str, force: bool) -> None:
        self.label = label
        self.start = time.perf_counter()
        self.delay = 0.0 if force else DELAY
        self.bar: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            if time.perf_counter() - self.start < self.delay:
                return
            try:
                from tqdm.auto import tqdm
            except ImportError:  # the notebook extra is not installed: stay silent
                self.delay = float("inf")
                return
            self.bar = tqdm(total=total, desc=self.label, unit="state", leave=False)
        self.bar.update(done - self.bar.n)  # redraws at most every tqdm mininterval

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def make_progress(progress: bool | None, label: str) -> tuple[Callable[[int, int], None] | None,
                                                              Callable[[], None]]:
    """The callback to hand to a solver, and a function to close the bar afterwards."""
    if progress is False or (progress is None and not _interactive()):
        return None, lambda: None
    bar = _Bar(label, force=progress is True)
    return bar, bar.close
