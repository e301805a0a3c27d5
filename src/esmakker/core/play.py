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
    lead = trick[0]
    if lead >= JOKER_BASE:
        return 0
    power = _POWER[trump, lead // 13, aces_low, rules.unled_joker == "beats_plain"]
    powers = [power[card] for card in trick]
    return powers.index(max(powers))  # the first of equals: the first unled joker


def _power_table(trump: int, led: int, aces_low: bool, jokers_beat_plain: bool) -> tuple[int, ...]:
    """Return every card's power in a trick: trumps over (jokers over) the led suit over the rest.

    Cards that cannot win (other suits, powerless jokers) get 0; cards of the led
    suit 1-14 and trumps 31-44 by rank; jokers 20 when they beat plain cards.
    """
    power = []
    for card in range(JOKER_BASE + 3):
        if card >= JOKER_BASE:
            power.append(_JOKER_POWER if jokers_beat_plain else 0)
        elif card // 13 == trump:
            power.append(_TRUMP_POWER + card_strength(card, aces_low))
        elif card // 13 == led:
            power.append(_LED_POWER + card_strength(card, aces_low))
        else:
            power.append(0)
    return tuple(power)


_LED_POWER, _JOKER_POWER, _TRUMP_POWER = 2, 20, 32
_POWER = {
    (trump, led, aces_low, beats): _power_table(trump, led, aces_low, beats)
    for trump in (NO_TRUMP, 0, 1, 2, 3)
    for led in range(4)
    for aces_low in (False, True)
    for beats in (False, True)
}
