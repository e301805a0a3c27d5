"""Nolo contracts: open hands (6.6), early end (6.7), trick limits (4.2), gå med (clar. 6).

Deals (dealer N, so E is forehand and leads to trick 1):

* ``SUITED``: every hand is one suit (E spades, S hearts, W diamonds, N clubs), the
  jokers in the kitty. Nobody can follow anybody, so whoever leads wins every trick: E
  takes all 13, and a nolo declarer other than E takes none.
* ``ONE``: S takes trick 1 with SK (aces low) and gives up the lead for good with a
  heart to W's HK: S ends with exactly one trick.
* ``SPLIT``: S wins tricks 1 and 2 on diamonds, then W wins tricks 3 and 4 on clubs.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.scoring import is_made
from esmakker.core.seats import Seat
from esmakker.core.state import Result, State
from esmakker.core.view import observe
from play_support import auction, exposed, new_deal, outcome, play_out, plays
from support import rules, run

SUITED = {
    "N": "CA CK CQ CJ CT C9 C8 C7 C6 C5 C4 C3 C2",
    "E": "SA SK SQ SJ ST S9 S8 S7 S6 S5 S4 S3 S2",
    "S": "HA HK HQ HJ HT H9 H8 H7 H6 H5 H4 H3 H2",
    "W": "DA DK DQ DJ DT D9 D8 D7 D6 D5 D4 D3 D2",
}
ONE = {
    "N": "CA CK CQ CJ CT C9 C8 C7 C6 C5 C4 C3 C2",
    "E": "SA SQ SJ ST S9 S8 S7 S6 S5 S4 S3 S2 DA",
    "S": "SK HA HQ HJ HT H9 H8 H7 H6 H5 H4 H3 H2",
    "W": "DK DQ DJ DT D9 D8 D7 D6 D5 D4 D3 D2 HK",
}
ONE_SCRIPT = plays("E S2 S SK W D2 N C2", "S H2 W HK N C3 E S3")
SPLIT = {
    "N": "HA HK HQ HJ HT H9 H8 H7 H6 H5 H4 H3 H2",
    "E": "SA SK SQ SJ ST S9 S8 S7 S6 S5 S4 S3 D2",
    "S": "DA DK DQ DJ DT D9 D8 D7 D6 D5 D4 D3 C2",
    "W": "CA CK CQ CJ CT C9 C8 C7 C6 C5 C4 C3 S2",
}
JOKERS = "X1 X2 X3"
ALL = set(Seat)


def nolo(
    ruleset: RuleSet, hands: dict[str, str], declarer: str, bid: str, joiners: tuple[str, ...] = ()
) -> State:
    """Return the deal after the auction and the (declined) exchange: the first lead is due."""
    state = run(new_deal(ruleset, hands, JOKERS), auction(declarer, bid, joiners=joiners))
    while state.phase is Phase.EXCHANGE:
        state = run(state, [f"{state.to_act} decline"])
    assert state.phase is Phase.PLAY
    return state


def finish(state: State, script: Sequence[str] = ()) -> State:
    """Apply the scripted steps while the deal lasts, then play the rest out."""
    for step in script:
        if state.is_terminal:
            break
        state = run(state, [step])
    return play_out(state)


def result_of(state: State) -> Result:
    result = state.result()
    assert result is not None
    return result


# --- 6.6 open hands ---------------------------------------------------------------------


def _exposure_timeline(state: State) -> list[set[Seat]]:
    """Exposed seats before the lead, after E's lead, after S's card, after tricks 1 and 2."""
    timeline = [exposed(state)]
    for chunk in ("E S2", "S H2", "W D2 N C2", "E S3 S H3 W D3 N C3"):
        state = run(state, plays(chunk))
        timeline.append(exposed(state))
    return timeline


NONE: set[Seat] = set()
DECL = {Seat.S}


@pytest.mark.parametrize("bid", ["bordlaegger", "ren_bordlaegger"])
@pytest.mark.parametrize(
    ("timing", "who", "expected"),
    [
        ("after_first_trick", "declarer", [NONE, NONE, NONE, DECL, DECL]),
        ("after_first_lead", "declarer", [NONE, DECL, DECL, DECL, DECL]),
        ("after_declarer_first_card", "declarer", [NONE, NONE, DECL, DECL, DECL]),
        ("after_first_trick", "all", [NONE, NONE, NONE, ALL, ALL]),
        ("after_first_lead", "all", [NONE, ALL, ALL, ALL, ALL]),
        ("after_declarer_first_card", "all", [NONE, NONE, ALL, ALL, ALL]),
    ],
)
def test_r6_6_bordlaegger_exposure(
    bid: str, timing: str, who: str, expected: list[set[Seat]]
) -> None:
    ruleset = rules("osterbro", open_timing_bordlaegger=timing, open_who_bordlaegger=who)
    state = nolo(ruleset, SUITED, "S", bid)
    assert _exposure_timeline(state) == expected


def test_r6_6_open_hand_shows_the_cards_still_held() -> None:
    state = run(nolo(rules(), SUITED, "S", "bordlaegger"), plays("E S2 S H2 W D2 N C2"))
    for seat in (Seat.N, Seat.E, Seat.W):
        view = observe(state, seat)
        assert view.open_hands[Seat.S] == state.hands[Seat.S]
        assert len(state.hands[Seat.S]) == 12
    assert observe(state, Seat.E).open_hands[Seat.W] is None


def test_r6_6_super_bordlaegger_all_hands_open_from_the_start() -> None:
    state = nolo(rules("kortdrengene"), SUITED, "S", "super_bordlaegger")
    assert exposed(state) == ALL
    assert _exposure_timeline(state) == [ALL] * 5


def test_r6_6_double_nolo_all_hands_open_after_the_first_trick() -> None:
    state = nolo(rules("hjerteres"), SUITED, "S", "double_nolo")
    assert _exposure_timeline(state) == [NONE, NONE, NONE, ALL, ALL]


@pytest.mark.parametrize(
    "timing", ["after_first_trick", "after_first_lead", "after_declarer_first_card"]
)
@pytest.mark.parametrize("who", ["declarer", "all"])
def test_r6_6_timing_and_who_options_do_not_change_super_and_double_nolo(
    timing: str, who: str
) -> None:
    # Engine choice: the open_*_bordlaegger options apply to (ren) bordlægger only.
    options = {"open_timing_bordlaegger": timing, "open_who_bordlaegger": who}
    state = nolo(rules("kortdrengene", **options), SUITED, "S", "super_bordlaegger")
    assert _exposure_timeline(state) == [ALL] * 5
    state = nolo(rules("hjerteres", **options), SUITED, "S", "double_nolo")
    assert _exposure_timeline(state) == [NONE, NONE, NONE, ALL, ALL]


def test_r6_6_super_bordlaegger_hands_are_closed_during_the_exchange() -> None:
    # Engine choice: "face up before the first lead" is done when the play starts.
    state = run(new_deal(rules("kortdrengene"), SUITED, JOKERS), auction("S", "super_bordlaegger"))
    assert state.phase is Phase.EXCHANGE
    assert exposed(state) == NONE
    state = run(state, ["S decline"])
    assert exposed(state) == ALL


def test_r6_6_gaa_med_joiner_opens_with_the_declarers_first_card() -> None:
    # Engine choice: with after_declarer_first_card every nolo hand opens when the
    # declarer plays his first card, the joiner's own card is not awaited.
    ruleset = rules("kortdrengene", open_timing_bordlaegger="after_declarer_first_card")
    state = nolo(ruleset, SUITED, "S", "bordlaegger", joiners=("W",))
    assert _exposure_timeline(state)[:3] == [NONE, NONE, {Seat.S, Seat.W}]


def test_r6_6_open_hands_change_information_only() -> None:
    state = nolo(rules("kortdrengene"), SUITED, "S", "super_bordlaegger")
    assert state.to_act is Seat.E
    state = run(state, plays("E S2"))
    assert state.to_act is Seat.S
    assert observe(state, Seat.E).legal_actions == ()


@pytest.mark.parametrize("bid", ["sol", "ren_sol"])
def test_r6_6_sol_and_ren_sol_stay_closed(bid: str) -> None:
    ruleset = rules(open_timing_bordlaegger="after_first_lead", open_who_bordlaegger="all")
    state = nolo(ruleset, SUITED, "S", bid)
    assert _exposure_timeline(state) == [NONE] * 5
    assert exposed(play_out(state)) == NONE


def test_r6_6_number_contracts_stay_closed() -> None:
    state = run(new_deal(rules(), SUITED, JOKERS), [*auction("E", "7"), "E trump S", "E call HA"])
    while state.phase is Phase.EXCHANGE:
        state = run(state, [f"{state.to_act} decline"])
    assert exposed(play_out(state)) == NONE


def test_decision_20_gaa_med_bordlaegger_opens_every_nolo_hand() -> None:
    state = nolo(rules("kortdrengene"), SUITED, "S", "bordlaegger", joiners=("W",))
    assert _exposure_timeline(state) == [NONE, NONE, NONE, {Seat.S, Seat.W}, {Seat.S, Seat.W}]


# --- 6.7 early end ----------------------------------------------------------------------


def test_r6_7_sol_stops_after_the_trick_that_breaks_it() -> None:
    state = nolo(rules(), SUITED, "E", "sol")
    state = run(state, plays("E S2 S H2 W D2 N C2"))
    assert state.phase is Phase.PLAY  # one trick is within the limit
    state = run(state, plays("E S3 S H3 W D3 N C3"))
    assert state.is_terminal
    result = result_of(state)
    assert len(state.tricks) == 2
    assert result.tricks == (0, 2, 0, 0)
    assert result.made is False
    assert result.scores == (100, -300, 100, 100)


def test_t10_ren_sol_declarer_wins_trick_3_and_the_deal_ends() -> None:
    state = nolo(rules(), SPLIT, "S", "ren_sol")
    state = run(state, plays("E SK S DA W S2 N H2", "E SQ S DK W CA N H3", "E D2 S D3 W C3"))
    assert not state.is_terminal
    state = run(state, plays("N H4"))
    assert state.is_terminal
    result = result_of(state)
    assert result.tricks == (0, 2, 1, 0)
    assert result.declarer_side_tricks == 1
    assert result.made is False
    assert result.scores == (200, 200, -600, 200)


def test_r6_7_play_goes_on_when_stop_when_nolo_broken_is_off() -> None:
    state = play_out(nolo(rules(stop_when_nolo_broken=False), SUITED, "E", "ren_sol"))
    result = result_of(state)
    assert len(state.tricks) == 13
    assert result.tricks == (0, 13, 0, 0)
    assert result.made is False
    assert result.scores == (200, -600, 200, 200)  # the score does not grow with the tricks


def test_r6_7_number_contracts_are_played_to_the_end() -> None:
    state = new_deal(rules(), SUITED, JOKERS)
    state = run(state, [*auction("W", "7"), "W trump H", "W call SA"])
    while state.phase is Phase.EXCHANGE:
        state = run(state, [f"{state.to_act} decline"])
    state = play_out(state)
    assert len(state.tricks) == 13
    assert result_of(state).tricks == (0, 0, 13, 0)


def test_clarification_6_gaa_med_stops_only_when_every_nolo_player_broke() -> None:
    state = nolo(rules("kortdrengene"), SPLIT, "S", "sol", joiners=("W",))
    state = run(state, plays("E D2 S D3 W S2 N H2", "S D4 W C3 N H3 E S3"))
    assert state.won[Seat.S] == 2
    assert state.phase is Phase.PLAY  # S broke, W has not
    state = run(state, plays("S C2 W C4 N H4 E S4", "W C5 N H5 E S5"))
    assert not state.is_terminal
    state = run(state, plays("S D5"))
    assert state.is_terminal
    result = result_of(state)
    assert result.tricks == (0, 0, 2, 2)
    assert result.made is False
    assert result.declarer_side_tricks == 2
    # Each nolo player fails alone against the other three (solo_each, 2 x 50 each).
    assert result.scores == (200, 200, -200, -200)


def test_clarification_6_gaa_med_plays_on_while_a_nolo_player_is_unbroken() -> None:
    state = play_out(nolo(rules("kortdrengene"), SUITED, "E", "sol", joiners=("S",)))
    assert len(state.tricks) == 13
    result = result_of(state)
    assert result.tricks == (0, 13, 0, 0)
    assert result.made is False  # made describes the declarer
    # E fails (-100 to each of three), S makes it (+50 from each of three).
    assert result.scores == (50, -350, 250, 50)


def test_clarification_6_gaa_med_both_made() -> None:
    state = play_out(nolo(rules("kortdrengene"), SUITED, "S", "sol", joiners=("W",)))
    result = result_of(state)
    assert result.tricks == (0, 13, 0, 0)
    assert result.made is True
    assert result.scores == (-100, -100, 100, 100)


# --- 4.2 trick limits ---------------------------------------------------------------------

WIKIPEDIA = rules()  # sol and bordlægger: exactly one trick
CLUB = rules("osterbro")  # at most one
ZERO = rules(sol_limit="zero", bordlaegger_limit="zero")


@pytest.mark.parametrize(
    ("ruleset", "bid", "zero_made", "one_made"),
    [
        (WIKIPEDIA, "sol", False, True),
        (CLUB, "sol", True, True),
        (ZERO, "sol", True, False),
        (WIKIPEDIA, "bordlaegger", False, True),
        (CLUB, "bordlaegger", True, True),
        (ZERO, "bordlaegger", True, False),
        (rules("tanya"), "bordlaegger", True, False),
        (WIKIPEDIA, "ren_sol", True, False),
        (WIKIPEDIA, "ren_bordlaegger", True, False),
        (rules("kortdrengene"), "super_bordlaegger", True, False),
        (rules("hjerteres"), "double_nolo", True, False),
    ],
)
def test_r4_2_nolo_trick_limits_in_played_deals(
    ruleset: RuleSet, bid: str, zero_made: bool, one_made: bool
) -> None:
    none = result_of(play_out(nolo(ruleset, SUITED, "S", bid)))
    assert none.tricks[Seat.S] == 0
    assert none.made is zero_made
    one_state = finish(nolo(ruleset, ONE, "S", bid), ONE_SCRIPT)
    one = result_of(one_state)
    assert one.tricks[Seat.S] == 1
    assert one.made is one_made
    # A zero-trick contract breaks on trick 1 and the deal stops there.
    assert len(one_state.tricks) == (13 if one_made else 1)


def test_r4_2_wikipedia_sol_with_no_trick_fails() -> None:
    result = result_of(play_out(nolo(rules(), SUITED, "S", "sol")))
    assert result.made is False
    assert result.scores == (100, 100, -300, 100)


@pytest.mark.parametrize(
    ("limit", "made"),
    [
        ("at_most_1", (True, True, False, False)),
        ("exactly_1", (False, True, False, False)),
        ("zero", (True, False, False, False)),
    ],
)
def test_r4_2_is_made_by_limit(limit: str, made: tuple[bool, ...]) -> None:
    ruleset = rules(sol_limit=limit, bordlaegger_limit=limit)
    for bid in ("sol", "bordlaegger"):
        for tricks, expected in zip((0, 1, 2, 5), made, strict=True):
            facts = outcome(bid, 2, None, (13 - tricks, 0, tricks, 0))
            assert is_made(facts, ruleset) is expected, (bid, tricks)
    for bid in ("ren_sol", "ren_bordlaegger"):
        assert is_made(outcome(bid, 2, None, (13, 0, 0, 0)), ruleset)
        assert not is_made(outcome(bid, 2, None, (12, 0, 1, 0)), ruleset)


# --- set-up of a nolo contract (5.5, clarification 1) -----------------------------------------


def test_r5_5_nolo_has_no_trumps_no_partner_no_called_card() -> None:
    result = result_of(play_out(nolo(rules(), SUITED, "S", "ren_sol")))
    assert result.trump is None
    assert result.partner is None
    assert result.called is None
    assert result.declarer is Seat.S


def test_clarification_1_declined_nolo_kitty_is_not_passed_on() -> None:
    state = run(new_deal(rules(), SUITED, JOKERS), [*auction("S", "sol"), "S decline"])
    assert state.phase is Phase.PLAY
    assert state.to_act is Seat.E


def test_clarification_1_gaa_med_last_joiner_exchanges_first() -> None:
    steps = auction("E", "sol", joiners=("S", "W"))
    state = run(new_deal(rules("kortdrengene"), SUITED, JOKERS), steps)
    assert state.phase is Phase.EXCHANGE
    assert state.to_act is Seat.W
    state = run(state, ["W decline"])
    assert state.to_act is Seat.S
    state = run(state, ["S decline"])
    assert state.to_act is Seat.E
    state = run(state, ["E decline"])
    assert state.phase is Phase.PLAY
