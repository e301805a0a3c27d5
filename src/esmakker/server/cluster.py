"""Several server processes (``esmakker serve --redis URL``): one owner per table.

Every process shares the database and one Redis. Redis keys (prefix ``esmakker:``):

- ``owner:{id}``: the base URL of the process that owns the table, set with ``NX`` and a
  TTL and renewed by that process's heartbeat. A table lives in one process only; when
  its owner dies the claim expires and the next process asked for the table claims it
  and restores it from the database.
- ``table:{id}``: the table's public info (``Room.info()``, with each player's
  ``online`` flag), written by the owner on every change and renewed with the claim.
  Every process reads the lobby and presence from these keys.

Requests for a table owned by another process are relayed to it (``server/relay.py``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from redis.asyncio import Redis

from esmakker.server.hub import OPEN, Hub, Room

log = logging.getLogger(__name__)

OWNER = "esmakker:owner:"
INFO = "esmakker:table:"
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
    return redis.call('del', KEYS[1])
end
return 0
"""


class Claims:
    """Table ownership in Redis: claim, renew and release, each atomic."""

    def __init__(self, redis: Redis, me: str, ttl: float) -> None:
        self.redis = redis
        self.me = me
        self.ttl_ms = max(1, int(ttl * 1000))

    async def claim(self, table_id: str) -> str:
        """Claim the table unless another process holds it; return its owner's URL."""
        for _ in range(3):
            if await self.redis.set(OWNER + table_id, self.me, nx=True, px=self.ttl_ms):
                return self.me
            owner = await self.redis.get(OWNER + table_id)
            if owner is not None:
                return str(owner)
        raise RuntimeError(f"table {table_id}: its claim keeps changing hands")

    async def owner(self, table_id: str) -> str | None:
        """Return the URL of the process that owns the table, if any."""
        owner = await self.redis.get(OWNER + table_id)
        return None if owner is None else str(owner)

    async def renew(self, table_ids: list[str]) -> list[str]:
        """Extend this process's claims; return the tables it no longer owns."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.eval(_RENEW, 1, OWNER + table_id, self.me, self.ttl_ms)
            kept = await pipe.execute()
        return [table_id for table_id, ok in zip(table_ids, kept, strict=True) if not ok]

    async def release(self, table_id: str) -> None:
        """Give the table up (only if this process still holds it)."""
        await self.redis.eval(_RELEASE, 1, OWNER + table_id, self.me)


class Cluster:
    """This process's part in a cluster: claims, heartbeat, shared lobby and presence."""

    def __init__(self, hub: Hub, url: str, me: str, ttl: float) -> None:
        self.hub = hub
        self.redis = Redis.from_url(url, decode_responses=True)
        self.claims = Claims(self.redis, me, ttl)
        self.me = me
        self.ttl = ttl
        self._dirty: set[str] = set()
        self._used: dict[str, float] = {}  # table id -> when last asked for or changed
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Check that Redis answers and start the heartbeat and the info writer."""
        await self.redis.ping()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._heartbeat()), loop.create_task(self._writer())]

    async def stop(self) -> None:
        """Stop the tasks, give every table up and close the connection."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        try:
            for table_id in list(self.hub.rooms):
                await self.claims.release(table_id)
                await self.redis.delete(INFO + table_id)
        finally:
            await self.redis.aclose()

    # --- tables -------------------------------------------------------------------------

    async def own(self, room: Room) -> None:
        """Claim a table this process has just created."""
        await self.claims.claim(room.id)
        self.touch(room)

    async def locate(self, ref: str) -> str | None:
        """Return the owner's URL if another process owns the table ``ref``, else ``None``.

        ``None`` also when no such table exists (the route then answers 404). A table
        nobody owns is claimed here and restored from the database.
        """
        if (room := self._local(ref)) is not None:
            self._used[room.id] = time.monotonic()
            return None
        table_id = self.hub.store.table_id(ref)
        if table_id is None:
            return None
        owner = await self.claims.claim(table_id)
        if owner != self.me:
            return owner
        stored = self.hub.store.load_table(table_id)  # read once the claim is ours
        if stored is not None and table_id not in self.hub.rooms:
            self.touch(self.hub.adopt(stored))
        return None

    def _local(self, ref: str) -> Room | None:
        table_id = self.hub.codes.get(ref.upper(), ref)
        return self.hub.rooms.get(table_id)

    def touch(self, room: Room) -> None:
        """Note that a table changed: its shared info is written soon."""
        self._dirty.add(room.id)
        self._used[room.id] = time.monotonic()
        self._wake.set()

    async def lobby(self) -> list[dict[str, Any]]:
        """Return the public tables waiting for players, of every process."""
        found = {room.id: room.info() for room in self.hub.public()}
        keys = [key async for key in self.redis.scan_iter(match=INFO + "*", count=500)]
        texts = await self.redis.mget(keys) if keys else []
        for text in texts:
            info = None if text is None else json.loads(text)
            if info is not None and info["id"] not in found and _listed(info):
                found[info["id"]] = info
        return list(found.values())

    # --- background ---------------------------------------------------------------------

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                for table_id in await self.claims.renew(list(self.hub.rooms)):
                    log.warning("table %s: claim lost, handing it over", table_id)
                    self.hub.evict(table_id)
                await self._write(list(self.hub.rooms))
                await self._let_go()
            except Exception:
                log.exception("cluster heartbeat failed")

    async def _let_go(self) -> None:
        """Give up the ended tables nobody is connected to (any process reloads one asked for).

        Only once a table has gone a whole TTL without being asked for or changed: a table
        just reloaded to answer a request is kept for the requests that follow it.
        """
        now = time.monotonic()
        for table_id in [t for t in self._used if t not in self.hub.rooms]:
            del self._used[table_id]
        for room in list(self.hub.rooms.values()):
            idle = now - self._used.get(room.id, 0.0) >= self.ttl
            if idle and room.status not in OPEN and not any(room.sinks.values()):
                self.hub.evict(room.id)
                self._used.pop(room.id, None)
                await self.claims.release(room.id)

    async def _writer(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            dirty, self._dirty = self._dirty, set()
            try:
                await self._write(list(dirty))
            except Exception:
                log.exception("writing table info to redis failed")

    async def _write(self, table_ids: list[str]) -> None:
        """Write the shared info of these tables (open ones; others are removed)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                room = self.hub.rooms.get(table_id)
                if room is not None and room.status in OPEN:
                    text = json.dumps(room.info())
                    pipe.set(INFO + table_id, text, px=self.claims.ttl_ms)
                else:
                    pipe.delete(INFO + table_id)
            await pipe.execute()


def _listed(info: dict[str, Any]) -> bool:
    """Return whether a table belongs in the lobby (public, waiting, a place free)."""
    config = info["config"]
    return bool(not config["private"] and info["status"] == "lobby" and None in info["players"])
