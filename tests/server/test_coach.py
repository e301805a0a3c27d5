"""Hints for the seat to act and reviews of finished deals over HTTP (issue 8)."""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from esmakker.core.actions import format_action
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import deal
from esmakker.core.view import observe
from esmakker.server.app import create_app
from esmakker.server.coach import Coach
from esmakker.server.errors import ApiError
from esmakker.server.settings import Settings

REVIEWED_TABLE = 1
"""The seed of the table secret in the review test."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        db_url=f"sqlite:///{tmp_path / 'db.sqlite'}",
        hint_worlds=2,
        hint_budget=60,  # the worlds searched never depend on the machine's load
        review_worlds=1,
        review_budget=60,
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def two_people(client: TestClient) -> tuple[dict[str, Any], dict[str, str], Any]:
    """Return a running table of anna (the host), bo and two random bots; tokens by name."""
    table = client.post("/api/tables", json={"host_name": "anna", "max_deals": 1}).json()
    bo = client.post(f"/api/tables/{table['id']}/join", json={"name": "bo"}).json()
    host = {"Authorization": f"Bearer {table['host_token']}"}
    client.post(f"/api/tables/{table['id']}/bots", json={"level": "random"}, headers=host)
    assert client.post(f"/api/tables/{table['id']}/start", headers=host).status_code == 200
    room = client.app.state.hub.find(table["id"])  # type: ignore[attr-defined]
    return table, {"anna": table["seat"]["token"], "bo": bo["token"]}, room


def person_to_act(client: TestClient, room: Any) -> str:
    """Let the bots play until a person is to act; return the name."""
    for _ in range(500):
        table = room.table
        if table.to_act is not None and table.player_at(table.to_act) in ("anna", "bo"):
            return str(table.player_at(table.to_act))
        client.get("/api/presets")  # lets the server's loop run the bots
    raise AssertionError("no person came to act")


def ask(client: TestClient, ref: str, token: str | None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(f"/api/tables/{ref}/hint", headers=headers)


def test_the_seat_to_act_gets_a_legal_suggestion_with_a_reason(client: TestClient) -> None:
    table, tokens, room = two_people(client)
    name = person_to_act(client, room)
    seat = room.table.to_act
    legal = room.table.view(seat).to_json()["legal_actions"]
    answer = ask(client, table["code"], tokens[name])
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["action"] in legal
    assert body["seat"] == seat.name
    assert body["deal"] == 1
    assert body["step"] == len(room.table.view(seat).steps)
    assert "\n" not in body["reason"]
    assert {c["action"] for c in body["choices"]} <= set(legal)
    again = ask(client, table["id"], tokens[name]).json()
    assert again == body  # the same decision gets the same hint


def test_no_hint_out_of_turn_for_spectators_or_at_unknown_tables(client: TestClient) -> None:
    table, tokens, room = two_people(client)
    name = person_to_act(client, room)
    other = "bo" if name == "anna" else "anna"
    refused = ask(client, table["id"], tokens[other])
    assert refused.status_code == 409
    assert refused.json()["code"] == "not_your_turn"
    spectator = ask(client, table["id"], None)
    assert spectator.status_code == 403
    assert spectator.json()["code"] == "forbidden"
    host = ask(client, table["id"], table["host_token"])
    assert host.status_code == 403
    forged = ask(client, table["id"], tokens[name] + "x")
    assert forged.status_code == 403
    unknown = ask(client, "NOSUCH", tokens[name])
    assert unknown.status_code == 404
    assert unknown.json()["code"] == "not_found"
    assert all("\n" not in r.json()["message"] for r in (refused, spectator, unknown))


def test_no_hint_before_the_game_starts(client: TestClient) -> None:
    table = client.post("/api/tables", json={"host_name": "anna"}).json()
    early = ask(client, table["id"], table["seat"]["token"])
    assert early.status_code == 409
    assert early.json()["code"] == "not_started"


def test_a_finished_deal_is_reviewed_for_a_seat_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fixed table secret fixes the deal, the random bots' play and the review's worlds:
    # some deals give no costly choice for North.
    secrets_rng = random.Random(REVIEWED_TABLE)
    monkeypatch.setattr(secrets, "token_hex", lambda n=16: secrets_rng.randbytes(n).hex())
    table = client.post("/api/tables", json={"max_deals": 1}).json()
    host = {"Authorization": f"Bearer {table['host_token']}"}
    client.post(f"/api/tables/{table['id']}/bots", json={"level": "random"}, headers=host)
    early = client.get(f"/api/tables/{table['id']}/deals/1/review?seat=N")
    assert early.status_code == 404  # nothing is reviewed during the play
    client.post(f"/api/tables/{table['id']}/start", headers=host)
    room = client.app.state.hub.find(table["id"])  # type: ignore[attr-defined]
    for _ in range(500):
        if room.status == "finished":
            break
        client.get("/api/presets")
    record = client.get(f"/api/tables/{table['id']}/deals/1").json()
    answer = client.get(f"/api/tables/{table['id']}/deals/1/review?seat=N")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["deal"], body["seat"]) == (1, "N")
    for mistake in body["mistakes"]:
        assert record["actions"][mistake["step"]] == f"N {mistake['action']}"
        assert mistake["cost"] >= 10
        assert mistake["best"] != mistake["action"]
    assert client.get(f"/api/tables/{table['id']}/deals/1/review?seat=N").json() == body
    assert body["mistakes"], "random bots make costly choices"
    bad = client.get(f"/api/tables/{table['id']}/deals/1/review?seat=Q")
    assert bad.status_code == 400


def test_a_seat_has_one_hint_in_flight(tmp_path: Path) -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(6))
    assert state.to_act is not None
    view = observe(state, state.to_act)
    coach = Coach(Settings(hint_worlds=1, hint_budget=60))

    async def twice() -> list[Any]:
        first = asyncio.ensure_future(coach.hint(("t", 0), view, "s"))
        await asyncio.sleep(0)
        busy = await asyncio.gather(coach.hint(("t", 0), view, "s"), return_exceptions=True)
        other = await coach.hint(("t", 1), view, "s")  # another seat is not held up
        return [await first, *busy, other]

    try:
        first, busy, other = asyncio.run(twice())
    finally:
        coach.close()
    assert isinstance(busy, ApiError)
    assert (busy.status, busy.code) == (429, "hint_busy")
    assert first == other
    assert first["action"] in [format_action(a) for a in view.legal_actions]


def test_the_server_starts_compiling_the_solver_at_startup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hints and reviews then find the compiled solver ready, not the plain one."""
    from esmakker.bots import endgame

    started: list[bool] = []
    monkeypatch.setattr(endgame, "COMPILED", True)

    def warm_up() -> bool:
        started.append(True)
        return False

    monkeypatch.setattr(endgame, "warm_up", warm_up)
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'db.sqlite'}")
    app = create_app(settings)
    assert started == []
    with TestClient(app):
        assert started == [True]
