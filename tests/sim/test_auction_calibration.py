"""The check of the auction search's prices against the scores actually made."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from esmakker.bots.auction_bias import CALL_KINDS, corrections
from esmakker.sim.auction_calibration import Setup, main, play_deal, run, summarise


def test_a_kind_is_corrected_only_when_its_interval_excludes_zero() -> None:
    misses = [("pass", 0.0, 50.0 + d) for d in (-2, -1, 0, 1, 2)]
    misses += [("number", 100.0, 100.0 + d) for d in (-40, -20, 0, 20, 40)]
    figures = summarise(misses)
    assert figures["corrections"] == {"pass": 50.0, "number": 0.0, "nolo": 0.0}
    assert figures["kinds"]["pass"]["calls"] == 5
    low, high = figures["kinds"]["number"]["ci95"]
    assert low < 0 < high
    assert figures["kinds"]["nolo"] == {"calls": 0, "mean_miss": 0.0, "ci95": None}


def test_a_deal_prices_the_searching_seats_calls_the_same_way_every_run() -> None:
    setup = Setup("wikipedia", 3, 1)
    first = play_deal(setup, 0)
    assert first == play_deal(setup, 0)
    assert all(kind in CALL_KINDS for kind, _, _ in first)


def test_the_figures_do_not_depend_on_the_workers() -> None:
    setup = Setup("wikipedia", 5, 1)
    assert run(setup, 2, workers=1) == run(setup, 2, workers=2)


def test_the_command_prints_and_stores_the_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "auction.json"
    assert main(["--deals", "1", "--worlds", "1", "--json", "--write", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["deals"] == 1
    assert set(printed["corrections"]) == set(CALL_KINDS)
    assert corrections(path) == printed["corrections"]


def test_the_command_rejects_a_count_below_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--deals", "0"])
    assert exit_info.value.code == 2
    assert "--deals 0: must be at least 1" in capsys.readouterr().err
