"""Trust under adversarial use: static typing of exactness, and clean interruption.

(Validation of bad games is in ``test_bad_input.py``; the fuzz properties in
``test_properties.py``.)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

import tbsg
from tbsg.games import risk_or_safety

SRC = Path(tbsg.__file__).resolve().parent.parent

GAME_TEMPLATE = '''
from fractions import Fraction
import tbsg

class Coin:
    initial = "flip"

    def player(self, s: str) -> int:
        return 0

    def actions(self, s: str) -> tuple[str, ...]:
        return ("go",)

    def outcomes(self, s: str, a: str) -> list[tuple[{prob}, tbsg.Terminal]]:
        return [({half}, tbsg.win(0)), ({half}, tbsg.win(1))]

value = tbsg.solve(Coin()).value()
exact: Fraction = value
'''


def _mypy(tmp_path: Path, prob: str, half: str) -> tuple[int, str]:
    api = pytest.importorskip("mypy.api")
    file = tmp_path / "user_game.py"
    file.write_text(GAME_TEMPLATE.format(prob=prob, half=half))
    old = os.environ.get("MYPYPATH")
    os.environ["MYPYPATH"] = str(SRC)
    try:
        out, err, status = api.run(["--strict", "--no-error-summary", "--cache-dir",
                                    str(tmp_path / ".mypy_cache"), str(file)])
    finally:
        if old is None:
            del os.environ["MYPYPATH"]
        else:
            os.environ["MYPYPATH"] = old
    return status, out + err


def test_float_probability_is_a_static_type_error(tmp_path: Path) -> None:
    # issue 5: a float probability must be rejected by mypy, not only at run time
    status, out = _mypy(tmp_path, "float", "0.5")
    assert status == 1, out
    assert 'No overload variant of "solve" matches argument type "Coin"' in out
    status, out = _mypy(tmp_path, "Fraction", "Fraction(1, 2)")
    assert status == 0, out


def test_float_probability_is_a_runtime_type_error() -> None:
    @dataclass(frozen=True)
    class Coin:
        initial: str = "flip"

        def player(self, s: str) -> int:
            return 0

        def actions(self, s: str) -> tuple[str, ...]:
            return ("go",)

        def outcomes(self, s: str, a: str) -> list[tuple[float, tbsg.Terminal]]:
            return [(0.5, tbsg.win(0)), (0.5, tbsg.win(1))]

    with pytest.raises(TypeError, match=r"Fraction\(1, 2\)"):
        tbsg.solve(Coin())  # type: ignore[call-overload]


@dataclass
class Interrupting:
    """Risk or Safety to 6 whose ``outcomes`` presses Ctrl-C after ``after`` calls."""

    after: int
    calls: int = 0

    def __post_init__(self) -> None:
        self.inner = risk_or_safety(6)
        self.initial = self.inner.initial

    def player(self, s: object) -> int:
        return self.inner.player(s)  # type: ignore[arg-type]

    def actions(self, s: object) -> object:
        return self.inner.actions(s)  # type: ignore[arg-type]

    def outcomes(self, s: object, a: object) -> object:
        self.calls += 1
        if self.calls > self.after:
            raise KeyboardInterrupt
        return self.inner.outcomes(s, a)  # type: ignore[arg-type]


def test_ctrl_c_during_enumeration_propagates_unwrapped() -> None:
    # Ctrl-C is not a game error: it must reach the user as KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        tbsg.solve(Interrupting(after=50))  # type: ignore[call-overload]
    # nothing is left half-done: the next solve works and is exact
    # seed 000 (Jehn 2026), section 3.3: n = 6 gives 275848876/521145625
    assert tbsg.solve(risk_or_safety(6)).value() == Fraction(275848876, 521145625)


def test_ctrl_c_during_the_solve_propagates(monkeypatch: pytest.MonkeyPatch) -> None:
    import tbsg.api.solving

    def interrupting(progress: bool | None, label: str) -> tuple[object, object]:
        def press(done: int, total: int) -> None:
            if done > total // 2:
                raise KeyboardInterrupt
        return press, lambda: None

    monkeypatch.setattr(tbsg.api.solving, "make_progress", interrupting)
    for exact in (True, False):
        with pytest.raises(KeyboardInterrupt):
            tbsg.solve(risk_or_safety(8), exact=exact)
    monkeypatch.undo()
    assert tbsg.solve(risk_or_safety(3)).value() == Fraction(6, 11)
