"""Every decision of one player in one imported hand, valued as the app's live panel would.

The hand is played again through the rules; each decision of the hero gets the live numbers
of ``live_values.live_values_job`` over the app's options and the size chosen, with the
opponent's earlier actions as the model bot's steps (its Bayes range); the EV lost is the best
valued option's EV less the chosen one's, where the chosen one has a value. The engine's own
mix for the hero's hand is the re-solve's row for it on a street the bot solves, the model
bot's own policy elsewhere.
"""

from __future__ import annotations

import time

import numpy as np

from solvers.agents.resolve_values import bot_solution
from solvers.agents.resolving import ResolvingAgent
from solvers.agents.subgame import SPOT_PLAYER_OF_SEAT
from solvers.analysis.hand_record import ImportedHand
from solvers.analysis.live_values import BotStep, live_values_job, re_solves, seat_twin
from solvers.analysis.options import app_options
from solvers.cards.deck import COMBO_INDEX, cards_str
from solvers.cards.flops import texture_of
from solvers.games.hunl.agent import Agent
from solvers.games.hunl.rules import BOARD_CARDS, RAISE, STREET_NAMES, Action, HunlState

POSITIONS = ("button", "big blind")
POT_TYPES = ("limped", "single-raised", "3-bet", "4-bet")


def pot_type(hand: ImportedHand) -> str:
    """The preflop pot: limped, single-raised, 3-bet, or 4-bet (and more)."""
    pairs = zip(hand.states(), hand.actions, strict=False)
    raises = sum(1 for state, token in pairs if state.street == 0 and token.startswith("r"))
    return POT_TYPES[min(raises, 3)]


def analyze_hand(
    hand: ImportedHand, hero_seat: int, agent: Agent, all_sizes: bool = True
) -> list[dict]:
    """One record per decision of ``hero_seat`` (amounts in big blinds)."""
    hole = hand.holes[hero_seat]
    if hole is None:
        return []
    config = hand.config
    big = config.big_blind
    kind = pot_type(hand)
    texture = texture_of(hand.board[:3]) if len(hand.board) >= 3 else None
    steps: list[BotStep] = []
    twin = seat_twin(agent)
    found = []
    for state, token in zip(hand.states(), hand.actions, strict=False):
        board = tuple(hand.board[: BOARD_CARDS[state.street]])
        chosen = _action(token)
        if state.to_act != hero_seat:
            steps.append((state, board, chosen))
            continue
        actions = app_options(state, chosen)
        job = live_values_job(agent, state, board, hole, steps, actions, hand.number,
                              taken=None if all_sizes else chosen,
                              seat_agent=twin)  # fmt: skip
        started = time.perf_counter()
        numbers = job()
        mix = engine_mix(agent, state, board, hole, twin)
        seconds = time.perf_counter() - started
        evs = {e.action: e.ev for e in numbers.evs}
        valued = {a: v for a, v in evs.items() if v is not None}
        best = max(valued.values()) if valued else None
        chosen_ev = evs.get(chosen)
        lost = None if chosen_ev is None or best is None else best - chosen_ev
        options = [{"action": str(a), "label": option_label(state, a),
                    "ev": None if v is None else v / big}
                   for a, v in sorted(evs.items(), key=lambda kv: _order(kv[0]))]  # fmt: skip
        found.append(
            {
                "hand": hand.source,
                "key": hand.key,
                "street": STREET_NAMES[state.street],
                "position": POSITIONS[hero_seat],
                "pot_type": kind,
                "depth_bb": config.stack_bb,
                "texture": texture,
                "hole": cards_str(sorted(hole, reverse=True)),
                "board": cards_str(board, " "),
                "betting": state.betting,
                "pot": state.pot / big,
                "to_call": state.to_call(hero_seat) / big,
                "chosen": str(chosen),
                "chosen_label": option_label(state, chosen),
                "options": options,
                "mix": [[str(a), option_label(state, a), p] for a, p in mix.items() if p > 0],
                "ev_lost": None if lost is None else max(lost, 0.0) / big,
                "equity": None if np.isnan(numbers.equity) else float(numbers.equity),
                "their_range": [round(float(x), 4) for x in numbers.bot_grid],
                "their_combos": numbers.bot_combos,
                "method": numbers.ev_method or "closed forms (no later play)",
                "seconds": seconds,
            }
        )
    return found


def _action(token: str) -> Action:
    return Action(RAISE, int(token[1:])) if token.startswith("r") else Action(token)


def _order(action: Action) -> tuple[int, int]:
    return ({"f": 0, "c": 1, "r": 2}[action.kind], action.to)


def option_label(state: HunlState, action: Action) -> str:
    """How the option reads at the table, amounts in big blinds of this street."""
    big = state.config.big_blind
    legal = state.legal()
    if action.kind == "f":
        return "fold"
    if action.kind == "c":
        return f"call {legal.call_amount / big:g}bb" if legal.call_amount else "check"
    start = 0 if state.street == 0 else min(state.committed)
    amount = f"{(action.to - start) / big:g}bb"
    if action.to == legal.max_raise_to:
        return f"all-in {amount}"
    return f"{'raise to' if legal.call_amount > 0 or state.street == 0 else 'bet'} {amount}"


def engine_mix(
    agent: Agent,
    state: HunlState,
    board: tuple[int, ...],
    hole: tuple[int, int],
    twin: Agent | None = None,
) -> dict[Action, float]:
    """How the engine plays the hero's hand here: the re-solve's row for it (the solve the
    values come from) on a street the bot solves, else the model bot's policy; empty when the
    re-solve's range does not hold the hand."""
    combo = int(COMBO_INDEX[int(hole[0]), int(hole[1])])
    cards = np.array(board, dtype=np.intp)
    if re_solves(agent, state):
        assert isinstance(agent, ResolvingAgent)
        solution = bot_solution(agent, state, cards)
        if solution is None and twin is not None:  # off the bot's tree: the values' solve
            solution = twin.solution(state, cards)  # type: ignore[attr-defined]
        if solution is None:
            return {}
        sub = solution.subgame
        node_id = sub.node_of(state)
        player = SPOT_PLAYER_OF_SEAT[state.to_act]
        rows = solution.strategy.get(node_id) if node_id is not None else None
        hands = np.flatnonzero(sub.game.hand_combos[player] == combo)
        if node_id is None or rows is None or len(hands) == 0:
            return {}
        mix: dict[Action, float] = {}
        for index, p in enumerate(rows[int(hands[0])]):
            action = sub.real_action(node_id, index, state)
            mix[action] = mix.get(action, 0.0) + float(p)
        return mix
    policy = agent.policy(state, cards)
    mix = {}
    for action, p in zip(policy.actions, policy.row(combo), strict=True):
        mix[action] = mix.get(action, 0.0) + float(p)
    return mix
