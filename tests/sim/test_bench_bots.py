"""``esmakker bench bots``: decision times per bot as JSON (no timing assertions)."""

from __future__ import annotations

import json
import random

import pytest

from esmakker.bots.registry import make_bot
from esmakker.cli import main
from esmakker.core.rules import RuleSet
from esmakker.sim.bench_bots import bots_bench, decision_times, summary

CapSys = pytest.CaptureFixture[str]


def test_bench_bots_prints_json_figures_per_bot(capsys: CapSys) -> None:
    args = ["bench", "bots", "--bots", "heuristic,random", "--deals", "2", "--json"]
    assert main([*args, "--preset", "tanya", "--seed", "3"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert list(figures) == ["heuristic", "random"]
    for row in figures.values():
        assert set(row) == {"median_ms", "p95_ms", "max_ms", "decisions"}
        assert isinstance(row["decisions"], int)
        assert row["decisions"] > 0
        assert 0 <= row["median_ms"] <= row["p95_ms"] <= row["max_ms"]


def test_bench_bots_text_and_errors(capsys: CapSys) -> None:
    assert main(["bench", "bots", "--bots", "beginner", "--deals", "1"]) == 0
    assert capsys.readouterr().out.startswith("beginner: median ")
    assert main(["bench", "bots", "--bots", "expert", "--deals", "1"]) == 2
    assert "unknown bot 'expert'" in capsys.readouterr().err
    assert main(["bench", "bots", "--deals", "0"]) == 2


def test_decisions_are_counted_only_where_there_was_a_choice() -> None:
    rules = RuleSet.from_preset("wikipedia")
    times = decision_times("random", rules, 3, "x")
    # three deals of 13 tricks: at most 52 cards each, the last trick's cards are forced
    assert 0 < len(times) < 3 * 80
    assert summary([]) == {"median_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0, "decisions": 0}
    assert summary([0.001, 0.003, 0.002])["median_ms"] == 2.0
    assert summary([0.001, 0.005, 0.002])["max_ms"] == 5.0
    assert make_bot("random", random.Random(0)).name == "random"
    assert set(bots_bench(["random"], deals=1)) == {"random"}
