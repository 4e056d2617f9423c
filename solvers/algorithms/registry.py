"""The one list of algorithms: names, where each lives, and the options each accepts.

Nothing heavy is imported here, so the command line and the TUI launcher can list, describe and
check algorithms and their options without loading numpy-heavy solvers or scipy; a solver's
module is imported only when one is built (``load_factory``).

Every option is declared with a type, a range or a set of choices, a default and a help line.
``parse_cli_options`` turns ``--opt key=value`` text into checked values and ``check_options``
checks values given from Python, so a wrong key or an out-of-range number is refused with a
message listing the valid options before any work starts, and a NaN or infinity never reaches
a solver.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from solvers.algorithms.options import MAX_SEED, Option, OptionError, SolverError

__all__ = [
    "ALGORITHM_LIST",
    "ALGORITHM_NAMES",
    "MAX_SEED",
    "Algorithm",
    "Option",
    "OptionError",
    "SolverError",
    "check_options",
    "describe_algorithms",
    "get_algorithm",
    "load_factory",
    "parse_cli_options",
]


@dataclass(frozen=True)
class Algorithm:
    name: str
    module: str
    attr: str
    summary: str
    options: tuple[Option, ...] = ()
    fixed: Mapping[str, Any] = field(default_factory=dict)
    """Keyword arguments the factory always gets (e.g. the CFR variant)."""

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

    def valid_options(self) -> str:
        if not self.options:
            return f"{self.name} takes no options"
        return f"valid options for {self.name}: " + ", ".join(o.name for o in self.options)


def _output() -> Option:
    return Option("output", "choice", "average", "which strategy is written",
                  choices=("average", "current"))  # fmt: skip


def _seed() -> Option:
    return Option("seed", "int", 0, "random seed", low=0, high=MAX_SEED)


def _cfr_options(alpha, beta, gamma, floor, predictive=False) -> tuple[Option, ...]:
    return (
        Option("regret_floor", "bool", floor, "floor regrets at 0 (CFR+)"),
        Option("alpha", "float", alpha, "discount exponent of positive regrets",
               low=0.0, high=10.0, nullable=True),
        Option("beta", "float", beta, "discount exponent of negative regrets",
               low=-10.0, high=10.0, nullable=True),
        Option("gamma", "float", gamma, "average weight t^gamma", low=0.0, high=10.0),
        Option("delay", "int", 0, "averaging delay (iterations)", low=0, high=10**9),
        Option("restart", "int", None, "start the average again at each power of this base "
               "(0: never; default: 4 for dcfr on hold'em spots, else 0)", low=0, high=10**9,
               nullable=True),
        Option("alternating", "bool", True, "update the players in turn"),
        Option("predictive", "bool", predictive, "predictive regret matching (Farina et al.)"),
        Option("precision", "choice", None,
               "bits of regrets and sums: 32, 64, or 16 (hold'em spots; default: the game's)",
               choices=("16", "32", "64", "float32", "float64"), nullable=True),
        Option("isomorphism", "bool", True, "walk one of two suit-swapped cards (spots)"),
        Option("sample", "int", 0, "chance sampling (hold'em spots): walk this many of the "
               "first chance node's cards an iteration, 0 for all", low=0, high=10_000),
        Option("sample_seed", "int", 0, "seed of sample='s draws", low=0, high=MAX_SEED),
        Option("walk", "choice", "auto", "compiled loops (hold'em spots) or the numpy walk",
               choices=("auto", "compiled", "numpy")),
        _output(),
    )  # fmt: skip


_FULL_WIDTH = "solvers.algorithms.full_width"
_SAMPLING = "solvers.algorithms.sampling"
_RM = "solvers.algorithms.regret_matching"

_RM_OPTIONS = (
    Option("alternating", "bool", False, "the column player answers the row player's new mix"),
    Option("gamma", "float", None, "average weight t^gamma (default 0, or 1 for rm+)",
           low=0.0, high=10.0, nullable=True),
    Option("seed", "int", None, "random initial regrets", low=0, high=MAX_SEED, nullable=True),
    Option("opponent", "floats", None, "fix the column player's mix, e.g. 0.5,0.25,0.25",
           low=0.0, high=1.0, nullable=True),
    _output(),
)  # fmt: skip

ALGORITHM_LIST: tuple[Algorithm, ...] = (
    Algorithm("cfr+", _FULL_WIDTH, "FullWidthCFR", "CFR+ (Tammelin 2014)",
              _cfr_options(None, None, 1.0, True), {"variant": "cfr+"}),
    Algorithm("cfr", _FULL_WIDTH, "FullWidthCFR", "vanilla CFR (Zinkevich et al. 2007)",
              _cfr_options(None, None, 0.0, False), {"variant": "cfr"}),
    Algorithm("dcfr", _FULL_WIDTH, "FullWidthCFR", "discounted CFR (Brown & Sandholm 2019)",
              _cfr_options(1.5, 0.0, 2.0, False), {"variant": "dcfr"}),
    Algorithm("lcfr", _FULL_WIDTH, "FullWidthCFR", "linear CFR",
              _cfr_options(1.0, 1.0, 1.0, False), {"variant": "lcfr"}),
    Algorithm("pcfr+", _FULL_WIDTH, "FullWidthCFR", "predictive CFR+ (Farina et al. 2021)",
              _cfr_options(None, None, 2.0, True, True), {"variant": "pcfr+"}),
    Algorithm("pdcfr+", _FULL_WIDTH, "FullWidthCFR", "predictive discounted CFR+",
              _cfr_options(2.3, 0.0, 5.0, True, True), {"variant": "pdcfr+"}),
    Algorithm("cs-cfr", _SAMPLING, "ChanceSampledCFR", "chance-sampled CFR",
              (_seed(), _output())),
    Algorithm("es-mccfr", _SAMPLING, "ExternalSamplingMCCFR", "external-sampling MCCFR",
              (_seed(), _output())),
    Algorithm("os-mccfr", _SAMPLING, "OutcomeSamplingMCCFR", "outcome-sampling MCCFR",
              (_seed(), Option("epsilon", "float", 0.6, "exploration", low=0.0, high=1.0,
                               low_open=True), _output())),
    Algorithm("paper-cfr", "solvers.algorithms.paper_cfr", "PaperSelfPlayCFR",
              "self-play CFR as in the paper (bet/call games)",
              (_seed(), Option("regret_floor", "bool", True, "floor regrets at 0"),
               Option("average_after_update", "bool", True, "average after the update"),
               _output())),
    Algorithm("fp", "solvers.algorithms.fictitious_play", "FictitiousPlay", "fictitious play",
              (Option("weighting", "choice", "uniform", "average weights",
                      choices=("uniform", "linear")), _output())),
    Algorithm("rm", _RM, "RegretMatching", "regret matching (matrix games)", _RM_OPTIONS,
              {"plus": False}),
    Algorithm("rm+", _RM, "RegretMatching", "regret matching+ (matrix games)", _RM_OPTIONS,
              {"plus": True}),
    Algorithm("double-oracle", "solvers.algorithms.double_oracle", "DoubleOracle",
              "double oracle with exact best responses",
              (Option("tolerance", "float", 1e-10, "stop when the gap is below this",
                      low=0.0, high=1.0), _output())),
    Algorithm("ga", "solvers.algorithms.genetic", "GeneticAlgorithm",
              "genetic algorithm (Goykhman), two-action games",
              (Option("preset", "choice", "default", "parameter preset",
                      choices=("default", "paper")),
               Option("scheme", "choice", None, "evolution scheme",
                      choices=("coevolution", "participant"), nullable=True),
               Option("population", "int", None, "members per population", low=4,
                      high=100_000, nullable=True),
               Option("elite_fraction", "float", None, "share kept each generation",
                      low=0.0, high=1.0, low_open=True, nullable=True),
               Option("mutation", "float", None, "gene flip probability", low=0.0,
                      high=1.0, nullable=True),
               Option("fitness", "choice", None, "how members are scored",
                      choices=("exact", "sampled"), nullable=True),
               Option("games", "int", None, "games per sampled match", low=1,
                      high=10_000_000, nullable=True),
               Option("bankroll", "float", None, "starting bankroll", low=0.0, high=1e12,
                      low_open=True, nullable=True),
               Option("seed", "int", 0, "random seed", low=0, high=MAX_SEED, nullable=True),
               _output())),
    Algorithm("mccfr", "solvers.algorithms.blueprint_mccfr", "refuse_tree_game",
              "linear external-sampling MCCFR with pruning: the full game's blueprint "
              "(hunl(...) only; docs/blueprint.md)",
              (Option("betting", "text", None, "betting abstraction, e.g. "
                      "pre=2.5x,a|3x,a;flop=33%,75%,a|a;turn=a;river=a", nullable=True),
               Option("cards", "text", None, "card abstraction, e.g. hs2(flop=50,turn=50,river=50)",
                      nullable=True),
               Option("batch", "int", 2048, "deals per compiled batch", low=1, high=1_000_000),
               Option("prune_after", "int", 2_000_000, "iterations before pruning starts",
                      low=0, high=10**12),
               Option("prune_below", "float", -2.0e6, "prune actions with regret below this",
                      low=-1e12, high=0.0),
               Option("prune_probability", "float", 0.95, "chance of skipping such an action",
                      low=0.0, high=1.0),
               Option("linear_until", "int", 20_000_000, "discount linearly up to this iteration",
                      low=0, high=10**12),
               Option("discount_every", "int", 500_000, "iterations between discounts",
                      low=1, high=10**12),
               _seed())),
    Algorithm("lp", "solvers.exact.lp", "solve_lp",
              "exact equilibrium by the sequence-form LP (HiGHS)"),
)  # fmt: skip

ITERATIVE = tuple(a.name for a in ALGORITHM_LIST if a.name != "lp")
ALGORITHM_NAMES = tuple(a.name for a in ALGORITHM_LIST)
_BY_NAME = {a.name: a for a in ALGORITHM_LIST}


def get_algorithm(name: str) -> Algorithm:
    try:
        return _BY_NAME[name]
    except KeyError:
        raise OptionError(
            f"unknown algorithm {name!r}; known: {', '.join(sorted(_BY_NAME))} "
            "(--algo '?' lists them with their options)"
        ) from None


def _unknown(algo: Algorithm, key: str) -> OptionError:
    return OptionError(f"bad options for {algo.name}: unknown option {key!r}; "
                       f"{algo.valid_options()}")  # fmt: skip


def parse_cli_options(name: str, pairs: list[str]) -> dict[str, Any]:
    """``["alpha=1.5", "alternating=false"]`` for algorithm ``name`` as checked, typed values."""
    algo = get_algorithm(name)
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise OptionError(f"options look like key=value, not {pair[:60]!r}")
        option = algo.option(key)
        if option is None:
            raise _unknown(algo, key)
        if key in options:
            raise OptionError(f"option {key} is given twice")
        options[key] = option.from_text(raw)
    return options


def check_options(name: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """Options given from Python for algorithm ``name``, checked against the declarations."""
    algo = get_algorithm(name)
    checked = {}
    for key, value in options.items():
        option = algo.option(key)
        if option is None:
            raise _unknown(algo, key)
        checked[key] = option.check(value)
    return checked


def load_factory(name: str) -> Callable[..., Any]:
    """The callable that builds algorithm ``name`` (``factory(game, **options)``)."""
    algo = get_algorithm(name)
    target = getattr(importlib.import_module(algo.module), algo.attr)
    if not algo.fixed:
        return target
    fixed = dict(algo.fixed)

    def factory(game, **options):
        return target(game, **fixed, **options)

    return factory


def describe_algorithms() -> str:
    """The text ``--algo ?`` prints: every algorithm with its options."""
    lines = []
    for algo in ALGORITHM_LIST:
        lines.append(f"{algo.name:14s} {algo.summary}")
        for option in algo.options:
            lines.append(f"    --opt {option.describe()}")
    return "\n".join(lines)


class LazyAlgorithms(Mapping[str, Callable[..., Any]]):
    """``ALGORITHMS``: a read-only mapping of iterative algorithm names to their factories,
    importing a solver's module only when its factory is looked up."""

    def __getitem__(self, name: str) -> Callable[..., Any]:
        if name not in ITERATIVE:
            raise KeyError(name)
        return load_factory(name)

    def __iter__(self) -> Iterator[str]:
        return iter(ITERATIVE)

    def __len__(self) -> int:
        return len(ITERATIVE)

    def __contains__(self, name: object) -> bool:
        return name in ITERATIVE
