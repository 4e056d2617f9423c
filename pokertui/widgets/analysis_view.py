"""An analysed session drawn as text: the session's summary and one decision's replay, laid out
as the hold'em table's live panel. Pure formatting of the analysis' records and
``solvers.analysis.replay``; every number comes from them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from rich.text import Text

from pokertui.widgets.format import card_text, pct, plural
from pokertui.widgets.range_view import heat_grid
from solvers.analysis.replay import ActionLine, ReplayStep
from solvers.analysis.session_report import MODEL_NOTE, STREETS


def bb_ev(value: float) -> str:
    """``+1.25bb``; a value that rounds to zero is ``+0.00bb``, never ``-0.00bb``."""
    return f"{round(value, 2) + 0.0:+.2f}bb"


def lost_cell(value: float | None) -> str:
    return "unvalued" if value is None else f"{value:.2f}"


def summary_text(report: Mapping, skipped: Sequence[tuple[str, int]],
                 failed: Mapping[str, str], bots: Sequence[str] = ()) -> Text:  # fmt: skip
    """The session's totals (``session_report``), the hands left out, the model bots and the
    model note."""
    text = Text("Session\n", style="bold")

    def row(name: str, value: str) -> None:
        text.append(f"  {name:<12}", style="dim")
        text.append(f"{value}\n")

    row("hands", f"{report['hands']:,}")
    row("decisions", f"{report['decisions']:,} ({report['valued']:,} valued)")
    row("EV lost", f"{report['ev_lost']:.2f} bb")
    row("bb/100 lost", f"{report['bb_per_100_lost']:.1f}")
    for street in STREETS:
        part = report["by_street"][street]
        if part["decisions"]:
            over = plural(part["decisions"], "decision")
            row(f"  {street}", f"{part['ev_lost']:.2f} bb over {over}")
    if skipped:
        text.append("Skipped\n", style="bold")
        for reason, count in skipped:
            row(f"{count:,}", reason)
    if failed:
        text.append(f"Failed: {plural(len(failed), 'hand')}\n", style="bold red")
        for key, error in list(failed.items())[:5]:
            text.append(f"  {key}: {error}\n", style="red")
    if bots:
        text.append(f"\nModel bot: {', '.join(bots)}\n")
    text.append(f"\nModel: {report.get('model', MODEL_NOTE)}\n", style="dim")
    return text


def _street_heading(text: Text, street: str, board: str) -> None:
    """``  flop [Qh Jh 2c]``: a street's line in the replay, its board when one is out."""
    text.append(f"  {street}")
    if board:
        text.append(" [")
        text.append_text(card_text(board.replace(" ", "")))
        text.append("]")
    text.append("\n")


def _action_line(line: ActionLine) -> Text:
    text = Text(f"    {line.name}: ", style="bold" if line.hero else "")
    text.append(line.label)
    return text


def replay_text(title: str, step: ReplayStep, total: int) -> Text:
    """The hand up to the decision (street by street), then the decision's live numbers."""
    decision = step.decision
    text = Text(f"{title}\n", style="bold")
    text.append(f"Decision {step.number + 1} of {total}: {step.street}\n\n")
    street = None
    for line in step.before:
        if line.street != street:
            street = line.street
            _street_heading(text, street, line.board)
        text.append_text(_action_line(line))
        text.append("\n")
    if step.street != street:
        _street_heading(text, step.street, step.board)
    text.append(f"    {step.hero} to act with ", style="bold")
    text.append_text(card_text(decision["hole"]))
    text.append("\n\n")

    def row(name: str, value: str) -> None:
        text.append(f"{name:<14}", style="dim")
        text.append(f"{value}\n")

    row("Pot", f"{decision['pot']:g}bb")
    if decision["to_call"]:
        row("To call", f"{decision['to_call']:g}bb")
        row("Pot odds", f"{pct(step.pot_odds)} equity needed")
        row("MDF", pct(step.mdf))
    else:
        row("To call", "nothing (check is free)")
    row("Your equity", f"{pct(decision['equity'])} vs the modelled range")
    combos = decision.get("their_combos")
    row("Their range", "not recorded" if combos is None else f"{combos:.1f} combos (Bayes reach)")
    text.append("\nAction EVs from here (fold = 0)\n", style="bold")
    text.append(f"against {decision['method']}\n", style="dim")
    for option in decision["options"]:
        chosen = option["action"] == decision["chosen"]
        mark = "▶ " if chosen else "  "
        if option["ev"] is None:
            style = "bold" if chosen else "dim"
            text.append(f"{mark}{option['label']:<20} unvalued\n", style=style)
            continue
        best = step.best_ev is not None and option["ev"] == step.best_ev
        style = "bold green" if best else "bold" if chosen else ""
        text.append(f"{mark}{option['label']:<20} {bb_ev(option['ev']):>10}\n", style=style)
    text.append(f"\nChosen: {decision['chosen_label']}", style="bold")
    if decision["ev_lost"] is None:
        text.append("   EV lost: unvalued (the model leaves it to later play)\n")
    else:
        style = "bold red" if decision["ev_lost"] > 0.005 else "green"
        text.append(f"   EV lost {decision['ev_lost']:.2f}bb", style=style)
        if step.best is not None and step.best_ev is not None:
            text.append(f" (best {step.best} {bb_ev(step.best_ev)})")
        text.append("\n")
    if decision["mix"]:
        text.append("\nThe engine's own mix\n", style="bold")
        for _, label, p in decision["mix"]:
            text.append(f"  {label:<20} {pct(p):>7}\n")
    if decision.get("their_range") is not None:
        text.append("\nTheir range here (Bayes over the model's policy)\n", style="bold")
        text.append_text(heat_grid(np.asarray(decision["their_range"], dtype=float)))
        text.append("\n")
    text.append(f"\nModel: {MODEL_NOTE}\n", style="dim")
    return text
