"""Replay every golden hand record and check its result (architecture 4.8, golden records).

``tests/golden/*.json`` are hand-made deals (``golden/handmade.py``) whose scores were
worked by hand from rules.md 7.1 and 7.3. Every record below ``tests/golden`` (the
worked examples of ``golden/scenarios.py`` in ``records/`` too) must load, which
replays it and checks its stored result, and be stored in canonical form.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from esmakker.core.record import dumps, load, replay
from golden.handmade import HANDMADE, build

GOLDEN = Path(__file__).parent.parent / "golden"
FILES = sorted(GOLDEN.rglob("*.json"))
BY_NAME = {deal.name: deal for deal in HANDMADE}


def _id(path: Path) -> str:
    return str(path.relative_to(GOLDEN))


def test_every_hand_made_deal_has_a_record() -> None:
    names = {path.stem for path in GOLDEN.glob("*.json")}
    assert names == set(BY_NAME)


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_record_replays_to_its_stored_result(path: Path) -> None:
    record = load(path)  # replays and compares the stored result field by field
    assert record.result is not None
    final = replay(record).result()
    assert final is not None
    assert final.to_json() == record.result
    assert sum(record.result["scores"].values()) == 0


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_record_is_stored_in_canonical_form(path: Path) -> None:
    text = path.read_text(encoding="utf-8").rstrip("\n")
    record = load(path)
    assert text in (dumps(record), dumps(record, indent=2))


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_hand_made_scores_are_the_hand_computed_ones(name: str) -> None:
    deal = BY_NAME[name]
    record = load(GOLDEN / f"{name}.json")
    assert record.result is not None
    assert record.result["scores"] == deal.scores, deal.why


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_hand_made_record_is_what_its_recipe_plays(name: str) -> None:
    """The frozen record and its recipe in handmade.py tell the same deal."""
    record = load(GOLDEN / f"{name}.json")
    state = build(BY_NAME[name])
    assert state.history == record.steps
    assert (state.dealer, state.dealt) == (record.dealer, (record.hands, record.kitty))


def test_golden_corpus_covers_the_required_cases() -> None:
    results = {path.stem: load(path).result for path in GOLDEN.glob("*.json")}
    played = {name: r for name, r in results.items() if r and r["outcome"] == "played"}
    contracts = {r["contract"] for r in played.values()}
    assert {"sol", "ren_sol"} <= contracts
    assert any(r["partner"] is None and r["called"] for r in played.values())  # alone
    assert sum(r is not None and r["outcome"] == "redeal" for r in results.values()) >= 2
