"""Snapshots of stable screens at 80x24 (pytest-textual-snapshot; SVGs in ``__snapshots__``).

Update them after a deliberate change of the layout with ``pytest --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from esmakker.bots.registry import make_bot
from esmakker.core.rules import RuleSet
from esmakker.table import Table, replay_frames
from esmakker.tui.command import names_of
from esmakker.tui.replay import ReplayApp
from tui_support import SIZE, make_app, wait_for_person


def test_the_first_bid_screen(snap_compare: Any) -> None:
    app = make_app("1")

    async def first_turn(pilot: Pilot[None]) -> None:
        await wait_for_person(pilot, app)

    assert snap_compare(app, terminal_size=SIZE, run_before=first_turn)


def test_the_replay_screen_at_the_end_of_a_deal(snap_compare: Any) -> None:
    players = ("Anna", "Bo", "You", "Carl")
    bots = {name: (lambda rng: make_bot("heuristic", rng)) for name in players}
    full = Table(RuleSet.from_preset("wikipedia"), players, seed="snap", bots=bots)
    full.start_deal()
    full.step_bots()
    record = full.records[0]
    replay = ReplayApp(replay_frames(record), names_of(record), "deal-001.json")
    assert snap_compare(replay, terminal_size=SIZE)
