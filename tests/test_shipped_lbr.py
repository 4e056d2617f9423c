"""Every shipped hold'em strategy records its local best response figures, and they recompute."""

import pytest

from solvers.reports.lbr_record import translation_price
from solvers.reports.lbr_run import evaluate_exact
from solvers.runs.shipped import LBR_ACTION_SETS, SHIPPED_BOTS, SHIPPED_SPOTS, is_lbr_target
from solvers.strategy_file import load_strategy
from tests.conftest import STRATEGIES

HOLDEM_FILES = [b.filename for b in (*SHIPPED_BOTS, *SHIPPED_SPOTS) if is_lbr_target(b.filename)]


@pytest.mark.parametrize("filename", HOLDEM_FILES)
def test_each_action_set_is_recorded_exactly(filename):
    loaded = load_strategy(STRATEGIES / filename)
    recorded = {f.action_set: f for f in loaded.lbr}
    assert set(recorded) == set(LBR_ACTION_SETS)
    assert all(f.deals is None and f.ci95 == 0.0 for f in recorded.values())  # exact figures
    # LBR with the bot's own sizes is a best response restricted to the tree: it cannot beat
    # the exact best response, whose gain over the game value is the file's exploitability
    tree = recorded["tree"]
    measured = loaded.measured
    bound = measured.mbb_per_hand if tree.unit == "mbb_per_hand" else measured.pot_percent
    assert tree.value <= bound + 1e-6
    assert translation_price(loaded.lbr) is not None


@pytest.mark.parametrize("filename", ["push_fold_10bb.json", "srp_dry_river.json.gz"])
def test_recorded_figures_recompute(filename):
    loaded = load_strategy(STRATEGIES / filename)
    for figure in loaded.lbr:
        if figure.action_set in ("fcpa", "tree"):
            again = evaluate_exact(STRATEGIES / filename, figure.action_set)
            assert again["value"] == pytest.approx(figure.value, rel=1e-9, abs=1e-9)
