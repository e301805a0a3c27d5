"""Duplicate play: every deal is played four times, the bots rotated through the seats.

Deal ``k`` (1, 2, …) of a match with seed ``S`` is dealt once, from
``random.Random(f"{S}/{k}")``, by the dealer ``SEATS[(k - 1) % 4]`` (N deals the
first deal, E the second, …). It is then played out four times from the same
cards and the same dealer: in rotation ``r`` (0 to 3) bot ``i`` (0 to 3, in the
order given) sits at seat ``(i + r) % 4`` and draws its randomness from
``random.Random(f"{S}/{k}/{r}/{i}")``. So each bot holds each of the four hands
once, always with the same bots to its left and right, and deal ``k`` depends on
nothing but ``S`` and ``k``.

**Points per deal.** A bot's points on a deal are the mean of its scores over the
four rotations: ``sum(scores) / 4``, the points of one played hand on average
(``DuplicateDeal.points``). Bots of the same name are pooled deal by deal: the
name's value for the deal is the mean over the bots of that name
(``DuplicateDeal.points_by_name``); so a deal gives one value per name, and the
values of different deals are independent.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from esmakker.bots import endgame
from esmakker.bots.base import Bot
from esmakker.bots.registry import SEARCH_BOTS, make_bot
from esmakker.core.actions import Iron
from esmakker.core.errors import IllegalActionError
from esmakker.core.record import dumps, record_of
from esmakker.core.rules import RuleSet
from esmakker.core.seats import SEATS, Seat
from esmakker.core.state import State, deal
from esmakker.sim.ddloss import HandLoss, hand_loss
from esmakker.sim.runner import play_out

ROTATIONS = 4
"""Rotations per deal: with four bots, each bot plays each hand once."""

PLAYED, ALL_PASS, IRON_HAND = "played", "all_pass", "iron_hand"
"""How a hand ended: a contract was played, or a redeal by all passing or by an iron hand."""


class BotFailure(RuntimeError):  # noqa: N818 (the name says what failed)
    """A bot broke the rules (or crashed) in a match; the message names deal, rotation and bot.

    The message is the only argument, so the error crosses process boundaries intact.
    """


@dataclass(frozen=True, slots=True)
class Hand:
    """One rotation of one deal, reduced to what the statistics need; bots by index."""

    rotation: int
    outcome: str
    """``played``, ``all_pass`` or ``iron_hand``."""
    contract: str | None
    """The final contract as written in records (``9``, ``9 vip``, ``sol``); ``None`` on a redeal."""
    nolo: bool
    declarer: int | None
    """The declaring bot's index (0 to 3), ``None`` on a redeal."""
    made: bool | None
    points: tuple[int, int, int, int]
    """The score of each bot (by index, not by seat)."""
    dd: HandLoss | None = None
    """The double-dummy figures by bot index (``esmakker match --dd-loss``), else ``None``."""
    partner: int | None = None
    """The partner's bot index (the called card's holder); ``None`` without one, on a redeal,
    and in checkpoints written before it was kept."""


@dataclass(frozen=True, slots=True)
class DuplicateDeal:
    """One deal of a duplicate match: its four rotations and, if asked for, their records."""

    number: int
    seed: str
    dealer: Seat
    hands: tuple[Hand, ...]
    records: tuple[str, ...] = ()
    """The hand records (one JSON line each), in rotation order; empty unless requested."""

    @property
    def points(self) -> tuple[float, float, float, float]:
        """Return each bot's points on this deal: its mean score over the rotations."""
        totals = [sum(hand.points[i] for hand in self.hands) / len(self.hands) for i in range(4)]
        return (totals[0], totals[1], totals[2], totals[3])

    def points_by_name(self, bots: Sequence[str]) -> dict[str, float]:
        """Return the points per bot name, the mean over the bots that share the name."""
        points = self.points
        names = dict.fromkeys(bots)
        return {
            name: sum(points[i] for i, b in enumerate(bots) if b == name) / bots.count(name)
            for name in names
        }


def seat_of(bot: int, rotation: int) -> Seat:
    """Return the seat of bot ``bot`` (0 to 3) in rotation ``rotation``."""
    return SEATS[(bot + rotation) % 4]


def bot_at(seat: Seat, rotation: int) -> int:
    """Return the index of the bot that sits at ``seat`` in rotation ``rotation``."""
    return (int(seat) - rotation) % 4


def dealt(rules: RuleSet, seed: int | str, number: int) -> State:
    """Return deal ``number`` of a match with seed ``seed``, before the first call."""
    return deal(rules, SEATS[(number - 1) % 4], random.Random(f"{seed}/{number}"))


def play_duplicate(
    rules: RuleSet,
    bots: Sequence[str],
    seed: int | str,
    number: int,
    *,
    records: bool = False,
    dd_node_limit: int | None = None,
) -> DuplicateDeal:
    """Play deal ``number`` in all four rotations (see the module's description).

    With ``dd_node_limit`` each rotation's hand also gets its double-dummy figures
    (``esmakker.sim.ddloss``, that many nodes per card) in ``Hand.dd``.

    Raises:
        BotFailure: if a bot chooses an illegal action or fails otherwise.
    """
    if len(bots) != 4:
        raise ValueError(f"duplicate play needs 4 bots, got {len(bots)}")
    _compile_for(bots)
    start = dealt(rules, seed, number)
    hands: list[Hand] = []
    texts: list[str] = []
    for rotation in range(ROTATIONS):
        table = _table(bots, seed, number, rotation)
        state = _play(start, table, bots, number, rotation)
        hand = hand_of(state, rotation)
        if dd_node_limit is not None:
            order = [int(seat_of(i, rotation)) for i in range(4)]
            hand = dataclasses.replace(hand, dd=hand_loss(state, dd_node_limit).reindexed(order))
        hands.append(hand)
        if records:
            meta = _meta(bots, seed, number, rotation)
            texts.append(dumps(record_of(state, meta)))
    return DuplicateDeal(number, f"{seed}/{number}", start.dealer, tuple(hands), tuple(texts))


def _compile_for(bots: Sequence[str]) -> None:
    """Wait for the solver's compiled kernel where a search bot would use it.

    A search bot plays by the plain solver's shallower endings while the kernel compiles
    (10 to 60 s in a busy process), so without the wait a worker's first deals would be
    played by a weaker bot than the rest of the match.
    """
    if endgame.COMPILED and any(name.strip().lower() in SEARCH_BOTS for name in bots):
        endgame.warm_up(wait=True)


def _table(bots: Sequence[str], seed: int | str, number: int, rotation: int) -> list[Bot]:
    """Return the bots indexed by seat for one rotation."""
    by_index = [
        make_bot(name, random.Random(f"{seed}/{number}/{rotation}/{i}"))
        for i, name in enumerate(bots)
    ]
    return [by_index[bot_at(seat, rotation)] for seat in SEATS]


def _play(start: State, table: list[Bot], bots: Sequence[str], number: int, rotation: int) -> State:
    try:
        return play_out(start, table)
    except IllegalActionError as exc:
        culprit = "a bot"
        if exc.seat is not None:
            seat = Seat.parse(exc.seat)
            culprit = f"bot {bot_at(seat, rotation) + 1} ({bots[bot_at(seat, rotation)]}) at {seat}"
        raise BotFailure(f"deal {number}, rotation {rotation}: {culprit}: {exc}") from exc
    except Exception as exc:  # a bot's bug: name where it happened
        raise BotFailure(
            f"deal {number}, rotation {rotation}: {type(exc).__name__}: {exc}"
        ) from exc


def hand_of(state: State, rotation: int) -> Hand:
    """Reduce a finished rotation to a ``Hand`` (scores and declarer by bot index)."""
    result = state.result()
    assert result is not None, "hand_of needs a finished deal"
    points = tuple(result.scores[int(seat_of(i, rotation))] for i in range(4))
    if result.contract is None:
        iron = any(isinstance(step.action, Iron) for step in state.history)
        outcome = IRON_HAND if iron else ALL_PASS
        return Hand(rotation, outcome, None, False, None, None, (0, 0, 0, 0))
    assert result.declarer is not None
    return Hand(
        rotation=rotation,
        outcome=PLAYED,
        contract=str(result.contract),
        nolo=result.contract.is_nolo,
        declarer=bot_at(result.declarer, rotation),
        made=result.made,
        points=(points[0], points[1], points[2], points[3]),
        partner=None if result.partner is None else bot_at(result.partner, rotation),
    )


def _meta(bots: Sequence[str], seed: int | str, number: int, rotation: int) -> dict[str, Any]:
    """Return a record's ``meta``: who sat where (``P1``… are the bots in match order)."""
    players: Mapping[str, str] = {
        seat.name: f"bot:{bots[bot_at(seat, rotation)]}" for seat in SEATS
    }
    return {
        "players": dict(players),
        "table": {seat.name: f"P{bot_at(seat, rotation) + 1}" for seat in SEATS},
        "match": {"bots": list(bots), "duplicate": True},
        "deal": number,
        "rotation": rotation,
        "seed": f"{seed}/{number}",
    }
