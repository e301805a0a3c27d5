"""The browser's double-dummy analysis: after a deal, one click, the par line (issue 7)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from server_support import Server, free_port
from web_support import click_turn, play_deal, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with low analysis caps, so the analysis answers in seconds."""
    db = tmp_path_factory.mktemp("web-analysis") / "db.sqlite"
    running = Server(
        db, free_port(), "--analysis-nodes", "100000", "--analysis-budget", "5000000", compiled=True
    )
    yield running
    running.kill()


@pytest.mark.slow  # about 20 s: a deal against bots and the solver's first compilation
def test_the_analysis_of_a_deal_shows_par_and_each_card_cost(
    browser: Browser, server: Server
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page.goto(server.base + "/")
    page.click("#play-computer")
    page.wait_for_selector(".hand .card")
    play_deal(page, click_turn)
    if "Redeal" in page.inner_text("#result .verdict"):
        pytest.skip("the deal was redealt: nothing was played")  # rare: everyone passed
    began = time.monotonic()
    page.click("#analysis-button")
    page.wait_for_selector("#analysis-par", timeout=90_000)
    took = time.monotonic() - began
    assert "opening lead" in page.inner_text("#analysis-par")
    assert "ready" in page.inner_text("#live")
    assert page.get_attribute("#analysis-button", "aria-busy") == "false"
    shot(page, "analysis")
    page.click("#replay-button")
    page.wait_for_selector("#replay-step")
    for _ in range(40):  # step to the first card played
        if page.query_selector("#replay-cost"):
            break
        page.click("#replay-next")
    assert page.inner_text("#replay-cost")
    assert page.query_selector("#analysis-par")
    shot(page, "analysis-replay")
    page.close()
    assert took < 60
