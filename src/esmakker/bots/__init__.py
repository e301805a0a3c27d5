"""Players: bots that choose actions from a seat's view, never from the full state."""

from esmakker.bots.base import Bot
from esmakker.bots.random_bot import RandomBot
from esmakker.bots.registry import BOT_NAMES, make_bot

__all__ = ["BOT_NAMES", "Bot", "RandomBot", "make_bot"]
