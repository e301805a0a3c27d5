"""Engine benchmark: random full deals per second, public API and fast path.

``esmakker bench engine`` calls ``engine_bench``. Both loops play whole deals
(deal to score) choosing uniformly at random among the legal actions of the
seat to act (out-of-turn iron claims are never chosen), single process:

- ``deals_per_second``: the public immutable API, ``deal()`` then
  ``state.apply(rng.choice(state.legal_actions()))`` until the deal is over;
- ``fast_deals_per_second``: the engine fast path, ``Engine`` built from masks,
  ``legal_actions`` + ``apply_unchecked`` outside the play and
  ``trickplay.legal_mask`` + ``play_card`` in it.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from esmakker.core import trickplay
from esmakker.core.cards import CARDS
from esmakker.core.engine import Engine
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import SEATS
from esmakker.core.state import State, deal


def engine_bench(
    seconds: float = 5.0, preset: str = "wikipedia", seed: int = 1
) -> dict[str, float]:
    """Play random deals for about ``seconds`` each way; return the best deals per second.

    >>> sorted(engine_bench(seconds=0.05))
    ['deals_per_second', 'fast_deals_per_second']
    """
    rules = RuleSet.from_preset(preset)
    return {
        "deals_per_second": _rate(_public_deal, rules, seconds, seed),
        "fast_deals_per_second": _rate(_fast_deal, rules, seconds, seed),
    }


def _rate(
    play_deal: Callable[[RuleSet, int, random.Random], object],
    rules: RuleSet,
    seconds: float,
    seed: int,
    repeats: int = 5,
) -> float:
    """Return deals per second: the best of ``repeats`` timings of the same deals.

    A first run sizes the workload to about ``seconds / repeats``; then the same
    seeded deals are played ``repeats`` times and the fastest run counts, as
    ``timeit`` does, since other work on the machine can only slow a run down.
    """
    count = _count_within(play_deal, rules, seconds / repeats, seed)
    best = min(_time_deals(play_deal, rules, count, seed) for _ in range(repeats))
    return count / best


def _count_within(
    play_deal: Callable[[RuleSet, int, random.Random], object],
    rules: RuleSet,
    seconds: float,
    seed: int,
) -> int:
    rng = random.Random(seed)
    deadline = time.perf_counter() + seconds
    count = 0
    while True:
        play_deal(rules, count & 3, rng)
        count += 1
        if time.perf_counter() >= deadline:
            return count


def _time_deals(
    play_deal: Callable[[RuleSet, int, random.Random], object],
    rules: RuleSet,
    count: int,
    seed: int,
) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for number in range(count):
        play_deal(rules, number & 3, rng)
    return time.perf_counter() - start


def _public_deal(rules: RuleSet, dealer: int, rng: random.Random) -> State:
    """Play one random deal through the immutable ``State``; return the final state."""
    state = deal(rules, SEATS[dealer], rng)
    while not state.is_terminal:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def _fast_deal(rules: RuleSet, dealer: int, rng: random.Random) -> Engine:
    """Play one random deal on a bare ``Engine`` (the fast path); return the engine."""
    engine = _fast_new(rules, dealer, rng)
    random_bits = rng.getrandbits  # random_bits(30) % n: uniform in range(n), bias < n / 2**30
    while engine.phase is not _PLAY:
        if engine.phase is _DONE:
            return engine
        actions = engine.legal_actions()
        engine.apply_unchecked(engine.to_act, actions[random_bits(30) % len(actions)])
    _fast_play(engine, random_bits)
    return engine


def _fast_play(engine: Engine, random_bits: Callable[[int], int]) -> None:
    """Play the cards to the end: ``legal_mask``, a random legal card, ``play_card``.

    The card played is the ``index``-th lowest of the ``count`` legal cards: the
    loop drops the cards below it or those above it, whichever are fewer, and
    the highest card left is played.
    """
    legal_mask, play_card = trickplay.legal_mask, engine.play_card
    while engine.phase is _PLAY:
        mask = legal_mask(engine)
        count = mask.bit_count()
        if count > 1:
            index = random_bits(30) % count
            if 2 * index < count:
                while index:  # drop the lowest card
                    mask &= mask - 1
                    index -= 1
                mask &= -mask  # keep the lowest card left
            else:
                index = count - 1 - index
                while index:  # drop the highest card
                    mask ^= 1 << (mask.bit_length() - 1)
                    index -= 1
        play_card(mask.bit_length() - 1)


def _fast_new(rules: RuleSet, dealer: int, rng: random.Random) -> Engine:
    """Deal with masks only: the deck sorted by random keys, 13 cards to each seat."""
    random_float = rng.random
    order = sorted(range(52 + rules.num_jokers), key=lambda _: random_float())
    bit = _BITS.__getitem__
    hands = [sum(map(bit, order[start : start + 13])) for start in (0, 13, 26, 39)]
    return Engine.new(rules, dealer, hands, tuple(CARDS[c] for c in order[52:]))


_BITS = tuple(1 << card for card in CARDS)
_PLAY, _DONE = Phase.PLAY, Phase.DONE


def print_figures(figures: dict[str, Any], *, as_json: bool) -> None:
    """Print a benchmark's figures: one JSON object, or one ``key: value`` line each."""
    if as_json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key}: {value}")
