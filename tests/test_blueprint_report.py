"""``pokertui show`` on a full-game blueprint: the header, the preflop lines, the 13x13 chart of a
node read against the file's raw bytes, the combo-weighted totals, buckets on a board, errors.

The file is a small 10 bb blueprint with random rows written here; the tests decode its bytes
with zipfile and numpy alone and index the slots by hand (the root's block comes first, then
the limp node's: the tree is numbered depth first and the fold child is a terminal).
"""

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from pokertui.cli import main
from solvers.abstraction.betting import parse_betting
from solvers.abstraction.betting_tree import build_tree, root_state
from solvers.games.hunl.rules import HunlConfig
from solvers.strategy_file.blueprint_file import quantise_rows, write_blueprint

BETTING = "pre=2.5x,a|a; flop=50%,a|a; turn=a; river=a"
CARDS = "hs2(flop=4,turn=4,river=4)"
RANKS = "AKQJT98765432"


def class_of(label: str) -> int:
    """Row = first rank, column = second; suited above the diagonal, offsuit below."""
    hi, lo = RANKS.index(label[0]), RANKS.index(label[1])
    if hi == lo:
        return hi * 13 + hi
    return hi * 13 + lo if label.endswith("s") else lo * 13 + hi


def combos_of(c: int) -> int:
    row, col = divmod(c, 13)
    return 6 if row == col else (4 if col > row else 12)


def small_blueprint(path):
    """Write the 10 bb blueprint with random rows to ``path``; its raw slots and its tree."""
    config = HunlConfig(stack_bb=10)
    tree = build_tree(parse_betting(BETTING), root_state(config))
    n_buckets = (169, 4, 4, 4)
    decisions = tree.decisions
    lengths = np.repeat(
        tree.n_actions[decisions].astype(np.int64), [n_buckets[s] for s in tree.street[decisions]]
    )
    rng = np.random.default_rng(5)
    strategy = quantise_rows(rng.random(int(lengths.sum())) ** 3, lengths)
    # facing the small blind's shove the big blind calls with pairs and two cards J or better
    shove = int(tree.edge_child[int(tree.edge_start[0]) + 3])
    offset = int(tree.slot_offsets(n_buckets)[0][shove])
    for c in range(169):
        row, col = divmod(c, 13)
        calls = row == col or max(row, col) <= 3
        strategy[offset + 2 * c : offset + 2 * c + 2] = (0, 255) if calls else (255, 0)
    header = {
        "game": "hunl(stack_bb=10)",
        "stack_bb": 10.0,
        "betting": BETTING,
        "cards": CARDS,
        "iterations": 123,
        "seconds": 4.0,
        "seed": 9,
        "n_buckets": list(n_buckets),
        "lbr": {"fcpa 3-4": {"value": 512.0, "ci95": 40.0, "unit": "mbb_per_hand", "deals": 1000}},
    }
    write_blueprint(path, header, strategy)
    with zipfile.ZipFile(path) as archive:
        raw = np.load(io.BytesIO(archive.read("strategy.npy")), allow_pickle=False)
    return path, raw, tree


@pytest.fixture(scope="module")
def blueprint(tmp_path_factory):
    return small_blueprint(tmp_path_factory.mktemp("bp") / "small.npz")


def show(capsys, *args) -> dict:
    assert main(["show", *map(str, args), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_summary_lists_header_and_every_preflop_line(blueprint, capsys):
    path, _, _ = blueprint
    out = show(capsys, path)
    assert out["game"] == "hunl(stack_bb=10)" and out["iterations"] == 123
    assert out["lbr"]["fcpa 3-4"]["value"] == 512.0
    keys = {item["key"]: item for item in out["preflop"]}
    # 2.5x open and all-in, then only all-in: root, limp, limp-raise, limp-shove,
    # limp-raise-shove, open, open-shove, shove
    assert set(keys) == {"", "c", "cr250", "cr1000", "cr250r1000", "r250", "r250r1000", "r1000"}
    assert keys[""]["actions"] == ["fold", "limp", "open to 2.5 bb", "all-in 10 bb"]
    assert keys["r250"]["name"] == "SB opens to 2.5 bb; BB to act"
    assert keys["r250"]["actions"] == ["fold", "call", "all-in 10 bb"]


def test_root_chart_is_the_first_block_of_raw_slots(blueprint, capsys):
    path, raw, _ = blueprint
    out = show(capsys, path, "--node", "")
    for label in ("AA", "AKs", "AKo", "72o", "T9s"):
        c = class_of(label)
        expected = raw[c * 4 : c * 4 + 4] / 255.0
        assert out["classes"][label]["freq"] == pytest.approx(expected, abs=1e-12)
    weights = np.array([combos_of(c) for c in range(169)], dtype=float)
    assert weights.sum() == 1326
    table = raw[: 169 * 4].reshape(169, 4) / 255.0
    assert out["totals"] == pytest.approx(weights @ table / 1326, abs=1e-12)
    assert out["totals_all"] == pytest.approx(weights @ table / 1326, abs=1e-12)


def test_limp_node_reads_the_big_blind_block_after_the_root(blueprint, capsys):
    path, raw, _ = blueprint
    out = show(capsys, path, "--node", "c")
    assert out["seat"] == "BB" and out["actions"] == ["check", "raise to 2.5 bb", "all-in 10 bb"]
    base = 169 * 4  # the root's block; node 1 (fold) is a terminal with no slots
    for label in ("AA", "72o", "KQs"):
        c = class_of(label)
        expected = raw[base + c * 3 : base + c * 3 + 3] / 255.0
        assert out["classes"][label]["freq"] == pytest.approx(expected, abs=1e-12)
        assert out["classes"][label]["freq"] != pytest.approx(raw[c * 4 : c * 4 + 3] / 255.0)
        assert out["classes"][label]["freq"] != pytest.approx([1 / 3] * 3, abs=0.01)


def test_totals_weight_combos_by_the_actors_own_reach(blueprint, capsys):
    path, raw, tree = blueprint
    out = show(capsys, path, "--node", "cr250")  # SB limped, BB raised: SB to act again
    start = int(tree.edge_start[2])  # node 2 is the limp node
    node = int(tree.edge_child[start + 1])  # its raise edge
    assert tuple(tree.committed[node]) == (100, 250) and tree.player[node] == 0
    assert out["actions"] == ["fold", "call", "all-in 10 bb"]
    offset = int(tree.slot_offsets((169, 4, 4, 4))[0][node])
    block = raw[offset : offset + 169 * 3].reshape(169, 3) / 255.0
    limp = raw[: 169 * 4].reshape(169, 4)[:, 1] / 255.0  # the SB's own limp probability
    weights = np.array([combos_of(c) for c in range(169)], dtype=float) * limp
    expected = weights @ block / weights.sum()
    assert out["totals"] == pytest.approx(expected, abs=1e-12)
    assert out["range_combos"] == pytest.approx(weights.sum())
    unweighted = np.array([combos_of(c) for c in range(169)], dtype=float) @ block / 1326
    assert out["totals_all"] == pytest.approx(unweighted, abs=1e-12)
    assert np.abs(expected - unweighted).max() > 0.005  # the reach matters here


def test_flop_node_by_bucket_holds_every_live_combo_once(blueprint, capsys):
    path, raw, tree = blueprint
    out = show(capsys, path, "--node", "r250c/", "--board", "KhQd7c")
    assert out["board"] == "KhQd7c" and out["street"] == "flop"
    hands = [h for item in out["buckets"] for h in item["hands"]]
    assert len(hands) == len(set(hands)) == 1326 - 3 * 51 + 3  # combos without a board card
    assert not any(card in h for h in hands for card in ("Kh", "Qd", "7c"))
    start = int(tree.edge_start[0])
    opened = int(tree.edge_child[start + 2])
    node = int(tree.edge_child[int(tree.edge_start[opened]) + 1])  # the call: the flop root
    offset = int(tree.slot_offsets((169, 4, 4, 4))[0][node])
    na = int(tree.n_actions[node])
    for item in out["buckets"]:
        b = item["bucket"]
        assert item["freq"] == pytest.approx(raw[offset + b * na : offset + (b + 1) * na] / 255)
    aces = next(i for i in out["buckets"] if "AsAh" in i["hands"] or "AhAs" in i["hands"])
    trash = next(i for i in out["buckets"] if "3s2h" in i["hands"] or "2h3s" in i["hands"])
    assert aces["bucket"] > trash["bucket"]  # buckets run from weakest to strongest


def test_text_view_and_user_errors(blueprint, capsys):
    path, _, _ = blueprint
    assert main(["show", str(path), "--node", "r250"]) == 0
    text = capsys.readouterr().out
    assert "SB opens to 2.5 bb; BB to act" in text and "fold (% per class" in text
    assert main(["show", str(path), "--node", "r300"]) == 2
    err = capsys.readouterr().err
    assert "no decision node 'r300'" in err and "'r250r1000'" in err
    assert main(["show", str(path), "--node", "r250c/", "--board", "KhQd"]) == 2
    assert "3 different cards" in capsys.readouterr().err
    assert main(["show", str(path), "--node", "r250c/"]) == 2
    assert "needs --board" in capsys.readouterr().err
    assert main(["show", str(path), "--node", "r250", "--board", "KhQd7c"]) == 2
    assert "takes no --board" in capsys.readouterr().err
    assert main(["show", str(path), "--board", "KhQd7c"]) == 2
    assert "--board goes with a flop, turn or river --node" in capsys.readouterr().err


SHIPPED = Path(__file__).resolve().parent.parent / "strategies" / "hunl_100bb.npz"


def test_shipped_blueprint_facing_a_3bet_reads_its_bytes(capsys):
    with zipfile.ZipFile(SHIPPED) as archive:
        raw = np.load(io.BytesIO(archive.read("strategy.npy")), allow_pickle=False)
        header = json.loads(
            np.load(io.BytesIO(archive.read("header.npy")), allow_pickle=False).tobytes()
        )
    tree = build_tree(parse_betting(header["betting"]), root_state(HunlConfig(stack_bb=100)))
    opened = int(tree.edge_child[int(tree.edge_start[0]) + 2])  # the root's 2.5x open
    facing = int(tree.edge_child[int(tree.edge_start[opened]) + 2])  # the big blind's 3-bet
    assert tuple(tree.committed[facing]) == (250, 750)
    offset = int(tree.slot_offsets((169, 50, 50, 50))[0][facing])
    block = raw[offset : offset + 169 * 4].reshape(169, 4) / 255.0
    out = show(capsys, SHIPPED, "--node", "r250r750")
    assert out["actions"] == ["fold", "call", "4-bet to 16.5 bb", "all-in 100 bb"]
    for label in ("AA", "AKo", "76s", "J4o"):
        assert out["classes"][label]["freq"] == pytest.approx(block[class_of(label)], abs=1e-12)
    own = raw[: 169 * 4].reshape(169, 4)[:, 2] / 255.0  # the small blind's open, per class
    weights = np.array([combos_of(c) for c in range(169)], dtype=float) * own
    assert out["totals"] == pytest.approx(weights @ block / weights.sum(), abs=1e-12)
    assert out["range_combos"] == pytest.approx(weights.sum())
