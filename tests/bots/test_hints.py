"""Hints: the strong bot's suggestion with a one-line reason."""

from __future__ import annotations

import random

import pytest

from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.hints import hint
from esmakker.bots.strong import StrongBot
from esmakker.core.actions import format_action
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import deal
from esmakker.core.view import PlayerView, observe


def test_a_hint_suggests_a_legal_action_and_names_the_alternatives() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(6))
    seat = state.to_act
    assert seat is not None
    view = observe(state, seat)
    suggestion = hint(view, random.Random(1), worlds=1)
    assert suggestion.action in view.legal_actions
    assert suggestion.reason.startswith(f"{format_action(suggestion.action)}: ")
    assert "expected points" in suggestion.reason
    assert "\n" not in suggestion.reason
    assert suggestion.choices[0].action == suggestion.action


def test_a_hint_is_deterministic_for_a_seed() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.W, random.Random(7))
    view = observe(state, Seat.N)
    assert hint(view, random.Random(3), worlds=1) == hint(view, random.Random(3), worlds=1)


def test_no_hint_when_the_seat_has_no_decision() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(6))
    with pytest.raises(ValueError, match="no decision to hint at"):
        hint(observe(state, Seat.S), random.Random(1))  # E is to act


def _first_card(seed: int) -> PlayerView:
    """Return the view of the first seat with a choice of card in a heuristic deal."""
    state = deal(RuleSet.from_preset("wikipedia"), Seat(seed % 4), random.Random(seed))
    bots = [HeuristicBot(random.Random(f"{seed}/{s}")) for s in range(4)]
    while not state.is_terminal:
        seat = state.to_act
        assert seat is not None
        view = observe(state, seat)
        if view.phase is Phase.PLAY and len(view.legal_actions) > 1:
            return view
        state = state.apply(bots[seat].act(view), seat)
    raise AssertionError(f"deal {seed} has no card to choose")


def test_a_hint_suggests_what_the_strong_bot_plays() -> None:
    for seed in (11, 12):
        view = _first_card(seed)
        bot = StrongBot(random.Random(5), worlds=3, budget_s=60, search_auction=True)
        suggestion = hint(view, random.Random(5), worlds=3, budget_s=60)
        assert suggestion.action == bot.act(view)
        assert f"over {suggestion.choices[0].worlds} worlds" in suggestion.reason


def test_a_hint_over_one_world_keeps_the_bots_first_choice_and_says_so() -> None:
    """One world never overrules the first choice: the heuristic's card, early on the models'."""
    noted = 0
    for seed in range(20, 30):
        view = _first_card(seed)
        suggestion = hint(view, random.Random(seed), worlds=1, budget_s=60)
        first = StrongBot(random.Random(0))._learned(view, HeuristicBot(random.Random(0)).act(view))
        assert suggestion.action == first
        assert "over 1 world" in suggestion.reason
        better = max(c.mean_score for c in suggestion.choices) > suggestion.choices[0].mean_score
        assert ("no other choice is clearly better" in suggestion.reason) == better
        noted += better
    assert noted  # some first cards had a better-looking mean in their one world
