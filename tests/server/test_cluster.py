"""AC-P3: two server processes with one Redis share the lobby and presence, one owner a table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from esmakker.server.cluster import OWNER, Claims
from esmakker.server.relay import HOP
from server_support import Server, free_port, start_redis

NAMES = ("anna", "bo", "carl", "dora")
TTL = 1.5


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    process, url = start_redis()
    try:
        yield url
    finally:
        process.kill()
        process.wait(10)


@pytest.fixture
def pair(tmp_path: Path, redis_url: str) -> Iterator[list[Server]]:
    """Two processes on one SQLite file and one Redis (the Redis emptied first)."""
    asyncio.run(_flush(redis_url))
    db = tmp_path / "server.db"
    servers: list[Server] = []
    try:
        for _ in range(2):
            port = free_port()
            servers.append(Server(db, port, "--redis", redis_url, "--claim-ttl", str(TTL)))
        yield servers
    finally:
        for server in servers:
            if server.process.poll() is None:
                server.kill()


async def _flush(url: str) -> None:
    redis = Redis.from_url(url)
    await redis.flushdb()
    await redis.aclose()


def _owner(url: str, table: str) -> str | None:
    async def read() -> str | None:
        redis = Redis.from_url(url, decode_responses=True)
        try:
            value = await redis.get(OWNER + table)
            return None if value is None else str(value)
        finally:
            await redis.aclose()

    return asyncio.run(read())


def eventually(check: Callable[[], Any], timeout: float = 10.0) -> Any:
    """Return ``check()``'s first true result, retrying on errors and false results."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            result = check()
            if result:
                return result
        except (OSError, urllib.error.URLError, ConnectionClosed):
            if time.monotonic() > deadline:
                raise
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.05)


class Client:
    """A seat over a real WebSocket, through either process."""

    def __init__(self, server: Server, table: str, token: str, last_seq: int | None = None):
        query = f"?token={token}" + ("" if last_seq is None else f"&last_seq={last_seq}")
        url = server.base.replace("http", "ws") + f"/ws/{table}{query}"
        self.socket: ClientConnection = connect(url, open_timeout=5).__enter__()
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.ids = 0
        welcome = self.receive()
        assert welcome["type"] == "welcome", welcome

    def receive(self, timeout: float = 10) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
        if frame["type"] in ("update", "snapshot"):
            self.seq = max(self.seq, frame["seq"])
            self.view = frame["view"] or self.view
        return frame

    def read_until(self, seq: int) -> None:
        while self.seq < seq:
            self.receive()

    def act(self, action: str) -> dict[str, Any]:
        self.ids += 1
        command_id = f"c{self.ids}-{time.monotonic_ns()}"
        self.socket.send(json.dumps({"v": 1, "type": "act", "id": command_id, "action": action}))
        while (frame := self.receive())["type"] not in ("ack", "error"):
            pass
        return frame


def play(clients: list[Client], rng: random.Random, stop: Callable[[], bool]) -> None:
    while not stop():
        actor = next((c for c in clients if c.view and c.view["legal_actions"]), None)
        if actor is None:  # the frames that give someone a turn are still on their way
            for client in clients:
                with contextlib.suppress(TimeoutError):
                    client.receive(timeout=0.05)
            continue
        answer = actor.act(rng.choice(actor.view["legal_actions"]))  # type: ignore[index]
        assert answer["type"] == "ack", answer
        for client in clients:
            client.read_until(answer["seq"])


def _listed(server: Server, table: str) -> dict[str, Any] | None:
    return next((t for t in server.get("/api/tables") if t["id"] == table), None)


def _online(server: Server, table: str) -> bool:
    """Return whether the lobby of ``server`` shows the table's first player online."""
    listed = _listed(server, table)
    assert listed is not None, f"table {table} is not in the lobby"
    return bool(listed["players"][0]["online"])


def _seated(a: Server, b: Server, **config: Any) -> tuple[str, str, list[str]]:
    """Create a table on A, seat three more people through B; return id, host, tokens."""
    created = a.post("/api/tables", {"host_name": NAMES[0], **config})
    table = created["id"]
    tokens = [created["seat"]["token"]]
    seats = [b.post(f"/api/tables/{table}/join", {"name": n}) for n in NAMES[1:]]
    assert seats[0]["ws_url"] == f"{b.base.replace('http', 'ws')}/ws/{table}"  # B's own address
    tokens += [seat["token"] for seat in seats]
    return table, created["host_token"], tokens


def test_lobby_and_presence_are_shared(pair: list[Server], redis_url: str) -> None:
    a, b = pair
    created = a.post("/api/tables", {"host_name": "anna"})
    table = created["id"]
    listed = eventually(lambda: _listed(b, table))
    assert listed["players"][0]["online"] is False
    assert _owner(redis_url, table) == a.base
    client = Client(b, table, created["seat"]["token"])  # relayed by B to A
    assert eventually(lambda: _online(b, table))
    assert _online(a, table)
    client.socket.close()
    assert eventually(lambda: not _online(b, table))
    assert b.get(f"/t/{created['code']}")["id"] == table
    looped = urllib.request.Request(f"{b.base}/api/tables/{table}", headers={HOP: "1"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(looped, timeout=5)
    refused.value.close()  # the error holds the open response
    assert refused.value.code == 503  # a relayed request is never relayed again
    private = b.post("/api/tables", {"private": True})
    time.sleep(0.2)
    assert _listed(a, private["id"]) is None
    assert _owner(redis_url, private["id"]) == b.base


def test_a_deal_through_both_processes(pair: list[Server], redis_url: str) -> None:
    a, b = pair
    table, host, tokens = _seated(a, b, max_deals=1)
    assert _owner(redis_url, table) == a.base
    clients = [Client(pair[i % 2], table, token) for i, token in enumerate(tokens)]
    b.post(f"/api/tables/{table}/start", {}, host)
    play(clients, random.Random(3), lambda: a.get(f"/api/tables/{table}")["status"] != "running")
    assert b.get(f"/api/tables/{table}")["status"] == "finished"
    for client in clients:
        client.socket.close()
    assert eventually(lambda: _owner(redis_url, table) is None)  # A let the ended table go
    assert len(b.get(f"/api/tables/{table}/deals")) == 1  # B reloads it from the database
    assert _owner(redis_url, table) == b.base  # and keeps it a TTL for the requests after
    assert eventually(lambda: _owner(redis_url, table) is None)  # then lets it go again


def test_a_killed_owner_hands_its_table_over(pair: list[Server], redis_url: str) -> None:
    a, b = pair
    table, host, tokens = _seated(a, b, max_deals=2)
    clients = [Client(b, table, token) for token in tokens]
    b.post(f"/api/tables/{table}/start", {}, host)
    rng = random.Random(5)
    play(clients, rng, lambda: bool(clients[0].view and clients[0].view["phase"] == "play"))
    seqs = [c.seq for c in clients]
    views = [c.view for c in clients]
    a.kill()
    started = time.monotonic()
    resumed = [
        eventually(lambda t=token, s=seq: Client(b, table, t, last_seq=s))  # type: ignore[misc]
        for token, seq in zip(tokens, seqs, strict=True)
    ]
    assert time.monotonic() - started >= TTL / 2  # the claim had to expire first
    assert _owner(redis_url, table) == b.base
    for client, view in zip(resumed, views, strict=True):
        client.socket.send(json.dumps({"v": 1, "type": "sync", "id": "s"}))
        while (frame := client.receive())["type"] != "snapshot":
            pass
        assert frame["view"] == view  # restored by B exactly as A left it
    play(resumed, rng, lambda: b.get(f"/api/tables/{table}")["status"] != "running")
    assert len(b.get(f"/api/tables/{table}/deals")) == 2


def test_claims_are_exclusive_renewed_and_expire(redis_url: str) -> None:
    async def scenario() -> None:
        redis = Redis.from_url(redis_url, decode_responses=True)
        try:
            mine, theirs = Claims(redis, "http://a", 0.3), Claims(redis, "http://b", 0.3)
            await redis.delete(OWNER + "t1")
            assert await mine.claim("t1") == "http://a"
            assert await theirs.claim("t1") == "http://a"
            assert await theirs.renew(["t1"]) == ["t1"]
            await asyncio.sleep(0.2)
            assert await mine.renew(["t1"]) == []
            await asyncio.sleep(0.2)
            assert await theirs.owner("t1") == "http://a"  # renewed: still held
            await theirs.release("t1")
            assert await mine.owner("t1") == "http://a"  # only the owner releases
            await asyncio.sleep(0.4)
            assert await mine.owner("t1") is None
            assert await theirs.claim("t1") == "http://b"
            assert await mine.renew(["t1"]) == ["t1"]
            await theirs.release("t1")
            assert await mine.owner("t1") is None
        finally:
            await redis.aclose()

    asyncio.run(scenario())


def test_one_process_never_imports_redis(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "from fastapi.testclient import TestClient\n"
        "from esmakker.server.app import create_app\n"
        "from esmakker.server.settings import Settings\n"
        f"app = create_app(Settings(db_url='sqlite:///{tmp_path / 'one.db'}'))\n"
        "with TestClient(app) as client:\n"
        "    assert client.post('/api/tables', json={}).status_code == 200\n"
        "    assert len(client.get('/api/tables').json()) == 1\n"
        "assert 'redis' not in sys.modules, 'redis was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
