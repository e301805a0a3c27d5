"""DDS's later tricks: a team that needs every trick left, and cannot take them all."""

from __future__ import annotations

from typing import Any

import pytest

from esmakker.solver.backend import int_array, kernel_module
from esmakker.solver.bridge import parse_pbn
from solver_support import dds_ns_tricks

NORTH_SOUTH = 0b0101
EAST_WEST = 0b1010
SPADES = 3


def table(hands: tuple[int, int, int, int], pure: bool) -> Any:
    """Return the hands as the kernel takes them (a list, or an array when compiled)."""
    array = int_array(4, 0, not pure)
    for seat, hand in enumerate(hands):
        array[seat] = hand
    return array


def card(text: str) -> int:
    """Return a card's bit in the kernel's order (clubs 0-12, ..., spades 39-51)."""
    suit = "CDHS".index(text[0])
    return 1 << (13 * suit + "23456789TJQKA".index(text[1]))


@pytest.mark.parametrize("pure", [True, False])
def test_sweep_blocked_by_an_opponents_top_card_and_short_winners(pure: bool) -> None:
    # NS hold the top spade, one long; East holds the top heart, West the top diamond.
    hands = parse_pbn("N:A.2.. .A.2. 2.3.. .K.3.")
    kernel = kernel_module(pure)
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    rel = kernel.sweep_blocked(table(hands, pure), NORTH_SOUTH, alive, 2)
    assert rel == card("HA") | card("D3")
    assert dds_ns_tricks(hands, -1, 0) < 2


def test_sweep_not_blocked_where_the_team_has_winners_for_every_trick() -> None:
    hands = parse_pbn("N:AK... 32... .AK.. .QJ..")
    kernel = kernel_module(True)
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    assert kernel.sweep_blocked(list(hands), NORTH_SOUTH, alive, 2) == -1
    assert dds_ns_tricks(hands, -1, 0) == 2


def test_sweep_blocked_counts_the_top_card_only_where_another_hand_holds_the_suit() -> None:
    # Only West holds diamonds: his top diamond's rank does not matter.
    hands = parse_pbn("N:A.2.. .A..3 2...2 ..AK.")
    kernel = kernel_module(True)
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    rel = kernel.sweep_blocked(list(hands), NORTH_SOUTH, alive, 2)
    assert rel == card("HA") | card("C3")
    assert dds_ns_tricks(hands, -1, 0) < 2


@pytest.mark.parametrize("pure", [True, False])
def test_guarded_second_trump_behind_the_top_one_takes_a_trick(pure: bool) -> None:
    # Spades are trumps; East's K2 sits over North's A3, North on lead.
    hands = parse_pbn("N:A3... K2... .AK.. .QJ..")
    kernel = kernel_module(pure)
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    rel = kernel.guarded_second_trump(table(hands, pure), NORTH_SOUTH, alive, SPADES, 0)
    assert rel == card("SA") | card("SK")
    assert dds_ns_tricks(hands, SPADES, 0) < 2


def test_guarded_second_trump_needs_the_other_side_on_lead() -> None:
    # East on lead with trumps only must lead into North's ace: North-South take both.
    hands = parse_pbn("N:A3... K2... .AK.. .QJ..")
    kernel = kernel_module(True)
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    assert kernel.guarded_second_trump(list(hands), NORTH_SOUTH, alive, SPADES, 1) == -1
    assert dds_ns_tricks(hands, SPADES, 1) == 2


def test_guarded_second_trump_needs_a_second_card() -> None:
    hands = parse_pbn("N:A2... K.2.. 3.3.. .QJ..")
    kernel = kernel_module(True)
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    assert kernel.guarded_second_trump(list(hands), NORTH_SOUTH, alive, SPADES, 0) == -1
    assert dds_ns_tricks(hands, SPADES, 0) == 2


@pytest.mark.parametrize("pure", [True, False])
def test_split_top_trumps_take_two_tricks(pure: bool) -> None:
    # Spades are trumps: North's ace and South's K3; East leads.
    hands = parse_pbn("N:A.2.. .AK.. K3... .QJ..")
    kernel = kernel_module(pure)
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    split = kernel.split_top_trumps(table(hands, pure), alive, SPADES, NORTH_SOUTH)
    assert split == card("SA") | card("SK")
    assert dds_ns_tricks(hands, SPADES, 1) == 2


def test_split_top_trumps_may_fall_together_when_both_are_alone() -> None:
    # North's ace and South's king, both bare: East leads his trump and they crash.
    hands = parse_pbn("N:A.2.. 3.A.. K.3.. .KQ..")
    kernel = kernel_module(True)
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    assert kernel.split_top_trumps(list(hands), alive, SPADES, NORTH_SOUTH) == -1
    assert dds_ns_tricks(hands, SPADES, 1) == 1


def after_lead(deal: str, text: str, pure: bool = True) -> tuple[Any, Any]:
    """Return the hands once North has led ``text``, and the trick it starts."""
    hands = list(parse_pbn(deal))
    hands[0] &= ~card(text)
    trick = int_array(56, 0, not pure)
    trick[0] = card(text).bit_length() - 1
    return table((hands[0], hands[1], hands[2], hands[3]), pure), trick


@pytest.mark.parametrize("pure", [True, False])
def test_second_hand_wins_with_the_top_card_of_the_suit_led(pure: bool) -> None:
    # North leads the H2; East's ace is over South's king.
    hands, trick = after_lead("N:.32.2. .A4..3 .K5..4 .QJ..5", "H2", pure)
    assert kernel_module(pure).second_hand_wins(hands, trick, 0, 1, -1, EAST_WEST) == card("HA")


def test_second_hand_wins_with_the_fourth_hands_top_card() -> None:
    hands, trick = after_lead("N:.32.2. .4.A3. .Q5..4 .A..K5", "H2")
    assert kernel_module(True).second_hand_wins(hands, trick, 0, 1, -1, EAST_WEST) == card("HA")


def test_second_hand_wins_only_with_its_own_teams_cards() -> None:
    # Partners anywhere (call-ace whist): North and East against South and West, whose ace
    # is over all.
    hands, trick = after_lead("N:.32.2. .4.A3. .Q5..4 .A..K5", "H2")
    assert kernel_module(True).second_hand_wins(hands, trick, 0, 1, -1, 0b0011) == -1


def test_second_hand_does_not_win_below_the_third_hands_top_card() -> None:
    hands, trick = after_lead("N:.32.2. .K4..3 .A5..4 .QJ..5", "H2")
    assert kernel_module(True).second_hand_wins(hands, trick, 0, 1, -1, EAST_WEST) == -1


def test_second_hand_wins_by_a_ruff_the_third_hand_cannot_beat() -> None:
    # Spades are trumps: East ruffs the heart lead; South must follow with a heart.
    hands, trick = after_lead("N:.32.2. 2..A3. .K5..4 .QJ..5", "H2")
    assert kernel_module(True).second_hand_wins(hands, trick, 0, 1, SPADES, EAST_WEST) == 0


def test_second_hand_does_not_win_where_the_third_hand_may_ruff() -> None:
    # South, void in hearts, holds a trump and may ruff East's ace.
    hands, trick = after_lead("N:.32.2. .A4..3 2..54. .QJ..5", "H2")
    assert kernel_module(True).second_hand_wins(hands, trick, 0, 1, SPADES, EAST_WEST) == -1


@pytest.mark.parametrize("pure", [True, False])
def test_second_hand_more_counts_the_winners_next_card_top_cards_and_lone_suit(
    pure: bool,
) -> None:
    # Without trumps East wins the heart lead with the ace, then cashes the king, the club
    # ace and both spades, which nobody else holds: five tricks.
    deal = "N:.QJ2..Q2 32.AK..A .T9..JT9 .865..43"
    hands, _ = after_lead(deal, "H2", pure)
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    count, rel = kernel_module(pure).second_hand_more(hands, card("HA"), alive)
    assert count == 5
    assert rel == card("HA") | card("HK") | card("CA")
    assert dds_ns_tricks(parse_pbn(deal), -1, 0) == 0
