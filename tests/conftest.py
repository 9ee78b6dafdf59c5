"""Shared pytest configuration: make ``tests/strategies.py`` importable as ``strategies``
whatever pytest's import mode, and keep hypothesis free of wall-clock deadlines (exact
arithmetic on big rationals has uneven timings)."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import settings

_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

settings.register_profile("tbsg", deadline=None)
settings.load_profile("tbsg")
