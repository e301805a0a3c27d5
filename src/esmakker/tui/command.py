"""``esmakker play`` and ``esmakker replay FILE --show``: the terminal game's commands.

Textual is imported only when a command runs, so the rest of the command line works
without the ``terminal`` extra; without it these commands print one line and exit 2.
"""

from __future__ import annotations

import argparse
import importlib.util
import secrets
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from esmakker.core.presets import PRESET_NAMES
from esmakker.core.record import HandRecord
from esmakker.core.seats import Seat
from esmakker.tui.i18n import LANGUAGES

MISSING_TEXTUAL = "the terminal game needs Textual: pip install 'esmakker[terminal]'"


def add_play(commands: Any) -> None:
    """Add the ``play`` subcommand to the command line's subparsers."""
    play = commands.add_parser("play", help="play against three bots in the terminal")
    play.add_argument("--preset", default="wikipedia", help=f"one of {', '.join(PRESET_NAMES)}")
    play.add_argument("--seat", default="S", help="your seat: N, E, S or W (S)")
    play.add_argument(
        "--bots", default="heuristic", help="1 or 3 bot levels: random, beginner, heuristic"
    )
    play.add_argument("--deals", type=int, help="stop after this many deals (no limit)")
    play.add_argument("--seed", help="the game's seed (a random one)")
    play.add_argument("--lang", choices=LANGUAGES, help="en, da or ru (en)")
    play.add_argument("--pause", type=float, default=0.6, help="seconds a bot waits (0.6)")
    play.add_argument("--name", default="You", help="your name on the score sheet (You)")
    play.add_argument("--game-dir", type=Path, help="folder to save the game in")
    play.add_argument("--resume", type=Path, metavar="FOLDER", help="continue a saved game")
    play.set_defaults(handler=run_play)


def add_show(replay: argparse.ArgumentParser) -> None:
    """Add ``--show`` to the ``replay`` subcommand."""
    replay.add_argument(
        "--show", action="store_true", help="step through the deal in the terminal screen"
    )
    replay.add_argument(
        "--seat", help="with --show: review this seat's choices (N, E, S or W); n/p jump"
    )


def run_play(args: argparse.Namespace) -> int:
    """Run ``esmakker play``; return the exit code."""
    if importlib.util.find_spec("textual") is None:
        return _fail(MISSING_TEXTUAL)
    from esmakker.tui import game_folder, setup
    from esmakker.tui.app import GameApp
    from esmakker.tui.i18n import set_language

    if args.resume is not None:
        config, table = setup.resume(args.resume)
        folder = args.resume
    else:
        try:
            config = setup.new_config(
                preset=args.preset,
                seat=int(Seat.parse(args.seat)),
                levels=[level.strip() for level in args.bots.split(",")],
                seed=args.seed or secrets.token_hex(4),
                language=args.lang or "en",
                deals=args.deals,
                person=args.name,
            )
            table = setup.table_of(config)
        except ValueError as exc:
            return _fail(str(exc))
        folder = args.game_dir or default_folder()
        game_folder.create(folder, config)
    set_language(args.lang or config.language)
    GameApp(table, config.person, folder=folder, deals=config.deals, pause=args.pause).run()
    print(f"esmakker: the game is saved in {folder} (esmakker play --resume {folder})")
    return 0


def default_folder() -> Path:
    """Return ``esmakker-games/<date-time>`` in the working folder."""
    return Path("esmakker-games") / datetime.now().strftime("%Y-%m-%d-%H%M%S")


def show_record(record: HandRecord, title: str, seat: Seat | None = None) -> int:
    """Open the replay screen on one record (reviewing ``seat``); return the exit code."""
    if importlib.util.find_spec("textual") is None:
        return _fail(MISSING_TEXTUAL)
    from esmakker.table import replay_frames
    from esmakker.tui.replay import ReplayApp

    coach = None if seat is None else (record, seat)
    ReplayApp(replay_frames(record), names_of(record), title, coach).run()
    return 0


def names_of(record: HandRecord) -> tuple[str, str, str, str]:
    """Return the players' names at N, E, S, W from the record's meta data (else the seats)."""
    table = record.meta.get("table")
    if isinstance(table, dict):
        return tuple(str(table.get(seat.name, seat.name)) for seat in Seat)  # type: ignore[return-value]
    return ("N", "E", "S", "W")


def _fail(message: str) -> int:
    print(f"esmakker: error: {message}", file=sys.stderr)
    return 2
