"""A dialog listing one class's single combos, to switch them on and off one by one."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, SelectionList
from textual.widgets.selection_list import Selection

from solvers.cards.deck import CLASS_COMBOS, CLASS_LABELS, COMBO_LABELS


class ComboDialog(ModalScreen[dict[int, float] | None]):
    """Dismisses with the new weight of each combo of the class (``None`` when cancelled).

    A combo that stays selected keeps its weight; one newly selected gets weight 1.
    """

    DEFAULT_CSS = """
    ComboDialog {
        align: center middle;
    }
    ComboDialog > Vertical {
        width: 40;
        height: auto;
        max-height: 22;
        border: round $accent;
        background: $surface;
        padding: 0 1;
    }
    ComboDialog SelectionList {
        height: auto;
        max-height: 14;
        border: none;
    }
    ComboDialog .combo-hint {
        color: $text-muted;
    }
    """
    BINDINGS = [
        Binding("escape", "done", "Done"),
        Binding("ctrl+c,q", "cancel", "Cancel"),
    ]

    def __init__(self, class_id: int, weights, blocked) -> None:
        super().__init__()
        self.class_id = class_id
        self.combos = [int(c) for c in CLASS_COMBOS[class_id]]
        """The class's combo ids, in the order listed."""
        self.weights = {c: float(weights[c]) for c in self.combos}
        self.blocked = {c for c in self.combos if blocked[c]}

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"[b]{CLASS_LABELS[self.class_id]}[/b]: single combos")
            items = [Selection(self.row(c), c, self.weights[c] > 0) for c in self.combos]
            yield SelectionList[int](*items, id="combo-list")
            yield Label("space toggles · esc done · q cancel", classes="combo-hint")

    def row(self, combo: int) -> str:
        weight = self.weights[combo]
        note = "  blocked" if combo in self.blocked else ""
        return (
            f"{COMBO_LABELS[combo]}  {weight:.2f}{note}" if weight else COMBO_LABELS[combo] + note
        )

    def action_done(self) -> None:
        selected = set(self.query_one(SelectionList).selected)
        self.dismiss({c: (self.weights[c] or 1.0) if c in selected else 0.0 for c in self.combos})

    def action_cancel(self) -> None:
        self.dismiss(None)
