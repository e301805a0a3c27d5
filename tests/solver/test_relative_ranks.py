"""Relative ranks: the played cards squeezed out of each suit (the table's key), on both
kernels; the compiled one gathers and scatters bits with BMI2 where the CPU has it."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from esmakker.solver.backend import int_array, kernel_module
from esmakker.solver.jit import HAVE_NUMBA

JOKERS = 0b111 << 52
KERNELS = [pytest.param(True, id="pure"), pytest.param(False, id="compiled")]


def kernel_and_array(pure: bool, values: list[int]) -> tuple[ModuleType, Any]:
    compiled = HAVE_NUMBA and not pure
    array = int_array(len(values), 0, compiled)
    for i, value in enumerate(values):
        array[i] = value
    return kernel_module(pure), array


def squeezed_by_walking(hands: list[int], called: int) -> tuple[int, int, int, int, int]:
    """Return each hand's relative places, walking every suit's live cards upwards."""
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    out = [hand & JOKERS for hand in hands]
    crel = -1
    for suit in range(4):
        place = 13 * suit
        for card in range(13 * suit, 13 * suit + 13):
            if not (alive >> card) & 1:
                continue
            owner = next(seat for seat in range(4) if (hands[seat] >> card) & 1)
            out[owner] |= 1 << place
            if card == called:
                crel = place
            place += 1
    return out[0], out[1], out[2], out[3], crel


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[int], int]:
    alive = draw(st.integers(0, (1 << 55) - 1))
    hands = [0, 0, 0, 0]
    for card in range(55):
        if (alive >> card) & 1:
            hands[draw(st.integers(0, 3))] |= 1 << card
    called = draw(st.integers(-1, 51))
    return hands, called


@pytest.mark.parametrize("pure", KERNELS)
@given(deal=deals())
def test_relative_hands_squeeze_the_played_cards_out_of_each_suit(
    pure: bool, deal: tuple[list[int], int]
) -> None:
    hands, called = deal
    kernel, array = kernel_and_array(pure, hands)
    assert tuple(kernel.relative_hands(array, called)) == squeezed_by_walking(hands, called)


@pytest.mark.parametrize("pure", KERNELS)
@given(deal=deals(), depths=st.lists(st.integers(0, 13), min_size=4, max_size=4))
def test_a_relative_top_run_stands_for_the_top_live_cards(
    pure: bool, deal: tuple[list[int], int], depths: list[int]
) -> None:
    hands, _ = deal
    kernel = kernel_module(pure)
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    expected = 0
    relative = 0
    for suit, depth in enumerate(depths):
        live = [card for card in range(13 * suit, 13 * suit + 13) if (alive >> card) & 1]
        top = live[len(live) - min(depth, len(live)) :]
        for card in top:
            expected |= 1 << card
        relative |= kernel.to_relative(1 << top[0], alive) if top else 0
    assert kernel.to_absolute(relative, alive) == expected


@pytest.mark.parametrize("pure", KERNELS)
@given(value=st.integers(0, (1 << 55) - 1), mask=st.integers(0, (1 << 55) - 1))
def test_gather_and_scatter_are_pext_and_pdep(pure: bool, value: int, mask: int) -> None:
    kernel = kernel_module(pure)
    places = [bit for bit in range(55) if (mask >> bit) & 1]
    gathered = sum(1 << i for i, bit in enumerate(places) if (value >> bit) & 1)
    scattered = sum(1 << bit for i, bit in enumerate(places) if (value >> i) & 1)
    assert kernel.gather(value, mask) == gathered
    assert kernel.scatter(value, mask) == scattered
