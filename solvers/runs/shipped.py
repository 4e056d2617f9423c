"""The bots that ship in ``strategies/``: which games, how they are solved, and their bounds.

Every shipped file is an exact sequence-form LP equilibrium, rounded to 6 decimals; the file
records the exploitability of the rounded profile as measured by exact best response. Where the
game's suits are interchangeable (Leduc), the LP's equilibrium is averaged over the suit
permutations first (``suit_symmetry``), so the bot never treats ``Js`` and ``Jh`` differently.
Regenerate them all with ``pokertui build-bots`` (about a minute on a 2-core machine).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from solvers.exact.lp import solve_lp
from solvers.games import load_game
from solvers.runs.suit_symmetry import suit_symmetric
from solvers.strategy_file import SolverInfo, StrategyFile, load_strategy, save_strategy


@dataclass(frozen=True)
class ShippedBot:
    filename: str
    spec: str
    max_exploitability: float
    """The bound the file must meet, in chips (bb for push/fold)."""
    title: str
    suit_symmetric: bool = False
    """Average the equilibrium over suit permutations before saving."""


SHIPPED_BOTS: tuple[ShippedBot, ...] = (
    ShippedBot("kuhn.json", "kuhn(cards=3)", 1e-4, "Kuhn poker, 3 cards"),
    ShippedBot("leduc.json", "leduc()", 1e-3, "Leduc hold'em", suit_symmetric=True),
    ShippedBot(
        "von_neumann.json",
        "von_neumann(ante=1,bet=2,bins=100)",
        1e-4,
        "von Neumann poker (1, 2), 100 bins",
    ),
    ShippedBot("flop_poker.json", "flop_poker(ante=1,bet=2)", 1e-4, "Goykhman's flop poker (1, 2)"),
    *(
        ShippedBot(
            f"push_fold_{bb:02d}bb.json",
            f"push_fold(stack_bb={bb})",
            1e-3,
            f"Heads-up push/fold, {bb} bb",
        )
        for bb in (5, 8, 10, 12, 15, 20, 25)
    ),
    ShippedBot(
        "river_toy.json",
        "river_toy(pot=4,bets=[1],nuts=0.2)",
        1e-4,
        "River toy game: pot 4, bet 1, 20% nuts",
    ),
)

DEFAULT_BOT = "leduc.json"


def build_bot(bot: ShippedBot, out_dir: Path) -> tuple[StrategyFile, float]:
    started = time.perf_counter()
    game = load_game(bot.spec)
    solution = solve_lp(game)
    strategy, method = solution.strategy, "sequence-form, HiGHS"
    if bot.suit_symmetric:
        strategy = suit_symmetric(game, strategy)
        method += ", averaged over suit permutations"
    saved = save_strategy(
        out_dir / bot.filename,
        game,
        strategy,
        solver=SolverInfo(algorithm="lp", settings={"method": method}),
    )
    return saved, time.perf_counter() - started


def readme_table(out_dir: Path) -> str:
    """The table of shipped files for ``strategies/README.md``, from the files themselves."""
    lines = [
        "| file | game | exploitability (chips) | in mbb/hand | bound | size |",
        "|---|---|---|---|---|---|",
    ]
    for bot in SHIPPED_BOTS:
        path = out_dir / bot.filename
        if not path.exists():
            continue
        loaded = load_strategy(path)
        measured = loaded.measured
        size = path.stat().st_size
        lines.append(
            f"| `{bot.filename}` | {bot.title}: `{loaded.game.spec_string()}` | "
            f"{measured.exploitability:.2e} | {measured.mbb_per_hand:.3g} | "
            f"{bot.max_exploitability:g} | {size / 1024:.1f} KB |"
        )
    return "\n".join(lines)
