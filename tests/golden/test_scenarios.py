"""Replay the frozen worked examples and check them against the hand-computed figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from esmakker.core.record import dumps, loads, replay
from golden.scenarios import SCENARIOS, Scenario

RECORDS = Path(__file__).parent / "records"


def _record_path(scenario: Scenario) -> Path:
    return RECORDS / f"{scenario.name}.json"


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_worked_example_replays_to_its_stored_result(scenario: Scenario) -> None:
    text = _record_path(scenario).read_text()
    record = loads(text)
    state = replay(record)
    result = state.result()
    assert result is not None
    data = result.to_json()
    for key, value in scenario.target.items():
        assert data[key] == value
    assert dumps(record) == text.strip()


@pytest.mark.parametrize("scenario", [s for s in SCENARIOS if s.scores], ids=lambda s: s.name)
def test_worked_example_scores_match_the_hand_computation(scenario: Scenario) -> None:
    result = replay(loads(_record_path(scenario).read_text())).result()
    assert result is not None
    assert scenario.scores is not None
    for seat, score in zip("NESW", result.scores, strict=True):
        if result.declarer is not None and seat == result.declarer.name:
            role = "D"
        elif result.partner is not None and seat == result.partner.name:
            role = "P"
        else:
            role = "O"
        assert score == scenario.scores[role], f"{seat} ({role})"
    assert sum(result.scores) == 0


def test_every_scenario_has_a_record() -> None:
    names = {p.stem for p in RECORDS.glob("*.json")}
    assert names == {s.name for s in SCENARIOS}
