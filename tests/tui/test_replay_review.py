"""The review in the terminal replay: the costly step's line, its marks, and n/p to jump."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from esmakker.bots.review import Mistake
from esmakker.core.actions import Action, Bid, BidKind, Play
from esmakker.core.cards import Card
from esmakker.core.phase import Phase
from esmakker.core.record import HandRecord, load
from esmakker.core.seats import Seat
from esmakker.table import RecordReview, costly_steps, replay_frames, seat_decisions
from esmakker.tui import replay
from esmakker.tui.command import names_of
from esmakker.tui.i18n import set_language
from esmakker.tui.replay import ReplayApp, ReplayScreen
from tui_support import SIZE

RECORD = Path(__file__).parent.parent / "golden" / "vip-9-third-card-forced.json"
SEAT = Seat.W
COSTLY: dict[int, Action] = {
    0: Bid(10, BidKind.VIP),
    12: Play(Card.parse("CJ")),
    40: Play(Card.parse("DJ")),
}
"""W's costly choices in the fake review: the record's step and the better action."""


@pytest.fixture
def record() -> HandRecord:
    return load(RECORD)


def fake_review(record: HandRecord, seat: Seat, rng: random.Random, **_: object) -> RecordReview:
    """Return the review of ``COSTLY``, its mistakes indexing the seat's decisions."""
    decisions = seat_decisions(record, seat)
    mistakes = []
    for index, (step, view, action) in enumerate(decisions):
        if step in COSTLY:
            trick = len(view.tricks) + 1 if view.phase is Phase.PLAY else None
            mistakes.append(Mistake(index, action, COSTLY[step], 60.0 + step, trick, view.phase))
    return RecordReview(seat, len(decisions), costly_steps(decisions, mistakes))


@pytest.fixture
def faked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay, "review_record", fake_review)


@pytest.fixture
def danish() -> Iterator[None]:
    set_language("da")
    yield
    set_language("en")


def app_of(record: HandRecord, coach: bool = True) -> ReplayApp:
    return ReplayApp(
        replay_frames(record), names_of(record), "vip.json", (record, SEAT) if coach else None
    )


def lines(app: ReplayApp) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def reviewed(pilot: Pilot[None], app: ReplayApp) -> ReplayScreen:
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    await screen.workers.wait_for_complete()
    await pilot.pause()
    return screen


def test_n_and_p_jump_between_the_costly_choices_with_their_line(
    record: HandRecord, faked: None
) -> None:
    app = app_of(record)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            screen = await reviewed(pilot, app)
            assert "n/p costly" in lines(app)[-1]  # the footer holds the keys at 80 columns
            await pilot.press("n")
            assert screen.index == 1  # the frame after step 0, W's bid
            assert "step 1 of 64 · ✗ costly choice 1 of 3" in lines(app)[0]
            assert "You chose 9 vip; 10 vip was better by 60 points" in lines(app)[-2]
            await pilot.press("n")
            assert screen.index == 13
            assert "You chose ♠3; ♣J was better by 72 points" in lines(app)[-2]
            await pilot.press("n", "n")
            assert screen.index == 41
            assert "costly choice 3 of 3" in lines(app)[0]
            assert "No further costly choice this way." in lines(app)[-2]
            await pilot.press("p")
            assert screen.index == 13
            await pilot.press("right")  # an ordinary step: its own line, no mark
            assert "✗" not in lines(app)[0]
            assert "N: play ♠4" in lines(app)[-2]
            await pilot.press("p")
            assert screen.index == 13

    asyncio.run(run())


def test_the_tricks_panel_marks_the_costly_tricks(record: HandRecord, faked: None) -> None:
    app = app_of(record)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await reviewed(pilot, app)
            await pilot.press("n", "n", "n", "pagedown")  # to trick 8's end
            text = "\n".join(lines(app))
            assert " 8 ✗W    ♦4 ♦8 ♦3 ♦2 → N" in text
            assert " 7 W     ♠A" in text  # an unmarked trick keeps its columns
            assert "trick 8: you chose ♦4, ♦J was better by 100 points" in text

    asyncio.run(run())


def test_until_the_review_is_done_the_replay_steps_as_before(
    record: HandRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()

    def slow_review(*args: object, **kwargs: object) -> RecordReview:
        release.wait(timeout=30)
        return fake_review(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(replay, "review_record", slow_review)
    app = app_of(record)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, ReplayScreen)
            await pilot.press("n")
            assert screen.index == 0
            assert "Reviewing your choices…" in "\n".join(lines(app))
            await pilot.press("right")
            assert screen.index == 1
            assert "W: 9 vip" in lines(app)[-2]  # no verdict yet
            release.set()
            await screen.workers.wait_for_complete()
            await pilot.pause()
            assert "✗ costly choice 1 of 3" in lines(app)[0]
            assert "You chose 9 vip" in lines(app)[-2]

    asyncio.run(run())


def test_without_a_review_there_are_no_costly_keys(record: HandRecord, faked: None) -> None:
    app = app_of(record, coach=False)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "n/p" not in lines(app)[-1]
            await pilot.press("n")
            assert "Reviewing" not in "\n".join(lines(app))

    asyncio.run(run())


def test_the_costly_line_speaks_danish(record: HandRecord, faked: None, danish: None) -> None:
    app = app_of(record)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await reviewed(pilot, app)
            await pilot.press("n", "n")
            assert "Du valgte ♠3; ♣J var 72 point bedre" in lines(app)[-2]
            assert "dyrt valg 2 af 3" in lines(app)[0]
            assert "n/p dyrt valg" in lines(app)[-1]

    asyncio.run(run())
