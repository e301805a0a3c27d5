"""The called card: rules.md 6.5, clarifications 3 and 10, trick-play table T7 and T8.

``C_DEAL``: dealer N, E (forehand) is the first opponent O1. S bids 7, names spades
and calls CA; W, who holds CA and C4, is the partner. W is void in diamonds, N is
void in clubs (and can ruff the called ace).
"""

from __future__ import annotations

import pytest

from esmakker.core.actions import Discard, Play
from esmakker.core.cards import Card, Suit
from esmakker.core.errors import IllegalActionError, Reason
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State
from esmakker.core.view import observe
from play_support import auction, decline_all, new_deal, play_out, plays
from support import rules, run

C_DEAL = {
    "N": "ST S9 S8 S7 H5 H4 DT D9 D8 D7 D6 D5 D4",
    "E": "H8 H7 H6 H2 DA DK DQ DJ C7 C6 C5 C3 C2",
    "S": "SA SK SQ SJ H3 D3 D2 CK CQ CJ CT C9 C8",
    "W": "S6 S5 S4 S3 S2 HA HK HQ HJ HT H9 CA C4",
}
C_KITTY = "X1 X2 X3"


def declared(ruleset: RuleSet | None = None) -> State:
    """S: 7 spades calling CA, the kitty declined by everybody."""
    state = new_deal(ruleset or rules(), C_DEAL, C_KITTY)
    state = run(state, [*auction("S", "7"), "S trump S", "S call CA"])
    return decline_all(state)


def _legal(state: State) -> set[str]:
    return {a.card.name for a in state.legal_actions() if isinstance(a, Play)}


def _illegal(state: State, step: str) -> Reason:
    with pytest.raises(IllegalActionError) as info:
        run(state, [step])
    return info.value.reason


def _partner_known_to(state: State, seat: Seat) -> bool:
    contract = observe(state, seat).contract
    assert contract is not None
    return contract.partner_known


# --- 6.5 the duty ---------------------------------------------------------------------


def test_t7_partner_must_play_called_ace_when_its_suit_is_led() -> None:
    state = run(declared(), plays("E C7 S C8"))
    assert state.to_act is Seat.W
    assert _legal(state) == {"CA"}
    assert _illegal(state, "W play C4") is Reason.CALLED_CARD_MUST_BE_PLAYED
    state = run(state, plays("W CA N D4"))
    assert state.tricks[0].winner is Seat.W


def test_r6_5_others_follow_the_called_suit_freely() -> None:
    state = run(declared(), plays("E C7"))
    assert _legal(state) == {"CK", "CQ", "CJ", "CT", "C9", "C8"}


def test_r6_2_revoke_on_called_suit_lead_is_a_follow_suit_error() -> None:
    state = run(declared(), plays("E C7"))
    assert _illegal(state, "S play SA") is Reason.MUST_FOLLOW_SUIT


def test_r6_5_the_called_ace_may_be_trumped() -> None:
    state = run(declared(), plays("E C7 S C8 W CA N ST"))
    assert state.tricks[0].winner is Seat.N


def test_t8_partner_leading_the_suit_must_lead_the_called_ace() -> None:
    state = run(declared(), plays("E H2 S H3 W HA N H4"))
    assert state.to_act is Seat.W
    assert "C4" not in _legal(state)
    assert "CA" in _legal(state)
    assert _illegal(state, "W play C4") is Reason.CALLED_CARD_MUST_BE_LED
    state = run(state, plays("W CA"))
    assert state.current_trick[0].name == "CA"


def test_t8_relaxed_partner_may_lead_low_with_forced_on_own_lead_off() -> None:
    state = declared(rules(called_ace_forced_on_own_lead=False))
    state = run(state, plays("E H2 S H3 W HA N H4"))
    assert {"C4", "CA"} <= _legal(state)
    state = run(state, plays("W C4 N D4 E C7 S CK"))
    assert state.tricks[1].winner is Seat.S
    assert not _partner_known_to(state, Seat.E)


def test_clarification_10_own_low_lead_does_not_discharge_the_duty() -> None:
    state = declared(rules(called_ace_forced_on_own_lead=False))
    state = run(state, plays("E H2 S H3 W HA N H4", "W C4 N D4 E C7 S CK", "S C8"))
    assert state.to_act is Seat.W
    assert _legal(state) == {"CA"}
    assert _illegal(state, "W play S2") is Reason.CALLED_CARD_MUST_BE_PLAYED


def test_r6_5_called_ace_may_be_discarded_when_void() -> None:
    state = run(declared(), plays("E DA S D2"))
    assert state.to_act is Seat.W
    assert "CA" in _legal(state)
    state = run(state, plays("W CA N D4"))
    assert state.tricks[0].winner is Seat.E
    assert _partner_known_to(state, Seat.N)


def test_r6_5_called_ace_may_not_be_discarded_with_option_off() -> None:
    state = run(declared(rules(called_ace_may_be_discarded=False)), plays("E DA S D2"))
    legal = _legal(state)
    assert "CA" not in legal
    assert len(legal) == 12
    assert _illegal(state, "W play CA") is Reason.CALLED_CARD_MAY_NOT_BE_DISCARDED


def test_r6_5_called_ace_may_not_be_discarded_after_a_joker_lead() -> None:
    # Decision 19: on a joker lead (no suit) playing the called card is a discard too.
    hands = dict(C_DEAL, E="H8 H7 H6 H2 DA DK DQ DJ C7 C6 C5 C3 X1")
    state = new_deal(rules(called_ace_may_be_discarded=False), hands, "C2 X2 X3")
    state = decline_all(run(state, [*auction("S", "7"), "S trump S", "S call CA"]))
    state = run(state, plays("E DA S D2 W H9 N D4", "E X1 S D3"))
    assert state.to_act is Seat.W
    assert "CA" not in _legal(state)


def test_r6_5_partner_is_revealed_when_the_called_card_is_played() -> None:
    state = run(declared(), plays("E C7 S C8"))
    assert not _partner_known_to(state, Seat.E)
    assert not _partner_known_to(state, Seat.S)
    assert _partner_known_to(state, Seat.W)
    state = run(state, plays("W CA"))
    for seat in Seat:
        view = observe(state, seat)
        assert view.contract is not None
        assert view.contract.partner_known
        assert view.contract.partner is Seat.W


def test_r6_5_duty_binds_a_declarer_who_called_his_own_ace() -> None:
    # With may_call_own_ace S calls his own SA (hearts trump) and plays alone.
    state = new_deal(rules(may_call_own_ace=True), C_DEAL, C_KITTY)
    state = decline_all(run(state, [*auction("S", "7"), "S trump H", "S call SA"]))
    state = run(state, plays("E H2 S H3 W HA N H4", "W S2 N S7 E DJ"))
    assert state.to_act is Seat.S
    assert _legal(state) == {"SA"}
    assert play_out(state).result() is not None


# --- vip: the called suit turned as trumps -----------------------------------------------

V_DEAL = dict(C_DEAL, E="H8 H7 H6 H2 DA DK DQ DJ C7 C6 C5 C3 X1")
V_KITTY = "C2 X2 X3"


def vip_clubs(ruleset: RuleSet | None = None) -> State:
    """S bids 7 vip, calls CA, accepts the turned C2: clubs are trumps and the called suit."""
    state = new_deal(ruleset or rules(), V_DEAL, V_KITTY)
    steps = [*auction("S", "7 vip"), "S call CA", "S turn", "S accept", "S take"]
    return run(state, [*steps, "S discard D3", "S discard D2", "S discard H3"])


def test_v5_called_ace_in_the_trump_suit_is_legal() -> None:
    state = vip_clubs()
    contract = observe(state, None).contract
    assert contract is not None
    assert contract.trump is Suit.C
    assert contract.called is Card.CA
    assert state.to_act is Seat.E


def test_r6_5_vip_coincidence_first_trump_lead_forces_the_called_ace() -> None:
    state = run(vip_clubs(), plays("E C7 S C8"))
    assert _legal(state) == {"CA"}


def test_r6_5_vip_coincidence_partner_must_lead_the_ace_of_trumps() -> None:
    state = run(vip_clubs(), plays("E H2 S SA W HA N H4"))
    assert state.to_act is Seat.W
    assert "C4" not in _legal(state)
    assert "CA" in _legal(state)


def test_r6_5_vip_coincidence_ruffing_with_the_called_ace_is_no_discard() -> None:
    state = run(vip_clubs(rules(called_ace_may_be_discarded=False)), plays("E DA S SA"))
    assert state.to_act is Seat.W
    assert {"CA", "C4"} <= _legal(state)
    state = run(state, plays("W CA N D4"))
    assert state.tricks[0].winner is Seat.W


# --- clarification 3: the called card taken from the kitty ---------------------------------

K_DEAL = dict(C_DEAL, W="S6 S5 S4 S3 S2 HA HK HQ HJ HT H9 X1 C4")
K_KITTY = "CA X2 X3"


def kitty_call() -> State:
    """S bids 7 spades and calls CA, which lies in the kitty: S plays alone."""
    state = new_deal(rules(), K_DEAL, K_KITTY)
    return run(state, [*auction("S", "7"), "S trump S", "S call CA"])


def test_clarification_3_declarer_who_took_the_called_card_is_bound() -> None:
    state = run(kitty_call(), ["S take"])
    discards = {a.card.name for a in state.legal_actions() if isinstance(a, Discard)}
    assert "CA" not in discards  # decision 14
    assert _illegal(state, "S discard CA") is Reason.CALLED_CARD_MAY_NOT_BE_DISCARDED
    state = run(state, ["S discard D3", "S discard D2", "S discard H3"])
    led = run(state, plays("E C7"))
    assert _legal(led) == {"CA"}
    own_lead = run(state, plays("E H2 S SJ W HA N H4"))
    assert own_lead.to_act is Seat.S
    assert "CK" not in _legal(own_lead)
    assert "CA" in _legal(own_lead)
    result = play_out(own_lead).result()
    assert result is not None
    assert result.partner is None


def test_clarification_3_defender_who_took_the_called_card_is_not_bound() -> None:
    state = run(kitty_call(), ["S decline", "W take"])
    discards = {a.card.name for a in state.legal_actions() if isinstance(a, Discard)}
    assert "CA" in discards
    state = run(state, ["W discard H9", "W discard HT", "W discard HJ"])
    state = decline_all(state)
    state = run(state, plays("E C7 S C8"))
    assert state.to_act is Seat.W
    assert {"CA", "C4"} <= _legal(state)
    state = run(state, plays("W C4"))
    assert state.current_trick[-1].name == "C4"
    result = play_out(state).result()
    assert result is not None
    assert result.partner is None  # 5.4: the partnership does not change


def test_clarification_3_defender_may_lay_the_called_card_away() -> None:
    state = run(kitty_call(), ["S decline", "W take", "W discard CA"])
    assert "CA" in str(state.discarded[Seat.W])


def test_r5_3_4_halve_partner_is_revealed_by_naming_trumps() -> None:
    state = new_deal(rules(), C_DEAL, C_KITTY)
    state = run(state, [*auction("S", "7 halve"), "S call CA"])
    assert state.to_act is Seat.W
    assert not _partner_known_to(state, Seat.E)
    state = run(state, ["W trump H"])
    assert _partner_known_to(state, Seat.E)
    assert _partner_known_to(state, Seat.N)


def test_decision_18_suit_set_after_a_joker_lead_does_not_trigger_the_duty() -> None:
    ruleset = rules(after_joker_lead="next_card_sets_suit")
    state = new_deal(ruleset, V_DEAL, V_KITTY)  # E holds X1, C2 lies in the kitty
    state = decline_all(run(state, [*auction("S", "7"), "S trump S", "S call CA"]))
    state = run(state, plays("E DA S D2 W H9 N D4", "E X1 S C8"))
    assert state.to_act is Seat.W
    assert _legal(state) == {"CA", "C4"}
    state = run(state, plays("W C4"))
    assert not _partner_known_to(state, Seat.E)


def test_r6_5_duty_beats_joker_only_when_void_off() -> None:
    hands = dict(C_DEAL, W="S6 S5 S4 S3 X1 HA HK HQ HJ HT H9 CA C4")
    state = new_deal(rules(joker_only_when_void=False), hands, "S2 X2 X3")
    state = decline_all(run(state, [*auction("S", "7"), "S trump S", "S call CA"]))
    state = run(state, plays("E C7 S C8"))
    assert _legal(state) == {"CA"}
