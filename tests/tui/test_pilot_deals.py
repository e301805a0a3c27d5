"""Whole deals played keyboard-only with Textual's pilot against three heuristic bots.

The seeds were found by playing the same person's policy against the bots at the
``Table`` (the person bids the lowest legal bid of one kind once, else passes, and
plays the first legal card, or takes the first choice): over seeds 1-80 with the preset
wikipedia, seed 1 gives the person a 9 vip, seed 1 a 9 halve and seed 5 a sol.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from esmakker.core.actions import BidKind
from esmakker.core.phase import Phase
from esmakker.core.record import load
from esmakker.tui.app import GameApp
from esmakker.tui.text import call_text
from tui_support import SIZE, make_app, person_turn, screen_text, wait_for_person


def play_deal(app: GameApp, kind: BidKind | None) -> list[str]:
    """Play one deal keyboard-only; return the screens at the person's turns and the last one."""
    screens: list[str] = []

    async def check() -> None:
        screens.append(screen_text(app))
        check_screen(app, screens[-1])

    async def run() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await wait_for_person(pilot, app)
            while not app.table.deal_over:
                await person_turn(pilot, app, kind, check)
                await wait_for_person(pilot, app)
            screens.append(screen_text(app))

    asyncio.run(run())
    return screens


def check_screen(app: GameApp, screen: str) -> None:
    """Check what every screen must show while the person is to act."""
    view = app.table.view(app.seat)
    assert "to act: You" in screen
    assert "▶ You" in screen
    assert "[D]" in screen
    assert "[F]" in screen
    names = [app.table.player_at(seat) for seat in view.dealer.iter_from()]
    assert f"dealer {names[0]}" in screen
    assert f"forehand {names[1]}" in screen
    for seat, action in view.calls[-6:]:  # the auction panel shows the latest calls
        assert f"{app.table.player_at(seat)}: {call_text(action)}" in screen
    contract = view.contract
    if contract is None:
        assert "No contract yet" in screen
        return
    assert "Contract:" in screen
    if not contract.bid.is_nolo:
        partner = "partner: ?" in screen
        assert partner == (not contract.partner_known)
    if view.phase is Phase.PLAY and view.tricks:
        assert f"Trick {len(view.tricks)}:" in screen  # the last trick stays in view


@pytest.mark.parametrize(
    ("seed", "kind", "contract"),
    [("1", BidKind.VIP, "9 vip"), ("1", BidKind.HALVE, "9 halve"), ("5", BidKind.SOL, "sol")],
)
def test_a_person_declares_and_plays_a_deal_keyboard_only(
    tmp_path: Path, seed: str, kind: BidKind, contract: str
) -> None:
    app = make_app(seed, folder=tmp_path)
    screens = play_deal(app, kind)
    record = app.table.records[0]
    assert record.result is not None
    assert record.result["contract"] == contract
    assert record.result["declarer"] == "S"
    assert f"Deal 1: {contract} by You" in screens[-1]
    assert "Deal the next deal" not in screens[-1]  # one deal asked for: the game is over
    assert load(tmp_path / "deal-001.json").result == record.result
    totals = app.table.sheet.rows[-1].totals
    assert " ".join(str(total) for total in totals) in " ".join(screens[-1].split())


def test_a_vip_deal_shows_the_turned_kitty_cards() -> None:
    app = make_app("1")
    screens = play_deal(app, BidKind.VIP)
    contract = app.table.view(app.seat).contract
    assert contract is not None
    assert contract.vip_turned
    assert any("turned" in screen for screen in screens)


def test_a_bot_contract_keeps_the_partner_hidden_until_it_is_revealed() -> None:
    app = make_app("2")
    screens = play_deal(app, None)
    assert any("partner: ?" in screen for screen in screens) or any(
        "alone" in screen for screen in screens
    )


def test_a_bot_bordlaegger_lays_its_hand_open_on_the_screen() -> None:
    app = make_app("29")  # seed 29: Bo (E) plays ren bordlægger while the person passes
    screens = play_deal(app, None)
    assert app.table.records[0].result is not None
    assert app.table.records[0].result["contract"] == "ren_bordlaegger"
    assert any("Open, Bo:" in screen for screen in screens)
    assert "ren bordlægger by Bo" in screens[-1]
