"""Regenerate ``docs/play.svg``, the README's picture of the play screen mid-hand.

It runs the app headless (Textual's ``run_test``) against the shipped Leduc bot with a fixed
seed and a temporary saves folder, plays to a decision where the player faces a raise with the
board out, waits for the live panel, and saves Textual's SVG screenshot. Run it after changing
how the play screen looks::

    .venv/bin/python scripts/screenshot.py            # writes docs/play.svg
    .venv/bin/python scripts/screenshot.py --seed 7 --out /tmp/play.svg
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from pokertui.app import make_app
from pokertui.screens.play import PlayScreen

ROOT = Path(__file__).resolve().parent.parent
SIZE = (110, 32)


def interesting(screen: PlayScreen) -> bool:
    """Mid-hand, after the board card, facing a bet: the panel shows every part."""
    session = screen.session
    return session.human_to_act and bool(session.board_text()) and session.to_call() > 0


async def capture(seed: int, out: Path) -> str:
    with tempfile.TemporaryDirectory() as saves:
        bot = str(ROOT / "strategies" / "leduc.json")
        app = make_app(ROOT / "strategies", saves, bot=bot, seed=seed)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(200):
                await pilot.pause()
                await app.workers.wait_for_complete()
                await pilot.pause()
                screen = app.screen
                assert isinstance(screen, PlayScreen)
                if interesting(screen):
                    break
                await pilot.press("n" if screen.session.hand_over else "c")
            else:
                raise SystemExit("no hand reached a raise on the board; try another --seed")
            out.parent.mkdir(parents=True, exist_ok=True)
            app.save_screenshot(filename=out.name, path=str(out.parent))
            return f"hand {screen.session.hand.number}, node {screen.session.node.key!r}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "play.svg")
    args = parser.parse_args()
    where = asyncio.run(capture(args.seed, args.out))
    print(f"wrote {args.out} ({where})")


if __name__ == "__main__":
    main()
