"""Shared pieces of the theory panes: number inputs with inline errors, and small formatters."""

from __future__ import annotations

from fractions import Fraction

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Label, Static


def parse_number(text: str, name: str, low: float | None = None, high: float | None = None):
    """A float from an input box (fractions such as ``1/3`` allowed); ValueError says why not."""
    try:
        value = float(Fraction(text.strip())) if "/" in text else float(text)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{name} must be a number, not {text.strip()!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"{name} must be a finite number")
    if low is not None and value < low:
        raise ValueError(f"{name} must be at least {low:g}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be at most {high:.4g}")
    return value


def fmt(value: float, digits: int = 4) -> str:
    return f"{value:.{digits}g}"


def pct(value: float) -> str:
    return f"{100 * value:.1f}%"


class TheoryPane(Vertical):
    """A pane with a row of labelled inputs, an inline error line and its outputs.

    Subclasses list ``FIELDS`` as (id, label, default) and implement ``recompute``, which reads
    ``self.value(id)`` and raises ValueError for bad input; the error is shown, never raised.
    """

    DEFAULT_CSS = """
    TheoryPane { height: 1fr; padding: 0 1; }
    TheoryPane .theory-inputs { height: 3; }
    TheoryPane .theory-inputs Label { padding: 1 1 0 1; }
    TheoryPane .theory-inputs Input { width: 16; }
    TheoryPane .theory-error { color: $error; height: auto; }
    TheoryPane .theory-out { height: auto; }
    TheoryPane DataTable { height: auto; max-height: 16; }
    """

    FIELDS: tuple[tuple[str, str, str], ...] = ()
    INPUT_TYPE: type[Input] = Input
    """The input widget the fields use (a pane may pass some keys through to its bindings)."""

    def compose_inputs(self) -> ComposeResult:
        with Horizontal(classes="theory-inputs"):
            for field_id, label, default in self.FIELDS:
                yield Label(label)
                yield self.INPUT_TYPE(default, id=field_id)
        yield Static("", classes="theory-error")

    def text(self, field_id: str) -> str:
        return self.query_one(f"#{field_id}", Input).value

    def on_mount(self) -> None:
        self.update_all()

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.update_all()

    def update_all(self) -> None:
        error = self.query_one(".theory-error", Static)
        try:
            self.recompute()
        except ValueError as exc:
            error.update(str(exc))
            self.add_class("-invalid")
        else:
            error.update("")
            self.remove_class("-invalid")

    def recompute(self) -> None:
        raise NotImplementedError
