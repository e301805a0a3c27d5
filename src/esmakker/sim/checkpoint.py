"""A long match's finished deals on disk, so it can stop and go on (``match --checkpoint``).

The file is JSON Lines: a header line with the match's settings, then one line per
finished deal (``DuplicateDeal`` without its records), appended and flushed as each
chunk comes back. Running the same match again reads the deals already there and plays
only the others; every deal depends only on the seed and its number, so the figures
are those of one uninterrupted run. The number of deals is not a setting: asking for
more deals extends a match, asking for fewer uses the first ones. The settings include
the digest of the code that plays the deals (``fingerprint.play_code``), so a match is
not extended by bots that have changed since. A last line cut short (the process was
killed while writing it) is dropped; any other bad line is an error that names it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

from esmakker.core.seats import Seat
from esmakker.sim.ddloss import HandLoss, PlayerLoss
from esmakker.sim.duplicate import DuplicateDeal, Hand

FORMAT = "esmakker-match-checkpoint/1"
PLAY_CODE = "play_code"
"""The setting that holds the digest of the code that plays the deals (``fingerprint``)."""


class CheckpointError(ValueError):
    """A checkpoint file that does not belong to this match or cannot be read."""


class Checkpoint:
    """The finished deals of one match in a file: ``done`` on opening, ``save`` as they come."""

    def __init__(self, path: str | os.PathLike[str], settings: dict[str, Any]) -> None:
        """Open ``path`` for the match ``settings`` (a JSON object), creating it if missing.

        Raises:
            CheckpointError: if the file holds another match or a line cannot be read.
        """
        self.path = Path(path)
        self.settings = settings
        self.done: dict[int, DuplicateDeal] = {}
        keep = 0
        if self.path.exists() and self.path.stat().st_size:
            keep = self._read()
        self._file: IO[str] = self.path.open("a+", encoding="utf-8")
        if keep:
            self._file.truncate(keep)  # drop a last line cut short
        else:
            self._file.truncate(0)
            self._write({"format": FORMAT, **settings})

    def save(self, deals: Iterable[DuplicateDeal]) -> None:
        """Append finished deals (their records left out) and flush them to disk."""
        for deal in deals:
            if deal.number not in self.done:
                self.done[deal.number] = deal
                self._file.write(json.dumps(deal_to_json(deal)) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        """Close the file."""
        self._file.close()

    def _write(self, value: dict[str, Any]) -> None:
        self._file.write(json.dumps(value) + "\n")
        self._file.flush()

    def _read(self) -> int:
        """Load the deals; return the length of the file up to its last whole line."""
        header, self.done, keep = _parse(self.path)
        if header is None:  # not one whole line: begin the file afresh
            return 0
        self._check_header(header)
        return keep

    def _check_header(self, value: dict[str, Any]) -> None:
        for key, wanted in self.settings.items():
            if key == PLAY_CODE and value.get(key) != wanted:
                raise CheckpointError(
                    f"{self.path}: a checkpoint of another match (the bots, the rules engine or "
                    f"the solver changed since it was written: {PLAY_CODE} is "
                    f"{json.dumps(value.get(key))}, this code's {json.dumps(wanted)})"
                )
            if value.get(key) != wanted:
                raise CheckpointError(
                    f"{self.path}: a checkpoint of another match ({key} is "
                    f"{json.dumps(value.get(key))}, this match's {json.dumps(wanted)})"
                )


def read_checkpoint(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[DuplicateDeal]]:
    """Return a checkpoint file's settings (its header) and its deals by number, reading only.

    Raises:
        CheckpointError: if the file is no checkpoint or a line cannot be read.
        OSError: if the file cannot be read.
    """
    header, deals, _ = _parse(Path(path))
    if header is None:
        raise CheckpointError(f"{path}: not a match checkpoint ({FORMAT}): no header line")
    return header, [deals[number] for number in sorted(deals)]


def _parse(path: Path) -> tuple[dict[str, Any] | None, dict[int, DuplicateDeal], int]:
    """Return the header, the deals and the length of the file up to its last whole line.

    The header is ``None`` where the file holds no whole line but blank ones.

    Raises:
        CheckpointError: if the file is no checkpoint or a line cannot be read.
    """
    data = path.read_bytes()
    *whole, _cut_short = data.split(b"\n")  # after the last newline: a write cut short
    header: dict[str, Any] | None = None
    deals: dict[int, DuplicateDeal] = {}
    keep = 0
    for number, raw in enumerate(whole, start=1):
        keep += len(raw) + 1
        if not raw.strip():
            continue
        try:
            value = json.loads(raw)
        except ValueError:
            raise CheckpointError(f"{path}:{number}: not a JSON object") from None
        if header is None:
            if not isinstance(value, dict) or value.get("format") != FORMAT:
                raise CheckpointError(f"{path}:{number}: not a match checkpoint ({FORMAT})")
            header = value
            continue
        deal = _deal(path, value, number, str(header.get("seed")))
        deals[deal.number] = deal
    return header, deals, keep


def _deal(path: Path, value: Any, line: int, seed: str) -> DuplicateDeal:
    try:
        deal = deal_from_json(value)
    except (KeyError, TypeError, ValueError) as exc:
        raise CheckpointError(f"{path}:{line}: not a finished deal ({exc})") from None
    if deal.number < 1 or deal.seed != f"{seed}/{deal.number}":
        raise CheckpointError(f"{path}:{line}: deal {deal.number} is not of this match")
    return deal


def deal_to_json(deal: DuplicateDeal) -> dict[str, Any]:
    """Return a finished deal as a JSON object (without its records)."""
    return {
        "number": deal.number,
        "seed": deal.seed,
        "dealer": deal.dealer.name,
        "hands": [asdict(hand) for hand in deal.hands],
    }


def deal_from_json(value: dict[str, Any]) -> DuplicateDeal:
    """Return the deal ``deal_to_json`` wrote.

    Raises:
        KeyError, TypeError, ValueError: if a field is missing or of the wrong kind.
    """
    hands = tuple(_hand(hand) for hand in value["hands"])
    number = value["number"]
    if not isinstance(number, int) or not isinstance(value["seed"], str):
        raise TypeError("number must be an integer and seed a string")
    return DuplicateDeal(number, value["seed"], Seat[value["dealer"]], hands)


def _hand(value: dict[str, Any]) -> Hand:
    points = tuple(int(p) for p in value["points"])
    if len(points) != 4:
        raise ValueError(f"{len(points)} scores, not 4")
    dd = value.get("dd")
    return Hand(
        rotation=int(value["rotation"]),
        outcome=str(value["outcome"]),
        contract=value["contract"],
        nolo=bool(value["nolo"]),
        declarer=value["declarer"],
        made=value["made"],
        points=(points[0], points[1], points[2], points[3]),
        dd=None if dd is None else _hand_loss(dd),
        partner=value.get("partner"),
    )


def _hand_loss(value: dict[str, Any]) -> HandLoss:
    players = tuple(PlayerLoss(**player) for player in value["players"])
    if len(players) != 4:
        raise ValueError(f"{len(players)} players, not 4")
    return HandLoss(
        players=(players[0], players[1], players[2], players[3]),
        declarer=value["declarer"],
        regret=value["regret"],
        regret_status=str(value["regret_status"]),
    )
