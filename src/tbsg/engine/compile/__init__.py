"""Compilation: enumerate a game's reachable states into a :class:`CompiledGame`, validating it.

Compiling a game means three things:

* **Enumeration.** Breadth-first search from ``game.initial`` visits every state
  reachable under *any* actions and numbers the states 0, 1, ... in visiting order (states
  taken in number order; a state's successors numbered in the order its actions and their
  outcomes list them); the result is the array form of :mod:`tbsg.engine.compiled`:
  actions and outcomes in compressed sparse rows, zero-probability outcomes dropped,
  repeated successors of one action merged by adding their probabilities, the outcomes
  that end play folded into each action's ``c_k`` (expected terminal payoff) and ``s_k``
  (probability of ending), every rational interned. The plain protocol is enumerated one
  state and action at a time (:mod:`.plain`); a game that offers an array form may be
  enumerated a batch of states at a time through it (:mod:`.arrays`); both give the same
  compiled game, number for number.
* **Validation**, once, naming the state and action at fault: exact probabilities that
  are non-negative and sum to exactly 1 per action, players 0 or 1, at least one action
  per state and none listed twice, exact payoffs and rewards, hashable states whose hash and
  equality do not drift (no NaN inside), user code that raises reported with its state.
  The rules and their words are :mod:`.checks`, shared with the parametric compiler.
* **Limits.** At most ``max_states`` states (:data:`DEFAULT_MAX_STATES` unless given) and,
  for a rebuilt game held to recorded sizes, ``max_actions`` actions and
  ``max_outcomes`` outcomes: a game that outgrows them stops with a
  :class:`~tbsg.errors.StateLimitError` instead of exhausting memory.

The array form is a second description of a game whose plain protocol is the definition,
so it is trusted only where it plainly belongs to the game's rules
(:func:`tbsg.model.arrays.untrusted_reason`) and compared with the plain protocol on a
sample of states, or on every state where a certified answer depends on it
(``check_arrays="all"``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable
from typing import Literal, TypeVar

from tbsg._util.gc import paused
from tbsg.engine.compile.arrays import (
    check_every_state,
    check_offered,
    check_rows,
    compile_arrays,
    offers_arrays,
)
from tbsg.engine.compile.checks import DEFAULT_MAX_STATES, check_max_states, check_protocol
from tbsg.engine.compile.plain import compile_plain
from tbsg.engine.compiled import CompiledGame
from tbsg.errors import InvalidArgumentError, StateLimitError, show
from tbsg.model.fixed import FixedStrategyGame
from tbsg.model.protocol import Game, reward_function

__all__ = ["DEFAULT_MAX_STATES", "REPORT_EVERY", "check_max_states", "compile_game"]

S = TypeVar("S", bound=Hashable)
A = TypeVar("A", bound=Hashable)

REPORT_EVERY = 1 << 16
"""New states between two calls of ``compile_game``'s ``progress`` callback."""


def compile_game(game: Game[S, A], *, max_states: int = DEFAULT_MAX_STATES,
                 max_actions: int | None = None, max_outcomes: int | None = None,
                 progress: Callable[[int, int], None] | None = None,
                 arrays: bool | None = None,
                 check_arrays: Literal["sample", "all"] = "sample") -> CompiledGame[S, A]:
    """Enumerate the states reachable from ``game.initial`` and validate the game.

    Parameters
    ----------
    game : Game
        The game to compile.
    max_states : int
        Stop with :class:`~tbsg.errors.StateLimitError` once more states than this are
        reached.
    max_actions, max_outcomes : int, optional
        Likewise for (state, action) pairs and for outcomes leading to states (checked
        after each action): a rebuilt game is held to the sizes a file or a solution
        records, so an edited parameter cannot make it enumerate for minutes.
    progress : callable, optional
        Called as ``progress(states_found, max_states)`` every :data:`REPORT_EVERY` new
        states (a progress bar: a game that will hit the limit says so early).
    arrays : bool, optional
        Enumerate through the game's array form (:mod:`tbsg.model.arrays`,
        :mod:`tbsg.engine.compile.arrays`): ``None`` (default) when the game offers one,
        ``True`` to require it, ``False`` to use the plain protocol alone. Both give the
        same compiled game. An array form that may not belong to the game's rules (reached
        through ``__getattr__``, or below a class that redefines ``player``, ``actions`` or
        ``outcomes``: :func:`tbsg.model.arrays.untrusted_reason`) is not used by ``None`` and is
        an :class:`~tbsg.errors.InvalidArgumentError` with ``True``. A game with a
        ``reward`` method is always compiled through the plain protocol, whatever
        ``arrays`` says: the array form (:class:`tbsg.model.arrays.ArrayTransitions`)
        describes no rewards, so an array compilation would have to ask ``reward`` state
        by state in Python anyway, which is most of the plain compilation's cost, and a
        second description of the rewards would be one more thing to check against the
        first.
    check_arrays : {"sample", "all"}
        How an array form is compared with the plain protocol, the definition of the
        game. ``"sample"`` (default, what solving uses): the game is compiled through the
        array form and 32 of its states are asked through ``player``, ``actions`` and
        ``outcomes``. ``"all"`` (what :func:`tbsg.verify` and :func:`tbsg.load` use): the
        game is compiled through the plain protocol, and every state's row of the array
        form is compared with it (:func:`tbsg.engine.compile.arrays.check_every_state`);
        the plain compilation is returned. Either way a difference is an
        :class:`~tbsg.errors.InvalidGameError` naming the state and how the two
        descriptions differ; only ``"all"`` finds every one, at the cost of a plain
        compilation.

    Returns
    -------
    CompiledGame
    """
    check_max_states(max_states)
    check_protocol(game)
    use_arrays = _use_arrays(game, arrays, check_arrays)
    most_actions = sys.maxsize if max_actions is None else max_actions
    most_outcomes = sys.maxsize if max_outcomes is None else max_outcomes
    with paused():  # millions of objects that all live on: collector passes are overhead
        if not use_arrays:
            return compile_plain(game, max_states, most_actions, most_outcomes, progress, REPORT_EVERY)
        if check_arrays == "sample":
            g = compile_arrays(game, max_states=max_states, max_actions=most_actions,
                               max_outcomes=most_outcomes, progress=progress, report_every=REPORT_EVERY)
            if isinstance(game, FixedStrategyGame):  # a strategy's array form, against its function
                game.check_array_choices(g.states, g.player, g.act_ptr, g.act_labels)
            return g
        try:
            g = compile_plain(game, max_states, most_actions, most_outcomes, progress, REPORT_EVERY)
        except StateLimitError:
            # the definition outgrows the limits: if the array form keeps within them,
            # the two differ somewhere, and that state is the error to report
            _compare_within(game, max_states, most_actions, most_outcomes)
            raise
        check_every_state(game, g)
        return g


def _use_arrays(game: object, arrays: bool | None, check_arrays: object) -> bool:
    """Whether to enumerate through the array form (see :func:`compile_game`)."""
    if check_arrays not in ("sample", "all"):
        raise InvalidArgumentError(f'check_arrays must be "sample" or "all", got {show(check_arrays)}')
    if reward_function(game) is not None:
        return False  # the array form has no rewards: a reward game is compiled plainly
    if arrays:
        check_offered(game)
        return True
    return arrays is None and offers_arrays(game)


def _compare_within(game: object, max_states: int, max_actions: int, max_outcomes: int) -> None:
    """Raise the first difference between the array form and the plain protocol, when
    the plain protocol has just outgrown the limits; return if the array form outgrows
    them too: the plain protocol's error then stands. (An array form that breaks a rule
    of its own raises that error, which names the state.)

    Both enumerate the same states, in the same order, if they agree at every state; so
    an array form that keeps within limits the plain protocol exceeds differs from it at
    one of its own states, found by asking each of them through the plain protocol.
    """
    try:
        g = compile_arrays(game, max_states=max_states, max_actions=max_actions,
                           max_outcomes=max_outcomes, progress=None, report_every=REPORT_EVERY)
    except StateLimitError:
        return
    check_rows(game, g, range(g.n_states))
