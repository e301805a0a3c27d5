"""AC-H1, AC-H2: no frame to any seat (or the spectators) holds a hidden card or partner.

Whole games of bots run through the hub with a recorder on every place and on the
spectators; every frame is checked against ``observe`` (see ``server_support``). The
fast set covers a few dozen deals over several presets, five-seat tables included; the
slow set hundreds.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from esmakker.server.hub import TableConfig
from server_support import CARD, bot_game, check_frames, make_hub, without_ids

GAMES = [
    ("wikipedia", 4, "heuristic"),
    ("tanya", 4, "random"),
    ("hilmarshelte", 5, "heuristic"),
    ("kortdrengene", 4, "random"),
    ("hjerteres", 4, "heuristic"),
    ("osterbro", 5, "random"),
]


def _run(folder: Path, preset: str, seats: int, level: str, deals: int) -> int:
    async def main() -> int:
        hub = make_hub(folder)
        config = TableConfig(preset=preset, seats=seats, max_deals=deals)
        room, recorders = await bot_game(hub, config, level)
        records = list(await _records(hub, room.id))
        assert len(records) == deals
        checked = 0
        for key, recorder in recorders.items():
            name = None if key is None else room.players[key].name
            checked += check_frames(recorder.frames, name, records)
        await hub.shutdown()
        return checked

    return asyncio.run(main())


async def _records(hub: object, table_id: str) -> list[dict[str, object]]:
    import json

    from esmakker.server.hub import Hub

    assert isinstance(hub, Hub)
    return [json.loads(text) for text in hub.store.records(table_id)]


@pytest.mark.parametrize(("preset", "seats", "level"), GAMES)
def test_no_frame_leaks_a_hidden_card_or_partner(
    tmp_path: Path, preset: str, seats: int, level: str
) -> None:
    checked = _run(tmp_path, preset, seats, level, deals=5)
    assert checked > 5 * 40


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "seats", "level"), GAMES)
def test_no_leak_over_hundreds_of_deals(
    tmp_path: Path, preset: str, seats: int, level: str
) -> None:
    checked = _run(tmp_path, preset, seats, level, deals=40)
    assert checked > 40 * 40


def test_the_leak_check_reads_cards_not_random_identifiers() -> None:
    frame = json.dumps({"table": {"id": "ab-S3-cd", "code": "HK", "view": {"hand": "SA D2"}}})
    cards = set(CARD.findall(without_ids(frame)))
    assert cards == {"SA", "D2"}
