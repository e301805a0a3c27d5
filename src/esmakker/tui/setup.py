"""From settings to a table: a new game, or a saved one put back deal by deal."""

from __future__ import annotations

import random
from pathlib import Path

from esmakker.bots.registry import make_bot
from esmakker.core.errors import CorruptRecordError
from esmakker.table import BotFactory, Table
from esmakker.tui import game_folder
from esmakker.tui.game_folder import GameConfig, GameFolderError

BOT_PLAYERS = ("Anna", "Bo", "Carl")


def new_config(
    *,
    preset: str,
    seat: int,
    levels: list[str],
    seed: str,
    language: str,
    deals: int | None,
    person: str = "You",
) -> GameConfig:
    """Return the settings of a new game: ``person`` at ``seat`` (0-3 = N-W), three bots.

    Raises:
        ValueError: for a wrong number of bot levels or a name clash.
    """
    if len(levels) == 1:
        levels = levels * 3
    if len(levels) != 3:
        raise ValueError(f"--bots takes 1 or 3 levels, not {len(levels)}")
    if person in BOT_PLAYERS:
        raise ValueError(f"the name {person!r} is taken by a bot")
    bots = dict(zip(BOT_PLAYERS, levels, strict=True))
    players = [*BOT_PLAYERS]
    players.insert(seat, person)
    return GameConfig(
        preset=preset,
        players=tuple(players),
        person=person,
        bots=bots,
        seed=seed,
        language=language,
        deals=deals,
    )


def table_of(config: GameConfig) -> Table:
    """Return an empty table for the settings.

    Raises:
        RulesConfigError: for a bad preset or override.
        ValueError: for an unknown bot level.
    """
    factories = {player: _factory(level) for player, level in config.bots.items()}
    return Table(
        config.rules(),
        config.players,
        seed=config.seed,
        bots=factories,
        first_dealer=config.first_dealer,
    )


def _factory(level: str) -> BotFactory:
    make_bot(level, random.Random(0))  # an unknown level fails here, with the known ones
    return lambda rng: make_bot(level, rng)


def resume(folder: Path) -> tuple[GameConfig, Table]:
    """Return a saved game's settings and its table with every finished deal on the sheet.

    Raises:
        GameFolderError: for a missing or bad file; the message names it.
    """
    config, records = game_folder.open_game(folder)
    try:
        table = table_of(config)
    except ValueError as exc:
        raise GameFolderError(f"{folder / game_folder.GAME_FILE}: {exc}") from None
    for number, record in enumerate(records, start=1):
        try:
            table.add_finished(record)
        except CorruptRecordError as exc:
            raise GameFolderError(f"{game_folder.deal_path(folder, number)}: {exc}") from None
    return config, table
