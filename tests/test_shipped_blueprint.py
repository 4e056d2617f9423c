"""The shipped full-game blueprint: it is the documented build, fits the size budget, and plays.

The poker facts checked are the textbook ones (aces are never folded first in, a 40 MB cap is
the issue's), not values read back from the file.
"""

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest

from pokertui.cli import main
from solvers.abstraction.betting import parse_betting
from solvers.abstraction.buckets import parse_abstraction
from solvers.agents.blueprint import load_blueprint_agent
from solvers.cards.deck import CLASS_LABELS, COMBO_CLASS
from solvers.games.hunl.rules import HunlState
from solvers.runs.blueprint_build import SHIPPED_BLUEPRINTS
from solvers.strategy_file.blueprint_file import read_blueprint

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"


@pytest.mark.parametrize("shipped", SHIPPED_BLUEPRINTS, ids=lambda bot: bot.filename)
def test_each_blueprint_is_the_documented_build(shipped):
    path = STRATEGIES / shipped.filename
    assert path.stat().st_size <= 40 * 2**20
    loaded = read_blueprint(path)
    header = loaded.header
    assert header["game"] == shipped.spec.game
    assert header["betting"] == parse_betting(shipped.spec.betting).spec
    assert header["cards"] == parse_abstraction(shipped.spec.cards).spec
    assert header["seed"] == shipped.spec.options.seed
    assert header["iterations"] >= 1_000_000


@pytest.mark.parametrize("shipped", SHIPPED_BLUEPRINTS, ids=lambda bot: bot.filename)
def test_each_blueprint_plays_sensible_preflop_poker(shipped):
    config = shipped.spec.config()
    agent = load_blueprint_agent(STRATEGIES / shipped.filename, config, warm=False)
    policy = agent.policy(HunlState.initial(config), np.zeros(0, dtype=np.int64))
    assert [str(a) for a in policy.actions] == ["f", "c", "r250", f"r{config.stack}"]
    aces = policy.probabilities[COMBO_CLASS == CLASS_LABELS.index("AA")]
    assert aces[:, 0].max() == 0.0  # nobody folds aces first in
    assert np.allclose(policy.probabilities.sum(axis=1), 1.0)


RECOMPUTED_DEALS = 1000


@pytest.mark.slow
@pytest.mark.parametrize("shipped", SHIPPED_BLUEPRINTS, ids=lambda bot: bot.filename)
def test_each_blueprint_records_lbr_and_a_rerun_agrees(shipped):
    """The header's LBR (fcpa on the turn and river, at least 2 x 10,000 duplicate hands) is
    recomputed on the first deals of the same seeded stream through the CLI. The bound is four
    standard errors of the difference: a bot file swapped for a chump (LBR wins 49 BB a hand
    against always-call) or a header copied from another file fails it."""
    path = STRATEGIES / shipped.filename
    figure = read_blueprint(path).header["lbr"]["fcpa 3-4"]
    assert figure["deals"] >= 10_000 and figure["unit"] == "mbb_per_hand"
    assert figure["game"].startswith(shipped.spec.game.removesuffix(")"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["lbr", shipped.spec.game, "--bot", str(path), "--action-set", "fcpa",
                     "--streets", "3-4", "--hands", str(RECOMPUTED_DEALS),
                     "--seed", str(figure["seed"]), "--workers", "1", "--json"])  # fmt: skip
    assert code == 0
    rerun = json.loads(out.getvalue())
    recorded_se = figure["ci95"] / 1.96
    rerun_se = rerun["ci95"] / 1.96
    assert abs(rerun["value"] - figure["value"]) <= 4 * (recorded_se**2 + rerun_se**2) ** 0.5
