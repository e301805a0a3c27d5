"""Helpers for the server tests: recording sinks, bot games, and the leak oracle.

The oracle replays a finished deal's hand record up to the number of steps a frame's
view shows and checks the frame against ``observe`` of that state: the view must be
exactly ``observe``'s, and no card of another hand (unless laid open), of the unseen
kitty or of another seat's discards may appear anywhere in the frame, nor the partner
while the seat does not know him.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from esmakker.core.cards import CardSet
from esmakker.core.record import HandRecord, from_json
from esmakker.core.seats import Seat
from esmakker.core.state import State
from esmakker.core.view import observe
from esmakker.server.hub import Hub, Room, TableConfig
from esmakker.server.settings import Settings
from esmakker.server.store import Store

CARD = re.compile(r"\b([SHDC][AKQJT98765432]|X[123])\b")
PARTNER_NAMED = re.compile(r'"partner":"[NESW]"')


class Recorder:
    """A sink that keeps every frame sent to it."""

    def __init__(self) -> None:
        self.frames: list[str] = []
        self.closed: tuple[int, str] | None = None

    def send(self, text: str) -> None:
        self.frames.append(text)

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    def json(self) -> list[dict[str, Any]]:
        return [json.loads(text) for text in self.frames]


def make_hub(folder: Path, **settings: Any) -> Hub:
    return Hub(Store(f"sqlite:///{folder / 'server.db'}"), Settings(**settings))


async def finished(room: Room, timeout: float = 60.0) -> None:
    """Wait until the room's game has ended by itself."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while room.status == "running":
        if loop.time() > end:
            raise TimeoutError(f"table {room.id} still running")
        await asyncio.sleep(0.005)


async def bot_game(hub: Hub, config: TableConfig, level: str) -> tuple[Room, dict[Any, Recorder]]:
    """Play a whole game of bots with a recorder on every place and one spectator."""
    room, _ = hub.create(config)
    await room.fill_bots(level)
    recorders: dict[Any, Recorder] = {}
    for key in [*range(config.seats), None]:
        recorders[key] = Recorder()
        room.attach(recorders[key], key, None)
    await room.start()
    await finished(room)
    return room, recorders


def replayed(record: HandRecord, steps: int) -> State:
    """Return the record's deal after its first ``steps`` steps (remembered per record)."""
    states = _STATES.get(id(record))
    if states is None or states[0] is not record:
        state = State.new(record.rules, record.dealer, list(record.hands), record.kitty)
        states = _STATES[id(record)] = (record, [state])
        for step in record.steps:
            state = state.apply(step.action, step.seat)
            states[1].append(state)
    return states[1][steps]


_STATES: dict[int, tuple[HandRecord, list[State]]] = {}


def hidden_from(state: State, seat: Seat | None, view: dict[str, Any]) -> CardSet:
    """Return the cards ``seat`` must not see now."""
    hidden = 0
    for other in Seat:
        if other != seat and other.name not in view["open_hands"]:
            hidden |= state.hands[other].mask | state.discarded[other].mask
    seen = CardSet.parse(view["kitty_seen"]).mask if view["kitty_seen"] else 0
    hidden |= state.kitty.mask & ~seen
    return CardSet(hidden)


def check_frames(frames: list[str], name: str | None, records: list[dict[str, Any]]) -> int:
    """Check every update or snapshot frame a recipient got; return how many were checked."""
    deal = 0
    seat: Seat | None = None
    checked = 0
    parsed = [from_json(r) for r in records]
    for text in frames:
        frame = json.loads(text)
        for event in frame.get("events", []):
            if event.get("kind") == "deal_started":
                deal = event["number"]
                seat = _seat_of(event["seats"], name)
        if frame.get("type") == "snapshot" and frame["table"]["deal"]:
            deal = frame["table"]["deal"]
            seat = None if frame["you"]["seat"] is None else Seat[frame["you"]["seat"]]
        over = any(e.get("kind") == "deal_over" for e in frame.get("events", []))
        if frame.get("view") is None or over or deal == 0:
            continue
        check_frame(text, frame["view"], parsed[deal - 1], seat)
        checked += 1
    return checked


def _seat_of(seats: dict[str, str], name: str | None) -> Seat | None:
    for seat, player in seats.items():
        if player == name:
            return Seat[seat]
    return None


def check_frame(text: str, view: dict[str, Any], record: HandRecord, seat: Seat | None) -> None:
    """Assert that one frame shows ``seat`` exactly its view and nothing hidden."""
    state = replayed(record, len(view["history"]))
    oracle = observe(state, seat).to_json()
    assert view == oracle, f"view differs from observe for {seat}"
    # cards named, not shown: the called card ("call HA") and the cards one may call
    named = {oracle["contract"]["called"]} if oracle["contract"] else set()
    named |= {a.split()[1] for a in oracle["legal_actions"] if a.startswith("call ")}
    if oracle["contract"]:  # vip: turned kitty cards were shown to all
        named |= set(oracle["contract"]["vip_turned"])
    hidden = {c.name for c in hidden_from(state, seat, oracle)} - named
    leaked = set(CARD.findall(without_ids(text))) & hidden
    assert not leaked, f"{seat} was sent hidden cards {sorted(leaked)}"
    contract = oracle["contract"]
    if contract is not None and contract["partner"] == "??" and state.result() is None:
        assert not PARTNER_NAMED.search(text), f"{seat} was told the hidden partner"


RANDOM_IDS = ("id", "code", "seed", "token")
"""Keys whose values are random identifiers: a table id such as ``ab-S3-cd`` names no card."""


def without_ids(text: str) -> str:
    """Return a frame's text with the random identifiers' values left out."""
    return json.dumps(_drop_ids(json.loads(text)))


def _drop_ids(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: "" if k in RANDOM_IDS else _drop_ids(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_drop_ids(v) for v in value]
    return value


class Player:
    """A test client over a TestClient WebSocket: keeps its frames, view and sequence number."""

    def __init__(self, session: Any, name: str | None) -> None:
        self.session = session
        self.name = name
        self.frames: list[str] = []
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self._ids = 0

    def receive(self) -> dict[str, Any]:
        text = self.session.receive_text()
        self.frames.append(text)
        frame: dict[str, Any] = json.loads(text)
        if frame["type"] in ("update", "snapshot"):
            self.seq = max(self.seq, frame["seq"])
            if frame["view"] is not None:
                self.view = frame["view"]
        return frame

    def read_until(self, seq: int) -> None:
        while self.seq < seq:
            self.receive()

    def send(self, kind: str, **fields: Any) -> str:
        self._ids += 1
        command_id = f"{self.name}-{self._ids}"
        self.session.send_text(json.dumps({"v": 1, "type": kind, "id": command_id, **fields}))
        return command_id

    def command(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a command and return its answer (an ack or an error), reading updates before it."""
        command_id = self.send(kind, **fields)
        while True:
            frame = self.receive()
            if frame["type"] in ("ack", "error") and frame.get("id") == command_id:
                return frame


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """``esmakker serve`` as a child process."""

    def __init__(self, db: Path, port: int, *extra: str, compiled: bool = False) -> None:
        """Start it; ``compiled`` gives it the compiled solver (hints, reviews), waiting
        for the compile, else it runs the plain kernel and compiles nothing.
        """
        self.base = f"http://127.0.0.1:{port}"
        self.log = (db.parent / f"server-{port}.log").open("a")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "esmakker.cli",
                "serve",
                "--port",
                str(port),
                "--db",
                f"sqlite:///{db}",
                "--bot-delay",
                "0",
                *extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=self.log,
            env={**os.environ, "ESMAKKER_SOLVER_PURE": "0" if compiled else "1"},
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                self.get("/api/presets")
                break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise
                time.sleep(0.1)
        # The solver compiles at start (about 20 s of CPU): a test that began meanwhile
        # would share two cores with the compile and wait past its own timeouts.
        deadline = time.monotonic() + 120
        while self.get("/api/health")["solver"] == "compiling" and time.monotonic() < deadline:
            time.sleep(0.2)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=5) as answer:
            return json.loads(answer.read())

    def post(self, path: str, body: dict[str, Any], token: str = "") -> Any:
        request = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(request, timeout=5) as answer:
            return json.loads(answer.read())

    def kill(self) -> None:
        self.process.kill()  # SIGKILL: no clean shutdown
        self.process.wait(10)
        self.log.close()


def start_redis() -> tuple[subprocess.Popen[bytes], str]:
    """Start Debian's ``redis-server`` on a free port (no disk); return it and its URL."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed (scripts/ensure-redis installs it)")
    port = free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process, f"redis://127.0.0.1:{port}/0"
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise
            time.sleep(0.05)
