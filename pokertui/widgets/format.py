"""How numbers and cards look on screen, in one place.

The live panel, the review screen and the pilot tests all format through these functions, so a
test can compare the rendered text with ``current_spot`` values formatted the same way.
"""

from __future__ import annotations

import math
import re

from rich.text import Text

from pokertui.words import plural as plural  # the widgets' import of it

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
"""Four-colour deck: spades, hearts, diamonds and clubs each have their own colour."""
SUIT_STYLES = {
    "s": "bold bright_white",
    "h": "bold red",
    "d": "bold bright_blue",
    "c": "bold green",
}
_CARDS = re.compile(r"^(?:[2-9TJQKA][cdhs])+$")
_RANK = re.compile(r"^[2-9TJQKA]$")


def pct(value: float | None) -> str:
    """A share as a percentage with one decimal, or a dash when it does not apply."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{100 * value:.1f}%"


def chips(value: float | None) -> str:
    """Chips: integers plainly, fractions with up to three decimals."""
    if value is None:
        return "–"
    if abs(value - round(value)) < 1e-9:
        return f"{round(value):d}"
    return f"{value:.3f}".rstrip("0").rstrip(".")


def ev(value: float) -> str:
    """An expected value in chips, always signed, three decimals."""
    return f"{value:+.3f}"


def ratio(value: float) -> str:
    """A bluff:value ratio such as ``1:2.00``."""
    return f"1:{1 / value:.2f}" if value > 0 else "–"


def card_text(label: str, *, hidden: bool = False) -> Text:
    """A hand or board label drawn as cards: ``AsKd`` with coloured suits, ``K`` as a lone rank;
    labels that are not cards (a von Neumann bin, ``nuts``) are shown as words."""
    if hidden:
        count = max(len(label) // 2, 1) if _CARDS.match(label) else 1
        return Text(" ".join(["▒▒"] * count), style="bright_black")
    if _CARDS.match(label):
        text = Text()
        for i in range(0, len(label), 2):
            rank, suit = label[i], label[i + 1]
            if i:
                text.append(" ")
            text.append(f"{rank}{SUIT_SYMBOLS[suit]}", style=SUIT_STYLES[suit] + " on grey15")
        return text
    if _RANK.match(label):
        return Text(f"{label} ", style="bold bright_white on grey15")
    if label.isdigit():
        return Text(f"bin {label}", style="bold bright_white")
    return Text(label, style="bold bright_white")


def signed_chips(value: float) -> str:
    return ("+" if value > 0 else "") + chips(value)


OFF_PATH = "off path"
OFF_PATH_NOTE = (
    "off the equilibrium path: the strategy file never gets here with your hand, so it has no "
    "advice for it (its numbers here are filler)"
)


def gto_cell(frequencies: list[float] | None, index: int, off_path: bool) -> str:
    """The GTO column: the file's frequency, or ``off path`` where the file never reaches the
    node with this hand (its row there is uniform filler, not advice)."""
    if off_path:
        return OFF_PATH
    return pct(frequencies[index]) if frequencies else "–"


