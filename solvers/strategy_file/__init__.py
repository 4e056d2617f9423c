"""Strategy files: the JSON that solvers write, bots play and people edit.

A file is one JSON object. Its header names the game (a spec string such as ``kuhn(cards=3)``),
the solver that made it and the exploitability measured when it was saved; its ``nodes`` map
each decision node's key to that node's strategy, in one of two forms:

* **compact** (what solvers write)::

      "c/b": {"actions": ["fold", "call"], "hands": ["J", "Q", "K"],
              "probs": [[1, 0], [0.666667, 0.333333], [0, 1]]}

  ``hands`` is optional (default: all of the acting player's hands in the game's order).
* **readable** (what people write), per hand::

      "c/b": {"J": {"fold": 1}, "Q": {"fold": 0.67, "call": 0.33}, "K": {"call": 1}}

  or, in hold'em games, per action as a range string; at most one action may be left out and
  takes what the others leave::

      "": {"shove": "22+,A2s+,K5s+,Q8s+,K9o+"}

``defaults`` (``"uniform"`` or ``"check_fold"``) fills nodes that are absent, but only when the
file asks for it. Loading never executes anything and reports every problem of a file at once,
with the node, hand, action and, where it can be found, the line.
"""

from solvers.atomic import atomic_write_text
from solvers.strategy_file.model import (
    DEFAULT_PRECISION,
    FORMAT_VERSION,
    MAX_FILE_BYTES,
    ROW_TOLERANCE,
    LbrFigure,
    Measured,
    Problem,
    SolverInfo,
    StrategyFile,
    StrategyFileError,
    StrategyFileModel,
)
from solvers.strategy_file.read import (
    load_strategy,
    loads_strategy,
    range_to_hand_weights,
    read_strategy_text,
)
from solvers.strategy_file.write import (
    document_chunks,
    dumps_document,
    measure,
    measured_from,
    round_rows,
    rounded_strategy,
    save_strategy,
    to_document,
)

__all__ = [
    "DEFAULT_PRECISION",
    "FORMAT_VERSION",
    "MAX_FILE_BYTES",
    "LbrFigure",
    "ROW_TOLERANCE",
    "Measured",
    "Problem",
    "SolverInfo",
    "StrategyFile",
    "StrategyFileError",
    "StrategyFileModel",
    "atomic_write_text",
    "document_chunks",
    "dumps_document",
    "measured_from",
    "load_strategy",
    "loads_strategy",
    "measure",
    "range_to_hand_weights",
    "read_strategy_text",
    "round_rows",
    "rounded_strategy",
    "save_strategy",
    "to_document",
]
