"""A match's checkpoint: stop, go on, and get the figures of one uninterrupted run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from esmakker.sim.checkpoint import Checkpoint, CheckpointError, deal_from_json, deal_to_json
from esmakker.sim.match import chunk_runs, run_match

BOTS = ["random", "heuristic", "random", "beginner"]


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines()


def test_a_match_in_parts_gives_the_figures_of_one_run(tmp_path: Path) -> None:
    whole = run_match(BOTS, 12, "wikipedia", "c", workers=1)
    saved = tmp_path / "match.jsonl"
    run_match(BOTS, 5, "wikipedia", "c", workers=1, checkpoint=saved)  # the first part
    assert len(_lines(saved)) == 1 + 5
    resumed = run_match(BOTS, 12, "wikipedia", "c", workers=2, checkpoint=saved)
    assert resumed.deals == whole.deals
    assert resumed.summary() == whole.summary()
    assert len(_lines(saved)) == 1 + 12
    again = run_match(BOTS, 12, "wikipedia", "c", workers=1, checkpoint=saved)  # plays nothing
    assert again.deals == whole.deals
    assert len(_lines(saved)) == 1 + 12
    fewer = run_match(BOTS, 4, "wikipedia", "c", workers=1, checkpoint=saved)
    assert fewer.deals == whole.deals[:4]


def test_the_double_dummy_figures_survive_the_file(tmp_path: Path) -> None:
    whole = run_match(["random"] * 4, 2, "tanya", "d", workers=1, dd_node_limit=20_000)
    saved = tmp_path / "dd.jsonl"
    run_match(["random"] * 4, 1, "tanya", "d", workers=1, dd_node_limit=20_000, checkpoint=saved)
    resumed = run_match(
        ["random"] * 4, 2, "tanya", "d", workers=1, dd_node_limit=20_000, checkpoint=saved
    )
    assert any(hand.dd is not None for hand in resumed.deals[0].hands)
    assert resumed.deals == whole.deals
    assert resumed.summary() == whole.summary()


def test_a_deal_round_trips_through_json() -> None:
    deal = run_match(BOTS, 1, "osterbro", "j", workers=1, dd_node_limit=5_000).deals[0]
    assert deal_from_json(json.loads(json.dumps(deal_to_json(deal)))) == deal


def test_a_hand_keeps_its_partner_by_bot_index() -> None:
    deal = run_match(["heuristic"] * 4, 6, "wikipedia", "p", workers=1).deals
    played = [hand for d in deal for hand in d.hands if hand.contract and not hand.nolo]
    assert any(hand.partner is not None for hand in played)
    for hand in played:
        assert hand.partner != hand.declarer
        assert hand.partner is None or 0 <= hand.partner < 4


def test_an_older_deal_without_its_partner_still_loads() -> None:
    deal = run_match(BOTS, 1, "wikipedia", "q", workers=1).deals[0]
    value = deal_to_json(deal)
    for hand in value["hands"]:
        del hand["partner"]
    assert all(hand.partner is None for hand in deal_from_json(value).hands)


def test_a_checkpoint_of_another_match_is_refused(tmp_path: Path) -> None:
    saved = tmp_path / "match.jsonl"
    run_match(BOTS, 1, "wikipedia", "c", workers=1, checkpoint=saved)
    before = saved.read_bytes()
    for bots, preset, seed in ((["random"] * 4, "wikipedia", "c"), (BOTS, "tanya", "c")):
        with pytest.raises(CheckpointError, match="a checkpoint of another match"):
            run_match(bots, 2, preset, seed, workers=1, checkpoint=saved)
    with pytest.raises(CheckpointError, match="seed"):
        run_match(BOTS, 2, "wikipedia", "other", workers=1, checkpoint=saved)
    assert saved.read_bytes() == before  # nothing lost


def test_a_last_line_cut_short_is_played_again(tmp_path: Path) -> None:
    saved = tmp_path / "match.jsonl"
    whole = run_match(BOTS, 3, "wikipedia", "c", workers=1, checkpoint=saved)
    text = saved.read_text()
    saved.write_text(text[: len(text) - 40])  # killed while writing the third deal
    resumed = run_match(BOTS, 3, "wikipedia", "c", workers=1, checkpoint=saved)
    assert resumed.deals == whole.deals
    assert saved.read_text() == text


def test_a_bad_line_inside_the_file_names_its_place(tmp_path: Path) -> None:
    saved = tmp_path / "match.jsonl"
    run_match(BOTS, 3, "wikipedia", "c", workers=1, checkpoint=saved)
    lines = _lines(saved)
    broken = [*lines[:2], "{not json", *lines[3:]]
    saved.write_text("\n".join(broken) + "\n")
    with pytest.raises(CheckpointError, match=r"match\.jsonl:3: not a JSON object"):
        run_match(BOTS, 3, "wikipedia", "c", workers=1, checkpoint=saved)
    wrong = [*lines[:2], json.dumps({"number": 2}), *lines[3:]]
    saved.write_text("\n".join(wrong) + "\n")
    with pytest.raises(CheckpointError, match=r"match\.jsonl:3: not a finished deal"):
        run_match(BOTS, 3, "wikipedia", "c", workers=1, checkpoint=saved)


def test_a_file_that_is_no_checkpoint_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "notes.jsonl"
    other.write_text('{"hello": 1}\n')
    with pytest.raises(CheckpointError, match=r"notes\.jsonl:1: not a match checkpoint"):
        Checkpoint(other, {"bots": BOTS})
    assert other.read_text() == '{"hello": 1}\n'


def test_records_and_a_checkpoint_do_not_mix(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not with a checkpoint"):
        run_match(
            BOTS, 1, "wikipedia", "c", out=tmp_path / "r.jsonl", checkpoint=tmp_path / "c.jsonl"
        )


def test_chunk_runs_cover_the_missing_deals_once() -> None:
    missing = [*range(3, 40), *range(50, 51), *range(60, 300)]
    for workers in (1, 2, 16):
        chunks = chunk_runs(missing, workers)
        assert [n for first, last in chunks for n in range(first, last + 1)] == missing
        assert all(last - first < 64 for first, last in chunks)
    assert chunk_runs([], 2) == []


def test_a_checkpoint_written_by_other_code_is_refused(tmp_path: Path) -> None:
    saved = tmp_path / "match.jsonl"
    run_match(BOTS, 1, "wikipedia", "c", workers=1, checkpoint=saved)
    header, *deals = _lines(saved)
    older = {**json.loads(header), "play_code": "0123456789abcdef"}
    saved.write_text("\n".join([json.dumps(older), *deals]) + "\n")
    before = saved.read_bytes()
    with pytest.raises(CheckpointError, match="the bots, the rules engine or the solver changed"):
        run_match(BOTS, 2, "wikipedia", "c", workers=1, checkpoint=saved)
    assert saved.read_bytes() == before


def test_a_file_of_blank_lines_is_begun_afresh(tmp_path: Path) -> None:
    saved = tmp_path / "match.jsonl"
    saved.write_text("\n\n")
    played = run_match(BOTS, 2, "wikipedia", "c", workers=1, checkpoint=saved)
    header, *deals = _lines(saved)
    assert json.loads(header)["seed"] == "c"
    assert len(deals) == 2
    assert run_match(BOTS, 2, "wikipedia", "c", workers=1, checkpoint=saved).deals == played.deals
