"""Phones, dropped connections, reloads, languages and display options (AC-U7, AC-U11, AC-R1)."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import Browser, Page, Route

from esmakker.server.web import WEB
from server_support import Server
from web_support import answers, click_turn, play_deal, shot

RUSSIAN = json.loads((WEB / "locales" / "ru.json").read_text("utf-8"))["home.play_computer"]


def computer_game(page: Page, server: Server) -> None:
    page.goto(server.base + "/")
    page.click("#play-computer")
    page.wait_for_selector(".hand .card")


def table_text(page: Page) -> tuple[list[str], str, str, str, str]:
    """Return what AC-R1 asks to see again: hand, trick, auction, contract line, seats."""
    return (
        hand(page),
        page.inner_text(".trick"),
        page.inner_text(".auction"),
        page.inner_text(".status"),
        " | ".join(page.locator(".seat .counts").all_inner_texts()),
    )


def hand(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        ".hand [data-card]", "ns => ns.map(n => n.dataset.card)"
    )
    return cards


def test_a_phone_shows_all_thirteen_cards_without_scrolling_sideways(
    browser: Browser, server: Server
) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, locale="da-DK"
    )
    page = context.new_page()
    page.goto(server.base + "/")
    shot(page, "phone-home")
    page.click("#play-computer")
    page.wait_for_selector(".hand .card")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    cards = page.locator(".hand .card")
    assert cards.count() == 13
    page.wait_for_selector('[data-my-turn="true"]')
    shot(page, "phone-table")
    cards.first.scroll_into_view_if_needed()
    for i in range(13):
        box = cards.nth(i).bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 360
        # the corner of every card is its own: a tap there hits that card
        hit = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.closest('.card')?.dataset.card",
            [box["x"] + 6, box["y"] + 12],
        )
        assert hit == hand(page)[i]
    until_mid_trick(page)
    shot(page, "phone-trick")
    context.close()


def until_mid_trick(page: Page) -> None:
    """Act until it is our turn in the play with cards already in the trick."""
    for count in range(120):
        page.wait_for_selector('[data-my-turn="true"], #result', timeout=20_000)
        if page.query_selector("#result"):  # we led every trick: on to the next deal
            page.click("#next-deal")
            continue
        if (
            page.get_attribute(".table", "data-phase") == "play"
            and page.locator(".trick .card").count()
        ):
            return
        before = answers(page)
        click_turn(page, count == 0)
        page.wait_for_function(
            "n => Number(document.body.dataset.answers || 0) > n", arg=before, timeout=10_000
        )
    raise AssertionError("never our turn in the middle of a trick")


@pytest.mark.parametrize(
    "offline_s", [2, pytest.param(10, marks=pytest.mark.slow, id="10")], ids=str
)
def test_offline_mid_trick_then_back_restores_the_table_and_a_reload_keeps_the_seat(
    browser: Browser, server: Server, offline_s: int
) -> None:
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    computer_game(page, server)
    until_mid_trick(page)
    shot(page, "table-trick")
    assert page.inner_text("[data-testid=contract]")  # the contract stays in view
    page.keyboard.press("l")  # the last trick on request (AC-U4)
    assert page.locator(".last-trick").is_visible()
    page.keyboard.press("l")
    page.wait_for_selector(".last-trick", state="detached")
    before = table_text(page)
    context.set_offline(True)
    page.wait_for_selector("#conn:not([hidden])", timeout=6_000)
    assert "Reconnecting" in page.inner_text("#conn")
    shot(page, "reconnecting")
    time.sleep(offline_s)
    context.set_offline(False)
    back = time.monotonic()
    page.wait_for_selector('body[data-conn="online"]', timeout=3_000)
    page.wait_for_selector('[data-my-turn="true"]', timeout=3_000)
    assert time.monotonic() - back < 3
    after = table_text(page)
    assert after == before
    page.reload()
    page.wait_for_selector('[data-my-turn="true"]')
    assert hand(page) == before[0]  # the same seat, the same cards
    second = context.new_page()  # the link again in another tab: the same seat, moved
    second.goto(page.url)
    second.wait_for_selector('[data-my-turn="true"]')
    assert hand(second) == before[0]
    page.wait_for_selector('body[data-conn="replaced"]')
    assert page.inner_text("#conn") == "This seat was opened elsewhere."
    page.close()
    page = second
    play_deal(page, click_turn)
    context.close()


def test_danish_by_default_english_and_russian_by_browser_or_switch(
    browser: Browser, server: Server
) -> None:
    for locale, text in (
        ("da-DK", "Spil mod computeren"),
        ("fr-FR", "Spil mod computeren"),
        ("en-US", "Play against the computer"),
        ("ru-RU", RUSSIAN),
    ):
        context = browser.new_context(locale=locale)
        page = context.new_page()
        page.goto(server.base + "/")
        assert page.inner_text("#play-computer") == text, locale
        context.close()
    context = browser.new_context(locale="da-DK")
    page = context.new_page()
    page.goto(server.base + "/")
    page.select_option("#lang", "ru")
    page.wait_for_function("() => document.documentElement.lang === 'ru'")
    page.reload()
    assert page.inner_text("#play-computer") == RUSSIAN
    context.close()


def test_a_language_chosen_while_the_first_one_loads_is_kept(
    browser: Browser, server: Server
) -> None:
    context = browser.new_context(locale="da-DK")
    page = context.new_page()
    held: list[Route] = []
    page.route("**/static/locales/da.json", lambda route: held.append(route))  # held back
    page.goto(server.base + "/", wait_until="domcontentloaded")
    page.wait_for_function("() => document.documentElement.lang !== 'ru'")
    page.select_option("#lang", "ru")
    page.wait_for_function("() => document.documentElement.lang === 'ru'")
    assert held, "the Danish catalogue was never asked for"
    with page.expect_response("**/static/locales/da.json"):
        held[0].continue_()
    page.wait_for_timeout(300)  # the late Danish answer is read, and must be dropped
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert page.inner_text("#play-computer") == RUSSIAN
    context.close()


def test_high_contrast_and_four_colours_are_switches_with_accessible_names(
    browser: Browser, server: Server
) -> None:
    page = browser.new_page(locale="en-GB")
    computer_game(page, server)
    page.click("#contrast")
    page.click("#fourcolour")
    page.click("#large")
    assert page.evaluate("() => document.body.className").split() == ["contrast", "four", "large"]
    assert page.get_attribute("#contrast", "aria-pressed") == "true"
    labels = page.eval_on_selector_all(
        ".hand .card", "ns => ns.map(n => n.getAttribute('aria-label'))"
    )
    assert all(" of " in label or label.startswith("joker") for label in labels)
    assert page.get_attribute("#live", "aria-live") == "polite"
    page.wait_for_function("() => document.getElementById('live').textContent.length > 0")
    shot(page, "contrast-four-colours")
    page.close()
