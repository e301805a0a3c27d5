"""Relay a table's requests to the process that owns it (several processes, ``--redis``).

An ASGI middleware: an HTTP request or WebSocket for ``/api/tables/{ref}…``, ``/t/{ref}``
or ``/ws/{ref}`` whose table another process owns is forwarded there and the answer
passed back unchanged, so clients need not know which process holds a table. The
``Host`` header travels with the request, so links in the answer name the process the
client used. A relayed request is marked; one that arrives at a process that does not
own the table either is answered 503 (or closed with 1013) instead of going round.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import re
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

TABLE_PATH = re.compile(r"^/(?:api/tables|t|ws)/([^/]+)")
HOP = "x-esmakker-relayed"
_DROPPED = {"connection", "keep-alive", "transfer-encoding", "upgrade", HOP}
Answer = tuple[int, list[tuple[str, str]], bytes]


def table_ref(path: str) -> str | None:
    """Return the table id or code a path names, if it names one."""
    match = TABLE_PATH.match(path)
    return None if match is None else match.group(1)


class Relay:
    """The middleware; it acts only while the app has a cluster (``app.state.cluster``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        cluster = getattr(scope["app"].state, "cluster", None) if "app" in scope else None
        ref = table_ref(scope["path"]) if scope["type"] in ("http", "websocket") else None
        owner = None if cluster is None or ref is None else await cluster.locate(ref)
        if owner is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await _relay_http(scope, receive, send, owner)
        else:
            await _relay_socket(scope, receive, send, owner)


def _headers(scope: Scope) -> dict[str, str]:
    return {
        name.decode("latin-1"): value.decode("latin-1")
        for name, value in scope["headers"]
        if name.decode("latin-1").lower() not in _DROPPED
    }


def _relayed(scope: Scope) -> bool:
    return any(name.decode("latin-1").lower() == HOP for name, _ in scope["headers"])


def _target(scope: Scope) -> str:
    query: str = scope.get("query_string", b"").decode("latin-1")
    path: str = scope["path"]
    return path + (f"?{query}" if query else "")


async def _relay_http(scope: Scope, receive: Receive, send: Send, owner: str) -> None:
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    if _relayed(scope):
        answer = _unavailable("the table's owner is changing; try again")
    else:
        headers = {**_headers(scope), HOP: "1"}
        try:
            answer = await asyncio.to_thread(
                _forward, owner, scope["method"], _target(scope), headers, body
            )
        except OSError:
            answer = _unavailable("the server process holding this table does not answer")
    status, headers_out, content = answer
    raw = [
        (k.lower().encode("latin-1"), v.encode("latin-1"))
        for k, v in headers_out
        if k.lower() not in _DROPPED
    ]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": content})


def _forward(owner: str, method: str, target: str, headers: dict[str, str], body: bytes) -> Answer:
    """Send one request to the owner and return its answer (runs in a worker thread)."""
    parts = urlsplit(owner)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = kind(parts.hostname or "127.0.0.1", parts.port, timeout=10)
    try:
        conn.request(method, target, body=body or None, headers=headers)
        answer = conn.getresponse()
        return answer.status, answer.getheaders(), answer.read()
    finally:
        conn.close()


def _unavailable(message: str) -> Answer:
    body = json.dumps({"code": "unavailable", "message": message}).encode()
    return 503, [("content-type", "application/json")], body


async def _relay_socket(scope: Scope, receive: Receive, send: Send, owner: str) -> None:
    client = WebSocket(scope, receive, send)
    if _relayed(scope):
        await client.accept()
        await client.close(1013, "the table's owner is changing")
        return
    url = "ws" + owner.removeprefix("http") + _target(scope)
    try:
        upstream = await connect(url, additional_headers={HOP: "1"}, compression=None)
    except InvalidStatus:
        await client.close(1008)  # the owner refused the handshake (unknown table or token)
        return
    except (OSError, TimeoutError, WebSocketException):
        await client.accept()
        await client.close(1013, "the server process holding this table does not answer")
        return
    await client.accept()
    async with upstream:
        await _pump(client, upstream)


async def _pump(client: WebSocket, upstream: ClientConnection) -> None:
    """Copy frames both ways until one side closes, then close the other alike."""
    down = asyncio.create_task(_downstream(client, upstream))
    try:
        while True:
            message = await client.receive()
            if message["type"] == "websocket.disconnect":
                break
            data = message.get("text") or message.get("bytes")
            if data is not None:
                await upstream.send(data)
    except (WebSocketDisconnect, ConnectionClosed, RuntimeError, OSError):
        pass
    finally:
        down.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await down
        await upstream.close()


async def _downstream(client: WebSocket, upstream: ClientConnection) -> None:
    try:
        async for data in upstream:
            if isinstance(data, str):
                await client.send_text(data)
            else:
                await client.send_bytes(data)
    except ConnectionClosed:
        pass
    code = upstream.close_code or 1012
    reason = upstream.close_reason or ""
    with contextlib.suppress(RuntimeError, OSError):
        await client.close(1012 if code in (1005, 1006) else code, reason)
