"""Hand-built whist positions with known answers: joker rules, the called ace, nolo objectives."""

from __future__ import annotations

from dataclasses import replace

import pytest

from esmakker.core.cards import Card, CardSet
from esmakker.solver import kernel as k
from esmakker.solver.backend import kernel_module
from esmakker.solver.position import (
    EXACTLY_ONE,
    MAXIMISE,
    MINIMISE,
    Position,
    mask_to_internal,
)
from esmakker.solver.solve import Solver
from solver_support import compiled_solver, kernel_minimax, pure_solver

N, E, S, W = 0, 1, 2, 3
NS = 0b0101
DEFAULT = k.F_JOKER_ONLY_WHEN_VOID | k.F_NO_JOKER_LEAD_TRICK1 | k.F_CALLED_FORCED_ON_OWN_LEAD
DEFAULT |= k.F_CALLED_MAY_BE_DISCARDED


def hands(n: str, e: str, s: str, w: str) -> tuple[int, int, int, int]:
    """Return four hand masks from card notation."""
    return (
        CardSet.parse(n).mask,
        CardSet.parse(e).mask,
        CardSet.parse(s).mask,
        CardSet.parse(w).mask,
    )


def cards(text: str) -> int:
    """Return the mask of some cards."""
    return CardSet.parse(text).mask


def card(text: str) -> int:
    """Return one card's number."""
    return int(Card.parse(text))


@pytest.fixture(params=["compiled", "pure"])
def solver(request: pytest.FixtureRequest) -> Solver:
    return compiled_solver() if request.param == "compiled" else pure_solver()


JOKER_ENDING = Position(
    hands=hands("X1 S2", "SA SK", "S3 S4", "S5 S6"), leader=N, trick_no=11, side=NS, flags=DEFAULT
)


def test_a_led_joker_wins_after_trick_one(solver: Solver) -> None:
    assert solver.card_values(JOKER_ENDING) == {card("X1"): 1, card("S2"): 0}
    assert solver.value(JOKER_ENDING) == 1


def test_no_joker_lead_to_trick_one(solver: Solver) -> None:
    first = replace(JOKER_ENDING, trick_no=0)
    assert solver.legal_cards(first) == cards("S2")
    free = replace(first, flags=DEFAULT & ~k.F_NO_JOKER_LEAD_TRICK1)
    assert solver.legal_cards(free) == cards("X1 S2")


def test_jokers_only_when_void(solver: Solver) -> None:
    pos = Position(
        hands=hands("S2", "SA X2", "S3 S4", "S5 S6"), trick=(card("S7"),), leader=W,
        trick_no=11, side=NS, flags=DEFAULT,
    )  # fmt: skip
    pos = replace(pos, hands=hands("S2 S8", "SA X2", "S3 S4", "S6"))
    assert solver.legal_cards(pos) == cards("S2 S8")
    east = replace(pos, trick=(card("S7"), card("S2")), hands=hands("S8", "SA X2", "S3 S4", "S6"))
    assert solver.legal_cards(east) == cards("SA")
    loose = replace(east, flags=DEFAULT & ~k.F_JOKER_ONLY_WHEN_VOID)
    assert solver.legal_cards(loose) == cards("SA X2")


def test_unled_jokers_never_win_unless_the_variant_says(solver: Solver) -> None:
    trick = (card("H2"), card("X2"), card("H3"), card("X3"))
    assert solver.trick_winner(JOKER_ENDING, trick) == 2
    beats = replace(JOKER_ENDING, flags=DEFAULT | k.F_JOKER_BEATS_PLAIN)
    assert solver.trick_winner(beats, trick) == 1
    trumped = replace(beats, trump=0)
    assert solver.trick_winner(trumped, (card("H2"), card("X2"), card("C2"), card("X3"))) == 2
    led = (card("X1"), card("SA"), card("X2"), card("S2"))
    assert solver.trick_winner(replace(JOKER_ENDING, trump=3), led) == 0


CALLED = Position(
    hands=hands("H2 S2", "HA H3", "S3 S4", "S5 S6"), leader=N, trick_no=11, side=0b0011,
    flags=DEFAULT, called=card("HA"), duty_holder=E,
)  # fmt: skip


def test_the_called_ace_must_be_played_when_its_suit_is_led(solver: Solver) -> None:
    after_lead = replace(CALLED, trick=(card("H2"),), hands=hands("S2", "HA H3", "S3 S4", "S5 S6"))
    assert solver.legal_cards(after_lead) == cards("HA")
    free = replace(CALLED, called=-1, duty_holder=-1)
    assert solver.legal_cards(
        replace(free, trick=after_lead.trick, hands=after_lead.hands)
    ) == cards("HA H3")


def test_the_called_ace_is_led_before_its_suit(solver: Solver) -> None:
    pos = replace(CALLED, leader=E, hands=hands("H2 S2", "HA H3", "S3 S4", "S5 S6"))
    assert solver.legal_cards(pos) == cards("HA")
    own = replace(pos, flags=DEFAULT & ~k.F_CALLED_FORCED_ON_OWN_LEAD)
    assert solver.legal_cards(own) == cards("HA H3")


def test_the_called_ace_may_not_be_thrown_away(solver: Solver) -> None:
    pos = replace(
        CALLED, hands=hands("S2", "HA D2", "S3", "S5"), trick=(card("S7"),), leader=W,
        trick_no=12, flags=DEFAULT & ~k.F_CALLED_MAY_BE_DISCARDED,
    )  # fmt: skip
    pos = replace(pos, hands=hands("S2", "HA D2", "S3", ""), trick=(card("S7"),))
    east = replace(
        pos, trick=(card("S7"), card("S2")), leader=W, hands=hands("", "HA D2", "S3", "")
    )
    assert solver.legal_cards(east) == cards("D2")
    assert solver.legal_cards(replace(east, flags=DEFAULT)) == cards("HA D2")


def _nolo(objective: str, limit: str, aces_low: bool, north: str) -> Position:
    return Position(
        hands=hands(north, "H2 H4", "H5 H6", "H7 H8"), leader=N, trick_no=11, side=1 << N,
        flags=DEFAULT, objective=objective, limit=limit, aces_low=aces_low,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("aces_low", "north", "fewest", "made"),
    [
        (True, "HA H3", 0, {"zero": True, "at_most_1": True, "exactly_1": False}),
        (False, "HA H3", 1, {"zero": False, "at_most_1": True, "exactly_1": True}),
        (False, "HA HK", 2, {"zero": False, "at_most_1": False, "exactly_1": False}),
    ],
)
def test_nolo_objectives(
    solver: Solver, aces_low: bool, north: str, fewest: int, made: dict[str, bool]
) -> None:
    for limit, expected in made.items():
        objective = EXACTLY_ONE if limit == "exactly_1" else MINIMISE
        pos = _nolo(objective, limit, aces_low, north)
        assert solver.value(pos) == fewest
        assert solver.made(pos) is expected, limit


def test_number_contract_made(solver: Solver) -> None:
    pos = replace(JOKER_ENDING, objective=MAXIMISE, target=1, won=0)
    assert solver.made(pos)
    assert not solver.made(replace(pos, target=2))


def test_the_node_cap_gives_up_cleanly() -> None:
    from esmakker.solver.solve import SolverGaveUpError

    capped = Solver(node_limit=3)
    pos = _nolo(MINIMISE, "zero", False, "HA HK")
    with pytest.raises(SolverGaveUpError):
        capped.value(replace(pos, hands=hands("HA HK H3", "H2 H4 S2", "H5 H6 S3", "H7 H8 S4")))
    capped.node_limit = None
    assert capped.value(pos) == 2


def test_quick_tricks_know_who_the_opponents_are(solver: Solver) -> None:
    """East partners North: South, opposite the leader, ruffs North's top clubs."""
    pos = Position(
        hands=hands("CA CK CQ", "C2 C3 C4", "H2 H3 D2", "C5 C6 C7"), leader=N, trick_no=10,
        trump=2, side=0b0011, flags=DEFAULT,
    )  # fmt: skip
    assert solver.value(pos) == 0
    assert solver.value(pos) == kernel_minimax(solver, pos)


def test_quick_tricks_after_a_joker_lead_or_a_mates_forced_ruff(solver: Solver) -> None:
    """East's joker lead lets West throw his club and ruff the ten; the ten first makes
    North, who holds only trumps, ruff it and lead away from East's joker: one trick."""
    pos = Position(
        hands=hands("H4 H8 HQ", "CT S9 X3", "C2 C3 C4", "C8 HA X1"), leader=E, trick_no=10,
        trump=2, side=0b1100, flags=DEFAULT & ~k.F_JOKER_ONLY_WHEN_VOID,
    )  # fmt: skip
    assert solver.value(pos) == 2
    assert solver.value(pos) == kernel_minimax(solver, pos)


def test_partners_cash_their_top_cards_together_without_trumps(solver: Solver) -> None:
    """North reaches South's long clubs: all five tricks, found by the joint quick tricks."""
    pos = Position(
        hands=hands("CA C2 SA HA DA", "C5 C6 S3 H3 D3", "CK CQ CJ CT C9", "C7 C8 S4 H4 D4"),
        leader=N, trick_no=8, side=NS, flags=DEFAULT,
    )  # fmt: skip
    assert solver.value(pos) == 5
    assert solver.value(pos) == kernel_minimax(solver, pos)


def test_cards_below_the_deciding_run_are_searched_once() -> None:
    """Once the five of diamonds failed and only the queen and above decided it, the same
    hand's lower diamonds need no search; cards of the run itself always do."""
    pos = Position(hands=hands("D5 D3", "DQ D4", "D2 D6", "D7 D8"), leader=N, side=NS)
    five, three, queen, king = (pos.internal(card(c)) for c in ("D5", "D3", "DQ", "DK"))
    skipped = k.equivalent_after(five, 1 << queen, -1)
    assert skipped >> three & 1
    assert not skipped >> queen & 1
    assert k.equivalent_after(king, 1 << queen, -1) == 0
    assert k.equivalent_after(five, 1 << queen, three) >> three & 1 == 0


def test_skipping_equivalent_low_cards_keeps_the_value(solver: Solver) -> None:
    """North's low hearts differ only below the cards that decide the ending."""
    pos = Position(
        hands=hands("H2 H5 H9 SA", "H3 H6 HT SK", "H4 H7 HJ SQ", "HA HK HQ S2"),
        leader=N, trick_no=9, trump=-1, side=NS, flags=DEFAULT,
    )  # fmt: skip
    assert solver.value(pos) == kernel_minimax(solver, pos)


def test_the_first_guess_shares_the_tricks_between_the_sides() -> None:
    """The estimates for a side and for the others add up to the tricks left, and the
    side with the top cards and the trumps expects most of them."""
    from esmakker.solver.solve import _estimate

    pos = Position(
        hands=hands("SA SK SQ HA", "S2 S3 H2 H3", "SJ ST HK HQ", "S4 S5 H4 H5"),
        leader=E, trick_no=9, trump=3, side=NS, flags=DEFAULT,
    )  # fmt: skip
    assert _estimate(pos, NS) + _estimate(pos, 0b1010) == pytest.approx(pos.left)
    assert _estimate(pos, NS) > 3


def _sol(n: str, e: str, s: str, w: str, leader: int, flags: int = DEFAULT) -> Position:
    """Return a sol ending for East (aces low, no trumps)."""
    return Position(
        hands=hands(n, e, s, w), leader=leader, trick_no=10, side=1 << E,
        objective=MINIMISE, limit="zero", aces_low=True, flags=flags,
    )  # fmt: skip


def test_a_sol_player_below_every_card_of_his_suits_takes_no_trick(solver: Solver) -> None:
    """East's cards lie under all the others' in their suits: no lead makes him win, and
    the defenders' jokers win only for themselves."""
    pos = _sol("S9 X1 H8", "S2 S3 H2", "ST SJ H9", "X2 HT SQ", leader=N)
    assert pos.internal(card("S2")) < pos.internal(card("S9"))
    safe = kernel_module(pure=True).nolo_safe(
        [mask_to_internal(h, True) for h in pos.hands], pos.leader, pos.side, pos.flags
    )
    assert safe >= 0
    assert solver.value(pos) == 0
    assert solver.value(pos) == kernel_minimax(solver, pos)


def test_a_sol_player_on_lead_in_suits_nobody_else_holds_is_not_safe(solver: Solver) -> None:
    """East leads: his diamonds are the only ones left, so his low lead still wins."""
    pos = _sol("S9 SK HQ", "D2 D3 D4", "ST SJ H9", "SQ HT H8", leader=E)
    safe = kernel_module(pure=True).nolo_safe(
        [mask_to_internal(h, True) for h in pos.hands], pos.leader, pos.side, pos.flags
    )
    assert safe == -1
    assert solver.value(pos) == 3
    assert solver.value(pos) == kernel_minimax(solver, pos)


def _trump_ending(north: str, east: str, south: str, west: str) -> Position:
    """Return a four-card ending, hearts trumps, East on lead, North-South the side."""
    return Position(
        hands=hands(north, east, south, west), leader=E, trick_no=9, trump=2, side=NS,
        flags=DEFAULT,
    )  # fmt: skip


def test_a_side_whose_opponents_hold_no_trumps_takes_its_longest_trump_holding(
    solver: Solver,
) -> None:
    """North's three low trumps each win a trick of their own: East and West hold none."""
    pos = _trump_ending("H2 H3 H4 S2", "SA SK SQ CA", "D2 D3 D4 D5", "CK CQ CJ DA")
    internal = [mask_to_internal(h, False) for h in pos.hands]
    assert kernel_module(pure=True).trump_length_tricks(internal, 2, NS) == 3
    assert kernel_module(pure=True).trump_length_tricks(internal, 2, 0b1010) == 0
    assert solver.value(pos) == 3
    assert solver.value(pos) == kernel_minimax(solver, pos)


def test_each_opponent_joker_may_take_one_trump_trick_away(solver: Solver) -> None:
    """West's joker, led after the first trick, wins whatever North plays to it."""
    pos = _trump_ending("H2 H3 H4 S2", "SA SK SQ CA", "D2 D3 D4 D5", "CK CQ X1 DA")
    internal = [mask_to_internal(h, False) for h in pos.hands]
    assert kernel_module(pure=True).trump_length_tricks(internal, 2, NS) == 2
    assert solver.value(pos) == kernel_minimax(solver, pos)
    assert solver.value(pos) >= 2


def _internal(text: str) -> int:
    return mask_to_internal(cards(text), False)


def test_sure_winners_are_led_trumps_first_then_from_the_longest_top_run() -> None:
    kernel = kernel_module(pure=True)
    hand = _internal("SA SK SQ HA DA D2")
    live = hand | _internal("S2 H2 D3 D4")
    spades, hearts = _internal("SQ"), _internal("HA")
    internal_card = spades.bit_length() - 1
    foes = _internal("S2 H2 D3 D4")
    assert kernel.best_winner(spades | hearts, hand, live, -1, foes) == internal_card
    hearts_card = hearts.bit_length() - 1
    assert kernel.best_winner(spades | hearts, hand, live, 2, foes) == hearts_card


def test_a_sure_trump_is_led_last_when_no_opponent_holds_a_trump() -> None:
    kernel = kernel_module(pure=True)
    hand = _internal("HA HK SA D2")
    live = hand | _internal("S2 D3")
    moves = _internal("HK SA")
    assert (
        kernel.best_winner(moves, hand, live, 2, _internal("S2 D3"))
        == _internal("SA").bit_length() - 1
    )


def test_other_leads_come_from_the_shortest_suit_first_trumps_last() -> None:
    hand = _internal("S2 S3 S4 H5 D6 D7")
    moves = _internal("S2 H5 D6")
    kernel = kernel_module(pure=True)
    assert kernel.short_suit_lead(moves, hand, -1, 0, 0) == _internal("H5").bit_length() - 1
    assert kernel.short_suit_lead(moves, hand, 2, 0, 0) == _internal("D6").bit_length() - 1


def test_other_leads_prefer_a_suit_the_opponents_hold_more_of() -> None:
    # Spades: three of the leader's against the opponents' seven; hearts: one against one.
    hand = _internal("S2 S3 S4 H5 D6 D7")
    moves = _internal("S2 H5")
    foes = _internal("S5 S6 S7 S8 S9 ST SJ H6")
    kernel = kernel_module(pure=True)
    assert kernel.short_suit_lead(moves, hand, -1, foes, 0) == _internal("S2").bit_length() - 1


def _discard(hand: str, moves: str, live: str, trump: int) -> int:
    own = _internal(hand)
    kernel = kernel_module(pure=True)
    return int(kernel.best_discard(_internal(moves), own, own | _internal(live), trump))


def test_a_void_hand_discards_low_from_its_longest_suit_first() -> None:
    card = _discard("S2 S3 S4 S5 H9 D6", "S2 H9 D6", "SA HA DA", -1)
    assert card == _internal("S2").bit_length() - 1


def test_a_discard_spares_a_guarded_second_card() -> None:
    # D2 is the lowest card, but it guards the king behind the opponents' ace.
    card = _discard("DK D2 C3 C4", "D2 C3", "DA CA CK", -1)
    assert card == _internal("C3").bit_length() - 1


def test_a_discard_spares_a_lone_top_card() -> None:
    # H2 is the last heart, so the top one: throwing it throws a trick.
    card = _discard("H2 C8 C9", "H2 C8", "CA CK", -1)
    assert card == _internal("C8").bit_length() - 1


def test_a_void_hand_ruffs_its_partners_trick_last() -> None:
    card = _discard("S2 S3 S4 S5 H9", "S2 H9", "SA HA", 3)
    assert card == _internal("H9").bit_length() - 1


def test_third_hand_first_tries_the_lowest_card_the_fourth_hand_cannot_beat() -> None:
    kernel = kernel_module(pure=True)
    trick = [0] * k.TRICK_SLOTS
    trick[0] = _internal("S5").bit_length() - 1  # the partner's lead
    trick[1] = _internal("S2").bit_length() - 1
    reps = _internal("S3 S9 SQ SA")
    fourth = _internal("SJ ST")
    assert kernel.cover_against(trick, 0, 2, reps, fourth, -1, DEFAULT) == _internal("SQ")
    assert kernel.cover_against(trick, 0, 2, reps, _internal("S4 H2"), -1, DEFAULT) == 0


def _partner_beats(lead: str, third: str, fourth: str, trump: int) -> bool:
    kernel = kernel_module(pure=True)
    trick = [_internal(lead).bit_length() - 1] + [0] * (k.TRICK_SLOTS - 1)
    return bool(kernel.partner_beats(trick, 0, _internal(third), _internal(fourth), trump))


def test_second_hand_plays_low_when_the_fourth_hand_beats_the_lead_and_the_third() -> None:
    assert _partner_beats("HT", "HJ H3 S2", "HQ C4", -1)
    assert not _partner_beats("HT", "HK H3", "HQ C4", -1)  # the third hand's king is higher
    assert not _partner_beats("HQ", "H3", "HJ H2", -1)  # the fourth hand is below the lead


def test_a_third_hand_that_may_ruff_or_throw_a_joker_keeps_second_hand_from_playing_low() -> None:
    assert _partner_beats("HT", "S2 C3", "HQ", -1)  # void, and no trumps to ruff with
    assert not _partner_beats("HT", "S2 C3", "HQ", 3)  # void, and may ruff with S2
    assert _partner_beats("HT", "C3", "HQ", 3)  # void of hearts and of trumps
    assert not _partner_beats("HT", "X1 C3", "HQ", -1)  # void, with a joker to throw


def _through(north: str, east: str, south: str, west: str, side: int = NS) -> int:
    kernel = kernel_module(pure=True)
    held = [_internal(text) for text in (north, east, south, west)]
    live = held[0] | held[1] | held[2] | held[3]
    return int(kernel.lead_through(held, live, N, side))


def test_a_lead_through_the_next_hands_top_card_to_the_mates_second_card() -> None:
    hearts = 1 << 2
    assert _through("H2", "HA H3", "HK H4", "H5") == hearts
    assert _through("H2", "HA H3", "HK", "H5 H4") == 0  # the mate's king stands alone
    assert _through("H2", "HK H3", "HA H4", "H5") == 0  # the mate holds the top card
    assert _through("H2", "HA H3", "HK H4", "H5", side=0b0011) == 0  # the next hand is a mate
    # A suit to lead through comes before the shorter suits.
    hand = _internal("S2 S3 S4 H5 D6 D7")
    kernel = kernel_module(pure=True)
    spades = 1 << 3
    lead = kernel.short_suit_lead(_internal("S2 H5 D6"), hand, -1, 0, spades)
    assert lead == _internal("S2").bit_length() - 1


def _weighted(
    north: str, east: str, south: str, west: str, moves: str, trump: int, killer: str = ""
) -> int:
    """Return the lead North tries first by the lead weights."""
    kernel = kernel_module(pure=True)
    held = [_internal(text) for text in (north, east, south, west)]
    live = held[0] | held[1] | held[2] | held[3]
    left = held[0].bit_count()
    lead = kernel.weighted_lead(
        _internal(moves), held, live, N, trump, left, _internal(killer) if killer else 0
    )
    return int(lead)


def _lead(text: str) -> int:
    return _internal(text).bit_length() - 1


def test_weighted_leads_only_where_the_partner_sits_opposite() -> None:
    kernel = kernel_module(pure=True)
    assert kernel.partner_opposite(NS, N)
    assert kernel.partner_opposite(NS, E)  # East's partner, West, sits opposite too
    assert not kernel.partner_opposite(0b0011, N)  # North's partner is East
    assert not kernel.partner_opposite(0b0001, N)  # North plays alone
    assert not kernel.partner_opposite(0b0001, E)  # East has two partners


def test_a_lead_toward_a_finesse_comes_before_one_into_the_last_hands_top_card() -> None:
    # Spades: East holds the ace and South the king behind it; hearts: West's ace sits
    # over everybody.
    assert _weighted("S2 H2", "SA H3", "SK S3", "S4 HA", "S2 H2", -1) == _lead("S2")
    # The same with the suits' roles swapped.
    assert _weighted("S2 H2", "S4 HA", "SK HK H4", "SA H3", "S2 H2", -1) == _lead("H2")


def test_a_winning_lead_comes_before_a_low_card() -> None:
    deal = ("SA SK H2", "S2 H3 H4", "S3 H5 H6", "S4 H7 H8")
    assert _weighted(*deal, "SK H2", -1) == _lead("SK")


def test_a_lead_an_opponent_ruffs_comes_after_one_he_must_follow() -> None:
    # Trumps are clubs. East ruffs hearts; everybody follows spades.
    deal = ("S2 H2 C2", "S3 C3 C4", "S4 H4 C5", "S5 H5 C6")
    assert _weighted(*deal, "S2 H2", 0) == _lead("S2")


def test_the_last_cutting_lead_gains_weight_among_the_weighted_leads() -> None:
    # Both aces win; the heart king behind the ace makes spades the better suit to cash.
    deal = ("SA SK HA", "S2 HK H3", "S3 H4 H5", "S4 H6 H7")
    assert _weighted(*deal, "SK HA", -1) == _lead("SK")
    assert _weighted(*deal, "SK HA", -1, killer="HA") == _lead("HA")
