"""An early card played to a trick, chosen by a learned model of its double-dummy cost (decision 137).

The follow model does for the second, third and fourth cards of the first tricks what
``lead_model`` does for their leads: four heuristic bots' cards played to a trick of a
number contract with ten or more tricks left were valued card by card double dummy on the
real deal (``scripts/measure_leads.py gather --follows``), and gradient-boosted regression
trees learned each legal card's cost from what the seat can see (``follow_features``:
the lead model's features and the trick on the table).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from esmakker.bots.knowledge import FOE, FRIEND, UNKNOWN, Knowledge
from esmakker.bots.lead_model import (
    CardModel,
    card_place,
    heuristic_features,
    lead_features,
    least_cost,
    suit_play,
)
from esmakker.core.cards import JOKER_BASE
from esmakker.core.play import led_suit, trick_winner
from esmakker.core.view import PlayerView

MODEL_PATH = Path(__file__).with_name("follow_model.json")


def follow_features(
    k: Knowledge, view: PlayerView, card: int, heuristic: int, legal: list[int]
) -> dict[str, float]:
    """Return what the seat sees about playing ``card`` to the trick on the table."""
    return trick_features(k, view, legal, heuristic) | _card_follow(k, view, card, legal, heuristic)


def trick_features(
    k: Knowledge, view: PlayerView, legal: list[int], heuristic: int
) -> dict[str, float]:
    """Return the features every card of one follow shares: the lead's and the trick's."""
    trick = [int(c) for c in view.trick]
    assert view.leader is not None
    assert trick
    leader = int(view.leader)
    led = led_suit(trick, k.rules)
    now = trick_winner(trick, k.trump, k.aces_low, k.rules)
    after = [(leader + j) % 4 for j in range(len(trick) + 1, 4)]
    winners = [c for c in legal if _wins(k, trick, c)]
    return lead_features(k, view) | {
        "place": len(trick),
        "led_joker": trick[0] >= JOKER_BASE,
        "led_trump": led >= 0 and led == k.trump,
        "led_free": led < 0,
        "winner_team": k.team[(leader + now) % 4],
        "winner_rank": _rank(k, trick[now]),
        "winner_trump": trick[now] < JOKER_BASE and trick[now] // 13 == k.trump,
        "can_win": bool(winners),
        "after": len(after),
        "foes_after": sum(1 for s in after if k.team[s] == FOE),
        "friends_after": sum(1 for s in after if k.team[s] == FRIEND),
        "unknown_after": sum(1 for s in after if k.team[s] == UNKNOWN),
        "foes_after_void": sum(1 for s in after if k.team[s] == FOE and _void(k, s, led)),
        "heur_wins": heuristic in winners,
    }


def _card_follow(
    k: Knowledge, view: PlayerView, card: int, legal: list[int], heuristic: int
) -> dict[str, float]:
    """Return the features of one card played to the trick on the table."""
    return _card_on(k, _Follow.of(k, view, legal), card, heuristic)


@dataclass(frozen=True, slots=True)
class _Follow:
    """What every card of one follow is compared with: the led suit and the legal cards' order."""

    led: int
    winners: frozenset[int]
    lowest_winner: int
    lowest: int
    highest: int

    @classmethod
    def of(cls, k: Knowledge, view: PlayerView, legal: list[int]) -> _Follow:
        trick = [int(c) for c in view.trick]
        winners = [c for c in legal if _wins(k, trick, c)]
        return cls(
            led_suit(trick, k.rules),
            frozenset(winners),
            min(winners, key=lambda c: _order(k, c)) if winners else -1,
            min(legal, key=lambda c: _order(k, c)),
            max(legal, key=lambda c: _order(k, c)),
        )


def _card_on(k: Knowledge, follow: _Follow, card: int, heuristic: int) -> dict[str, float]:
    """Return the features of one card of a follow."""
    led = follow.led
    suit = -1 if card >= JOKER_BASE else card // 13
    features = card_place(k, card) | suit_play(k, card) | heuristic_features(k, card, heuristic)
    return features | {
        "follows": suit >= 0 and suit == led,
        "ruffs": suit >= 0 and suit == k.trump and led != k.trump,
        "discard": suit >= 0 and suit not in (led, k.trump),
        "wins_now": card in follow.winners,
        "lowest_winner": card == follow.lowest_winner,
        "lowest_legal": card == follow.lowest,
        "highest_legal": card == follow.highest,
        "beaters_out": _beaters_out(k, card),
    }


def _wins(k: Knowledge, trick: list[int], card: int) -> bool:
    return trick_winner([*trick, card], k.trump, k.aces_low, k.rules) == len(trick)


def _rank(k: Knowledge, card: int) -> int:
    return 13 if card >= JOKER_BASE else k.strength(card)


def _order(k: Knowledge, card: int) -> tuple[int, int]:
    """Return a card's order from low to high: plain cards, then trumps, then jokers."""
    if card >= JOKER_BASE:
        return (3, card)
    return (2 if card // 13 == k.trump else 1, k.strength(card))


def _void(k: Knowledge, seat: int, suit: int) -> bool:
    return suit >= 0 and bool(k.voids[seat] >> suit & 1)


def _beaters_out(k: Knowledge, card: int) -> int:
    """Return the unseen cards that beat ``card`` in its suit, and the trumps if it is none."""
    if card >= JOKER_BASE:
        return 0
    count = k.higher_outstanding(card).bit_count()
    if k.trump >= 0 and card // 13 != k.trump:
        count += k.trumps_out().bit_count()
    return count


class FollowModel(CardModel):
    """The model of the early cards played to a trick: ``follow_features`` of each legal card."""

    __slots__ = ()

    def follow(self, view: PlayerView, k: Knowledge, legal: list[int], heuristic: int) -> int:
        """Return the legal card of least predicted cost (the heuristic's among equals)."""
        shared = trick_features(k, view, legal, heuristic)
        follow = _Follow.of(k, view, legal)
        costs = {card: self.cost(shared | _card_on(k, follow, card, heuristic)) for card in legal}
        return least_cost(costs, heuristic)


@cache
def default_model() -> FollowModel | None:
    """Return the model shipped beside this module, or ``None`` if there is none."""
    if not MODEL_PATH.exists():
        return None
    return FollowModel.from_json(json.loads(MODEL_PATH.read_text(encoding="utf-8")))
