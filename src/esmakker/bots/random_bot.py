"""A bot that plays uniformly at random among the legal actions."""

from __future__ import annotations

import random

from esmakker.bots.base import Bot
from esmakker.core.actions import Action
from esmakker.core.view import PlayerView


class RandomBot(Bot):
    """Choose uniformly among ``view.legal_actions``; claim iron hand half the time."""

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: PlayerView) -> Action:
        """Return a uniformly chosen legal action.

        Raises:
            ValueError: if the view offers no action (the seat is not to act).
        """
        if not view.legal_actions:
            raise ValueError(f"{view.seat} has no legal action to choose from")
        return self.rng.choice(view.legal_actions)

    def claim_iron(self, view: PlayerView) -> bool:
        """Return ``True`` with probability 0.5."""
        return self.rng.random() < 0.5
