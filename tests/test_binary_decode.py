"""The compiled decoding of binary strategy files (``binary_kernels.decode_rows``) against the
quantisation formula written out in numpy (``docs/strategy_files.md``): the same rows to the
bit, at any width (numpy's pairwise row sums start at 9 actions), live or not, 8 or 16 bits,
and the same error for a decision whose stored actions add up past 1."""

from __future__ import annotations

import numpy as np
import pytest

from solvers.strategy_file.binary_codec import (
    PARALLEL_SLOTS,
    Layout,
    decode,
    decode_slots,
    quantise,
)
from solvers.strategy_file.model import StrategyFileError


def oracle(lay: Layout, sections: dict, bits: int) -> np.ndarray:
    """Every decision decoded by the formula over whole ``[edges, hands]`` arrays."""
    top = float((1 << bits) - 1)
    first, actions = lay.first, lay.actions
    stored = np.ones(lay.n_edges, dtype=np.bool_)
    stored[first] = False
    live = np.unpackbits(sections["live"], axis=1, count=lay.hands, bitorder="little")
    live = live.astype(np.bool_)
    mask = np.repeat(live, actions, axis=0)
    block = np.zeros((lay.n_edges, lay.hands), dtype=np.float32)
    block[mask & stored[:, None]] = sections["probs"]
    block *= block / np.float32(top * top)
    block *= np.asarray(sections["scale"], dtype=np.float32)[:, None]
    given = np.add.reduceat(block, first, axis=0)
    if (live & (given > 1.0 + (actions - 1)[:, None] / top + 1e-6)).any():
        raise ValueError("over")
    block[first] = np.maximum(1.0 - given, 0.0)
    total = np.add.reduceat(block, first, axis=0)
    total[~live] = 1.0
    block /= np.repeat(total, actions, axis=0)
    uniform = np.repeat((1.0 / actions).astype(np.float32), actions)[:, None]
    np.copyto(block, np.broadcast_to(uniform, block.shape), where=~mask)
    return block


def random_file(rng, widths, hands: int, bits: int):
    lay = Layout.of(np.arange(len(widths)), np.asarray(widths), hands)
    rows = rng.dirichlet(np.full(max(widths), 0.4), size=(len(widths), hands))
    per_edge = np.concatenate(
        [rows[s, :, :w].T / rows[s, :, :w].sum(axis=1) for s, w in enumerate(widths)]
    ).astype(np.float32)
    per_edge[rng.random(per_edge.shape) < 0.2] = 0.0  # exact zeros, as pure actions give
    live = rng.random((len(widths), hands)) < 0.8
    return lay, quantise(lay, per_edge, live, bits)


@pytest.mark.parametrize("bits", [8, 16])
def test_decoding_is_the_formula_to_the_bit(bits):
    rng = np.random.default_rng(bits)
    widths = [1, 2, 3, 2, 4, 5, 8, 9, 10, 16, 17, 20, 3, 2] * 20  # on every core, and not
    assert len(widths) > PARALLEL_SLOTS
    lay, sections = random_file(rng, widths, hands=37, bits=bits)
    got = decode(lay, sections, bits)
    want = oracle(lay, sections, bits)
    assert got.dtype == np.float32 and got.shape == want.shape
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    for a, b in ((0, 1), (6, 10), (3, 14)):  # a few decisions, as a node is read
        part = decode_slots(lay, sections, bits, a, b)
        np.testing.assert_array_equal(part, want[lay.first[a] : lay.first[b - 1] + widths[b - 1]])
    live = np.unpackbits(sections["live"], axis=1, count=lay.hands, bitorder="little")
    dead = np.repeat(~live.astype(np.bool_), lay.actions, axis=0)
    assert dead.any() and (~dead).any()
    uniform = np.broadcast_to(1.0 / np.repeat(lay.actions, lay.actions)[:, None], got.shape)
    np.testing.assert_allclose(got[dead], uniform[dead], rtol=1e-7)  # never there: uniform
    assert not np.allclose(got[~dead], uniform[~dead], atol=0.05)  # the formula has teeth
    assert decode(lay, sections, bits, store=False).shape == (0, lay.hands)


def test_actions_past_one_are_the_same_error():
    rng = np.random.default_rng(3)
    lay, sections = random_file(rng, [3, 3, 4], hands=16, bits=8)
    sections["probs"] = np.full_like(sections["probs"], 255)
    sections["scale"] = np.ones_like(sections["scale"])
    with pytest.raises(ValueError):
        oracle(lay, sections, 8)
    with pytest.raises(StrategyFileError, match="decision 0 .node 0.: a hand's actions add up"):
        decode(lay, sections, 8)
    with pytest.raises(StrategyFileError, match="decision 1 .node 1."):
        decode_slots(lay, sections, 8, 1, 3)
