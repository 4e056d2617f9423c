"""A seeded hostile-input campaign against the CLI, the strategy-file loader, saves and settings.

Every case is run and classified: ``ok`` (exit 0), ``clean`` (exit 2 with a message), ``crash``
(a traceback, an internal error or any other exit code) or ``hang`` (no answer in time). Run it
against this checkout or another one (``--repo``, e.g. the commit before a change) to compare::

    python scripts/fuzz_campaign.py --seed 1 --cases 600
    python scripts/fuzz_campaign.py --seed 1 --cases 600 --repo /tmp/old-checkout

Cases run in-process through ``pokertui.cli.main`` (with an alarm for hangs); the few that
would open the TUI run in a subprocess without a terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import resource
import select
import signal
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

SPECS = [
    "kuhn",
    "kuhn(cards=4)",
    "leduc(max_raises=1)",
    "river_toy(bets=[1,2])",
    "von_neumann(bins=5)",
    "matrix(rps)",
    "matrix([[0,-1],[1,0]])",
    "push_fold(8)",
]
NUMBERS = ["0", "-1", "1.5", "1e999", "-1e999", "inf", "nan", "1e308", "9" * 5000, "4e-320", ""]
ALGOS = [
    "cfr+",
    "cfr",
    "dcfr",
    "lcfr",
    "cs-cfr",
    "os-mccfr",
    "fp",
    "rm",
    "double-oracle",
    "ga",
    "lp",
    "?",
    "zzz",
]
KEYS = [
    "alpha",
    "beta",
    "gamma",
    "delay",
    "epsilon",
    "seed",
    "weighting",
    "tolerance",
    "population",
    "output",
    "game",
    "x",
    "opponent",
]
RANGES = ["AhKh", "QQ+,AKs", "22+", "random", "AKo", "T9s:0.5", "ZZ", "AA:nan", "A", "QQ+,,"]
BOARDS = ["", "Ts9s2d", "AhAh", "Ts9s2d4c5h6h", "Xx", "2c"]  # fmt: skip


class Hang(Exception):
    pass


def _alarm(*_):
    raise Hang


MEMORY_LIMIT = 3 * 2**30
"""Address space of each case's process: a case that wants more fails alone (as a crash)."""


def run_isolated(main, argv: list[str], seconds: int = 20) -> tuple[str, str]:
    """``run_main`` in a forked child with a memory cap, so no case can take the machine down."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read_end)
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
        try:
            result = run_main(main, argv, seconds)
        except BaseException as exc:  # noqa: BLE001
            result = ("crash", f"{type(exc).__name__}")
        os.write(write_end, json.dumps(result).encode())
        os._exit(0)
    os.close(write_end)
    ready, _, _ = select.select([read_end], [], [], seconds + 5)
    if not ready:
        os.kill(pid, signal.SIGKILL)
    data = b""
    while ready:
        chunk = os.read(read_end, 65536)
        if not chunk:
            break
        data += chunk
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    if not ready:
        return "hang", " ".join(argv)[:120]
    if not data:
        return "crash", f"the process died (status {status})"
    outcome, detail = json.loads(data)
    return outcome, detail


def run_main(main, argv: list[str], seconds: int = 20) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exit_:
                code = exit_.code if isinstance(exit_.code, int) else 1
    except Hang:
        return "hang", " ".join(argv)[:120]
    except BaseException as exc:  # noqa: BLE001 - this is what the campaign counts
        return "crash", f"{type(exc).__name__}: {str(exc)[:100]}"
    finally:
        signal.alarm(0)
    text = err.getvalue()
    if "internal error" in text or "Traceback" in text or code not in (0, 2):
        return "crash", text.strip().splitlines()[-1][:120] if text.strip() else f"exit {code}"
    return ("ok" if code == 0 else "clean"), ""


def run_subprocess(repo: Path, argv: list[str], env: dict, seconds: int = 15) -> tuple[str, str]:
    try:
        done = subprocess.run([sys.executable, "-m", "pokertui", *argv], cwd=repo, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=seconds)  # fmt: skip
    except subprocess.TimeoutExpired:
        return "hang", " ".join(argv)[:120]
    if (
        "Traceback" in done.stderr
        or "internal error" in done.stderr
        or done.returncode
        not in (
            0,
            2,
        )
    ):
        return "crash", (done.stderr.strip().splitlines() or ["?"])[-1][:120]
    return ("ok" if done.returncode == 0 else "clean"), ""


def mutate(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(text))
        choice = rng.random()
        if choice < 0.3:
            text = text[:at] + rng.choice(NUMBERS) + text[at:]
        elif choice < 0.5:
            depth = rng.choice([2, 50, 1500])
            text = text[:at] + "[" * depth + "1" + "]" * depth + text[at:]
        elif choice < 0.75 and text:
            text = text[:at] + text[at + 1 :]
        else:
            text = text[:at] + rng.choice("()[],=.-e9x ") + text[at:]
    return text


def hostile_files(folder: Path, rng: random.Random, kuhn_text: str) -> list[Path]:
    files = []
    fifo = folder / "fifo.json"
    os.mkfifo(fifo)
    files += [fifo, folder, Path("/dev/zero")]
    big = folder / "big.json"
    with open(big, "wb") as out:
        out.truncate(50 * 2**20)
    files.append(big)
    deep = folder / "deep.json"
    deep.write_text('{"game": "kuhn", "nodes": ' + "[" * 5000 + "]" * 5000 + "}")
    files.append(deep)
    keys = folder / "keys.json"
    keys.write_text(json.dumps({"game": "kuhn", "nodes": {f"k{i}": {} for i in range(68_000)}}))
    files.append(keys)
    for index in range(20):
        doc = json.loads(kuhn_text)
        roll = rng.random()
        if roll < 0.3:
            doc["game"] = mutate(rng, doc["game"])
        elif roll < 0.6:
            node = rng.choice(sorted(doc["nodes"]))
            doc["nodes"][node]["probs"][0][0] = rng.choice([1e308, -1, "x", None, [1], 10**50])
        else:
            doc["measured"] = {"exploitability": rng.choice(["nan", 1e308, None, [1]])}
        text = json.dumps(doc)
        if rng.random() < 0.3:
            at = rng.randint(0, len(text))
            text = text[:at] + rng.choice(["NaN", "1e999", "9" * 5000, "[" * 3000]) + text[at:]
        path = folder / f"mutated{index}.json"
        path.write_text(text)
        files.append(path)
    return files


def cases(rng: random.Random, count: int, folder: Path, files: list[Path]):
    """``(kind, argv)`` cases; kind ``tui`` runs in a subprocess."""
    out = str(folder / "out.json")
    for _ in range(count):
        roll = rng.random()
        if roll < 0.2:
            spec = mutate(rng, rng.choice(SPECS)) if rng.random() < 0.8 else rng.choice(SPECS)
            yield "cli", ["solve", spec, "--algo", "cfr+", "--iterations", "2", "--out", out]
        elif roll < 0.45:
            argv = ["solve", rng.choice(SPECS[:6]), "--algo", rng.choice(ALGOS), "--out", out,
                    "--iterations", "2", "--json"]  # fmt: skip
            for _ in range(rng.randint(0, 2)):
                argv += ["--opt", f"{rng.choice(KEYS)}={rng.choice(NUMBERS + ['true', 'x'])}"]
            for flag in rng.sample(["--seconds", "--target", "--every", "--iterations"], 2):
                if rng.random() < 0.5:
                    value = rng.choice(NUMBERS)
                    if flag in ("--seconds", "--iterations") and value in ("1e308", "1.5"):
                        value = "2"
                    argv += [flag, value]
            yield "cli", argv
        elif roll < 0.65:
            argv = ["equity", rng.choice(RANGES), rng.choice(RANGES), "--board",
                    rng.choice(BOARDS), "--json"]  # fmt: skip
            argv += ["--mc", rng.choice(["0", "-1", "20000", "nan", str(2**63), "20000"])]
            if rng.random() < 0.5:
                argv += ["--seed", rng.choice(["-1", "3", str(2**70), "x"])]
            yield "cli", argv
        elif roll < 0.8:
            path = str(rng.choice(files))
            command = rng.choice([["validate", path], ["exploit", path], ["show", path],
                                  ["convert", path, "--to", "readable"],
                                  ["play", "--hands", "3", "--bot", path]])  # fmt: skip
            yield "cli", command
        elif roll < 0.9:  # the small inputs beside a command's main one
            path = str(rng.choice(files))
            command = rng.choice([["batch", path], ["analyze", path],
                                  ["batch", "flops", "spots/flop.toml", "--out",
                                   str(folder / "batch"), "--flops", path, "--iterations", "1"],
                                  ["solve", "spots/river.toml", "--algo", "dcfr", "--out", out,
                                   "--iterations", "2", "--lock", path]])  # fmt: skip
            yield "cli", command
        elif roll < 0.95:
            target = rng.choice([str(folder), str(folder / "no" / "x.json"),
                                 str(folder / ("n" * 260)), str(folder / "fifo.json"),
                                 "/proc/pokertui-out.json"])  # fmt: skip
            yield "cli", rng.choice([
                ["solve", "kuhn", "--algo", "cfr", "--iterations", "3", "--out", target],
                ["lbr", "hunl(100)", "--bot", "call", "--hands", "1", "--checkpoint", target],
            ])  # fmt: skip
        else:
            yield "tui", ["play", "--resume", rng.choice(["missing", "broken", "x" * 80])]


def _case_class(argv: list[str]) -> str:
    """The class a case tests: the command, split by what the campaign varied."""
    if argv[0] == "solve":
        if argv[1] not in SPECS and "--iterations" in argv[2:6]:
            return "solve: game spec"
        if "--out" in argv and argv[argv.index("--out") + 1].endswith("out.json"):
            return "solve: options"
        return "solve: output path"
    if argv[0] == "play" and "--resume" in argv:
        return "play --resume"
    if argv[0] == "equity":
        return "equity"
    if argv[0] in ("batch", "analyze") or "--lock" in argv:
        return "other inputs"
    if argv[0] == "lbr":
        return "lbr: output path"
    return "strategy files"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=600)
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--timeout", type=int, default=20, help="seconds before a case hangs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    repo = args.repo.resolve()
    sys.path.insert(0, str(repo))
    os.chdir(repo)
    from pokertui.cli import main as cli_main  # noqa: PLC0415 - from the checkout asked for

    rng = random.Random(args.seed)
    tally: Counter[str] = Counter()
    by_class: dict[str, Counter[str]] = defaultdict(Counter)
    examples: dict[str, list[str]] = {"crash": [], "hang": []}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "saves").mkdir()
        (folder / "saves" / "broken.json").write_text('{"kind": "pokertui-session", "hands": 1.5')
        env = {**os.environ, "POKERTUI_SAVES": str(folder / "saves"), "PYTHONPATH": str(repo)}
        kuhn_text = (repo / "strategies" / "kuhn.json").read_text()
        files = hostile_files(folder, rng, kuhn_text)
        for kind, argv in cases(rng, args.cases, folder, files):
            if kind == "tui":
                outcome, detail = run_subprocess(repo, argv, env, args.timeout)
            else:
                outcome, detail = run_isolated(cli_main, argv, args.timeout)
            tally[outcome] += 1
            by_class[_case_class(argv)][outcome] += 1
            if outcome in examples and len(examples[outcome]) < 8:
                examples[outcome].append(f"{' '.join(a[:40] for a in argv)[:150]} -> {detail}")
    report = {"repo": str(repo), "seed": args.seed, "cases": args.cases, **tally,
              "by_class": {k: dict(v) for k, v in sorted(by_class.items())},
              "examples": examples}  # fmt: skip
    if args.json:
        print(json.dumps(report))
        return
    print(f"{args.cases} cases (seed {args.seed}) against {repo}: " + ", ".join(
        f"{key} {tally[key]}" for key in ("ok", "clean", "crash", "hang")))  # fmt: skip
    for name, counts in sorted(by_class.items()):
        print(f"  {name:18s} " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    for kind, lines in examples.items():
        for line in lines:
            print(f"  {kind}: {line}")


if __name__ == "__main__":
    main()
