"""Two match files of the same deals compared deal by deal (``esmakker compare``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from esmakker.cli import main
from esmakker.sim.checkpoint import CheckpointError, read_checkpoint
from esmakker.sim.compare import CompareError, compare_files
from esmakker.sim.compare_command import _per_hand
from esmakker.sim.match import run_match
from esmakker.sim.stats import ROLES, summarise_dd_loss, summarise_match

BOTS = ["random", "heuristic", "random", "beginner"]
DD_BOTS = ["heuristic", "random", "random", "random"]

CapSys = pytest.CaptureFixture[str]


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two files of one match with double-dummy figures: 3 deals and 4 deals."""
    folder = tmp_path_factory.mktemp("judged")
    short, long = folder / "short.jsonl", folder / "long.jsonl"
    for path, deals in ((short, 3), (long, 4)):
        run_match(DD_BOTS, deals, "tanya", "k", workers=1, dd_node_limit=20_000, checkpoint=path)
    return short, long


def _match(path: Path, deals: int, seed: str = "c") -> Path:
    run_match(BOTS, deals, "wikipedia", seed, workers=1, checkpoint=path)
    return path


def _shift_points(path: Path, number: int, bot: int, by: int) -> None:
    """Add ``by`` to one bot's score in every hand of deal ``number`` of the file."""
    header, *lines = path.read_text().splitlines()
    changed = []
    for line in lines:
        deal = json.loads(line)
        if deal["number"] == number:
            for hand in deal["hands"]:
                hand["points"][bot] += by
        changed.append(json.dumps(deal))
    path.write_text("\n".join([header, *changed]) + "\n")


def test_the_files_are_read_on_the_deals_both_hold(tmp_path: Path) -> None:
    first = _match(tmp_path / "a.jsonl", 5)
    second = _match(tmp_path / "b.jsonl", 3)
    result = compare_files(first, second)
    assert result["deals"] == 3
    assert [f["deals_in_file"] for f in result["files"]] == [5, 3]
    _, deals = read_checkpoint(first)
    expected = summarise_match(BOTS, deals[:3])["bots"]
    for name in ("random", "heuristic", "beginner"):
        figures = result["files"][0]["figures"][name]
        assert figures["points_per_deal"] == pytest.approx(expected[name]["mean_points_per_deal"])
        assert figures["points_per_deal_ci95"] == pytest.approx(expected[name]["ci95"])


def test_a_file_compared_with_itself_differs_by_nothing(tmp_path: Path) -> None:
    path = _match(tmp_path / "a.jsonl", 3)
    difference = compare_files(path, path)["difference"]
    for name in ("random", "heuristic", "beginner"):
        assert difference[name]["points_per_deal"] == 0
        assert difference[name]["points_per_deal_ci95"] == [0, 0]
        assert "tricks_lost_per_deal" not in difference[name]  # no double-dummy figures


def test_the_difference_is_the_second_file_less_the_first_deal_by_deal(tmp_path: Path) -> None:
    first = _match(tmp_path / "a.jsonl", 4)
    second = _match(tmp_path / "b.jsonl", 4)
    _shift_points(second, 2, bot=1, by=20)  # the heuristic gains 20 in deal 2's four hands
    _shift_points(second, 3, bot=3, by=-8)
    result = compare_files(first, second)
    points = {
        path: summarise_match(BOTS, read_checkpoint(path)[1])["bots"] for path in (first, second)
    }
    for name in ("random", "heuristic", "beginner"):
        gained = (
            points[second][name]["mean_points_per_deal"]
            - points[first][name]["mean_points_per_deal"]
        )
        assert result["difference"][name]["points_per_deal"] == pytest.approx(gained)
    assert result["difference"]["heuristic"]["points_per_deal"] == pytest.approx(20 / 4)
    assert result["difference"]["beginner"]["points_per_deal"] == pytest.approx(-8 / 4)
    low, high = result["difference"]["heuristic"]["points_per_deal_ci95"]
    assert low < 5 < high


def test_the_tricks_lost_and_their_ratio_are_those_of_the_match(
    judged: tuple[Path, Path],
) -> None:
    short, long = judged
    result = compare_files(long, short)
    assert result["deals"] == 3
    _, deals = read_checkpoint(long)
    expected = summarise_dd_loss(DD_BOTS, deals[:3], 20_000)
    for name in ("heuristic", "random"):
        figures = result["files"][0]["figures"][name]
        wanted = expected["bots"][name]
        assert figures["tricks_lost_per_deal"] == pytest.approx(wanted["tricks_lost_per_deal"])
        assert figures["tricks_lost_per_deal_ci95"] == pytest.approx(wanted["ci95"])
        assert result["difference"][name]["tricks_lost_per_deal"] == 0  # the same code
        assert figures["by_role"] == wanted["by_role"]
    ratio = result["files"][0]["tricks_lost_ratio"]
    assert ratio["ratio"] == pytest.approx(expected["tricks_lost_ratio"]["ratio"])
    assert (ratio["bot"], ratio["to"]) == ("heuristic", "random")


def test_files_of_different_matches_are_refused(tmp_path: Path) -> None:
    first = _match(tmp_path / "a.jsonl", 2)
    other = _match(tmp_path / "b.jsonl", 2, seed="d")
    with pytest.raises(CompareError, match="not the same match: seed is 'c' and 'd'"):
        compare_files(first, other)


def test_files_without_a_common_deal_are_refused(tmp_path: Path) -> None:
    first = _match(tmp_path / "a.jsonl", 2)
    empty = tmp_path / "empty.jsonl"
    empty.write_text(first.read_text().splitlines()[0] + "\n")  # the header alone
    with pytest.raises(CompareError, match="no deal in common"):
        compare_files(first, empty)


def test_a_file_that_is_no_match_file_is_refused(tmp_path: Path) -> None:
    first = _match(tmp_path / "a.jsonl", 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "something else"}\n')
    with pytest.raises(CheckpointError, match=r"bad.jsonl:1: not a match checkpoint"):
        compare_files(first, bad)
    blank = tmp_path / "blank.jsonl"
    blank.write_text("\n\n")
    with pytest.raises(CheckpointError, match="no header line"):
        compare_files(first, blank)


def test_the_command_prints_both_files_and_the_difference(
    judged: tuple[Path, Path], capsys: CapSys
) -> None:
    short, long = judged
    assert main(["compare", str(long), str(short)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("3 deals in both files, bots heuristic, random:")
    assert "points per deal (95% interval):" in out
    assert "tricks lost a hand against the double-dummy optimum (95% interval):" in out
    assert "tricks lost, heuristic over random: " in out
    files = compare_files(long, short)["files"]
    cells = []
    for role in ROLES:
        shown = [_per_hand(f["figures"]["heuristic"]["by_role"][role]) for f in files]
        cells.append(f"{role.replace('_', ' ')} {shown[0]} -> {shown[1]}")
    assert "tricks lost a hand by role, first -> second (hands):" in out
    assert f"  heuristic: {', '.join(cells)}\n" in out
    assert main(["compare", str(long), str(short), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads(json.dumps(compare_files(long, short)))


def test_the_command_names_a_bad_file_in_one_line(tmp_path: Path, capsys: CapSys) -> None:
    first = _match(tmp_path / "a.jsonl", 1)
    missing = tmp_path / "missing.jsonl"
    assert main(["compare", str(first), str(missing)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1
    assert err[0].startswith("esmakker: error: ")
    assert "missing.jsonl" in err[0]
    other = _match(tmp_path / "b.jsonl", 1, seed="e")
    assert main(["compare", str(first), str(other)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"esmakker: error: {first} and {other} are not the same match: seed is 'c' and 'e'"
    ]
