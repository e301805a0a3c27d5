"""Double-dummy endings: the solver's trick counts turned into the seat's score."""

from __future__ import annotations

import random

import pytest

from esmakker.bots import endgame
from esmakker.bots.endgame import (
    DD_TRICKS,
    DD_TRICKS_COMPILED,
    ROLLOUT_TRICKS,
    ROLLOUT_TRICKS_COMPILED,
    TRICK_TIE,
    WORLD_NODE_LIMIT_COMPILED,
    Ending,
    SolverGaveUpError,
    capped_card_scores,
    card_scores,
    new_ending,
    position_score,
    score_for,
    solvable,
)
from esmakker.bots.heuristic import HeuristicBot
from esmakker.core.actions import Play
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State, deal
from esmakker.core.view import observe
from esmakker.solver.jit import HAVE_NUMBA
from esmakker.solver.position import from_state

PRESETS = ["wikipedia", "kortdrengene", "hilmarshelte", "tanya"]


def _played(preset: str, seed: int, stop: int | None = None) -> State:
    """Play a deal by heuristic bots to its end, or until ``stop`` tricks are left."""
    state = deal(RuleSet.from_preset(preset), Seat(seed % 4), random.Random(seed))
    bots = [HeuristicBot(random.Random(f"{seed}/{s}")) for s in range(4)]
    while not state.is_terminal:
        if stop is not None and solvable(state, stop) and len(state.legal_actions()) > 1:
            break
        seat = state.to_act
        assert seat is not None
        state = state.apply(bots[seat].act(observe(state, seat)), seat)
    return state


@pytest.mark.parametrize("preset", PRESETS)
def test_a_final_trick_count_is_scored_as_the_engine_scores_the_deal(preset: str) -> None:
    checked = 0
    for seed in range(12):
        state = _played(preset, seed)
        result = state.result()
        assert result is not None
        if result.contract is None:
            continue  # a redeal: nothing played
        outcome = state.engine.deal_outcome()
        for seat in range(4):
            score = score_for(outcome, result.declarer_side_tricks, state, seat)
            assert score == result.scores[seat]
        checked += 1
    assert checked >= 6


def _best_play(state: State, declarer: int, side: frozenset[int]) -> tuple[int, ...]:
    """Return the final scores when the declarer's side plays for his score and the rest against.

    Plain minimax on the engine: a check of the solver's count and of its scoring.
    """
    result = state.result()
    if result is not None:
        return result.scores
    seat = state.to_act
    assert seat is not None
    ends = [_best_play(state.apply(a, seat), declarer, side) for a in state.legal_actions()]
    pick = max if int(seat) in side else min
    return pick(ends, key=lambda scores: scores[declarer])


@pytest.mark.parametrize("preset", PRESETS)
def test_in_a_two_trick_ending_each_cards_score_is_that_of_best_play(preset: str) -> None:
    checked = 0
    for seed in range(10):
        state = _played(preset, seed, stop=2)
        if state.is_terminal:
            continue
        seat = state.to_act
        assert seat is not None
        engine = state.engine
        assert engine.bid is not None
        if engine.bid.is_nolo:
            side = frozenset({engine.declarer})
        else:
            side = frozenset({engine.declarer, engine.partner} - {-1})
        scores = card_scores(state, int(seat), new_ending().solver)
        for card, score in scores.items():
            best = _best_play(state.apply(Play(card), seat), engine.declarer, side)
            assert score == pytest.approx(best[seat], abs=0.1), card  # the tie-break aside
        checked += 1
    assert checked >= 3


def test_endings_are_solved_only_late_in_the_play() -> None:
    state = _played("wikipedia", 3, stop=5)
    assert solvable(state, 5)
    assert not solvable(state, 4)
    assert not solvable(deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(0)), 13)


def test_the_seat_to_play_is_the_seat_scored() -> None:
    state = _played("wikipedia", 3, stop=5)
    seat = state.to_act
    assert seat is not None
    with pytest.raises(ValueError, match="is not to play"):
        card_scores(state, (int(seat) + 1) % 4, new_ending().solver)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_positions_score_is_the_score_of_the_card_played_into_it(preset: str) -> None:
    checked = 0
    for seed in range(6):
        state = _played(preset, seed, stop=3)
        if state.is_terminal:
            continue
        seat = state.to_act
        assert seat is not None
        solver = new_ending().solver
        for card, score in card_scores(state, int(seat), solver).items():
            assert position_score(state.apply(Play(card), seat), int(seat), solver) == score
        checked += 1
    assert checked >= 3


def test_equal_scores_are_told_apart_by_the_tricks_of_the_seats_side_of_the_count() -> None:
    checked = 0
    for seed in range(12):
        state = _played("wikipedia", seed, stop=4)
        if state.is_terminal or state.engine.bid is None or state.engine.bid.is_nolo:
            continue
        seat = state.to_act
        assert seat is not None
        solver = new_ending().solver
        pos = from_state(state)
        tricks = solver.card_values(pos)
        sign = 1 if pos.side >> int(seat) & 1 else -1  # the declarer's side wants tricks
        for card, score in card_scores(state, int(seat), solver).items():
            assert score - round(score) == pytest.approx(sign * TRICK_TIE * tricks[int(card)])
        checked += 1
    assert checked >= 4


def test_the_compiled_ending_is_handed_out_once_the_kernel_is_compiled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(endgame, "warm_up", lambda: False)
    plain = new_ending(compiled=True)
    assert not plain.solver.compiled
    assert (plain.tricks, plain.rollout_tricks) == (DD_TRICKS, ROLLOUT_TRICKS)
    if not HAVE_NUMBA:
        return
    monkeypatch.setattr(endgame, "warm_up", lambda: True)
    compiled = new_ending(compiled=True)
    assert compiled.solver.compiled
    assert (compiled.tricks, compiled.rollout_tricks) == (
        DD_TRICKS_COMPILED,
        ROLLOUT_TRICKS_COMPILED,
    )
    assert compiled.world_node_limit == WORLD_NODE_LIMIT_COMPILED
    assert not new_ending(compiled=False).solver.compiled


def test_a_worlds_cards_are_searched_within_the_endings_node_cap_for_them_all() -> None:
    state = _played("wikipedia", 3, stop=5)
    seat = state.to_act
    assert seat is not None
    free = new_ending()
    scores = card_scores(state, int(seat), free.solver)
    nodes = free.solver.nodes
    assert len(scores) > 1  # more than one search
    assert nodes > 2
    roomy = Ending(new_ending().solver, DD_TRICKS, world_node_limit=nodes)
    assert capped_card_scores(state, int(seat), roomy) == scores
    assert roomy.solver.node_budget is None  # the cap is the world's alone
    tight = Ending(new_ending().solver, DD_TRICKS, world_node_limit=nodes // 2)
    with pytest.raises(SolverGaveUpError):
        capped_card_scores(state, int(seat), tight)
    assert tight.solver.node_budget is None
