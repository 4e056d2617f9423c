from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STRATEGIES = ROOT / "strategies"


def plain_text(renderable, width: int) -> str:
    """A widget's content (or any rich renderable) as plain text, the way a person reads it."""
    import io

    from rich.console import Console

    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    console.print(getattr(renderable, "content", renderable))
    return console.export_text()
