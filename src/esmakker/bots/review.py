"""The post-deal review: where a seat's choices cost expected points (issue 8).

``review(decisions, rng)`` takes a seat's decisions in a finished deal, each as the
seat's view at the time and the action it took, and searches each one as the strong
bot would: every candidate action meets the same sampled worlds and the same roll-out
players, the taken action among them. A decision is flagged when the best candidate's
mean beats the taken action's by at least ``MIN_UNITS`` base units of the scoring and by more than
``NOISE`` standard errors of the paired, world-by-world differences, so a few worlds'
luck is not called a mistake. Decisions with one legal action are never searched.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from esmakker.bots.sampling import SamplingError
from esmakker.bots.strong import StrongBot
from esmakker.core.actions import Action, format_action
from esmakker.core.phase import Phase
from esmakker.core.view import PlayerView

REVIEW_WORLDS = 6
"""Worlds searched per decision (fewer than a hint's: a deal has many decisions)."""
REVIEW_BUDGET_S = 0.5
"""Seconds one decision's search may take before it stops with the worlds it has."""
MIN_UNITS = 1.0
"""Base units of the table's scoring (10 points in the simple scheme: one overtrick) below
which a choice is not called costly, however sure the search is."""
NOISE = 1.0
"""Standard errors of the paired differences the cost must exceed (as the bot's CONFIDENCE)."""

Decision = tuple[PlayerView, Action]


@dataclass(frozen=True, slots=True)
class Mistake:
    """A decision whose action cost expected points against the best one searched."""

    index: int
    """The decision's place in the sequence given to ``review``."""
    action: Action
    best: Action
    cost: float
    """The best action's mean score minus the taken action's, over the same worlds."""
    trick: int | None
    """The trick (1-13) of a card play or discard in the play; ``None`` before the play."""
    phase: Phase

    def to_json(self) -> dict[str, object]:
        """Return the mistake as JSON-ready data (actions in notation, cost rounded)."""
        return {
            "index": self.index,
            "action": format_action(self.action),
            "best": format_action(self.best),
            "cost": round(self.cost, 1),
            "trick": self.trick,
            "phase": self.phase.value,
        }


class _Reviewer(StrongBot):
    """The strong bot's search with the taken action always among the candidates."""

    def scores(self, view: PlayerView, taken: Action) -> dict[Action, list[float]]:
        """Return each candidate's score per world (the taken action listed first)."""
        search = self._search(view, taken)
        return dict(zip(search.candidates, search.scores, strict=True))


def review(
    decisions: Sequence[Decision],
    rng: random.Random,
    *,
    worlds: int = REVIEW_WORLDS,
    budget_s: float = REVIEW_BUDGET_S,
    min_units: float = MIN_UNITS,
    stop: Callable[[], bool] | None = None,
) -> list[Mistake]:
    """Return the costly decisions in order; ``worst_first`` sorts them by cost.

    ``stop`` is asked before each decision; once it answers true the review ends with the
    mistakes found so far (a screen closed while its review runs).
    """
    reviewer = _Reviewer(rng, worlds=worlds, budget_s=budget_s, search_auction=True)
    mistakes = []
    for index, (view, taken) in enumerate(decisions):
        if stop is not None and stop():
            break
        min_cost = min_units * view.rules.base_unit
        mistake = _judge(reviewer, index, view, taken, min_cost)
        if mistake is not None:
            mistakes.append(mistake)
    return mistakes


def worst_first(mistakes: Sequence[Mistake]) -> list[Mistake]:
    """Return the mistakes by cost, the costliest first (ties: in deal order)."""
    return sorted(mistakes, key=lambda m: (-m.cost, m.index))


def _judge(
    reviewer: _Reviewer, index: int, view: PlayerView, taken: Action, min_cost: float
) -> Mistake | None:
    if len(view.legal_actions) < 2 or taken not in view.legal_actions:
        return None
    try:
        scores = reviewer.scores(view, taken)
    except SamplingError:  # a position the sampler cannot rebuild: no verdict
        return None
    means = {action: statistics.fmean(row) for action, row in scores.items()}
    best = max(means, key=lambda a: means[a])  # ties cost nothing either way
    cost = means[best] - means[taken]
    if cost < min_cost or cost <= NOISE * _paired_error(scores[best], scores[taken]):
        return None
    return Mistake(index, taken, best, cost, _trick(view), view.phase)


def _paired_error(row: list[float], base: list[float]) -> float:
    """Return the standard error of the mean paired difference (0 with a single world)."""
    if len(row) < 2:
        return 0.0
    gains = [a - b for a, b in zip(row, base, strict=True)]
    return statistics.stdev(gains) / math.sqrt(len(gains))


def _trick(view: PlayerView) -> int | None:
    return len(view.tricks) + 1 if view.phase is Phase.PLAY else None
