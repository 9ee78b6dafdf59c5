"""Pausing Python's cyclic garbage collector around allocation-heavy phases.

Compiling a large game allocates millions of objects that all stay alive (states, the
state index, action lists), and the float solver allocates thousands of short-lived
array and sparse-matrix wrappers; neither creates reference cycles worth collecting, so
the collector's passes over the live objects are pure overhead. :func:`paused` switches
it off for the duration and restores the previous setting, even on error.

:func:`release_free_memory` is the other half of living with many allocations: what the
C allocator frees it keeps in its heap for reuse, so after a phase that freed much (the
float solver's levels, every value a loaded file recomputes to check them) the resident
size stays as high as the phase's peak until the free pages are given back.
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["paused", "release_free_memory"]


def _trimmer() -> Callable[[], object] | None:
    """glibc's ``malloc_trim``, or None where the C library has none."""
    try:
        trim: Callable[[int], object] = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):  # not glibc (macOS, Windows, musl)
        return None
    return lambda: trim(0)


_TRIM = _trimmer()


def release_free_memory() -> None:
    """Give the pages the C allocator holds free back to the operating system
    (``malloc_trim(0)``: about a millisecond, and pages reused later are faulted in
    again); elsewhere than glibc this does nothing."""
    if _TRIM is not None:
        _TRIM()


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
