"""The review in the browser's replay: loading and failure, the costly step's line, n/p jumps.

The review's answer is held and then given by the test (``page.route``), so what is marked
does not depend on the search; the server's own review is tested in tests/server.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Browser, Page, Route

from server_support import Server, free_port
from web_support import TURN, click_turn, play_deal, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("web-replay-review") / "db.sqlite"
    running = Server(db, free_port(), "--review-worlds", "1", compiled=True)
    yield running
    running.kill()


class HeldReviews:
    """Hold each review request until the test answers it; count them."""

    def __init__(self) -> None:
        self.routes: list[Route] = []

    def __call__(self, route: Route) -> None:
        self.routes.append(route)

    def wait(self, page: Page, count: int) -> None:
        """Let the page run until ``count`` requests are held."""
        for _ in range(200):
            if len(self.routes) >= count:
                return
            page.wait_for_timeout(50)
        raise AssertionError(f"{len(self.routes)} review requests, expected {count}")


def canned(server: Server, route: Route) -> dict[str, Any]:
    """Return a review of two of the seat's actions: its second and its last."""
    url = urlparse(route.request.url)
    seat = parse_qs(url.query)["seat"][0]
    table, number = url.path.split("/")[3], int(url.path.split("/")[5])
    actions = server.get(f"/api/tables/{table}/deals/{number}")["actions"]
    mine = [i for i, a in enumerate(actions) if a.startswith(f"{seat} ")]
    if len(mine) < 3:
        pytest.skip(f"the deal ended after {len(mine)} action(s) of the seat")
    mistakes = [
        {
            "index": index,
            "step": step,
            "trick": None,
            "phase": "play",
            "action": actions[step].split(" ", 1)[1],
            "best": actions[better].split(" ", 1)[1],  # an action of the seat's, as better
            "cost": cost,
        }
        for index, step, better, cost in (
            (1, mine[1], mine[-1], 23.4),
            (2, mine[-1], mine[1], 61.0),
        )
    ]
    return {"deal": number, "seat": seat, "decisions": len(mine), "mistakes": mistakes}


def pass_then_first(page: Page, first: bool) -> None:
    """Take the first choice offered (pass in the auction), so the person plays every card."""
    click_turn(page, False)


def step_of(page: Page) -> int:
    return int(page.inner_text("#replay-step").split()[1])


def test_the_replay_marks_my_costly_choices_and_jumps_to_them(
    browser: Browser, server: Server
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900}, locale="en-GB")
    held = HeldReviews()
    page.route("**/deals/*/review?*", held)
    page.goto(server.base + "/")
    page.click("#play-computer")
    page.wait_for_selector(TURN)
    play_deal(page, pass_then_first)
    if "Redeal" in page.inner_text("#result .verdict"):
        pytest.skip("the deal was redealt: nothing was played")
    page.click("#replay-button")
    page.wait_for_selector("#replay-review-status")
    assert "Reviewing your choices" in page.inner_text("#replay-review-status")
    held.wait(page, 1)
    page.keyboard.press("n")  # nothing to jump to yet: the replay stays where it is
    assert step_of(page) == 0

    held.routes[0].fulfill(
        status=500,
        content_type="application/json",
        body=json.dumps({"code": "internal", "message": "the search broke"}),
    )
    page.wait_for_selector("#replay-review-status.error")
    assert "The review failed: the search broke" in page.inner_text("#replay-review-status")
    page.click("#replay #review-button")  # try again
    held.wait(page, 2)
    answer = canned(server, held.routes[1])
    held.routes[1].fulfill(content_type="application/json", body=json.dumps(answer))
    page.wait_for_selector("#replay-next-costly")
    assert "Your costly choices in this deal: 2" in page.inner_text("#replay-review-status")
    assert page.is_disabled("#replay-prev-costly")
    assert not page.query_selector("#replay-review")

    first, last = (m["step"] for m in answer["mistakes"])
    page.keyboard.press("n")
    assert step_of(page) == first + 1  # the position after the costly action
    line = page.inner_text("#replay-review")
    assert line.startswith("✗ costly choice 1 of 2: You chose ")
    assert line.endswith("was better by 23 points")
    chosen = line.split("You chose ")[1].split(";")[0]
    assert page.inner_text("#replay-step").endswith(f": {chosen} ✗")  # the step's own card
    shot(page, "replay-review")
    page.click("#replay-next-costly")
    assert step_of(page) == last + 1
    assert "costly choice 2 of 2" in page.inner_text("#replay-review")
    assert page.is_disabled("#replay-next-costly")
    page.keyboard.press("n")
    assert "No further costly choice" in page.inner_text("#live")
    page.keyboard.press("p")
    assert step_of(page) == first + 1
    page.keyboard.press("ArrowRight")
    assert not page.query_selector("#replay-review")
    assert "✗" not in page.inner_text("#replay-step")
    page.keyboard.press("n")
    assert step_of(page) == last + 1
    assert len(held.routes) == 2  # the answer is kept: stepping asks nothing more
    page.close()
