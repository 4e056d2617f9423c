"""The shipped full-game blueprint: it is the documented build, fits the size budget, and plays.

The poker facts checked are the textbook ones (aces are never folded first in, a 40 MB cap is
the issue's), not values read back from the file.
"""

from pathlib import Path

import numpy as np

from solvers.abstraction.betting import parse_betting
from solvers.abstraction.buckets import parse_abstraction
from solvers.agents.blueprint import load_blueprint_agent
from solvers.cards.deck import CLASS_LABELS, COMBO_CLASS
from solvers.games.hunl.rules import HunlConfig, HunlState
from solvers.runs.blueprint_build import SHIPPED_BLUEPRINTS
from solvers.strategy_file.blueprint_file import read_blueprint

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"
SHIPPED = SHIPPED_BLUEPRINTS[0]


def test_the_100bb_blueprint_is_the_documented_build():
    path = STRATEGIES / SHIPPED.filename
    assert path.stat().st_size <= 40 * 2**20
    loaded = read_blueprint(path)
    header = loaded.header
    assert header["game"] == "hunl(stack_bb=100)"
    assert header["betting"] == parse_betting(SHIPPED.spec.betting).spec
    assert header["cards"] == parse_abstraction(SHIPPED.spec.cards).spec
    assert header["seed"] == SHIPPED.spec.options.seed
    assert header["iterations"] >= 1_000_000


def test_the_100bb_blueprint_plays_sensible_preflop_poker():
    agent = load_blueprint_agent(STRATEGIES / SHIPPED.filename, HunlConfig(100), warm=False)
    policy = agent.policy(HunlState.initial(HunlConfig(100)), np.zeros(0, dtype=np.int64))
    assert [str(a) for a in policy.actions] == ["f", "c", "r250", "r10000"]
    aces = policy.probabilities[COMBO_CLASS == CLASS_LABELS.index("AA")]
    assert aces[:, 0].max() == 0.0  # nobody folds aces first in
    assert np.allclose(policy.probabilities.sum(axis=1), 1.0)
