"""Killer leads (DDS's best move): the lead that last cut at a trick is tried first there."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from esmakker.solver import kernel
from esmakker.solver.bridge import bridge_position, format_pbn
from esmakker.solver.solve import Solver
from solver_support import compiled_solver, dds_ns_tricks, random_hands

SLOTS = kernel.STATS_SIZE - kernel.STATS_KILLER


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(3, 6),
    killers=st.lists(st.integers(0, 55), min_size=SLOTS, max_size=SLOTS),
)
def test_killer_leads_order_moves_and_never_change_the_answer(
    seed: int, size: int, killers: list[int]
) -> None:
    rng = random.Random(seed)
    hands = random_hands(rng, size)
    trump = rng.randrange(-1, 4)
    leader = rng.randrange(4)
    solver = compiled_solver()
    solver.clear()
    # Any card (held, played, a joker or none) left behind by an earlier search.
    for slot, remembered in enumerate(killers):
        solver._stats[kernel.STATS_KILLER + slot] = remembered
    assert solver.value(bridge_position(hands, trump, leader)) == dds_ns_tricks(
        hands, trump, leader
    ), format_pbn(hands)


def test_clear_forgets_the_killer_leads() -> None:
    rng = random.Random(6)  # a pair where the first deal's killers cost the second nodes
    first = bridge_position(random_hands(rng, 8), 2, 1)
    second = bridge_position(random_hands(rng, 8), -1, 0)
    fresh = Solver()
    fresh.value(second)
    used = Solver()
    used.value(first)
    assert any(used._stats[kernel.STATS_KILLER : kernel.STATS_SIZE])
    used.clear()
    before = used.nodes
    used.value(second)
    assert used.nodes - before == fresh.nodes
