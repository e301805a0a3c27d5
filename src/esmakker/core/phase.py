"""The phases of a deal."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    """Where a deal stands; each phase has its own legal actions."""

    AUCTION = "auction"
    TRUMP = "trump"
    """Naming trumps: the declarer of a plain contract, the partner (or lone declarer) in halve."""
    CALL = "call"
    VIP = "vip"
    EXCHANGE = "exchange"
    PLAY = "play"
    DONE = "done"
