"""What passing is worth in the auction: the heuristic's competitive-bidding model.

A bid is worth its expected score as declarer (``evaluation``). Passing is worth what the
seat expects once somebody else plays, and that depends on the bid that holds:

* **Number bid.** The holder's side is expected to take ``PROMISE`` tricks over the
  level it bid (a bid promises the level with something to spare), with the spread of
  the bid's attachment, so the holder expects ``holder_value`` per paying player. The
  seat is his partner when it holds the card he will call: ``call_chance`` counts its
  aces (he calls one he lacks, so each of ours is the called one about once in three).
  As partner it wins what he wins; as defender it pays. Passing is worth
  ``-(1 - 2 * call_chance) * holder_value``: a seat without aces overcalls more
  readily than one that will probably be called.
* **Nolo bid.** The holder plays alone; passing costs what he is expected to win from
  each defender if he keeps his contract with chance ``NOLO_PROMISE``.
* **Nobody has bid.** Opening is judged against ``open_margin`` of a made 9's value.

So the auction climbs as people's do: a hand that would let an 8 stand when it has the
aces the declarer needs competes to 9 or 10 when the 8 would be paid by it.
"""

from __future__ import annotations

from esmakker.bots.evaluation import (
    ACE,
    calibration,
    nolo_bid_ev,
    normal_distribution,
    number_bid_ev,
    value_table,
)
from esmakker.core.actions import Bid, BidKind
from esmakker.core.rules import RuleSet

PROMISE = 1.75
"""Tricks over its level that the others expect a number bid's side to take."""
NOLO_PROMISE = 0.7
"""The chance the others give a nolo bidder to keep his contract."""
NOLO_RISK = 0.04
"""A nolo bid's price is cut by this times the variance of its score over a made 9's value."""
ACES_CALLABLE = 3.0
"""Aces the declarer may call on average (the four less the one he usually holds)."""

FAMILY_OF = {
    BidKind.PLAIN: "plain",
    BidKind.VIP: "vip",
    BidKind.GODE: "gode",
    BidKind.HALVE: "halve",
    BidKind.STAERKE: "staerke",
    BidKind.SANS: "sans",
}


def aces(hand: int) -> int:
    """Return how many aces the mask holds."""
    return sum(1 for suit in range(4) if hand >> (13 * suit + ACE) & 1)


def call_chance(hand: int) -> float:
    """Return the chance that a declarer calls a card this hand holds (makes it his partner)."""
    return min(1.0, aces(hand) / ACES_CALLABLE)


def holder_value(high: Bid, rules: RuleSet) -> float:
    """Return what the holder of ``high`` expects to win per paying player."""
    if high.is_nolo:
        return nolo_bid_ev(high.kind, NOLO_PROMISE, rules) / 3.0
    assert high.level is not None
    family = FAMILY_OF[high.kind]
    stage2 = calibration().stage2
    _, _, sd = stage2.get(family, stage2["plain"])
    dist = normal_distribution(min(13.0, high.level + PROMISE), sd)
    return number_bid_ev(high, dist, rules)


def pass_value(hand: int, high: Bid | None, rules: RuleSet, open_margin: float) -> float:
    """Return what this hand expects from passing while ``high`` holds (``None``: no bid yet)."""
    if high is None:
        return open_margin * float(value_table(Bid(9), rules)[9])
    value = holder_value(high, rules)
    if high.is_nolo:
        return -value
    return -(1.0 - 2.0 * call_chance(hand)) * value


def nolo_price(kind: BidKind, p: float, rules: RuleSet, risk: float = NOLO_RISK) -> float:
    """Return a nolo bid's price: its expected score less a charge for its variance.

    A nolo contract stakes its value against each of three defenders and a failure costs
    ``nolo_fail_factor`` times as much, a gamble far larger than a number contract's.
    People bid one only with a hand they trust; the bot charges ``risk`` times the
    variance of the score, measured in units of a made 9 (so the charge follows the
    rule set's scale of number scores).
    """
    swing = 3.0 * rules.nolo_value_of(kind.value) * (1.0 + rules.nolo_fail_factor)
    unit = float(value_table(Bid(9), rules)[9])
    return nolo_bid_ev(kind, p, rules) - risk * swing * swing * p * (1.0 - p) / unit
