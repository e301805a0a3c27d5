"""Calling the partner card: the ace, or the king (and lower) cascade (rules.md 5.2)."""

from __future__ import annotations

from esmakker.core.cards import SUIT_MASKS, Card, Suit, card_of
from esmakker.core.rules import RuleSet

_RANKS = {"A": 14, "K": 13, "Q": 12, "J": 11}


def candidate_suits(trump: int | None, *, trump_allowed: bool) -> tuple[Suit, ...]:
    """Return the suits whose card may be called.

    ``trump`` is -1 for no trumps and ``None`` when it is not known yet (vip before
    the turn, halve); the called suit is a side suit unless ``trump_allowed``.
    """
    if trump is None or trump < 0 or trump_allowed:
        return tuple(Suit)
    return tuple(s for s in Suit if s != trump)


def legal_calls(hand: int, suits: tuple[Suit, ...], rules: RuleSet) -> tuple[Card, ...]:
    """Return the cards the declarer may call with ``hand`` (R5.2).

    The declarer calls an ace he does not hold. Holding every callable ace (or,
    with ``king_call_trigger = all_four_aces``, all four aces) moves the call to
    the kings, and so on down ``partner_card_cascade``. When no step of the cascade
    triggers, or the cascade runs out, he calls one of his own cards and plays alone.
    ``may_call_own_ace`` also lets him call his own ace on purpose.
    """
    own_aces = tuple(card_of(s, 14) for s in suits if hand >> card_of(s, 14) & 1)
    for letter in rules.partner_card_cascade:
        rank = _RANKS[letter]
        cards = [card_of(s, rank) for s in suits]
        missing = tuple(c for c in cards if not hand >> c & 1)
        if missing:
            extra = own_aces if rules.may_call_own_ace else ()
            return tuple(sorted(set(missing) | set(extra)))
        if not _cascade_triggers(hand, rank, rules):
            return tuple(cards)
    return tuple(card_of(s, _RANKS[rules.partner_card_cascade[-1]]) for s in suits)


def _cascade_triggers(hand: int, rank: int, rules: RuleSet) -> bool:
    if rank == 14 and rules.king_call_trigger == "all_four_aces":
        return all(hand >> card_of(s, 14) & 1 for s in Suit)
    return True


def suit_mask(card: int) -> int:
    """Return the mask of the called card's suit."""
    return SUIT_MASKS[card // 13]
