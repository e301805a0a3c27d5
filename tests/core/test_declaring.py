"""Between auction and play: trumps, the called card, vip (rules.md 5.1-5.3, clarifications 2, 7, 12).

Dealer N; E (forehand) wins the auction with the contract under test and the others
pass. Unless a test names them, the aces lie E: HA, N: CA, S: DA, W: SA.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from diagrams import assert_alone, assert_pair, play_out, reject, step, table, texts
from esmakker.core.actions import ACCEPT, TURN, CallCard, NameTrump
from esmakker.core.cards import Card, Suit
from esmakker.core.errors import Reason, RulesConfigError
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State
from support import rules

ACES = {"E": "HA", "N": "CA", "S": "DA", "W": "SA"}


def won(
    ruleset: RuleSet,
    contract: str,
    hands: Mapping[str, str] | None = None,
    kitty: str | None = None,
) -> State:
    """Return the deal after E bids ``contract`` and S, W, N pass."""
    state = table(ruleset, ACES if hands is None else hands, kitty=kitty)
    return step(state, f"E bid {contract}", "S pass", "W pass", "N pass")


def calls(state: State) -> set[str]:
    """Return the cards the declarer may call."""
    return {a.card.name for a in state.legal_actions() if isinstance(a, CallCard)}


def trumps(state: State) -> list[str]:
    """Return the trump suits the seat to act may name."""
    return [a.suit.name for a in state.legal_actions() if isinstance(a, NameTrump)]


def trump_of(state: State) -> Suit | None:
    """Play the deal out and return its trump suit (``None`` for no trumps)."""
    return play_out(state).trump


# --- 5.1 the order of the steps per contract ------------------------------------------------


def test_r5_1_plain_declarer_names_trump_then_calls_then_exchanges() -> None:
    state = won(rules(), "8")
    assert (state.phase, state.to_act) == (Phase.TRUMP, Seat.E)
    state = step(state, "E trump S")
    assert (state.phase, state.to_act) == (Phase.CALL, Seat.E)
    state = step(state, "E call DA")
    assert (state.phase, state.to_act) == (Phase.EXCHANGE, Seat.E)
    result = play_out(state)
    assert (result.trump, result.called, result.partner) == (Suit.S, Card.DA, Seat.S)


@pytest.mark.parametrize(
    ("preset", "contract", "trump", "callable_aces"),
    [
        ("wikipedia", "8 gode", Suit.C, {"SA", "DA"}),
        ("hjerteres", "8 staerke", Suit.S, {"DA", "CA"}),
        ("hilmarshelte", "8 sans", None, {"SA", "DA", "CA"}),
    ],
)
def test_r5_1_fixed_trump_contracts_call_then_exchange(
    preset: str, contract: str, trump: Suit | None, callable_aces: set[str]
) -> None:
    state = won(rules(preset), contract)
    assert (state.phase, state.to_act) == (Phase.CALL, Seat.E)
    assert calls(state) == callable_aces
    state = step(state, "E call DA")
    assert (state.phase, state.to_act) == (Phase.EXCHANGE, Seat.E)
    result = play_out(state)
    assert result.trump == trump
    assert result.partner == Seat.S


def test_r5_1_vip_calls_then_turns_then_exchanges() -> None:
    state = won(rules(), "8 vip", kitty="H7 CJ D4")
    assert (state.phase, state.to_act) == (Phase.CALL, Seat.E)
    state = step(state, "E call DA")
    assert (state.phase, state.to_act) == (Phase.VIP, Seat.E)
    assert state.legal_actions() == (TURN,)
    state = step(state, "E turn", "E accept")
    assert (state.phase, state.to_act) == (Phase.EXCHANGE, Seat.E)
    assert trump_of(state) == Suit.H


def test_r5_1_vip_call_before_turn_false_turns_then_calls() -> None:
    ruleset = rules(vip_call_before_turn=False)
    state = won(ruleset, "8 vip", kitty="H7 CJ D4")
    assert (state.phase, state.to_act) == (Phase.VIP, Seat.E)
    state = step(state, "E turn", "E accept")
    assert (state.phase, state.to_act) == (Phase.CALL, Seat.E)
    state = step(state, "E call DA")
    assert (state.phase, state.to_act) == (Phase.EXCHANGE, Seat.E)


def test_r5_1_halve_declarer_calls_then_partner_names_trump_then_exchange() -> None:
    state = won(rules(), "8 halve", {"E": "DA", "N": "CA", "S": "SA", "W": "HA"})
    assert (state.phase, state.to_act) == (Phase.CALL, Seat.E)
    state = step(state, "E call HA")
    assert (state.phase, state.to_act) == (Phase.TRUMP, Seat.W)
    state = step(state, "W trump S")
    assert state.phase is Phase.EXCHANGE
    result = play_out(state)
    assert (result.trump, result.partner) == (Suit.S, Seat.W)


@pytest.mark.parametrize("contract", ["sol", "ren_sol", "bordlaegger", "ren_bordlaegger"])
def test_r5_1_nolo_has_no_trump_and_no_call(contract: str) -> None:
    state = won(rules(), contract)
    assert (state.phase, state.to_act) == (Phase.EXCHANGE, Seat.E)
    result = play_out(state)
    assert (result.trump, result.called, result.partner) == (None, None, None)


def test_r5_1_nolo_without_exchange_goes_straight_to_play() -> None:
    state = won(rules(nolo_exchange=False), "sol")
    assert (state.phase, state.to_act) == (Phase.PLAY, Seat.E)


# --- 5.3.1 plain trumps --------------------------------------------------------------------


def test_r5_3_1_plain_declarer_names_any_suit() -> None:
    state = won(rules(), "8")
    assert trumps(state) == ["S", "H", "D", "C"]
    reject(state, "W trump S", Reason.NOT_YOUR_TURN)
    result = play_out(step(state, "E trump C"))
    assert result.trump == Suit.C
    assert result.contract is not None
    assert str(result.contract) == "8", "plain clubs stays a plain contract"


@pytest.mark.parametrize("preset", ["wikipedia", "hilmarshelte"])
def test_r5_3_1_plain_clubs_allowed_false(preset: str) -> None:
    state = won(rules(preset, plain_clubs_allowed=False), "8")
    assert trumps(state) == ["S", "H", "D"]
    error = reject(state, "E trump C", Reason.TRUMP_NOT_ALLOWED)
    assert "plain_clubs_allowed" in str(error)
    assert "gode" in str(error)


# --- 5.2 calling the partner card ------------------------------------------------------------


def test_r5_2_call_an_ace_not_held_in_a_side_suit() -> None:
    state = step(won(rules(), "8"), "E trump S")
    assert calls(state) == {"DA", "CA"}
    error = reject(state, "E call SA", Reason.CALL_NOT_ALLOWED)
    assert "R5.2" in str(error)
    reject(state, "E call HA", Reason.CALL_NOT_ALLOWED)
    reject(state, "E call DK", Reason.CALL_NOT_ALLOWED)


def test_r5_2_the_partner_is_the_holder_of_the_called_ace() -> None:
    result = play_out(step(won(rules(), "8"), "E trump S", "E call CA"))
    assert result.called == Card.CA
    assert_pair(result, "E", "N")


def test_r5_2_may_call_own_ace() -> None:
    state = step(won(rules(may_call_own_ace=True), "8"), "E trump S")
    assert calls(state) == {"HA", "DA", "CA"}
    result = play_out(step(state, "E call HA"))
    assert result.called == Card.HA
    assert_alone(result, "E")


KING_HANDS = {"E": "HA DA CA", "W": "SA HK", "N": "DK", "S": "CK"}


def test_r5_2_king_call_when_all_side_aces_are_held() -> None:
    state = step(won(rules(), "8", KING_HANDS), "E trump S")
    assert calls(state) == {"HK", "DK", "CK"}
    reject(state, "E call HA", Reason.CALL_NOT_ALLOWED)
    result = play_out(step(state, "E call HK"))
    assert result.called == Card.HK
    assert_pair(result, "E", "W")


def test_r5_2_king_call_when_all_four_aces_are_held() -> None:
    hands = {"E": "SA HA DA CA", "W": "HK", "N": "DK", "S": "CK SK"}
    for trigger in ("all_side_aces", "all_four_aces"):
        state = step(won(rules(king_call_trigger=trigger), "8", hands), "E trump S")
        assert calls(state) == {"HK", "DK", "CK"}, trigger


def test_r5_2_king_call_trigger_all_four_aces_without_the_trump_ace() -> None:
    # decisions.md 9: holding every side ace but not the trump ace is no king call;
    # the declarer calls one of his own aces and plays alone.
    state = step(won(rules(king_call_trigger="all_four_aces"), "8", KING_HANDS), "E trump S")
    assert calls(state) == {"HA", "DA", "CA"}
    reject(state, "E call HK", Reason.CALL_NOT_ALLOWED)
    result = play_out(step(state, "E call HA"))
    assert_alone(result, "E")


def test_r5_2_the_call_cascades_to_queens_then_jacks() -> None:
    hands = {"E": "HA DA CA HK DK CK", "W": "SA HQ", "N": "DQ", "S": "CQ"}
    assert calls(step(won(rules(), "8", hands), "E trump S")) == {"HQ", "DQ", "CQ"}
    hands = {"E": "HA DA CA HK DK CK HQ DQ CQ", "W": "SA HJ", "N": "DJ", "S": "CJ"}
    state = step(won(rules(), "8", hands), "E trump S")
    assert calls(state) == {"HJ", "DJ", "CJ"}
    result = play_out(step(state, "E call DJ"))
    assert_pair(result, "E", "N")


def test_r5_2_a_cascade_that_runs_out_calls_an_own_card() -> None:
    # decisions.md 9: every candidate card of every rank held: call one's own, alone.
    hands = {"E": "SA HA DA CA HK DK CK HQ DQ CQ HJ DJ CJ"}
    state = step(won(rules(), "8", hands), "E trump S")
    assert calls(state) == {"HJ", "DJ", "CJ"}
    assert_alone(play_out(step(state, "E call HJ")), "E")


def test_r5_2_partner_card_cascade_ace_king_only() -> None:
    hands = {"E": "HA DA CA HK DK CK", "W": "SA HQ", "N": "DQ", "S": "CQ"}
    ruleset = rules(partner_card_cascade=["A", "K"])
    state = step(won(ruleset, "8", hands), "E trump S")
    assert calls(state) == {"HK", "DK", "CK"}
    assert_alone(play_out(step(state, "E call CK")), "E")


@pytest.mark.parametrize("declarer_takes", [True, False])
def test_r5_2_called_ace_in_the_kitty_means_alone(declarer_takes: bool) -> None:
    # The partnership is fixed by the cards as dealt: whoever picks the ace up later.
    hands = {"E": "HA", "N": "CA", "W": "SA"}
    state = step(won(rules(), "8", hands, kitty="DA C4 X3"), "E trump S")
    assert "DA" in calls(state)
    state = step(state, "E call DA")
    if declarer_takes:
        state = step(state, "E take")
        assert Card.DA in state.hands[Seat.E]
    else:
        state = step(state, "E decline", "S take")
        assert Card.DA in state.hands[Seat.S]
    result = play_out(state)
    assert result.called == Card.DA
    assert_alone(result, "E")


def test_r5_2_partner_fixed_as_dealt() -> None:
    # W holds the called ace as dealt; the kitty goes to S; W stays the partner.
    state = step(won(rules(), "8"), "E trump H", "E call SA", "E decline", "S take")
    assert_pair(play_out(state), "E", "W")


# --- 5.3.2 vip ---------------------------------------------------------------------------------


def test_r5_3_2_vip_ace_called_before_the_turn_may_be_of_any_suit() -> None:
    state = won(rules(), "8 vip", kitty="H7 CJ D4")
    assert calls(state) == {"SA", "DA", "CA"}


def test_r5_3_2_turn_then_accept_or_turn_again() -> None:
    state = step(won(rules(), "8 vip", kitty="H7 CJ D4"), "E call DA")
    assert state.legal_actions() == (TURN,)
    error = reject(state, "E accept", Reason.MUST_TURN)
    assert "R5.3.2" in str(error)
    state = step(state, "E turn")
    assert state.legal_actions() == (ACCEPT, TURN)
    reject(state, "S accept", Reason.NOT_YOUR_TURN)
    state = step(state, "E turn")
    assert state.legal_actions() == (ACCEPT, TURN)
    assert trump_of(step(state, "E accept")) == Suit.C


def test_clarification_2_the_third_turned_card_is_final() -> None:
    state = step(won(rules(), "8 vip", kitty="H7 CJ D4"), "E call DA", "E turn", "E turn", "E turn")
    assert (state.phase, state.to_act) == (Phase.EXCHANGE, Seat.E)
    assert "accept" not in texts(state.legal_actions())
    reject(state, "E accept", Reason.WRONG_PHASE)
    reject(state, "E turn", Reason.WRONG_PHASE)
    assert [str(s) for s in state.history][-3:] == ["E turn", "E turn", "E turn"]
    assert trump_of(state) == Suit.D


def test_decision_13_with_two_jokers_the_second_turned_card_is_final() -> None:
    state = won(rules(num_jokers=2), "8 vip", kitty="H7 D4")
    state = step(state, "E call DA", "E turn")
    assert state.legal_actions() == (ACCEPT, TURN)
    state = step(state, "E turn")
    assert state.phase is Phase.EXCHANGE
    assert trump_of(state) == Suit.D


VIP_CASES: list[tuple[str, str, list[str], dict[str, str | None]]] = [
    # (kitty in turning order, the declarer's vip steps, trump per vip_joker_rule)
    (
        "V1",
        "H7 CJ D4",
        ["turn", "turn", "turn"],
        {"wp": "D", "take_previous": "D", "skip_first": "D"},
    ),
    (
        "V2",
        "H7 CJ X3",
        ["turn", "turn", "turn"],
        {"wp": None, "take_previous": "C", "skip_first": None},
    ),
    ("V3", "X3 S9 H3", ["turn", "accept"], {"wp": None, "take_previous": None}),
    (
        "V4",
        "X1 X2 X3",
        ["turn", "turn", "turn"],
        {"wp": None, "take_previous": None, "skip_first": None},
    ),
    (
        "joker accepted",
        "H7 X3 D4",
        ["turn", "turn", "accept"],
        {"wp": None, "take_previous": "H", "skip_first": None},
    ),
    (
        "joker skipped",
        "X3 S9 H3",
        ["turn", "turn", "accept"],
        {"wp": "S", "take_previous": "S", "skip_first": "S"},
    ),
]


@pytest.mark.parametrize(
    ("kitty", "steps", "rule", "trump"),
    [
        pytest.param(kitty, steps, rule, trump, id=f"{name}-{rule}")
        for name, kitty, steps, by_rule in VIP_CASES
        for rule, trump in by_rule.items()
    ],
)
def test_r7_3_vip_joker_rule(kitty: str, steps: list[str], rule: str, trump: str | None) -> None:
    state = step(won(rules(vip_joker_rule=rule), "8 vip", kitty=kitty), "E call DA")
    state = step(state, *(f"E {s}" for s in steps))
    assert state.phase is Phase.EXCHANGE
    assert trump_of(state) == (None if trump is None else Suit.parse(trump))


def test_r7_3_v3_skip_first_a_joker_turned_first_may_not_be_accepted() -> None:
    state = step(won(rules(vip_joker_rule="skip_first"), "8 vip", kitty="X3 S9 H3"), "E call DA")
    state = step(state, "E turn")
    assert state.legal_actions() == (TURN,)
    error = reject(state, "E accept", Reason.MUST_TURN)
    assert "R5.3.2" in str(error)


def test_clarification_7_tanya_turned_joker_offers_the_previous_suit() -> None:
    state = step(won(rules("tanya"), "8 vip", kitty="H7 X3 D4"), "E call DA", "E turn", "E turn")
    assert state.legal_actions() == (ACCEPT, TURN)
    assert trump_of(step(state, "E accept")) == Suit.H
    # A forced third joker takes the suit of the most recent non-joker card.
    state = step(won(rules("tanya"), "8 vip", kitty="H7 CJ X3"), "E call DA")
    assert trump_of(step(state, "E turn", "E turn", "E turn")) == Suit.C


def test_r7_3_v5_the_turned_trump_may_be_the_called_suit() -> None:
    hands = {"E": "DA", "N": "CA", "S": "SA", "W": "HA"}
    state = step(won(rules(), "8 vip", hands, kitty="H2 CJ D4"), "E call HA", "E turn", "E accept")
    result = play_out(state)
    assert (result.trump, result.called) == (Suit.H, Card.HA)
    assert_pair(result, "E", "W")


def test_vip_trump_may_equal_called_suit_false_excludes_the_trump_ace() -> None:
    hands = {"E": "DA", "N": "CA", "S": "SA", "W": "HA"}
    ruleset = rules(vip_call_before_turn=False, vip_trump_may_equal_called_suit=False)
    state = step(won(ruleset, "8 vip", hands, kitty="H7 CJ D4"), "E turn", "E accept")
    assert state.phase is Phase.CALL
    assert calls(state) == {"SA", "CA"}
    assert "R5.2" in str(reject(state, "E call HA", Reason.CALL_NOT_ALLOWED))


def test_decision_10_vip_trump_may_equal_called_suit_after_the_turn() -> None:
    hands = {"E": "DA", "N": "CA", "S": "SA", "W": "HA"}
    ruleset = rules(vip_call_before_turn=False, vip_trump_may_equal_called_suit=True)
    state = step(won(ruleset, "8 vip", hands, kitty="H7 CJ D4"), "E turn", "E accept")
    assert calls(state) == {"SA", "HA", "CA"}
    result = play_out(step(state, "E call HA"))
    assert (result.trump, result.called) == (Suit.H, Card.HA)


def test_clarification_12_vip_trump_may_not_equal_called_suit_needs_call_after_turn() -> None:
    with pytest.raises(RulesConfigError) as info:
        rules(vip_trump_may_equal_called_suit=False)
    assert "vip_trump_may_equal_called_suit" in str(info.value)
    assert "vip_call_before_turn" in str(info.value)


# --- 5.3.4 halve ---------------------------------------------------------------------------------

HALVE_HANDS = {"E": "DA", "N": "CA", "S": "SA", "W": "HA"}


def test_r5_3_4_the_partner_names_trump_not_the_called_suit() -> None:
    state = step(won(rules(), "8 halve", HALVE_HANDS), "E call HA")
    assert state.to_act == Seat.W
    assert trumps(state) == ["S", "D", "C"]
    error = reject(state, "W trump H", Reason.TRUMP_NOT_ALLOWED)
    assert "R5.3.4" in str(error)
    reject(state, "E trump S", Reason.NOT_YOUR_TURN)
    result = play_out(step(state, "W trump D"))
    assert result.trump == Suit.D
    assert_pair(result, "E", "W")


def test_r5_3_4_halve_ace_call_may_be_of_any_suit() -> None:
    assert calls(won(rules(), "8 halve", HALVE_HANDS)) == {"SA", "HA", "CA"}


def test_r5_3_4_halve_alone_the_declarer_names_trump() -> None:
    hands = {"E": "DA", "N": "CA", "S": "SA"}
    state = step(won(rules(), "8 halve", hands, kitty="HA C4 X3"), "E call HA")
    assert (state.phase, state.to_act) == (Phase.TRUMP, Seat.E)
    assert trumps(state) == ["S", "D", "C"]
    reject(state, "E trump H", Reason.TRUMP_NOT_ALLOWED)
    result = play_out(step(state, "E trump S"))
    assert result.trump == Suit.S
    assert_alone(result, "E")


def test_r5_3_4_halve_king_call_bars_the_kings_suit() -> None:
    hands = {"E": "SA HA DA CA", "W": "HK", "N": "DK", "S": "CK SK"}
    state = won(rules(), "8 halve", hands)
    assert calls(state) == {"SK", "HK", "DK", "CK"}
    state = step(state, "E call HK")
    assert state.to_act == Seat.W
    assert trumps(state) == ["S", "D", "C"]


def test_r5_3_4_halve_partner_may_name_clubs_even_without_plain_clubs() -> None:
    # plain_clubs_allowed concerns plain contracts; the halve partner names any suit
    # but the called one (rules.md 5.3.4, 7.3 example 22).
    state = step(won(rules("hilmarshelte"), "8 halve", HALVE_HANDS), "E call HA")
    assert trumps(state) == ["S", "D", "C"]
    assert trump_of(step(state, "W trump C")) == Suit.C


# --- errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "steps", "illegal", "reason", "rule"),
    [
        ("8", [], "E call DA", Reason.WRONG_PHASE, None),
        ("8", ["E trump S"], "E call SA", Reason.CALL_NOT_ALLOWED, "R5.2"),
        ("8", ["E trump S"], "E trump H", Reason.WRONG_PHASE, None),
        ("8 vip", ["E call DA"], "E accept", Reason.MUST_TURN, "R5.3.2"),
        ("8 halve", ["E call SA"], "W trump S", Reason.TRUMP_NOT_ALLOWED, "R5.3.4"),
        ("8 gode", [], "E call CA", Reason.CALL_NOT_ALLOWED, "R5.2"),
    ],
)
def test_declaring_errors_name_seat_action_and_rule(
    contract: str, steps: list[str], illegal: str, reason: Reason, rule: str | None
) -> None:
    state = step(won(rules(), contract), *steps)
    error = reject(state, illegal, reason)
    if rule is not None:
        assert rule in str(error)


def test_r5_2_a_called_king_in_the_kitty_means_alone() -> None:
    hands = {"E": "HA DA CA DK CK", "W": "SA", "N": "S2"}
    state = step(won(rules(), "8", hands, kitty="HK C4 X3"), "E trump S")
    assert calls(state) == {"HK"}
    result = play_out(step(state, "E call HK"))
    assert result.called == Card.HK
    assert_alone(result, "E")


def test_r5_1_only_the_seat_to_act_has_declaring_actions() -> None:
    state = won(rules(), "8 halve", HALVE_HANDS)
    for seat in (Seat.N, Seat.S, Seat.W):
        assert state.legal_actions_of(seat) == ()
    state = step(state, "E call HA")
    assert state.legal_actions_of(Seat.E) == ()
    assert state.legal_actions_of(Seat.W) == state.legal_actions()
