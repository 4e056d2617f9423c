"""A play session: a person (or a policy) against a bot that plays a strategy file.

``Session`` is a plain object that the TUI, the headless ``pokertui play`` and the tests all
drive. It deals, takes the human's actions, samples the bot's, settles pots and keeps the score;
for any decision of the human it answers the live questions by asking ``solvers``.

In a postflop spot the human may bet any amount (``act_amount``). An amount that is not a tree
size is played for real: ``real_put`` holds the chips each seat really has in, the bot answers
at the tree node the pseudo-harmonic translation draws (``solvers/games/holdem/off_tree.py``),
and later tree actions keep their pot fraction of the real pot. On a turn spot, a river reached
after such a bet is re-solved (``solvers/agents/river_resolve.py``): the bot plays the re-solve
(``river``) while the file's translated line keeps the human's options and the review. The EV
review and the EV-adjusted score stay in the tree's chips (the tree is what the bot's values
are known for).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from pokertui.session.deal import (
    Deal,
    chance_outcome,
    deal_hands,
    is_holdem_class_game,
    is_spot_game,
    showdown_payoff,
)
from pokertui.session.hands_in_play import HandsInPlay
from pokertui.session.scoring import Score
from solvers.errors import InputError
from solvers.exact.decision_values import CompiledProfile, DecisionValues, compiled_profile
from solvers.exact.evaluation import (
    Walk,
    action_values_from_walk,
    bayes_range_from_walk,
    expected_values,
    walk,
)
from solvers.exact.executor import uses_compiled
from solvers.exact.hand_values import all_pair_values, pair_values
from solvers.games.base import Node, Strategy, TreeGame
from solvers.games.holdem.off_tree import (
    OffTreeBet,
    answer_rows,
    facing,
    real_amount,
    translate_bet,
)
from solvers.games.strategy import SeatProfile
from solvers.strategy_file import StrategyFile
from solvers.strategy_file.binary import as_played
from solvers.strategy_file.transforms import (
    NodeChange,
    purify,
    purify_per_edge,
    purify_rows,
    threshold,
    threshold_per_edge,
    threshold_rows,
)

if TYPE_CHECKING:
    from solvers.agents.river_resolve import RiverPlay, RiverResolver

BotMode = Literal["mixed", "purified", "thresholded"]


def fresh_seed() -> int:
    """A new session's seed from the operating system's entropy (short enough to type back)."""
    return secrets.randbits(32)


def _kind(label: str) -> str:
    """An action as the re-solve's public events name it: fold, passive or bet."""
    return "f" if label == "fold" else "p" if label in ("check", "call") else "b"


class IllegalActionError(InputError):
    """The human asked for an action that is not legal now."""


@dataclass
class Step:
    """One public event of a hand: an action by a seat, or a chance card."""

    node_key: str
    seat: int | None
    """Acting seat, or None for a chance event."""
    action: str
    amount: float = 0.0
    ev_loss: float | None = None
    """For the human's decisions: the best action's EV minus the chosen one's."""
    action_evs: list[float] | None = None
    equilibrium: list[float] | None = None
    """The strategy file's frequencies for the human's hand at this node."""
    off_path: bool = False
    """The file never reaches this node with the human's hand: ``equilibrium`` is its filler."""
    shown: str = ""
    """The action as played when it differs from the tree's label (an off-tree amount, or any
    bet once the real pot has left the tree's)."""
    mapped: list[list] | None = None
    """For an off-tree bet: ``[tree action, probability]`` of the translation (the tree action
    drawn is ``action``)."""

    @property
    def text(self) -> str:
        return self.shown or self.action


@dataclass
class HandRecord:
    number: int
    human_seat: int
    deal: Deal
    steps: list[Step] = field(default_factory=list)
    result: float | None = None
    """The human's chips won (negative when lost)."""
    ev_adjusted: float | None = None
    showdown: bool = False

    @property
    def ev_lost(self) -> float | None:
        """Chips the human's decisions gave up against the bot's strategy (None if not
        reviewed): the sum of each decision's best action EV minus the chosen action's EV."""
        losses = [s.ev_loss for s in self.steps if s.seat == self.human_seat]
        if any(loss is None for loss in losses):
            return None
        return float(sum(losses))  # type: ignore[arg-type]


@dataclass
class Option:
    """A legal action for the human, with the chips it puts in."""

    label: str
    amount: float
    kind: str
    """``fold``, ``passive`` (check/call) or ``aggressive`` (bet/raise/shove)."""
    text: str = ""
    """What to show: the tree label, or the real size once the hand is off the tree."""


PAIR_TABLE_LIMIT = 4_000_000
"""Largest ``nodes * n0 * n1`` for which a session tabulates every pair's values (32 MB)."""


class Session(HandsInPlay[HandRecord]):
    def __init__(
        self,
        strategy_file: StrategyFile,
        *,
        human_seat: int | None = None,
        seed: int | None = None,
        bot_mode: BotMode = "mixed",
        threshold_cutoff: float = 0.15,
        review: bool = True,
    ) -> None:
        if human_seat not in (None, 0, 1):
            raise InputError("the human's seat is 0, 1 or alternating (None)")
        if bot_mode not in ("mixed", "purified", "thresholded"):
            raise InputError(f"bot mode must be mixed, purified or thresholded, not {bot_mode!r}")
        self.file = strategy_file
        self.game: TreeGame = strategy_file.game
        if getattr(self.game, "simultaneous", False):
            raise InputError("matrix games are studied in the theory lab, not played hand by hand")
        self.equilibrium: Strategy = as_played(strategy_file.strategy)  # type: ignore[assignment]
        self.compiled = uses_compiled(self.game)
        """A hold'em spot: live numbers come from the compiled walk at decision nodes
        (``decision_values.py``), never from ``[rows, hands]`` walks of the whole tree."""
        self.bot_mode: BotMode = bot_mode
        self.threshold_cutoff = threshold_cutoff
        self.bot_strategy = self._bot_strategy()
        self.review = review
        """Record each human decision's action EVs and EV loss (the hand review needs them)."""
        self.seat_mode = human_seat
        self.seed = fresh_seed() if seed is None else int(seed)
        """Explicit for drills; otherwise fresh entropy, so each new session deals new cards."""
        self.rng = np.random.default_rng(self.seed)
        self.hands: list[HandRecord] = []
        self.score = Score(unit=self.unit, per_hand_scale=self.unit_scale)
        self.node: Node = self.game.root
        self.rng_at_deal = self.rng.bit_generator.state
        """The generator's state before the current hand was dealt (saved mid-hand)."""
        self._pair_values: np.ndarray | None = None
        self._profiles: dict[int, Strategy] = {}
        self._pair_tables: dict[int, np.ndarray | None] = {}
        self._walks: dict[Any, Any] = {}
        """Walks and value passes of the fixed profiles, made once per session (shared with
        the snapshots the UI's worker reads, so whoever computes one first fills it in)."""
        self._skill = 0.0
        """Sum of the human's decision terms in the current hand (see ``scoring``)."""
        self._last_evs: tuple[Any, tuple, np.ndarray] | None = None
        """The last decision's action EVs: the value pass they come from, (seat, node, hand)
        and the EVs."""
        self.real_put: tuple[float, float] = tuple(self.game.root.contributions)  # type: ignore
        """Real chips each seat has in: the node's, unless an off-tree bet moved them."""
        self.street_base = float(self.real_put[0])
        """Real chips each seat had in when the current street began."""
        self.river_bot: RiverResolver | None = None
        """A turn spot's bot re-solves the turn after an off-tree turn bet (``river_bot.turn``)
        and the river after any off-tree bet."""
        if is_spot_game(self.game) and len(self.game.root.board) == 4:
            from solvers.agents.river_resolve import RiverResolver  # noqa: PLC0415 - numba

            self.river_bot = RiverResolver(self.game, self.bot_strategy)
        self.river: RiverPlay | None = None
        """The bot's re-solved river in the current hand, once it plays one."""
        self.events: list[tuple] = []
        """The hand's public events for the re-solve (``river_resolve.replay``)."""
        if not self.compiled:  # a spot's first pass waits for the live panel's worker
            self.seat_values()

    # --- setup ------------------------------------------------------------------------------
    def _bot_strategy(self) -> Strategy:
        cutoff = self.threshold_cutoff
        if self.compiled and self.bot_mode != "mixed":  # node by node: a flop is GBs
            if self.bot_mode == "purified":
                return NodeChange(self.equilibrium, purify_rows)  # type: ignore[return-value]
            return NodeChange(self.equilibrium, lambda rows: threshold_rows(rows, cutoff))  # type: ignore[return-value]
        if self.bot_mode == "purified":
            return purify(self.equilibrium)
        if self.bot_mode == "thresholded":
            return threshold(self.equilibrium, cutoff)
        return self.equilibrium

    def _bot_change(self):
        """The bot mode as an in-place change of per-edge probabilities (compiled walk)."""
        cutoff = self.threshold_cutoff
        if self.bot_mode == "purified":
            return purify_per_edge
        if self.bot_mode == "thresholded":
            return lambda first, actions, x: threshold_per_edge(first, actions, x, cutoff)
        return None

    def seat_values(self) -> tuple[float, float]:
        """Each seat's EV under the file's strategy against the bot's (the EV-adjusted score's
        baseline), made once."""

        def make() -> tuple[float, float]:
            compiled = self.compiled_profile(0)
            if compiled is None:
                totals = expected_values(self.game, self.equilibrium_vs_bot(0)).totals
                return float(totals[0]), float(totals[1])
            value = compiled.game_value()
            return value, -value

        return self._cached("seat_values", make)
    @property
    def is_holdem(self) -> bool:
        return is_holdem_class_game(self.game)

    @property
    def unit(self) -> str:
        return "bb/100" if self.is_holdem else "chips/hand"

    @property
    def unit_scale(self) -> float:
        return 100.0 / self.game.big_blind if self.is_holdem else 1.0

    def equilibrium_vs_bot(self, human_seat: int) -> Strategy:
        """The bot's strategy in the bot's seat and the file's in the human's seat (cached:
        neither changes during a session)."""
        profile = self._profiles.get(human_seat)
        if profile is None and self.compiled:  # node by node on access, never the whole tree
            seats = [self.equilibrium, self.equilibrium]
            seats[1 - human_seat] = self.bot_strategy
            profile = SeatProfile(self.game, (seats[0], seats[1]))  # type: ignore[assignment]
            self._profiles[human_seat] = profile  # type: ignore[assignment]
        if profile is None:
            bot_seat = 1 - human_seat
            profile = {
                n.id: (self.bot_strategy if n.player == bot_seat else self.equilibrium)[n.id]
                for n in self.game.decision_nodes()
            }
            self._profiles[human_seat] = profile
        return profile

    def _hand_pair_values(self, human_seat: int, hands: tuple[int, int]) -> np.ndarray:
        """Full-information values ``[n_nodes]`` of the dealt pair under the seat's profile.

        Small games compute every pair once per seat and look the deal up; big ones walk the
        tree for the dealt pair only.
        """
        compiled = self.compiled_profile(human_seat)
        if compiled is not None:
            return compiled.pair_values(hands)
        if human_seat not in self._pair_tables:
            size = len(self.game.nodes) * self.game.n_hands[0] * self.game.n_hands[1]
            table = None
            if size <= PAIR_TABLE_LIMIT:
                profile = self.equilibrium_vs_bot(human_seat)
                flat = all_pair_values(self.game, profile)
                table = flat.reshape(len(self.game.nodes), *self.game.n_hands)
            self._pair_tables[human_seat] = table
        table = self._pair_tables[human_seat]
        if table is not None:
            return table[:, hands[0], hands[1]]
        done = self.profile_walk(human_seat)
        assert isinstance(done, Walk)  # a spot's pair values come from its compiled profile
        factor = done.factor
        return pair_values(self.game, self.equilibrium_vs_bot(human_seat), hands, factor)

    def _cached(self, key: Any, make: Any) -> Any:
        found = self._walks.get(key)
        if found is None:
            found = self._walks[key] = make()
        return found

    def compiled_profile(self, human_seat: int) -> CompiledProfile | None:
        """The bot-vs-file profile for a seat on the compiled walk (None for the numpy walk);
        one profile serves both seats when the bot plays the file as it is."""
        if not self.compiled:
            return None
        change = self._bot_change()
        key = ("compiled", human_seat if change is not None else None)

        def make() -> CompiledProfile | None:
            changes = [None, None]
            changes[1 - human_seat] = change
            file = self.equilibrium
            view = self.equilibrium_vs_bot(human_seat)
            return compiled_profile(self.game, (file, file), view, changes)

        return self._cached(key, make)

    def profile_walk(self, human_seat: int) -> Walk | CompiledProfile:
        """The walk of the bot-vs-file profile for a seat (reaches and edge factors)."""
        compiled = self.compiled_profile(human_seat)
        if compiled is not None:
            return compiled
        profile = self.equilibrium_vs_bot(human_seat)
        return self._cached(("profile", human_seat), lambda: walk(self.game, profile))

    def equilibrium_walk(self) -> Walk | CompiledProfile:
        """The walk of the strategy file itself (the human's range as the bot sees it)."""
        if self.compiled:  # reach along the path only: no pass is made for it
            file = self.equilibrium
            return self._cached(
                "equilibrium", lambda: compiled_profile(self.game, (file, file), file)
            )
        return self._cached("equilibrium", lambda: walk(self.game, self.equilibrium))

    def response_values(
        self, human_seat: int
    ) -> tuple[Walk | CompiledProfile, np.ndarray | DecisionValues]:
        """The walk with the human best-responding to the bot, and the human's value pass."""
        compiled = self.compiled_profile(human_seat)
        if compiled is not None:
            return compiled, compiled.values(human_seat, respond=True)

        def make() -> tuple[Walk, np.ndarray]:
            done = walk(self.game, self.equilibrium_vs_bot(human_seat), responder=human_seat)
            return done, done.values(self.game, human_seat, respond=True)

        return self._cached(("response", human_seat), make)

    def prepare(self) -> None:
        """Make the passes the current hand's decisions read (a spot's first walk, a few
        seconds on a flop): the seat values and the human's best-response values, after one
        reach pass. Live-panel workers call it before the numbers."""
        compiled = self.compiled_profile(self.human_seat)
        if compiled is None:
            return
        if "seat_values" in self._walks:
            compiled.prepare([(self.human_seat, True)])
            return
        if compiled is self.compiled_profile(0):
            compiled.prepare([(0, False), (self.human_seat, True)])
        self.seat_values()

    def bot_range(self) -> np.ndarray:
        """The bot's hand distribution here given the public actions and the human's cards."""
        own = self.hand.deal.hands[self.human_seat]
        done = self.profile_walk(self.human_seat)
        return bayes_range_from_walk(self.game, done, self.node, self.bot_seat, opp_hand=own)

    def human_range(self) -> np.ndarray:
        """The human's range as the bot sees it (Bayes on the file's strategy); raises
        ``TreeError`` when the human's line is one the file never takes."""
        done = self.equilibrium_walk()
        return bayes_range_from_walk(self.game, done, self.node, self.human_seat)

    # --- the hand in progress ---------------------------------------------------------------
    @property
    def human_to_act(self) -> bool:
        return not self.hand_over and self.node.is_decision and self.node.player == self.human_seat

    def new_hand(self) -> HandRecord:
        if not self.hand_over:
            raise InputError("finish the current hand first")
        number = len(self.hands) + 1
        if self.seat_mode is None:
            seat = (number - 1) % 2
        else:
            seat = self.seat_mode
        self.rng_at_deal = self.rng.bit_generator.state
        record = HandRecord(number=number, human_seat=seat, deal=deal_hands(self.game, self.rng))
        self.hands.append(record)
        self.node = self.game.root
        self._skill = 0.0
        self._pair_values = None
        self.real_put = tuple(float(c) for c in self.game.root.contributions)  # type: ignore
        self.street_base = float(self.real_put[0])
        self.river, self.events = None, []
        self._advance()
        return record

    def legal_options(self) -> list[Option]:
        node = self.node
        if not node.is_decision:
            return []
        options = []
        for index, label in enumerate(node.actions):
            if label == "fold":
                kind = "fold"
            elif label in ("check", "call"):
                kind = "passive"
            else:
                kind = "aggressive"
            amount = self._real_add(index)
            options.append(Option(label, amount, kind, self._real_label(index, amount)))
        return options

    @property
    def off_tree(self) -> bool:
        """Whether the real chips differ from the tree node's (an off-tree bet was made)."""
        put = self.node.contributions
        return any(abs(a - b) > 1e-9 for a, b in zip(self.real_put, put, strict=True))

    def _real_add(self, index: int) -> float:
        if not self.off_tree:
            return float(self.node.amounts[index])
        return real_amount(self.game, self.node, index, self.real_put)

    def _real_label(self, index: int, amount: float) -> str:
        label = self.node.actions[index]
        if not self.off_tree or label in ("fold", "check", "call"):
            return label
        return self._bet_text(amount)

    def _bet_text(self, amount: float) -> str:
        """``bet N`` / ``raise to N`` / ``all-in N`` in real chips on this street."""
        actor = self.node.player
        pot, to_call = facing(self.node, self.real_put)
        to = self.real_put[actor] + amount - self.street_base
        room = self._room(actor)
        if room is not None and amount >= room - 1e-9:
            return f"all-in {to:g}"
        return f"raise to {to:g}" if to_call > 0 else f"bet {to:g}"

    def _room(self, seat: int) -> float | None:
        params = self.game.params
        if not is_spot_game(self.game):
            return None
        return float(params.pot / 2 + params.stack - self.real_put[seat])  # type: ignore

    def _put_in(self, seat: int, amount: float) -> None:
        put = list(self.real_put)
        put[seat] += amount
        self.real_put = (put[0], put[1])

    def act(self, action: str) -> None:
        """Take the human's action (its label, such as ``call`` or ``bet 1``)."""
        if not self.hands:
            raise IllegalActionError("no hand is being played; deal one first")
        if not self.human_to_act:
            raise IllegalActionError("it is not your turn to act")
        labels = list(self.node.actions)
        if action not in labels:
            legal = ", ".join(labels)
            raise IllegalActionError(f"{action!r} is not legal here; choose one of {legal}")
        evs = chosen_loss = frequencies = None
        off_path = False
        if self.review:
            from pokertui.session.spot import decision_review  # noqa: PLC0415 - spot imports us

            evs, chosen_loss, frequencies = decision_review(self, action)
            off_path = not self.on_equilibrium_path()
        index = labels.index(action)
        add = self._real_add(index)
        shown = self._real_label(index, add)
        self.hand.steps.append(
            Step(
                self.node.key,
                self.human_seat,
                action,
                add,
                ev_loss=chosen_loss,
                action_evs=evs,
                equilibrium=frequencies,
                off_path=off_path,
                shown="" if shown == action else shown,
            )
        )
        self._ev_step(index)
        self._public(self.human_seat, self.node.actions[index], add)
        self._put_in(self.human_seat, add)
        self.node = self.game.nodes[self.node.children[index]]
        self._advance()

    def act_amount(self, amount: float) -> None:
        """A bet or raise of ``amount`` chips (a raise includes the call). A tree size is that
        action; in a postflop spot any other amount up to the stack is played for real and the
        bot answers as the pseudo-harmonic translation's tree size (``off_tree.py``)."""
        options = self.legal_options()
        for option in options:
            if option.kind == "aggressive" and abs(option.amount - amount) < 1e-9:
                self.act(option.label)
                return
        sizes = [f"{o.amount:g}" for o in options if o.kind == "aggressive"]
        if not is_spot_game(self.game) or not sizes or not self.human_to_act:
            allowed = ", ".join(sizes) if sizes else "none"
            raise IllegalActionError(
                f"a bet of {amount:g} is not available in this game here (sizes allowed: {allowed})"
            )
        try:
            translation = translate_bet(self.game, self.node, amount, self.real_put)
        except InputError as exc:
            raise IllegalActionError(str(exc)) from None
        self._act_off_tree(translation)

    def _act_off_tree(self, translation: OffTreeBet) -> None:
        mapped = translation.mapped
        probs = np.array([m.probability for m in mapped])
        drawn = mapped[int(self.rng.choice(len(mapped), p=probs / probs.sum()))]
        shown = self._bet_text(translation.amount)
        evs = chosen_loss = frequencies = None
        off_path = False
        if self.review:
            from pokertui.session.spot import decision_review  # noqa: PLC0415 - spot imports us

            evs, _, frequencies = decision_review(self, drawn.label)
            # the bot answers as the tree sizes with the translation's odds: the tree's EV of
            # the real bet is the mix of theirs
            chosen = sum(m.probability * evs[m.action] for m in mapped)
            chosen_loss = max(evs) - chosen
            off_path = not self.on_equilibrium_path()
        self.hand.steps.append(
            Step(
                self.node.key,
                self.human_seat,
                drawn.label,
                translation.amount,
                ev_loss=chosen_loss,
                action_evs=evs,
                equilibrium=frequencies,
                off_path=off_path,
                shown=shown,
                mapped=[[m.label, m.probability] for m in mapped],
            )
        )
        self._ev_step(drawn.action)
        self._public(self.human_seat, "bet", translation.amount)
        if self.river_bot is not None and self.river is None:  # a turn bet the file lacks
            self.river = self.river_bot.turn_play(self.human_seat, tuple(self.events))
        self._put_in(self.human_seat, translation.amount)
        self.node = self.game.nodes[drawn.child]
        self._advance(fold_to_call=translation.fold_to_call)

    # --- internals ------------------------------------------------------------------------
    def _public(self, seat: int, label: str, add: float) -> None:
        """Record an action for the re-solve (``L`` the human, ``B`` the bot) and move the bot's
        re-solved river along with the human's actions."""
        kind, to = _kind(label), self.real_put[seat] + add
        if seat == self.human_seat:  # as LBR's events: ("L", kind, to or None), ("B", *seen)
            self.events.append(("L", kind, to if kind == "b" else None))
        else:
            self.events.append(("B", kind, to) if kind == "b" else ("B", kind))
        if self.river is not None and seat == self.human_seat:
            self.river.opponent_acts(kind, add, self.real_put, self.rng)

    def _bot_river_action(self, own: int) -> tuple[int, float, str]:
        """The bot's action in its re-solved river: the file node's nearest action, the real
        chips and the re-solve's own label."""
        from solvers.agents.river_resolve import follow  # noqa: PLC0415 - loaded with the bot

        assert self.river is not None
        probs = self.river.rows(own)
        chosen = int(self.rng.choice(len(probs), p=probs / probs.sum()))
        label = self.river.node.actions[chosen]
        add = self.river.bot_acts(chosen, self.real_put)
        return follow(self.game, self.node, _kind(label), add, self.real_put), add, label

    def _ev_step(self, index: int) -> None:
        """Add the human decision's skill term to the hand's EV-adjusted result."""
        deal = self.hand.deal
        profile = self.equilibrium_vs_bot(self.human_seat)
        node = self.node
        own = deal.hands[self.human_seat]
        if self._pair_values is None:
            self._pair_values = self._hand_pair_values(self.human_seat, deal.hands)
        children = self._pair_values[list(node.children)]
        sign = 1.0 if self.human_seat == 0 else -1.0
        baseline = float(np.dot(profile[node.id][own], children))
        self._skill += sign * (children[index] - baseline)

    def _advance(self, fold_to_call: float = 0.0) -> None:
        """Play chance and the bot until the human must act or the hand ends; the bot's first
        answer moves ``fold_to_call`` of its folds to calls (an off-tree bet below the tree's
        smallest size, ``off_tree.py``)."""
        record = self.hand
        while True:
            node = self.node
            if self.river is not None and self.river.node.is_terminal:
                self._settle(self.river.node)
                return
            if node.is_terminal:
                self._settle(node)
                return
            if node.is_chance:
                outcome = chance_outcome(self.game, node, record.deal, self.rng)
                record.steps.append(Step(node.key, None, node.actions[outcome]))
                self.node = self.game.nodes[node.children[outcome]]
                self.street_base = float(self.real_put[0])
                self.events.append(("C", node.tokens[outcome]))
                if self.river_bot is not None and len(self.node.board) == 5:
                    self.river = self.river_bot.play(self.human_seat, tuple(self.events))
                continue
            if node.player == self.human_seat:
                return
            own = record.deal.hands[node.player]
            if self.river is not None:
                index, add, label = self._bot_river_action(own)
                shown = label if _kind(label) != "b" else self._bet_text(add)
            else:
                rows = self.bot_strategy[node.id]
                probs = answer_rows(rows[own : own + 1], node, fold_to_call)[0]
                index = int(self.rng.choice(len(probs), p=probs / probs.sum()))
                add = self._real_add(index)
                label, shown = node.actions[index], self._real_label(index, add)
            fold_to_call = 0.0
            record.steps.append(
                Step(
                    node.key,
                    node.player,
                    node.actions[index],
                    add,
                    shown="" if shown == node.actions[index] else shown,
                )
            )
            self._public(node.player, label, add)
            self._put_in(node.player, add)
            self.node = self.game.nodes[node.children[index]]

    def _settle(self, node: Node) -> None:
        record = self.hand
        seat0 = showdown_payoff(self.game, node, record.deal, self.rng, self.real_put)
        result = seat0 if record.human_seat == 0 else -seat0
        seat_value = self.seat_values()[record.human_seat]
        record.result = float(result)
        record.showdown = node.terminal == "showdown"
        record.ev_adjusted = float(seat_value + self._skill)
        self._skill = 0.0
        self.score.add(record.result, record.ev_adjusted, record.ev_lost if self.review else None)

    def on_equilibrium_path(self) -> bool:
        """Whether the strategy file itself reaches the current node with the human's hand:
        the product of the file's probabilities of the human's own actions so far is positive
        (chance and the bot's actions are already given by the hand being here)."""
        own = self.hand.deal.hands[self.human_seat]
        for step in self.hand.steps:
            if step.seat != self.human_seat:
                continue
            node = self.game.node_by_key(step.node_key)
            if self.equilibrium[node.id][own][node.actions.index(step.action)] <= 0:
                return False
        return True

    # --- views for the UI ------------------------------------------------------------------
    def pot(self) -> float:
        return float(sum(self.real_put))

    def contributions(self) -> tuple[float, float]:
        return tuple(float(c) for c in self.real_put)  # type: ignore[return-value]

    def to_call(self) -> float:
        put = self.real_put
        seat = self.human_seat
        return float(max(put[1 - seat] - put[seat], 0.0))

    def board_text(self) -> str:
        if self.hands and is_spot_game(self.game):
            from solvers.cards.deck import cards_str  # noqa: PLC0415

            return cards_str(self.hand.deal.board or self.node.board, " ")
        if self.hands and self.hand.deal.board:
            from solvers.cards.deck import cards_str  # noqa: PLC0415

            return cards_str(self.hand.deal.board)
        chance = [s.action for s in self.hand.steps if s.seat is None] if self.hands else []
        return " ".join(chance)

    def hand_text(self, seat: int) -> str:
        return self.hand.deal.hand_text(self.game, seat)

    def action_evs(self) -> np.ndarray:
        """EV in chips of each legal action for the human's hand, against the bot's strategy,
        with best play afterwards."""
        own = self.hand.deal.hands[self.human_seat]
        done, values = self.response_values(self.human_seat)
        key = (self.human_seat, self.node.id, own)
        last = self._last_evs  # the panel and the review ask at the same decision: once
        if last is None or last[0] is not values or last[1] != key:
            evs = action_values_from_walk(self.game, done, values, self.node, own)
            last = self._last_evs = (values, key, evs)
        return last[2].copy()

    def summary(self) -> dict[str, Any]:
        return self.score.summary()
