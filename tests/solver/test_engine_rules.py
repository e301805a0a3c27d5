"""The solver's rules are the engine's: legal cards and trick winners on random whist play."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings

from core.random_play import PLAY_OVERRIDES, PRESETS, SEEDS, random_deal, random_walk
from esmakker.core.actions import Play
from esmakker.core.phase import Phase
from esmakker.core.state import State
from esmakker.solver.position import MAXIMISE, from_state
from solver_support import compiled_solver, kernel_minimax, minimax, pure_solver


def _play_states(preset: str, seed: int, overrides: dict[str, Any]) -> list[State]:
    rng = random.Random(seed)
    states = list(random_walk(random_deal(preset, seed, overrides), rng))
    return [s for s in states if s.phase is Phase.PLAY]


@settings(max_examples=40)
@given(preset=PRESETS, seed=SEEDS, overrides=PLAY_OVERRIDES)
def test_legal_cards_and_winners_match_the_engine(
    preset: str, seed: int, overrides: dict[str, Any]
) -> None:
    solver = compiled_solver()
    states = _play_states(preset, seed, overrides)
    for state in states:
        pos = from_state(state)
        engine_mask = sum(1 << int(a.card) for a in state.legal_actions() if isinstance(a, Play))
        assert solver.legal_cards(pos) == engine_mask
    for state in states[-1:]:
        for trick in state.tricks:
            pos = from_state(state)
            cards = tuple(int(c) for c in trick.cards)
            winner = (int(trick.leader) + solver.trick_winner(pos, cards)) % 4
            assert winner == int(trick.winner)


def _ending(preset: str, seed: int, overrides: dict[str, Any], left: int) -> State | None:
    """Return a random play state with ``left`` tricks or fewer to play, mid-trick maybe."""
    states = _play_states(preset, seed, {**overrides, "stop_when_nolo_broken": False})
    endings = [s for s in states if 52 - 4 * s.engine.trick_no - len(s.current_trick) <= 4 * left]
    if not endings:
        return None
    return random.Random(seed).choice(endings)


@settings(max_examples=25)
@given(preset=PRESETS, seed=SEEDS, overrides=PLAY_OVERRIDES)
def test_value_equals_plain_minimax_on_small_endings(
    preset: str, seed: int, overrides: dict[str, Any]
) -> None:
    state = _ending(preset, seed, overrides, 3)
    if state is None:
        return
    pos = from_state(state)
    expected = minimax(state, pos.side, pos.maximisers)
    assert compiled_solver().value(pos) == expected
    assert pure_solver().value(pos) == expected


@settings(max_examples=25)
@given(preset=PRESETS, seed=SEEDS, overrides=PLAY_OVERRIDES)
def test_value_is_best_over_children(preset: str, seed: int, overrides: dict[str, Any]) -> None:
    state = _ending(preset, seed, overrides, 4)
    if state is None:
        return
    solver = compiled_solver()
    pos = from_state(state)
    values = solver.card_values(pos)
    best = max(values.values()) if pos.maximisers >> pos.to_act & 1 else min(values.values())
    assert solver.value(pos) == best
    if pos.objective == MAXIMISE:
        assert pos.target is not None
        assert solver.made(pos) == (best >= pos.target)


def _check_five_trick_ending(preset: str, seed: int, overrides: dict[str, Any]) -> None:
    state = _ending(preset, seed, overrides, 5)
    if state is None:
        return
    pos = from_state(state)
    solver = compiled_solver()
    assert solver.value(pos) == kernel_minimax(solver, pos), (preset, seed, overrides)


@settings(max_examples=30, deadline=None)
@given(preset=PRESETS, seed=SEEDS, overrides=PLAY_OVERRIDES)
def test_value_equals_kernel_minimax_on_five_trick_endings(
    preset: str, seed: int, overrides: dict[str, Any]
) -> None:
    """Quick tricks, the top-trump bound and the table never change an answer."""
    _check_five_trick_ending(preset, seed, overrides)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(preset=PRESETS, seed=SEEDS, overrides=PLAY_OVERRIDES)
def test_value_equals_kernel_minimax_on_many_five_trick_endings(
    preset: str, seed: int, overrides: dict[str, Any]
) -> None:
    _check_five_trick_ending(preset, seed, overrides)


@settings(max_examples=20, deadline=None)
@given(preset=PRESETS, seed=SEEDS, overrides=PLAY_OVERRIDES)
def test_the_first_guess_never_changes_the_answer(
    preset: str, seed: int, overrides: dict[str, Any]
) -> None:
    """The search may start from any number of tricks and steps to the same value."""
    state = _ending(preset, seed, overrides, 5)
    if state is None:
        return
    pos = from_state(state)
    solver = compiled_solver()
    expected = solver.future(pos)
    for guess in range(pos.left + 2):
        solver.clear()
        assert solver.future(pos, guess=guess) == expected, (guess, preset, seed)
