"""Play deals with bots and summarise them (architecture 5.8).

Each deal ``k`` of a run with seed ``S`` draws its cards from
``random.Random(f"{S}/{k}")`` and each of its bots from
``random.Random(f"{S}/{k}/{player}")``: string seeds are stable across runs,
processes and Python versions (architecture 4.7), and deal ``k`` does not depend on
how the randomness of earlier deals was used. The dealer rotates through a
``ScoreSheet``, so 4, 5 or 6 bots may share the table.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from esmakker.bots.base import Bot
from esmakker.bots.registry import make_bot
from esmakker.core.actions import IRON, Iron
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.sheet import ScoreSheet, Seating
from esmakker.core.state import State, deal
from esmakker.core.view import observe


def play_deal(rules: RuleSet, bots: Sequence[Bot], dealer: Seat, rng: random.Random) -> State:
    """Deal with ``rng`` and let the bots (indexed by seat) play the deal to its end.

    Before the first call every seat offered an out-of-turn iron-hand claim is asked,
    clockwise from forehand; the first claim ends the deal (see ``play_out``).

    Raises:
        IllegalActionError: if a bot chooses an action that is not legal.
    """
    return play_out(deal(rules, dealer, rng), bots)


def play_out(state: State, bots: Sequence[Bot]) -> State:
    """Let the bots (indexed by seat) play a freshly dealt ``state`` to its end.

    Iron-hand claims are asked first, as in ``play_deal``; ``state`` itself is
    unchanged (states are immutable), so one deal can be played out many times.

    Raises:
        IllegalActionError: if a bot chooses an action that is not legal.
    """
    state = _iron_claims(state, bots)
    while not state.is_terminal:
        seat = state.to_act
        assert seat is not None
        state = state.apply(bots[seat].act(observe(state, seat)), seat)
    return state


def _iron_claims(state: State, bots: Sequence[Bot]) -> State:
    if state.rules.iron_hand == "off":
        return state
    for seat in state.dealer.next().iter_from():
        offered = seat != state.to_act and IRON in state.legal_actions_of(seat)
        if offered and bots[seat].claim_iron(observe(state, seat)):
            return state.apply(IRON, seat)
    return state


@dataclass(frozen=True, slots=True)
class SimDeal:
    """One simulated deal: its number, seed, who sat where, and the finished state."""

    number: int
    seed: str
    seating: Seating
    bots: tuple[str, str, str, str]
    """The bot names at N, E, S, W."""
    state: State

    def meta(self) -> dict[str, Any]:
        """Return the hand record's ``meta`` for this deal."""
        seats = "NESW"
        return {
            "players": {s: f"bot:{name}" for s, name in zip(seats, self.bots, strict=True)},
            "table": dict(zip(seats, self.seating.players, strict=True)),
            "sitting_out": list(self.seating.sitting_out),
            "deal": self.number,
            "seed": self.seed,
        }


def simulate_deals(
    preset: str,
    deals: int,
    seed: int | str,
    bots: Sequence[str] = ("random",) * 4,
    overrides: Mapping[str, Any] | None = None,
) -> Iterator[SimDeal]:
    """Return an iterator over ``deals`` deals played by 4 to 6 named bots.

    The players are ``P1``, ``P2``, … clockwise, ``P1`` deals first. Arguments are
    checked at once, before any deal is played.

    Raises:
        RulesConfigError: for an unknown preset or a bad override.
        ValueError: for an unknown bot name or a wrong number of bots.
    """
    rules = RuleSet.from_preset(preset, overrides)
    if not 4 <= len(bots) <= 6:
        raise ValueError(f"a table needs 4, 5 or 6 bots, got {len(bots)}")
    for name in bots:
        make_bot(name, random.Random(0))
    players = [f"P{i + 1}" for i in range(len(bots))]
    sheet = ScoreSheet(players, rules)
    return _deals(sheet, dict(zip(players, bots, strict=True)), deals, seed)


def _deals(
    sheet: ScoreSheet, kinds: dict[str, str], deals: int, seed: int | str
) -> Iterator[SimDeal]:
    for number in range(1, deals + 1):
        deal_seed = f"{seed}/{number}"
        seating = sheet.seating()
        table = [make_bot(kinds[p], random.Random(f"{deal_seed}/{p}")) for p in seating.players]
        state = play_deal(sheet.rules, table, seating.dealer, random.Random(deal_seed))
        sheet.add_state(state)
        names = tuple(kinds[p] for p in seating.players)
        yield SimDeal(number, deal_seed, seating, (names[0], names[1], names[2], names[3]), state)


def simulate(
    preset: str,
    deals: int,
    seed: int | str,
    bots: Sequence[str] = ("random",) * 4,
    overrides: Mapping[str, Any] | None = None,
) -> Iterator[State]:
    """Yield the finished states of ``deals`` simulated deals (see ``simulate_deals``).

    Raises:
        RulesConfigError: for an unknown preset or a bad override.
        ValueError: for an unknown bot name or a wrong number of bots.
    """
    for sim_deal in simulate_deals(preset, deals, seed, bots, overrides):
        yield sim_deal.state


def summarise(states: Iterable[State]) -> dict[str, Any]:
    """Return figures over finished deals.

    ``deals``, ``played``, ``redeals`` (with ``redeals_all_pass`` and
    ``redeals_iron_hand``); ``contracts``: the share of each contract kind among
    played deals; ``make_rate``: how often the declarer made a number and a nolo
    contract (``None`` without such deals); ``mean_abs_score``: the mean |score| per
    seat and played deal; ``zero_sum``: whether every deal's scores sum to 0.
    """
    counts: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    absolute = 0
    zero_sum = True
    for state in states:
        result = state.result()
        assert result is not None, "summarise needs finished deals"
        counts["deals"] += 1
        zero_sum = zero_sum and sum(result.scores) == 0
        if result.contract is None:
            iron = any(isinstance(step.action, Iron) for step in state.history)
            counts["iron" if iron else "all_pass"] += 1
            continue
        counts["played"] += 1
        kinds[result.contract.kind.value] += 1
        family = "nolo" if result.contract.is_nolo else "number"
        counts[family] += 1
        counts[f"{family}_made"] += bool(result.made)
        absolute += sum(abs(score) for score in result.scores)
    played = counts["played"]
    return {
        "deals": counts["deals"],
        "played": played,
        "redeals": counts["all_pass"] + counts["iron"],
        "redeals_all_pass": counts["all_pass"],
        "redeals_iron_hand": counts["iron"],
        "contracts": {kind: n / played for kind, n in kinds.most_common()},
        "make_rate": {
            family: counts[f"{family}_made"] / counts[family] if counts[family] else None
            for family in ("number", "nolo")
        },
        "contracts_by_family": {"number": counts["number"], "nolo": counts["nolo"]},
        "mean_abs_score": absolute / (4 * played) if played else 0.0,
        "zero_sum": zero_sum,
    }
