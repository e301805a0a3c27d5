"""Four WebSocket clients and a spectator play whole deals through the live protocol."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from esmakker.core.record import from_json
from esmakker.core.seats import Seat
from esmakker.core.state import deal
from esmakker.server.app import create_app
from esmakker.server.settings import Settings
from server_support import Player, check_frames

NAMES = ("anna", "bo", "carl", "dora")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # the clients act as fast as they can: no rate limit here
    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'db.sqlite'}", rate=10_000))
    with TestClient(app) as test_client:
        yield test_client


def open_table(client: TestClient, **config: Any) -> tuple[dict[str, Any], list[str]]:
    created = client.post("/api/tables", json={"host_name": NAMES[0], **config}).json()
    tokens = [created["seat"]["token"]]
    for name in NAMES[1:]:
        answer = client.post(f"/api/tables/{created['code']}/join", json={"name": name})
        assert answer.status_code == 200, answer.text
        tokens.append(answer.json()["token"])
    return created, tokens


def host(created: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {created['host_token']}"}


def play_to_end(players: list[Player], rng: random.Random, deals: int) -> int:
    """Let whoever is to act play a random legal action until ``deals`` deals are over."""
    actions = 0
    while True:
        actor = next((p for p in players if p.view and p.view["legal_actions"]), None)
        if actor is None:
            return actions
        answer = actor.command("act", action=rng.choice(actor.view["legal_actions"]))  # type: ignore[index]
        assert answer["type"] == "ack", answer
        actions += 1
        for player in players:
            player.read_until(answer["seq"])


@pytest.mark.parametrize(
    "deals", [2, pytest.param(200, marks=pytest.mark.slow, id="200-deals")], ids=str
)
def test_four_clients_and_a_spectator_play_whole_deals(client: TestClient, deals: int) -> None:
    """AC-H1 over the wire: every frame to every client is checked against ``observe``."""
    created, tokens = open_table(client, max_deals=deals)
    table = created["id"]
    with (
        client.websocket_connect(f"/ws/{table}?token={tokens[0]}") as s0,
        client.websocket_connect(f"/ws/{table}?token={tokens[1]}") as s1,
        client.websocket_connect(f"/ws/{table}?token={tokens[2]}") as s2,
        client.websocket_connect(f"/ws/{table}?token={tokens[3]}") as s3,
        client.websocket_connect(f"/ws/{table}") as watcher,
    ):
        players = [Player(s, n) for s, n in zip((s0, s1, s2, s3), NAMES, strict=True)]
        spectator = Player(watcher, None)
        started = client.post(f"/api/tables/{table}/start", headers=host(created))
        assert started.status_code == 200, started.text
        everyone = [*players, spectator]
        first = _current_seq(client, table)
        for p in everyone:
            p.read_until(first)
        actions = play_to_end(players, random.Random(deals), deals=deals)
        last = _current_seq(client, table)
        for p in everyone:
            p.read_until(last)
    assert actions > deals * 20
    export = client.get(f"/api/tables/{table}/export").json()
    assert export["table"]["status"] == "finished"
    records = export["records"]
    assert len(records) == deals
    for p in everyone:
        assert check_frames(p.frames, p.name, records) > 20
    for record in records:
        from_json(record)  # replays, and checks the stored result
    csv = client.get(f"/api/tables/{table}/sheet.csv").text.splitlines()
    assert csv[0].split(",")[:3] == ["#", "dealer", "deal"]
    assert len(csv) == deals + 1


def _current_seq(client: TestClient, table: str) -> int:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    seq: int = hub.find(table).seq
    return seq


def test_each_deal_commits_to_its_seed_and_reveals_it_after(client: TestClient) -> None:
    """AC-H6: the hash at deal time matches the seed shown after; the seed deals the cards."""
    created, tokens = open_table(client, max_deals=1)
    table = created["id"]
    with client.websocket_connect(f"/ws/{table}?token={tokens[0]}") as s0:
        player = Player(s0, NAMES[0])
        others = [client.websocket_connect(f"/ws/{table}?token={t}") for t in tokens[1:]]
        sessions = [o.__enter__() for o in others]
        players = [player, *(Player(s, n) for s, n in zip(sessions, NAMES[1:], strict=True))]
        client.post(f"/api/tables/{table}/start", headers=host(created))
        for p in players:
            p.read_until(_current_seq(client, table))
        play_to_end(players, random.Random(3), deals=1)
        for o in others:
            o.__exit__(None, None, None)
    events = [e for f in player.frames for e in _events(f)]
    started = next(e for e in events if e["kind"] == "deal_started")
    over = next(e for e in events if e["kind"] == "deal_over")
    assert hashlib.sha256(over["seed"].encode()).hexdigest() == started["seed_hash"]
    assert started["seed_hash"] not in over["seed"]
    record = from_json(over["record"])
    dealt = deal(record.rules, Seat[over["record"]["dealer"]], random.Random(over["seed"]))
    assert dealt.dealt == (record.hands, record.kitty)


def _events(text: str) -> list[dict[str, Any]]:
    import json

    frame: dict[str, Any] = json.loads(text)
    events: list[dict[str, Any]] = frame.get("events", [])
    return events
