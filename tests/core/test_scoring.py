"""Scoring: rules.md 7.1 and the worked examples 1-22 of 7.3; landscape.md 6.1 A, B, F, G.

``score_deal`` is tested directly with ``DealOutcome`` facts (declarer N = seat 0,
partner S = seat 2 unless alone), and several schemes through complete played deals
whose outcome is forced. Scores are (N, E, S, W).

Rows of 7.3 that belong to schemes we have no ``scoring_scheme`` for are reproduced
with the scoring options where they can be (see ``test_row_17``-``test_row_21``):
WZ (rows 17, 18) is base_unit 1 with made_formula ``base_x_tricks_minus_6`` and
failed_formula ``base_x_under_plus_1``; HOUSE-X (row 19) is made_formula
``base_x_tricks``; KJ (row 21) is base_unit 1.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from esmakker.core.actions import ATTACHMENT_KINDS, NOLO_KINDS, Bid, BidKind, Turn
from esmakker.core.errors import RulesConfigError
from esmakker.core.phase import Phase
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.rules import SCORING_SCHEMES, RuleSet
from esmakker.core.scoring import Scores, score_deal
from esmakker.core.seats import Seat
from esmakker.core.state import Result, State, deal
from esmakker.core.view import observe
from play_support import auction, decline_all, new_deal, outcome, play_out
from support import rules, run

SIMPLE = rules()
PYWHIST = rules(scoring_scheme="pywhist")
IT_WHIST = rules(scoring_scheme="it_whist")
TOKE = rules(scoring_scheme="toke_classic")
JLOR = rules(scoring_scheme="jlor")


def pair(bid: str, side_tricks: int, ruleset: RuleSet, *, flips: int = 0) -> Scores:
    """Score N (declarer) and S (partner) taking ``side_tricks`` together, 2 v 2."""
    tricks = (side_tricks, 13 - side_tricks, 0, 0)
    return score_deal(outcome(bid, 0, 2, tricks, flips=flips), ruleset)


def alone(bid: str, tricks: int, ruleset: RuleSet, *, flips: int = 0) -> Scores:
    """Score N playing alone (or a nolo) taking ``tricks``."""
    return score_deal(outcome(bid, 0, None, (tricks, 13 - tricks, 0, 0), flips=flips), ruleset)


def two(v: int) -> Scores:
    return (v, -v, v, -v)


def two_pair(v: int) -> Scores:
    """N and E (the HA holder of the played deals) win v each."""
    return (v, v, -v, -v)


def three(v: int) -> Scores:
    return (3 * v, -v, -v, -v)


# --- rules.md 7.3 rows 1-22 ----------------------------------------------------------------


def test_row_1_simple_8_plain_10_tricks() -> None:
    assert pair("8", 10, SIMPLE) == two(60)


def test_row_2_simple_7_plain_exactly_7() -> None:
    assert pair("7", 7, SIMPLE) == two(10)


def test_row_3_simple_9_gode_9_tricks() -> None:
    assert pair("9 gode", 9, SIMPLE) == two(80)


def test_row_4_simple_10_halve_11_tricks() -> None:
    assert pair("10 halve", 11, SIMPLE) == two(320)


def test_row_5_simple_8_plain_alone_8_tricks() -> None:
    assert alone("8", 8, SIMPLE) == (60, -20, -20, -20)


@pytest.mark.parametrize("flips", [1, 2, 3])
def test_row_6_simple_9_vip_alone_10_tricks(flips: int) -> None:
    assert alone("9 vip", 10, SIMPLE, flips=flips) == (480, -160, -160, -160)


def test_row_7_simple_10_plain_8_tricks_fails() -> None:
    assert pair("10", 8, SIMPLE) == two(-320)


def test_row_8_simple_11_gode_alone_10_tricks_fails() -> None:
    assert alone("11 gode", 10, SIMPLE) == (-1920, 640, 640, 640)


@pytest.mark.parametrize(
    ("preset", "tricks", "made"),
    [("wikipedia", 1, True), ("wikipedia", 0, False), ("osterbro", 0, True), ("osterbro", 1, True)],
)
def test_row_9_simple_sol_made(preset: str, tricks: int, made: bool) -> None:
    expected = three(50) if made else three(-100)
    assert alone("sol", tricks, rules(preset)) == expected


def test_row_10_simple_ren_sol_failed() -> None:
    assert alone("ren_sol", 1, SIMPLE) == (-600, 200, 200, 200)
    assert alone("ren_sol", 0, SIMPLE) == three(100)


def test_row_11_simple_bordlaegger_made() -> None:
    assert alone("bordlaegger", 1, SIMPLE) == (450, -150, -150, -150)
    assert alone("bordlaegger", 0, rules("osterbro")) == (450, -150, -150, -150)


def test_row_12_simple_ren_and_super_bordlaegger_failed() -> None:
    assert alone("ren_bordlaegger", 1, SIMPLE) == (-1200, 400, 400, 400)
    assert alone("super_bordlaegger", 2, rules("kortdrengene")) == (-1200, 400, 400, 400)
    assert alone("double_nolo", 1, rules("hjerteres")) == (-1200, 400, 400, 400)


def test_row_13_pywhist_7_gode_exactly_7() -> None:
    assert pair("7 gode", 7, PYWHIST) == two(5)


def test_row_14_pywhist_7_gode_9_tricks() -> None:
    assert pair("7 gode", 9, PYWHIST) == two(15)


def test_row_15_pywhist_7_gode_5_tricks() -> None:
    assert pair("7 gode", 5, PYWHIST) == two(-20)


def test_row_16_pywhist_alone_magnitude_30() -> None:
    assert alone("8", 10, PYWHIST) == (90, -30, -30, -30)
    assert alone("7 halve", 9, PYWHIST) == (90, -30, -30, -30)


WZ = rules(base_unit=1, made_formula="base_x_tricks_minus_6", failed_formula="base_x_under_plus_1")


def test_row_17_whistzilla_9_gode_made_via_options() -> None:
    assert [pair("9 gode", t, WZ)[0] for t in (9, 10, 11)] == [24, 32, 40]


def test_row_18_whistzilla_9_gode_failed_via_options() -> None:
    assert [pair("9 gode", t, WZ)[0] for t in (8, 7)] == [-16, -24]


HOUSE_X = rules(made_formula="base_x_tricks")


def test_row_19_house_x_via_options() -> None:
    assert pair("8", 10, HOUSE_X) == two(200)
    assert pair("8", 6, HOUSE_X) == two(-80)
    assert alone("8 gode", 8, HOUSE_X) == (960, -320, -320, -320)


def test_row_20_it_whist_8_plain_alone_10_tricks() -> None:
    assert alone("8", 10, IT_WHIST) == (90, -30, -30, -30)


def test_row_21_kj_9_plain_7_tricks_via_options() -> None:
    assert pair("9", 7, rules(base_unit=1)) == two(-16)


def test_row_22_simple_9_halve_no_stacking() -> None:
    # score_deal sees no trump suit: a halve partner naming clubs cannot stack.
    assert pair("9 halve", 9, SIMPLE) == two(80)


# --- the rules behind the rows ------------------------------------------------------------


@pytest.mark.parametrize("level", range(7, 14))
def test_r7_1_simple_base_doubles_per_level(level: int) -> None:
    base = 10 * 2 ** (level - 7)
    assert pair(str(level), level, SIMPLE) == two(base)
    assert pair(f"{level} gode", level, SIMPLE) == two(2 * base)


@pytest.mark.parametrize("under", range(1, 8))
@pytest.mark.parametrize("bid", ["9", "9 gode", "9 vip", "9 halve"])
def test_r7_1_failed_number_contract_costs_2_base_attachment_undertricks(
    bid: str, under: int
) -> None:
    factor = 1 if bid == "9" else 2
    assert pair(bid, 9 - under, SIMPLE, flips=1) == two(-2 * 40 * factor * under)


@pytest.mark.parametrize(("bid", "tricks"), [("7", 7), ("9 gode", 11), ("10", 6), ("8 vip", 3)])
def test_r7_1_alone_collects_three_times(bid: str, tricks: int) -> None:
    paired = pair(bid, tricks, SIMPLE, flips=2)[0]
    assert alone(bid, tricks, SIMPLE, flips=2) == three(paired)


@pytest.mark.parametrize(
    ("factor", "expected"), [(2, (-300, 100, 100, 100)), (1, (-150, 50, 50, 50))]
)
def test_r7_1_nolo_fail_factor(factor: int, expected: Scores) -> None:
    assert alone("sol", 2, rules(nolo_fail_factor=factor)) == expected


@pytest.mark.parametrize(("flips", "value"), [(1, 20), (2, 40), (3, 60)])
def test_clarification_11_vip_flip_factor_on_top_of_attachment_factor(
    flips: int, value: int
) -> None:
    ruleset = rules(vip_flip_factor={"1": 1, "2": 2, "3": 3})
    assert pair("7 vip", 7, ruleset, flips=flips) == two(value)
    heavy = rules(
        vip_flip_factor={"1": 1, "2": 2, "3": 3},
        attachment_factor={"vip": 3, "gode": 2, "halve": 2, "staerke": 2, "sans": 2},
    )
    assert pair("7 vip", 7, heavy, flips=flips) == two(value * 3 // 2)
    assert pair("7 gode", 7, ruleset, flips=flips) == two(20)  # only vip counts flips


def test_clarification_6_gaa_med_solo_each() -> None:
    ruleset = rules("kortdrengene")
    both_made = outcome("sol", 2, None, (13, 0, 0, 0), joiners=(3,))
    assert score_deal(both_made, ruleset) == (-100, -100, 100, 100)
    one_fails = outcome("sol", 2, None, (11, 0, 2, 0), joiners=(3,))
    assert score_deal(one_fails, ruleset) == (50, 50, -350, 250)
    three_players = outcome("ren_sol", 1, None, (10, 0, 2, 1), joiners=(2, 3))
    assert score_deal(three_players, ruleset) == (300, 700, -500, -500)


def test_clarification_6_solo_each_is_a_sum_of_solo_scores() -> None:
    ruleset = rules("kortdrengene")
    tricks = (9, 1, 3, 0)
    together = score_deal(outcome("sol", 1, None, tricks, joiners=(2, 3)), ruleset)
    parts = [score_deal(outcome("sol", p, None, tricks), ruleset) for p in (1, 2, 3)]
    assert together == tuple(sum(p[s] for p in parts) for s in range(4))


# --- landscape.md 6.1 A: pywhist ---------------------------------------------------------------


def test_a_pywhist_base_table_and_factors() -> None:
    assert [pair(str(level), level, PYWHIST)[0] for level in range(7, 14)] == [
        5,
        10,
        20,
        40,
        80,
        160,
        320,
    ]
    assert pair("7 gode", 7, PYWHIST) == two(5)  # gode x1
    assert pair("7 halve", 7, PYWHIST) == two(10)
    assert pair("7 sans", 7, rules("hilmarshelte")) == two(10)


@pytest.mark.parametrize(("flips", "value"), [(1, 10), (2, 20), (3, 30)])
def test_a_pywhist_vip_times_flips(flips: int, value: int) -> None:
    assert pair("7 vip", 7, PYWHIST, flips=flips) == two(value)
    assert pair("8 vip", 9, PYWHIST, flips=flips) == two(value * 2 * 2)


def test_a_pywhist_9_halve_10_tricks() -> None:
    assert pair("9 halve", 10, PYWHIST) == two(80)


def test_a_pywhist_nolo_values() -> None:
    ruleset = rules("hilmarshelte")
    assert alone("ren_sol", 0, ruleset) == three(100)
    assert alone("sol", 1, ruleset) == three(50)
    assert alone("bordlaegger", 1, ruleset) == three(200)
    assert alone("ren_bordlaegger", 0, ruleset) == three(400)
    assert alone("ren_bordlaegger", 1, ruleset) == three(-800)


def test_a_pywhist_sol_with_no_trick_is_made_not_their_pinned_bug() -> None:
    # pywhist's own test pins Sol with 0 tricks at -100; hilmarshelte's sol is "at most one".
    assert alone("sol", 0, rules("hilmarshelte")) == three(50)


def test_a_pywhist_banket_is_rejected_as_unsupported() -> None:
    with pytest.raises(RulesConfigError, match="double_redouble"):
        rules("hilmarshelte", double_redouble=True)


# --- landscape.md 6.1 B: it_whist --------------------------------------------------------------


def test_b_it_whist_number_contracts() -> None:
    assert pair("9", 9, IT_WHIST) == two(20)
    assert pair("9", 11, IT_WHIST) == two(60)
    assert pair("9", 7, IT_WHIST) == two(-80)
    assert alone("9 gode", 9, IT_WHIST) == (120, -40, -40, -40)
    assert pair("7 gode", 7, IT_WHIST) == two(10)  # gode x2, unlike pywhist


@pytest.mark.parametrize(
    ("bid", "made", "failed"),
    [
        ("sol", 150, -300),
        ("ren_sol", 300, -600),
        ("bordlaegger", 450, -900),
        ("super_bordlaegger", 600, -1200),
    ],
)
def test_b_it_whist_nolo(bid: str, made: int, failed: int) -> None:
    ruleset = rules("kortdrengene", scoring_scheme="it_whist")
    assert alone(bid, 0, ruleset) == three(made // 3)
    assert alone(bid, 2, ruleset) == three(failed // 3)


# --- landscape.md 6.1 F: TokeF classic ------------------------------------------------------------


def test_f_toke_classic_vectors() -> None:
    assert alone("7", 7, TOKE) == (6, -2, -2, -2)
    for bid in ("7 gode", "7 sans", "7 vip"):
        assert alone(bid, 7, TOKE, flips=1) == (12, -4, -4, -4)
    assert pair("7", 7, TOKE) == two(2)
    assert pair("7 gode", 7, TOKE) == two(4)


def test_f_toke_classic_over_and_undertricks() -> None:
    # 2*m*2^(L-7) + 2^(L-7)*|t-L|, negative when failed.
    assert pair("8 gode", 10, TOKE) == two(2 * 2 * 2 + 2 * 2)
    assert pair("8 gode", 6, TOKE) == two(-(2 * 2 * 2 + 2 * 2))
    assert pair("9", 13, TOKE) == two(2 * 4 + 4 * 4)


@pytest.mark.parametrize(
    ("bid", "value"),
    [("sol", 12), ("ren_sol", 24), ("bordlaegger", 48), ("ren_bordlaegger", 96)],
)
def test_f_toke_classic_hard_bets(bid: str, value: int) -> None:
    ruleset = rules("osterbro", scoring_scheme="toke_classic")
    assert alone(bid, 0, ruleset) == (value, -value // 3, -value // 3, -value // 3)
    assert alone(bid, 2, ruleset) == (-value, value // 3, value // 3, value // 3)


# --- landscape.md 6.1 G: jlor ---------------------------------------------------------------------


def test_g_jlor_flat_values() -> None:
    assert [pair(str(level), level, JLOR)[0] for level in range(8, 14)] == [2, 4, 8, 16, 32, 64]
    assert [pair(f"{level} gode", level, JLOR)[0] for level in range(8, 14)] == [
        4,
        8,
        16,
        32,
        64,
        128,
    ]


def test_g_jlor_vectors() -> None:
    assert pair("10", 13, JLOR) == (8, -8, 8, -8)  # value 8 made, seats 0+2, no overtricks
    failed = score_deal(outcome("11", 1, 3, (10, 1, 0, 2)), JLOR)
    assert failed == (16, -16, 16, -16)  # value 16 failed, seats 1+3, no undertricks
    assert alone("sol", 1, JLOR) == (30, -10, -10, -10)
    ren_sol = score_deal(outcome("ren_sol", 2, None, (5, 5, 1, 2)), JLOR)
    assert ren_sol == (20, 20, -60, 20)


def test_g_jlor_nolo_names() -> None:
    # Decision 3: halv bordlægger (40) is our bordlaegger, bordlægger (80) ren_bordlaegger.
    assert alone("bordlaegger", 1, JLOR) == three(40)
    assert alone("ren_bordlaegger", 0, JLOR) == three(80)


# --- zero sum ---------------------------------------------------------------------------------------

_NUMBER_BIDS = [Bid(level, BidKind.PLAIN) for level in range(7, 14)] + [
    Bid(level, kind) for level in range(7, 14) for kind in ATTACHMENT_KINDS
]
_NOLO_BIDS = [Bid(None, kind) for kind in sorted(NOLO_KINDS)]


@st.composite
def _tricks(draw: st.DrawFn) -> tuple[int, int, int, int]:
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    parts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]
    return (parts[0], parts[1], parts[2], parts[3])


@given(
    scheme=st.sampled_from(SCORING_SCHEMES),
    bid=st.sampled_from(_NUMBER_BIDS + _NOLO_BIDS),
    declarer=st.integers(0, 3),
    partner_offset=st.integers(0, 3),
    tricks=_tricks(),
    flips=st.integers(1, 3),
    joiners=st.sets(st.integers(1, 3), max_size=3),
    limit=st.sampled_from(["at_most_1", "exactly_1", "zero"]),
)
def test_r7_1_every_score_is_zero_sum(
    scheme: str,
    bid: Bid,
    declarer: int,
    partner_offset: int,
    tricks: tuple[int, int, int, int],
    flips: int,
    joiners: set[int],
    limit: str,
) -> None:
    ruleset = rules(scoring_scheme=scheme, sol_limit=limit, bordlaegger_limit=limit)
    partner = None if partner_offset == 0 or bid.is_nolo else (declarer + partner_offset) % 4
    nolo_joiners = tuple((declarer + j) % 4 for j in sorted(joiners)) if bid.is_nolo else ()
    facts = outcome(str(bid), declarer, partner, tricks, flips=flips, joiners=nolo_joiners)
    scores = score_deal(facts, ruleset)
    assert sum(scores) == 0
    if partner is None and not nolo_joiners:
        defenders = {scores[s] for s in range(4) if s != declarer}
        assert len(defenders) == 1
        assert scores[declarer] == -3 * defenders.pop()
    elif partner is not None:
        assert scores[declarer] == scores[partner]
        assert len({scores[s] for s in range(4) if s not in (declarer, partner)}) == 1


# --- complete played deals with a forced outcome -----------------------------------------------------

# Every hand one suit, the jokers in the kitty: whoever holds the trumps wins every trick.
SUITED = {
    "N": "SA SK SQ SJ ST S9 S8 S7 S6 S5 S4 S3 S2",
    "E": "HA HK HQ HJ HT H9 H8 H7 H6 H5 H4 H3 H2",
    "S": "DA DK DQ DJ DT D9 D8 D7 D6 D5 D4 D3 D2",
    "W": "CA CK CQ CJ CT C9 C8 C7 C6 C5 C4 C3 C2",
}
JOKERS = "X1 X2 X3"


def _played(state: State) -> Result:
    result = play_out(state).result()
    assert result is not None
    assert result.outcome == "played"
    assert sum(result.scores) == 0
    return result


def plain_7(
    ruleset: RuleSet, trump: str, hands: dict[str, str] = SUITED, kitty: str = JOKERS
) -> State:
    """N bids 7 plain, names ``trump`` and calls HA; everybody declines the kitty."""
    state = new_deal(ruleset, hands, kitty)
    return decline_all(run(state, [*auction("N", "7"), f"N trump {trump}", "N call HA"]))


@pytest.mark.parametrize(
    ("ruleset", "value"),
    [(SIMPLE, 70), (PYWHIST, 35), (IT_WHIST, 35), (TOKE, 2 + 6), (JLOR, 1)],
)
def test_played_7_plain_all_13_tricks(ruleset: RuleSet, value: int) -> None:
    result = _played(plain_7(ruleset, "S"))
    assert result.partner is Seat.E
    assert result.tricks == (13, 0, 0, 0)
    assert result.declarer_side_tricks == 13
    assert result.made is True
    assert result.scores == (value, value, -value, -value)


@pytest.mark.parametrize(
    ("ruleset", "value"),
    [(SIMPLE, 140), (PYWHIST, 70), (IT_WHIST, 70), (TOKE, 2 + 7), (JLOR, 1)],
)
def test_played_7_plain_no_trick_fails(ruleset: RuleSet, value: int) -> None:
    # N names diamonds, which S holds all of: S wins every trick.
    result = _played(plain_7(ruleset, "D"))
    assert result.tricks == (0, 0, 13, 0)
    assert result.declarer_side_tricks == 0
    assert result.made is False
    assert result.scores == (-value, -value, value, value)


def test_played_alone_when_the_called_ace_is_in_the_kitty() -> None:
    hands = dict(SUITED, E="HK HQ HJ HT H9 H8 H7 H6 H5 H4 H3 H2 X3")
    result = _played(plain_7(SIMPLE, "S", hands, "HA X1 X2"))
    assert result.partner is None
    assert result.called is not None
    assert result.called.name == "HA"
    assert result.tricks == (13, 0, 0, 0)
    assert result.scores == (210, -70, -70, -70)


VIP_HANDS = dict(
    SUITED,
    N="SA SK SQ SJ ST S9 S8 S7 S6 S5 S4 S3 X2",
    W="CA CK CQ CJ CT C9 C8 C7 C6 C5 C4 C3 X3",
)


def vip_7(ruleset: RuleSet, hands: dict[str, str], kitty: str, turns: int, discards: str) -> State:
    state = new_deal(ruleset, hands, kitty)
    steps = [*auction("N", "7 vip"), "N call HA", *["N turn"] * turns, "N accept", "N take"]
    return run(state, [*steps, *(f"N discard {c}" for c in discards.split())])


@pytest.mark.parametrize(
    ("ruleset", "value"),
    [
        (SIMPLE, 10 * 2 * 7),
        (PYWHIST, 5 * 2 * 2 * 7),
        (rules(vip_flip_factor={"1": 1, "2": 2, "3": 3}), 10 * 2 * 2 * 7),
    ],
)
def test_played_vip_two_flips(ruleset: RuleSet, value: int) -> None:
    state = vip_7(ruleset, VIP_HANDS, "C2 S2 X1", 2, "C2 X1 X2")
    assert sum(isinstance(step.action, Turn) for step in state.history) == 2
    result = _played(state)
    assert result.trump is not None
    assert result.trump.name == "S"
    assert result.tricks == (13, 0, 0, 0)
    assert result.scores == (value, value, -value, -value)


def test_played_vip_skipped_first_joker_counts_as_a_flip() -> None:
    # Engine choice: vip_flips counts every turned card, a skipped first joker too.
    hands = dict(VIP_HANDS, N="SA SK SQ SJ ST S9 S8 S7 S6 S5 S4 S3 C2")
    ruleset = rules(vip_joker_rule="skip_first", vip_flip_factor={"1": 1, "2": 2, "3": 3})
    state = new_deal(ruleset, hands, "X1 S2 X2")
    steps = [*auction("N", "7 vip"), "N call HA", "N turn", "N turn", "N accept", "N take"]
    state = run(state, [*steps, "N discard C2", "N discard X1", "N discard X2"])
    result = _played(state)
    assert result.tricks == (13, 0, 0, 0)
    assert result.scores == two_pair(10 * 2 * 2 * 7)


def test_played_pywhist_vip_in_clubs_has_no_extra_factor() -> None:
    # Clarification 14: no pywhist x2 for a vip that turns clubs (or no trumps).
    hands = dict(
        SUITED,
        N="CA CK CQ CJ CT C9 C8 C7 C6 C5 C4 C3 X2",
        W="SA SK SQ SJ ST S9 S8 S7 S6 S5 S4 S3 X3",
    )
    result = _played(vip_7(PYWHIST, hands, "C2 S2 X1", 1, "S2 X1 X2"))
    assert result.trump is not None
    assert result.trump.name == "C"
    assert result.tricks == (13, 0, 0, 0)
    assert result.scores == (70, 70, -70, -70)


def test_played_row_22_halve_partner_names_clubs_no_stacking() -> None:
    hands = dict(SUITED, N=SUITED["W"], W=SUITED["N"])  # N holds the clubs
    state = new_deal(SIMPLE, hands, JOKERS)
    state = run(state, [*auction("N", "9 halve"), "N call HA", "E trump C"])
    result = _played(decline_all(state))
    assert result.partner is Seat.E
    assert result.tricks == (13, 0, 0, 0)
    assert result.scores == (400, 400, -400, -400)  # 40 x 2 x (1 + 4); stacking gives 800


NOLO_HANDS = {
    "N": SUITED["W"],
    "E": SUITED["N"],
    "S": SUITED["E"],
    "W": SUITED["S"],
}  # E (forehand) holds the spades and wins every trick of a nolo contract


@pytest.mark.parametrize(
    ("ruleset", "value"),
    [(SIMPLE, 100), (PYWHIST, 100), (IT_WHIST, 100), (TOKE, 8), (JLOR, 20)],
)
def test_played_ren_sol_made(ruleset: RuleSet, value: int) -> None:
    state = run(new_deal(ruleset, NOLO_HANDS, JOKERS), [*auction("S", "ren_sol"), "S decline"])
    result = _played(state)
    assert result.tricks == (0, 13, 0, 0)
    assert result.made is True
    assert result.scores == (-value, -value, 3 * value, -value)


@pytest.mark.parametrize(
    ("ruleset", "value"),
    [(SIMPLE, -100), (PYWHIST, -100), (IT_WHIST, -100), (TOKE, -4), (JLOR, -10)],
)
def test_played_sol_broken(ruleset: RuleSet, value: int) -> None:
    state = run(new_deal(ruleset, NOLO_HANDS, JOKERS), [*auction("E", "sol"), "E decline"])
    result = _played(state)
    assert result.tricks == (0, 2, 0, 0)
    assert result.made is False
    assert result.scores == (-value, 3 * value, -value, -value)


# --- random play per preset ----------------------------------------------------------------------


def _spec_made(result: Result, ruleset: RuleSet) -> bool:
    """Whether the contract is made, from rules.md 4.2 and 6.8 (not from the engine)."""
    bid = result.contract
    assert bid is not None
    assert result.declarer is not None
    if not bid.is_nolo:
        assert bid.level is not None
        return result.declarer_side_tricks >= bid.level
    return _nolo_kept(result.tricks[result.declarer], _limit(bid.kind, ruleset))


def _limit(kind: BidKind, ruleset: RuleSet) -> str:
    if kind is BidKind.SOL:
        return ruleset.sol_limit
    if kind is BidKind.BORDLAEGGER:
        return ruleset.bordlaegger_limit
    return "zero"


def _nolo_kept(tricks: int, limit: str) -> bool:
    return {"at_most_1": tricks <= 1, "exactly_1": tricks == 1, "zero": tricks == 0}[limit]


def _nolo_broken(tricks: int, limit: str) -> bool:
    return tricks > (0 if limit == "zero" else 1)


def _spec_value(result: Result, ruleset: RuleSet, flips: int) -> int:
    """V of rules.md 7.1 with the formulas of section 9 (per paying player)."""
    bid = result.contract
    assert bid is not None
    assert bid.level is not None
    base: int = ruleset.base_unit * 2 ** (bid.level - 7)
    m = 1
    if bid.kind is not BidKind.PLAIN:
        m = dict(ruleset.attachment_factor)[bid.kind.value]
        if bid.kind is BidKind.VIP and ruleset.vip_flip_factor is not None:
            m *= dict(ruleset.vip_flip_factor)[str(flips)]
    t, level = result.declarer_side_tricks, bid.level
    if t >= level:
        return {
            "base_x_1_plus_over": base * m * (1 + t - level),
            "base_x_tricks": base * m * t,
            "base_x_tricks_minus_6": base * m * (t - 6),
            "flat": base * m,
            "toke": base * (2 * m + t - level),
        }[ruleset.made_formula]
    return -{
        "2_base_x_under": 2 * base * m * (level - t),
        "base_x_under_plus_1": base * m * (level - t + 1),
        "flat": base * m,
        "toke": base * (2 * m + level - t),
    }[ruleset.failed_formula]


def _spec_scores(state: State, result: Result) -> list[int]:
    ruleset = state.rules
    bid = result.contract
    assert bid is not None
    assert result.declarer is not None
    declarer = int(result.declarer)
    scores = [0, 0, 0, 0]
    if bid.is_nolo:
        contract = observe(state, None).contract
        assert contract is not None
        for player in (declarer, *(int(s) for s in contract.joiners)):
            kept = _nolo_kept(result.tricks[player], _limit(bid.kind, ruleset))
            value = dict(ruleset.nolo_values)[bid.kind.value]
            v = value if kept else -value * ruleset.nolo_fail_factor
            for seat in range(4):
                scores[seat] += 3 * v if seat == player else -v
        return scores
    flips = sum(isinstance(step.action, Turn) for step in state.history)
    v = _spec_value(result, ruleset, flips)
    if result.partner is None:
        return [3 * v if seat == declarer else -v for seat in range(4)]
    winners = (declarer, int(result.partner))
    return [v if seat in winners else -v for seat in range(4)]


def _check_random_deal(state: State) -> bool:
    result = state.result()
    assert result is not None
    assert sum(result.scores) == 0
    if result.outcome == "redeal":
        assert result.scores == (0, 0, 0, 0)
        return False
    ruleset = state.rules
    bid = result.contract
    assert bid is not None
    assert result.declarer is not None
    assert result.made is _spec_made(result, ruleset)
    side = result.tricks[result.declarer]
    if result.partner is not None:
        side += result.tricks[result.partner]
    assert result.declarer_side_tricks == side
    played = sum(result.tricks)
    assert played == len(state.tricks)
    if played < 13:
        assert bid.is_nolo
        assert ruleset.stop_when_nolo_broken
        contract = observe(state, None).contract
        assert contract is not None
        players = (int(result.declarer), *(int(s) for s in contract.joiners))
        limit = _limit(bid.kind, ruleset)
        assert all(_nolo_broken(result.tricks[p], limit) for p in players)
    assert list(result.scores) == _spec_scores(state, result)
    return True


def _random_play(state: State, rng: random.Random) -> State:
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_random_play_made_agrees_with_tricks_and_limits(preset: str) -> None:
    rng = random.Random(f"made-{preset}")
    ruleset = RuleSet.from_preset(preset)
    played = 0
    for number in range(60):
        state = deal(ruleset, Seat(number % 4), rng)
        if _check_random_deal(_random_play(state, rng)):
            played += 1
    assert played > 30


@pytest.mark.parametrize("scheme", SCORING_SCHEMES)
def test_random_play_scores_follow_the_scheme(scheme: str) -> None:
    rng = random.Random(f"scheme-{scheme}")
    for preset in ("wikipedia", "kortdrengene", "tanya"):
        ruleset = RuleSet.from_preset(preset, {"scoring_scheme": scheme})
        for number in range(15):
            _check_random_deal(_random_play(deal(ruleset, Seat(number % 4), rng), rng))


def test_random_play_phase_is_done_at_the_end() -> None:
    rng = random.Random("done")
    state = _random_play(deal(SIMPLE, Seat.N, rng), rng)
    assert state.phase is Phase.DONE
    assert state.to_act is None
