"""Driving the terminal game with Textual's pilot: keys only, as a person would."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from esmakker.core.actions import PASS, Bid, BidKind
from esmakker.core.phase import Phase
from esmakker.core.view import PlayerView
from esmakker.tui import game_folder, setup
from esmakker.tui.app import GameApp
from esmakker.tui.widgets.actions import ActionList

SIZE = (80, 24)


def make_app(seed: str, *, folder: Path | None = None, deals: int | None = 1) -> GameApp:
    """Return a game for You at S against three heuristic bots that never pause."""
    config = setup.new_config(
        preset="wikipedia", seat=2, levels=["heuristic"], seed=seed, language="en", deals=deals
    )
    if folder is not None:
        game_folder.create(folder, config)
    return GameApp(setup.table_of(config), "You", folder=folder, deals=deals, pause=0)


def screen_text(app: GameApp) -> str:
    """Return the characters on the screen, one line per row."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def wait_for_person(pilot: Pilot[None], app: GameApp) -> None:
    """Let the bots play until the person is to act or the deal is over."""
    for _ in range(2000):
        await pilot.pause()
        if app.person_to_act or app.table.deal_over:
            await pilot.pause()
            return
    raise AssertionError("the bots never gave the turn back")


async def type_text(pilot: Pilot[None], text: str) -> None:
    """Type ``text`` key by key, then Enter."""
    await pilot.press(*[("space" if char == " " else char) for char in text], "enter")


def wanted_bid(view: PlayerView, kind: BidKind | None) -> Bid | None:
    """Return the lowest legal bid of ``kind`` if the person has not bid yet."""
    if kind is None or any(seat == view.seat and isinstance(a, Bid) for seat, a in view.calls):
        return None
    bids = [a for a in view.legal_actions if isinstance(a, Bid) and a.kind is kind]
    return bids[0] if bids else None


async def choose_option(pilot: Pilot[None], app: GameApp, index: int) -> None:
    """Move the list's highlight down to option ``index`` and press Enter."""
    options = app.query_one(ActionList)
    assert options.has_focus
    await pilot.press(*["down"] * index, "enter")


async def person_turn(
    pilot: Pilot[None], app: GameApp, kind: BidKind | None, check: Callable[[], Awaitable[None]]
) -> None:
    """Take the person's turn keyboard-only: a wanted bid typed, else pass, a card or the first choice."""
    await check()
    view = app.table.view(app.seat)
    if view.phase is Phase.AUCTION:
        bid = wanted_bid(view, kind)
        if bid is not None:
            await type_text(pilot, f"{bid.level} {bid.kind.value}".replace("None ", ""))
        else:
            await choose_option(pilot, app, view.legal_actions.index(PASS))
    else:
        await pilot.press("enter")  # the hand's cursor, or the list's first choice
