"""The shipped full-game blueprint: it is the documented build, fits the size budget, and plays.

The poker facts checked are the textbook ones (aces are never folded first in, a 40 MB cap is
the issue's), not values read back from the file.
"""

from pathlib import Path

import numpy as np
import pytest

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
