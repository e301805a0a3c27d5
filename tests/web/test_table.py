"""The browser table against three bots: a whole deal by mouse and by keyboard (AC-U1, U5, U6).

Every frame the page received and every card its DOM showed is checked against the
seat's view: no page ever holds another seat's card.
"""

from __future__ import annotations

import time

from playwright.sync_api import Browser, Page

from server_support import Server
from web_support import Watch, click_turn, key_turn, play_deal, shot, table_id


def start_against_bots(browser: Browser, server: Server, locale: str = "en-GB") -> Page:
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale=locale)
    page.goto(server.base + "/")
    return page


def finish(page: Page, server: Server, watch: Watch) -> None:
    """Check the frames and the DOM of deal 1 against its hand record."""
    record = server.get(f"/api/tables/{table_id(page)}/deals/1")
    seat = page.get_attribute(".seat.bottom", "data-seat")
    assert seat is not None
    name = record["players"][seat] if "players" in record else None
    checks = watch.check(name or _name_of(page), record, seat)
    assert checks > 10


def _name_of(page: Page) -> str:
    return str(page.inner_text(".seat.bottom .who strong"))


def test_home_to_a_dealt_hand_in_one_click_and_a_deal_by_clicking(
    browser: Browser, server: Server
) -> None:
    page = start_against_bots(browser, server)
    watch = Watch(page)
    shot(page, "home")
    began = time.monotonic()
    page.click("#play-computer")  # click 1: the hand is dealt
    page.wait_for_selector(".hand .card")
    assert time.monotonic() - began < 2  # AC-U1: first cards in under 2 s on loopback
    assert page.locator(".hand .card").count() == 13
    page.wait_for_selector('[data-my-turn="true"]')
    shot(page, "table-auction")
    turns = play_deal(page, click_turn, watch)
    assert turns > 0
    shot(page, "result")
    assert page.locator("#result .full-hand").count() == 5  # four hands and the kitty
    page.click("#replay-button")
    page.wait_for_selector("#replay-step")
    page.click("#replay-next")
    assert "1" in page.inner_text("#replay-step")
    shot(page, "replay")
    page.keyboard.press("Escape")
    page.click("#sheet-button")
    assert page.locator("#sheet table.sheet tr").count() == 3  # header, deal 1, totals
    assert page.get_attribute("#sheet-csv", "href", timeout=1000)
    shot(page, "regnskab")
    finish(page, server, watch)
    page.close()


def test_a_whole_deal_by_keyboard(browser: Browser, server: Server) -> None:
    page = start_against_bots(browser, server)
    watch = Watch(page)
    page.focus("#play-computer")
    page.keyboard.press("Enter")
    page.wait_for_selector(".hand .card")
    play_deal(page, key_turn, watch)
    page.keyboard.press("Enter")  # the focused "next deal" button
    page.wait_for_selector("#result", state="detached")
    finish(page, server, watch)
    page.close()


def test_the_keyboard_focus_stays_on_its_card_when_the_table_is_drawn_again(
    browser: Browser, server: Server
) -> None:
    page = start_against_bots(browser, server)
    page.click("#play-computer")
    page.wait_for_selector(".hand .card")
    page.locator(".hand .card").nth(5).focus()
    card = page.evaluate("() => document.activeElement.dataset.card")
    page.keyboard.press("l")  # show the last trick: the whole table is drawn again
    page.wait_for_selector('#last-trick[aria-pressed="true"]')
    assert page.evaluate("() => document.activeElement.dataset.card") == card
    page.close()
