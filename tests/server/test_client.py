"""AC-T2: ``esmakker join`` joins by the invite link and plays a deal in line mode."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from esmakker.server.client import Place, Session, command, describe, find_place, parse_url, play
from server_support import Server, free_port


class Typist(io.StringIO):
    """Output that answers every "your turn" line with the first legal action."""

    def __init__(self) -> None:
        super().__init__()
        self.queue: asyncio.Queue[str] = asyncio.Queue()

    def write(self, text: str) -> int:
        if text.startswith("your turn: "):
            self.queue.put_nowait(text.removeprefix("your turn: ").split(" | ")[0])
        if " over: " in text:
            self.queue.put_nowait("quit")
        return super().write(text)

    async def lines(self) -> AsyncIterator[str]:
        while True:
            yield await self.queue.get() + "\n"


def test_parse_url_takes_links_codes_and_websocket_addresses() -> None:
    assert parse_url("http://h:1/t/ABC") == ("http://h:1", "ABC")
    assert parse_url("ws://h:1/ws/xyz") == ("http://h:1", "xyz")
    assert parse_url("h:1/api/tables/ABC/") == ("http://h:1", "ABC")
    with pytest.raises(ValueError, match="no table"):
        parse_url("http://h:1/")


def test_join_by_invite_link_and_play_a_deal_line_by_line(tmp_path: Path) -> None:
    server = Server(tmp_path / "server.db", free_port())
    try:
        created = server.post("/api/tables", {"max_deals": 1})
        place = find_place(created["invite_url"], "anna", None, watch=False)
        server.post(f"/api/tables/{created['id']}/bots", {}, created["host_token"])
        server.post(f"/api/tables/{created['id']}/start", {}, created["host_token"])
        out = Typist()
        assert asyncio.run(asyncio.wait_for(play(place, out, out.lines), 60)) == 0
    finally:
        server.kill()
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("connected (you are anna")
    assert any(line.startswith("your turn: ") for line in lines)
    assert any(" over: " in line for line in lines)
    assert not any(line.startswith("error") for line in lines)


def test_typed_lines_become_commands_and_events_lines() -> None:
    session = Session(Place("http://h:1", "t", None), io.StringIO())
    assert command(session, "bid 9 vip") == {
        "v": 1,
        "id": "line-1",
        "type": "act",
        "action": "bid 9 vip",
    }
    assert command(session, "no")["type"] == "undo_reply"
    update = {
        "type": "update",
        "seq": 7,
        "view": None,
        "events": [{"kind": "claim_asked", "index": 0, "seat": "N", "tricks": 3}],
    }
    assert describe(session, update) == ["N asks for every trick left: yes or no?"]
    assert session.seq == 7
    reply = command(session, "yes")
    assert (reply["type"], reply["accept"]) == ("claim_reply", True)
    assert command(session, "concede")["type"] == "concede"
    error = {"type": "error", "code": "must_follow_suit", "message": "follow suit", "id": "x"}
    assert describe(session, error) == ["error must_follow_suit: follow suit"]
