"""The bid ladder: which bid overcalls which, from the rule set (rules.md 4.5-4.7)."""

from __future__ import annotations

from functools import lru_cache

from esmakker.core.actions import ATTACHMENT_KINDS, Bid, BidKind
from esmakker.core.rules import RuleSet

Key = tuple[int, int]
_ABOVE_ALL = 1000
_UNBEATABLE: Key = (100, 0)


@lru_cache(maxsize=256)
def bid_key(bid: Bid, rules: RuleSet) -> Key:
    """Return the bid's place in the ladder; a higher key overcalls a lower one.

    Attachments of equal rank share a key (rules.md 4.5, model E0).
    """
    if bid.kind.is_nolo:
        return _nolo_key(bid.kind, rules)
    assert bid.level is not None
    if bid.kind is BidKind.PLAIN:
        return (bid.level, 0)
    if rules.attachment_ranking == "ordered":
        return (bid.level, 2 + 2 * rules.attachment_order.index(bid.kind.value))
    return (bid.level, 2)


def _nolo_key(kind: BidKind, rules: RuleSet) -> Key:
    if kind is BidKind.SUPER_BORDLAEGGER and rules.super_bordlaegger_unbeatable:
        return _UNBEATABLE
    level = rules.nolo_anchor_of(kind.value)
    position = rules.nolo_anchor_position
    if position == "above_plain":
        return (level, 1)
    if position == "above_all_of_level":
        return (level, _ABOVE_ALL)
    name = position.split(":", 1)[1]
    return (level, 3 + 2 * rules.attachment_order.index(name))


@lru_cache(maxsize=64)
def all_bids(rules: RuleSet) -> tuple[Bid, ...]:
    """Return every bid the rules allow, lowest first (ties in attachment order)."""
    bids = [Bid(None, BidKind(name)) for name in rules.nolo_contracts]
    attachments = [k for k in ATTACHMENT_KINDS if k.value in rules.attachments]
    if rules.attachment_ranking == "ordered":
        attachments.sort(key=lambda k: rules.attachment_order.index(k.value))
    for level in range(rules.min_bid, 14):
        bids.append(Bid(level))
        bids.extend(Bid(level, kind) for kind in attachments)
    order = {bid: i for i, bid in enumerate(bids)}
    return tuple(sorted(bids, key=lambda b: (bid_key(b, rules), order[b])))


def overcalls(bid: Bid, high: Bid | None, used: frozenset[Bid], rules: RuleSet) -> bool:
    """Return whether ``bid`` may be made over the current high bid.

    ``used`` holds the attachment bids made earlier in the auction; it matters
    only under ``equal_distinct_once`` (each attachment once per level).
    """
    if high is None:
        return True
    new_key, high_key = bid_key(bid, rules), bid_key(high, rules)
    if new_key != high_key:
        return new_key > high_key
    ranking = rules.attachment_ranking
    if ranking not in ("equal_distinct_once", "equal_distinct_cycle"):
        return False
    if bid.kind.is_nolo or bid.kind is BidKind.PLAIN or bid.kind == high.kind:
        return False
    return ranking == "equal_distinct_cycle" or bid not in used


def legal_bids(high: Bid | None, used: frozenset[Bid], rules: RuleSet) -> tuple[Bid, ...]:
    """Return the bids that overcall ``high``, lowest first."""
    return _legal_bids_cached(
        high, used if rules.attachment_ranking == "equal_distinct_once" else frozenset(), rules
    )


@lru_cache(maxsize=4096)
def _legal_bids_cached(high: Bid | None, used: frozenset[Bid], rules: RuleSet) -> tuple[Bid, ...]:
    return tuple(b for b in all_bids(rules) if overcalls(b, high, used, rules))
