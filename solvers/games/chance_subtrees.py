"""The public tree cut below its first chance nodes, into subtrees walked one at a time.

A node is *above the cut* when no chance node lies on its path from the root (the first
street's actions and the first chance nodes themselves). Every other node belongs to exactly one
subtree, headed by a child of a first chance node (a flop spot: one subtree per flop line and
turn card; a turn spot: per turn line and river card). The compiled walk keeps reach and values
for the nodes above the cut only and walks each subtree depth first in a small scratch
(``exact/compiled_plan.py``); the memory estimate counts the same split
(``games/holdem/memory.py``), so both are computed here, once.
"""

from __future__ import annotations

import numpy as np


def subtree_heads(parent: np.ndarray, chance: np.ndarray) -> np.ndarray:
    """Per node, the head of its subtree below the first chance layer (the ancestor-or-self
    whose parent is a chance node with no chance node above it), or -1 above the cut.

    ``parent``: each node's parent (-1 at the root), in any order; ``chance``: whether each
    node is a chance node. The highest cut on each path is found by pointer doubling
    (``log2(depth)`` numpy steps, no loop over nodes)."""
    has_parent = parent >= 0
    cut = np.zeros(len(parent), dtype=np.bool_)
    cut[has_parent] = chance[parent[has_parent]]
    head = np.where(cut, np.arange(len(parent)), -1)
    up = parent.copy()  # head[i] is the highest cut in [i, up[i]) of i's path
    while (up >= 0).any():
        going = up >= 0
        above = head[up[going]]
        head[going] = np.where(above >= 0, above, head[going])
        up[going] = up[up[going]]
    return head
