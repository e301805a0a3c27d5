"""Property tests of the rules engine over every preset and random deals (architecture 4.8).

Each example deals with a random seed and plays the deal with random legal actions,
checking after every step: cards conserved, one seat to act, legal actions apply and
a sample of others is rejected without changing the state, notation round trips.
The legal cards are compared with ``core.naive_rules``, a literal reading of rules.md 6.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.naive_rules import facts_of, legal_cards, trick_winner
from core.random_play import (
    ACTION_SPACE,
    PLAY_OPTIONS,
    PLAY_OVERRIDES,
    PRESETS,
    SEEDS,
    played,
    random_deal,
    random_walk,
)
from esmakker.core.actions import (
    IRON,
    TAKE_ALL,
    Action,
    Play,
    Take,
    format_action,
    parse_action,
)
from esmakker.core.cards import CARDS, Card, CardSet
from esmakker.core.errors import IllegalActionError
from esmakker.core.phase import Phase
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.scoring import nolo_broken, trick_limit
from esmakker.core.seats import SEATS, Seat
from esmakker.core.state import State
from esmakker.core.view import observe
from play_support import auction, decline_all, new_deal, plays
from support import rules, run

# --- invariants after every step --------------------------------------------------------------


def assert_cards_conserved(state: State) -> None:
    """Every card of the deck is in exactly one place."""
    places: Counter[Card] = Counter()
    for hand in state.hands:
        places.update(hand)
    places.update(state.kitty)
    for pile in state.discarded:
        places.update(pile)
    places.update(state.current_trick)
    for trick in state.tricks:
        places.update(trick.cards)
    assert places == Counter(CARDS[: 52 + state.rules.num_jokers])


def assert_one_seat_to_act(state: State) -> None:
    """Exactly one seat acts until the end; others may at most claim iron hand."""
    if state.is_terminal:
        assert state.to_act is None
        assert state.legal_actions() == ()
        assert all(state.legal_actions_of(seat) == () for seat in SEATS)
        return
    assert state.to_act is not None
    assert state.legal_actions()
    assert state.legal_actions_of(state.to_act) == state.legal_actions()
    for seat in SEATS:
        if seat is not state.to_act:
            assert set(state.legal_actions_of(seat)) <= {IRON}


def _fingerprint(state: State) -> tuple[object, ...]:
    return (state.history, state.hands, state.phase, state.kitty, state.to_act, state.tricks)


def assert_legal_apply_and_others_are_rejected(state: State, rng: random.Random) -> None:
    """Every legal action applies; a sample of other actions raises and changes nothing."""
    before = _fingerprint(state)
    legal = state.legal_actions()
    for action in legal:
        assert state.is_legal(action)
        state.apply(action)
    for action in rng.sample(ACTION_SPACE, 8):
        if action in legal or _takes_the_whole_kitty(state, action, legal):
            continue
        assert not state.is_legal(action)
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert _fingerprint(state) == before
    if legal:
        _assert_out_of_turn_rejected(state, rng.choice(legal))
    assert _fingerprint(state) == before


def _assert_out_of_turn_rejected(state: State, action: Action) -> None:
    """The seat to act's action, taken by another seat, is rejected (bar iron claims)."""
    for seat in SEATS:
        if seat is state.to_act or action in state.legal_actions_of(seat):
            continue
        with pytest.raises(IllegalActionError):
            state.apply(action, seat)


def _takes_the_whole_kitty(state: State, action: Action, legal: tuple[Action, ...]) -> bool:
    """Clarification 5: ``take`` may list the whole kitty wherever ``take`` is legal."""
    return isinstance(action, Take) and action.cards == state.kitty and TAKE_ALL in legal


def assert_notation_round_trips(state: State) -> None:
    for action in state.legal_actions():
        assert parse_action(format_action(action)) == action
    for hand in state.hands:
        assert CardSet.parse(str(hand)) == hand


@given(PRESETS, SEEDS)
def test_every_step_keeps_the_invariants(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    for state in random_walk(random_deal(preset, seed), rng):
        assert_cards_conserved(state)
        assert_one_seat_to_act(state)
        assert_legal_apply_and_others_are_rejected(state, rng)
        assert_notation_round_trips(state)
        for step in state.history:
            assert parse_action(format_action(step.action)) == step.action


# --- the end of a deal ------------------------------------------------------------------------


def _nolo_players(state: State) -> tuple[Seat, ...]:
    contract = observe(state, None).contract
    assert contract is not None
    return (contract.declarer, *contract.joiners)


@given(PRESETS, SEEDS, PLAY_OVERRIDES)
def test_a_played_deal_has_its_tricks_and_zero_sum_scores(
    preset: str, seed: int, overrides: dict[str, Any]
) -> None:
    state = played(preset, seed, overrides)
    result = state.result()
    assert result is not None
    assert sum(result.scores) == 0
    if result.outcome == "redeal":
        assert state.tricks == ()
        return
    assert result.contract is not None
    tricks = state.tricks
    assert len(tricks) <= 13
    assert sum(result.tricks) == len(tricks)
    if len(tricks) < 13:  # 6.7: only a nolo stops early, once every nolo player has broken
        assert result.contract.is_nolo
        assert state.rules.stop_when_nolo_broken
        limit = trick_limit(result.contract.kind, state.rules)
        assert all(nolo_broken(result.tricks[p], limit) for p in _nolo_players(state))
    for trick in tricks:
        assert len(trick.cards) == 4
        index = trick_winner(trick.cards, result.trump, result.contract.is_nolo, state.rules)
        assert trick.winner is trick.leader.next(index)
    assert all(trick.leader is before.winner for before, trick in pairwise(tricks))


# --- notation ---------------------------------------------------------------------------------


def test_every_card_and_action_of_the_notation_round_trips() -> None:
    for card in CARDS:
        assert Card.parse(str(card)) == card
    for action in ACTION_SPACE:
        assert parse_action(format_action(action)) == action


@given(st.sets(st.sampled_from(CARDS)))
def test_card_sets_round_trip(cards: set[Card]) -> None:
    cardset = CardSet(cards)
    assert CardSet.parse(str(cardset)) == cardset
    assert set(cardset) == cards


@given(st.sets(st.sampled_from(CARDS), min_size=1, max_size=3))
def test_takes_round_trip(cards: set[Card]) -> None:
    action = Take(CardSet(cards))
    assert parse_action(format_action(action)) == action


# --- legal cards against the naive reading ----------------------------------------------------


def check_legal_cards(preset: str, seed: int, overrides: dict[str, Any]) -> int:
    """Play a random deal, comparing the legal cards with the naive reading; return the count."""
    checked = 0
    for state in random_walk(random_deal(preset, seed, overrides), random.Random(f"walk {seed}")):
        if state.phase is not Phase.PLAY:
            continue
        facts = facts_of(state)
        engine = {a.card for a in state.legal_actions() if isinstance(a, Play)}
        assert engine == legal_cards(facts, state.rules), (overrides, facts)
        checked += 1
    return checked


@given(PRESETS, SEEDS, PLAY_OVERRIDES)
def test_legal_cards_match_the_naive_reading(
    preset: str, seed: int, overrides: dict[str, Any]
) -> None:
    check_legal_cards(preset, seed, overrides)


@pytest.mark.slow
@settings(max_examples=1500)
@given(PRESETS, SEEDS, PLAY_OVERRIDES)
def test_legal_cards_match_the_naive_reading_on_many_deals(
    preset: str, seed: int, overrides: dict[str, Any]
) -> None:
    check_legal_cards(preset, seed, overrides)


def test_the_naive_comparison_covers_thousands_of_play_states() -> None:
    rng = random.Random("coverage")
    checked = 0
    for number in range(80):
        overrides = {key: rng.choice(values) for key, values in PLAY_OPTIONS.items()}
        checked += check_legal_cards(PRESET_NAMES[number % len(PRESET_NAMES)], number, overrides)
    assert checked > 3000


def test_called_card_may_follow_the_suit_a_card_after_a_joker_lead_sets() -> None:
    # E declares 7 in spades calling HA (held by N); E wins trick 1 and leads a joker to
    # trick 2; S's H5 sets hearts. N, bound to HA, follows hearts: by decisions 19 and 39 he
    # throws the card away only on a trick of another suit, so HA and H2 are both legal.
    ruleset = rules(after_joker_lead="next_card_sets_suit", called_ace_may_be_discarded=False)
    hands = {
        "E": "X1 SA CA DA C2 C3 C4 C5 C6 C7 C8 C9 CT",
        "S": "S2 H5 D2 D3 D4 D5 D6 D7 D8 D9 DT DJ DQ",
        "W": "S3 H6 H7 H8 H9 HT HJ HQ HK CJ CQ CK DK",
        "N": "S4 HA H2 H3 H4 S5 S6 S7 S8 S9 ST SJ SQ",
    }
    state = new_deal(ruleset, hands, "SK X2 X3")
    state = decline_all(run(state, [*auction("E", "7"), "E trump S", "E call HA"]))
    state = run(state, plays("E SA S S2 W S3 N S4", "E X1 S H5 W H6"))
    assert state.to_act is Seat.N
    legal = {a.card for a in state.legal_actions() if isinstance(a, Play)}
    assert legal == {Card.HA, Card.H2, Card.H3, Card.H4}
