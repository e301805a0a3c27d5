"""The bot protocol (architecture 5.8)."""

from __future__ import annotations

from typing import Protocol

from esmakker.core.actions import Action
from esmakker.core.view import PlayerView


class Bot(Protocol):
    """A player that decides from one seat's view (``observe(state, seat)``) only.

    A bot takes its ``random.Random`` in its constructor and is deterministic given it.
    """

    name: str
    """The registry name (``random``)."""

    def act(self, view: PlayerView) -> Action:
        """Return one of ``view.legal_actions``; the seat is ``view.seat``, to act now."""
        ...

    def claim_iron(self, view: PlayerView) -> bool:
        """Return whether to claim iron hand, offered out of turn before the first call."""
        return False
