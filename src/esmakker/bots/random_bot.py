"""A bot that plays uniformly at random among the legal actions."""

from __future__ import annotations

import random

from esmakker.bots.base import Bot
from esmakker.core.actions import IRON, Action
from esmakker.core.view import PlayerView


class RandomBot(Bot):
    """Choose uniformly among ``view.legal_actions``; claim iron hand half the time.

    Iron hand is claimed with probability 0.5 whenever it is offered, out of turn
    (``claim_iron``) or to the seat to act (among its legal actions); otherwise the
    bot chooses uniformly among the other actions.
    """

    name = "random"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: PlayerView) -> Action:
        """Return a uniformly chosen legal action.

        Raises:
            ValueError: if the view offers no action (the seat is not to act).
        """
        actions = view.legal_actions
        if not actions:
            raise ValueError(f"{view.seat} has no legal action to choose from")
        if IRON in actions:
            if self.claim_iron(view):
                return IRON
            actions = tuple(action for action in actions if action != IRON)
        return self.rng.choice(actions)

    def claim_iron(self, view: PlayerView) -> bool:
        """Return ``True`` with probability 0.5."""
        return self.rng.random() < 0.5
