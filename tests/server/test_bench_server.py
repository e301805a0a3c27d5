"""``esmakker bench server --json`` runs and prints its figures (no timing is asserted)."""

from __future__ import annotations

import json

import pytest

from esmakker import cli


def test_bench_server_prints_latency_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["bench", "server", "--tables", "2", "--seconds", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["tables"] == 2
    assert figures["errors"] == 0
    assert figures["actions"] > 0
    for key in ("p50_ms", "p95_ms", "p99_ms", "server_rss_mb"):
        assert isinstance(figures[key], float)
