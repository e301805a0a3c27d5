"""The server serves the browser table; every string the page shows is in every catalogue."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from esmakker.core.phase import Phase
from esmakker.core.presets import PRESET_NAMES, PRESETS
from esmakker.server.app import create_app
from esmakker.server.settings import Settings
from esmakker.server.web import WEB

LANGS = ("en", "da", "ru")
KEY_CALL = re.compile(r"""\bt\(\s*["']([\w.]+)["']""")
KEY_ATTR = re.compile(r'data-i18n="([\w.]+)"')


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Settings(db_url=f"sqlite:///{tmp_path / 'db.sqlite'}"))) as c:
        yield c


def catalogue(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((WEB / "locales" / f"{lang}.json").read_text("utf-8"))
    return data


def test_the_page_and_its_modules_are_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert '<script type="module" src="/static/js/main.js">' in page.text
    for name in ("main", "api", "table", "cards", "i18n", "labels", "panels", "coach"):
        module = client.get(f"/static/js/{name}.js")
        assert module.status_code == 200, name
        assert "javascript" in module.headers["content-type"]
    assert client.get("/static/css/app.css").status_code == 200


def test_an_invite_link_opens_the_page_in_a_browser_and_json_elsewhere(client: TestClient) -> None:
    code = client.post("/api/tables", json={"private": True}).json()["code"]
    page = client.get(f"/t/{code}", headers={"Accept": "text/html,application/xhtml+xml"})
    assert page.headers["content-type"].startswith("text/html")
    assert client.get(f"/t/{code}").json()["code"] == code
    assert client.get("/t/NOSUCH", headers={"Accept": "text/html"}).status_code == 404


def used_keys() -> set[str]:
    """Return the literal keys the scripts and the page ask for."""
    keys: set[str] = set()
    for script in (WEB / "js").glob("*.js"):
        keys |= set(KEY_CALL.findall(script.read_text("utf-8")))
    keys |= set(KEY_ATTR.findall((WEB / "index.html").read_text("utf-8")))
    return keys


def dynamic_keys() -> set[str]:
    """Return the keys built from game data: suits, ranks, seats, phases, terms, presets."""
    words = {"vip", "gode", "halve", "staerke", "sans"}
    for options in PRESETS.values():
        words |= set(options.get("attachments", ())) | set(options.get("nolo_contracts", ()))
    words |= {"sol", "ren_sol", "bordlaegger", "ren_bordlaegger"}
    keys = {f"term.{w}" for w in words} | {f"preset.{p}" for p in PRESET_NAMES}
    keys |= {f"phase.{p.value}" for p in Phase} | {f"suit.{s}" for s in "SHDC"}
    keys |= {f"rank.{r}" for r in "AKQJT98765432"} | {f"seat.{s}" for s in "NESW"}
    keys |= {f"act.{a}" for a in ("pass", "turn", "accept", "take", "decline", "iron", "hold")}
    keys |= {"act.join", "act.hidden"} | {f"conn.{c}" for c in ("online", "reconnecting")}
    keys |= {f"req.{r}" for r in ("undo", "claim", "concede")}
    ends = ("undone", "undo_refused", "claim_refused", "claim_accepted", "claim_void")
    return keys | {"conn.replaced"} | {f"live.{e}" for e in ends}


@pytest.mark.parametrize("lang", LANGS)
def test_every_string_is_translated(lang: str) -> None:
    strings = catalogue(lang)
    missing = (used_keys() | dynamic_keys() | set(catalogue("en"))) - set(strings)
    assert not missing, f"{lang} lacks {sorted(missing)}"
    assert all(text.strip() for text in strings.values())
    for key, text in catalogue("en").items():
        wanted = set(re.findall(r"\{(\w+)\}", text))
        assert set(re.findall(r"\{(\w+)\}", strings[key])) == wanted, f"{lang} {key}"


def test_the_scripts_decide_no_rules() -> None:
    """The browser offers the view's legal actions; no suit-following logic lives there."""
    for script in (WEB / "js").glob("*.js"):
        text = script.read_text("utf-8")
        assert "follow" not in text.lower(), script.name
