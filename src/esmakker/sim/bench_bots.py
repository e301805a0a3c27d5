"""Bot benchmark: how long each bot takes per decision (``esmakker bench bots``).

Each bot named plays ``deals`` deals at a table of four of its kind (deal ``k`` draws
its cards from ``random.Random(f"{seed}/{k}")`` and seat ``s``'s bot from
``random.Random(f"{seed}/{k}/{s}")``, as the simulator does). Every call to ``act``
with more than one legal action is a decision and is timed with
``time.perf_counter``; calls with a single legal action are forced moves and are not
counted. The figures are the median, the 95th percentile and the slowest decision in
milliseconds (issue 8's bar for the strong bot: median at most 1 s, none over 5 s).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence

from esmakker.bots.base import Bot
from esmakker.bots.registry import make_bot
from esmakker.core.actions import Action
from esmakker.core.rules import RuleSet
from esmakker.core.seats import SEATS
from esmakker.core.view import PlayerView
from esmakker.sim.runner import play_deal


class TimedBot:
    """Wrap a bot and record the seconds each real decision takes."""

    def __init__(self, bot: Bot, times: list[float]) -> None:
        self.bot = bot
        self.name = bot.name
        self.times = times

    def act(self, view: PlayerView) -> Action:
        """Return the wrapped bot's action, timing it when there was a choice."""
        start = time.perf_counter()
        action = self.bot.act(view)
        if len(view.legal_actions) > 1:
            self.times.append(time.perf_counter() - start)
        return action

    def claim_iron(self, view: PlayerView) -> bool:
        """Return the wrapped bot's iron-hand claim (not timed)."""
        return self.bot.claim_iron(view)


def decision_times(name: str, rules: RuleSet, deals: int, seed: int | str) -> list[float]:
    """Return the seconds of every decision of four ``name`` bots over ``deals`` deals."""
    times: list[float] = []
    for number in range(1, deals + 1):
        deal_seed = f"{seed}/{number}"
        bots = [
            TimedBot(make_bot(name, random.Random(f"{deal_seed}/{s}")), times) for s in range(4)
        ]
        play_deal(rules, bots, SEATS[number % 4], random.Random(deal_seed))
    return times


def summary(times: Sequence[float]) -> dict[str, float | int]:
    """Return ``median_ms``, ``p95_ms``, ``max_ms`` and ``decisions`` of a list of seconds."""
    if not times:
        return {"median_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0, "decisions": 0}
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return {
        "median_ms": round(1000 * statistics.median(ordered), 4),
        "p95_ms": round(1000 * p95, 4),
        "max_ms": round(1000 * ordered[-1], 4),
        "decisions": len(ordered),
    }


def bots_bench(
    bots: Sequence[str], deals: int = 50, preset: str = "wikipedia", seed: int | str = 1
) -> dict[str, dict[str, float | int]]:
    """Return per bot name its decision-time figures (see the module text).

    >>> sorted(bots_bench(["random"], deals=1)["random"])
    ['decisions', 'max_ms', 'median_ms', 'p95_ms']

    Raises:
        ValueError: if a bot name is unknown.
    """
    rules = RuleSet.from_preset(preset)
    for name in bots:
        make_bot(name, random.Random(0))  # fail on an unknown name before playing
    return {name: summary(decision_times(name, rules, deals, seed)) for name in bots}
