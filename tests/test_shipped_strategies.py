"""Every shipped bot loads, meets its bound, and records the exploitability we recompute."""

import json
from pathlib import Path

import pytest

from solvers.exact.evaluation import exploitability
from solvers.games import load_game
from solvers.runs.shipped import DEFAULT_BOT, SHIPPED_BOTS, readme_table
from solvers.strategy_file import load_strategy
from solvers.strategy_file.openspiel import export_policy, policy_from_export

STRATEGIES = Path(__file__).resolve().parent.parent / "strategies"


@pytest.mark.parametrize("bot", SHIPPED_BOTS, ids=lambda bot: bot.filename)
def test_shipped_file_matches_its_header(bot):
    loaded = load_strategy(STRATEGIES / bot.filename)
    assert loaded.game.spec_string() == load_game(bot.spec).spec_string()
    assert loaded.solver is not None and loaded.solver.algorithm == "lp"
    report = exploitability(loaded.game, loaded.strategy)
    assert report.exploitability == pytest.approx(loaded.measured.exploitability, abs=1e-12)
    assert report.game_value == pytest.approx(loaded.measured.game_value, abs=1e-12)
    assert report.exploitability <= bot.max_exploitability


def test_default_bot_is_shipped_and_small():
    assert (STRATEGIES / DEFAULT_BOT).exists()
    assert (STRATEGIES / "leduc.json").stat().st_size < 1_000_000


def test_readme_lists_every_file_with_its_exploitability():
    readme = (STRATEGIES / "README.md").read_text()
    assert readme_table(STRATEGIES) in readme


@pytest.mark.parametrize("name", ["kuhn.json", "leduc.json"])
def test_openspiel_export_gives_the_same_exploitability(tmp_path, name):
    from open_spiel.python.algorithms import exploitability as os_exploitability

    loaded = load_strategy(STRATEGIES / name)
    out = tmp_path / "policy.json"
    out.write_text(json.dumps(export_policy(loaded.game, loaded.strategy)))
    os_game, policy = policy_from_export(json.loads(out.read_text()))
    theirs = os_exploitability.exploitability(os_game, policy)
    ours = exploitability(loaded.game, loaded.strategy).exploitability
    assert abs(theirs - ours) < 1e-9
