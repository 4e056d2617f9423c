"""``pokertui lbr 'hunl(...)' --replay DEAL``: one deal of a run again, step by step.

The numbers are ``HunlLocalBestResponse.replay_deal``'s (chips, shown here in big blinds): at
each of LBR's decisions on a greedy street its utility of calling and of its best bets
(folding is 0), at each of the bot's actions the chance of that action over the bot's range,
and with ``--control-variates`` each step's correction. Each hand ends with its line, its
chips, the corrections' sum and the score the run counted.
"""

from __future__ import annotations

from solvers.cards.deck import card_str, cards_str, combo_str
from solvers.reports.lbr.names import STREETS

SEATS = ("small blind", "big blind")
BEST_BETS = 3
"""LBR's bets listed at a decision, best first."""


def replay_lines(steps: list[dict], big_blind: int, control: bool) -> list[str]:
    """The replay's text, one line a step."""

    def bb(chips: float, sign: str = "+") -> str:
        return f"{chips / big_blind:{sign},.2f} bb"

    def fixed(step: dict) -> str:
        return f"  correction {bb(step['correction'])}" if control else ""

    lines: list[str] = []
    for step in steps:
        kind = step["step"]
        if kind == "deal":
            lines.append(f"LBR in seat {step['seat']} ({SEATS[step['seat']]}) holds "
                         f"{combo_str(step['combo'])}, the bot {combo_str(step['bot_combo'])}; "
                         f"board {cards_str(step['board'], ' ')}")  # fmt: skip
        elif kind == "cards":  # the flop has no correction: the deal's luck stays
            cards = " ".join(card_str(c) for c in step["cards"])
            term = fixed(step) if step["street"] >= 2 else ""
            lines.append(f"  {STREETS[step['street']]:<8} {cards}{term}")
        elif kind == "bot":
            lines.append(f"  {STREETS[step['street']]:<8} bot  {step['action']:<8} "
                         f"{step['chance']:6.1%} of its range{fixed(step)}")  # fmt: skip
        elif kind == "lbr":
            weighed = ""
            if "call" in step:
                best = sorted(step["bets"].items(), key=lambda item: -item[1])[:BEST_BETS]
                bets = ", ".join(f"r{to} {bb(u)}" for to, u in best)
                weighed = f"  call {bb(step['call'])}" + (f"; best bets {bets}" if bets else "")
            lines.append(f"  {STREETS[step['street']]:<8} LBR  {step['action']:<8}{weighed}")
        elif kind == "end":
            score = f", corrections {bb(step['correction'])}, score {bb(step['score'])}"
            lines.append(f"  {step['line']}: LBR {bb(step['value'])}"
                         f"{score if control else ''}")  # fmt: skip
    return [line.rstrip() for line in lines]
