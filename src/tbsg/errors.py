"""Exceptions raised by tbsg: every one of them, in one place.

Every error subclasses :class:`TbsgError` and the built-in a user would expect: a
malformed game is a :class:`ValueError`, an inexact number a :class:`TypeError`, a
state that the solution does not cover a :class:`KeyError`. Messages name the state,
the action and the offending value (shortened when it is long).

Examples
--------
>>> import tbsg
>>> issubclass(tbsg.ExactnessError, TypeError), issubclass(tbsg.InvalidGameError, ValueError)
(True, True)
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

__all__ = [
    "ExactnessError",
    "GameUnavailableError",
    "InfiniteExpectationError",
    "InfinitePlayError",
    "InvalidArgumentError",
    "InvalidGameError",
    "InvalidStrategyError",
    "NonStoppingGameError",
    "SolutionFileError",
    "StateLimitError",
    "TamperedSolutionError",
    "TbsgError",
    "ToleranceError",
    "UnknownStateError",
    "UnsupportedError",
    "exactness_error",
    "shorten",
    "show",
]


class TbsgError(Exception):
    """Base class of all tbsg errors."""


class InvalidGameError(TbsgError, ValueError):
    """The game breaks a rule of the model (probabilities, players, actions, payoffs, states)."""


class ExactnessError(TbsgError, TypeError):
    """A float (or other inexact number) reached code that computes exactly."""


class InvalidArgumentError(TbsgError, ValueError, TypeError):
    """An argument of a tbsg function has the wrong type or value (``tol``, ``max_states``, ...).

    It is both a :class:`ValueError` and a :class:`TypeError` (as numpy's ``AxisError``
    is both a ``ValueError`` and an ``IndexError``), so code catching either sees it.
    """


class StateLimitError(InvalidGameError):
    """Enumeration reached more states than the configured limit."""


class NonStoppingGameError(InvalidGameError):
    """Some strategies can keep play among non-terminal states forever.

    Attributes
    ----------
    trap_states : tuple
        States of the end components found (a sample if there are many).
    """

    def __init__(self, message: str, trap_states: tuple[object, ...]) -> None:
        super().__init__(message)
        self.trap_states = trap_states

    def __reduce__(self) -> tuple[object, ...]:  # picklable despite the extra argument
        return (type(self), (str(self), self.trap_states))


class UnsupportedError(TbsgError, NotImplementedError):
    """A combination tbsg does not solve (yet), e.g. a float solve of a non-stopping game."""


class InfinitePlayError(TbsgError, RuntimeError):
    """No candidate profile of a non-stopping game could be certified (see ``infinite_play``)."""


class InfiniteExpectationError(TbsgError, ValueError):
    """An expected total asked of a Markov chain is infinite or undefined.

    Play under the profile reaches, with positive ``probability``, a closed class of
    states it never leaves (no terminal), and the quantity counts something there at
    every visit; ``states`` holds a few states of such a class.
    """

    def __init__(self, message: str, probability: object = None,
                 states: tuple[object, ...] = ()) -> None:
        super().__init__(message)
        self.probability = probability
        self.states = states

    def __reduce__(self) -> tuple[object, ...]:  # picklable despite the extra arguments
        return (type(self), (self.args[0], self.probability, self.states))


class ToleranceError(TbsgError, ValueError):
    """A float solve could not prove the gap ``tol`` asked for.

    The message gives the smallest gap this computation proved (``reachable``); the
    bounds found, which hold, are in ``solution`` (a :class:`tbsg.FloatSolution` with
    ``converged=False``).
    """

    def __init__(self, message: str, solution: object = None, reachable: float = float("nan")) -> None:
        super().__init__(message)
        self.solution = solution
        self.reachable = reachable


class InvalidStrategyError(TbsgError, ValueError):
    """A strategy names an action that does not exist at a state, or misses a state."""


class UnknownStateError(InvalidGameError, KeyError):
    """A state that the solution does not cover (not reachable in the solved game) was looked up.

    Also an :class:`InvalidGameError` (a ``ValueError``), so code that catches a bad game sees it.
    """

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class TamperedSolutionError(TbsgError, ValueError):
    """A solution fails its certificate: it is not the solution of the game it claims."""


class SolutionFileError(TbsgError, ValueError):
    """A saved solution file is unreadable, truncated, edited, or for another game."""


class GameUnavailableError(SolutionFileError):
    """The game of a saved solution cannot be rebuilt, so the file cannot be checked.

    The file was not judged: its game's module or class cannot be imported, the game is
    outside tbsg and was neither passed nor allowed to be imported, its constructor fails
    on the recorded fields, or the game passed is another class. ``tbsg verify`` says
    "cannot check" (exit status 2), not "rejected" (exit status 1, a file that was checked
    and is wrong).

    Attributes
    ----------
    module, qualname : str
        The game's module and class as the file records them (``""`` if unreadable).
    """

    def __init__(self, message: str, module: str = "", qualname: str = "") -> None:
        super().__init__(message)
        self.module = module
        self.qualname = qualname

    def __reduce__(self) -> tuple[object, ...]:  # picklable despite the extra arguments
        return (type(self), (str(self), self.module, self.qualname))


def show(x: object, limit: int = 200) -> str:
    """``repr(x)`` for an error message: shortened, and never raising.

    A user ``__repr__`` may raise, and an ``int`` of more than 4,300 digits refuses to
    become text under Python's default limit: neither must turn a named error into a
    raw traceback. Fractions are shown as ``p/q``.

    >>> show(10**5000 + 1, 30)
    '1000000000000…(4975 more characters)…0000000000001'

    An int or Fraction of more than 4,300 characters is cut from the digits at its two
    ends, without being written in full (writing it is quadratic in its digits, too slow
    for an error message about a million-digit value).
    """
    if type(x) in (int, Fraction):
        cut = _cut_number(x, limit)  # type: ignore[arg-type]
        if cut is not None:
            return cut
    try:
        try:
            text = str(x) if type(x) is Fraction else repr(x)
        except ValueError:  # an int beyond the int-to-str digit limit
            old = sys.get_int_max_str_digits()
            sys.set_int_max_str_digits(0)
            try:
                text = str(x) if type(x) is Fraction else repr(x)
            finally:
                sys.set_int_max_str_digits(old)
    except Exception as exc:
        return f"<{type(x).__name__} object whose repr raised {type(exc).__name__}>"
    return shorten(text, limit)


def _cut_number(x: int | Fraction, limit: int) -> str | None:
    """``shorten(str(x), limit)`` for an int or Fraction longer than Python's int/str limit,
    from its leading and trailing digits; ``None`` for a shorter one (``str`` is quick)."""
    def digits(n: int) -> int:  # of n > 0, exactly, without writing it (as tbsg._util.digits counts)
        d = int(n.bit_length() * math.log10(2)) + 1
        return d if n >= 10 ** (d - 1) else d - 1

    p, q = (x, 1) if isinstance(x, int) else (x.numerator, x.denominator)
    sign, p = ("-" if p < 0 else ""), abs(p)
    n_p, n_q = (digits(p) if p else 1), (digits(q) if q != 1 else 0)
    total = len(sign) + n_p + (1 + n_q if q != 1 else 0)
    if total <= max(limit, 4300):
        return None
    keep = max(limit // 2 - 2, 1)

    def first(n: int, d: int) -> str:
        return str(n) if d <= keep else str(n // 10 ** (d - keep))

    def last(n: int, d: int) -> str:
        return str(n) if d <= keep else str(n % 10**keep).zfill(keep)

    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # (only numbers of at most `keep` digits are written)
    try:
        head = sign + first(p, n_p)
        if q != 1 and len(head) < keep:
            head += "/" + first(q, n_q)
        if q != 1:
            tail = last(q, n_q)
            if len(tail) < keep:
                tail = (sign if n_p < keep else "") + last(p, n_p) + "/" + tail
        else:
            tail = (sign if n_p < keep else "") + last(p, n_p)
    finally:
        sys.set_int_max_str_digits(old)
    return f"{head[:keep]}…({total - 2 * keep} more characters)…{tail[-keep:]}"


def shorten(text: str, limit: int = 200) -> str:
    """``text`` cut to about ``limit`` characters (its middle replaced by a count).

    >>> shorten("x" * 500, 20)
    'xxxxxxxx…(484 more characters)…xxxxxxxx'
    """
    if len(text) <= limit:
        return text
    keep = max(limit // 2 - 2, 1)
    return f"{text[:keep]}…({len(text) - 2 * keep} more characters)…{text[-keep:]}"


def exactness_error(what: str, value: object) -> ExactnessError:
    """Build the error for an inexact number, with advice on writing it exactly."""
    kind = type(value).__name__
    hint = ""
    if isinstance(value, float):
        try:
            guess = Fraction(repr(value)).limit_denominator(10**6)
            hint = f"; write it exactly, e.g. Fraction({guess.numerator}, {guess.denominator})"
            hint += f" or Fraction('{value!r}')"
        except (ValueError, OverflowError):
            hint = "; write it exactly as a Fraction"
    elif type(value).__module__.partition(".")[0] == "sympy":
        free = getattr(value, "free_symbols", None)
        if free:  # a parametric game handed to the numeric solvers
            names = ", ".join(sorted(str(x) for x in free))
            hint = (f"; it depends on {names}: solve the game for every value of the "
                    f"parameter with tbsg.solve_parametric(game, {names}), or substitute a "
                    "Fraction first")
        else:
            hint = ("; convert sympy numbers exactly, e.g. Fraction(int(x.p), int(x.q)) "
                    "for a sympy Rational x")
    else:
        hint = "; use int or fractions.Fraction"
    return ExactnessError(f"{what} must be an int or fractions.Fraction, got {kind} "
                          f"{show(value)}{hint}")
