"""Worlds dealt independently: uniformly (``sample_world``) or weighted (``sample_weighted``)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Sequence

from esmakker.bots.sampling.deals import Deal, build, candidate, random_deal
from esmakker.bots.sampling.facts import seat_facts
from esmakker.core.errors import EsmakkerError
from esmakker.core.state import State
from esmakker.core.view import PlayerView

World = State
"""A sampled full deal: a ``State`` that search may play forward."""


class SamplingError(EsmakkerError):
    """No world consistent with the view was found within the allowed attempts."""


def no_world(view: PlayerView, within: str) -> SamplingError:
    """Return the error for no world found ``within`` (``in 200 attempts``)."""
    seat = "a spectator" if view.seat is None else view.seat.name
    return SamplingError(
        f"no world consistent with {seat}'s view {within} "
        f"(phase {view.phase.value}, {len(view.steps)} steps)"
    )


def sample_world(view: PlayerView, rng: random.Random, *, attempts: int = 200) -> State:
    """Return a full deal at the view's position that the seat cannot tell from the real one.

    Raises:
        ValueError: for a spectator view.
        SamplingError: if ``attempts`` candidates all break a rule the placement does
            not model.
    """
    facts = seat_facts(view)
    for _ in range(attempts):
        world = candidate(view, facts, rng)
        if world is not None:
            return world
    raise no_world(view, f"in {attempts} attempts")


def sample_worlds(view: PlayerView, rng: random.Random, count: int) -> Iterator[State]:
    """Yield ``count`` worlds sampled independently (see ``sample_world``)."""
    for _ in range(count):
        yield sample_world(view, rng)


Likelihood = Callable[[Sequence[int], Sequence[int]], float]
"""A world's weight from its hands: per seat the hand dealt and every card held in the play."""


def sample_weighted(
    view: PlayerView,
    rng: random.Random,
    count: int,
    likelihood: Likelihood,
    *,
    pool: int,
    attempts: int = 200,
) -> Iterator[State]:
    """Yield ``count`` worlds drawn from ``pool`` candidates in proportion to ``likelihood``.

    Importance resampling: the candidates are dealt as ``sample_world`` deals them, each
    is weighed by ``likelihood`` (positive) on its hands, and ``count`` of them are drawn
    with replacement by systematic resampling, in random order. Only the drawn ones are
    replayed into states; one that breaks a rule the placement does not model is
    replaced by another draw. Every world yielded is consistent with the view.

    Raises:
        ValueError: for a spectator view.
        SamplingError: if no candidate can be built within ``attempts`` tries.
    """
    facts = seat_facts(view)
    deals: list[Deal] = []
    tries = 0
    while len(deals) < max(pool, 1) and tries < pool + attempts:
        tries += 1
        deal = random_deal(view, facts, rng)
        if deal is not None:
            deals.append(deal)
    if not deals:
        raise no_world(view, f"in {tries} attempts")
    weights = [_finite(likelihood(d.initial, d.held)) for d in deals]
    built: dict[int, State] = {}
    failures = 0
    for pick in _resample(weights, count, rng):
        while pick not in built:
            world = build(view, deals[pick], rng) if weights[pick] > 0 else None
            if world is not None:
                built[pick] = world
                break
            weights[pick] = 0.0
            failures += 1
            if failures > attempts or not any(weights):
                raise no_world(view, f"among {len(deals)} candidates")
            pick = rng.choices(range(len(deals)), weights)[0]
        yield built[pick]


def _finite(weight: float) -> float:
    """Return a usable weight: positive and finite, else a tiny one."""
    return weight if 0.0 < weight < math.inf else 1e-300


def _resample(weights: list[float], count: int, rng: random.Random) -> list[int]:
    """Return ``count`` indexes drawn by systematic resampling, shuffled."""
    if not weights or count < 1:
        return []
    total = sum(weights)
    step = total / count
    point = rng.random() * step
    picks: list[int] = []
    cumulative = 0.0
    index = 0
    for _ in range(count):
        while index < len(weights) - 1 and cumulative + weights[index] <= point:
            cumulative += weights[index]
            index += 1
        picks.append(index)
        point += step
    rng.shuffle(picks)
    return picks
