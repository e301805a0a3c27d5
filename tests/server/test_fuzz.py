"""AC-H5: malformed and illegal frames get an error frame and change nothing, ever."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from esmakker.core.cards import CARDS
from esmakker.server.hub import Hub, Room, TableConfig
from server_support import make_hub

NAMES = ("anna", "bo", "carl", "dora")


async def seated_room(hub: Hub, **config: Any) -> Room:
    room, _ = hub.create(TableConfig(**config))
    for name in NAMES:
        await room.join(name)
    await room.start()
    return room


def frame(kind: str, command_id: str | None, **fields: Any) -> str:
    data: dict[str, Any] = {"v": 1, "type": kind, **fields}
    if command_id is not None:
        data["id"] = command_id
    return json.dumps(data)


def bad_frames(
    room: Room, rng: random.Random, used: list[tuple[int, str]]
) -> Iterator[tuple[Any, str]]:
    """Yield (recipient, frame) pairs that must all be refused in the room's current state."""
    table = room.table
    assert table is not None
    assert table.state is not None
    actor = table.to_act
    assert actor is not None
    me = room.index_of(table.player_at(actor))
    others = [i for i in range(4) if i != me]
    view = table.view(actor)
    legal = [str(a) for a in view.to_json()["legal_actions"]]
    hand = {c.name for c in view.hand}
    yield me, "{"
    yield me, "[1, 2]"
    yield me, "null"
    yield me, "x" * 9000
    yield me, frame("act", "v", action=legal[0]).replace('"v": 1', '"v": 2')
    yield me, frame("teleport", "t1")
    yield me, frame("act", None, action=legal[0])
    yield me, frame("act", "")
    yield me, frame("act", "noact")
    yield me, frame("undo_reply", "u1", accept="yes")
    yield me, frame("act", f"g{rng.random()}", action="fly HQ")
    yield rng.choice(others), frame("act", f"o{rng.random()}", action=legal[0])  # out of turn
    yield None, frame("act", f"s{rng.random()}", action=legal[0])  # a spectator
    missing = [c.name for c in CARDS if c.name not in hand]
    yield me, frame("act", f"c{rng.random()}", action=f"play {rng.choice(missing)}")
    illegal_plays = [f"play {c}" for c in hand if f"play {c}" not in legal]
    if view.phase.value == "play" and illegal_plays:
        yield me, frame("act", f"r{rng.random()}", action=rng.choice(illegal_plays))  # revoke
    if view.phase.value == "auction" and "bid 7" not in legal:
        yield me, frame("act", f"b{rng.random()}", action="bid 7")  # too low (or not allowed)
    if used:
        who, old = rng.choice(used)
        yield who, frame("act", old, action="pass")  # duplicate id
    if not table.state.history:
        yield me, frame("undo", f"n{rng.random()}")  # nothing to take back


async def fuzz(room: Room, rng: random.Random, actions: int) -> int:
    refused = 0
    used: list[tuple[int, str]] = []
    for number in range(actions):
        table = room.table
        assert table is not None
        if room.status != "running":
            break
        for key, text in list(bad_frames(room, rng, used)):
            before = (room.seq, table.state, table.deal_number, len(table.records))
            replies = await room.handle(key, text)
            assert [r["type"] for r in replies] == ["error"], (text[:80], replies)
            assert replies[0]["code"]
            assert replies[0]["message"]
            assert (room.seq, table.state, table.deal_number, len(table.records)) == before
            refused += 1
        actor = table.to_act
        assert actor is not None
        me = room.index_of(table.player_at(actor))
        legal = table.view(actor).to_json()["legal_actions"]
        command_id = f"ok{number}"
        replies = await room.handle(me, frame("act", command_id, action=rng.choice(legal)))
        assert replies[0]["type"] == "ack", replies
        used.append((me, command_id))
    return refused


@pytest.mark.parametrize("preset", ["wikipedia", "tanya", "hilmarshelte"])
def test_bad_frames_are_refused_and_change_nothing(tmp_path: Path, preset: str) -> None:
    async def main() -> int:
        hub = make_hub(tmp_path)
        room = await seated_room(hub, preset=preset)
        refused = await fuzz(room, random.Random(preset), actions=150)
        await hub.shutdown()
        return refused

    assert asyncio.run(main()) > 150 * 10


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=300) | st.binary(max_size=100).map(lambda b: b.decode("latin-1")))
def test_any_text_is_refused_without_harm(text: str) -> None:
    replies = _LOOP.run_until_complete(_handle(text))
    assert len(replies) == 1
    assert replies[0]["type"] in ("error", "pong", "snapshot")


_LOOP = asyncio.new_event_loop()
_STATE: dict[str, Room] = {}


async def _handle(text: str) -> list[dict[str, Any]]:
    room = _STATE.get("room")
    if room is None:
        import tempfile

        room = _STATE["room"] = await seated_room(make_hub(Path(tempfile.mkdtemp())))
    table = room.table
    assert table is not None
    before = (room.seq, table.state)
    replies = await room.handle(0, text)
    assert (room.seq, table.state) == before
    return replies
