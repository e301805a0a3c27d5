"""``esmakker match``, run in-process."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

import pytest

from esmakker.bots import registry
from esmakker.cli import main
from esmakker.core.actions import Action, parse_action
from esmakker.core.record import iter_jsonl
from esmakker.core.view import PlayerView

CapSys = pytest.CaptureFixture[str]


def _one_line_error(capsys: CapSys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    assert lines[0].startswith("esmakker: error: ")
    return lines[0]


def _match_json(capsys: CapSys, *args: str) -> dict[str, object]:
    assert main(["match", *args, "--json"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 1  # one object, one line
    assert captured.err == ""  # no progress bar in JSON mode, nor off a terminal
    summary: dict[str, object] = json.loads(lines[0])
    return summary


def test_json_has_exactly_the_documented_shape(capsys: CapSys) -> None:
    summary = _match_json(capsys, "--deals", "30", "--preset", "tanya", "--seed", "3")
    assert list(summary) == [
        "deals",
        "bots",
        "contracts",
        "number_make_rate",
        "nolo_make_rate",
        "all_pass_share",
        "nolo_share",
        "iron_hand_share",
    ]
    assert summary["deals"] == 30
    assert summary["bots"] == {"random": {"mean_points_per_deal": 0.0, "ci95": [0.0, 0.0]}}
    contracts = summary["contracts"]
    assert isinstance(contracts, dict)
    for values in contracts.values():
        assert list(values) == ["share", "declared_by", "make_rate"]


def test_same_seed_same_json_whatever_the_workers(capsys: CapSys) -> None:
    args = ("--deals", "20", "--seed", "x", "--preset", "hilmarshelte")
    default = _match_json(capsys, *args)  # all cores
    one = _match_json(capsys, *args, "--workers", "1")
    assert json.dumps(default) == json.dumps(one)
    assert json.dumps(_match_json(capsys, *args[:2], "--seed", "y", *args[4:])) != json.dumps(one)


def test_text_records_and_report(tmp_path: Path, capsys: CapSys) -> None:
    out = tmp_path / "match.jsonl"
    report = tmp_path / "match.html"
    args = ["match", "--deals", "12", "--seed", "5", "--workers", "1", "--out", str(out)]
    with_report = importlib.util.find_spec("matplotlib") is not None  # the report extra
    if with_report:
        args += ["--report", str(report)]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert (
        "wikipedia: 12 deals in duplicate (48 hands), seed 5, bots random,random,random,random"
        in text
    )
    assert "random" in text
    assert f"records written to {out}" in text
    records = list(iter_jsonl(out))
    assert len(records) == 48
    assert [r.meta["rotation"] for r in records[:8]] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert records[5].meta["deal"] == 2
    assert main(["replay", str(out)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 48
    if with_report:
        page = report.read_text(encoding="utf-8")
        assert page.count("<svg") == 3
        assert "http" not in page


def test_overrides_reach_the_records(tmp_path: Path, capsys: CapSys) -> None:
    out = tmp_path / "m.jsonl"
    args = ["--deals", "3", "--workers", "1", "--override", "min_bid=8", "--out", str(out)]
    _match_json(capsys, *args)
    assert all(r.rules.overrides == {"min_bid": 8} for r in iter_jsonl(out))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,random,random"], "needs 4 bots, got 3"),
        (["--bots", "random,random,nope,random"], "unknown bot 'nope'"),
        (["--preset", "nope"], "--preset: preset 'nope' is unknown"),
        (["--override", "nope=1"], "--override"),
        (["--override", "novalue"], "expected KEY=VALUE"),
        (["--deals", "0"], "not a positive number"),
        (["--workers", "0"], "not a positive number"),
        (["--out", "/nonexistent-folder/x.jsonl"], "no such folder"),
        (["--report", "/nonexistent-folder/x.html"], "no such folder"),
        (["--out", "/"], "is a folder"),
        (["--checkpoint", "/nonexistent-folder/c.jsonl"], "no such folder"),
        (["--out", "/tmp/r.jsonl", "--checkpoint", "/tmp/c.jsonl"], "records are written"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(
    args: list[str], message: str, capsys: CapSys
) -> None:
    assert main(["match", "--deals", "2", "--workers", "1", *args]) == 2
    assert message in _one_line_error(capsys)


def test_missing_extras_are_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: CapSys
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    out = tmp_path / "m.jsonl"
    assert main(["match", "--deals", "2", "--ray", "local", "--out", str(out)]) == 2
    assert "pip install 'esmakker[ray]'" in _one_line_error(capsys)
    assert not out.exists()
    report = tmp_path / "r.html"
    assert main(["match", "--deals", "2", "--report", str(report)]) == 2
    assert "pip install 'esmakker[report]'" in _one_line_error(capsys)
    assert not report.exists()


def test_an_unreachable_ray_cluster_fails_fast(capsys: CapSys) -> None:
    ray = pytest.importorskip("ray")
    if ray.is_initialized():  # a running instance would be used whatever the address
        pytest.skip("a Ray instance runs in this process")
    assert main(["match", "--deals", "1", "--ray", "127.0.0.1:1"]) == 2
    assert "--ray 127.0.0.1:1: cannot reach 127.0.0.1:1" in _one_line_error(capsys)
    assert main(["match", "--deals", "1", "--ray", "nowhere"]) == 2
    assert "expected auto, local or HOST:PORT" in _one_line_error(capsys)


class _Cheat:
    name = "cheat"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: PlayerView) -> Action:
        return parse_action("play SA")

    def claim_iron(self, view: PlayerView) -> bool:
        return False


def test_a_bot_that_breaks_the_rules_is_one_line_and_exit_1(
    monkeypatch: pytest.MonkeyPatch, capsys: CapSys
) -> None:
    monkeypatch.setitem(registry._FACTORIES, "cheat", _Cheat)
    args = ["match", "--deals", "2", "--workers", "1", "--bots", "random,random,random,cheat"]
    assert main(args) == 1
    line = _one_line_error(capsys)
    assert "deal 1, rotation " in line
    assert "bot 4 (cheat)" in line


def test_help_lists_match(capsys: CapSys) -> None:
    assert main(["--help"]) == 0
    assert "match" in capsys.readouterr().out
    assert main(["match", "--help"]) == 0
    text = capsys.readouterr().out
    for option in ("--bots", "--deals", "--workers", "--out", "--json", "--report", "--ray"):
        assert option in text


def test_an_interrupted_match_is_one_line_and_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: CapSys
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("esmakker.cli.run_match", interrupted)
    assert main(["match", "--deals", "2"]) == 130
    assert _one_line_error(capsys) == "esmakker: error: interrupted"


def test_a_checkpoint_goes_on_and_refuses_another_match(tmp_path: Path, capsys: CapSys) -> None:
    saved = str(tmp_path / "match.jsonl")
    whole = _match_json(capsys, "--deals", "4", "--workers", "1", "--seed", "k")
    part = ["--workers", "1", "--seed", "k", "--checkpoint", saved]
    _match_json(capsys, "--deals", "2", *part)
    assert _match_json(capsys, "--deals", "4", *part) == whole
    assert main(["match", "--deals", "4", "--workers", "1", "--checkpoint", saved]) == 2
    assert "a checkpoint of another match (seed is" in _one_line_error(capsys)
