"""Reconnects, exactly-once commands, take-backs and the disconnect policies (hub level)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from esmakker.server.hub import Hub, Room, TableConfig
from esmakker.server.store import Store
from server_support import Recorder, make_hub

NAMES = ("anna", "bo", "carl", "dora")


async def seated(hub: Hub, people: int = 4, **config: Any) -> tuple[Room, list[str]]:
    room, _ = hub.create(TableConfig(**config))
    tokens = [(await room.join(name))[1] for name in NAMES[:people]]
    if people < 4:
        await room.fill_bots("random")
    await room.start()
    return room, tokens


def run(folder: Path, body: Callable[[Hub], Awaitable[None]], **settings: Any) -> None:
    async def main() -> None:
        hub = make_hub(folder, **settings)
        try:
            await body(hub)
        finally:
            await hub.shutdown()

    asyncio.run(main())


async def act(room: Room, rng: random.Random, command_id: str) -> dict[str, Any]:
    table = room.table
    assert table is not None
    assert table.to_act is not None
    key = room.index_of(table.player_at(table.to_act))
    action = rng.choice(table.view(table.to_act).to_json()["legal_actions"])
    text = json.dumps({"v": 1, "type": "act", "id": command_id, "action": action})
    replies = await room.handle(key, text)
    assert replies[0]["type"] == "ack", replies
    return {"key": key, "text": text, **replies[0]}


def last_view(recorder: Recorder) -> dict[str, Any] | None:
    views = [f["view"] for f in recorder.json() if f["type"] in ("update", "snapshot")]
    return views[-1] if views else None


@pytest.mark.parametrize("gap", [5, 40])
def test_a_client_that_missed_frames_catches_up(tmp_path: Path, gap: int) -> None:
    """AC-R2: a short gap is replayed from the buffer, a long one gets a snapshot."""

    async def body(hub: Hub) -> None:
        room, _ = await seated(hub)
        rng = random.Random(gap)
        steady, dropping = Recorder(), Recorder()
        room.attach(steady, None, None)
        room.attach(dropping, None, None)
        for i in range(3):
            await act(room, rng, f"a{i}")
        room.detach(dropping, None)
        last_seq = max(f["seq"] for f in dropping.json() if f["type"] == "update")
        for i in range(gap):
            await act(room, rng, f"b{i}")
        back = Recorder()
        room.attach(back, None, last_seq)
        kinds = [f["type"] for f in back.json()]
        assert kinds[0] == "welcome"
        assert ("snapshot" in kinds) == (gap > 16)
        assert last_view(back) == last_view(steady)

    run(tmp_path, body, buffer=16)


def test_a_command_sent_again_is_applied_once(tmp_path: Path) -> None:
    """AC-R3: the same id again (a resend after a reconnect) is refused as a duplicate."""

    async def body(hub: Hub) -> None:
        room, _ = await seated(hub)
        first = await act(room, random.Random(1), "same")
        seq = room.seq
        again = await room.handle(first["key"], first["text"])
        assert again[0]["code"] == "duplicate_id"
        assert room.seq == seq

    run(tmp_path, body)


def test_a_second_connection_for_a_seat_replaces_the_first(tmp_path: Path) -> None:
    """AC-R4: the older connection gets a clear message and is closed."""

    async def body(hub: Hub) -> None:
        room, _ = await seated(hub)
        old, new = Recorder(), Recorder()
        room.attach(old, 0, None)
        room.attach(new, 0, None)
        assert old.closed == (4000, "replaced")
        assert old.json()[-1]["code"] == "replaced"
        assert new.closed is None

    run(tmp_path, body)


def test_take_back_needs_every_opponents_consent(tmp_path: Path) -> None:
    """AC-U8: asked before the next player acts; refused by one, nothing changes."""

    async def body(hub: Hub) -> None:
        room, _ = await seated(hub)
        table = room.table
        assert table is not None
        assert table.state is not None
        done = await act(room, random.Random(2), "x1")
        steps = len(table.state.history)
        undo = json.dumps({"v": 1, "type": "undo", "id": "u1"})
        other = (done["key"] + 1) % 4
        assert (await room.handle(other, undo))[0]["code"] == "no_undo"
        assert (await room.handle(done["key"], undo))[0]["type"] == "ack"
        waiting = sorted(room.undo.waiting) if room.undo else []
        assert waiting == [i for i in range(4) if i != done["key"]]
        refuse = json.dumps({"v": 1, "type": "undo_reply", "id": "r1", "accept": False})
        assert (await room.handle(waiting[0], refuse))[0]["type"] == "ack"
        assert len(table.state.history) == steps
        assert room.undo is None
        assert (await room.handle(done["key"], json.dumps({"v": 1, "type": "undo", "id": "u2"})))[
            0
        ]["type"] == "ack"
        for i, key in enumerate(waiting):
            accept = json.dumps({"v": 1, "type": "undo_reply", "id": f"y{i}", "accept": True})
            assert (await room.handle(key, accept))[0]["type"] == "ack"
        assert len(table.state.history) == steps - 1
        stored = Store(f"sqlite:///{tmp_path / 'server.db'}").load()[0]
        assert len(stored.actions) == steps - 1

    run(tmp_path, body)


@pytest.mark.parametrize(("policy", "status"), [("bot", "running"), ("abort", "aborted")])
def test_an_absent_player_is_replaced_or_the_table_aborts(
    tmp_path: Path, policy: str, status: str
) -> None:
    """AC-R5: after the grace period the policy applies; the player can come back."""

    async def body(hub: Hub) -> None:
        room, _ = await seated(hub, people=1, policy=policy, grace=0.05, max_deals=1)
        me = Recorder()
        room.attach(me, 0, None)
        room.detach(me, 0)
        await asyncio.sleep(0.3)
        assert room.status in (status, "finished")
        if policy == "bot":
            for _ in range(200):
                if room.status == "finished":
                    break
                await asyncio.sleep(0.02)
            assert room.status == "finished"
            assert len(room.table.records) == 1  # type: ignore[union-attr]

    run(tmp_path, body)


def test_a_restored_table_is_the_same_table(tmp_path: Path) -> None:
    """Restoring from the store gives the same deal, sheet, sequence number and command ids."""

    async def body(hub: Hub) -> None:
        room, _ = await seated(hub, policy="wait")  # no countdown starts on the restored copy
        rng = random.Random(5)
        for i in range(70):
            if room.status != "running":
                break
            await act(room, rng, f"k{i}")
        again = make_hub(tmp_path)
        again.restore()
        copy = again.find(room.id)
        assert copy.seq == room.seq
        assert copy.table is not None
        assert room.table is not None
        old, new = room.table.state, copy.table.state
        assert old is not None
        assert new is not None
        assert (new.dealt, new.history) == (old.dealt, old.history)
        assert copy.table.sheet.totals == room.table.sheet.totals
        assert copy.applied == room.applied
        assert copy.snapshot(2) == room.snapshot(2)
        await again.shutdown()

    run(tmp_path, body)


async def _late_in_play(room: Room, rng: random.Random, tricks: int) -> bool:
    """Play random actions until ``tricks`` tricks are done in a trick contract."""
    table = room.table
    assert table is not None
    for i in range(200):
        state = table.state
        assert state is not None
        if state.phase.value == "play" and len(state.tricks) >= tricks:
            bid = state.engine.bid
            return bid is not None and not bid.is_nolo and not state.current_trick
        if table.deal_over or room.table is not table:
            return False
        await act(room, rng, f"p{tricks}-{i}-{rng.random()}")
    return False


def test_a_refused_claim_lets_play_go_on(tmp_path: Path) -> None:
    """AC-U9: only the declarer claims, once a deal; one refusal and play goes on."""

    async def body(hub: Hub) -> None:
        for attempt in range(20):
            room, _ = await seated(hub, max_deals=1)
            me = await _declarer_late_in_play(room, random.Random(attempt))
            if me is None:
                continue
            table = room.table
            assert table is not None
            assert table.state is not None
            other = (me + 1) % 4
            assert (await room.handle(other, _claim("c0")))[0]["code"] == "no_claim"
            assert (await room.handle(me, _claim("c1")))[0]["type"] == "ack"
            steps = len(table.state.history)
            refuse = json.dumps({"v": 1, "type": "claim_reply", "id": "n1", "accept": False})
            assert (await room.handle(other, refuse))[0]["type"] == "ack"
            assert room.claim is None
            assert len(table.state.history) == steps
            assert (await room.handle(me, _claim("c2")))[0]["code"] == "no_claim"  # once a deal
            return
        raise AssertionError("no position to claim in")

    run(tmp_path, body)


def test_an_accepted_claim_is_played_out(tmp_path: Path) -> None:
    """AC-U9: accepted by all, the claim is played out; a claim the cards deny is void."""

    async def body(hub: Hub) -> None:
        for attempt in range(30):
            room, _ = await seated(hub, max_deals=1)
            watcher = Recorder()
            room.attach(watcher, None, None)
            me = await _declarer_late_in_play(room, random.Random(attempt))
            table = room.table
            if me is None or table is None or table.state is None:
                continue
            side = table.declaring_side()
            done = len(table.state.tricks)
            assert (await room.handle(me, _claim("c1")))[0]["type"] == "ack"
            for i, key in enumerate(sorted(_claim_waiting(room))):
                accept = json.dumps({"v": 1, "type": "claim_reply", "id": f"y{i}", "accept": True})
                assert (await room.handle(key, accept))[0]["type"] == "ack"
            kinds = [e["kind"] for f in watcher.json() for e in f.get("events", [])]
            if "claim_void" in kinds:
                assert room.status == "running"
                continue
            assert "claim_accepted" in kinds
            assert room.status == "finished"
            assert table.state.is_terminal
            assert all(trick.winner in side for trick in table.state.tricks[done:])
            return
        raise AssertionError("no claim could be played out")

    run(tmp_path, body)


def _claim(command_id: str) -> str:
    return json.dumps({"v": 1, "type": "claim", "id": command_id})


async def _declarer_late_in_play(room: Room, rng: random.Random) -> int | None:
    """Play on to trick 11 of a trick contract; return the declarer's place (or None)."""
    if not await _late_in_play(room, rng, 10):
        return None
    table = room.table
    assert table is not None
    contract = table.view(None).contract
    assert contract is not None
    return room.index_of(table.player_at(contract.declarer))


def _claim_waiting(room: Room) -> set[int]:
    request = room.claim
    assert request is not None
    return request.waiting


def test_an_absent_players_countdown_runs_only_on_their_turn(tmp_path: Path) -> None:
    """AC-R5: the grace period is counted down while it is the absent player's turn."""

    async def body(hub: Hub) -> None:
        room, _ = await seated(hub, people=2, grace=5.0)
        watcher, anna = Recorder(), Recorder()
        room.attach(watcher, None, None)
        room.attach(anna, 0, None)
        rng = random.Random(9)
        await _until_turn_of(room, 1, rng)
        room.detach(anna, 0)
        assert room._away == {0: 5.0}
        assert not room._timers
        await _until_turn_of(room, 0, rng)
        events = [e for f in watcher.json() for e in f.get("events", [])]
        countdowns = [e for e in events if e["kind"] == "countdown"]
        assert countdowns == [{"kind": "countdown", "index": 0, "seconds": 5.0, "running": True}]
        room.attach(Recorder(), 0, None)
        assert not room._timers
        assert not room._away

    run(tmp_path, body)


async def _until_turn_of(room: Room, key: int, rng: random.Random) -> None:
    """Let people 0 and 1 act (bots act by themselves) until it is ``key``'s turn."""
    for i in range(300):
        table = room.table
        assert table is not None
        seat = table.to_act
        who = None if seat is None else room.index_of(table.player_at(seat))
        if who == key:
            return
        if who in (0, 1) and who != key:
            await act(room, rng, f"t{key}-{i}")
        else:
            await asyncio.sleep(0.01)
    raise AssertionError(f"never the turn of {key}")


def test_the_player_sitting_out_watches_and_cannot_act(tmp_path: Path) -> None:
    """Five at the table: the dealer sits out the deal and gets the spectator view."""

    async def body(hub: Hub) -> None:
        room, _ = hub.create(TableConfig(seats=5))
        for name in (*NAMES, "eva"):
            await room.join(name)
        await room.start()
        table = room.table
        assert table is not None
        seating = table.seating
        assert seating is not None
        out = room.index_of(seating.sitting_out[0])
        assert room.snapshot(out)["you"]["seat"] is None
        assert room.snapshot(out)["view"] == room.snapshot(None)["view"]
        frame = json.dumps({"v": 1, "type": "act", "id": "1", "action": "pass"})
        assert (await room.handle(out, frame))[0]["code"] == "sitting_out"

    run(tmp_path, body)
