"""How far the auction search's prices miss the scores the strong bot actually gets.

``StrongBot(search_auction=True)`` prices each candidate call by its mean score over
sampled worlds played out by heuristic players. ``esmakker.sim.auction_calibration``
plays deals, prices each call the bot made with an independent search and compares the
price with the seat's final score; per kind of call (``call_kind``) it stores the mean
miss in ``auction_calibration.json`` beside this module when its 95% interval excludes
zero (decision 104). The search adds that correction to each candidate's price.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from esmakker.core.actions import Action, Bid, Hold

CALIBRATION_FILE = Path(__file__).with_name("auction_calibration.json")
CALL_KINDS = ("pass", "number", "nolo")


def call_kind(action: Action) -> str:
    """Return ``nolo`` for a nolo bid, ``number`` for a number bid or a hold, else ``pass``."""
    if isinstance(action, Bid):
        return "nolo" if action.is_nolo else "number"
    if isinstance(action, Hold):
        return "number"
    return "pass"


@cache
def corrections(path: Path = CALIBRATION_FILE) -> dict[str, float]:
    """Return the points to add to the price of each kind of call (none if no file).

    Raises:
        ValueError: if the file is not a calibration (the message names the file).
    """
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        table = data["corrections"]
        return {kind: float(table.get(kind, 0.0)) for kind in CALL_KINDS}
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"{path}: not an auction calibration ({error})") from error


def correction(action: Action) -> float:
    """Return the points the search's price of ``action`` is corrected by."""
    return corrections().get(call_kind(action), 0.0)
