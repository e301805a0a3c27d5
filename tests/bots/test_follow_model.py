"""The learned early-follow model: its features, its choice and its place in the strong bot."""

from __future__ import annotations

import random

from esmakker.bots.follow_model import FollowModel, default_model, follow_features
from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.knowledge import FOE, FRIEND, UNKNOWN, Knowledge
from esmakker.bots.lead_model import Tree
from esmakker.bots.strong import FOLLOW_MODEL_TRICKS, LEARNED_TRICKS, StrongBot
from esmakker.core.actions import Play
from esmakker.core.phase import Phase
from esmakker.core.play import trick_winner
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import deal
from esmakker.core.view import PlayerView, observe


def _follow(seed: int, place: int, tricks: int = 0) -> PlayerView:
    """Return a view at the ``place``-th card (1-3) of a trick after ``tricks`` tricks, two legal
    cards or more, in a number contract."""
    for number in range(seed, seed + 100):
        state = deal(RuleSet.from_preset("wikipedia"), Seat(number % 4), random.Random(number))
        bots = [HeuristicBot(random.Random(f"{number}/{s}")) for s in range(4)]
        while not state.is_terminal and (
            len(state.tricks) < tricks or len(state.current_trick) < place
        ):
            seat = state.to_act
            assert seat is not None
            state = state.apply(bots[seat].act(observe(state, seat)), seat)
        if state.is_terminal or state.phase is not Phase.PLAY:
            continue
        seat = state.to_act
        assert seat is not None
        view = observe(state, seat)
        contract = view.contract
        if contract is not None and not contract.bid.is_nolo and len(view.legal_actions) > 1:
            return view
    raise AssertionError("no such follow dealt")


def _legal(view: PlayerView) -> list[int]:
    return [int(a.card) for a in view.legal_actions if isinstance(a, Play)]


def _stump(feature: int, threshold: float, low: float, high: float) -> Tree:
    return Tree((feature, 0, 0), (threshold, 0.0, 0.0), (1, -1, -1), (2, -1, -1), (0.0, low, high))


def test_follow_features_read_the_trick_on_the_table() -> None:
    for place in (1, 2, 3):
        view = _follow(place * 10, place)
        k = Knowledge.of(view)
        legal = _legal(view)
        trick = [int(c) for c in view.trick]
        for card in legal:
            features = follow_features(k, view, card, legal[0], legal)
            assert features["place"] == place
            assert features["after"] == 3 - place
            assert features["foes_after"] + features["friends_after"] + features[
                "unknown_after"
            ] == (3 - place)
            wins = trick_winner([*trick, card], k.trump, k.aces_low, k.rules) == len(trick)
            assert features["wins_now"] == wins
            assert features["heur"] == (card == legal[0])
            assert features["winner_team"] in (FRIEND, FOE, UNKNOWN)
        lowest = [c for c in legal if follow_features(k, view, c, legal[0], legal)["lowest_legal"]]
        assert len(lowest) == 1


def test_the_model_plays_the_card_of_least_predicted_cost_and_keeps_the_heuristics_among_equals() -> (
    None
):
    view = _follow(1, 1)
    k = Knowledge.of(view)
    legal = _legal(view)
    names = ("lowest_legal",)
    prefer_lowest = FollowModel(names, 0.0, (_stump(0, 0.5, 0.0, -1.0),))
    chosen = prefer_lowest.follow(view, k, legal, legal[-1])
    assert follow_features(k, view, chosen, legal[-1], legal)["lowest_legal"]
    flat = FollowModel(names, 0.0, ())
    assert flat.follow(view, k, legal, legal[-1]) == legal[-1]


def test_the_strong_bot_follows_with_the_models_card_where_its_search_finds_none_better() -> None:
    view = _follow(3, 2)
    heuristic = HeuristicBot(random.Random(0)).act(view)
    assert isinstance(heuristic, Play)
    bot = StrongBot(random.Random(1), worlds=1, budget_s=60)
    bot.follow_model = FollowModel(("heur",), 0.0, (_stump(0, 0.5, 0.0, 1.0),))  # avoid it
    decision = bot.decide(view)
    assert decision.action != heuristic  # one world never leaves the default
    assert isinstance(decision.action, Play)
    assert int(decision.action.card) in _legal(view)
    bot.follow_model = None
    assert bot.decide(view).action == heuristic
    assert StrongBot(random.Random(1), follow_model=False).follow_model is None


def test_the_follow_model_leaves_the_later_tricks_to_the_search() -> None:
    avoid_heuristic = FollowModel(("heur",), 0.0, (_stump(0, 0.5, 0.0, 1.0),))
    bot = StrongBot(random.Random(1), worlds=1, budget_s=60)
    bot.follow_model = avoid_heuristic
    early = _follow(7, 1, tricks=13 - FOLLOW_MODEL_TRICKS)
    late = _follow(7, 1, tricks=14 - FOLLOW_MODEL_TRICKS)
    assert len(early.tricks) == 13 - FOLLOW_MODEL_TRICKS
    assert len(late.tricks) == 14 - FOLLOW_MODEL_TRICKS
    for view, learned in ((early, True), (late, False)):
        heuristic = HeuristicBot(random.Random(0)).act(view)
        assert (bot._learned(view, heuristic) != heuristic) == learned


def test_the_shipped_model_predicts_with_every_feature_it_names() -> None:
    model = default_model()
    assert model is not None
    view = _follow(5, 3)
    k = Knowledge.of(view)
    legal = _legal(view)
    features = follow_features(k, view, legal[0], legal[0], legal)
    assert set(model.features) <= set(features)
    assert LEARNED_TRICKS == 10
    assert -1.0 < model.cost(features) < 13.0
    assert model.follow(view, k, legal, legal[0]) in legal
