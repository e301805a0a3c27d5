"""Saving a game deal by deal, and resuming it with the same score sheet."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from esmakker.bots.registry import make_bot
from esmakker.table import Table
from esmakker.tui import game_folder, setup
from esmakker.tui.game_folder import GameConfig, GameFolderError


def config(seed: str = "g1") -> GameConfig:
    return setup.new_config(
        preset="wikipedia", seat=2, levels=["heuristic"], seed=seed, language="da", deals=None
    )


def played(config: GameConfig, folder: Path, deals: int) -> Table:
    """Play ``deals`` deals with a bot in the person's chair too, saving each one."""
    table = setup.table_of(config)
    person = make_bot("heuristic", random.Random(1))
    game_folder.create(folder, config)
    for _ in range(deals):
        table.start_deal()
        while not table.deal_over:
            decision = table.bot_action()
            if decision is None:
                seat = table.seat_of(config.person)
                assert seat is not None
                decision = seat, person.act(table.view(seat))
            table.submit(*decision)
        game_folder.save_deal(folder, table.deal_number, table.records[-1])
    return table


def test_a_resumed_game_has_the_same_score_sheet(tmp_path: Path) -> None:
    table = played(config(), tmp_path, 3)
    resumed_config, resumed = setup.resume(tmp_path)
    assert resumed_config == config()
    assert resumed.sheet.to_json() == table.sheet.to_json()
    assert [r.result for r in resumed.records] == [r.result for r in table.records]


def test_a_resumed_game_deals_the_next_deal_as_the_first_would_have(tmp_path: Path) -> None:
    table = played(config(), tmp_path, 2)
    _, resumed = setup.resume(tmp_path)
    table.start_deal()
    resumed.start_deal()
    assert resumed.deal_number == table.deal_number == 3
    assert resumed.record().hands == table.record().hands


def test_game_json_holds_the_settings(tmp_path: Path) -> None:
    game_folder.create(tmp_path, config())
    data = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert data["format"] == game_folder.FORMAT
    assert data["players"] == ["Anna", "Bo", "You", "Carl"]
    assert data["bots"] == {"Anna": "heuristic", "Bo": "heuristic", "Carl": "heuristic"}
    assert data["language"] == "da"


def test_a_folder_with_a_game_is_not_overwritten(tmp_path: Path) -> None:
    game_folder.create(tmp_path, config())
    with pytest.raises(GameFolderError, match="already saved here"):
        game_folder.create(tmp_path, config())


def test_a_missing_game_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(GameFolderError, match=r"game\.json: no saved game here"):
        setup.resume(tmp_path)


def test_a_corrupt_game_file_is_named(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(GameFolderError, match=r"game\.json: Expecting property name"):
        setup.resume(tmp_path)


def test_a_game_file_without_a_field_is_named(tmp_path: Path) -> None:
    game_folder.create(tmp_path, config())
    data = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    del data["seed"]
    (tmp_path / "game.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(GameFolderError, match=r"game\.json: the field 'seed' is missing"):
        setup.resume(tmp_path)


def test_a_corrupt_deal_file_is_named(tmp_path: Path) -> None:
    played(config(), tmp_path, 2)
    (tmp_path / "deal-002.json").write_text('{"rules": 1}', encoding="utf-8")
    with pytest.raises(GameFolderError, match=r"deal-002\.json: "):
        setup.resume(tmp_path)


def test_a_missing_deal_file_is_named(tmp_path: Path) -> None:
    played(config(), tmp_path, 3)
    (tmp_path / "deal-002.json").unlink()
    with pytest.raises(GameFolderError, match=r"deal-002\.json: missing"):
        setup.resume(tmp_path)


def test_a_deal_from_another_game_is_refused(tmp_path: Path) -> None:
    played(config(), tmp_path / "a", 2)
    played(config("other"), tmp_path / "b", 2)
    (tmp_path / "a" / "deal-002.json").write_bytes((tmp_path / "b" / "deal-001.json").read_bytes())
    with pytest.raises(GameFolderError, match=r"deal-002\.json: deal 2: the record's dealer"):
        setup.resume(tmp_path / "a")
