"""A turn spot's bot facing an off-tree turn bet: the rest of the hand re-solved, not translated.

The translation (``off_tree.py``) answers a bet between two tree sizes as one of them, with
that line's pot, stacks and ranges. Exact LBR ``56`` on ``srp_dry_turn`` bets 5% to 10 pots on
the turn and raises a bot's bet by a third of the pot, and wins about 6% of the pot on the
turn alone. So when the opponent bets a size the file's turn lacks, the bot solves the
subgame it is really in, from the node facing that bet:

- the tree: rooted at the bot's decision facing the real bet (its real contributions, the
  street's raises so far, the minimum raise), the file's turn raise sizes, and a small river
  (``RIVER_SIZES``), which only values the turn: the river itself is re-solved with the file's
  river sizes when its card comes (``river_resolve.py``);
- the bot's range: its prior times its probability of every action it took (LBR's belief of
  it, a function of the public line alone);
- the opponent's range: its whole range before the bet, behind the resolve gadget, whose
  alternative for each hand is its best response against the file from the node before the bet
  (``safe``, the default); unsafe, the file's reach of the lines the translation maps the bet
  to (``public_ranges``), as the river re-solve reads an off-tree bet;
- the solve: the compiled DCFR for a fixed number of iterations, so play and every LBR figure
  against it do not depend on the machine's speed.

Each (seat, public line, bet) is solved once and kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from solvers.agents.beliefs import Belief, Line, Tree, advance_real, after_lbr
from solvers.agents.bet_sizing import BetSizer
from solvers.agents.compiled_gadget import CompiledGadgetCFR
from solvers.agents.spot_lines import (
    alternatives,
    bot_rows,
    is_off_tree,
    public_ranges,
    replay,
    response_profile,
    solve_river,
)
from solvers.agents.subgame import range_text
from solvers.cards.deck import card_str
from solvers.exact.decision_values import CompiledProfile
from solvers.games.base import Strategy, TreeGame
from solvers.games.holdem.bet_sizes import StreetSizes
from solvers.games.holdem.game import HoldemGame
from solvers.games.holdem.spot import SpotParams
from solvers.games.holdem.tree import BettingState

TURN_ITERATIONS = 200
"""DCFR iterations of a turn re-solve (``benchmarks/bench_turn_resolve.py``)."""
RIVER_SIZES = StreetSizes.parse(
    {"oop_bet": "33%, 75%, a", "ip_bet": "33%, 75%, a", "oop_raise": "a", "ip_raise": "a",
     "raise_cap": 1}, "turn re-solve river")  # fmt: skip
"""The river under a turn re-solve: three bets and an all-in raise, enough to value the turn's
calls; the river that is played is re-solved with the file's own sizes."""
MAX_SOLVES = 2_000


@dataclass(frozen=True)
class TurnSolve:
    """A re-solved turn subgame: its game (rooted facing the bet), the DCFR average strategy
    over its own hands, and the bot's rows re-indexed to the file's hands of the bot."""

    game: HoldemGame
    strategy: Strategy
    rows: Strategy
    safe: bool
    """Through the resolve gadget: the river after it is re-solved safely too."""


def street_raises(history: tuple) -> int:
    """Raises on the current street after ``history`` (bets since the last card, less the
    one that opened)."""
    bets = 0
    for event in reversed(history):
        if event[0] == "C":
            break
        bets += int(event[0] in ("L", "B") and event[1] == "b")
    return max(0, bets - 1)


def subgame_params(params: SpotParams, board: tuple[int, ...], ranges: np.ndarray,
                   river: StreetSizes) -> SpotParams:  # fmt: skip
    """The file's spot with ``ranges`` (``[2 spot players, 1326]``) and ``river`` sizes: the
    same chips cap, board and turn sizes."""
    return SpotParams.model_validate(
        {
            "board": " ".join(card_str(int(c)) for c in board),
            "pot": params.pot,
            "stack": params.stack,
            "oop_range": range_text(ranges[0]),
            "ip_range": range_text(ranges[1]),
            "add_allin_threshold": params.add_allin_threshold,
            "force_allin_threshold": params.force_allin_threshold,
            "merging_threshold": params.merging_threshold,
            "turn": params.turn,
            "river": river,
        }
    )


class TurnResolver:
    """The turn re-solves of one strategy file played as a bot, one per (seat, public line,
    bet), solved when first asked for."""

    def __init__(self, game: TreeGame, strategy: Strategy, iterations: int = TURN_ITERATIONS,
                 river: StreetSizes = RIVER_SIZES, safe: bool = True) -> None:  # fmt: skip
        if not isinstance(game, HoldemGame) or len(game.root.board) != 4:
            raise TypeError(f"a turn re-solve needs a hold'em turn spot, not {game.name}")
        self.game = game
        self.strategy = strategy
        self.iterations = iterations
        self.river = river
        self.safe = safe
        self.sizer = BetSizer("tree", float(game.params.pot) / 2 + float(game.params.stack), True)
        self._solves: dict[tuple, TurnSolve] = {}
        self._applies: dict[tuple, bool] = {}
        """``applies`` per (seat, public line, bet): LBR asks it for every hand it holds."""
        self.solves = 0

    def applies(self, belief: Belief, seat: int, to: float) -> bool:
        """Whether the opponent in ``seat`` betting to ``to`` at ``belief`` (on the file's
        own turn) leaves the file's tree."""
        node = belief.node
        if belief.tree is not None or len(node.board) != 4 or not node.is_decision:
            return False
        key = (seat, belief.history, float(to))  # the tree lines and chips, not the weights
        found = self._applies.get(key)
        if found is None:
            if len(self._applies) >= 50 * MAX_SOLVES:
                self._applies.clear()
            found = self._applies[key] = is_off_tree(after_lbr(self.game, belief, seat, "b", to))
        return found

    def enter(self, belief: Belief, seat: int, to: float) -> Belief:
        """The bot's belief after the opponent's off-tree bet to ``to``: one line at the root
        of the re-solve, the bot's weights unchanged."""
        solved = self.solve(seat, belief, to)
        real = advance_real(belief.real, seat, "b", to)
        line = Line(solved.game.root, belief.weights)
        tree = Tree(solved.game, solved.rows, solved.strategy, solved.safe)
        return Belief((line,), real, (*belief.history, ("L", "b", to)), tree)

    def solve(self, seat: int, belief: Belief, to: float) -> TurnSolve:
        """The re-solve after the opponent in ``seat`` bets to ``to`` at ``belief``."""
        key = (seat, belief.history, float(to))
        found = self._solves.get(key)
        if found is None:
            found = self._solve(seat, belief, to)
            if len(self._solves) >= MAX_SOLVES:
                self._solves.clear()
            self._solves[key] = found
        return found

    def _solve(self, seat: int, belief: Belief, to: float) -> TurnSolve:
        game, bot = self.game, 1 - seat
        # the public line, not the asker's belief: LBR's range of the bot has its own cards
        # removed, and one solve serves every hand the opponent may hold
        belief = replay(game, self.strategy, self.sizer, seat, belief.history)
        translated = after_lbr(game, belief, seat, "b", to)
        # safe: every hand the opponent held before betting may follow into the gadget;
        # unsafe: the hands the file bets with on the translated lines
        ranges = public_ranges(game, self.strategy, belief if self.safe else translated, seat)
        real = translated.real
        start = BettingState(
            board=tuple(belief.node.board),
            contributions=(float(real.put[0]), float(real.put[1])),
            street_start=float(game.params.pot) / 2,
            actor=bot,
            raises=street_raises(translated.history),
            last_increment=float(real.last_increment),
        )
        params = subgame_params(game.params, start.board, ranges, self.river)
        sub = HoldemGame.from_params(params, start)
        if self.safe:
            solver = CompiledGadgetCFR(sub, seat, self.alternatives(seat, belief, sub))
            solver.run(iterations=self.iterations)
            strategy = solver.average_strategy()
            sub.derived.clear()  # the walk's buffers; the nodes and strengths stay
        else:
            strategy = solve_river(sub, self.iterations)
        self.solves += 1
        rows = bot_rows(sub, strategy, bot, game.hand_combos[bot])
        return TurnSolve(sub, strategy, rows, self.safe)

    def alternatives(self, seat: int, belief: Belief, sub: HoldemGame) -> np.ndarray:
        """Per hand of ``sub``'s opponent (in ``seat``): what its best response against the
        file wins from ``belief``'s node on (the file's tree sizes only), given the hand and
        the bot's range there: the resolve gadget's terminate value."""
        return alternatives(self.game, self.strategy, belief.node, seat, sub, self.profile)

    @cached_property
    def profile(self) -> CompiledProfile | None:
        """The file for both players on the compiled walk, kept for every re-solve."""
        return response_profile(self.game, self.strategy)
