"""Bots by name, for the command line and the simulator."""

from __future__ import annotations

import random
from collections.abc import Callable

from esmakker.bots.base import Bot
from esmakker.bots.random_bot import RandomBot

_FACTORIES: dict[str, Callable[[random.Random], Bot]] = {"random": RandomBot}
BOT_NAMES: tuple[str, ...] = tuple(_FACTORIES)


def make_bot(name: str, rng: random.Random) -> Bot:
    """Return a new bot of the named kind, drawing its randomness from ``rng``.

    Raises:
        ValueError: if no bot has that name (the message lists the known names).
    """
    factory = _FACTORIES.get(name.strip().lower())
    if factory is None:
        raise ValueError(f"unknown bot {name!r} (known bots: {', '.join(BOT_NAMES)})")
    return factory(rng)
