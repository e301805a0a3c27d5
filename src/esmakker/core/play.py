"""Trick play rules as pure functions over card masks (rules.md section 6)."""

from __future__ import annotations

from collections.abc import Sequence

from esmakker.core.cards import JOKER_BASE, JOKERS_MASK, SUIT_MASKS
from esmakker.core.rules import RuleSet

NO_TRUMP = -1


def led_suit(trick: Sequence[int], rules: RuleSet) -> int:
    """Return the suit others must follow, or -1 when any card may be played (R6.2, R6.3).

    After a joker lead play is free, or (``after_joker_lead = next_card_sets_suit``)
    the first non-joker card played sets the suit.
    """
    lead = trick[0]
    if lead < JOKER_BASE:
        return lead // 13
    if rules.after_joker_lead == "free":
        return -1
    for card in trick[1:]:
        if card < JOKER_BASE:
            return card // 13
    return -1


def follow_mask(hand: int, suit: int, rules: RuleSet) -> int:
    """Return the cards a player may play to a trick whose suit to follow is ``suit``.

    Follow suit if able, otherwise any card; a joker only when void unless
    ``joker_only_when_void`` is off (R6.2, R6.3).
    """
    if suit < 0:
        return hand
    follow = hand & SUIT_MASKS[suit]
    if not follow:
        return hand
    if rules.joker_only_when_void:
        return follow
    return follow | (hand & JOKERS_MASK)


def lead_mask(hand: int, trick_no: int, rules: RuleSet) -> int:
    """Return the cards a player may lead: no joker to trick 1 where the rules say so (R6.1)."""
    if trick_no == 0 and rules.no_joker_lead_trick1 and hand & ~JOKERS_MASK:
        return hand & ~JOKERS_MASK
    return hand


def card_strength(card: int, aces_low: bool) -> int:
    """Return a card's rank order within its suit: 0 for the two, 12 for the ace (-1 if low)."""
    rank = card % 13
    return -1 if aces_low and rank == 12 else rank


def trick_winner(trick: Sequence[int], trump: int, aces_low: bool, rules: RuleSet) -> int:
    """Return the index in ``trick`` of the winning card (R6.4).

    A led joker wins; else the highest trump; else (``unled_joker = beats_plain``)
    the first joker; else the highest card of the led suit. An unled joker never
    wins under the default rules.
    """
    if trick[0] >= JOKER_BASE:
        return 0
    if trump >= 0:
        best = _best_of_suit(trick, trump, aces_low)
        if best >= 0:
            return best
    if rules.unled_joker == "beats_plain":
        for index, card in enumerate(trick):
            if card >= JOKER_BASE:
                return index
    return _best_of_suit(trick, trick[0] // 13, aces_low)


def _best_of_suit(trick: Sequence[int], suit: int, aces_low: bool) -> int:
    best, best_strength = -1, -2
    for index, card in enumerate(trick):
        if card < JOKER_BASE and card // 13 == suit:
            strength = card_strength(card, aces_low)
            if strength > best_strength:
                best, best_strength = index, strength
    return best
