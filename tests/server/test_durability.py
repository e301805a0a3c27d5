"""AC-R6: ``kill -9`` the server mid-trick, start it again: the table is restored exactly."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from server_support import Server, free_port

NAMES = ("anna", "bo", "carl", "dora")


class Client:
    """A seat over a real WebSocket."""

    def __init__(self, server: Server, table: str, token: str, last_seq: int | None = None) -> None:
        query = f"?token={token}" + ("" if last_seq is None else f"&last_seq={last_seq}")
        url = server.base.replace("http", "ws") + f"/ws/{table}{query}"
        self.socket: ClientConnection = connect(url).__enter__()
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.frames: list[dict[str, Any]] = []
        self.ids = 0

    def receive(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.socket.recv(timeout=10))
        self.frames.append(frame)
        if frame["type"] in ("update", "snapshot"):
            self.seq = max(self.seq, frame["seq"])
            self.view = frame["view"] or self.view
        return frame

    def read_until(self, seq: int) -> None:
        while self.seq < seq:
            self.receive()

    def sync(self) -> dict[str, Any]:
        self.socket.send(json.dumps({"v": 1, "type": "sync", "id": "sync"}))
        while (frame := self.receive())["type"] != "snapshot":
            pass
        return frame

    def act(self, action: str) -> dict[str, Any]:
        self.ids += 1
        command_id = f"c{self.ids}-{time.monotonic_ns()}"
        self.socket.send(json.dumps({"v": 1, "type": "act", "id": command_id, "action": action}))
        while (frame := self.receive())["type"] not in ("ack", "error"):
            pass
        return frame


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "server.db"


def play(clients: list[Client], rng: random.Random, stop: Any) -> None:
    while not stop():
        actor = next(c for c in clients if c.view and c.view["legal_actions"])
        answer = actor.act(rng.choice(actor.view["legal_actions"]))  # type: ignore[index]
        assert answer["type"] == "ack", answer
        for client in clients:
            client.read_until(answer["seq"])


def test_kill_9_mid_trick_restores_the_table(db: Path) -> None:
    port = free_port()
    server = Server(db, port)
    try:
        created = server.post("/api/tables", {"host_name": NAMES[0], "max_deals": 2})
        table, host = created["id"], created["host_token"]
        tokens = [created["seat"]["token"]]
        tokens += [
            server.post(f"/api/tables/{table}/join", {"name": n})["token"] for n in NAMES[1:]
        ]
        clients = [Client(server, table, t) for t in tokens]
        server.post(f"/api/tables/{table}/start", {}, host)
        seq = server.get(f"/api/tables/{table}")["deal"] and _seq_now(clients[0])
        for client in clients:
            client.read_until(seq)
        rng = random.Random(11)

        def mid_trick() -> bool:
            view = clients[0].view
            return view is not None and view["phase"] == "play" and len(view["trick"]) == 2

        play(clients, rng, mid_trick)
        before = [(c.view, c.seq) for c in clients]
        server.kill()
        for client in clients:
            client.socket.close()

        server = Server(db, port)
        clients = [
            Client(server, table, t, last_seq=s) for t, (_, s) in zip(tokens, before, strict=True)
        ]
        for client, (view, seq) in zip(clients, before, strict=True):
            welcome = client.receive()
            assert welcome["type"] == "welcome"
            assert welcome["seq"] >= seq
            assert client.sync()["view"] == view
        play(clients, rng, lambda: server.get(f"/api/tables/{table}")["status"] != "running")
        assert len(server.get(f"/api/tables/{table}/deals")) == 2
    finally:
        server.kill()


def _seq_now(client: Client) -> int:
    """Read the frames up to the first deal's start and return its sequence number."""
    while True:
        frame = client.receive()
        if any(e.get("kind") == "deal_started" for e in frame.get("events", [])):
            return int(frame["seq"])
