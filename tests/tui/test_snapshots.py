"""Snapshots of stable screens at 80x24 (pytest-textual-snapshot; SVGs in ``__snapshots__``).

Update them after a deliberate change of the layout with ``pytest --snapshot-update``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from esmakker.core.record import load
from esmakker.table import replay_frames
from esmakker.tui.command import names_of
from esmakker.tui.replay import ReplayApp
from tui_support import SIZE, make_app, wait_for_person

GOLDEN = Path(__file__).parent.parent / "golden" / "records"


def test_the_first_bid_screen(snap_compare: Any) -> None:
    app = make_app("1")

    async def first_turn(pilot: Pilot[None]) -> None:
        await wait_for_person(pilot, app)

    assert snap_compare(app, terminal_size=SIZE, run_before=first_turn)


def test_the_replay_screen_at_the_end_of_a_deal(snap_compare: Any) -> None:
    # A golden record, so the screen does not change when the bots learn to play better.
    record = load(GOLDEN / "s03-9-gode-9-tricks.json")
    replay = ReplayApp(replay_frames(record), names_of(record), "s03-9-gode-9-tricks.json")
    assert snap_compare(replay, terminal_size=SIZE)
