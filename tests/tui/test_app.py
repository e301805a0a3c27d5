"""The game screen: bad input, the review after a deal, resuming, languages, sizes."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

import pytest
from textual.pilot import Pilot

from esmakker.bots import endgame
from esmakker.core.actions import Play
from esmakker.core.cards import CardSet
from esmakker.core.seats import Seat
from esmakker.tui import replay, setup
from esmakker.tui.app import GameApp
from esmakker.tui.i18n import set_language
from esmakker.tui.replay import ReplayScreen
from esmakker.tui.scene import Scene
from esmakker.tui.widgets.contract import open_hands_text
from esmakker.tui.widgets.hand import HandWidget
from tui_support import SIZE, make_app, screen_text, type_text, wait_for_person


async def _to_the_play(pilot: Pilot[None], app: GameApp) -> None:
    """Take the first choice (pass, or the first option) until the person plays a card."""
    await wait_for_person(pilot, app)
    while app.table.view(app.seat).phase.value != "play":
        await pilot.press("enter")
        await wait_for_person(pilot, app)


def test_an_illegal_typed_card_is_refused_in_the_status_bar() -> None:
    app = make_app("3")

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await _to_the_play(pilot, app)
            view = app.table.view(app.seat)
            illegal = next(c for c in view.hand if Play(c) not in view.legal_actions)
            steps = len(view.steps)
            await pilot.press(*illegal.name.lower())
            await pilot.pause()
            assert f"{illegal.name}: not a legal action now." in screen_text(app)
            assert len(app.table.view(app.seat).steps) == steps
            await type_text(pilot, "gibberish")
            assert "gibberish: not understood" in screen_text(app)
            assert len(app.table.view(app.seat).steps) == steps

    asyncio.run(run())


def test_a_typed_legal_card_is_played() -> None:
    app = make_app("3")

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await _to_the_play(pilot, app)
            legal = [a for a in app.table.view(app.seat).legal_actions if isinstance(a, Play)]
            card = legal[-1].card
            await pilot.press(*card.name)
            await pilot.pause()
            assert card not in app.table.view(app.seat).hand

    asyncio.run(run())


def test_the_arrow_keys_move_between_legal_cards() -> None:
    app = make_app("3")

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await _to_the_play(pilot, app)
            hand = app.query_one(HandWidget)
            assert hand.has_focus
            first = hand.cursor
            await pilot.press("right")
            legal = hand.legal
            assert hand.cards[hand.cursor] in legal
            assert hand.cursor != first or len(legal) == 1

    asyncio.run(run())


def finish_deal_keyboard_only(app: GameApp) -> None:
    """Pass and play the first legal card to the end of one deal, then open the review."""

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for_person(pilot, app)
            while not app.table.deal_over:
                await pilot.press("enter")
                await wait_for_person(pilot, app)
            text = screen_text(app)
            assert "Review the last deal" in text
            await pilot.press("down", "enter")  # next deal is first; review second
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            review = screen_text(app)
            for name in ("Anna", "Bo", "You", "Carl"):
                assert name in review
            assert "The deal as dealt" in review
            await pilot.press("end")
            assert "13 " in screen_text(app)  # the tricks panel shows every trick to the 13th
            await pilot.press("home")
            await pilot.press("pagedown")
            assert " 1 " in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, ReplayScreen)

    asyncio.run(run())


def test_after_a_deal_all_hands_and_every_trick_can_be_reviewed() -> None:
    finish_deal_keyboard_only(make_app("4", deals=None))


def test_a_resumed_game_shows_the_same_score_sheet(tmp_path: Path) -> None:
    app = make_app("6", folder=tmp_path, deals=2)

    async def play_two() -> None:
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(2):
                await wait_for_person(pilot, app)
                while not app.table.deal_over:
                    await pilot.press("enter")
                    await wait_for_person(pilot, app)
                if len(app.table.records) < 2:
                    await pilot.press("enter")  # the next deal
            await pilot.pause()

    asyncio.run(play_two())
    config, table = setup.resume(tmp_path)
    resumed = GameApp(table, config.person, folder=tmp_path, deals=config.deals, pause=0)

    async def look() -> None:
        async with resumed.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert resumed.game_over
            text = screen_text(resumed)
            for row in app.table.sheet.rows:
                assert " ".join(str(total) for total in row.totals) in " ".join(text.split())

    asyncio.run(look())
    assert table.sheet.to_json() == app.table.sheet.to_json()


def test_the_screen_speaks_danish() -> None:
    set_language("da")
    try:
        app = make_app("1")

        async def run() -> None:
            async with app.run_test(size=SIZE) as pilot:
                await wait_for_person(pilot, app)
                text = screen_text(app)
                assert "giver Anna" in text
                assert "Din melding" in text
                assert "pas" in text

        asyncio.run(run())
    finally:
        set_language("en")


def test_a_larger_terminal_shows_the_same_panels_wider() -> None:
    app = make_app("1")

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await wait_for_person(pilot, app)
            lines = screen_text(app).splitlines()
            assert len(lines) == 40
            assert "Score sheet" in "\n".join(lines)
            assert "to act: You" in lines[0]

    asyncio.run(run())


def test_a_hand_laid_open_is_shown_to_the_others() -> None:
    app = make_app("1")
    app.table.start_deal()
    view = app.table.view(Seat.S)
    opened = dataclasses.replace(view, open_hands=(None, CardSet.parse("SA SK X1"), None, None))
    lines = open_hands_text(Scene(opened, ("Anna", "Bo", "You", "Carl"), Seat.S))
    assert [line.plain for line in lines] == ["Open, Bo: ♠A ♠K ★1"]


def test_f3_shows_the_strong_bots_hint_in_the_status_bar() -> None:
    app = make_app("3")

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for_person(pilot, app)
            steps = len(app.table.view(app.seat).steps)
            await pilot.press("f3")
            await app.workers.wait_for_complete()
            await pilot.pause()
            text = screen_text(app)
            assert "Hint: " in text
            assert "expected points" in text or "the only legal action" in text
            assert len(app.table.view(app.seat).steps) == steps  # a hint never acts

    asyncio.run(run())


def test_f2_after_a_deal_lists_where_the_persons_choices_cost_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(replay, "COACH_WORLDS", 1)  # one world: quick, and noisy enough to flag
    monkeypatch.setattr(replay, "COACH_BUDGET_S", 60.0)  # the world is searched, however loaded
    app = make_app("4", deals=None)

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for_person(pilot, app)
            while not app.table.deal_over:
                await pilot.press("enter")
                await wait_for_person(pilot, app)
            await pilot.press("f2")
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            await app.screen.workers.wait_for_complete()
            await pilot.pause()
            text = screen_text(app)
            assert "Where your choices cost points:" in text
            assert "was better by" in text or "None of your choices" in text
            assert "Reviewing your choices" not in text

    asyncio.run(run())


def test_the_table_starts_compiling_the_solver_when_it_opens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first F3 hint then finds the compiled solver ready; without numba nothing starts."""
    started: list[bool] = []

    def warm_up() -> bool:
        started.append(True)
        return False

    monkeypatch.setattr(endgame, "warm_up", warm_up)
    for compiled, expected in ((False, []), (True, [True])):
        started.clear()
        monkeypatch.setattr(endgame, "COMPILED", compiled)
        app = make_app("5")

        async def run(app: GameApp = app) -> None:
            async with app.run_test(size=SIZE) as pilot:
                await pilot.pause()

        asyncio.run(run())
        assert started == expected
