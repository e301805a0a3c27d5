"""``esmakker play`` and ``esmakker replay --show``: one-line errors, never a traceback."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from esmakker.bots.registry import make_bot
from esmakker.cli import main
from esmakker.core.record import dump
from esmakker.core.rules import RuleSet
from esmakker.table import Table


def no_textual(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)


def test_play_without_textual_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    no_textual(monkeypatch)
    assert main(["play"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "esmakker[terminal]" in err


def test_replay_show_without_textual_says_which_extra_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bots = {name: (lambda rng: make_bot("random", rng)) for name in "ABCD"}
    table = Table(RuleSet.from_preset("wikipedia"), tuple("ABCD"), seed="x", bots=bots)
    table.start_deal()
    table.step_bots()
    dump(table.records[0], tmp_path / "deal.json")
    no_textual(monkeypatch)
    assert main(["replay", str(tmp_path / "deal.json"), "--show"]) == 2
    assert "esmakker[terminal]" in capsys.readouterr().err


def test_play_refuses_a_wrong_number_of_bot_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bots", "random,random"]) == 2
    assert "--bots takes 1 or 3 levels" in capsys.readouterr().err


def test_play_refuses_an_unknown_bot_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bots", "genius"]) == 2
    assert "unknown bot 'genius'" in capsys.readouterr().err


def test_resuming_a_folder_without_a_game_names_the_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["play", "--resume", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"{tmp_path / 'game.json'}: no saved game here" in err
