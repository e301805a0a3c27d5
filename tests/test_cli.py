"""The ``esmakker`` command, run in-process."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from esmakker import __version__
from esmakker.cli import main
from esmakker.core.record import iter_jsonl, load

GOLDEN = Path(__file__).parent / "golden"
CapSys = pytest.CaptureFixture[str]


def _one_line_error(capsys: CapSys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    assert lines[0].startswith("esmakker: error: ")
    return lines[0]


def test_sim_writes_records_that_replay(tmp_path: Path, capsys: CapSys) -> None:
    out = tmp_path / "deals.jsonl"
    code = main(["sim", "--preset", "osterbro", "--deals", "25", "--seed", "4", "--out", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "osterbro: 25 deals, seed 4" in text
    assert "zero-sum: yes" in text
    records = list(iter_jsonl(out))
    assert len(records) == 25
    assert all(record.result is not None for record in records)
    assert records[0].meta["seed"] == "4/1"
    assert records[0].meta["players"] == dict.fromkeys("NESW", "bot:random")
    assert main(["replay", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 25
    assert lines[0].startswith("1: ")


def test_sim_json_summary(capsys: CapSys) -> None:
    code = main(
        [
            "sim",
            "--deals",
            "30",
            "--seed",
            "2",
            "--json",
            "--bots",
            "random,random,random,random,random",
        ]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["deals"] == 30
    assert summary["preset"] == "wikipedia"
    assert summary["zero_sum"] is True
    assert len(summary["bots"]) == 5


def test_sim_overrides_are_json_or_words(capsys: CapSys) -> None:
    code = main(
        [
            "sim",
            "--deals",
            "5",
            "--json",
            "--override",
            "iron_hand=optional",
            "--override",
            'attachments=["vip", "gode"]',
            "--override",
            "min_bid=8",
        ]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["overrides"] == {
        "iron_hand": "optional",
        "attachments": ["vip", "gode"],
        "min_bid": 8,
    }


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_replay_json_prints_exactly_the_result(path: Path, capsys: CapSys) -> None:
    assert main(["replay", str(path), "--json"]) == 0
    out = capsys.readouterr().out
    assert out == json.dumps(load(path).result, ensure_ascii=False) + "\n"


def test_replay_prints_a_readable_result(capsys: CapSys) -> None:
    assert main(["replay", str(GOLDEN / "gode-9-failed.json")]) == 0
    assert capsys.readouterr().out == (
        "9 gode by N+S (trump C, called SA): 7 tricks, failed; scores N -320 E +320 S -320 W +320\n"
    )
    assert main(["replay", str(GOLDEN / "all-pass-redeal.json")]) == 0
    assert capsys.readouterr().out == "redeal; scores N +0 E +0 S +0 W +0\n"


def test_replay_jsonl_json_prints_one_result_per_line(tmp_path: Path, capsys: CapSys) -> None:
    out = tmp_path / "deals.jsonl"
    assert main(["sim", "--deals", "4", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["replay", str(out), "--json"]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert results == [record.result for record in iter_jsonl(out)]


def test_replay_of_a_corrupt_record_fails_with_one_line(tmp_path: Path, capsys: CapSys) -> None:
    data = json.loads((GOLDEN / "gode-9-failed.json").read_text(encoding="utf-8"))
    data["result"]["scores"]["N"] = 0
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert _one_line_error(capsys) == (
        f'esmakker: error: {path}: result.scores: stored {{"N": 0, "E": 320, "S": -320, "W": 320}}, '
        'replay gives {"N": -320, "E": 320, "S": -320, "W": 320}'
    )


def test_replay_of_an_illegal_step_names_the_step(tmp_path: Path, capsys: CapSys) -> None:
    lines = [
        json.dumps(json.loads(p.read_text(encoding="utf-8"))) for p in sorted(GOLDEN.glob("*.json"))
    ]
    data = json.loads(lines[1])
    data["actions"][0] = "S bid 8"  # dealer W: N, the forehand, calls first
    lines[1] = json.dumps(data)
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 1
    error = _one_line_error(capsys)
    assert error.startswith(f"esmakker: error: {path}:2: actions[0] 'S bid 8': it is ")


@pytest.mark.parametrize(
    "content", ["", "{", "[]", '{"format": "esmakker-hand/1"}', "not json at all"]
)
def test_replay_of_garbage_fails_with_one_line(
    content: str, tmp_path: Path, capsys: CapSys
) -> None:
    path = tmp_path / "garbage.json"
    path.write_text(content, encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert str(path) in _one_line_error(capsys)


def test_replay_of_a_missing_file(tmp_path: Path, capsys: CapSys) -> None:
    assert main(["replay", str(tmp_path / "nothing.json")]) == 1
    assert _one_line_error(capsys).endswith("nothing.json: No such file or directory")
    assert main(["replay", str(tmp_path)]) == 1
    _one_line_error(capsys)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["sim", "--preset", "bridge"], "--preset: preset 'bridge' is unknown"),
        (["sim", "--override", "nope=1"], "--override: unknown rule option 'nope'"),
        (["sim", "--override", "min_bid=12"], "--override: rule option min_bid = 12"),
        (["sim", "--override", "min_bid"], "--override 'min_bid': expected KEY=VALUE"),
        (["sim", "--bots", "random,genius,random,random"], "unknown bot 'genius'"),
        (["sim", "--bots", "random,random"], "a table needs 4, 5 or 6 bots, got 2"),
        (["sim", "--deals", "0"], "argument --deals: 0 is not a positive number"),
        (["sim", "--frobnicate"], "unrecognized arguments: --frobnicate"),
        (["bench", "engine", "--preset", "bridge"], "--preset: preset 'bridge' is unknown"),
        ([], "a command is required"),
    ],
)
def test_usage_errors_exit_2_with_one_line(argv: list[str], expected: str, capsys: CapSys) -> None:
    assert main(argv) == 2
    assert expected in _one_line_error(capsys)


def test_version(capsys: CapSys) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"esmakker {__version__}\n"


def test_bench_calls_engine_bench(monkeypatch: pytest.MonkeyPatch, capsys: CapSys) -> None:
    calls: list[dict[str, object]] = []

    def engine_bench(seconds: float, preset: str, seed: int) -> dict[str, float]:
        calls.append({"seconds": seconds, "preset": preset, "seed": seed})
        return {"public_deals_per_second": 123.456, "fast_deals_per_second": 789.0}

    fake = types.ModuleType("esmakker.bench")
    fake.engine_bench = engine_bench  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "esmakker.bench", fake)
    assert main(["bench", "engine", "--seconds", "0.5", "--preset", "tanya", "--json"]) == 0
    assert calls == [{"seconds": 0.5, "preset": "tanya", "seed": 1}]
    assert json.loads(capsys.readouterr().out)["fast_deals_per_second"] == 789.0
    assert main(["bench", "engine"]) == 0
    assert "public_deals_per_second: 123.5" in capsys.readouterr().out


def test_bench_without_the_module(monkeypatch: pytest.MonkeyPatch, capsys: CapSys) -> None:
    monkeypatch.setitem(sys.modules, "esmakker.bench", None)
    assert main(["bench", "engine"]) == 1
    assert "esmakker.bench is not installed" in _one_line_error(capsys)
