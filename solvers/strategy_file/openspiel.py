"""Convert pokertui strategies to OpenSpiel policies (Lanctot et al. 2019, OpenSpiel).

Used to cross-check our exact best response against OpenSpiel's, and later to export files.
OpenSpiel is optional: ``pyspiel`` is imported only inside these functions.

Only games with an OpenSpiel twin are supported: 3-card Kuhn (``kuhn_poker``) and standard Leduc
(``leduc_poker``). Card ids agree with ours: Kuhn card c is our hand c (J, Q, K), Leduc card c has
rank c // 2 and suit c % 2, as our hand c.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from solvers.errors import InputError

_ACTION_IDS = {
    "kuhn": {"check": 0, "fold": 0, "bet": 1, "call": 1},
    "leduc": {"fold": 0, "check": 1, "call": 1, "raise": 2},
}


def openspiel_game_for(game: Any) -> Any:
    """The OpenSpiel game matching ``game``; ``InputError`` if there is none."""
    import pyspiel  # noqa: PLC0415 - optional dependency

    spec = game.spec_string()
    if spec == "kuhn(cards=3,ante=1,bet=1)":
        return pyspiel.load_game("kuhn_poker")
    if spec == "leduc(ante=1,raises=[2,4],max_raises=2)":
        return pyspiel.load_game("leduc_poker")
    raise InputError(f"no OpenSpiel twin for {spec}; only kuhn() and leduc() are supported")


def to_openspiel_policy(game: Any, strategy: Mapping[int, np.ndarray]) -> Any:
    """An OpenSpiel ``TabularPolicy`` holding the same action probabilities as ``strategy``."""
    from open_spiel.python import policy as os_policy  # noqa: PLC0415

    os_game = openspiel_game_for(game)
    action_ids = _ACTION_IDS[game.name]
    tabular = os_policy.TabularPolicy(os_game)
    done: set[str] = set()

    def visit(state: Any, key: str, cards: tuple[int, ...]) -> None:
        if state.is_terminal():
            return
        if state.is_chance_node():
            for outcome, _ in state.chance_outcomes():
                child = state.child(outcome)
                if len(cards) < 2:
                    visit(child, key, (*cards, outcome))
                else:
                    label = game.nodes[game.node_by_key(key).children[outcome]].key
                    visit(child, label, cards)
            return
        node = game.node_by_key(key)
        player = state.current_player()
        info = state.information_state_string(player)
        if info not in done:
            done.add(info)
            row = tabular.policy_for_key(info)
            row[:] = 0.0
            for index, label in enumerate(node.actions):
                row[action_ids[label]] = strategy[node.id][cards[player], index]
        for index, label in enumerate(node.actions):
            child_key = game.nodes[node.children[index]].key
            visit(state.child(action_ids[label]), child_key, cards)

    visit(os_game.new_initial_state(), "", ())
    return tabular


def openspiel_exploitability(game: Any, strategy: Mapping[int, np.ndarray], cpp: bool = False):
    """OpenSpiel's exploitability (NashConv / 2) of our profile: Python or C++ implementation."""
    import pyspiel  # noqa: PLC0415
    from open_spiel.python import policy as os_policy  # noqa: PLC0415
    from open_spiel.python.algorithms import exploitability as os_exploitability  # noqa: PLC0415

    tabular = to_openspiel_policy(game, strategy)
    if cpp:
        return pyspiel.exploitability(
            openspiel_game_for(game), os_policy.python_policy_to_pyspiel_policy(tabular)
        )
    return os_exploitability.exploitability(openspiel_game_for(game), tabular)


def export_policy(game: Any, strategy: Mapping[int, np.ndarray]) -> dict[str, Any]:
    """A JSON-ready mapping from OpenSpiel information-state strings to action probabilities.

    ``{"openspiel_game": "leduc_poker", "policy": {info_state: {action_id: prob}}}``; action ids
    are OpenSpiel's (Kuhn: 0 pass, 1 bet; Leduc: 0 fold, 1 call, 2 raise).
    """
    tabular = to_openspiel_policy(game, strategy)
    policy: dict[str, dict[str, float]] = {}
    for info, row in tabular.state_lookup.items():
        probs = tabular.action_probability_array[row]
        legal = np.flatnonzero(tabular.legal_actions_mask[row])
        policy[info] = {str(int(a)): float(probs[a]) for a in legal}
    return {"openspiel_game": openspiel_game_for(game).get_type().short_name, "policy": policy}


def policy_from_export(document: Mapping[str, Any]) -> tuple[Any, Any]:
    """OpenSpiel's game and a ``TabularPolicy`` rebuilt from ``export_policy`` output."""
    import pyspiel  # noqa: PLC0415
    from open_spiel.python import policy as os_policy  # noqa: PLC0415

    os_game = pyspiel.load_game(document["openspiel_game"])
    tabular = os_policy.TabularPolicy(os_game)
    for info, probs in document["policy"].items():
        row = tabular.policy_for_key(info)
        row[:] = 0.0
        for action, prob in probs.items():
            row[int(action)] = prob
    return os_game, tabular
