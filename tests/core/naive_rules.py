"""An obviously correct, literal reading of the play rules, to check the engine against.

Written from rules.md (6.1 to 6.5, clarifications 3, 9 and 10) and docs/decisions.md
(18, 19, 39), not from ``esmakker.core.trickplay``: it loops over the cards of the
hand and keeps those each rule allows, one rule at a time, with card objects and
sets instead of masks. It is slow on purpose; only tests use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from esmakker.core.cards import Card, Suit
from esmakker.core.rules import RuleSet
from esmakker.core.state import State
from esmakker.core.view import observe


@dataclass(frozen=True, slots=True)
class PlayFacts:
    """What the legal cards of the seat to act depend on, besides the rule set."""

    hand: frozenset[Card]
    trick: tuple[Card, ...]
    """The cards played to the trick so far, the lead first."""
    first_trick: bool
    trump: Suit | None
    called: Card | None
    bound: bool
    """Whether the player is bound to the called card (6.5, clarification 3)."""


def facts_of(state: State) -> PlayFacts:
    """Read the facts from the public state (the spectator's view of the contract)."""
    seat = state.to_act
    contract = observe(state, None).contract
    assert seat is not None
    assert contract is not None
    hand = frozenset(state.hands[seat])
    called = contract.called
    return PlayFacts(
        hand=hand,
        trick=state.current_trick,
        first_trick=not state.tricks,
        trump=contract.trump,
        called=called,
        bound=called is not None and called in hand and _bound_holder(state, seat, called),
    )


def _bound_holder(state: State, seat: int, called: Card) -> bool:
    """Clarification 3: the partner as dealt, or a declarer holding the card (alone)."""
    dealt_hands = state.dealt[0]
    contract = observe(state, None).contract
    assert contract is not None
    return called in dealt_hands[seat] or seat == contract.declarer


def legal_cards(facts: PlayFacts, rules: RuleSet) -> set[Card]:
    """Return the cards the player may play, by rules.md 6.1-6.5 read literally."""
    if not facts.trick:
        return _lead_cards(facts, rules)
    if facts.bound and _called_suit_led(facts):
        assert facts.called is not None
        return {facts.called}  # 6.5: played the first time its suit is led
    allowed = _follow_cards(facts, rules)
    if facts.bound and not rules.called_ace_may_be_discarded and _would_throw_away(facts, rules):
        others = {card for card in allowed if card != facts.called}
        if others:
            allowed = others
    return allowed


def _lead_cards(facts: PlayFacts, rules: RuleSet) -> set[Card]:
    # 6.1: the first card of the hand may not be a joker (unless the hand is all jokers).
    no_joker = (
        facts.first_trick
        and rules.no_joker_lead_trick1
        and any(not card.is_joker for card in facts.hand)
    )
    allowed = set()
    for card in facts.hand:
        if no_joker and card.is_joker:
            continue
        # 6.5 with called_ace_forced_on_own_lead: the holder who leads the called suit
        # leads the called card itself.
        if (
            facts.bound
            and rules.called_ace_forced_on_own_lead
            and facts.called is not None
            and card.suit == facts.called.suit
            and card != facts.called
        ):
            continue
        allowed.add(card)
    return allowed


def suit_to_follow(trick: Sequence[Card], rules: RuleSet) -> Suit | None:
    """Return the suit others must follow, or ``None`` when any card may be played (6.2, 6.3)."""
    lead = trick[0]
    if not lead.is_joker:
        return lead.suit
    if rules.after_joker_lead == "free":
        return None
    for card in trick[1:]:
        if not card.is_joker:
            return card.suit
    return None


def _follow_cards(facts: PlayFacts, rules: RuleSet) -> set[Card]:
    suit = suit_to_follow(facts.trick, rules)
    can_follow = suit is not None and any(card.suit == suit for card in facts.hand)
    allowed = set()
    for card in facts.hand:
        if not can_follow:
            allowed.add(card)  # 6.2: void (or nothing to follow): any card
        elif card.suit == suit:
            allowed.add(card)  # 6.2: follow suit
        elif card.is_joker and not rules.joker_only_when_void:
            allowed.add(card)  # 6.3: a joker even when able to follow, where allowed
    return allowed


def _called_suit_led(facts: PlayFacts) -> bool:
    """Decision 18: the duty triggers on a real lead (not a joker) of the called suit."""
    lead = facts.trick[0]
    return facts.called is not None and not lead.is_joker and lead.suit == facts.called.suit


def _would_throw_away(facts: PlayFacts, rules: RuleSet) -> bool:
    """Decisions 19 and 39: the called card played to a trick of another suit is thrown away.

    A trick led by a joker has no suit until a card sets one (decision 39); when
    the called suit is trumps, playing the card is a ruff, not a discard.
    """
    called = facts.called
    if called is None or called.suit == facts.trump:
        return False
    return suit_to_follow(facts.trick, rules) != called.suit


def trick_winner(cards: Sequence[Card], trump: Suit | None, nolo: bool, rules: RuleSet) -> int:
    """Return the index of the winning card by the algorithm of 6.4 (clarification 9).

    A led joker wins; else the highest trump; else, where unled jokers beat plain
    cards, the first joker; else the highest card of the led suit. Aces are low in
    nolo contracts where the rules say so.
    """
    if cards[0].is_joker:
        return 0
    trumps = _indices(cards, lambda card: trump is not None and card.suit == trump)
    if trumps:
        return _highest(cards, trumps, nolo and rules.nolo_aces_low)
    if rules.unled_joker == "beats_plain":
        jokers = _indices(cards, lambda card: card.is_joker)
        if jokers:
            return jokers[0]
    led = _indices(cards, lambda card: card.suit == cards[0].suit)
    return _highest(cards, led, nolo and rules.nolo_aces_low)


def _indices(cards: Sequence[Card], keep: Callable[[Card], bool]) -> list[int]:
    return [index for index, card in enumerate(cards) if keep(card)]


def _highest(cards: Sequence[Card], indices: Iterable[int], aces_low: bool) -> int:
    def strength(index: int) -> int:
        rank = cards[index].rank
        assert rank is not None
        return 1 if aces_low and rank == 14 else rank

    return max(indices, key=strength)
