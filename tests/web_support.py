"""Helpers for the browser tests: Debian's Chromium under Playwright, a server, a player loop.

The browser is never downloaded: the tests use ``/usr/bin/chromium`` (``apt-get install
chromium``) and skip with the reason when it cannot be found.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from esmakker.core.record import from_json
from esmakker.core.seats import Seat
from esmakker.core.view import observe
from server_support import CARD, check_frames, hidden_from, replayed

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parent.parent / "artifacts" / "screenshots"
TURN = '[data-my-turn="true"], #result'


def chromium_path() -> str | None:
    """Return Debian's Chromium (``$ESMAKKER_CHROMIUM`` first), or ``None``."""
    for candidate in (os.environ.get("ESMAKKER_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    return shutil.which("chromium")


def shot(page: Page, name: str) -> None:
    """Save a screenshot of the page under ``artifacts/screenshots``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


class Watch:
    """Keep every WebSocket frame a page receives and the cards its DOM showed at each turn."""

    def __init__(self, page: Page) -> None:
        self.frames: list[str] = []
        self.doms: list[tuple[int, list[str]]] = []
        page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        self.frames.append(payload if isinstance(payload, str) else payload.decode())

    def look(self, page: Page) -> None:
        """Note the cards in the page (``data-card``) and the steps its table shows."""
        steps = page.get_attribute(".table", "data-steps")
        cards = page.eval_on_selector_all("[data-card]", "ns => ns.map(n => n.dataset.card)")
        if steps is not None:
            self.doms.append((int(steps), cards))

    def first_deal_frames(self) -> list[str]:
        """Return the frames up to the end of deal 1 (the deal the test checks)."""
        for i, text in enumerate(self.frames):
            if '"deal_over"' in text:
                return self.frames[: i + 1]
        return self.frames

    def check(self, name: str, record: dict[str, Any], seat: str) -> int:
        """Assert that no frame and no DOM held a card hidden from ``seat``; return checks."""
        checked = check_frames(self.first_deal_frames(), name, [record])
        hand = from_json(record)
        for steps, cards in self.doms:
            state = replayed(hand, steps)
            view = observe(state, Seat[seat]).to_json()
            named = {a.split()[1] for a in view["legal_actions"] if a.startswith("call ")}
            if view["contract"]:
                named |= {view["contract"]["called"], *view["contract"]["vip_turned"]}
            hidden = {c.name for c in hidden_from(state, Seat[seat], view)} - named
            leaked = set(CARD.findall(" ".join(cards))) & hidden
            assert not leaked, f"the page showed {sorted(leaked)} after {steps} steps"
            checked += 1
        return checked


def click_turn(page: Page, first: bool) -> None:
    """Take one action by clicking: the highest bid first, then the first choice offered."""
    buttons = page.locator(".panel button.act")
    if buttons.count():
        (buttons.last if first and page.query_selector(".bidbox") else buttons.first).click()
    else:
        page.click(".hand .card.legal", position={"x": 6, "y": 12})  # the corner left uncovered


def key_turn(page: Page, first: bool) -> None:
    """Take one action by keyboard: type the first bid, then keys for buttons and cards."""
    if first and page.query_selector(".bidbox"):
        options = page.eval_on_selector_all(
            ".bidbox [data-action]", "ns => ns.map(n => n.dataset.action)"
        )
        page.keyboard.press("/")
        page.keyboard.type(options[-1])
        page.keyboard.press("Enter")
    elif page.query_selector(".panel button.act"):
        page.keyboard.press("b")
        page.keyboard.press("Enter")
    else:
        page.keyboard.press("c")
        page.keyboard.press("Enter")


def play_deal(
    page: Page, turn: Callable[[Page, bool], None], watch: Watch | None = None, limit: int = 120
) -> int:
    """Act whenever the page says it is our turn until the deal's result shows; return turns."""
    for count in range(limit):
        page.wait_for_selector(TURN, timeout=20_000)
        if page.query_selector("#result"):
            return count
        if watch is not None:
            watch.look(page)
        answers = page.evaluate("() => Number(document.body.dataset.answers || 0)")
        turn(page, count == 0)
        _wait_answered(page, answers)
    raise AssertionError("the deal did not end")


def _wait_answered(page: Page, answers: int) -> None:
    """Wait for the server's ack or error to the action just taken."""
    try:
        page.wait_for_function(
            "n => Number(document.body.dataset.answers || 0) > n", arg=answers, timeout=10_000
        )
    except Exception:
        shot(page, "failure")
        raise


def table_id(page: Page) -> str:
    """Return the id of the table the page shows (from the seat it keeps)."""
    code = page.url.rstrip("/").split("/")[-1]
    saved = page.evaluate(f"() => localStorage.getItem('esmakker:seat:{code}')")
    return str(json.loads(saved)["table"])


def answers(page: Page) -> int:
    """Return how many acks and errors the page has received."""
    return int(page.evaluate("() => Number(document.body.dataset.answers || 0)"))


def play_together(
    pages: list[Page], watches: list[Watch], limit: float = 90.0, bid_high: bool = True
) -> None:
    """Let every page act in turn (by clicking) until each shows the deal's result."""
    first = [bid_high] * len(pages)
    deadline = time.monotonic() + limit
    while not all(page.query_selector("#result") for page in pages):
        assert time.monotonic() < deadline, "the deal did not end"
        acted = False
        for i, page in enumerate(pages):
            if page.query_selector("#result") or not page.query_selector('[data-my-turn="true"]'):
                continue
            watches[i].look(page)
            before = answers(page)
            click_turn(page, first[i])
            first[i] = False
            _wait_answered(page, before)
            acted = True
        if not acted:
            time.sleep(0.05)
