"""Frames of the live protocol (version 1): client commands in, projected events out.

Nothing here sees a ``State``: events are projected through the recipient's view (its
``to_json``), so a frame can hold no more than ``observe`` gives that seat.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from esmakker.core.record import to_json as record_json
from esmakker.server import errors
from esmakker.table import ActionApplied, ActionUndone, DealScored, DealStarted, Event, TrickTaken

VERSION = 1
COMMANDS = ("act", "undo", "undo_reply", "claim", "concede", "claim_reply", "sync", "ping")
MAX_ID = 64


@dataclass(frozen=True, slots=True)
class Command:
    """One client command: its type, id and arguments."""

    type: str
    id: str
    action: str = ""
    accept: bool = False


def dumps(frame: dict[str, Any]) -> str:
    """Return a frame as compact JSON text."""
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


def frame(kind: str, **fields: Any) -> dict[str, Any]:
    """Return a server frame of type ``kind``."""
    return {"v": VERSION, "type": kind, **fields}


def command_id_of(text: str) -> str | None:
    """Return the id of a frame if one can be read from it (for error frames)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str) and 0 < len(value) <= MAX_ID else None


def parse_command(text: str) -> Command:
    """Return the command in a client frame.

    Raises:
        ProtocolError: for garbage JSON, a wrong version, an unknown type, a missing id or
            missing arguments.
    """
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise errors.ProtocolError(errors.BAD_JSON, f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise errors.ProtocolError(errors.BAD_FRAME, "a frame is a JSON object")
    if data.get("v") != VERSION:
        raise errors.ProtocolError(errors.BAD_VERSION, f"this server speaks version {VERSION}")
    kind = data.get("type")
    if kind not in COMMANDS:
        raise errors.ProtocolError(errors.UNKNOWN_TYPE, f"unknown frame type {kind!r}")
    command_id = data.get("id")
    if not isinstance(command_id, str) or not 0 < len(command_id) <= MAX_ID:
        raise errors.ProtocolError(errors.MISSING_ID, "a command needs an id (1-64 characters)")
    return Command(str(kind), command_id, *_arguments(str(kind), data))


def _arguments(kind: str, data: dict[str, Any]) -> tuple[str, bool]:
    if kind == "act":
        action = data.get("action")
        if not isinstance(action, str) or not action.strip():
            raise errors.ProtocolError(errors.BAD_FRAME, "act needs an action, like 'play HQ'")
        return action, False
    if kind in ("undo_reply", "claim_reply"):
        accept = data.get("accept")
        if not isinstance(accept, bool):
            raise errors.ProtocolError(errors.BAD_FRAME, f"{kind} needs accept: true or false")
        return "", accept
    return "", False


def seed_hash(seed: str) -> str:
    """Return the published commitment to a deal's seed (SHA-256 hex of its text)."""
    return hashlib.sha256(seed.encode()).hexdigest()


def project(
    event: Event, view: dict[str, Any] | None, seed: str, players: Sequence[str]
) -> dict[str, Any]:
    """Return ``event`` as the recipient whose view (after it) is ``view`` may see it.

    ``seed`` is the deal's seed: only its hash goes out when the deal starts, the seed
    itself once the deal is over. ``players`` are the table's players, in order.
    """
    if isinstance(event, ActionApplied):
        step = view["history"][-1] if view and view["history"] else event.seat.name
        return {"kind": "action", "seat": event.seat.name, "step": step}
    if isinstance(event, TrickTaken):
        return {"kind": "trick", "number": event.number, "winner": event.winner.name}
    if isinstance(event, ActionUndone):
        return {"kind": "undone", "seat": event.seat.name}
    if isinstance(event, DealStarted):
        seating = event.seating
        return {
            "kind": "deal_started",
            "number": event.number,
            "dealer": seating.dealer.name,
            "seats": dict(zip("NESW", seating.players, strict=True)),
            "sitting_out": list(seating.sitting_out),
            "seed_hash": seed_hash(seed),
        }
    return _scored(event, seed, players)


def _scored(event: DealScored, seed: str, players: Sequence[str]) -> dict[str, Any]:
    return {
        "kind": "deal_over",
        "number": event.row.number,
        "row": event.row.to_json(players),
        "record": record_json(event.record),
        "seed": seed,
    }
