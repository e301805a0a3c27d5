"""A game on disk: ``game.json`` (the settings) and one hand record per finished deal.

``deal-001.json``, ``deal-002.json`` … are hand records (hand-record.md). A game is resumed
by putting its records back on a new table (``Table.add_finished``): the score sheet is
the same, and the next deal is dealt as it would have been.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from esmakker.core.errors import EsmakkerError
from esmakker.core.record import HandRecord, dump, load
from esmakker.core.rules import RuleSet

GAME_FILE = "game.json"
FORMAT = "esmakker-game/1"
_DEAL_FILE = re.compile(r"deal-(\d{3,})\.json")


class GameFolderError(EsmakkerError):
    """A game folder that cannot be read: the message names the file and what is wrong."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameConfig:
    """The settings of a game, as written to ``game.json``."""

    preset: str
    overrides: dict[str, Any] = field(default_factory=dict)
    players: tuple[str, ...]
    """The players clockwise from N."""
    person: str
    """The player at the keyboard."""
    bots: dict[str, str]
    """Bot level by player name."""
    seed: str
    first_dealer: int = 0
    language: str = "en"
    deals: int | None = None
    """Stop after this many deals; ``None`` for as long as the person wants."""

    def rules(self) -> RuleSet:
        """Return the game's rule set.

        Raises:
            RulesConfigError: for an unknown preset or a bad override.
        """
        return RuleSet.from_preset(self.preset, self.overrides)

    def to_json(self) -> dict[str, Any]:
        """Return the ``game.json`` object."""
        data = asdict(self)
        data["players"] = list(self.players)
        return {"format": FORMAT, **data}


def config_of(data: Any, where: str) -> GameConfig:
    """Read a ``game.json`` object.

    Raises:
        GameFolderError: if a field is missing or has the wrong type.
    """
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise GameFolderError(f"{where}: not an esmakker game file (format {FORMAT!r} expected)")
    try:
        config = GameConfig(
            preset=_typed(data, "preset", str),
            overrides=dict(_typed(data, "overrides", dict)),
            players=tuple(_typed(data, "players", list)),
            person=_typed(data, "person", str),
            bots=dict(_typed(data, "bots", dict)),
            seed=_typed(data, "seed", str),
            first_dealer=_typed(data, "first_dealer", int),
            language=_typed(data, "language", str),
            deals=data.get("deals"),
        )
    except (KeyError, TypeError) as exc:
        raise GameFolderError(f"{where}: {exc.args[0]}") from None
    if config.person not in config.players or not all(isinstance(p, str) for p in config.players):
        raise GameFolderError(f"{where}: 'person' must be one of 'players'")
    return config


def _typed(data: Mapping[str, Any], key: str, kind: type) -> Any:
    if key not in data:
        raise KeyError(f"the field {key!r} is missing")
    value = data[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise TypeError(f"the field {key!r} must be a {kind.__name__}")
    return value


def create(folder: Path, config: GameConfig) -> None:
    """Make a new game folder and write its ``game.json``.

    Raises:
        GameFolderError: if the folder already holds a game.
        OSError: if the folder cannot be written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / GAME_FILE
    if path.exists():
        raise GameFolderError(f"{path}: a game is already saved here (use --resume)")
    text = json.dumps(config.to_json(), ensure_ascii=False, indent=2)
    path.write_text(text + "\n", encoding="utf-8")


def deal_path(folder: Path, number: int) -> Path:
    """Return the file of deal ``number`` (``deal-007.json``)."""
    return folder / f"deal-{number:03d}.json"


def save_deal(folder: Path, number: int, record: HandRecord) -> Path:
    """Write a finished deal's record; return its path."""
    path = deal_path(folder, number)
    dump(record, path)
    return path


def open_game(folder: Path) -> tuple[GameConfig, list[HandRecord]]:
    """Read a game folder: its settings and its finished deals in order.

    Raises:
        GameFolderError: for a missing or unreadable ``game.json``, a bad record, or a
            gap in the deals' numbers; the message names the file.
    """
    path = folder / GAME_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GameFolderError(f"{path}: no saved game here (the file is missing)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise GameFolderError(f"{path}: {_one_line(exc)}") from None
    config = config_of(data, str(path))
    return config, _records(folder)


def _records(folder: Path) -> list[HandRecord]:
    numbered = sorted(
        (int(match.group(1)), entry)
        for entry in folder.iterdir()
        if (match := _DEAL_FILE.fullmatch(entry.name))
    )
    records = []
    for expected, (number, path) in enumerate(numbered, start=1):
        if number != expected:
            raise GameFolderError(f"{deal_path(folder, expected)}: missing (deal {number} follows)")
        try:
            records.append(load(path))
        except (EsmakkerError, OSError, ValueError) as exc:
            raise GameFolderError(f"{path}: {_one_line(exc)}") from None
    return records


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())
