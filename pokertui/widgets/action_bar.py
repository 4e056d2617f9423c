"""The action bar: the legal actions now, each with its key and the chips it puts in.

Key mapping (kept here so the bar, the play screen and the help screen agree): ``f`` fold,
``c`` check or call, ``1``-``4`` the aggressive sizes in tree order, ``b``/``r`` the first of
them, ``a`` the largest (all-in where the game has stacks), ``x``/``$`` a custom amount.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from pokertui.widgets.format import chips

if TYPE_CHECKING:
    from pokertui.session import Option

PRESET_KEYS = ("1", "2", "3", "4")


def option_for_key(options: list[Option], key: str) -> Option | None:
    """The option a key stands for, or None when that key means nothing here."""
    aggressive = [o for o in options if o.kind == "aggressive"]
    if key == "f":
        return next((o for o in options if o.kind == "fold"), None)
    if key == "c":
        return next((o for o in options if o.kind == "passive"), None)
    if key in ("b", "r"):
        return aggressive[0] if aggressive else None
    if key == "a":
        return max(aggressive, key=lambda o: o.amount) if aggressive else None
    if key in PRESET_KEYS:
        index = PRESET_KEYS.index(key)
        return aggressive[index] if index < len(aggressive) else None
    return None


def keys_for(options: list[Option]) -> list[tuple[str, Option]]:
    shown: list[tuple[str, Option]] = []
    preset = 0
    for option in options:
        if option.kind == "fold":
            shown.append(("f", option))
        elif option.kind == "passive":
            shown.append(("c", option))
        elif preset < len(PRESET_KEYS):
            shown.append((PRESET_KEYS[preset], option))
            preset += 1
    return shown


def render_bar(options: list[Option], hand_over: bool) -> Text:
    text = Text()
    if hand_over:
        text.append("n", style="bold reverse")
        text.append(" next hand   ")
        text.append("s", style="bold reverse")
        text.append(" review")
        return text
    for key, option in keys_for(options):
        text.append(key, style="bold reverse")
        amount = f" {chips(option.amount)}" if option.kind != "fold" and option.amount else ""
        text.append(f" {option.label}{amount}  ")
    if any(o.kind == "aggressive" for o in options):
        text.append("a", style="bold reverse")
        text.append(" max  ")
        text.append("x", style="bold reverse")
        text.append(" size")
    return text


class ActionBar(Static):
    DEFAULT_CSS = """
    ActionBar {
        height: auto;
        min-height: 1;
        padding: 0 1;
        background: $panel;
    }
    """

    def show(self, options: list[Option], hand_over: bool) -> None:
        self.update(render_bar(options, hand_over))
