"""``esmakker join URL``: a line-mode client of the live protocol (AC-T2).

It prints one line per event and reads actions typed in the hand-record notation
(``play HQ``, ``bid 9 vip``); ``undo`` asks for a take-back, ``claim``/``concede`` (the
declarer) claims or gives up the tricks left, ``yes``/``no`` answer the last request,
``hand`` shows the hand again, ``quit`` leaves. A dropped connection is resumed with
the last sequence number seen.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import urllib.parse
import urllib.request
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any, TextIO

import websockets

Lines = Callable[[], AsyncIterator[str]]


@dataclass(slots=True)
class Place:
    """Where the client connects and as whom."""

    base: str
    table: str
    token: str | None


@dataclass(slots=True)
class Session:
    """What the client knows: the last sequence number and view, its seat."""

    place: Place
    out: TextIO
    seq: int | None = None
    view: dict[str, Any] | None = None
    seat: str | None = None
    ids: int = 0
    done: bool = False
    name: str | None = None
    socket: Any = None
    asked: str = "undo_reply"
    """The reply type that ``yes``/``no`` send: to the last take-back or claim asked for."""
    prompted: tuple[int, tuple[str, ...]] = (-1, ())
    """The turn last asked for (steps so far, legal actions): each turn is asked once."""
    pending: dict[str, str] = field(default_factory=dict)

    def say(self, line: str) -> None:
        """Print one line."""
        self.out.write(line + "\n")
        self.out.flush()


DEFAULT_SERVER = "http://127.0.0.1:8000"


def parse_url(url: str, server: str = DEFAULT_SERVER) -> tuple[str, str]:
    """Return the server's base URL and the table reference (id or code) in ``url``.

    A bare code (no ``/`` and no ``:``) is a table on ``server``.

    >>> parse_url("http://localhost:8000/t/K7PQ2M")
    ('http://localhost:8000', 'K7PQ2M')
    >>> parse_url("k7pq2m", "http://example.org:8000")
    ('http://example.org:8000', 'k7pq2m')
    """
    if url and "/" not in url and ":" not in url:
        return server.rstrip("/"), url
    parts = urllib.parse.urlsplit(url if "://" in url else f"http://{url}")
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    ref = parts.path.rstrip("/").rsplit("/", 1)[-1]
    if not ref:
        raise ValueError(f"no table in {url!r} (expected http://host:port/t/CODE)")
    return f"{scheme}://{parts.netloc}", ref


def _post(url: str, body: dict[str, Any]) -> Any:
    data = json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return json.loads(answer.read())


def find_place(
    url: str, name: str | None, token: str | None, watch: bool, server: str = DEFAULT_SERVER
) -> Place:
    """Take a place (``name``), come back to one (``token``) or watch; return where to connect."""
    base, ref = parse_url(url, server)
    if token:
        return Place(base, token.split(".")[0], token)
    if name and not watch:
        seated = _post(f"{base}/api/tables/{ref}/join", {"name": name})
        return Place(base, str(seated["table_id"]), str(seated["token"]))
    info = _get(f"{base}/api/tables/{ref}")
    return Place(base, str(info["id"]), None)


def run_client(
    url: str, *, name: str | None, token: str | None, watch: bool, server: str = DEFAULT_SERVER
) -> int:
    """Run the client on standard input and output; return the exit code."""
    try:
        place = find_place(url, name, token, watch, server)
    except (OSError, ValueError) as exc:
        sys.stderr.write(f"esmakker: cannot join: {exc}\n")
        return 1
    if place.token:
        sys.stdout.write(f"seat token (to come back: --token): {place.token}\n")
    return asyncio.run(play(place, sys.stdout, _stdin_lines))


async def _stdin_lines() -> AsyncIterator[str]:
    while line := await asyncio.to_thread(sys.stdin.readline):
        yield line


async def play(place: Place, out: TextIO, lines: Lines, retries: int = 20) -> int:
    """Connect, print events, send typed actions; resume after a dropped connection."""
    session = Session(place, out)
    reader: asyncio.Task[None] | None = None
    for _attempt in range(retries):
        try:
            async with websockets.connect(_ws_url(session)) as socket:
                if reader is None or reader.done():
                    reader = asyncio.create_task(_typing(session, lines))
                await _talk(session, socket, reader)
        except (OSError, websockets.ConnectionClosedError):
            session.say("(connection lost, reconnecting)")
            await asyncio.sleep(1)
        if session.done:
            break
    if reader is not None:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader
    return 0


def _ws_url(session: Session) -> str:
    place = session.place
    query = {k: v for k, v in (("token", place.token), ("last_seq", session.seq)) if v is not None}
    ws_base = "ws" + place.base[4:]
    suffix = f"?{urllib.parse.urlencode(query)}" if query else ""
    return f"{ws_base}/ws/{place.table}{suffix}"


async def _talk(session: Session, socket: Any, reader: asyncio.Task[None]) -> None:
    session.socket = socket
    try:
        async for text in socket:
            for line in describe(session, json.loads(text)):
                session.say(line)
            if session.done or reader.done():
                session.done = True
                return
        session.done = True
    finally:
        session.socket = None


async def _typing(session: Session, lines: Lines) -> None:
    """Send typed lines; ``quit`` leaves, the end of the input only stops reading it."""
    async for raw in lines():
        line = raw.strip()
        if line in ("quit", "exit"):
            session.done = True
            if session.socket is not None:
                await session.socket.close()
            return
        if line == "hand":
            session.say(_hand_line(session))
        elif line and session.socket is not None:
            await session.socket.send(json.dumps(command(session, line)))
    await asyncio.Event().wait()  # no more input (a watcher, say): keep printing


def command(session: Session, line: str) -> dict[str, Any]:
    """Return the frame for a typed line: an action, or undo / yes / no."""
    session.ids += 1
    frame: dict[str, Any] = {"v": 1, "id": f"line-{session.ids}"}
    if line in ("undo", "claim", "concede"):
        frame["type"] = line
    elif line in ("yes", "no"):
        frame.update(type=session.asked, accept=line == "yes")
    else:
        frame.update(type="act", action=line)
    session.pending[frame["id"]] = line
    return frame


def describe(session: Session, frame: dict[str, Any]) -> list[str]:
    """Return the lines that print a server frame (one per event)."""
    kind = frame.get("type")
    if kind == "welcome":
        you = frame["you"]
        session.name = you["name"]
        who = "watching" if you["index"] is None else f"you are {you['name']}"
        return [f"connected ({who}, seq {frame['seq']})"]
    if kind == "error":
        return [f"error {frame['code']}: {frame['message']}"]
    if kind == "ack":
        session.pending.pop(str(frame.get("id")), None)
        return []
    if kind in ("update", "snapshot"):
        session.seq = frame["seq"]
        return _update(session, frame)
    return []


def _update(session: Session, frame: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    if frame["type"] == "snapshot":
        you = frame["you"]
        session.seat = you["seat"]
        lines.append(f"table {frame['table']['code']}: {frame['table']['status']}")
    for event in frame.get("events", []):
        lines += _event_lines(session, event)
    if frame.get("view") is not None:
        session.view = frame["view"]
        view = frame["view"]
        prompt = (len(view["history"]), tuple(view["legal_actions"]))
        if view["legal_actions"] and prompt != session.prompted:
            session.prompted = prompt
            lines.append(_hand_line(session))
            lines.append(f"your turn: {' | '.join(view['legal_actions'])}")
    return lines


def _hand_line(session: Session) -> str:
    view = session.view
    if view is None:
        return "no deal yet"
    won = " ".join(f"{s}:{n}" for s, n in view["won"].items())
    trick = " ".join(view["trick"]) or "-"
    return f"hand: {view['hand'] or '-'}   trick: {trick}   tricks {won}"


def _event_lines(session: Session, event: dict[str, Any]) -> list[str]:
    kind = event.get("kind")
    if kind == "action":
        return [str(event["step"])]
    if kind in ("undo_asked", "claim_asked", "concede_asked"):
        session.asked = "undo_reply" if kind == "undo_asked" else "claim_reply"
        what = {"undo_asked": "a take-back", "claim_asked": "every trick left"}.get(kind)
        return [f"{event['seat']} asks for {what or 'a concession'}: yes or no?"]
    if kind == "trick":
        return [f"trick {event['number']} to {event['winner']}"]
    if kind == "deal_started":
        seats = " ".join(f"{s}={p}" for s, p in event["seats"].items())
        mine = next((s for s, p in event["seats"].items() if p == session.name), None)
        session.seat = mine
        return [
            f"deal {event['number']}: dealer {event['dealer']}, {seats} (seed hash {event['seed_hash'][:12]})"
        ]
    if kind == "deal_over":
        row = event["row"]
        scores = " ".join(f"{p}:{d:+d}" for p, d in row["scores"].items())
        deal = event["record"]["deal"]
        hands = " / ".join(f"{s} {deal[s]}" for s in "NESW")
        return [
            f"deal {event['number']} over: {row['contract'] or 'redeal'} {scores}",
            f"hands: {hands}",
        ]
    return [_plain(event)]


def _plain(event: dict[str, Any]) -> str:
    kind = str(event.get("kind"))
    rest = " ".join(f"{k}={v}" for k, v in event.items() if k != "kind")
    return f"{kind} {rest}".strip()
