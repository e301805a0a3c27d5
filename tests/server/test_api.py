"""The HTTP API: lobby, private tables, tokens, host rights, history, OpenAPI, the extra."""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from esmakker import cli
from esmakker.server.app import create_app
from esmakker.server.settings import Settings


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'db.sqlite'}"))
    with TestClient(app) as test_client:
        yield test_client


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 200, answer.text
    created: dict[str, Any] = answer.json()
    return created


def test_public_tables_are_listed_private_ones_found_by_code(client: TestClient) -> None:
    public = create(client, name="open")
    private = create(client, name="secret", private=True)
    listed = [t["id"] for t in client.get("/api/tables").json()]
    assert public["id"] in listed
    assert private["id"] not in listed
    assert client.get(f"/api/tables/{private['code'].lower()}").json()["id"] == private["id"]
    assert client.get(f"/t/{private['code']}").json()["config"]["name"] == "secret"
    assert client.get("/api/tables/NOSUCH").status_code == 404


def test_bad_settings_are_refused(client: TestClient) -> None:
    assert client.post("/api/tables", json={"preset": "nonsense"}).json()["code"] == "bad_request"
    assert client.post("/api/tables", json={"seats": 6}).status_code == 422
    assert client.post("/api/tables", json={"bot": "genius"}).status_code == 400


def test_only_the_host_fills_and_starts(client: TestClient) -> None:
    table = create(client, host_name="anna", seats=5)
    seat = table["seat"]["token"]
    for token in ("", seat, table["host_token"].replace(".host.", ".0.")):
        answer = client.post(
            f"/api/tables/{table['id']}/start", headers={"Authorization": f"Bearer {token}"}
        )
        assert answer.status_code == 403
    host = {"Authorization": f"Bearer {table['host_token']}"}
    assert client.post(f"/api/tables/{table['id']}/start", headers=host).status_code == 409
    filled = client.post(f"/api/tables/{table['id']}/bots", json={"level": "random"}, headers=host)
    assert filled.json() == {"filled": [1, 2, 3, 4]}
    assert client.post(f"/api/tables/{table['id']}/join", json={"name": "bo"}).status_code == 409
    info = client.post(f"/api/tables/{table['id']}/start", headers=host).json()
    assert info["status"] == "running"
    assert info["seed_hash"]
    assert (
        client.post(f"/api/tables/{table['id']}/close", headers=host).json()["status"] == "closed"
    )


def test_names_are_unique_and_tokens_bound_to_their_table(client: TestClient) -> None:
    first = create(client, host_name="anna")
    other = create(client, host_name="anna")
    assert client.post(f"/api/tables/{first['id']}/join", json={"name": "anna"}).status_code == 409
    assert client.post(f"/api/tables/{first['id']}/join", json={"name": "bot-x"}).status_code == 400
    forged = first["seat"]["token"][:-4] + "0000"
    for token in (other["seat"]["token"], forged, "garbage"):
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"/ws/{first['id']}?token={token}") as ws,
        ):
            ws.receive_text()


def test_spectators_cannot_act(client: TestClient) -> None:
    table = create(client, host_name="anna")
    host = {"Authorization": f"Bearer {table['host_token']}"}
    client.post(f"/api/tables/{table['id']}/bots", json={}, headers=host)
    client.post(f"/api/tables/{table['id']}/start", headers=host)
    with client.websocket_connect(f"/ws/{table['id']}") as watcher:
        assert watcher.receive_json()["type"] == "welcome"
        assert watcher.receive_json()["view"]["hand"] == ""
        watcher.send_text('{"v": 1, "type": "act", "id": "1", "action": "pass"}')
        while (frame := watcher.receive_json())["type"] != "error":
            pass
        assert frame["code"] == "not_seated"
        assert frame["id"] == "1"
        watcher.send_bytes(b"\x00\x01")
        assert _answer(watcher)["code"] == "bad_frame"
        watcher.send_text("x" * 10_000)
        assert _answer(watcher)["code"] == "too_large"
        watcher.send_text('{"v": 1, "type": "ping", "id": "p"}')
        assert _answer(watcher)["type"] == "pong"


def _answer(session: Any) -> dict[str, Any]:
    """Return the next frame that is not a table update (bots may be playing meanwhile)."""
    while (frame := session.receive_json())["type"] in ("update", "welcome", "snapshot"):
        pass
    answer: dict[str, Any] = frame
    return answer


def test_history_lists_and_exports_finished_deals(client: TestClient) -> None:
    table = create(client, max_deals=2)
    host = {"Authorization": f"Bearer {table['host_token']}"}
    client.post(f"/api/tables/{table['id']}/bots", json={"level": "random"}, headers=host)
    client.post(f"/api/tables/{table['id']}/start", headers=host)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    room = hub.find(table["id"])
    for _ in range(500):
        if room.status == "finished":
            break
        client.get("/api/presets")  # lets the server's loop run the bots
    assert room.status == "finished"
    deals = client.get(f"/api/tables/{table['id']}/deals").json()
    assert [d["deal"] for d in deals] == [1, 2]
    record = client.get(f"/api/tables/{table['id']}/deals/2").json()
    assert record["format"] == "esmakker-hand/1"
    assert client.get(f"/api/tables/{table['id']}/deals/3").status_code == 404
    replay = client.get(f"/api/tables/{table['id']}/deals/2/replay").json()
    assert len(replay["positions"]) == len(record["actions"]) + 1
    assert replay["positions"][-1]["step"] == record["actions"][-1]
    assert replay["result"] == record["result"]
    export = client.get(f"/api/tables/{table['id']}/export").json()
    assert len(export["records"]) == 2
    assert len(export["sheet"]["deals"]) == 2


def test_the_openapi_document_describes_the_api(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/tables", "/api/tables/{ref}/join", "/api/tables/{ref}/sheet.csv"} <= set(paths)


def test_serve_without_the_extra_names_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = importlib.import_module

    def without_fastapi(name: str, package: str | None = None) -> Any:
        if name == "fastapi":
            raise ImportError(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", without_fastapi)
    assert cli.main(["serve"]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert len(error) == 1
    assert "esmakker[server]" in error[0]


def test_a_flood_of_frames_is_rate_limited(client: TestClient) -> None:
    table = create(client, host_name="anna")
    with client.websocket_connect(f"/ws/{table['id']}?token={table['seat']['token']}") as ws:
        for i in range(80):
            ws.send_text(f'{{"v": 1, "type": "ping", "id": "p{i}"}}')
        answers = [_answer(ws) for _ in range(80)]
    codes = [a.get("code") for a in answers if a["type"] == "error"]
    assert "rate_limited" in codes
    assert sum(a["type"] == "pong" for a in answers) >= 40


def test_health_says_whether_the_solver_is_compiled(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from esmakker.bots import endgame

    answer = client.get("/api/health").json()
    assert answer["ok"] is True
    assert answer["solver"] in ("compiled", "compiling", "plain")
    monkeypatch.setattr(endgame, "_warm_up_started", True)
    monkeypatch.setattr(endgame, "_compiled_ready", threading.Event())
    assert client.get("/api/health").json()["solver"] == "compiling"
    endgame._compiled_ready.set()
    assert client.get("/api/health").json()["solver"] == "compiled"
    monkeypatch.setattr(endgame, "_warm_up_started", False)
    monkeypatch.setattr(endgame, "_compiled_ready", threading.Event())
    assert client.get("/api/health").json()["solver"] == "plain"
