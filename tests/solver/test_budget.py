"""``Solver(node_budget=...)``: the nodes of all calls together are capped."""

from __future__ import annotations

from pathlib import Path

import pytest

from esmakker.core.record import loads
from esmakker.solver.analysis import play_start, states_of
from esmakker.solver.position import from_state
from esmakker.solver.solve import Solver, SolverGaveUpError

RECORD = Path(__file__).resolve().parent.parent / "golden" / "plain-9-made-with-overtricks.json"


def test_once_the_budget_is_spent_every_search_gives_up() -> None:
    states = states_of(loads(RECORD.read_text()))
    last_trick = from_state(states[-5])  # four cards left: a handful of nodes
    assert Solver(pure=True, node_budget=1_000).value(last_trick) >= 0
    solver = Solver(pure=True, node_limit=10**9, node_budget=1_000)
    with pytest.raises(SolverGaveUpError):
        solver.value(from_state(states[play_start(states)]))
    assert solver.nodes > 1_000
    with pytest.raises(SolverGaveUpError):
        solver.value(last_trick)
