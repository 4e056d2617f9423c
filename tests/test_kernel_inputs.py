"""The compiled kernels' named inputs, the one executor decision, the CFR update's numbers and
the games' derived caches.

The records are read by name: every field a kernel reads exists in its record, every field of a
record is read somewhere (no dead field to drift), and no code builds one by position (a new
field would shift the others).
"""

from __future__ import annotations

import ast

import numpy as np
import pytest

from solvers.algorithms.cfr_update import UpdateRule
from solvers.errors import InputError
from solvers.exact import kernel_inputs
from solvers.exact.executor import evaluation_walk, uses_compiled
from solvers.games import load_game
from solvers.games.combo_terminals import ComboHands, TerminalTables
from solvers.games.derived import DerivedCache
from tests.conftest import ROOT

SOLVERS = ROOT / "solvers"
KERNELS = (
    SOLVERS / "exact" / "compiled_kernels.py",
    SOLVERS / "games" / "holdem" / "terminal_kernels.py",
)
RIVER = str(ROOT / "spots" / "river.toml")

RECORDS = {
    "PlanArrays": kernel_inputs.PlanArrays,
    "StrategySource": kernel_inputs.StrategySource,
    "TerminalTables": TerminalTables,
    "FusedUpdate": kernel_inputs.FusedUpdate,
    "ComboHands": ComboHands,
    "Schedule": kernel_inputs.Schedule,
}
PARAMETERS = {
    "plan": "PlanArrays",
    "source": "StrategySource",
    "source0": "StrategySource",
    "source1": "StrategySource",
    "own_source": "StrategySource",
    "opp_source": "StrategySource",
    "tables": "TerminalTables",
    "update": "FusedUpdate",
    "own": "ComboHands",
    "opp": "ComboHands",
    "own_hands": "ComboHands",
    "opp_hands": "ComboHands",
    "schedule": "Schedule",
}
"""Kernel parameter names that hold a record, and the record."""


def _reads() -> dict[str, set[str]]:
    """Per record, the fields the kernels read (``param.field`` of a record parameter)."""
    reads: dict[str, set[str]] = {name: set() for name in RECORDS}
    bodies = [ast.parse(path.read_text()).body for path in KERNELS]
    functions = [n for body in bodies for n in body if isinstance(n, ast.FunctionDef)]
    for function in functions:
        params = {a.arg for a in function.args.args}
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in params
                and node.value.id in PARAMETERS
            ):
                reads[PARAMETERS[node.value.id]].add(node.attr)
    return reads


def test_kernels_read_only_fields_their_records_have_and_every_field_is_read():
    reads = _reads()
    for name, record in RECORDS.items():
        assert reads[name] == set(record._fields), name


def test_no_record_is_built_by_position():
    """A positional build would bind by order: a field added in the middle shifts the rest."""
    wrong = []
    for path in sorted(SOLVERS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name in RECORDS and node.args:
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} {name}")
    assert wrong == []


def test_no_module_writes_into_a_game_dict():
    """Derived values live in ``game.derived`` (or the game's own cached properties)."""
    offenders = [
        str(path.relative_to(ROOT))
        for path in sorted(SOLVERS.rglob("*.py"))
        if "__dict__[" in path.read_text() or "__dict__.get(" in path.read_text()
    ]
    assert offenders == []


# --- one executor decision ---------------------------------------------------------------------


def test_one_decision_picks_the_executor():
    spot, kuhn = load_game(RIVER), load_game("kuhn")
    assert uses_compiled(spot) and uses_compiled(spot, "compiled")
    assert not uses_compiled(spot, "numpy")
    assert not uses_compiled(spot, alternating=False)
    assert not uses_compiled(kuhn)
    with pytest.raises(InputError, match="hold'em"):
        uses_compiled(kuhn, "compiled")
    with pytest.raises(InputError, match="alternating"):
        uses_compiled(spot, "compiled", alternating=False)
    with pytest.raises(InputError, match="auto, compiled or numpy"):
        uses_compiled(spot, "fast")
    assert evaluation_walk(kuhn) is None
    walk = evaluation_walk(spot)
    assert walk is not None and walk.dtype == np.float64 and not walk.isomorphic


# --- the CFR update's numbers --------------------------------------------------------------------


def test_update_rule_numbers_are_the_papers():
    """Brown & Sandholm 2019: after iteration t positive regrets times t^a / (t^a + 1), negative
    times t^b / (t^b + 1); iteration t weighs t^gamma in the average (CFR+: (t - d)^1)."""
    dcfr = UpdateRule(alpha=1.5, beta=0.0, gamma=2.0)
    positive, negative = dcfr.discounts(4)
    assert positive == pytest.approx(8.0 / 9.0, abs=1e-15)  # 4^1.5 = 8
    assert negative == pytest.approx(0.5, abs=1e-15)
    assert dcfr.sum_weight(4) == 16.0
    plus = UpdateRule(floor=True, gamma=1.0, delay=2)
    assert plus.discounts(4) is None
    assert [plus.sum_weight(t) for t in (1, 2, 3, 4)] == [0.0, 0.0, 1.0, 2.0]
    fused = dcfr.fused(4, np.zeros((0, 0)))
    assert (fused.discount, fused.floor, fused.sum_weight) == (True, False, 16.0)
    assert (fused.positive, fused.negative) == (positive, negative)
    assert not plus.fused(4, np.zeros((0, 0))).discount


def test_update_rule_apply_by_hand():
    """One numpy update on a 2-action decision, two hands, worked out by hand."""
    rule = UpdateRule(floor=True, alpha=1.0, beta=1.0, gamma=1.0)
    regrets = np.array([[1.0, -1.0], [0.5, 2.0]])
    instant = np.array([[1.0, -2.0], [-1.0, 2.0]])
    sums = np.zeros((2, 2))
    reach = np.array([[0.5, 1.0], [0.5, 1.0]])
    current = np.array([[0.25, 1.0], [0.75, 0.0]])
    rule.apply(3, regrets, instant, sums, reach, current)
    # sums 2, -3 -> 0 (floor), -0.5 -> 0, 4; then times 3/4 (t^1 / (t^1 + 1) at t = 3)
    np.testing.assert_array_equal(regrets, [[1.5, 0.0], [0.0, 3.0]])
    np.testing.assert_array_equal(sums, 3.0 * reach * current)


# --- derived caches ------------------------------------------------------------------------------


def test_the_derived_cache_builds_once_and_keeps_the_newest_entries():
    cache = DerivedCache(bound=2)
    built = []

    def build(key):
        built.append(key)
        return [key]

    first = cache.get("walk", "a", lambda: build("a"))
    assert cache.get("walk", "a", lambda: build("a")) is first
    cache.get("walk", "b", lambda: build("b"))
    cache.get("walk", "a", lambda: build("a"))  # a is the newest again
    cache.get("walk", "c", lambda: build("c"))  # b, the oldest, goes
    assert cache.keys("walk") == ["a", "c"]
    assert built == ["a", "b", "c"]
    cache.get("plan", None, lambda: build("plan"))
    assert cache.keys("walk") == ["a", "c"]  # kinds are bounded apart
    cache.clear()
    assert cache.keys("walk") == [] and cache.keys("plan") == []


def test_a_game_keeps_its_plans_and_walks_in_its_derived_cache():
    from solvers.exact.compiled_walk import compiled_walk  # noqa: PLC0415
    from solvers.exact.walk import build_plan  # noqa: PLC0415

    game = load_game(RIVER)
    assert build_plan(game) is build_plan(game)
    walks = [compiled_walk(game, dtype) for dtype in (np.float64, np.float32, np.float64)]
    assert walks[0] is walks[2] and walks[0] is not walks[1]
    assert game.derived.keys("compiled_walk") == [("<f4", False), ("<f8", False)]
    assert not any(k.startswith("_compiled") or k == "_cfr_plan" for k in vars(game))


def test_records_are_plain_named_tuples_of_keywords():
    """Building with a missing or unknown field fails at once (no silent default)."""
    with pytest.raises(TypeError):
        kernel_inputs.StrategySource(weights=np.zeros((1, 1)), matching=True)  # no predictions
    with pytest.raises(TypeError):
        kernel_inputs.FusedUpdate(**kernel_inputs.no_update(np.float64)._asdict(), extra=1)
