"""The search player: legal, deterministic, ranking its choices by mean score."""

from __future__ import annotations

import itertools
import random

import pytest

from esmakker.bots import endgame
from esmakker.bots import strong as strong_module
from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.registry import make_bot
from esmakker.bots.sampling import SamplingError, sample_world
from esmakker.bots.strong import StrongBot, _best_mean
from esmakker.core.actions import PASS, Bid, Play
from esmakker.core.cards import Card
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State, deal
from esmakker.core.view import observe
from esmakker.solver.jit import HAVE_NUMBA
from esmakker.solver.solve import SolverGaveUpError


def _play(preset: str, seed: int, strong: StrongBot) -> State:
    state = deal(RuleSet.from_preset(preset), Seat(seed % 4), random.Random(seed))
    others = [make_bot("heuristic", random.Random(f"{seed}/{s}")) for s in range(4)]
    while not state.is_terminal:
        seat = state.to_act
        assert seat is not None
        view = observe(state, seat)
        action = strong.act(view) if seat is Seat.S else others[seat].act(view)
        assert action in view.legal_actions
        state = state.apply(action, seat)
    return state


@pytest.mark.parametrize("preset", ["wikipedia", "hilmarshelte", "tanya"])
def test_the_strong_bot_plays_only_legal_actions(preset: str) -> None:
    assert _play(preset, 1, StrongBot(random.Random(1), worlds=1)).is_terminal


def test_the_strong_bot_is_deterministic_given_its_generator() -> None:
    first = _play("wikipedia", 3, StrongBot(random.Random(1), worlds=2, budget_s=60))
    second = _play("wikipedia", 3, StrongBot(random.Random(1), worlds=2, budget_s=60))
    assert first.history == second.history


def test_choices_rank_every_legal_action_by_mean_score() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(8))
    bots = [make_bot("heuristic", random.Random(s)) for s in range(4)]
    strong = StrongBot(random.Random(2), worlds=3, budget_s=60)
    checked = 0
    while not state.is_terminal and checked < 3:
        seat = state.to_act
        assert seat is not None
        view = observe(state, seat)
        if state.phase is Phase.PLAY and len(view.legal_actions) > 1:
            choices = strong.choices(view)
            assert len(choices) == len(view.legal_actions)
            assert {c.action for c in choices} == set(view.legal_actions)
            means = [c.mean_score for c in choices]
            assert means == sorted(means, reverse=True)
            assert all(c.worlds == 3 for c in choices)
            checked += 1
        state = state.apply(bots[seat].act(view), seat)
    assert checked == 3


def test_the_strong_bot_is_registered_and_needs_a_world() -> None:
    assert make_bot("strong", random.Random(0)).name == "strong"
    with pytest.raises(ValueError, match="worlds must be at least 1"):
        StrongBot(random.Random(0), worlds=0)


def test_the_auction_search_tries_the_heuristics_call_and_passing() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(4))
    seat = state.to_act
    assert seat is not None
    state = state.apply(make_bot("heuristic", random.Random(0)).act(observe(state, seat)), seat)
    seat = state.to_act
    assert seat is not None
    view = observe(state, seat)
    bot = StrongBot(random.Random(5), worlds=1, search_auction=True)
    choices = bot.choices(view)
    actions = [c.action for c in choices]
    assert set(actions) <= set(view.legal_actions)
    assert HeuristicBot(random.Random(5)).act(view) in actions
    assert PASS in actions
    assert len(actions) <= 1 + len([a for a in view.legal_actions if not isinstance(a, Bid)]) + 3
    assert bot.act(view) in view.legal_actions


def test_the_strong_bot_falls_back_to_the_heuristic_when_no_world_is_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_world(view: object, rng: object) -> None:
        raise SamplingError("none")

    monkeypatch.setattr("esmakker.bots.strong.sample_world", no_world)
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(8))
    bots = [make_bot("heuristic", random.Random(s)) for s in range(4)]
    while state.phase is not Phase.PLAY or len(state.legal_actions()) < 2:
        seat = state.to_act
        assert seat is not None
        state = state.apply(bots[seat].act(observe(state, seat)), seat)
    view = observe(state, state.to_act)
    expected = HeuristicBot(random.Random(3)).act(view)
    assert StrongBot(random.Random(3), lead_model=False).act(view) == expected


def test_with_every_world_solved_the_best_mean_is_played() -> None:
    a, b, c = (Play(Card.parse(name)) for name in ("H2", "H3", "H4"))
    cands = (a, b, c)
    assert _best_mean(cands, [[1, 1], [1, 2], [0, 2]], a) == b  # best in every world
    assert _best_mean(cands, [[3, 0], [0, 2], [1, 1]], c) == a  # best on average only
    assert _best_mean(cands, [[1, 2], [1, 2], [0, 2]], c) == a  # the first of two best
    assert _best_mean(cands, [[1, 2], [2, 1], [0, 2]], b) == b  # the default among them
    assert _best_mean(cands, [[1, 1], [1, 1], [1, 1]], c) == c  # no difference anywhere


@pytest.mark.skipif(not HAVE_NUMBA, reason="the compiled kernel needs numba")
def test_the_bot_takes_the_compiled_ending_once_the_kernel_is_compiled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for module in (endgame, strong_module):
        monkeypatch.setattr(module, "warm_up", lambda: False)
    bot = StrongBot(random.Random(0), compiled_solver=True)
    never = StrongBot(random.Random(0), compiled_solver=False)
    by_default = StrongBot(random.Random(0))  # endgame.COMPILED is off in the tests
    assert not bot._current_ending().solver.compiled
    for module in (endgame, strong_module):
        monkeypatch.setattr(module, "warm_up", lambda: True)
    assert bot._current_ending().solver.compiled
    assert bot._current_ending().tricks == endgame.DD_TRICKS_COMPILED
    assert not never._current_ending().solver.compiled
    assert not by_default._current_ending().solver.compiled
    monkeypatch.setattr(endgame, "COMPILED", True)
    assert by_default._current_ending().solver.compiled


def _play_view_with(tricks_left: int) -> tuple[State, Seat]:
    """Play heuristic cards until a seat with a choice has at most ``tricks_left`` left."""
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(8))
    bots = [make_bot("heuristic", random.Random(s)) for s in range(4)]
    while True:
        seat = state.to_act
        assert seat is not None
        playing = state.phase is Phase.PLAY and len(state.legal_actions()) > 1
        if playing and 13 - len(state.tricks) <= tricks_left:
            return state, seat
        state = state.apply(bots[seat].act(observe(state, seat)), seat)


@pytest.mark.parametrize(("tricks_left", "noisy_played"), [(13, False), (9, True)])
def test_a_solved_search_plays_its_best_mean_only_in_the_trusted_endings(
    monkeypatch: pytest.MonkeyPatch, tricks_left: int, noisy_played: bool
) -> None:
    """Before ``MEAN_TRICKS`` a card must beat the heuristic's by ``CONFIDENCE`` errors."""
    state, seat = _play_view_with(tricks_left)
    view = observe(state, seat)
    assert (13 - len(view.tricks) <= strong_module.MEAN_TRICKS) == noisy_played
    bot = StrongBot(random.Random(3), lead_model=False)
    default = HeuristicBot(random.Random(3)).act(view)
    other = next(a for a in view.legal_actions if a != default)
    candidates = (default, other)

    def search_with(rows: list[list[float]]) -> object:
        return lambda view, default: strong_module.Search(candidates, rows, rows)

    noisy = [[0.0, 0.0, 0.0, 0.0], [3.0, -2.0, 0.5, 0.0]]  # better on average, by < 1 error
    monkeypatch.setattr(bot, "_search", search_with(noisy))
    assert bot.act(view) == (other if noisy_played else default)
    clear = [[0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 2.0, 1.0]]  # better in every world
    monkeypatch.setattr(bot, "_search", search_with(clear))
    assert bot.act(view) == other


def test_a_decision_solves_each_set_of_hands_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cycled chain worlds are valued again from the first solve, each repeat counted."""
    state, seat = _play_view_with(endgame.DD_TRICKS)
    view = observe(state, seat)
    rng = random.Random(4)
    first, second = sample_world(view, rng), sample_world(view, rng)
    assert [h.mask for h in first.hands] != [h.mask for h in second.hands]
    bot = StrongBot(random.Random(3), worlds=6, budget_s=60, chain=False)
    monkeypatch.setattr(bot, "_worlds", lambda *_: itertools.cycle([first, second]))
    solved: list[State] = []
    solve = bot._solved

    def counting(world: State, *args: object) -> list[float] | None:
        solved.append(world)
        return solve(world, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(bot, "_solved", counting)
    search = bot._search(view, HeuristicBot(random.Random(3)).act(view))
    assert solved == [first, second]
    assert search.solved is not None
    for row in search.solved:
        assert len(row) == 6
        assert row[0::2] == [row[0]] * 3  # the first world's values, three times
        assert row[1::2] == [row[1]] * 3


def test_an_ending_the_solver_gave_up_on_is_not_tried_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state, seat = _play_view_with(6)
    view = observe(state, seat)
    world = sample_world(view, random.Random(4))
    bot = StrongBot(random.Random(3), worlds=4, budget_s=60, chain=False)
    monkeypatch.setattr(bot, "_worlds", lambda *_: itertools.repeat(world))
    tries: list[State] = []

    def giving_up(world: State, *_: object) -> list[float] | None:
        tries.append(world)
        raise SolverGaveUpError("too many nodes")

    monkeypatch.setattr(bot, "_solved", giving_up)
    search = bot._search(view, HeuristicBot(random.Random(3)).act(view))
    assert tries == [world]
    assert search.solved is None  # the last world is rolled out instead
    assert all(len(row) == 1 for row in search.scores)
