"""The live protocol endpoint: one WebSocket per client, thin (decode, hub, encode)."""

from __future__ import annotations

import asyncio
import contextlib
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from esmakker.server import codec, errors
from esmakker.server.errors import ApiError
from esmakker.server.hub import Hub, Key, Room

router = APIRouter()


class Connection:
    """A client's outbox: frames are queued and written by one task, in order."""

    def __init__(self, socket: WebSocket, limit: int) -> None:
        self.socket = socket
        self.limit = limit
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closing = (1000, "")

    def send(self, text: str) -> None:
        """Queue a frame; a client too slow to keep up is disconnected."""
        if self.queue.qsize() >= self.limit:
            self.close(1008, "too slow")
            return
        self.queue.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        """Close after the frames already queued."""
        self.closing = (code, reason)
        self.queue.put_nowait(None)

    async def write(self) -> None:
        """Write the queued frames until closed (a client gone away ends it quietly)."""
        try:
            while (text := await self.queue.get()) is not None:
                await self.socket.send_text(text)
            code, reason = self.closing
            await self.socket.close(code, reason)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return


@router.websocket("/ws/{ref}")
async def table_socket(
    websocket: WebSocket, ref: str, token: str | None = None, last_seq: int | None = None
) -> None:
    """Join a table's live stream: with a seat token as that seat, without as a spectator."""
    hub: Hub = websocket.app.state.hub
    try:
        room = hub.find(ref)
        key: Key = hub.identify(room, token) if token else None
    except ApiError as exc:
        await websocket.close(4404 if exc.status == 404 else 4403, exc.message)
        return
    await websocket.accept()
    await _serve(websocket, hub, room, key, last_seq)


class Bucket:
    """A token bucket: ``rate`` frames a second, bursts up to twice that."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.tokens = 2 * rate
        self.last = time.monotonic()

    def take(self) -> bool:
        """Return whether one more frame is allowed now."""
        now = time.monotonic()
        self.tokens = min(2 * self.rate, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


async def _serve(
    websocket: WebSocket, hub: Hub, room: Room, key: Key, last_seq: int | None
) -> None:
    connection = Connection(websocket, hub.settings.outbox)
    bucket = Bucket(hub.settings.rate)
    writer = asyncio.create_task(connection.write())
    room.attach(connection, key, last_seq)
    try:
        while True:
            try:
                message = await websocket.receive()
            except (WebSocketDisconnect, RuntimeError, OSError):
                break
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if not bucket.take():
                limit = f"at most {hub.settings.rate:g} frames a second"
                replies = [errors.error_frame(errors.RATE_LIMITED, limit, None)]
            elif text is None:
                replies = [errors.error_frame(errors.BAD_FRAME, "frames are JSON text", None)]
            else:
                replies = await room.handle(key, text)
            for reply in replies:
                connection.send(codec.dumps(reply))
    finally:
        room.detach(connection, key)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, RuntimeError, OSError):
            await writer
