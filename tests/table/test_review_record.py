"""A seat's review placed in its hand record: each costly choice at its action's step."""

from __future__ import annotations

import random
from pathlib import Path

from esmakker.bots.review import Mistake
from esmakker.core.actions import PASS
from esmakker.core.record import load
from esmakker.core.seats import Seat
from esmakker.table import costly_steps, review_record, seat_decisions

GOLDEN = Path(__file__).parent.parent / "golden" / "plain-9-made-with-overtricks.json"
E_STEPS = [0, 3, 6, 7, 8, 13, 19, 23, 25, 29, 33, 37, 42, 46, 49, 53, 57, 61]
"""E's actions in the golden record: bids, trump, call, the exchange's decline, the cards."""


def test_a_decisions_index_maps_to_its_action_in_the_record() -> None:
    record = load(GOLDEN)
    decisions = seat_decisions(record, Seat.E)
    assert [step for step, _, _ in decisions] == E_STEPS
    mistakes = [
        Mistake(index, decisions[index][2], PASS, 10.0, None, decisions[index][1].phase)
        for index in (0, 5, 12, 17)
    ]
    placed = costly_steps(decisions, mistakes)
    assert [c.step for c in placed] == [0, 13, 42, 61]
    for costly in placed:
        assert record.steps[costly.step].seat is Seat.E
        assert record.steps[costly.step].action == costly.mistake.action
        assert costly.to_json()["step"] == costly.step


def test_the_searched_review_names_the_seats_own_actions() -> None:
    record = load(GOLDEN)
    found = review_record(record, Seat.E, random.Random("review/1/E"), worlds=1, budget_s=60)
    assert found.seat is Seat.E
    assert 0 < found.decisions <= len(E_STEPS)
    assert found.costly, "one world flags some of E's choices"
    for costly in found.costly:
        assert costly.step in E_STEPS
        assert record.steps[costly.step].action == costly.mistake.action
        assert costly.mistake.best != costly.mistake.action
    again = review_record(record, Seat.E, random.Random("review/1/E"), worlds=1, budget_s=60)
    assert again == found
