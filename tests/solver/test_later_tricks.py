"""DDS's later tricks: a team that needs every trick left, and cannot take them all."""

from __future__ import annotations

from typing import Any

import pytest

from esmakker.solver.backend import int_array, kernel_module
from esmakker.solver.bridge import parse_pbn
from solver_support import dds_ns_tricks

NORTH_SOUTH = 0b0101
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
