"""Bots by name, for the command line and the simulator."""

from __future__ import annotations

import random
from collections.abc import Callable

from esmakker.bots.base import Bot
from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.random_bot import RandomBot
from esmakker.bots.strong import StrongBot


def _beginner(rng: random.Random) -> Bot:
    return HeuristicBot(rng, level="beginner")


def _strong_bidder(rng: random.Random) -> Bot:
    bot = StrongBot(rng, search_auction=True)
    bot.name = "strong-bidder"
    return bot


_FACTORIES: dict[str, Callable[[random.Random], Bot]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "beginner": _beginner,
    "strong": StrongBot,
    "strong-bidder": _strong_bidder,
}
BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)
SEARCH_BOTS: tuple[str, ...] = ("strong", "strong-bidder")
"""Bots that search (a fraction of a second a decision): too slow for long test runs."""


def make_bot(name: str, rng: random.Random) -> Bot:
    """Return a new bot of the named kind, drawing its randomness from ``rng``.

    Raises:
        ValueError: if no bot has that name (the message lists the known names).
    """
    factory = _FACTORIES.get(name.strip().lower())
    if factory is None:
        raise ValueError(f"unknown bot {name!r} (known bots: {', '.join(BOT_NAMES)})")
    return factory(rng)
