"""The exchange with the kitty (rules.md 5.4, 5.3.2, 5.3.4, clarifications 1, 3 and 5).

Dealer N, so E is forehand and declares; the kitty is D9 C4 X3 unless a test says
otherwise. The hands below name the cards the tests take, discard or call.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from diagrams import assert_alone, play_out, reject, step, table, texts
from esmakker.core.actions import DECLINE, TAKE_ALL, Discard, Take
from esmakker.core.cards import Card, CardSet
from esmakker.core.errors import NotationError, Reason
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State
from support import rules

HANDS = {
    "E": "SK SQ S9 S8 HA H7 DK D5 C9 C5 C2 X1 X2",
    "S": "DA S2 S3",
    "W": "SA H2 H3",
    "N": "CA D2 D3",
}
KITTY = "D9 C4 X3"


def exchange(
    ruleset: RuleSet,
    contract: str = "8",
    declaring: tuple[str, ...] = ("E trump S", "E call DA"),
    hands: Mapping[str, str] = HANDS,
    kitty: str = KITTY,
) -> State:
    """Return the deal at the start of its exchange: E declares ``contract``, the others pass."""
    state = step(table(ruleset, hands, kitty=kitty), f"E bid {contract}", "S pass", "W pass")
    state = step(state, "N pass", *declaring)
    assert state.phase is Phase.EXCHANGE
    return state


def cards(text: str) -> CardSet:
    return CardSet.parse(text)


def discards_of(state: State) -> set[str]:
    """Return the cards the seat to act may lay away."""
    return {a.card.name for a in state.legal_actions() if isinstance(a, Discard)}


# --- X1 whole kitty, passed on (whole_pass_on) --------------------------------------------------


def test_r5_4_whole_pass_on_the_declarer_takes_the_whole_kitty() -> None:
    state = exchange(rules())
    assert state.to_act == Seat.E
    assert state.legal_actions() == (TAKE_ALL, DECLINE)
    state = step(state, "E take")
    assert state.kitty == CardSet()
    assert len(state.hands[Seat.E]) == 16
    assert cards(KITTY).mask & ~state.hands[Seat.E].mask == 0
    assert state.to_act == Seat.E
    assert len(discards_of(state)) == 16
    assert all(isinstance(a, Discard) for a in state.legal_actions())


def test_r5_4_discards_are_laid_away_one_at_a_time() -> None:
    state = step(exchange(rules()), "E take", "E discard X3")
    assert (state.phase, state.to_act, len(state.hands[Seat.E])) == (Phase.EXCHANGE, Seat.E, 15)
    state = step(state, "E discard C2")
    assert (state.phase, state.to_act, len(state.hands[Seat.E])) == (Phase.EXCHANGE, Seat.E, 14)
    state = step(state, "E discard D9")
    assert (state.phase, state.to_act) == (Phase.PLAY, Seat.E)
    assert state.hands[Seat.E] == cards("SK SQ S9 S8 HA H7 DK D5 C9 C5 C4 X1 X2")
    assert state.discarded[Seat.E] == cards("X3 C2 D9")
    assert [str(s) for s in state.history][-4:] == [
        "E take",
        "E discard X3",
        "E discard C2",
        "E discard D9",
    ]


def test_r5_4_what_may_not_happen_while_discards_are_owed() -> None:
    state = step(exchange(rules()), "E take", "E discard X3")
    assert "R5.4" in str(reject(state, "E decline", Reason.MUST_DISCARD))
    reject(state, "E take", Reason.MUST_DISCARD)
    reject(state, "E discard X3", Reason.CARD_NOT_IN_HAND)
    reject(state, "E discard SA", Reason.CARD_NOT_IN_HAND)
    reject(state, "S discard S2", Reason.NOT_YOUR_TURN)
    reject(state, "E play C2", Reason.WRONG_PHASE)


def test_r5_4_a_discard_names_one_card() -> None:
    state = step(exchange(rules()), "E take")
    with pytest.raises(NotationError):
        step(state, "E discard C2 C5")


def test_num_jokers_2_a_kitty_of_two_is_exchanged() -> None:
    state = exchange(rules(num_jokers=2), kitty="D9 C4")
    state = step(state, "E take", "E discard C2")
    assert state.phase is Phase.EXCHANGE
    state = step(state, "E discard C5")
    assert state.phase is Phase.PLAY
    state = exchange(rules("hilmarshelte", num_jokers=2), kitty="D9 C4")
    assert set(texts(state.legal_actions())) == {"take", "take D9", "take C4", "decline"}


def test_r5_4_no_discard_before_a_take() -> None:
    state = exchange(rules())
    assert "discard" not in " ".join(texts(state.legal_actions()))
    reject(state, "E discard C2", Reason.NOT_ALLOWED_BY_RULES)


def test_r5_4_whole_pass_on_a_declined_kitty_passes_on_clockwise() -> None:
    state = exchange(rules())
    for seat in ("S", "W", "N"):
        state = step(state, f"{state.to_act} decline")
        assert state.to_act == Seat.parse(seat)
        assert state.legal_actions() == (TAKE_ALL, DECLINE)
        assert state.phase is Phase.EXCHANGE
    state = step(state, "N decline")
    assert (state.phase, state.to_act) == (Phase.PLAY, Seat.E)
    assert state.kitty == cards(KITTY)
    assert not any(state.discarded)


def test_r5_4_whole_pass_on_the_first_taker_ends_the_exchange() -> None:
    state = step(exchange(rules()), "E decline", "S decline", "W take")
    assert state.to_act == Seat.W
    state = step(state, "W discard H2", "W discard H3", "W discard X3")
    assert (state.phase, state.to_act) == (Phase.PLAY, Seat.E)
    assert state.discarded[Seat.W] == cards("H2 H3 X3")


@pytest.mark.parametrize("model", ["whole_pass_on", "whole_declarer_only"])
def test_r5_4_whole_kitty_models_reject_a_partial_take(model: str) -> None:
    state = exchange(rules(exchange_model=model))
    assert [a for a in state.legal_actions() if isinstance(a, Take)] == [TAKE_ALL]
    for text in ("E take D9", "E take D9 C4"):
        error = reject(state, text, Reason.NOT_ALLOWED_BY_RULES)
        assert "exchange_model" in str(error)


@pytest.mark.parametrize(
    "model", ["whole_pass_on", "partial_pass_remainder", "whole_declarer_only"]
)
@pytest.mark.parametrize("listing", ["D9 C4 X3", "X3 D9 C4"])
def test_clarification_5_take_may_list_the_whole_kitty(model: str, listing: str) -> None:
    state = step(exchange(rules(exchange_model=model)), f"E take {listing}")
    assert str(state.history[-1]) == "E take"
    assert state.kitty == CardSet()
    assert len(state.hands[Seat.E]) == 16


# --- X3 whole kitty, declarer only --------------------------------------------------------------


def test_r5_4_whole_declarer_only_a_declined_kitty_is_not_passed_on() -> None:
    state = exchange(rules(exchange_model="whole_declarer_only"))
    assert state.legal_actions() == (TAKE_ALL, DECLINE)
    state = step(state, "E decline")
    assert (state.phase, state.to_act) == (Phase.PLAY, Seat.E)
    assert state.kitty == cards(KITTY)


def test_r5_4_whole_declarer_only_take() -> None:
    state = step(exchange(rules(exchange_model="whole_declarer_only")), "E take")
    state = step(state, "E discard C2", "E discard C5", "E discard C9")
    assert state.phase is Phase.PLAY


# --- X2 partial, remainder passed on --------------------------------------------------------------


def test_r5_4_partial_pass_remainder() -> None:
    state = exchange(rules("hilmarshelte"))
    assert set(texts(state.legal_actions())) == {
        "take",
        "take D9 C4",
        "take D9 X3",
        "take C4 X3",
        "take D9",
        "take C4",
        "take X3",
        "decline",
    }
    state = step(state, "E take C4")
    assert state.kitty == cards("D9 X3")
    assert discards_of(state) == {c.name for c in state.hands[Seat.E]}
    state = step(state, "E discard C2")
    # The two cards E left go on to S, who may take some of them.
    assert (state.to_act, state.kitty) == (Seat.S, cards("D9 X3"))
    assert set(texts(state.legal_actions())) == {"take", "take D9", "take X3", "decline"}
    reject(state, "S take C4", Reason.CARD_NOT_IN_KITTY)
    state = step(state, "S take X3", "S discard S2")
    assert (state.to_act, state.kitty) == (Seat.W, cards("D9"))
    assert state.legal_actions() == (TAKE_ALL, DECLINE)
    state = step(state, "W decline")
    assert state.to_act == Seat.N
    state = step(state, "N take D9", "N discard D2")
    assert (state.phase, state.to_act) == (Phase.PLAY, Seat.E)
    assert state.kitty == CardSet()
    assert state.discarded == (cards("D2"), cards("C2"), cards("S2"), CardSet())
    assert [len(h) for h in state.hands] == [13, 13, 13, 13]


def test_r5_4_partial_taking_the_rest_ends_the_exchange() -> None:
    state = step(exchange(rules("hilmarshelte")), "E take D9 C4", "E discard C2", "E discard C5")
    assert state.to_act == Seat.S
    state = step(state, "S take", "S discard S2")
    assert state.phase is Phase.PLAY


def test_r5_4_partial_cards_nobody_takes_stay_in_the_kitty() -> None:
    state = step(exchange(rules("hilmarshelte")), "E decline", "S decline", "W decline")
    state = step(state, "N take X3", "N discard D2")
    assert state.phase is Phase.PLAY
    assert state.kitty == cards("D9 C4")


def test_r5_4_partial_take_of_a_card_not_in_the_kitty() -> None:
    state = exchange(rules("hilmarshelte"))
    reject(state, "E take HA", Reason.CARD_NOT_IN_KITTY)
    reject(state, "E take D9 HA", Reason.CARD_NOT_IN_KITTY)


# --- vip (5.3.2) -------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["wikipedia", "hilmarshelte"])
def test_vip_exchange_mandatory_whole(preset: str) -> None:
    state = exchange(rules(preset), "8 vip", ("E call DA", "E turn", "E accept"))
    assert state.legal_actions() == (TAKE_ALL,)
    error = reject(state, "E decline", Reason.MUST_TAKE)
    assert "R5.3.2" in str(error)
    reject(state, "E take D9", Reason.NOT_ALLOWED_BY_RULES)
    state = step(state, "E take", "E discard C2", "E discard C5", "E discard C9")
    assert state.phase is Phase.PLAY


def test_vip_exchange_optional_a_declined_kitty_passes_on() -> None:
    state = exchange(
        rules(vip_exchange="optional"), "8 vip", ("E call DA", "E turn", "E turn", "E turn")
    )
    assert state.legal_actions() == (TAKE_ALL, DECLINE)
    state = step(state, "E decline")
    assert (state.phase, state.to_act) == (Phase.EXCHANGE, Seat.S)


def test_vip_exchange_optional_under_partial_exchange() -> None:
    ruleset = rules("hilmarshelte", vip_exchange="optional")
    state = exchange(ruleset, "8 vip", ("E call DA", "E turn", "E accept"))
    assert "take D9" in texts(state.legal_actions())
    state = step(state, "E take D9", "E discard C2")
    assert (state.to_act, state.kitty) == (Seat.S, cards("C4 X3"))


# --- halve (5.3.4) ---------------------------------------------------------------------------------

HALVE = ("E call SA", "W trump H")


def test_halve_exchanger_declarer() -> None:
    state = exchange(rules(), "8 halve", HALVE)
    assert state.to_act == Seat.E
    state = step(state, "E decline")
    assert state.to_act == Seat.S


@pytest.mark.parametrize(
    "ruleset",
    [rules("tanya"), rules("hilmarshelte"), rules(halve_exchanger="partner")],
    ids=["tanya", "hilmarshelte", "wikipedia+partner"],
)
def test_halve_exchanger_partner(ruleset: RuleSet) -> None:
    state = exchange(ruleset, "8 halve", HALVE)
    assert state.to_act == Seat.W
    state = step(state, "W take", "W discard H2", "W discard H3", "W discard D9")
    assert state.phase is Phase.PLAY
    assert state.discarded[Seat.W] == cards("H2 H3 D9")


def test_halve_exchanger_partner_passes_on_clockwise_from_the_partner() -> None:
    state = exchange(rules("tanya"), "8 halve", HALVE)
    order = [state.to_act]
    while state.phase is Phase.EXCHANGE:
        state = step(state, f"{state.to_act} decline")
        order.append(state.to_act)
    assert order == [Seat.W, Seat.N, Seat.E, Seat.S, Seat.E]
    assert state.phase is Phase.PLAY


def test_halve_exchanger_partner_alone_the_declarer_exchanges() -> None:
    hands = {"E": HANDS["E"], "S": "DA S2 S3", "W": "D9 H2 H3", "N": "CA D2 D3"}
    state = exchange(rules("tanya"), "8 halve", ("E call SA", "E trump H"), hands, "SA C4 X3")
    assert state.to_act == Seat.E


def test_halve_exchanger_partner_with_whole_declarer_only() -> None:
    state = exchange(rules("tanya", exchange_model="whole_declarer_only"), "8 halve", HALVE)
    assert state.to_act == Seat.W
    state = step(state, "W decline")
    assert state.phase is Phase.PLAY


# --- nolo (clarification 1) ----------------------------------------------------------------------


def test_nolo_exchange_false() -> None:
    state = step(table(rules(nolo_exchange=False), HANDS), "E bid sol", "S pass", "W pass")
    state = step(state, "N pass")
    assert (state.phase, state.to_act) == (Phase.PLAY, Seat.E)
    assert state.kitty == cards(KITTY)


@pytest.mark.parametrize("preset", ["wikipedia", "osterbro", "tanya", "hilmarshelte"])
def test_clarification_1_nolo_a_declined_kitty_is_not_passed_on(preset: str) -> None:
    state = exchange(rules(preset), "sol", ())
    assert state.to_act == Seat.E
    state = step(state, "E decline")
    assert (state.phase, state.to_act) == (Phase.PLAY, Seat.E)


def test_clarification_1_nolo_a_partial_remainder_is_not_passed_on() -> None:
    state = step(exchange(rules("hilmarshelte"), "sol", ()), "E take X3", "E discard C9")
    assert state.phase is Phase.PLAY
    assert state.kitty == cards("D9 C4")


def test_clarification_1_gaa_med_the_last_joiner_exchanges_first() -> None:
    state = step(table(rules("kortdrengene"), HANDS), "E bid sol", "S join", "W join", "N pass")
    assert (state.phase, state.to_act) == (Phase.EXCHANGE, Seat.W)
    state = step(state, "W decline")
    assert state.to_act == Seat.S
    state = step(state, "S decline")
    assert state.to_act == Seat.E
    state = step(state, "E decline")
    assert (state.phase, state.to_act) == (Phase.PLAY, Seat.E)


def test_clarification_1_gaa_med_partial_remainder_goes_back_towards_the_declarer() -> None:
    state = step(table(rules("hilmarshelte"), HANDS), "E bid sol", "S join", "W join", "N pass")
    assert state.to_act == Seat.W
    state = step(state, "W take D9", "W discard SA")
    assert (state.to_act, state.kitty) == (Seat.S, cards("C4 X3"))
    state = step(state, "S take C4", "S discard DA")
    assert (state.to_act, state.kitty) == (Seat.E, cards("X3"))
    state = step(state, "E decline")
    assert state.phase is Phase.PLAY
    assert Seat.N not in [s.seat for s in state.history[4:]], "a defender never exchanges"


def test_decision_16_whole_declarer_only_with_gaa_med() -> None:
    ruleset = rules("kortdrengene", exchange_model="whole_declarer_only")
    state = step(table(ruleset, HANDS), "E bid sol", "S join", "W pass", "N pass")
    assert state.to_act == Seat.E
    assert step(state, "E decline").phase is Phase.PLAY


# --- the called card in the exchange (clarification 3, decisions.md 14) -------------------------------


def test_decision_14_the_partner_as_dealt_may_not_lay_away_the_called_ace() -> None:
    state = step(exchange(rules()), "E decline", "S take")
    assert "DA" not in discards_of(state)
    error = reject(state, "S discard DA", Reason.CALLED_CARD_MAY_NOT_BE_DISCARDED)
    assert "called card" in str(error)


def test_decision_14_the_declarer_who_took_the_called_ace_keeps_it() -> None:
    hands = {"E": HANDS["E"], "S": "D9 S2 S3", "W": "SA H2 H3", "N": "CA D2 D3"}
    state = exchange(rules(), "8", ("E trump S", "E call DA"), hands, "DA C4 X3")
    state = step(state, "E take")
    assert "DA" not in discards_of(state)
    reject(state, "E discard DA", Reason.CALLED_CARD_MAY_NOT_BE_DISCARDED)


def test_clarification_3_a_defender_who_took_the_called_ace_may_lay_it_away() -> None:
    hands = {"E": HANDS["E"], "S": "D9 S2 S3", "W": "SA H2 H3", "N": "CA D2 D3"}
    state = exchange(rules(), "8", ("E trump S", "E call DA"), hands, "DA C4 X3")
    state = step(state, "E decline", "S take")
    assert "DA" in discards_of(state)
    state = step(state, "S discard DA", "S discard S2", "S discard S3")
    assert state.phase is Phase.PLAY
    assert_alone(play_out(state), "E")


# --- errors --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "steps", "illegal", "reason", "rule"),
    [
        ("wikipedia", ["E take"], "E decline", Reason.MUST_DISCARD, "R5.4"),
        ("wikipedia", [], "E take D9", Reason.NOT_ALLOWED_BY_RULES, "R5.4"),
        pytest.param(
            "hilmarshelte",
            [],
            "E take SA",
            Reason.CARD_NOT_IN_KITTY,
            "R5.4",
        ),
        pytest.param(
            "wikipedia",
            [],
            "E discard C2",
            Reason.NOT_ALLOWED_BY_RULES,
            "R5.4",
        ),
        pytest.param(
            "wikipedia",
            ["E take"],
            "E discard SA",
            Reason.CARD_NOT_IN_HAND,
            "R5.4",
        ),
        pytest.param(
            "wikipedia",
            ["E decline"],
            "E take",
            Reason.NOT_YOUR_TURN,
            "R5.4",
        ),
    ],
)
def test_exchange_errors_name_seat_action_and_rule(
    preset: str, steps: list[str], illegal: str, reason: Reason, rule: str
) -> None:
    state = step(exchange(rules(preset)), *steps)
    error = reject(state, illegal, reason)
    assert rule in str(error)


def test_a_rejected_action_leaves_the_state_unchanged() -> None:
    state = step(exchange(rules("hilmarshelte")), "E take D9 C4", "E discard C2", "E discard C5")
    before = (state.history, state.hands, state.kitty, state.discarded, state.to_act)
    for text in (
        "E discard C9",
        "S discard S2",
        "S take C4",
        "S take D9",
        "N take",
        "S play S2",
        "S bid 9",
        "W iron",
    ):
        reject(state, text)
    assert (state.history, state.hands, state.kitty, state.discarded, state.to_act) == before
    assert step(state, "S take X3").hands[Seat.S].mask & Card.X3.bit
