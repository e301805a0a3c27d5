"""Hints: the strong bot's suggestion with a one-line reason."""

from __future__ import annotations

import random

import pytest

from esmakker.bots.hints import hint
from esmakker.core.actions import format_action
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import deal
from esmakker.core.view import observe


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
