"""A cleared solver empties its tables and keeps their memory for the next ones."""

from __future__ import annotations

import random

import pytest

from esmakker.solver import solve
from esmakker.solver.bridge import bridge_position
from esmakker.solver.solve import Solver
from solver_support import random_hands


@pytest.mark.parametrize("pure", [True, False])
def test_a_cleared_table_holds_nothing_of_the_last_search(pure: bool) -> None:
    position = bridge_position(random_hands(random.Random(3), 6), 1, 2)
    solver = Solver(pure=pure)
    answer = solver.value(position)
    searched = solver.nodes
    solver.clear()
    assert solver.value(position) == answer
    assert solver.nodes == 2 * searched  # a stale table would answer in fewer nodes


def test_a_cleared_solver_reuses_its_table_memory() -> None:
    rng = random.Random(4)
    solver = Solver()
    solver.value(bridge_position(random_hands(rng, 5), 0, 1))
    tags = solver._tags
    solver.clear()
    solver.value(bridge_position(random_hands(rng, 5), -1, 3))  # another strain: a new table
    assert solver._tags is tags


def test_a_solver_keeps_few_spare_tables() -> None:
    rng = random.Random(5)
    solver = Solver(table_bits=10)
    for trump in range(-1, 4):
        for leader in range(4):
            solver.value(bridge_position(random_hands(rng, 3), trump, leader))
    solver.clear()
    assert len(solver._spare) == solve.SPARE_TABLES
