"""Equivalent cards: one card stands for each run of a hand's equal cards."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from esmakker.solver.backend import kernel_module

JOKERS = 0b111 << 52


def runs_walked(legal: int, alive: int, called: int) -> int:
    """Return the lowest card of each run, walking every suit's live cards upwards."""
    reps = 0
    if legal & JOKERS:
        reps |= (legal & JOKERS) & -(legal & JOKERS)
    for suit in range(4):
        run = False
        for rank in range(13):
            card = 13 * suit + rank
            if not (alive >> card) & 1:
                continue
            if (legal >> card) & 1 and card == called:
                reps |= 1 << card
                run = False
            elif (legal >> card) & 1:
                if not run:
                    reps |= 1 << card
                run = True
            else:
                run = False
    return reps


@st.composite
def hands(draw: st.DrawFn) -> tuple[int, int, int]:
    alive = draw(st.integers(0, (1 << 55) - 1))
    legal = alive & draw(st.integers(0, (1 << 55) - 1))
    held = [card for card in range(52) if (legal >> card) & 1]
    called = draw(st.sampled_from([-1, *held]) | st.integers(0, 51))
    return legal, alive, called


@given(hands())
def test_representatives_are_the_lowest_card_of_each_run(case: tuple[int, int, int]) -> None:
    legal, alive, called = case
    assert kernel_module(True).representatives(legal, alive, called) == runs_walked(
        legal, alive, called
    )


@given(hands())
def test_representatives_compiled_agree_with_plain(case: tuple[int, int, int]) -> None:
    legal, alive, called = case
    assert kernel_module(False).representatives(legal, alive, called) == kernel_module(
        True
    ).representatives(legal, alive, called)
