"""The browser's coach: a hint for my own turn (button and key h), the review after a deal."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from server_support import Server, free_port
from web_support import TURN, click_turn, play_deal, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose hints and reviews search few worlds, so they answer at once."""
    db = tmp_path_factory.mktemp("web-coach") / "db.sqlite"
    running = Server(db, free_port(), "--hint-worlds", "2", "--review-worlds", "1", compiled=True)
    yield running
    running.kill()


def my_turn(page: Page) -> None:
    page.wait_for_selector('[data-my-turn="true"]', timeout=20_000)


def suggestion(page: Page) -> str:
    """Wait for the hint line; return the suggested action, checked to be offered on the page."""
    page.wait_for_selector("#hint-text[data-suggested]", timeout=20_000)
    action = page.get_attribute("#hint-text", "data-suggested")
    assert action
    offered = page.eval_on_selector_all(
        ".hand .card.legal, .panel button.act", "ns => ns.map(n => n.dataset.action)"
    )
    assert action in offered
    assert page.query_selector(f'.suggested[data-action="{action}"]')
    return action


def test_a_hint_highlights_a_legal_choice_with_its_reason(browser: Browser, server: Server) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page.goto(server.base + "/")
    page.click("#play-computer")
    my_turn(page)
    page.click("#hint-button")
    action = suggestion(page)
    text = page.inner_text("#hint-text")
    assert text.startswith("Hint: ")
    assert "expected points" in text or "only legal" in text
    assert page.inner_text("#live") in text  # announced to screen readers
    shot(page, "hint")
    page.click(f'.suggested[data-action="{action}"]', position={"x": 6, "y": 12})
    page.wait_for_function(
        "a => !document.querySelector(`.suggested[data-action='${a}']`)", arg=action
    )
    my_turn(page)
    page.keyboard.press("h")
    suggestion(page)
    page.close()


@pytest.mark.slow  # a whole deal against bots, then the review of every choice
def test_the_review_after_a_deal_lists_costly_choices(browser: Browser, server: Server) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page.goto(server.base + "/")
    page.click("#play-computer")
    page.wait_for_selector(TURN)
    play_deal(page, click_turn)
    if "Redeal" in page.inner_text("#result .verdict"):
        pytest.skip("the deal was redealt: nothing was played")
    page.click("#review-button")
    page.wait_for_selector(
        "#review-list, #review-status:not(:has-text('Reviewing'))", timeout=60_000
    )
    shot(page, "review")
    listed = page.query_selector("#review-list")
    if listed:
        assert "was better by" in listed.inner_text()
    else:
        assert "None of your" in page.inner_text("#review-status")
    page.close()
