"""Play with friends: four browser contexts at one private table joined by its link (AC-U2)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page

from server_support import Server
from web_support import Watch, answers, click_turn, play_together, shot, table_id


@pytest.mark.parametrize(
    "whole_deal", [False, pytest.param(True, marks=pytest.mark.slow, id="whole-deal")]
)
def test_four_browsers_join_a_private_table_by_link(
    browser: Browser, server: Server, whole_deal: bool
) -> None:
    contexts = [browser.new_context(locale="da-DK") for _ in range(4)]
    host = contexts[0].new_page()
    host.goto(server.base + "/")
    host.fill("#friends input[name=name]", "Anna")
    host.click("#create-friends")
    link = host.get_attribute("#invite-link", "href")
    assert link is not None
    assert len(host.inner_text("#table-code")) == 6
    assert not server.get("/api/tables")  # private: not listed
    shot(host, "lobby")
    pages: list[Page] = [host]
    for name, context in zip(("Bo", "Carl", "Dorte"), contexts[1:], strict=True):
        guest = context.new_page()
        guest.goto(link)
        guest.fill("#join input[name=name]", name)
        guest.click("#join-button")
        guest.wait_for_selector(".lobby")
        pages.append(guest)
    host.wait_for_function("() => !document.body.innerText.includes('ledig plads')")
    host.click("#start")
    watches = [Watch(page) for page in pages]
    for page in pages:
        page.wait_for_selector(".hand .card")
        assert page.locator(".hand .card").count() == 13
    seats = {page.get_attribute(".seat.bottom", "data-seat") for page in pages}
    assert seats == {"N", "E", "S", "W"}
    shot(pages[1], "friends-table")
    take_back(pages)
    if not whole_deal:
        for context in contexts:
            context.close()
        return
    claim_and_refuse(pages)
    play_together(pages, watches, bid_high=False)
    record = server.get(f"/api/tables/{table_id(host)}/deals/1")
    for page, watch, name in zip(pages, watches, ("Anna", "Bo", "Carl", "Dorte"), strict=True):
        seat = page.get_attribute(".seat.bottom", "data-seat")
        assert seat is not None
        assert watch.check(name, record, seat) > 0
    for context in contexts:
        context.close()


def take_back(pages: list[Page]) -> None:
    """The player to act passes, asks to take it back, the three others accept (AC-U8)."""
    for page in pages:
        page.wait_for_selector(".table")
    actor = next(p for p in pages if p.get_attribute(".table", "data-my-turn") == "true")
    steps = actor.get_attribute(".table", "data-steps")
    actor.locator(".panel button.act").first.click()
    actor.click("#undo-button")
    for page in pages:
        if page is not actor:
            page.click("#request-accept")
    actor.wait_for_selector(f'[data-my-turn="true"][data-steps="{steps}"]')


def test_a_listed_table_is_on_the_home_page_and_its_link_takes_a_seat(
    browser: Browser, server: Server
) -> None:
    host = browser.new_page(locale="en-GB")
    host.goto(server.base + "/")
    host.fill("#friends input[name=name]", "Eva")
    host.check("#friends input[name=listed]")
    host.click("#create-friends")
    host.wait_for_selector("#invite-link")
    guest = browser.new_context(locale="en-GB").new_page()
    guest.goto(server.base + "/")
    guest.click(".open-tables a")
    guest.fill("#join input[name=name]", "Finn")
    guest.click("#join-button")
    guest.wait_for_selector(".lobby")
    host.wait_for_function("() => document.body.innerText.includes('Finn')")
    host.click("#fill-bots")
    host.wait_for_function("() => !document.body.innerText.includes('free place')")
    host.click("#start")
    for page in (host, guest):
        page.wait_for_selector(".hand .card")
    guest.context.close()
    host.close()


def act_where_due(pages: list[Page], pick: Callable[[list[str]], str | None]) -> None:
    """Let the page whose turn it is take ``pick`` of its choices (else the first offered)."""
    for page in pages:
        if not page.query_selector('[data-my-turn="true"]'):
            continue
        offered = page.eval_on_selector_all(
            ".panel [data-action]", "ns => ns.map(n => n.dataset.action)"
        )
        choice = pick(offered)
        before = answers(page)
        if choice is None:
            click_turn(page, False)
        else:
            page.click(f'.panel [data-action="{choice}"]')
        page.wait_for_function("n => Number(document.body.dataset.answers || 0) > n", arg=before)
        return
    time.sleep(0.05)


def highest_plain_bid(offered: list[str]) -> str | None:
    plain = [a for a in offered if re.fullmatch(r"bid \d+", a)]
    return plain[-1] if plain else None


def claim_and_refuse(pages: list[Page]) -> None:
    """The first bidder wins with a plain trick bid and claims at once; one player refuses."""
    deadline = time.monotonic() + 60
    bids: list[str] = []

    def pick(offered: list[str]) -> str | None:
        if "pass" in offered and bids:
            return "pass"
        chosen = highest_plain_bid(offered) if not bids else None
        bids.extend([chosen] if chosen else [])
        return chosen

    while not any(p.get_attribute(".table", "data-phase") == "play" for p in pages):
        assert time.monotonic() < deadline
        act_where_due(pages, pick)
    declarer = next(p for p in pages if p.query_selector("#claim-button"))
    declarer.click("#claim-button")
    others = [p for p in pages if p is not declarer]
    for page in others:
        page.wait_for_selector("#request-accept")
    shot(others[0], "claim-asked")
    others[0].click("#request-refuse")
    for page in others[1:]:
        page.wait_for_selector("#request-accept", state="detached")
    assert declarer.get_attribute(".table", "data-phase") == "play"  # play goes on
