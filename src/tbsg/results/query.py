"""One query vocabulary for every result type: the same names, the same default state,
the same point of view.

A result of tbsg answers questions about the states of a game: what a state is worth,
to whom, which action is played there, which actions are optimal, what each action is
worth. Every result type asks them with the methods below, so code written against one
runs on the others; the two :class:`typing.Protocol` classes at the end state that
contract for type checkers and at run time.

The vocabulary
--------------
``s`` is a state; every ``state`` argument defaults to :data:`INITIAL` (the game's
initial state; ``None`` is not used as a default because ``None`` may be a state).
*Player 0's view* is the expected payoff to player 0 (his probability of winning when
there are no draws); ``player=1`` gives player 1's view, ``1 - v`` (``-v`` in a game
that is not a win-probability game, :mod:`tbsg.model.protocol`); *the mover's view* is
the view of the player who moves at ``s``. A name without a suffix is player 0's view
unless ``player=`` says otherwise; the suffix ``_to_move`` names the mover's view.

==================================  ========================================  ===============
query                               method (signature)                        view
==================================  ========================================  ===============
the initial state                   ``initial``                               --
every state, the initial one first  ``states``                                --
how many states                     ``n_states``                              --
who moves at ``s``                  ``player(s=INITIAL)``                     --
the value of ``s``                  ``value(s=INITIAL, *, player=0)``         ``player``'s
the value to the mover              ``value_to_move(s=INITIAL)``              the mover's
every state's value                 ``values`` (a read-only mapping)          player 0's
proven bounds of the value          ``bounds(s=INITIAL, *, player=0)``        ``player``'s
the action played at ``s``          ``action(s=INITIAL)``                     --
every state's action                ``strategy`` (a read-only mapping)        --
every optimal action at ``s``       ``optimal_actions(s=INITIAL)``            --
each action's value at ``s``        ``action_values(s=INITIAL, *, player=0)`` ``player``'s
each action's value to the mover    ``action_values_to_move(s=INITIAL)``      the mover's
==================================  ========================================  ===============

What the numbers are, type by type (``Fraction`` is ``fractions.Fraction``):

* :class:`~tbsg.results.Solution` (:func:`tbsg.solve`, :func:`tbsg.evaluate`,
  :func:`tbsg.best_response`): exact ``Fraction`` values; ``bounds`` is ``(v, v)``.
* :class:`~tbsg.results.FloatSolution` (``exact=False``): ``value`` is the midpoint of
  the proven ``bounds``; ``action_values`` are proven intervals ``(lower, upper)``
  (a float solution has no exact action values: the same as ``action_bounds``);
  ``optimal_actions`` are those the bounds cannot rule out.
* :class:`~tbsg.play.chain.Chain` (:func:`tbsg.chain`): one fixed profile; exact
  ``Fraction`` values; ``optimal_actions(s)`` and ``action_values(s)`` hold the profile's
  action alone (nobody optimises; a chain holds only the action played).
* :class:`~tbsg.parametric.Region` and :class:`~tbsg.parametric.ParametricValues`: one
  profile on an interval of the parameter ``p``; a value is a
  :class:`~tbsg.parametric.RationalFunction` of ``p``, and the keyword ``at=x`` (a
  rational point) evaluates it to a ``Fraction``.
* :class:`~tbsg.parametric.ParametricSolution`: the optimal profile changes with ``p``, so
  ``value(s)`` is a :class:`~tbsg.parametric.Piecewise` function of ``p`` (``at=x``: a
  ``Fraction``), and the queries about actions (``action``, ``optimal_actions``,
  ``action_values``) need the point: ``at=x`` is a required keyword there.

*The tie rule.* Where several actions are optimal, a solution's profile (``action``,
``strategy``, what ``tbsg.chain(game, solution)`` plays) plays the first of them in the
game's own action order (the order ``game.actions(s)`` gives), so the exact and the float
path play the same profile where the float bounds allow it. An exact solution knows its
ties (``optimal_actions``); a float solution can only say that an action is *not ruled
out* by its bounds, and plays the first action not ruled out: an exact tie, or a
near-tie the bounds cannot separate, which the exact path may break the other way. The
rule holds in every stopping game, where any choice of optimal actions is an optimal
profile; in a game that is not stopping (``infinite_play``) the first optimal actions
could keep play going for ever, and the solver's own optimal profile is played.
``tied_states()`` counts the decision states with more than one optimal (exact) or
not-ruled-out (float) action: where it is not 0, statistics of play such as its
expected length may depend on the rule (``fastest`` and ``slowest`` give their range).

The parameter point is always the keyword ``at``, after the state. ``bounds`` belongs
to the solutions (exact and float); the other types have exact values only.

Protocols
---------
:class:`StateQueries` (every result type above satisfies it) holds the queries about
states and values; :class:`ProfileQueries` adds the queries about actions, which every
type with one profile answers (all but :class:`~tbsg.parametric.ParametricSolution`,
whose actions need ``at``). Both are ``runtime_checkable``: ``isinstance`` checks that
the members exist (not their signatures; mypy checks those).

Examples
--------
>>> import tbsg
>>> from tbsg.games import risk_or_safety
>>> game = risk_or_safety(2)
>>> sol, play = tbsg.solve(game), tbsg.chain(game, lambda s: "toss")
>>> isinstance(sol, ProfileQueries) and isinstance(play, ProfileQueries)
True
>>> def summary(result):             # any ProfileQueries
...     return result.value(), result.value_to_move(), result.action(), result.n_states
>>> summary(sol), summary(play)     # tossing on is optimal at the start: the same value
((Fraction(4, 7), Fraction(4, 7), 'toss', 12), (Fraction(4, 7), Fraction(4, 7), 'toss', 4))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Protocol, TypeVar, runtime_checkable

import numpy as np

from tbsg.errors import InvalidArgumentError, show

__all__ = ["INITIAL", "Initial", "ProfileQueries", "StateQueries", "check_player"]

S = TypeVar("S")
A = TypeVar("A")
V_co = TypeVar("V_co", covariant=True)

class Initial(Enum):
    """The type of :data:`INITIAL`, the default of every ``state`` argument."""

    INITIAL = 0

    def __repr__(self) -> str:
        return "<initial state>"


INITIAL = Initial.INITIAL
"""Default of every ``state`` argument: the game's initial state (``None`` may be a state,
so it is no default)."""


def check_player(player: object) -> int:
    """A ``player`` argument: 0 or 1 (numpy integers accepted), else an error."""
    if type(player) is int and 0 <= player <= 1:  # the common case, without abstract isinstance checks
        return player
    if not isinstance(player, bool) and isinstance(player, (int, np.integer)) and int(player) in (0, 1):
        return int(player)
    raise InvalidArgumentError(f"player must be 0 or 1, got {show(player)}")


@runtime_checkable
class StateQueries(Protocol[S, V_co]):
    """The queries about states and values that every result type answers.

    ``V_co`` is the type of a value: ``Fraction``, ``float``, a rational function or a
    piecewise one (see the module docstring).
    """

    @property
    def initial(self) -> S:
        """The initial state."""
        ...

    @property
    def states(self) -> Sequence[S]:
        """Every state covered, the initial one first."""
        ...

    @property
    def n_states(self) -> int:
        """How many states are covered."""
        ...

    def player(self, state: S | Initial = INITIAL, /) -> int:
        """Who moves at ``state``."""
        ...

    def value(self, state: S | Initial = INITIAL, /, *, player: int = 0) -> V_co:
        """The value of ``state`` to ``player`` (player 0's view by default)."""
        ...

    def value_to_move(self, state: S | Initial = INITIAL, /) -> V_co:
        """The value of ``state`` to the player who moves there."""
        ...

    @property
    def values(self) -> Mapping[S, V_co]:
        """Every state's value to player 0."""
        ...


@runtime_checkable
class ProfileQueries(StateQueries[S, V_co], Protocol[S, A, V_co]):
    """:class:`StateQueries` and the queries about the actions of one profile.

    ``action_values`` maps each action to its value, or to proven bounds ``(lower,
    upper)`` of it (a float solution).
    """

    def action(self, state: S | Initial = INITIAL, /) -> A:
        """The action played at ``state``."""
        ...

    @property
    def strategy(self) -> Mapping[S, A]:
        """Every state's action."""
        ...

    def optimal_actions(self, state: S | Initial = INITIAL, /) -> tuple[A, ...]:
        """Every optimal action at ``state`` (the played one alone where nobody optimises)."""
        ...

    def action_values(self, state: S | Initial = INITIAL, /, *,
                      player: int = 0) -> Mapping[A, V_co | tuple[V_co, V_co]]:
        """Each action's value at ``state`` to ``player`` (player 0's view by default)."""
        ...

    def action_values_to_move(self, state: S | Initial = INITIAL, /) -> Mapping[A, V_co | tuple[V_co, V_co]]:
        """Each action's value at ``state`` to the player who moves there."""
        ...
