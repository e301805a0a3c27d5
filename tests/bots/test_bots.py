"""Bots: the random bot and the registry."""

from __future__ import annotations

import random

import pytest

from esmakker.bots import BOT_NAMES, Bot, RandomBot, make_bot
from esmakker.core.actions import IRON
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import deal
from esmakker.core.view import observe


def test_random_bot_picks_a_legal_action_from_the_view() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(1))
    bot = RandomBot(random.Random(2))
    while not state.is_terminal:
        seat = state.to_act
        assert seat is not None
        view = observe(state, seat)
        action = bot.act(view)
        assert action in view.legal_actions
        state = state.apply(action, seat)


def test_random_bot_is_deterministic_given_its_rng() -> None:
    view = observe(deal(RuleSet.from_preset("tanya"), Seat.S, random.Random(3)), Seat.W)
    first = [RandomBot(random.Random(9)).act(view) for _ in range(3)]
    assert first == [RandomBot(random.Random(9)).act(view) for _ in range(3)]
    claims = [RandomBot(random.Random(s)).claim_iron(view) for s in range(200)]
    assert 60 < sum(claims) < 140  # about half


def test_random_bot_claims_iron_half_the_time_when_it_is_to_act() -> None:
    rules = RuleSet.from_preset("hilmarshelte")
    for seed in range(20000):
        state = deal(rules, Seat.N, random.Random(seed))
        if IRON in state.legal_actions():
            break
    else:
        pytest.fail("no deal gives forehand an iron hand")
    view = observe(state, Seat.E)
    choices = [RandomBot(random.Random(s)).act(view) for s in range(200)]
    assert 60 < choices.count(IRON) < 140
    assert all(choice in view.legal_actions for choice in choices)


def test_random_bot_refuses_a_view_without_actions() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(1))
    with pytest.raises(ValueError, match="no legal action"):
        RandomBot(random.Random(0)).act(observe(state, Seat.S))  # E is to act


def test_registry() -> None:
    assert BOT_NAMES == ("random", "heuristic", "beginner", "strong", "strong-bidder")
    bot: Bot = make_bot("random", random.Random(0))
    assert bot.name == "random"
    assert make_bot("heuristic", random.Random(0)).name == "heuristic"
    assert make_bot(" Beginner ", random.Random(0)).name == "beginner"
    with pytest.raises(
        ValueError,
        match=r"^unknown bot 'clever' \(known bots: random, heuristic, beginner, strong, strong-bidder\)$",
    ):
        make_bot("clever", random.Random(0))


def test_protocol_default_never_claims_iron() -> None:
    class Passive(Bot):
        name = "passive"

        def act(self, view: object) -> object:  # type: ignore[override]
            raise NotImplementedError

    view = observe(deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(1)), Seat.E)
    assert Passive().claim_iron(view) is False
