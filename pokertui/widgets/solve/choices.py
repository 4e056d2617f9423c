"""The launcher's choices: games, algorithms and stopping rules, and where finished files go.

Names are listed here rather than read from the engine so that opening the launcher does not
import every solver (about a second); ``tests/test_app_solve.py`` checks they agree.
"""

from __future__ import annotations

from pokertui.runs import ALGORITHM_NAMES
from solvers.errors import InputError
from solvers.runs.request import Target

__all__ = [
    "ALGORITHM_NAMES",
    "BLUEPRINT_ALGO",
    "GAME_SPECS",
    "STOP_DEFAULTS",
    "STOP_RULES",
    "parse_stop",
    "is_full_game",
    "remember_strategy",
]

GAME_SPECS = {
    "kuhn": "kuhn(cards=3,ante=1,bet=1)",
    "leduc": "leduc(ante=1,raises=[2,4],max_raises=2)",
    "river_toy": "river_toy(pot=4,bets=[1],nuts=0.2)",
    "von_neumann": "von_neumann(ante=1,bet=2,bins=100)",
    "matrix": "matrix(payoff=rps)",
    "push_fold": "push_fold(stack_bb=10)",
    "flop_poker": "flop_poker(ante=1,bet=2)",
    "nlhe": (
        'nlhe(board="Qs Jh 2h 8d 3c",pot=100,stack=300,oop_range="TT+,AQs+,KQs,A5s",'
        'ip_range="99+,AJs+,KQs,QJs",river_oop_bet="75%, a",river_ip_bet="75%, a",'
        "river_oop_raise=a,river_ip_raise=a)"
    ),
}
"""Each game's spec with its default parameters, as a starting point to edit (a test checks
these against ``solvers.games``; the screen does not import the engine until a run starts)."""
GAME_SPECS["hunl"] = "hunl(stack_bb=100)"
"""The full game: solved by ``BLUEPRINT_ALGO`` into a blueprint file (``.npz``), stopped by time
or iterations (its exploitability cannot be measured exactly)."""

BLUEPRINT_ALGO = "mccfr"
"""The full game's solver (``pokertui solve 'hunl(...)' --algo mccfr``), picked with the game."""


def is_full_game(spec: str) -> bool:
    return spec.strip().split("(", 1)[0].strip() == "hunl"

STOP_RULES = ("target", "iterations", "seconds")
STOP_DEFAULTS = {"target": "0.001", "iterations": "1000", "seconds": "10"}
"""A target is chips, or percent of the starting pot with ``%`` (``0.3%``)."""


def parse_stop(rule: str, text: str) -> int | float | Target:
    """The stopping value (a ``Target`` for ``target``: chips, or ``0.3%`` of the pot);
    ValueError with a message for the inline error line."""
    if rule == "target":
        try:
            return Target.parse(text)
        except InputError as exc:
            raise ValueError(str(exc).removeprefix("--")) from None
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"the {rule} limit must be a number, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise ValueError(f"the {rule} limit must be positive")
    if rule == "iterations" and not value.is_integer():
        raise ValueError("iterations must be a whole number")
    return int(value) if rule == "iterations" else value


def remember_strategy(app, path: str) -> None:
    """Add a validated file to the app's custom strategies, so the bot picker lists it."""
    settings = getattr(app, "settings", None)
    saves = getattr(app, "saves_dir", None)
    if settings is None or saves is None:
        return
    from pokertui.settings import save_settings  # noqa: PLC0415

    settings.custom_strategies = [path] + [p for p in settings.custom_strategies if p != path]
    del settings.custom_strategies[20:]
    save_settings(saves, settings)
