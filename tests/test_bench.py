"""The engine benchmark: its figures, and that its fast loop plays real deals."""

from __future__ import annotations

import random

import pytest

from esmakker.bench import _fast_deal, _public_deal, engine_bench
from esmakker.core.cards import CardSet
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.rules import RuleSet
from esmakker.core.seats import SEATS
from esmakker.core.state import State


def test_engine_bench_reports_deals_per_second_both_ways() -> None:
    figures = engine_bench(seconds=0.05, preset="tanya", seed=3)
    assert set(figures) == {"deals_per_second", "fast_deals_per_second"}
    assert all(value > 0 for value in figures.values())


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_fast_loop_plays_deals_the_public_api_accepts(preset: str) -> None:
    ruleset = RuleSet.from_preset(preset)
    rng = random.Random(preset)
    for number in range(20):
        engine = _fast_deal(ruleset, number % 4, rng)
        assert engine.is_terminal
        state = State.new(
            ruleset, SEATS[engine.dealer], [CardSet(m) for m in engine.dealt], engine.kitty_order
        )
        for seat, action in engine.log:
            state = state.apply(action, SEATS[seat])
        result = state.result()
        assert result is not None
        assert result.scores == engine.scores


def test_the_public_loop_plays_to_the_end() -> None:
    state = _public_deal(RuleSet.from_preset("osterbro"), 2, random.Random(5))
    assert state.is_terminal
    assert state.dealer is SEATS[2]
