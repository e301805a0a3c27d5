"""The double-dummy analysis of a finished deal over HTTP: refused early, cached, 501 without it."""

from __future__ import annotations

import asyncio
import importlib
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from esmakker.core.record import loads
from esmakker.server.analysis import Analyses
from esmakker.server.app import create_app
from esmakker.server.settings import Settings
from esmakker.solver import analysis

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
SMALL = Settings(analysis_nodes=100_000, analysis_budget=5_000_000)
"""Low caps: the analysis answers in seconds (unknown values are allowed by the format)."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        db_url=f"sqlite:///{tmp_path / 'db.sqlite'}",
        analysis_nodes=SMALL.analysis_nodes,
        analysis_budget=SMALL.analysis_budget,
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def running_table(client: TestClient) -> tuple[str, Any]:
    """Return a table of four random bots that has started, and its room."""
    table = client.post("/api/tables", json={"max_deals": 1}).json()
    host = {"Authorization": f"Bearer {table['host_token']}"}
    client.post(f"/api/tables/{table['id']}/bots", json={"level": "random"}, headers=host)
    client.post(f"/api/tables/{table['id']}/start", headers=host)
    room = client.app.state.hub.find(table["id"])  # type: ignore[attr-defined]
    return str(table["id"]), room


def finish(client: TestClient, room: Any) -> None:
    for _ in range(500):
        if room.status == "finished":
            return
        client.get("/api/presets")  # lets the server's loop run the bots
    raise AssertionError("the deal did not end")


def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the calls of ``analyze`` (the real one still runs)."""
    calls: list[int] = []
    real = analysis.analyze

    def analyze(record: Any, solver: Any = None) -> dict[str, Any]:
        calls.append(1)
        return real(record, solver)

    monkeypatch.setattr(analysis, "analyze", analyze)
    return calls


def test_the_analysis_of_a_finished_deal_is_computed_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = counted(monkeypatch)
    ref, room = running_table(client)
    early = client.get(f"/api/tables/{ref}/deals/1/analysis")
    replay = client.get(f"/api/tables/{ref}/deals/1/replay")
    assert early.status_code == replay.status_code == 404  # no hidden card during the play
    assert early.json()["code"] == "not_found"
    finish(client, room)
    record = client.get(f"/api/tables/{ref}/deals/1").json()
    answer = client.get(f"/api/tables/{ref}/deals/1/analysis")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert calls == [1]
    assert data["version"] == 1
    if not data["played"]:  # a redeal: nothing was played
        assert data["cards"] == []
        return
    assert {"contract", "objective", "par", "par_made", "actual", "best_contract"} <= set(data)
    result = record["result"]
    assert data["contract"]["declarer"] == result["declarer"]
    assert data["actual"] == result["declarer_side_tricks"]
    plays = [i for i, a in enumerate(record["actions"]) if a.split()[1] == "play"]
    assert plays
    assert [c["action"] for c in data["cards"]] == plays
    assert any(card["cost"] is not None for card in data["cards"])  # the last tricks are easy
    for card in data["cards"]:
        assert card["cost"] is None or card["cost"] >= 0
        assert (card["cost"] is None) == (card["best_cards"] is None)
        if card["cost"] == 0:
            assert card["card"] in card["best_cards"]
    assert client.get(f"/api/tables/{ref}/deals/1/analysis").json() == data
    assert calls == [1]  # the second answer came from memory
    assert client.get(f"/api/tables/{ref}/deals/2/analysis").status_code == 404


def test_without_the_solver_the_answer_is_501(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    ref, room = running_table(client)
    finish(client, room)
    real = importlib.import_module

    def without_solver(name: str, package: str | None = None) -> Any:
        if name.startswith("esmakker.solver"):
            raise ImportError(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", without_solver)
    answer = client.get(f"/api/tables/{ref}/deals/1/analysis")
    assert answer.status_code == 501
    assert answer.json()["code"] == "solver_not_installed"
    assert "\n" not in answer.json()["message"]
    monkeypatch.setattr(importlib, "import_module", real)
    assert client.get(f"/api/tables/{ref}/deals/1/analysis").status_code == 200


def test_requests_during_a_computation_share_it(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def analyze(record: Any, solver: Any = None) -> dict[str, Any]:
        calls.append(1)
        time.sleep(0.2)
        return {"version": 1, "played": False, "cards": []}

    monkeypatch.setattr(analysis, "analyze", analyze)
    record = loads((GOLDEN / "plain-9-made-with-overtricks.json").read_text())
    analyses = Analyses(per_search=1, budget=1)

    async def both() -> list[dict[str, Any]]:
        return list(await asyncio.gather(*(analyses.get(("t", 1), record) for _ in range(3))))

    try:
        answers = asyncio.run(both())
    finally:
        analyses.close()
    assert calls == [1]
    assert answers[0] == answers[2] == {"version": 1, "played": False, "cards": []}
