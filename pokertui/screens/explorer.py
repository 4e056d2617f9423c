"""The strategy explorer: open a strategy file and walk its public tree.

For the highlighted node it shows the actions, their frequency over the actor's reach range,
per-hand frequencies (13x13 grids for hold'em) and EVs, and both ranges; a hand filter shows one
hand's path; the exploitability tab shows where a best response gains; the compare tab measures
a second file for the same game against the open one. A full-game blueprint (``.npz``) opens
with its preflop lines in the tree and each line's class charts in the Preflop tab
(``solvers.reports.blueprint_report``).

Every number comes from ``solvers.reports.strategy_report`` in a thread worker that posts a message;
the handlers below own all state. Each message carries the ``generation`` of the file it was
computed for, so a result for a file that has since been replaced is dropped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import (
    DataTable,
    Footer,
    Header,
    Input,
    Select,
    Static,
    TabbedContent,
    TabPane,
    Tree,
)

from pokertui.widgets.explorer import NodeView, StrategyTree
from pokertui.widgets.explorer.blueprint_pane import BlueprintPane
from pokertui.widgets.explorer.messages import Computed, Failed, Opened
from pokertui.widgets.explorer.panes import ComparePane, ExploitPane, HandPane
from pokertui.widgets.explorer.spot_pane import ByCardPane, SpotPane
from solvers.errors import InputError
from solvers.reports.lbr.record import lbr_summary


class ExplorerScreen(Screen[None]):
    CSS_PATH = "explorer.tcss"
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("ctrl+g", "focus_goto", "Go to node"),
        Binding("ctrl+l", "lock_node", "Lock node & solve"),
    ]

    def __init__(self, path: str | None = None, strategies_dir: Path | None = None) -> None:
        super().__init__()
        self.initial_path = path
        self.strategies_dir = strategies_dir
        self.loaded: Any = None
        """The open ``StrategyFile`` (or ``BlueprintView`` of a blueprint), or None."""
        self.path = ""
        """The open file's path."""
        self.requested = ""
        """The path asked for last; other files that finish loading are ignored."""
        self.generation = 0
        """Bumped whenever a file opens; results of older generations are ignored."""
        self.node_id = 0
        self.highlight: set[str] = set()
        """Hand labels chosen in the hand filter."""
        self.spot_file = False
        """The open file is a hold'em spot (the Spot and By card tabs apply)."""
        self.edits: dict[int, Any] = {}
        """Edited rows per node id (typed in the Spot tab), used by the view and by ctrl+l."""
        self.blueprint = False
        """The open file is a full-game blueprint (a ``BlueprintView``, not a strategy file)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="explorer-bar"):
            yield Select[str]([], prompt="shipped strategies", id="explorer-shipped")
            yield Input(placeholder="strategy file path; Enter opens it", id="explorer-path")
        yield Static("No strategy open.", id="explorer-status", markup=False)
        with VerticalScroll(id="explorer-problems"):
            yield Static("", id="explorer-problem-text", markup=False)
        with Horizontal(id="explorer-main"):
            with Vertical(id="explorer-left"):
                yield StrategyTree(id="explorer-tree")
                yield Input(placeholder="node key, e.g. c/r", id="explorer-goto")
            with TabbedContent(id="explorer-tabs"):
                with TabPane("Node", id="tab-node"):
                    yield NodeView(id="explorer-node")
                with TabPane("Spot", id="tab-spot"):
                    yield SpotPane(id="explorer-spot")
                with TabPane("By card", id="tab-bycard"):
                    yield ByCardPane(id="explorer-bycard")
                with TabPane("Preflop", id="tab-blueprint"):
                    yield BlueprintPane(id="explorer-blueprint")
                with TabPane("Hand", id="tab-hand"):
                    yield HandPane(classes="explorer-pane")
                with TabPane("Exploit", id="tab-exploit"):
                    yield ExploitPane(classes="explorer-pane")
                with TabPane("Compare", id="tab-compare"):
                    yield ComparePane(classes="explorer-pane")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#explorer-problems").display = False
        folder = self.strategies_dir or getattr(self.app, "strategies_dir", None)
        if folder is None:
            from pokertui.paths import strategies_dir  # noqa: PLC0415

            folder = strategies_dir()
        blueprints = [f for f in Path(folder).glob("*.npz") if f.name.count(".") == 1]
        files = sorted([*Path(folder).glob("*.json"), *blueprints])  # not the values tables
        self.query_one("#explorer-shipped", Select).set_options((f.name, str(f)) for f in files)
        if self.initial_path:
            self.open(self.initial_path)

    # --- opening a file ---------------------------------------------------------------------
    def open(self, path: str) -> None:
        self.requested = path
        self.query_one("#explorer-path", Input).value = path
        self.query_one("#explorer-status", Static).update(f"Opening {path} ...")
        self.load_file(path)

    @work(thread=True, exclusive=True, exit_on_error=False, group="explorer-open")
    def load_file(self, path: str) -> None:
        from solvers.reports.blueprint_report import (  # noqa: PLC0415
            is_blueprint_file,
            open_blueprint_view,
        )
        from solvers.strategy_file import load_strategy  # noqa: PLC0415
        from solvers.strategy_file.binary import as_played  # noqa: PLC0415
        from solvers.strategy_file.binary_layout import is_binary  # noqa: PLC0415

        try:  # a flop's binary file is checked node by node as it is read, not whole first
            if is_blueprint_file(path):
                self.post_message(Opened(path, open_blueprint_view(path)))
                return
            loaded = load_strategy(path, lazy=is_binary(path))
            loaded.strategy = as_played(loaded.strategy)  # type: ignore[assignment]  # as played
            self.post_message(Opened(path, loaded))
        except InputError as exc:
            self.post_message(Failed(-1, "open", str(exc)))
        except OSError as exc:
            self.post_message(Failed(-1, "open", f"cannot read {path}: {exc.strerror or exc}"))

    @on(Select.Changed, "#explorer-shipped")
    def shipped_chosen(self, event: Select.Changed) -> None:
        if event.value is not Select.NULL and event.value != self.path:
            self.open(str(event.value))

    @on(Input.Submitted, "#explorer-path")
    def path_entered(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.open(event.value.strip())

    @on(Opened)
    def file_opened(self, event: Opened) -> None:
        if event.path != self.requested:
            return  # a slower load of a file the user has since replaced
        self.loaded, self.path = event.loaded, event.path
        self.generation += 1
        self.blueprint = not hasattr(self.loaded, "game")
        if self.blueprint:
            self.blueprint_opened()
            return
        self.query_one(BlueprintPane).show_message("The preflop charts are for full-game "
                                                   "blueprints (.npz).")  # fmt: skip
        game = self.loaded.game
        self.query_one("#explorer-problems").display = False
        measured = self.loaded.measured
        recorded = f" · recorded exploitability {measured.exploitability:.3g}" if measured else ""
        recorded += lbr_summary(self.loaded.lbr)
        status = f"{Path(event.path).name} · {game.spec_string()}{recorded}"
        self.query_one("#explorer-status", Static).update(status)
        self.query_one(NodeView).hand_labels = game.hand_labels
        tree = self.query_one(StrategyTree)
        tree.show_game(game)
        tree.focus()
        self.node_id = 0
        self.edits = {}
        self.compute("node", self.loaded, 0)
        self.spot_file = getattr(game, "hand_combos", None) is not None
        if self.spot_file:
            self.query_one(TabbedContent).active = "tab-spot"
        else:
            self.query_one(SpotPane).show_message("The solver view is for hold'em spot files.")
            self.query_one(ByCardPane).show_message("The by-card report is for hold'em spots.")
        self.compute_spot(0)
        self.compute("exploit", self.loaded)
        self.query_one(ComparePane).show_message("")
        hand = self.query_one("#explorer-hand", Input).value.strip()
        if hand:
            self.filter_hand(hand)

    def blueprint_opened(self) -> None:
        """A full-game blueprint: its preflop lines in the tree, a node's charts in the
        Preflop tab; the other tabs are for strategy files of small games and spots."""
        from solvers.reports.blueprint_report import header_summary  # noqa: PLC0415

        view = self.loaded
        facts = header_summary(view)
        status = (f"{view.path.name} · {facts['game']} · {facts['iterations']:,} iterations · "
                  f"cards {facts['cards']}")  # fmt: skip
        for name, figure in facts["lbr"].items():
            if isinstance(figure, dict) and "value" in figure:
                status += f" · LBR {name} {figure['value']:+,.0f} mbb/hand"
        self.query_one("#explorer-problems").display = False
        self.query_one("#explorer-status", Static).update(status)
        self.spot_file = False
        self.edits = {}
        tree = self.query_one(StrategyTree)
        tree.show_blueprint(view)
        tree.focus()
        self.node_id = view.preflop_nodes()[0].node
        note = "A full-game blueprint: see the Preflop tab."
        self.query_one(SpotPane).show_message(note)
        self.query_one(ByCardPane).show_message(note)
        for pane in (ExploitPane, HandPane, ComparePane):
            found: Any = self.query_one(pane)  # each pane has show_message
            found.show_message(note)
        self.query_one(TabbedContent).active = "tab-blueprint"
        self.show_blueprint_node(self.node_id)

    def show_blueprint_node(self, node: int) -> None:
        from solvers.reports.blueprint_report import preflop_chart  # noqa: PLC0415

        info = self.loaded.by_node.get(node)
        if info is not None:
            self.query_one(BlueprintPane).show_chart(preflop_chart(self.loaded, info))

    # --- computations -----------------------------------------------------------------------
    def compute(self, part: str, *args: Any) -> None:
        {"node": self.node_worker, "exploit": self.exploit_worker, "hand": self.hand_worker}[part](
            self.generation, *args
        )

    def _run(self, generation: int, part: str, job) -> None:
        try:
            result = job()
        except InputError as exc:  # a bad file B, a game mismatch: the message is for people
            self.post_message(Failed(generation, part, str(exc)))
        except Exception as exc:  # noqa: BLE001 - shown in the pane; the screen goes on
            self.post_message(Failed(generation, part, f"{type(exc).__name__}: {exc}"))
        else:
            self.post_message(Computed(generation, part, result))

    @work(thread=True, exclusive=True, exit_on_error=False, group="explorer-node")
    def node_worker(self, generation: int, loaded, node_id: int) -> None:
        from solvers.reports import strategy_report  # noqa: PLC0415

        game, strategy = loaded.game, loaded.strategy
        node = game.nodes[node_id]

        def job():
            if node.is_decision:
                return node, strategy_report.node_report(game, strategy, node)
            return node, strategy_report.node_ranges(game, strategy, node)

        self._run(generation, "node", job)

    def compute_spot(self, node_id: int) -> None:
        """The solver view of a decision, or the by-card report of a deal (spot files only)."""
        if not self.spot_file:
            return
        node = self.loaded.game.nodes[node_id]
        if node.is_decision:
            self.query_one("#spot-head", Static).update(f"computing node {node.key!r} ...")
            self.spot_worker(self.generation, self.loaded, node_id)
        elif node.is_chance:
            self.bycard_worker(self.generation, self.loaded, node_id)
        else:
            self.query_one(SpotPane).show_message(f"{node.key!r} ends the hand: pick a decision.")

    @work(thread=True, exclusive=True, exit_on_error=False, group="explorer-spot")
    def spot_worker(self, generation: int, loaded, node_id: int) -> None:
        from solvers.reports.spot_report import spot_node_view  # noqa: PLC0415

        node = loaded.game.nodes[node_id]
        strategy = self.shown_strategy()
        self._run(
            generation, "spot", lambda: (node_id, spot_node_view(loaded.game, strategy, node))
        )

    @work(thread=True, exclusive=True, exit_on_error=False, group="explorer-bycard")
    def bycard_worker(self, generation: int, loaded, node_id: int) -> None:
        from solvers.reports.by_card import by_next_card  # noqa: PLC0415

        key = loaded.game.nodes[node_id].key
        self._run(
            generation, "bycard", lambda: (node_id, by_next_card(loaded.game, loaded.strategy, key))
        )

    @work(thread=True, exclusive=True, exit_on_error=False, group="explorer-exploit")
    def exploit_worker(self, generation: int, loaded) -> None:
        from solvers.reports.strategy_report import exploit_report  # noqa: PLC0415

        self._run(generation, "exploit", lambda: exploit_report(loaded.game, loaded.strategy))

    @work(thread=True, exclusive=True, exit_on_error=False, group="explorer-hand")
    def hand_worker(self, generation: int, loaded, label: str, seats) -> None:
        from solvers.reports.strategy_report import hand_path  # noqa: PLC0415

        def job():
            paths = [(p, hand_path(loaded.game, loaded.strategy, p, h)) for p, h in seats]
            return label, paths

        self._run(generation, "hand", job)

    @work(thread=True, exclusive=True, exit_on_error=False, group="explorer-compare")
    def compare_worker(self, generation: int, loaded, path_b: str) -> None:
        from solvers.reports.strategy_report import compare_strategies  # noqa: PLC0415
        from solvers.strategy_file import load_strategy  # noqa: PLC0415

        def job():
            other = load_strategy(path_b)
            comparison = compare_strategies(
                loaded.game, loaded.strategy, other.game, other.strategy
            )
            return path_b, comparison

        self._run(generation, "compare", job)

    @on(Computed)
    def show_result(self, event: Computed) -> None:
        if event.generation != self.generation:
            return
        if event.part == "node":
            node, result = event.result
            if node.id != self.node_id:
                return
            view = self.query_one(NodeView)
            if node.is_decision:
                view.show_decision(result, self.highlight)
            else:
                view.show_other(node, result)
        elif event.part == "spot":
            node_id, view = event.result
            if node_id == self.node_id:
                self.query_one(SpotPane).show_view(view)
        elif event.part == "bycard":
            node_id, report = event.result
            if node_id == self.node_id:
                self.query_one(ByCardPane).show_report(report)
        elif event.part == "exploit":
            self.query_one(ExploitPane).show_report(event.result)
        elif event.part == "hand":
            self.query_one(HandPane).show_paths(*event.result)
        elif event.part == "compare":
            path_b, comparison = event.result
            self.query_one(ComparePane).show_comparison(self.path, path_b, comparison)

    @on(Failed)
    def show_failure(self, event: Failed) -> None:
        if event.part == "open":
            self.query_one("#explorer-problem-text", Static).update(event.message)
            self.query_one("#explorer-problems").display = True
            self.query_one("#explorer-status", Static).update(
                "This file cannot be opened; see the report below."
                + (f" Still showing {Path(self.path).name}." if self.loaded else "")
            )
            return
        if event.generation != self.generation:
            return
        panes: dict[str, type[ExploitPane | HandPane | ComparePane | SpotPane | ByCardPane]] = {
            "exploit": ExploitPane,
            "hand": HandPane,
            "compare": ComparePane,
            "spot": SpotPane,
            "bycard": ByCardPane,
        }
        if event.part in panes:
            self.query_one(panes[event.part]).show_message(event.message)
        else:
            self.query_one("#explorer-status", Static).update(f"node: {event.message}")

    # --- navigation -------------------------------------------------------------------------
    @on(Tree.NodeHighlighted, "#explorer-tree")
    def node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        if self.loaded is None or event.node.data is None:
            return
        self.node_id = event.node.data
        if self.blueprint:
            self.show_blueprint_node(self.node_id)
            return
        self.compute("node", self.loaded, self.node_id)
        self.compute_spot(self.node_id)

    @on(Input.Submitted, "#explorer-goto")
    def goto_entered(self, event: Input.Submitted) -> None:
        self.go_to(event.value.strip())

    def go_to(self, key: str) -> None:
        if self.loaded is None:
            return
        if not self.query_one(StrategyTree).go_to(key):
            self.notify(f"no node {key!r} in this game's tree", severity="warning", timeout=4)
            return
        if self.blueprint:
            self.query_one(TabbedContent).active = "tab-blueprint"
            return
        self.query_one(TabbedContent).active = "tab-spot" if self.spot_file else "tab-node"

    @on(DataTable.RowSelected, "#explorer-gains, #explorer-diffs, #bycard-table")
    def row_chosen(self, event: DataTable.RowSelected) -> None:
        key = str(event.row_key.value)
        self.go_to(key.split(":", 1)[1] if event.data_table.id == "explorer-gains" else key)

    @on(Input.Submitted, "#explorer-hand")
    def hand_entered(self, event: Input.Submitted) -> None:
        self.filter_hand(event.value.strip())

    def filter_hand(self, label: str) -> None:
        if self.loaded is None or self.blueprint:
            return
        from solvers.reports.strategy_report import find_hand  # noqa: PLC0415

        seats = find_hand(self.loaded.game, label)
        self.highlight = {label} if seats else set()
        if not seats:
            examples = ", ".join(self.loaded.game.hand_labels[0][:6])
            self.query_one(HandPane).show_message(
                f"{label!r} is not a hand of this game (hands look like: {examples})"
            )
        else:
            self.compute("hand", self.loaded, label, seats)
        self.compute("node", self.loaded, self.node_id)

    @on(Input.Submitted, "#explorer-other")
    def other_entered(self, event: Input.Submitted) -> None:
        if self.loaded is not None and not self.blueprint and event.value.strip():
            self.compare_worker(self.generation, self.loaded, event.value.strip())

    def shown_strategy(self):
        """The open file's strategy with the edits typed in the Spot tab (the file's own
        object when there are none, so its compiled passes are kept between nodes)."""
        from solvers.strategy_file.binary import BinaryStrategy, EditedBinary  # noqa: PLC0415

        strategy = self.loaded.strategy
        if not self.edits:
            return strategy
        if isinstance(strategy, BinaryStrategy):
            return EditedBinary(strategy, self.edits)
        return {**strategy, **self.edits}

    @on(Input.Submitted, "#spot-edit")
    def edit_entered(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        open_game = self.loaded is not None and not self.blueprint
        node = self.loaded.game.nodes[self.node_id] if open_game else None
        if node is None or not text:
            return
        if text.lower() == "reset":
            self.edits.pop(node.id, None)
        else:
            from solvers.strategy_file.locks import edit_rows  # noqa: PLC0415

            rows = self.shown_strategy()[node.id]
            try:
                self.edits[node.id] = edit_rows(self.loaded.game, node.id, rows, text)
            except InputError as exc:
                self.notify(str(exc), severity="error", timeout=6)
                return
        event.input.value = ""
        self.compute_spot(node.id)

    def action_lock_node(self) -> None:
        """Write the highlighted decision's strategy as a lock file (readable, so it can be
        edited before the run starts) and open the launcher with the spot and the lock."""
        if self.loaded is None or self.blueprint:
            return
        from solvers.atomic import atomic_write_text  # noqa: PLC0415
        from solvers.strategy_file.locks import lock_document  # noqa: PLC0415

        game = self.loaded.game
        node = game.nodes[self.node_id]
        if not node.is_decision:
            self.notify("Pick a decision node to lock.", severity="warning", timeout=4)
            return
        saves = getattr(self.app, "saves_dir", None)
        if saves is None:
            from pokertui.paths import saves_dir  # noqa: PLC0415

            saves = saves_dir()
        saves = Path(saves)
        folder = saves / "locks"
        folder.mkdir(parents=True, exist_ok=True)
        stem = Path(self.path).name.split(".")[0]
        name = node.key.replace("/", "-") or "root"
        path = folder / f"{stem}-lock-{name}.json"
        document = lock_document(game, self.shown_strategy(), [node.id])
        atomic_write_text(path, json.dumps(document, indent=1) + "\n")
        self.notify(f"Locked {node.key or '(root)'!r}: {path}", timeout=6)
        from pokertui.screens.solve import SolveScreen  # noqa: PLC0415

        preset = {"game": game.spec_string(), "algo": "dcfr", "lock": str(path)}
        self.app.push_screen(SolveScreen(saves / "runs", preset=preset))

    def action_focus_goto(self) -> None:
        self.query_one("#explorer-goto", Input).focus()

    def action_back(self) -> None:
        self.dismiss(None)
