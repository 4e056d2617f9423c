"""A spot bot's river after an off-tree bet on an earlier street: re-solved, not translated.

A strategy file answers an off-tree bet as a tree size (``off_tree.py``) and then plays that
translated line, whose pot, stacks and ranges are not the real hand's. On a turn spot the loss
shows on the river: local best response betting off the tree on the turn and then with the
tree's own sizes on the river wins 20% of the pot from ``srp_paired_turn`` (``docs/lbr.md``).
So when the river comes after an off-tree bet, the bot solves the river it is really in:

- chips: the real pot and stacks (a spot starts with each player having put in half its pot,
  which is what both have in when the river starts);
- sizes: the file's own river sizes and thresholds (``SpotParams.river``, the spot's grammar);
- the bot's range: its prior times its own probability of every action it took, summed over
  the tree lines its translation may have drawn (the translation's odds, ``fold_to_call``
  included), which is LBR's belief with the bot's public prior (``agents/beliefs.py``): a function
  of the public line alone, so one solve serves every hand the bot may hold;
- the opponent's range: its prior times the file's probability of its own actions on each
  translated line (``path_reach``), the lines weighted by how likely the bot's public actions
  make them. An off-tree bet is read as the tree sizes it maps to, the way the bot answered it;
- the solve: the compiled DCFR for a fixed number of iterations, so the play (and every LBR
  figure measured against it) does not depend on the machine's speed.

Each (seat, public line, river card) is solved once and kept (``RiverResolver``). Options for
measuring (``docs/lbr.md``): other river ``sizes``, re-solving ``every_river`` (on the tree too),
and ``safe`` re-solves through the resolve gadget of ``safe_resolve.py`` with the opponent's
best-response values against the translated play as its alternatives.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solvers.agents.beliefs import (
    Belief,
    Tree,
)
from solvers.agents.bet_sizing import (
    FOLD_TOKENS,
    PASSIVE_TOKENS,
    BetSizer,
    bet_children,
    child_index,
)
from solvers.agents.spot_lines import (
    bot_rows,
    given_hand,
    is_off_tree,
    positions,
    public_ranges,
    reindexed,
    replay,
    solve_river,
)
from solvers.agents.subgame import range_text
from solvers.agents.turn_resolve import TURN_ITERATIONS, TurnResolver, TurnSolve
from solvers.cards.deck import card_str
from solvers.exact.evaluation import best_response, counterfactual_values, path_reach
from solvers.games.base import Node, Strategy, TreeGame
from solvers.games.holdem.bet_sizes import StreetSizes
from solvers.games.holdem.game import HoldemGame
from solvers.games.holdem.off_tree import answer_rows, facing, real_amount, translate_bet
from solvers.games.holdem.spot import SpotParams

RIVER_ITERATIONS = 300
"""DCFR iterations of a river re-solve: 0.06% of the pot on a ``srp_paired_turn`` river
(``benchmarks/bench_river_resolve.py``), 0.01% on the test spot's."""
MAX_SOLVES = 5_000
"""Re-solves kept per bot before the cache starts again (exact LBR ``56`` on a shipped turn
spot makes 1,100 to 2,700 per seat pair)."""


def river_params(params: SpotParams, board: tuple[int, ...], put: float,
                 ranges: np.ndarray, sizes: StreetSizes | None = None) -> SpotParams:  # fmt: skip
    """The river spot of ``params`` on the five-card ``board`` with ``put`` chips in from each
    player and ``ranges`` (``[2 spot players, 1326]`` combo weights); ``sizes`` replace the
    file's river sizes."""
    cap = float(params.pot) / 2 + float(params.stack)
    return SpotParams.model_validate(
        {
            "board": " ".join(card_str(int(c)) for c in board),
            "pot": 2.0 * put,
            "stack": cap - put,
            "oop_range": range_text(ranges[0]),
            "ip_range": range_text(ranges[1]),
            "add_allin_threshold": params.add_allin_threshold,
            "force_allin_threshold": params.force_allin_threshold,
            "merging_threshold": params.merging_threshold,
            "river": params.river if sizes is None else sizes,
        }
    )


def translated_rows(game: HoldemGame, strategy: Strategy, belief: Belief,
                    river_game: HoldemGame, bot: int) -> Strategy | None:  # fmt: skip
    """The file's play of the river on ``belief``'s translated lines as the bot's rows in the
    re-solved river's tree: each hand's rows mixed over the lines by its weight on each (its
    behaviour strategy), or None when a line's river has another shape (the stacks clamp a
    size differently)."""
    files = positions(game, bot, river_game.hand_combos[bot])  # among the file's hands
    out: Strategy = {}
    stack = [(river_game.root, [line.node for line in belief.lines],
              [line.weights[files] for line in belief.lines])]  # fmt: skip
    while stack:
        node, on_lines, weights = stack.pop()
        if not node.is_decision:
            continue
        if any(len(n.tokens) != len(node.tokens) for n in on_lines):
            return None  # a size the stacks merge differently
        if node.player == bot:
            rows = [strategy[n.id][files] for n in on_lines]
            mixed = np.einsum("lh,lha->ha", np.stack(weights), np.stack(rows))
            total = np.sum(weights, axis=0)[:, None]
            out[node.id] = np.where(total > 0, mixed / np.maximum(total, 1e-300),
                                    1.0 / len(node.tokens))  # fmt: skip
        for index, child in enumerate(node.children):
            kids = [game.nodes[n.children[index]] for n in on_lines]
            after = weights
            if node.player == bot:  # each line's weight moves with its own rows
                after = [w * r[:, index] for w, r in zip(weights, rows, strict=True)]
            stack.append((river_game.nodes[child], kids, after))
    return out


@dataclass(frozen=True)
class RiverSolve:
    """A re-solved river: its spot, the DCFR average strategy, and the bot's rows of it over the
    file's hands (``rows[node id]``: ``[file hands of the bot, actions]``, uniform for a hand the
    re-solve's range lacks)."""

    game: HoldemGame
    strategy: Strategy
    rows: Strategy
    iterations: int


class RiverResolver:
    """The river re-solves of one strategy file played as a bot, one per (seat, public line,
    river card), solved when first asked for."""

    def __init__(self, game: TreeGame, strategy: Strategy,
                 iterations: int = RIVER_ITERATIONS, sizes: StreetSizes | None = None,
                 every_river: bool = False, safe: bool = False,
                 turn_iterations: int | None = None, safe_turn: bool = True) -> None:  # fmt: skip
        if not isinstance(game, HoldemGame):
            raise TypeError(f"a river re-solve needs a hold'em spot, not {game.name}")
        self.turn: TurnResolver | None = None
        """The turn re-solve after an off-tree turn bet (a turn spot; ``turn_iterations`` 0:
        none, the translated turn of the earlier figures)."""
        turn_iterations = TURN_ITERATIONS if turn_iterations is None else turn_iterations
        if turn_iterations > 0 and len(game.root.board) == 4:
            self.turn = TurnResolver(game, strategy, turn_iterations, safe=safe_turn)
        self.game = game
        self.strategy = strategy
        self.iterations = iterations
        self.sizes = sizes
        self.every_river = every_river
        self.safe = safe
        self.sizer = BetSizer("tree", float(game.params.pot) / 2 + float(game.params.stack), True)
        self._solves: dict[tuple, RiverSolve] = {}
        self._turn_best: dict[int, tuple[Tree, np.ndarray]] = {}
        """The opponent's best-response values in the last turn re-solves (kept with them)."""
        self.solves = 0

    def applies(self, belief: Belief) -> bool:
        """Whether ``belief`` (LBR's or a replay's, just after a card) is a river decision
        reached off the tree."""
        node = belief.node
        on_river = node.is_decision and len(node.board) == 5
        resolved_turn = belief.tree is not None and belief.tree.full is not None
        return on_river and (self.every_river or resolved_turn or is_off_tree(belief))

    def play(self, seat: int, history: tuple) -> RiverPlay | None:
        """The bot's re-solved river after the public ``history`` of a hand (its opponent in
        ``seat``; the last event is the river card), or None when the hand is on the tree."""
        belief = replay(self.game, self.strategy, self.sizer, seat, history, self.turn)
        if not self.applies(belief):
            return None
        return RiverPlay(self.river(seat, history))

    def turn_play(self, seat: int, history: tuple) -> RiverPlay | None:
        """The bot's re-solved turn after the public ``history`` of a hand whose last event is
        its opponent's (in ``seat``) bet, or None when that bet is on the file's turn tree."""
        event = history[-1] if history else None
        if self.turn is None or event is None or event[:2] != ("L", "b"):
            return None
        belief = replay(self.game, self.strategy, self.sizer, seat, history[:-1], self.turn)
        if not self.turn.applies(belief, seat, event[2]):
            return None
        return RiverPlay(self.turn.solve(seat, belief, event[2]))

    def river(self, seat: int, history: tuple) -> RiverSolve:
        """The bot's re-solve of the river after the public ``history`` (its opponent, the LBR
        side, in ``seat``; the last event is the river card). The bot's range is the public
        one (``replay``), never an asker's with its own cards removed."""
        key = (seat, history)
        found = self._solves.get(key)
        if found is None:
            found = self._solve(seat, history)
            if len(self._solves) >= MAX_SOLVES:
                self._solves.clear()
            self._solves[key] = found
        return found

    def _solve(self, seat: int, history: tuple) -> RiverSolve:
        game, bot = self.game, 1 - seat
        belief = replay(game, self.strategy, self.sizer, seat, history, self.turn)
        ranges = public_ranges(game, self.strategy, belief, seat)
        params = river_params(game.params, belief.node.board, belief.real.put[0], ranges,
                              self.sizes)  # fmt: skip
        river = HoldemGame.from_params(params)
        values = None
        if belief.tree is not None and belief.tree.safe:  # after a safe turn re-solve
            values = self._turn_values(belief, river, seat)
        elif self.safe and belief.tree is None:  # alternatives of the file's translated lines
            values = self._alternatives(belief, river, seat)
        strategy = solve_river(river, self.iterations, seat, values)
        self.solves += 1
        rows = bot_rows(river, strategy, bot, game.hand_combos[bot])
        return RiverSolve(river, strategy, rows, self.iterations)

    def _turn_values(self, belief: Belief, river: HoldemGame, seat: int) -> np.ndarray:
        """Per hand of the opponent: what its best response wins from this river on against
        the safe turn re-solve the hand is in (the river gadget's alternatives), so the river
        gives no hand more than the turn's solve did."""
        tree = belief.tree
        assert tree is not None and tree.full is not None and isinstance(tree.game, HoldemGame)
        found = self._turn_best.get(id(tree))
        if found is None:  # one best-response pass per turn re-solve (thousands of nodes)
            found = (tree, counterfactual_values(tree.game, tree.full, seat, respond=True)[0])
            if len(self._turn_best) >= 8:
                self._turn_best.pop(next(iter(self._turn_best)))
            self._turn_best[id(tree)] = found
        sub, node = tree.game, belief.node
        bot_reach = path_reach(sub, tree.full, node, 1 - seat)
        chance = float(sub.path_chance[node.id])
        values = given_hand(sub, found[1][node.id], bot_reach, seat, chance)
        return reindexed(values, sub, river, seat)

    def _alternatives(self, belief: Belief, river: HoldemGame, seat: int) -> np.ndarray | None:
        """Per hand of the opponent: what its best response wins against the translated
        play in the re-solved river (the safe gadget's alternatives), or None when the
        translated lines do not fit the re-solve's tree."""
        translated = translated_rows(self.game, self.strategy, belief, river, 1 - seat)
        if translated is None:
            return None
        uniform = {n.id: np.full((river.n_hands[n.player], len(n.tokens)), 1.0 / len(n.tokens))
                   for n in river.decision_nodes()}  # fmt: skip
        response = best_response(river, {**uniform, **translated}, seat)
        return np.nan_to_num(response.per_hand, nan=0.0)


class RiverPlay:
    """A bot playing its re-solved river in a hand played for real chips (practice play): where
    it is in the re-solve's tree, and its answer there. The opponent's bets reach it through
    the house translation inside the re-solved tree, like any off-tree bet."""

    def __init__(self, solved: RiverSolve | TurnSolve) -> None:
        self.solved = solved
        self.node = solved.game.root
        self.fold_to_call = 0.0

    def rows(self, hand: int) -> np.ndarray:
        """The bot's action probabilities at ``node`` for its ``hand`` (a file hand)."""
        rows = self.solved.rows[self.node.id][hand : hand + 1]
        return answer_rows(rows, self.node, self.fold_to_call)[0]

    def bot_acts(self, index: int, put: tuple[float, float]) -> float:
        """The bot takes action ``index``; returns the chips it adds in the real pot."""
        add = real_amount(self.solved.game, self.node, index, put)
        self.node = self.solved.game.nodes[self.node.children[index]]
        self.fold_to_call = 0.0
        return add

    def opponent_acts(self, kind: str, add: float, put: tuple[float, float],
                      rng: np.random.Generator) -> None:  # fmt: skip
        """The opponent folds (``f``), checks or calls (``p``) or bets ``add`` chips (``b``)."""
        node, game = self.node, self.solved.game
        if kind == "b" and (not bet_children(node) or add <= facing(node, put)[1] + 1e-9):
            kind = "p"  # all the chips the re-solve's tree has room for: a call
        if kind != "b":
            index = child_index(node, FOLD_TOKENS if kind == "f" else PASSIVE_TOKENS)
            assert index is not None, "a decision can always fold, check or call"
            self.node, self.fold_to_call = game.nodes[node.children[index]], 0.0
            return
        bet = translate_bet(game, node, add, put)
        mapped = bet.mapped
        drawn = mapped[0] if len(mapped) == 1 or rng.random() < mapped[0].probability else mapped[1]
        self.node, self.fold_to_call = game.nodes[drawn.child], bet.fold_to_call


def follow(game: TreeGame, node: Node, kind: str, add: float, put: tuple[float, float]) -> int:
    """The action at ``node`` of ``game`` (the file's translated line) nearest to a real action:
    the same kind, a bet the tree size nearest in chips (what the hand shows in the file's
    terms while the re-solve plays)."""
    if kind != "b":
        index = child_index(node, FOLD_TOKENS if kind == "f" else PASSIVE_TOKENS)
        if index is not None:
            return index
    bets = bet_children(node)
    if not bets:
        index = child_index(node, PASSIVE_TOKENS)
        assert index is not None
        return index
    return min(bets, key=lambda i: abs(real_amount(game, node, i, put) - add))
