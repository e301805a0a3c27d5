"""Seat views: what each seat may know (architecture 5.5), and that nothing leaks."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from esmakker.core.actions import CallCard, Discard, Play, Take, parse_action
from esmakker.core.cards import Card, CardSet
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.seats import SEATS, Seat
from esmakker.core.state import State, deal
from esmakker.core.view import HIDDEN, observe
from support import make_state, rules, run

HANDS = {
    "N": "SA SK SQ SJ ST S9 S8 S7 S6 S5 S4 S3 S2",
    "E": "HA HK HQ HJ HT H9 H8 H7 H6 H5 H4 H3 H2",
    "S": "DA DK DQ DJ DT D9 D8 D7 D6 D5 D4 D3 D2",
    "W": "CA CK CQ CJ CT C9 C8 C7 C6 C5 C4 C3 C2",
}


def _mixed_deal(preset: str = "wikipedia", **overrides: object) -> State:
    hands = {
        "N": "SA SK SQ SJ ST HA HK DA DK CA CK CQ X1",
        "E": "S9 S8 S7 HQ HJ HT DQ DJ DT CJ CT C9 C8",
        "S": "S6 S5 S4 H9 H8 H7 D9 D8 D7 C7 C6 C5 C4",
        "W": "S3 S2 H6 H5 H4 H3 H2 D6 D5 D4 D3 D2 C3",
    }
    return make_state(rules(preset, **overrides), "W", hands, "C2 X2 X3")


def test_view_shows_own_hand_only() -> None:
    state = _mixed_deal()
    view = observe(state, Seat.E)
    assert view.hand == state.hands[Seat.E]
    assert view.open_hands[Seat.E] == state.hands[Seat.E]
    assert [h for s, h in enumerate(view.open_hands) if s != Seat.E] == [None, None, None]
    assert view.hand_sizes == (13, 13, 13, 13)


def test_spectator_view_holds_no_hidden_card() -> None:
    state = _mixed_deal()
    view = observe(state, None)
    assert not view.hand
    assert view.open_hands == (None, None, None, None)
    assert not view.kitty_seen
    assert view.legal_actions == ()


def test_legal_actions_only_for_the_seat_to_act() -> None:
    state = _mixed_deal()
    assert observe(state, Seat.N).legal_actions == state.legal_actions()
    assert observe(state, Seat.E).legal_actions == ()


def _declared_plain() -> State:
    # N declares 9 plain, calls HA? N holds HA: calls DA? N holds DA too; CA held: so calls SA? held.
    state = _mixed_deal()
    return run(state, ["N bid 9", "E pass", "S pass", "W pass", "N trump S"])


def test_kitty_cards_are_hidden_until_taken_and_discards_are_censored() -> None:
    state = _declared_plain()
    # N holds every side ace (HA DA CA): the king call applies; E holds none of HK DK CK? N holds HK DK CK.
    call = state.legal_actions()[0]
    assert isinstance(call, CallCard)
    state = state.apply(call)
    assert not observe(state, Seat.E).kitty_seen
    state = run(state, ["N take"])
    assert observe(state, Seat.N).kitty_seen == CardSet.parse("C2 X2 X3")
    assert not observe(state, Seat.E).kitty_seen
    state = run(state, ["N discard C2", "N discard CQ", "N discard CK"])
    assert observe(state, Seat.N).history[-1] == "N discard CK"
    assert observe(state, Seat.E).history[-3:] == (f"N discard {HIDDEN}",) * 3
    assert observe(state, Seat.N).discarded == CardSet.parse("C2 CQ CK")
    assert not observe(state, Seat.E).discarded


def test_vip_turned_cards_are_public() -> None:
    state = run(_mixed_deal(), ["N bid 9 vip", "E pass", "S pass", "W pass", "N call HQ"])
    state = run(state, ["N turn"])
    for seat in (*SEATS, None):
        assert Card.C2 in observe(state, seat).kitty_seen
        assert Card.X2 not in observe(state, seat).kitty_seen


def test_partner_hidden_until_the_called_card_is_played() -> None:
    hands = {
        "N": "SA SK SQ SJ ST HK DA DK CA CK CQ X1 S9",
        "E": "S8 S7 HQ HJ HT DQ DJ DT CJ CT C9 C8 HA",
        "S": "S6 S5 S4 H9 H8 H7 D9 D8 D7 C7 C6 C5 C4",
        "W": "S3 S2 H6 H5 H4 H3 H2 D6 D5 D4 D3 D2 C3",
    }
    state = make_state(rules(), "W", hands, "C2 X2 X3")
    state = run(state, ["N bid 9", "E pass", "S pass", "W pass", "N trump S", "N call HA"])
    state = run(state, ["N decline", "E decline", "S decline", "W decline"])
    for seat, knows in ((Seat.N, False), (Seat.E, True), (Seat.S, False), (Seat.W, False)):
        contract = observe(state, seat).contract
        assert contract is not None
        assert contract.partner_known is knows
        assert contract.partner == (Seat.E if knows else None)
    assert observe(state, None).contract is not None
    state = run(
        state, ["N play CA", "E play C8", "S play C4", "W play C3", "N play HK", "E play HA"]
    )
    for viewer in (*SEATS, None):
        contract = observe(state, viewer).contract
        assert contract is not None
        assert contract.partner_known
        assert contract.partner is Seat.E


def test_bordlaegger_hand_is_laid_open_after_the_first_trick() -> None:
    state = make_state(rules("osterbro"), "W", HANDS, "X1 X2 X3")
    state = run(state, ["N bid bordlaegger", "E pass", "S pass", "W pass", "N decline"])
    assert observe(state, Seat.E).open_hands[Seat.N] is None
    state = run(state, ["N play S2", "E play H2", "S play D2", "W play C2"])
    view = observe(state, Seat.E)
    assert view.open_hands[Seat.N] == state.hands[Seat.N]
    assert observe(state, None).open_hands[Seat.N] == state.hands[Seat.N]
    assert view.open_hands[Seat.S] is None


def _random_prefix(preset: str, seed: int, steps: int) -> State:
    rng = random.Random(seed)
    state = deal(rules(preset), SEATS[seed % 4], rng)
    for _ in range(steps):
        if state.is_terminal:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def _hidden_cards(state: State, seat: Seat) -> list[Card]:
    view = observe(state, seat)
    visible = view.hand.mask | view.kitty_seen.mask | view.discarded.mask
    for hand in view.open_hands:
        visible |= hand.mask if hand is not None else 0
    for trick in state.tricks:
        visible |= CardSet(trick.cards).mask
    visible |= CardSet(state.current_trick).mask
    called = {a.card for _, a in state.history if isinstance(a, CallCard)}
    hands, kitty = state.dealt
    everything = CardSet(kitty).mask
    for hand in hands:
        everything |= hand.mask
    return [c for c in CardSet(everything & ~visible) if c not in called]


def _swap_card(card: Card, a: Card, b: Card) -> Card:
    return b if card == a else a if card == b else card


def _swapped_replay(state: State, a: Card, b: Card) -> State | None:
    hands, kitty = state.dealt
    swapped = [CardSet(_swap_card(c, a, b) for c in hand) for hand in hands]
    other = State.new(state.rules, state.dealer, swapped, tuple(_swap_card(c, a, b) for c in kitty))
    for step in state.history:
        action = step.action
        if isinstance(action, Discard | Play):
            action = type(action)(_swap_card(action.card, a, b))
        elif isinstance(action, Take) and action.cards is not None:
            action = Take(CardSet(_swap_card(c, a, b) for c in action.cards))
        if not other.is_legal(action, step.seat):
            return None
        other = other.apply(action, step.seat)
    return other


@given(
    preset=st.sampled_from(PRESET_NAMES),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 70),
    seat=st.sampled_from(SEATS),
    pick=st.randoms(use_true_random=False),
)
def test_view_unchanged_when_hidden_cards_are_swapped(
    preset: str, seed: int, steps: int, seat: Seat, pick: random.Random
) -> None:
    state = _random_prefix(preset, seed, steps)
    hidden = _hidden_cards(state, seat)
    if len(hidden) < 2:
        return
    a, b = pick.sample(hidden, 2)
    other = _swapped_replay(state, a, b)
    if other is None:
        return
    assert observe(other, seat) == observe(state, seat)


def test_parse_action_of_view_history_round_trips() -> None:
    state = _random_prefix("wikipedia", 3, 40)
    for text in observe(state, Seat.N).history:
        _seat, _, action = text.partition(" ")
        if HIDDEN not in action:
            assert parse_action(action) is not None
