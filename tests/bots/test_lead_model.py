"""The learned early-lead model: its features, its trees and its place in the strong bot."""

from __future__ import annotations

import random

import pytest

from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.knowledge import Knowledge
from esmakker.bots.lead_model import LeadModel, Tree, card_features, default_model
from esmakker.bots.strong import LEARNED_TRICKS, StrongBot
from esmakker.core.actions import Play
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State, deal
from esmakker.core.view import PlayerView, observe


def _first_lead(seed: int) -> tuple[State, PlayerView]:
    """Return the opening lead of a heuristic deal of a number contract."""
    for number in range(seed, seed + 50):
        state = deal(RuleSet.from_preset("wikipedia"), Seat(number % 4), random.Random(number))
        bots = [HeuristicBot(random.Random(f"{number}/{s}")) for s in range(4)]
        while state.phase is not Phase.PLAY and not state.is_terminal:
            seat = state.to_act
            assert seat is not None
            state = state.apply(bots[seat].act(observe(state, seat)), seat)
        if state.is_terminal:
            continue
        seat = state.to_act
        assert seat is not None
        view = observe(state, seat)
        if view.contract is not None and not view.contract.bid.is_nolo:
            return state, view
    raise AssertionError("no number contract dealt")


def _stump(feature: int, threshold: float, low: float, high: float) -> Tree:
    return Tree((feature, 0, 0), (threshold, 0.0, 0.0), (1, -1, -1), (2, -1, -1), (0.0, low, high))


def test_a_tree_sends_a_row_left_up_to_its_threshold() -> None:
    tree = _stump(0, 2.5, -1.0, 1.0)
    assert tree.leaf_value([2.0]) == -1.0
    assert tree.leaf_value([2.5]) == -1.0
    assert tree.leaf_value([3.0]) == 1.0


def test_a_cards_predicted_cost_is_the_baseline_plus_a_leaf_of_each_tree() -> None:
    model = LeadModel(("rank", "joker"), 0.5, (_stump(0, 5.5, 0.0, 0.25), _stump(1, 0.5, 0.0, 1.0)))
    assert model.cost({"rank": 12, "joker": 0}) == pytest.approx(0.75)
    assert model.cost({"rank": 3, "joker": 1}) == pytest.approx(1.5)


def test_the_exported_form_loads_as_the_same_trees() -> None:
    data: dict[str, object] = {
        "features": ["rank"],
        "baseline": 0.1,
        "trees": [
            {
                "feature": [0, 0, 0],
                "threshold": [5.5, 0, 0],
                "left": [1, -1, -1],
                "right": [2, -1, -1],
                "value": [0, -0.5, 0.5],
            }
        ],
    }
    model = LeadModel.from_json(data)
    assert model.trees == (_stump(0, 5.5, -0.5, 0.5),)
    assert model.cost({"rank": 9}) == pytest.approx(0.6)


def test_card_features_read_the_card_and_the_leaders_place() -> None:
    _, view = _first_lead(1)
    k = Knowledge.of(view)
    card = max(int(c) for c in view.hand if int(c) < 52)
    features = card_features(k, view, card, card)
    assert features["heur"] == 1
    assert features["left"] == 13
    assert features["joker"] == 0
    assert features["rank"] == card % 13
    assert features["slen"] == sum(1 for c in view.hand if int(c) // 13 == card // 13)
    assert features["decl"] + features["part"] + features["def"] == 1


def test_the_model_leads_the_card_of_least_predicted_cost_and_keeps_the_heuristics_among_equals() -> (
    None
):
    _, view = _first_lead(1)
    k = Knowledge.of(view)
    legal = [int(a.card) for a in view.legal_actions if isinstance(a, Play)]
    low = min(legal, key=lambda c: (c >= 52, c % 13, c))
    prefer_low = LeadModel(("rank",), 0.0, (_stump(0, low % 13 + 0.5, -1.0, 0.0),))
    if low < 52:
        assert prefer_low.lead(view, k, legal, max(legal)) % 13 == low % 13
    flat = LeadModel(("rank",), 0.0, ())
    assert flat.lead(view, k, legal, legal[-1]) == legal[-1]


def test_the_strong_bot_leads_the_models_card_where_its_search_finds_none_clearly_better() -> None:
    _, view = _first_lead(1)
    legal = [int(a.card) for a in view.legal_actions if isinstance(a, Play)]
    heuristic = HeuristicBot(random.Random(0)).act(view)
    assert isinstance(heuristic, Play)
    other = next(c for c in legal if c != int(heuristic.card))
    bot = StrongBot(random.Random(1), worlds=1, budget_s=60)
    bot.lead_model = LeadModel(("heur",), 0.0, (_stump(0, 0.5, 0.0, 1.0),))  # avoid the heuristic's
    decision = bot.decide(view)
    assert decision.action != heuristic  # one world never leaves the default
    assert isinstance(decision.action, Play)
    assert int(decision.action.card) in legal
    bot.lead_model = None
    assert bot.decide(view).action == heuristic
    assert other in legal


def test_the_shipped_model_predicts_with_every_feature_it_names() -> None:
    model = default_model()
    assert model is not None
    _, view = _first_lead(1)
    k = Knowledge.of(view)
    card = int(next(iter(view.hand)))
    features = card_features(k, view, card, card)
    assert set(model.features) <= set(features)
    assert LEARNED_TRICKS == 10
    assert -1.0 < model.cost(features) < 13.0
