"""Duplicate matches of the strong bot against three heuristic bots: legal, zero-sum, repeatable."""

from __future__ import annotations

import random

import pytest

from esmakker.bots import registry
from esmakker.bots.base import Bot
from esmakker.bots.strong import StrongBot
from esmakker.core.rules import RuleSet
from esmakker.sim.duplicate import PLAYED, DuplicateDeal, play_duplicate

BOTS = ("strong", "heuristic", "heuristic", "heuristic")
WP = RuleSet.from_preset("wikipedia")


def _small_strong(rng: random.Random) -> Bot:
    """One world and no time limit: a search that a loaded machine cannot cut short."""
    return StrongBot(rng, worlds=1, budget_s=1e9)


def _check(deal: DuplicateDeal) -> None:
    assert len(deal.hands) == 4
    for hand in deal.hands:
        assert sum(hand.points) == 0
        assert hand.outcome != PLAYED or hand.contract is not None


def test_a_short_duplicate_match_is_legal_zero_sum_and_repeatable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(registry._FACTORIES, "strong", _small_strong)
    first = play_duplicate(WP, BOTS, 11, 1, records=True)  # BotFailure on an illegal action
    _check(first)
    again = play_duplicate(WP, BOTS, 11, 1, records=True)
    assert again == first


@pytest.mark.slow
def test_a_longer_duplicate_match_at_the_default_budget_is_legal_and_zero_sum() -> None:
    for number in (1, 2):
        _check(play_duplicate(WP, BOTS, 5, number))
