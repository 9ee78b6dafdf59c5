"""``tbsg play``: play a game against the solver in the terminal.

``tbsg play GAME [-p NAME=VALUE ...] [--as 0|1] [--seed S] [--float] [--max-moves N]``

The game is solved first. Then, from the initial state: at each of your decisions the
actions are listed with their values to you (the probability of winning, for a game of
win probabilities) and the optimal ones marked, and you type an action's number or name
(``q`` quits); at the solver's decisions the same list is shown and the solver plays its
strategy's action; a state with one action is played at once. Chance is rolled from the
game's probabilities with a seeded generator (the seed is printed: ``--seed`` replays a
session), and the outcome is shown. Seeing every action's value at every decision makes
it a teaching tool (how much does a move cost?) and a sanity check of a model (does the
solver play as the rules suggest?).

Standard input need not be a terminal: a file or a pipe of moves plays a scripted session
(each move read is echoed), and the end of the input stops play.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

__all__ = ["DESCRIPTION", "EXAMPLES", "HELP", "NAME", "register", "run"]

NAME = "play"
HELP = "play a game against the solver in the terminal"
DESCRIPTION = (
    "Play a game against the solver: at each decision every action is shown with its value to the "
    "player to move and the optimal ones are marked; you choose yours by number or name (q quits), "
    "the solver plays the other side, and chance is rolled with a seeded generator (--seed replays "
    "a session). Moves may come from a file or a pipe.")
EXAMPLES = ["tbsg play risk_or_safety -p target=3", "tbsg play pig -p goal=20 --as 1 --seed 7"]


def register(make: Callable[[str, str, str, Callable[[argparse.Namespace, Any], int]], Any]) -> None:
    """Add the subcommand through ``make(name, help, description, run)``."""
    from tbsg.cli._simulate import add_game, whole

    p = make(NAME, HELP, DESCRIPTION, run)
    add_game(p)
    p.add_argument("--as", dest="you", type=int, choices=(0, 1), default=0,
                   help="the player you play (default 0, who moves first in most games)")
    p.add_argument("--seed", type=whole(0), default=None, metavar="S",
                   help="seed of the dice (default: a fresh one, printed)")
    p.add_argument("--float", action="store_true", help="solve with proven float bounds (values shown "
                                                          "as intervals) instead of exactly")
    p.add_argument("--max-moves", type=whole(1), default=10_000, metavar="N",
                   help="stop after N moves (default 10,000)")
    p.add_argument("--max-states", type=whole(1), default=None, metavar="N",
                   help="stop with an error past N reachable states (default: the solver's)")


def run(args: argparse.Namespace, parser: Any) -> int:
    """``tbsg play``: solve, then play one game at the prompt."""
    import numpy as np

    import tbsg
    from tbsg.cli._simulate import build_game
    from tbsg.errors import show

    game = build_game(parser, args.game, args.param)
    limit = {} if args.max_states is None else {"max_states": args.max_states}
    sol = tbsg.solve(game, exact=not args.float, **limit)
    fresh = int(np.random.SeedSequence().entropy) % 2**63  # type: ignore[arg-type]
    seed = args.seed if args.seed is not None else fresh
    print(f"game: {show(game)}; you are player {args.you}, the solver player {1 - args.you}")
    print(f"value of the game to you: {_number(sol.value(player=args.you))}")
    print(f"dice seed {seed} (--seed {seed} replays them); type an action's number or name, q quits")
    session = _Session(game, sol, args.you, np.random.default_rng(seed))
    return session.play(args.max_moves)


def _number(x: object) -> str:
    from tbsg._util.digits import shown_value

    if isinstance(x, tuple):
        return "in [" + ", ".join(f"{v:.6g}" for v in x) + "]"
    if isinstance(x, Fraction):
        return shown_value(x, 6, 40)
    return f"{x:.6g}" if isinstance(x, float) else str(x)


def _label(a: object) -> str:
    from tbsg.errors import show

    return a if isinstance(a, str) else show(a, 60)


class _Session:
    """One game at the prompt: the state, the moves made, the rewards collected."""

    def __init__(self, game: Any, sol: Any, you: int, rng: np.random.Generator) -> None:
        self.game, self.sol, self.you, self.rng = game, sol, you, rng
        self.reward: Callable[[Any, Any], Any] | None = getattr(game, "reward", None)
        self.collected = Fraction(0)

    def play(self, max_moves: int) -> int:
        from tbsg.model.protocol import Terminal

        state = self.game.initial
        for move in range(1, max_moves + 1):
            action = self._decide(state, move)
            if action is None:
                print("play stopped")
                return 0
            if self.reward is not None:
                self.collected += Fraction(self.reward(state, action))
            nxt = self._roll(state, action)
            if isinstance(nxt, Terminal):
                self._end(nxt.payoff)
                return 0
            state = nxt
        print(f"play stopped after {max_moves:,} moves (--max-moves)")
        return 0

    def _mover(self, state: Any) -> int:
        player = getattr(self.game, "player", None)  # a one-player game may leave it out
        return 0 if player is None else int(player(state))

    def _decide(self, state: Any, move: int) -> Any:
        """The action played at ``state`` (``None``: the user quit)."""
        from tbsg.errors import show

        who = self._mover(state)
        actions: Sequence[Any] = list(self.game.actions(state))
        side = "you" if who == self.you else "solver"
        print(f"\nmove {move}: {show(state)}, player {who} ({side}) to move")
        if len(actions) == 1:
            print(f"  only action: {_label(actions[0])}")
            return actions[0]
        values = self.sol.action_values_to_move(state)
        optimal = self.sol.optimal_actions(state)
        width = max(len(_label(a)) for a in actions)
        print(f"  value of each action to player {who}:")
        for j, a in enumerate(actions, 1):
            mark = "  optimal" if a in optimal else ""
            print(f"  {j}. {_label(a):<{width}}  {_number(values[a])}{mark}")
        if who != self.you:
            chosen = self.sol.action(state)
            print(f"  solver plays {_label(chosen)}")
            return chosen
        return self._ask(actions)

    def _ask(self, actions: Sequence[Any]) -> Any:
        """The user's action, asked until it names one (``None``: quit or end of input)."""
        names = [_label(a) for a in actions]
        while True:
            try:
                text = input("  your move: ").strip()
            except EOFError:
                print("\ninput ended")
                return None
            if not sys.stdin.isatty():  # a scripted session: show the move read, as a terminal would
                print(text)
            if text in names:
                choice = names.index(text)
            elif text.isdigit() and 1 <= int(text) <= len(actions):
                choice = int(text) - 1
            elif text.lower() in ("q", "quit"):
                return None
            else:
                print(f"  {text!r} is not an action here: type 1 to {len(actions)} or a name "
                      f"({', '.join(names)}); q quits")
                continue
            print(f"  you play {names[choice]}")
            return actions[choice]

    def _roll(self, state: Any, action: Any) -> Any:
        """The outcome chance picks (shown with its probability)."""
        import numpy as np

        from tbsg.errors import show
        from tbsg.model.protocol import Terminal, exact

        outcomes = [(exact(p, "a probability"), nxt) for p, nxt in self.game.outcomes(state, action)]
        outcomes = [(p, nxt) for p, nxt in outcomes if p]
        cumulative = np.cumsum([float(p) for p, _ in outcomes])
        j = min(int(np.searchsorted(cumulative, self.rng.random(), side="right")), len(outcomes) - 1)
        p, nxt = outcomes[j]
        where = f"play ends, payoff {nxt.payoff}" if isinstance(nxt, Terminal) else show(nxt)
        print(f"  chance: {where}" + (f" (probability {p})" if p != 1 else ""))
        return nxt

    def _end(self, payoff: Fraction) -> None:
        """The result, to player 0 and to the user (player 1 receives ``1 - x`` in a game of
        win probabilities, ``-x`` otherwise: the convention of :mod:`tbsg.model.protocol`)."""
        win_probability = getattr(self.sol, "win_probability", self.reward is None)
        if win_probability:
            words = {Fraction(1): "player 0 wins", Fraction(0): "player 1 wins",
                     Fraction(1, 2): "a draw"}.get(payoff, f"payoff {payoff} to player 0")
            mine = payoff if self.you == 0 else 1 - payoff
            verdict = {Fraction(1): " (you win)", Fraction(0): " (you lose)"}.get(mine, f", {mine} to you")
            print(f"\ngame over: {words}{verdict}")
            return
        total = payoff + self.collected
        mine = total if self.you == 0 else -total
        rewards = f" (rewards {self.collected} + terminal {payoff})" if self.reward is not None else ""
        print(f"\ngame over: total payoff {total} to player 0{rewards}; {mine} to you")
