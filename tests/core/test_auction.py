"""The auction (rules.md 3.6, section 4, the auction options of section 9, clarifications 4, 6, 8).

Dealer N throughout unless a test says otherwise, so the players of the worked
examples of 4.8 are P1 = E (forehand), P2 = S, P3 = W, P4 = N (dealer).
"""

from __future__ import annotations

import pytest

from diagrams import assert_alone, bids, play_out, reject, step, table, texts
from esmakker.core.actions import IRON, PASS, Bid, BidKind, Iron
from esmakker.core.errors import InvalidDealError, NotationError, Reason, RulesConfigError
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State
from support import make_state, rules

E0_PRESETS = ("wikipedia", "kortdrengene", "osterbro")
"""The presets with equal attachments that do not overcall each other (model E0, 4.5)."""

IRON_HAND = "S2 S3 S4 S5 ST H2 H3 H4 H5 D2 D3 D4 C2"
"""Only 2-10: no jack, queen, king, ace or joker (3.6)."""


def _contract_of(state: State) -> tuple[Seat, Bid]:
    """Play the deal out and return its declarer and contract."""
    result = play_out(state)
    assert result.declarer is not None
    assert result.contract is not None
    return result.declarer, result.contract


# --- 4.1 the protocol -------------------------------------------------------------------


@pytest.mark.parametrize(("dealer", "forehand"), [("N", "E"), ("E", "S"), ("S", "W"), ("W", "N")])
def test_r4_1_forehand_opens_the_auction(dealer: str, forehand: str) -> None:
    state = table(rules(), dealer=dealer)
    assert state.phase is Phase.AUCTION
    assert state.to_act == Seat.parse(forehand)
    assert state.legal_actions()[0] == PASS
    assert bids(state)[:2] == ["7", "7 vip"]


def test_r4_1_the_next_player_overcalls_or_passes() -> None:
    state = step(table(rules()), "E bid 8")
    assert state.to_act == Seat.S
    assert state.legal_actions()[0] == PASS
    assert bids(state)[:3] == ["8 vip", "8 gode", "8 halve"]
    assert "8" not in bids(state)


def test_r4_1_the_duel_goes_on_until_one_of_the_two_passes() -> None:
    state = step(table(rules()), "E bid 8", "S bid 9", "E bid 10", "S bid 11")
    assert state.to_act == Seat.E
    state = step(state, "E pass")
    assert state.to_act == Seat.W, "the next entrant meets the survivor S"
    state = step(state, "W bid 12")
    assert state.to_act == Seat.S


def test_r4_1_the_survivor_meets_each_later_entrant_in_turn() -> None:
    state = step(table(rules()), "E bid 8", "S pass", "W bid 9", "E bid 10", "W pass")
    assert state.to_act == Seat.N
    state = step(state, "N bid 11", "E pass")
    assert state.phase is Phase.TRUMP
    assert state.to_act == Seat.N
    assert _contract_of(state) == (Seat.N, Bid(11))


def test_r4_1_pass_is_final_for_the_whole_auction() -> None:
    state = step(table(rules()), "E pass", "S bid 8", "W bid 9", "S pass")
    assert state.to_act == Seat.N, "E passed and is not asked again"
    reject(state, "E bid 10", Reason.NOT_YOUR_TURN)
    state = step(state, "N bid 10", "W pass")
    assert state.phase is Phase.TRUMP
    assert [str(s) for s in state.history if s.seat == Seat.E] == ["E pass"]


def test_r4_1_an_opening_pass_hands_the_opening_to_the_next_player() -> None:
    state = step(table(rules()), "E pass", "S pass", "W bid 7")
    assert state.to_act == Seat.N
    state = step(state, "N pass")
    assert _contract_of(state) == (Seat.W, Bid(7))


def test_r4_1_the_dealer_enters_last() -> None:
    state = step(table(rules(), dealer="S"), "W pass", "N pass", "E pass")
    assert state.to_act == Seat.S
    state = step(state, "S bid 7")
    assert _contract_of(state) == (Seat.S, Bid(7))


def test_r4_1_a_player_out_of_turn_is_rejected() -> None:
    error = reject(table(rules()), "S bid 8", Reason.NOT_YOUR_TURN)
    assert "E" in str(error)


def test_r4_1_the_lowest_bid_is_7() -> None:
    state = table(rules())
    assert bids(state)[0] == "7"
    with pytest.raises(NotationError):
        step(state, "E bid 6")


def test_r4_1_a_bid_must_overcall_the_high_bid() -> None:
    state = step(table(rules()), "E bid 9")
    assert "R4.5" in str(reject(state, "S bid 8", Reason.BID_TOO_LOW))
    assert "R4.5" in str(reject(state, "S bid 9", Reason.BID_TOO_LOW))


def test_r4_1_auction_ends_with_the_holder_as_declarer() -> None:
    state = step(table(rules()), "E bid 8", "S pass", "W pass", "N pass")
    assert state.phase is Phase.TRUMP
    assert state.to_act == Seat.E
    assert state.legal_actions_of(Seat.S) == ()


def test_r4_2_a_number_bid_takes_at_most_one_attachment() -> None:
    with pytest.raises(NotationError):
        step(table(rules()), "E bid 8 vip gode")
    with pytest.raises(NotationError):
        step(table(rules()), "E bid sol 9")


def test_r4_2_a_bid_the_rules_do_not_have_is_unknown() -> None:
    state = table(rules())
    for text in ("E bid 8 sans", "E bid 8 staerke", "E bid super_bordlaegger", "E bid double_nolo"):
        assert "R4.2" in str(reject(state, text, Reason.BID_UNKNOWN))


# --- 4.8 worked examples ------------------------------------------------------------------


@pytest.mark.parametrize("preset", E0_PRESETS)
def test_a1_auction_example(preset: str) -> None:
    state = table(rules(preset))
    expected_next = ["S", "E", "S", "W", "E", "W", "E", "N"]
    steps = [
        "E bid 8",
        "S bid 8 gode",
        "E bid 9",
        "S pass",
        "W bid sol",  # sol beats 9
        "E bid 9 vip",  # 9 vip beats sol
        "W bid 10",
        "E pass",
    ]
    for text, seat in zip(steps, expected_next, strict=True):
        state = step(state, text)
        assert state.to_act == Seat.parse(seat), text
    state = step(state, "N pass")
    assert state.phase is Phase.TRUMP
    assert state.to_act == Seat.W
    assert _contract_of(state) == (Seat.W, Bid(10))


@pytest.mark.parametrize("preset", E0_PRESETS)
def test_a2_equal_attachments_do_not_overcall(preset: str) -> None:
    state = step(table(rules(preset)), "E bid 8 gode")
    assert "8 halve" not in bids(state)
    assert "8 vip" not in bids(state)
    assert bids(state)[0] == "9"
    for text in ("S bid 8 halve", "S bid 8 vip", "S bid 8 gode", "S bid 8"):
        assert "R4.5" in str(reject(state, text, Reason.BID_TOO_LOW))
    state = step(state, "S bid 9")
    assert state.to_act == Seat.E


def test_a3_tanya_ordered_attachments_overcall_upwards() -> None:
    state = step(table(rules("tanya")), "E bid 8 gode")
    assert bids(state)[:2] == ["8 halve", "9"]
    reject(state, "S bid 8 vip", Reason.BID_TOO_LOW)
    state = step(state, "S bid 8 halve")
    assert state.to_act == Seat.E


@pytest.mark.parametrize("preset", E0_PRESETS)
def test_a4_ren_sol_is_beaten_by_10_with_an_attachment(preset: str) -> None:
    state = step(table(rules(preset)), "E bid ren_sol")
    assert bids(state)[:4] == ["10 vip", "10 gode", "10 halve", "11"]
    reject(state, "S bid 10", Reason.BID_TOO_LOW)
    reject(state, "S bid sol", Reason.BID_TOO_LOW)
    for text in ("S bid 10 gode", "S bid bordlaegger"):
        assert step(state, text).to_act == Seat.E


def test_a5_super_bordlaegger_does_not_overcall_12_with_an_attachment() -> None:
    state = step(table(rules("kortdrengene")), "E bid 12 halve")
    reject(state, "S bid super_bordlaegger", Reason.BID_TOO_LOW)
    assert bids(state) == ["13", "13 vip", "13 gode", "13 halve"]


def _whistzilla(**extra: object) -> RuleSet:
    """A whistzilla-like rule set: forehand opens; halve < gode < vip; nolos above halve."""
    return rules(
        "kortdrengene",
        attachment_ranking="ordered",
        attachment_order=["halve", "gode", "vip"],
        nolo_anchor_position="above_attachment:halve",
        super_bordlaegger_unbeatable=True,
        forehand_must_open=True,
        gaa_med="none",
        **extra,
    )


def test_a6_super_bordlaegger_unbeatable_overcalls_13_vip_and_ends_the_bidding() -> None:
    state = step(table(_whistzilla()), "E bid 7", "S bid 13 vip")
    assert bids(state) == ["super_bordlaegger"]
    state = step(state, "E bid super_bordlaegger")
    assert state.to_act == Seat.S
    assert state.legal_actions() == (PASS,)
    reject(state, "S bid 13 vip", Reason.BID_TOO_LOW)
    state = step(state, "S pass")
    assert state.legal_actions() == (PASS,)
    state = step(state, "W pass", "N pass")
    assert _contract_of(state) == (Seat.E, Bid(None, BidKind.SUPER_BORDLAEGGER))


def test_a6_whistzilla_order_puts_sol_between_9_halve_and_9_gode() -> None:
    state = step(table(_whistzilla()), "E bid 9 halve")
    assert bids(state)[:2] == ["sol", "9 gode"]
    state = step(state, "S bid sol")
    assert bids(state)[0] == "9 gode"
    reject(state, "E bid 9 halve", Reason.BID_TOO_LOW)


def test_a7_hold_forehand_only() -> None:
    state = step(table(rules(hold_privilege="forehand_only")), "E bid 9", "S bid 9 vip")
    assert state.to_act == Seat.E
    assert "hold" in texts(state.legal_actions())
    state = step(state, "E hold")
    # E now holds 9 vip; S must overcall it or pass.
    assert state.to_act == Seat.S
    assert "hold" not in texts(state.legal_actions())
    assert bids(state)[0] == "10"
    reject(state, "S bid 9 vip", Reason.BID_TOO_LOW)
    reject(state, "S hold", Reason.HOLD_NOT_ALLOWED)
    state = step(state, "S pass", "W pass", "N pass")
    assert _contract_of(state) == (Seat.E, Bid(9, BidKind.VIP))


def test_a8_all_four_pass_is_a_redeal() -> None:
    state = step(table(rules()), "E pass", "S pass", "W pass", "N pass")
    assert state.is_terminal
    assert state.phase is Phase.DONE
    assert state.to_act is None
    result = state.result()
    assert result is not None
    assert result.outcome == "redeal"


@pytest.mark.parametrize("redeal_dealer", ["same", "next"])
def test_clarification_4_redeal_result_shape(redeal_dealer: str) -> None:
    ruleset = rules(all_pass_redeal_dealer=redeal_dealer)
    result = play_out(step(table(ruleset), "E pass", "S pass", "W pass", "N pass"))
    assert result.to_json() == {
        "outcome": "redeal",
        "contract": None,
        "declarer": None,
        "partner": None,
        "trump": None,
        "called": None,
        "tricks": {"N": 0, "E": 0, "S": 0, "W": 0},
        "declarer_side_tricks": 0,
        "made": None,
        "scores": {"N": 0, "E": 0, "S": 0, "W": 0},
    }


def test_r4_1_nothing_is_legal_after_a_redeal() -> None:
    state = step(table(rules()), "E pass", "S pass", "W pass", "N pass")
    assert state.legal_actions() == ()
    reject(state, "E bid 7", Reason.GAME_OVER)


# --- 4.7 the total order tables -------------------------------------------------------------


def _ladder(ruleset: RuleSet) -> list[frozenset[str]]:
    """Return the bids of ``ruleset`` as ranks, low to high, read from the legal bids.

    Two bids share a rank when the same bids overcall each other; the ranks must form
    a total order: every bid of a higher rank, and no other, overcalls a bid.
    """
    start = table(ruleset)
    every = bids(start)
    above = {b: frozenset(bids(step(start, f"E bid {b}"))) for b in every}
    ranks: list[frozenset[str]] = []
    for bid in sorted(every, key=lambda b: -len(above[b])):
        if ranks and above[next(iter(ranks[-1]))] == above[bid]:
            ranks[-1] = ranks[-1] | {bid}
        else:
            ranks.append(frozenset({bid}))
    for i, rank in enumerate(ranks):
        higher = frozenset().union(*ranks[i + 1 :])
        assert all(above[b] == higher for b in rank), rank
    return ranks


def _e0_level(level: int, attachments: tuple[str, ...] = ("vip", "gode", "halve")) -> list[str]:
    return [str(level), " / ".join(f"{level} {a}" for a in attachments)]


def _ordered_level(level: int, attachments: tuple[str, ...]) -> list[str]:
    return [str(level), *(f"{level} {a}" for a in attachments)]


def _ranks(*names: str) -> list[frozenset[str]]:
    return [frozenset(name.split(" / ")) for name in names]


def _e0_table(top: str) -> list[frozenset[str]]:
    """The 18 ranks of 4.7 for wikipedia / kortdrengene / osterbro."""
    return _ranks(
        *_e0_level(7),
        *_e0_level(8),
        "9",
        "sol",
        _e0_level(9)[1],
        "10",
        "ren_sol",
        _e0_level(10)[1],
        "11",
        "bordlaegger",
        _e0_level(11)[1],
        "12",
        top,
        _e0_level(12)[1],
        *_e0_level(13),
    )


def _anchored_table(attachments: tuple[str, ...], top: str) -> list[frozenset[str]]:
    """Ordered attachments, each nolo directly above the plain bid of its anchor (above_plain)."""
    nolo = {9: "sol", 10: "ren_sol", 11: "bordlaegger", 12: top}
    names: list[str] = []
    for level in range(7, 14):
        names.append(str(level))
        if level in nolo:
            names.append(nolo[level])
        names.extend(f"{level} {a}" for a in attachments)
    return _ranks(*names)


def _hilmarshelte_table() -> list[frozenset[str]]:
    """Per level N < N gode < N halve < N vip < N sans; each nolo above its whole level."""
    nolo = {9: "sol", 10: "ren_sol", 11: "bordlaegger", 12: "ren_bordlaegger"}
    names: list[str] = []
    for level in range(7, 14):
        names.extend(_ordered_level(level, ("gode", "halve", "vip", "sans")))
        if level in nolo:
            names.append(nolo[level])
    return _ranks(*names)


def test_r4_7_ladder_wikipedia() -> None:
    ladder = _ladder(rules("wikipedia"))
    assert len(ladder) == 18
    assert ladder == _e0_table("ren_bordlaegger")


def test_r4_7_ladder_osterbro() -> None:
    assert _ladder(rules("osterbro")) == _e0_table("ren_bordlaegger")


def test_r4_7_ladder_kortdrengene() -> None:
    assert _ladder(rules("kortdrengene")) == _e0_table("super_bordlaegger")


def test_r4_7_ladder_tanya() -> None:
    ladder = _ladder(rules("tanya"))
    assert len(ladder) == 32
    assert ladder == _anchored_table(
        ("vip", "gode", "halve"), "ren_bordlaegger / super_bordlaegger"
    )


def test_r4_7_ladder_hjerteres() -> None:
    ladder = _ladder(rules("hjerteres"))
    assert ladder == _anchored_table(("vip", "staerke", "gode", "halve"), "double_nolo")


def test_r4_7_ladder_hilmarshelte() -> None:
    assert _ladder(rules("hilmarshelte")) == _hilmarshelte_table()


# --- section 9: deck and iron hand ------------------------------------------------------------


def test_num_jokers_2_deals_a_kitty_of_two() -> None:
    ruleset = rules(num_jokers=2)
    state = table(ruleset, kitty="D9 C4")
    assert len(state.kitty) == 2
    assert ruleset.kitty_size == 2
    assert sum(len(hand) for hand in state.hands) == 52
    hands = {s.name: str(h) for s, h in zip(Seat, state.hands, strict=True)}
    with pytest.raises(InvalidDealError):
        make_state(ruleset, "N", hands, "D9 C4 X3")
    state = step(state, "E bid 8", "S pass", "W pass", "N pass")
    assert state.phase is Phase.TRUMP


def test_num_jokers_3_rejects_a_kitty_of_two() -> None:
    hands = {s.name: str(h) for s, h in zip(Seat, table(rules()).hands, strict=True)}
    with pytest.raises(InvalidDealError):
        make_state(rules(), "N", hands, "D9 C4")


def _iron_table(preset: str = "hilmarshelte", **overrides: object) -> State:
    return table(rules(preset, **overrides), {"W": IRON_HAND})


def test_r3_6_iron_hand_is_claimed_out_of_turn() -> None:
    state = _iron_table()
    assert state.to_act == Seat.E
    assert state.legal_actions_of(Seat.W) == (IRON,)
    state = state.apply(Iron(), Seat.W)
    assert state.is_terminal
    result = state.result()
    assert result is not None
    assert result.outcome == "redeal"
    assert result.scores == (0, 0, 0, 0)
    assert result.declarer is None
    assert [str(s) for s in state.history] == ["W iron"]


def test_r3_6_iron_hand_option_on_another_preset() -> None:
    state = _iron_table("wikipedia", iron_hand="optional")
    assert state.apply(Iron(), Seat.W).is_terminal


def test_r3_6_iron_hand_only_before_the_first_call() -> None:
    state = step(_iron_table(), "E pass")
    assert state.legal_actions_of(Seat.W) == ()
    error = reject(state, "W iron", Reason.IRON_HAND_NOT_ALLOWED)
    assert "R3.6" in str(error)
    assert "first call" in str(error)


@pytest.mark.parametrize(
    "hand",
    [
        "S2 S3 S4 S5 ST H2 H3 H4 H5 D2 D3 D4 CJ",  # a jack
        "S2 S3 S4 S5 ST H2 H3 H4 H5 D2 D3 D4 HA",  # an ace
        "S2 S3 S4 S5 ST H2 H3 H4 H5 D2 D3 D4 X1",  # a joker
    ],
)
def test_r3_6_iron_hand_only_with_a_qualifying_hand(hand: str) -> None:
    state = table(rules("hilmarshelte"), {"W": hand})
    assert state.legal_actions_of(Seat.W) == ()
    error = reject(state, "W iron", Reason.IRON_HAND_NOT_ALLOWED)
    assert "R3.6" in str(error)


def test_r3_6_iron_hand_off_in_wikipedia() -> None:
    state = _iron_table("wikipedia")
    assert state.legal_actions_of(Seat.W) == ()
    error = reject(state, "W iron", Reason.IRON_HAND_NOT_ALLOWED)
    assert "no iron hand" in str(error)
    assert "R3.6" in str(error)


def test_r3_6_the_seat_to_act_may_claim_iron_hand() -> None:
    state = table(rules("hilmarshelte"), {"E": IRON_HAND})
    assert state.is_legal(IRON)
    assert state.apply(IRON).result() is not None


def test_r3_6_the_seat_to_act_sees_iron_among_its_legal_actions() -> None:
    state = table(rules("hilmarshelte"), {"E": IRON_HAND})
    assert IRON in state.legal_actions()
    assert IRON in state.legal_actions_of(Seat.E)


# --- section 9: auction options ---------------------------------------------------------------


def test_forehand_must_open_forbids_the_opening_pass() -> None:
    state = table(rules(forehand_must_open=True))
    assert PASS not in state.legal_actions()
    assert bids(state)[0] == "7"
    error = reject(state, "E pass", Reason.MUST_OPEN)
    assert "forehand_must_open" in str(error)
    state = step(state, "E bid 7")
    assert state.legal_actions()[0] == PASS
    state = step(state, "S pass", "W pass", "N pass")
    assert _contract_of(state) == (Seat.E, Bid(7))


def test_forehand_must_open_binds_only_forehand() -> None:
    state = table(rules(forehand_must_open=True), dealer="W")
    reject(state, "N pass", Reason.MUST_OPEN)
    state = step(state, "N bid 8")
    assert PASS in state.legal_actions()


@pytest.mark.parametrize("min_bid", [7, 8, 9])
def test_min_bid_is_the_lowest_number_bid(min_bid: int) -> None:
    state = table(rules(min_bid=min_bid))
    number_bids = [b for b in state.legal_actions() if isinstance(b, Bid) and not b.is_nolo]
    assert number_bids[0] == Bid(min_bid)
    for level in range(7, min_bid):
        error = reject(state, f"E bid {level}", Reason.BID_UNKNOWN)
        assert "R4.2" in str(error)
    assert "sol" in bids(state)


def test_attachments_staerke_and_sans_become_bids() -> None:
    ruleset = rules(attachments=["vip", "gode", "halve", "staerke", "sans"])
    state = step(table(ruleset), "E bid 8")
    assert bids(state)[:5] == ["8 vip", "8 gode", "8 halve", "8 staerke", "8 sans"]
    state = step(state, "S bid 8 sans")
    assert bids(state)[0] == "9", "under E0 stærke and sans are equal to the other attachments"


def test_attachments_left_out_are_not_bids() -> None:
    state = table(rules(attachments=["gode"]))
    assert bids(state)[:3] == ["7", "7 gode", "8"]
    reject(state, "E bid 7 vip", Reason.BID_UNKNOWN)
    reject(state, "E bid 7 halve", Reason.BID_UNKNOWN)


@pytest.mark.parametrize("preset", E0_PRESETS)
def test_r4_5_any_attachment_beats_the_plain_bid_of_its_level(preset: str) -> None:
    state = step(table(rules(preset)), "E bid 8")
    for attachment in ("vip", "gode", "halve"):
        assert step(state, f"S bid 8 {attachment}").to_act == Seat.E


def test_attachment_ranking_ordered_follows_attachment_order() -> None:
    ruleset = rules(attachment_ranking="ordered", attachment_order=["halve", "gode", "vip"])
    state = step(table(ruleset), "E bid 8 gode")
    assert bids(state)[:2] == ["8 vip", "9"]
    reject(state, "S bid 8 halve", Reason.BID_TOO_LOW)


def test_attachment_ranking_equal_distinct_once() -> None:
    state = step(table(rules(attachment_ranking="equal_distinct_once")), "E bid 8 vip")
    assert bids(state)[:3] == ["8 gode", "8 halve", "9"]
    state = step(state, "S bid 8 gode", "E bid 8 halve")
    # Every attachment has been used at level 8: only level 9 and up remain.
    assert bids(state)[0] == "9"
    reject(state, "S bid 8 vip", Reason.BID_TOO_LOW)
    reject(state, "S bid 8 gode", Reason.BID_TOO_LOW)
    reject(state, "S bid 8", Reason.BID_TOO_LOW)
    # Level 9 is fresh.
    state = step(state, "S bid 9 gode")
    assert bids(state)[:2] == ["9 vip", "9 halve"]


def test_attachment_ranking_equal_distinct_once_counts_the_whole_auction() -> None:
    ruleset = rules(attachment_ranking="equal_distinct_once")
    state = step(table(ruleset), "E bid 8 vip", "S bid 8 gode", "E pass")
    # W enters against S's 8 gode: 8 vip was bid earlier at this level, 8 halve was not.
    assert bids(state)[:2] == ["8 halve", "9"]


def test_attachment_ranking_equal_distinct_cycle() -> None:
    state = step(table(rules(attachment_ranking="equal_distinct_cycle")), "E bid 8 vip")
    state = step(state, "S bid 8 gode")
    assert bids(state)[:3] == ["8 vip", "8 halve", "9"]
    state = step(state, "E bid 8 vip")
    assert bids(state)[:3] == ["8 gode", "8 halve", "9"]
    reject(state, "S bid 8 vip", Reason.BID_TOO_LOW)
    reject(state, "S bid 8", Reason.BID_TOO_LOW)


def test_nolo_contracts_subset() -> None:
    state = table(rules(nolo_contracts=["sol"], nolo_anchor={"sol": 9}))
    assert [b for b in bids(state) if not b[0].isdigit()] == ["sol"]
    reject(state, "E bid ren_sol", Reason.BID_UNKNOWN)
    reject(state, "E bid bordlaegger", Reason.BID_UNKNOWN)


def test_nolo_contracts_double_nolo_sits_at_12() -> None:
    state = step(table(rules("hjerteres")), "E bid 12")
    assert bids(state)[0] == "double_nolo"
    state = step(state, "S bid double_nolo")
    assert bids(state)[0] == "12 vip"


def test_nolo_anchor_moves_a_nolo_to_another_level() -> None:
    anchors = {"sol": 8, "ren_sol": 10, "bordlaegger": 11, "ren_bordlaegger": 12}
    state = step(table(rules(nolo_anchor=anchors)), "E bid 8")
    assert bids(state)[:2] == ["sol", "8 vip"]
    state = step(state, "S bid sol")
    assert bids(state)[:2] == ["8 vip", "8 gode"]
    reject(state, "E bid 8", Reason.BID_TOO_LOW)


def test_nolo_anchor_position_above_plain() -> None:
    state = step(table(rules()), "E bid 9")
    assert bids(state)[:2] == ["sol", "9 vip"]
    state = step(state, "S bid sol")
    reject(state, "E bid 9", Reason.BID_TOO_LOW)


def test_nolo_anchor_position_above_all_of_level() -> None:
    state = step(table(rules(nolo_anchor_position="above_all_of_level")), "E bid 9 halve")
    assert bids(state)[:2] == ["sol", "10"]
    state = step(state, "S bid sol")
    assert bids(state)[0] == "10"


def test_nolo_anchor_position_above_attachment() -> None:
    ruleset = rules("tanya", nolo_anchor_position="above_attachment:gode")
    state = step(table(ruleset), "E bid 9 gode")
    assert bids(state)[:2] == ["sol", "9 halve"]
    state = step(state, "S bid sol")
    assert bids(state)[0] == "9 halve"
    reject(state, "E bid 9 gode", Reason.BID_TOO_LOW)


def test_super_bordlaegger_beatable_by_default() -> None:
    state = step(table(rules("kortdrengene")), "E bid super_bordlaegger")
    assert bids(state)[0] == "12 vip"


# --- 4.3 hold (clarification 8) -------------------------------------------------------------


def test_hold_privilege_none() -> None:
    state = step(table(rules()), "E bid 9", "S bid 9 vip")
    assert "hold" not in texts(state.legal_actions())
    error = reject(state, "E hold", Reason.HOLD_NOT_ALLOWED)
    assert "R4.3" in str(error)


def test_hold_privilege_forehand_only_denies_a_non_forehand_holder() -> None:
    state = step(table(rules(hold_privilege="forehand_only")), "E pass", "S bid 9", "W bid 9 vip")
    assert state.to_act == Seat.S
    assert "hold" not in texts(state.legal_actions())
    error = reject(state, "S hold", Reason.HOLD_NOT_ALLOWED)
    assert "forehand" in str(error)
    assert "R4.3" in str(error)


def test_hold_privilege_forehand_only_against_every_later_entrant() -> None:
    state = step(table(rules(hold_privilege="forehand_only")), "E bid 9", "S pass", "W bid 9 vip")
    assert state.to_act == Seat.E
    state = step(state, "E hold", "W bid 10", "E hold", "W pass", "N bid 10 gode", "E hold")
    state = step(state, "N pass")
    assert _contract_of(state) == (Seat.E, Bid(10, BidKind.GODE))


def test_hold_privilege_earlier_bidder_any_seat() -> None:
    state = step(table(rules(hold_privilege="earlier_bidder")), "E pass", "S bid 9", "W bid 9 vip")
    assert "hold" in texts(state.legal_actions())
    state = step(state, "S hold")
    assert state.to_act == Seat.W
    reject(state, "W hold", Reason.HOLD_NOT_ALLOWED)
    state = step(state, "W pass", "N pass")
    assert _contract_of(state) == (Seat.S, Bid(9, BidKind.VIP))


def test_clarification_8_hold_only_for_the_holder_when_the_duel_began() -> None:
    # E held the bid when the duel E-S began; S, the challenger, never may hold.
    state = step(
        table(rules(hold_privilege="earlier_bidder")), "E bid 9", "S bid 9 vip", "E bid 10"
    )
    assert state.to_act == Seat.S
    assert "hold" not in texts(state.legal_actions())
    error = reject(state, "S hold", Reason.HOLD_NOT_ALLOWED)
    assert "R4.3" in str(error)


def test_clarification_8_hold_only_right_after_being_overcalled() -> None:
    # W opens; N enters against W. W may hold N's bid right after it, not otherwise.
    ruleset = rules(hold_privilege="earlier_bidder")
    state = step(table(ruleset), "E pass", "S pass", "W bid 8")
    assert state.to_act == Seat.N
    state = step(state, "N bid 8 gode")
    assert "hold" in texts(state.legal_actions())
    state = step(state, "W bid 9")
    assert state.to_act == Seat.N
    assert "hold" not in texts(state.legal_actions())


def test_clarification_8_hold_forehand_only_needs_forehand_as_duel_holder() -> None:
    # S beat forehand E; in the duel S-W, S held the bid when it began but is not forehand.
    ruleset = rules(hold_privilege="forehand_only")
    state = step(table(ruleset), "E bid 8", "S bid 9", "E pass", "W bid 9 vip")
    assert state.to_act == Seat.S
    reject(state, "S hold", Reason.HOLD_NOT_ALLOWED)


# --- 4.4 gå med (clarification 6) -----------------------------------------------------------


def _nolo_scores(tricks: tuple[int, ...], players: tuple[Seat, ...], value: int) -> list[int]:
    """Score each nolo player alone against the other three (solo_each, sol at most one trick)."""
    totals = [0, 0, 0, 0]
    for player in players:
        signed = value if tricks[player] <= 1 else -2 * value
        for seat in Seat:
            totals[seat] += 3 * signed if seat == player else -signed
    return totals


def test_clarification_6_join_is_open_when_the_high_bid_is_nolo() -> None:
    state = step(table(rules("kortdrengene")), "E bid sol")
    assert texts(state.legal_actions())[:2] == ["pass", "join"]
    state = step(state, "S join")
    assert state.to_act == Seat.W, "joining ends S's part in the auction"
    state = step(state, "W pass", "N pass")
    assert state.phase is Phase.EXCHANGE
    result = play_out(state)
    assert result.declarer == Seat.E
    assert result.contract == Bid(None, BidKind.SOL)
    assert result.partner is None
    assert list(result.scores) == _nolo_scores(result.tricks, (Seat.E, Seat.S), 50)
    assert result.made == (result.tricks[Seat.E] <= 1)
    assert result.declarer_side_tricks == result.tricks[Seat.E]


def test_clarification_6_the_previous_holder_may_join_the_nolo_that_beat_him() -> None:
    state = step(table(rules("kortdrengene")), "E bid 9", "S bid sol", "E join")
    assert state.to_act == Seat.W
    state = step(state, "W pass", "N pass")
    result = play_out(state)
    assert result.declarer == Seat.S
    assert list(result.scores) == _nolo_scores(result.tricks, (Seat.S, Seat.E), 50)


def test_clarification_6_join_needs_a_nolo_high_bid() -> None:
    state = step(table(rules("kortdrengene")), "E bid 9")
    assert "join" not in texts(state.legal_actions())
    error = reject(state, "S join", Reason.JOIN_NOT_ALLOWED)
    assert "R4.4" in str(error)


def test_gaa_med_none_has_no_join() -> None:
    state = step(table(rules()), "E bid sol")
    assert "join" not in texts(state.legal_actions())
    reject(state, "S join", Reason.JOIN_NOT_ALLOWED)


def test_clarification_6_a_joiner_of_an_overcalled_bid_is_an_ordinary_defender() -> None:
    state = step(table(rules("kortdrengene")), "E bid sol", "S join", "W bid ren_sol")
    state = step(state, "E pass", "N pass")
    result = play_out(state)
    assert result.declarer == Seat.W
    assert_alone(result, "W")


def test_clarification_6_a_joiner_joins_the_exact_bid_not_the_holder() -> None:
    # S joins E's sol; E later takes the contract with bordlægger, which S did not join.
    state = step(table(rules("kortdrengene")), "E bid sol", "S join", "W bid ren_sol")
    state = step(state, "E bid bordlaegger", "W pass", "N pass")
    assert state.phase is Phase.EXCHANGE
    assert state.to_act == Seat.E, "only the declarer exchanges: S is no nolo player"
    result = play_out(state)
    assert result.declarer == Seat.E
    assert result.contract == Bid(None, BidKind.BORDLAEGGER)
    assert_alone(result, "E")


# --- the wording of errors ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "steps", "illegal", "reason", "rule"),
    [
        (rules(), [], "E bid 6 vip", None, None),
        (rules(), ["E bid 9"], "S bid 8 halve", Reason.BID_TOO_LOW, "R4.5"),
        (rules(), [], "E bid 8 sans", Reason.BID_UNKNOWN, "R4.2"),
        (rules(min_bid=8), [], "E bid 7", Reason.BID_UNKNOWN, "R4.2"),
        (rules(forehand_must_open=True), [], "E pass", Reason.MUST_OPEN, "forehand_must_open"),
        (rules(), ["E bid 9", "S bid 10"], "E hold", Reason.HOLD_NOT_ALLOWED, "R4.3"),
        (rules(), ["E bid sol"], "S join", Reason.JOIN_NOT_ALLOWED, "R4.4"),
        (rules(), [], "W iron", Reason.IRON_HAND_NOT_ALLOWED, "R3.6"),
    ],
)
def test_auction_errors_name_seat_action_and_rule(
    ruleset: RuleSet, steps: list[str], illegal: str, reason: Reason | None, rule: str | None
) -> None:
    state = step(table(ruleset), *steps)
    if reason is None:
        with pytest.raises(NotationError):
            step(state, illegal)
        return
    error = reject(state, illegal, reason)
    assert rule is not None
    assert rule in str(error)


def test_auction_error_out_of_turn_names_the_rule() -> None:
    error = reject(table(rules()), "S bid 8", Reason.NOT_YOUR_TURN)
    assert "R4.1" in str(error)


def test_auction_error_wrong_phase_names_the_rule() -> None:
    error = reject(table(rules()), "E trump S", Reason.WRONG_PHASE)
    assert "R4" in str(error) or "R5" in str(error)


def test_auction_error_wrong_phase_reason() -> None:
    error = reject(table(rules()), "E trump S", Reason.WRONG_PHASE)
    assert "auction" in str(error)


def test_rules_config_error_for_a_bad_auction_option() -> None:
    with pytest.raises(RulesConfigError, match="hold_privilege"):
        rules(hold_privilege="always")


def test_clarification_7_tanya_ren_and_super_bordlaegger_share_a_slot() -> None:
    for first, second in (
        ("ren_bordlaegger", "super_bordlaegger"),
        ("super_bordlaegger", "ren_bordlaegger"),
    ):
        state = step(table(rules("tanya")), "E bid 12", f"S bid {first}")
        reject(state, f"E bid {second}", Reason.BID_TOO_LOW)
        assert bids(state)[0] == "12 vip"
