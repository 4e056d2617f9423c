"""The aggregate report for people: a table of flops and a bar chart per texture class."""

from __future__ import annotations

from typing import Any

BAR_WIDTH = 30


def _freqs(freqs: dict[str, float]) -> str:
    return "  ".join(f"{a} {100 * f:.0f}%" for a, f in freqs.items())


def bar(fraction: float, width: int = BAR_WIDTH) -> str:
    """A bar of ``fraction`` of ``width`` cells, in eighths."""
    eighths = round(max(0.0, min(1.0, fraction)) * width * 8)
    full, part = divmod(eighths, 8)
    return "█" * full + (" ▏▎▍▌▋▊▉"[part] if part else "")


def print_report(report, rows, groups: dict[str, dict[str, Any]]) -> None:
    from rich.console import Console  # noqa: PLC0415
    from rich.table import Table  # noqa: PLC0415

    console = Console()
    about = report.about
    title = f"batch {report.folder}"
    if about.get("kind") == "flops":
        title += f": {about.get('flops')} flops of {about.get('spot')}"
    table = Table(title=title, caption="EV in chips; exploitability in % of the pot")
    for name, justify in (("flop", "left"), ("weight", "right"), ("texture", "left"),
                          ("EV OOP", "right"), ("EV IP", "right"), ("OOP equity", "right"),
                          ("expl", "right"), ("root (OOP)", "left"),
                          ("after check (IP)", "left")):  # fmt: skip
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for row in rows:
        table.add_row(row.name, f"{row.weight:g}", row.texture + (" conn" if row.connected else ""),
                      f"{row.ev_oop:.2f}", f"{row.ev_ip:.2f}", f"{100 * row.equity_oop:.1f}%",
                      f"{row.exploitability:.3g}", _freqs(row.root),
                      _freqs(row.after_check))  # fmt: skip
    console.print(table)
    for name, group in groups.items():
        if not group.get("weight"):
            continue
        share = group["weight"] / groups["all"]["weight"] if groups["all"]["weight"] else 0
        console.print(
            f"\n[bold]{name}[/]: {group['flops']} flops, {100 * share:.1f}% of the weight; "
            f"EV OOP {group['ev_oop']:.2f}, EV IP {group['ev_ip']:.2f}, OOP equity "
            f"{100 * group['equity_oop']:.1f}%, exploitability {group['exploitability']:.3g}",
            highlight=False,
        )
        for where, label in (("root", "root"), ("after_check", "after check")):
            for action, freq in group[where].items():
                console.print(f"  {label:<11} {action:<14} {bar(freq):<{BAR_WIDTH}} "
                              f"{100 * freq:5.1f}%", highlight=False)  # fmt: skip
    if report.missing:
        names = ", ".join(report.missing[:8]) + (" ..." if len(report.missing) > 8 else "")
        console.print(f"\nnot finished yet: {len(report.missing)} jobs ({names})")
