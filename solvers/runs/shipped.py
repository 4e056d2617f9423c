"""The bots that ship in ``strategies/``: which games, how they are solved, and their bounds.

Every shipped file is an exact sequence-form LP equilibrium, rounded to 6 decimals; the file
records the exploitability of the rounded profile as measured by exact best response. Where the
game's suits are interchangeable (Leduc), the LP's equilibrium is averaged over the suit
permutations first (``suit_symmetry``), so the bot never treats ``Js`` and ``Jh`` differently.
Regenerate them all with ``pokertui build-bots`` (about a minute on a 2-core machine).

Hold'em river and turn spots from ``spots/`` ship too (``SHIPPED_SPOTS``), solved by DCFR to
``SPOT_TARGET`` (0.3% of the pot) or better; their headers record the exploitability of the
rounded (or quantised) file. Rivers are ``.json.gz``; a turn with the river spots' dense river
sizes is three to six times the tree, so it ships in the binary form (``.ptsb``,
``docs/strategy_files.md``). They take minutes (``build-bots --part spots``); flop
spots are too big to ship and are solved on demand from the Spots screen.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from solvers.agents.river_resolve import RiverResolver
from solvers.exact.lp import solve_lp
from solvers.games import load_game
from solvers.games.holdem.spot import spot_meta
from solvers.reports.lbr.record import record_lbr
from solvers.reports.lbr.spot_run import evaluate_exact
from solvers.runs.request import BINARY_SUFFIX, SPOT_TARGET, RunRequest, Target
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

SPOTS_DIR = Path(__file__).resolve().parents[2] / "spots"


@dataclass(frozen=True)
class ShippedSpot:
    """A hold'em spot from ``spots/`` shipped solved as ``strategies/{spot}.json.gz`` (or
    ``.ptsb`` when ``binary``)."""

    spot: str
    """The spot file's stem in ``spots/``."""
    target: Target = SPOT_TARGET
    algo: str = "dcfr"
    binary: bool = False

    @property
    def filename(self) -> str:
        return f"{self.spot}{BINARY_SUFFIX if self.binary else '.json.gz'}"

    @property
    def spot_path(self) -> Path:
        return SPOTS_DIR / f"{self.spot}.toml"

    @property
    def title(self) -> str:
        return spot_meta(self.spot_path)["name"] or self.spot


SHIPPED_SPOTS: tuple[ShippedSpot, ...] = (
    # the paired turn stops at 0.25%: quantising its 8-bit rows adds about 0.02% of the pot,
    # which took a 0.3% solve to 0.317% (built so before a missed target fell back to 16 bits)
    ShippedSpot("srp_dry_river"),
    ShippedSpot("srp_wet_river"),
    ShippedSpot("srp_paired_river"),
    ShippedSpot("srp_dry_turn", binary=True),
    ShippedSpot("srp_wet_turn", binary=True),
    ShippedSpot("srp_paired_turn", Target(0.25, pot_percent=True), binary=True),
    ShippedSpot("3bet_turn", binary=True),
)


def build_spot(spot: ShippedSpot, out_dir: Path) -> tuple[StrategyFile, float]:
    """Solve a shipped spot to its target with the process-side solve loop (no checkpoint is
    left behind)."""
    from solvers.runs.solve_run import execute  # noqa: PLC0415 - loads every solver

    started = time.perf_counter()
    request = RunRequest(
        game=str(spot.spot_path), algo=spot.algo, out=out_dir / spot.filename, target=spot.target
    )
    execute(request, lambda event: None, lambda: False)
    request.checkpoint_path.unlink(missing_ok=True)
    return load_strategy(request.out), time.perf_counter() - started


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


LBR_ACTION_SETS = ("fc", "fcpa", "tree", "56")
"""Local best response figures recorded in every shipped hold'em file's header."""


def is_lbr_target(filename: str) -> bool:
    """Shipped hold'em strategies: push/fold and the spots (LBR needs real cards)."""
    return filename.startswith("push_fold_") or any(s.filename == filename for s in SHIPPED_SPOTS)


def record_lbr_figures(path: Path) -> dict[str, float]:
    """LBR's exact value (over every deal) for each action set against the file played as a
    bot (a turn spot re-solves the river after an off-tree bet, ``river_resolve.py``; its two
    seats then run in two processes), stored in the file's header; returns ``{action set:
    value}`` in the file's unit (mbb/hand or % of the pot)."""
    values = {}
    for action_set in LBR_ACTION_SETS:
        result = evaluate_exact(path, action_set, river=RiverResolver, workers=None)
        record_lbr(path, result)
        values[action_set] = result["value"]
    return values


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
        assert measured is not None, f"{path} was written without its measured figures"
        size = path.stat().st_size
        lines.append(
            f"| `{bot.filename}` | {bot.title}: `{loaded.game.spec_string()}` | "
            f"{measured.exploitability:.2e} | {measured.mbb_per_hand:.3g} | "
            f"{bot.max_exploitability:g} | {size / 1024:.1f} KB |"
        )
    spots = [
        "",
        "Hold'em spots (`spots/`), solved by DCFR; exploitability in percent of the starting pot:",
        "",
        "| file | spot | exploitability (% pot) | target | iterations | "
        "LBR fc / fcpa / tree / 56 (% pot) | size |",
        "|---|---|---|---|---|---|---|",
    ]
    for spot in SHIPPED_SPOTS:
        path = out_dir / spot.filename
        if not path.exists():
            continue
        loaded = load_strategy(path)
        iterations = loaded.solver.iterations if loaded.solver else None
        assert loaded.measured is not None, f"{path} was written without its measured figures"
        figures = {f.action_set: f.value for f in loaded.lbr}
        lbr_text = " / ".join(
            f"{figures[a]:+.2f}" if a in figures else "-" for a in LBR_ACTION_SETS
        )
        spots.append(
            f"| `{spot.filename}` | {spot.title} (`spots/{spot.spot}.toml`) | "
            f"{loaded.measured.pot_percent:.3f} | {spot.target.value:g} | {iterations} | "
            f"{lbr_text} | {path.stat().st_size / 1024:.0f} KB |"
        )
    return "\n".join(lines + (spots if len(spots) > 5 else []))
