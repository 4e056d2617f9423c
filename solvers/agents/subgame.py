"""The rest of a street as a hold'em spot: the full game's public state rebuilt for the spot engine.

A re-solving bot needs, at a postflop street, the game that is left: the real pot and stacks,
both ranges over all 1,326 combos, and a bet-size tree that holds every bet already made on
this street (an opponent's off-tree bet included). ``build_subgame`` makes that an ``nlhe`` spot
(``games/holdem/``) rooted at the street's first decision:

- chips: a spot starts with each player having put in half its pot, which is what each seat has
  committed when a street starts (equal totals), so the spot's contributions are the seats' real
  totals over the hand, its pot the real pot and its stack what each seat has behind;
- seats: the big blind (seat 1) acts first postflop, so it is the spot's player 0 (OOP) and the
  button is player 1;
- ranges: per-combo weights in the range grammar (``AsKd:w``) with every float spelled exactly
  (``repr``), scaled so the largest is 1 (values per deal do not depend on the scale);
- sizes: the street's usual sizes, plus the size of each bet or raise already made this street
  that the usual sizes do not give (a pot percentage that rounds back to its chips), and a raise
  cap at least the raises made.

The ranges come from Bayes' rule over the policies that played the hand (``bayes_ranges``):
each seat's combos are weighted by the chance that seat's agent took every action it took.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from solvers.cards.deck import COMBO_LABELS, N_COMBOS, card_str, dead_mask
from solvers.errors import InputError
from solvers.games.holdem.bet_sizes import BetContext, Size, StreetSizes, action_amounts
from solvers.games.holdem.game import HoldemGame
from solvers.games.holdem.spot import SpotParams
from solvers.games.holdem.tree import BettingState
from solvers.games.hunl.agent import Agent, action_column
from solvers.games.hunl.rules import (
    BOARD_CARDS,
    CALL,
    FOLD,
    RAISE,
    STREET_NAMES,
    Action,
    HunlConfig,
    HunlState,
    betting_tokens,
    parse_action,
)

SPOT_PLAYER_OF_SEAT = (1, 0)
"""Seat 0 (button) is in position (spot player 1); seat 1 (big blind) is OOP (player 0)."""
SEAT_OF_SPOT_PLAYER = (1, 0)


def line(state: HunlState) -> list[tuple[HunlState, Action]]:
    """Every action of the hand so far with the state it was taken in, in order."""
    return list(_line(state.config, state.history))


@functools.lru_cache(maxsize=4096)
def _line(config: HunlConfig, history: tuple[str, ...]) -> tuple[tuple[HunlState, Action], ...]:
    """``line``, kept per betting: LBR asks a re-solve's node of every size at every decision
    (thousands of replays a hand)."""
    steps: list[tuple[HunlState, Action]] = []
    real = HunlState.initial(config)
    for text in history:
        for token in betting_tokens(text):
            action = parse_action(token)
            steps.append((real, action))
            real = real.apply(action)
    return tuple(steps)


def street_line(state: HunlState) -> list[tuple[HunlState, Action]]:
    """The actions of ``state``'s street so far, each with the state it was taken in."""
    return [(before, action) for before, action in line(state) if before.street == state.street]


def street_root(state: HunlState) -> HunlState:
    """The state at the start of ``state``'s street (before its first action)."""
    for before, _ in line(state):
        if before.street == state.street:
            return before
    return state


def bayes_ranges(state: HunlState, board: np.ndarray, agents: tuple[Agent, Agent]) -> np.ndarray:
    """``[2 seats, 1326]``: each seat's reach of ``state`` under its agent's policy (seat ``s``
    is played by ``agents[s]``), zero on combos the board blocks, and zero everywhere for a
    seat whose agent never takes one of its actions (a raise by an agent that never raises)."""
    board = np.asarray(board, dtype=np.int64)
    reach = np.ones((2, N_COMBOS))
    for before, action in line(state):
        seat = before.to_act
        policy = agents[seat].policy(before, board[: BOARD_CARDS[before.street]])
        try:
            reach[seat] *= policy.probabilities[:, action_column(policy, action)]
        except ValueError:  # the policy lists nothing like the action
            reach[seat] = 0.0
    return reach * ~dead_mask([int(c) for c in board])


def range_text(weights: np.ndarray) -> str:
    """A range string that ``parse_range`` reads back to ``weights / weights.max()`` exactly."""
    weights = np.asarray(weights, dtype=np.float64)
    top = float(weights.max()) if weights.size else 0.0
    if not top > 0:
        raise InputError("a subgame range is empty: no combo can reach this state")
    scaled = weights / top
    return ", ".join(f"{COMBO_LABELS[c]}:{float(scaled[c])!r}" for c in np.flatnonzero(scaled > 0))


@dataclass(frozen=True)
class Subgame:
    """A street of the full game as a spot; ``root`` is the real state where it starts: the
    street's start, or (``start`` given) a decision inside the street (``build_node_subgame``)."""

    root: HunlState
    board: tuple[int, ...]
    ranges: np.ndarray
    """``[2 seats, 1326]`` at ``root``, as given."""
    params: SpotParams
    start: BettingState | None = None
    """The spot tree's first decision when ``root`` is inside the street (its real chips,
    actor, raises and minimum raise); None at the street's start."""

    @cached_property
    def game(self) -> HoldemGame:
        return HoldemGame.from_params(self.params, self.start)

    def node_of(self, state: HunlState) -> int | None:
        """The spot's decision node of ``state`` (same street, at or after ``root``), or None
        when the street's actions are not in the tree."""
        if state.street != self.root.street or state.history[:-1] != self.root.history[:-1]:
            return None
        steps, before_root = line(state), line(self.root)
        if [a for _, a in steps[: len(before_root)]] != [a for _, a in before_root]:
            return None
        game = self.game
        node = game.root
        for before, action in steps[len(before_root) :]:
            if not node.is_decision or node.player != SPOT_PLAYER_OF_SEAT[before.to_act]:
                return None
            index = self.action_index(node.id, before, action)
            if index is None:
                return None
            node = game.nodes[node.children[index]]
        ok = node.is_decision and node.player == SPOT_PLAYER_OF_SEAT[state.to_act]
        return node.id if ok else None

    def action_index(self, node_id: int, state: HunlState, action: Action) -> int | None:
        """The child of decision ``node_id`` that is ``action`` taken in ``state``. Two sizes
        can become one legal raise (a spot bet below the big blind is raised to it); the one
        whose chips are the raise's own then wins, since the raises after it are sized on it."""
        node = self.game.nodes[node_id]
        found = [i for i in range(len(node.tokens))
                 if self.real_action(node_id, i, state) == action]  # fmt: skip
        if len(found) > 1 and action.kind == RAISE:
            own = node.contributions[node.player]
            exact = [i for i in found if int(round(own + node.amounts[i])) == action.to]
            found = exact or found
        return found[0] if found else None

    def real_action(self, node_id: int, index: int, state: HunlState) -> Action:
        """Action ``index`` of decision ``node_id`` as the full game's action in ``state``: the
        spot's chips are the real totals, so a bet to N is a raise to N (kept legal)."""
        node = self.game.nodes[node_id]
        token = node.tokens[index]
        if token == "f":
            return Action(FOLD)
        if token in ("x", "c"):
            return Action(CALL)
        legal = state.legal()
        own = node.contributions[node.player]
        to = int(round(own + node.amounts[index]))
        if legal.min_raise_to is None or legal.max_raise_to is None:
            return Action(CALL)
        return Action(RAISE, min(max(to, legal.min_raise_to), legal.max_raise_to))


def _with_size(sizes: StreetSizes, key: str, size: Size) -> StreetSizes:
    changed: dict[str, Any] = {key: (*getattr(sizes, key), size)}
    return replace(sizes, **changed)


def street_sizes_with_line(
    state: HunlState, sizes: StreetSizes, root: HunlState | None = None
) -> StreetSizes:
    """``sizes`` plus the size of every bet or raise made on ``state``'s street that ``sizes``
    do not give at that point, and a raise cap of at least the raises made."""
    root = root or street_root(state)
    stack = state.config.stack
    start = float(root.committed[0])
    last_increment = 0.0
    raises = 0
    for before, action in street_line(state):
        if action.kind != RAISE:
            continue
        seat = before.to_act
        player = SPOT_PLAYER_OF_SEAT[seat]
        own, opp = float(before.committed[seat]), float(before.committed[1 - seat])
        facing = opp > own
        key = ("oop_" if player == 0 else "ip_") + ("raise" if facing else "bet")
        ctx = BetContext(own, opp, start, float(stack), last_increment, 4 - before.street)
        given = action_amounts(
            getattr(sizes, key), ctx, add_allin=0.0, force_allin=0.0, merging=0.0
        )
        if float(action.to) not in given:
            if action.to >= stack:
                size = Size("allin")
            else:
                base = 2 * opp if facing else own + opp
                size = Size("pct", 100.0 * (action.to - opp) / base)
            sizes = _with_size(sizes, key, size)
        raises += int(facing)
        last_increment = max(last_increment, action.to - opp)
    if sizes.raise_cap is not None and sizes.raise_cap < raises:
        sizes = replace(sizes, raise_cap=raises)
    return sizes


def build_subgame(
    state: HunlState,
    board: np.ndarray,
    ranges: np.ndarray,
    sizes: dict[str, StreetSizes],
) -> Subgame:
    """The spot of ``state``'s street: rooted at its start, with ``ranges`` ([2 seats, 1326],
    each seat's reach at the street's start), ``sizes`` per street name (``turn``, ``river``;
    absent streets are check-only) and the street's bets so far added to its sizes."""
    root = street_root(state)
    params = _street_params(state, root, board, ranges, sizes)
    return Subgame(root, tuple(int(c) for c in board), np.asarray(ranges, np.float64), params)


def build_node_subgame(
    state: HunlState,
    board: np.ndarray,
    ranges: np.ndarray,
    sizes: dict[str, StreetSizes],
) -> Subgame:
    """The rest of the hand from ``state``, a decision inside its street: the tree starts at
    ``state``'s real chips (the street's bets so far, its raises and the minimum raise), so what
    was played before it is fixed; ``ranges`` are each seat's reach at ``state``. The sizes
    after it are ``sizes``' (with the raise cap at least the raises made)."""
    root = street_root(state)
    params = _street_params(state, root, board, ranges, sizes)
    raises, last_increment = _street_raises(state)
    seats = SEAT_OF_SPOT_PLAYER
    start = BettingState(
        board=tuple(int(c) for c in board),
        contributions=(float(state.committed[seats[0]]), float(state.committed[seats[1]])),
        street_start=float(root.committed[0]),
        actor=SPOT_PLAYER_OF_SEAT[state.to_act],
        raises=raises,
        last_increment=last_increment,
    )
    ranges = np.asarray(ranges, np.float64)
    return Subgame(state, tuple(int(c) for c in board), ranges, params, start)


def _street_raises(state: HunlState) -> tuple[int, float]:
    """Raises made facing a bet on ``state``'s street, and the largest raise increment."""
    raises, increment = 0, 0.0
    for before, action in street_line(state):
        if action.kind == RAISE:
            seat = before.to_act
            opp = float(before.committed[1 - seat])
            raises += int(opp > float(before.committed[seat]))
            increment = max(increment, action.to - opp)
    return raises, increment


def _street_params(
    state: HunlState,
    root: HunlState,
    board: np.ndarray,
    ranges: np.ndarray,
    sizes: dict[str, StreetSizes],
) -> SpotParams:
    """The spot of ``state``'s street from ``root`` (its start): chips, ranges and sizes."""
    if not 1 <= state.street <= 3 or state.is_over:
        raise InputError("a subgame starts at a flop, turn or river decision")
    board = np.asarray(board, dtype=np.int64)
    if len(board) != BOARD_CARDS[state.street]:
        raise InputError(f"the {STREET_NAMES[state.street]} has {BOARD_CARDS[state.street]} "
                         f"board cards, not {len(board)}")  # fmt: skip
    ranges = np.asarray(ranges, dtype=np.float64)
    if ranges.shape != (2, N_COMBOS):
        raise InputError(f"subgame ranges are [2, {N_COMBOS}], not {list(ranges.shape)}")
    if root.committed[0] != root.committed[1]:
        raise InputError("a street starts with equal totals")
    name = STREET_NAMES[state.street]
    streets = {s: sizes.get(s, StreetSizes()) for s in ("flop", "turn", "river")}
    streets[name] = street_sizes_with_line(state, streets[name], root)
    stack = state.config.stack - root.committed[0]
    if stack <= 0:
        raise InputError("nobody has chips behind: the hand is all-in")
    values: dict[str, Any] = {
        "board": " ".join(card_str(int(c)) for c in board),
        "pot": float(root.pot),
        "stack": float(stack),
        "oop_range": range_text(ranges[SEAT_OF_SPOT_PLAYER[0]]),
        "ip_range": range_text(ranges[SEAT_OF_SPOT_PLAYER[1]]),
        **streets,
    }
    return SpotParams.model_validate(values)
