"""Fixtures of the browser tests: one server per module and Debian's Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from server_support import Server, free_port
from web_support import ARGS, chromium_path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("web")
    running = Server(folder / "db.sqlite", free_port())
    yield running
    running.kill()


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    if chromium_path() is None:
        pytest.skip("chromium not found: apt-get install chromium (scripts/test does it)")
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    launched = playwright.chromium.launch(executable_path=chromium_path(), args=ARGS)
    yield launched
    launched.close()
