"""Every shipped hold'em spot file names its spot, meets the 0.3%-of-the-pot target, and records
the exploitability that an exact best response recomputes (about 1 s for a turn spot)."""

from pathlib import Path

import pytest

from solvers.exact.evaluation import exploitability
from solvers.games import load_game
from solvers.runs.request import SPOT_TARGET
from solvers.runs.shipped import SHIPPED_SPOTS
from solvers.strategy_file import load_strategy

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"
RIVERS = [s for s in SHIPPED_SPOTS if s.spot.endswith("river")]
TURNS = [s for s in SHIPPED_SPOTS if not s.spot.endswith("river")]


def check(spot):
    loaded = load_strategy(STRATEGIES / spot.filename)
    assert loaded.game.spec_string() == load_game(str(spot.spot_path)).spec_string()
    assert loaded.solver is not None and loaded.solver.algorithm == spot.algo
    report = exploitability(loaded.game, loaded.strategy)
    assert report.exploitability == pytest.approx(loaded.measured.exploitability, rel=1e-6)
    assert report.pot_percent == pytest.approx(loaded.measured.pot_percent, rel=1e-6)
    assert spot.target.pot_percent and report.pot_percent <= SPOT_TARGET.value


@pytest.mark.parametrize("spot", RIVERS, ids=lambda s: s.spot)
def test_shipped_river_spot_matches_its_header(spot):
    check(spot)


@pytest.mark.parametrize("spot", TURNS, ids=lambda s: s.spot)
def test_shipped_turn_spot_matches_its_header(spot):
    check(spot)


def test_shipped_spots_stay_small():
    total = sum(p.stat().st_size for p in STRATEGIES.iterdir())
    assert total < 30 * 2**20
    assert {s.filename for s in SHIPPED_SPOTS} <= {p.name for p in STRATEGIES.iterdir()}
