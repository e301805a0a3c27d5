"""``esmakker review``: a seat's costly choices as a table or JSON; one-line errors, exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from esmakker.cli import main
from esmakker.core.record import load

GOLDEN = Path(__file__).parent / "golden" / "plain-9-made-with-overtricks.json"
CapSys = pytest.CaptureFixture[str]
FAST = ["--worlds", "1", "--seed", "7"]
"""One world per decision: quick, and noisy enough to flag some choices."""


def _json(capsys: CapSys, *extra: str) -> dict[str, Any]:
    assert main(["review", str(GOLDEN), "--seat", "e", *FAST, "--json", *extra]) == 0
    body: dict[str, Any] = json.loads(capsys.readouterr().out)
    return body


def test_the_json_places_each_costly_choice_at_its_action(capsys: CapSys) -> None:
    body = _json(capsys)
    actions = json.loads(GOLDEN.read_text())["actions"]
    assert (body["version"], body["seat"], body["worlds"], body["seed"]) == (1, "E", 1, "7")
    mistakes = body["mistakes"]
    assert mistakes
    for mistake in mistakes:
        assert set(mistake) == {"index", "step", "trick", "phase", "action", "best", "cost"}
        assert actions[mistake["step"]] == f"E {mistake['action']}"
        assert mistake["cost"] >= 10
    assert _json(capsys) == body  # the same seed gives the same review


def test_the_table_numbers_steps_as_the_replays_do(capsys: CapSys) -> None:
    mistakes = _json(capsys)["mistakes"]
    assert main(["review", str(GOLDEN), "--seat", "E", *FAST]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith(f"{GOLDEN.name}, seat E: {len(mistakes)} costly choice(s)")
    assert text[1].split() == ["step", "trick", "chose", "better", "points"]
    rows = text[2 : 2 + len(mistakes)]
    for row, mistake in zip(rows, mistakes, strict=True):
        assert row.split()[0] == str(mistake["step"] + 1)
        assert row.split()[-1] == f"{mistake['cost']:.0f}"
    assert text[-1] == "step k is the record's k-th action, as the replays number it"


def _one_line_error(capsys: CapSys) -> str:
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("esmakker: error: ")
    return err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.json", "--seat", "N"], "missing.json: No such file or directory"),
        ([str(GOLDEN), "--seat", "Q"], "--seat: 'Q' is not a seat (expected N, E, S or W)"),
        ([str(GOLDEN)], "the following arguments are required: --seat"),
        ([str(GOLDEN), "--seat", "N", "--worlds", "0"], "0 is not a positive number"),
        ([str(GOLDEN), "--seat", "N", "--budget", "0"], "--budget 0.0: must be more than 0"),
    ],
)
def test_bad_arguments_give_one_line_and_exit_code_2(
    capsys: CapSys, args: list[str], message: str
) -> None:
    assert main(["review", *args]) == 2
    assert message in _one_line_error(capsys)


def test_a_corrupt_record_gives_one_line_and_exit_code_2(tmp_path: Path, capsys: CapSys) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "esmakker-hand/1"')
    assert main(["review", str(broken), "--seat", "N"]) == 2
    assert "broken.json: malformed JSON" in _one_line_error(capsys)
    illegal = tmp_path / "illegal.json"
    record = json.loads(GOLDEN.read_text())
    record["actions"][1] = "S play SA"
    illegal.write_text(json.dumps(record))
    assert main(["review", str(illegal), "--seat", "N"]) == 2
    assert "illegal.json" in _one_line_error(capsys)


def test_replay_takes_a_seat_only_with_show(capsys: CapSys) -> None:
    assert load(GOLDEN).result is not None
    assert main(["replay", str(GOLDEN), "--seat", "N"]) == 2
    assert "--seat N: only with --show" in _one_line_error(capsys)


def test_replay_show_with_a_seat_opens_the_screen_reviewing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from esmakker.core.seats import Seat
    from esmakker.tui.replay import ReplayApp

    opened: list[object] = []
    monkeypatch.setattr(ReplayApp, "run", lambda self: opened.append(self.coach))
    assert main(["replay", str(GOLDEN), "--show", "--seat", "w"]) == 0
    assert opened == [(load(GOLDEN), Seat.W)]
