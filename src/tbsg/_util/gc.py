"""Pausing Python's cyclic garbage collector around allocation-heavy phases.

Compiling a large game allocates millions of objects that all stay alive (states, the
state index, action lists), and the float solver allocates thousands of short-lived
array and sparse-matrix wrappers; neither creates reference cycles worth collecting, so
the collector's passes over the live objects are pure overhead. :func:`paused` switches
it off for the duration and restores the previous setting, even on error.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused"]


@contextmanager
def paused() -> Iterator[None]:
    """Disable the cyclic garbage collector inside the ``with`` block.

    Examples
    --------
    >>> import gc
    >>> with paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
