"""The engine fast path (architecture 5.8): the same game as the public ``State``, and undo.

Search code drives an ``Engine`` directly with ``apply_unchecked``, ``play_card`` and
``undo``. Replaying a random deal that way must give what the public API gave, and
undoing must bring back every field exactly, whatever the mix of applies and undos.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given

from core.random_play import (
    ACTION_SPACE,
    PLAY_OVERRIDES,
    PRESETS,
    SEEDS,
    auction_style,
    choose,
    played,
    random_deal,
)
from esmakker.core import trickplay
from esmakker.core.actions import Action, Play
from esmakker.core.engine import Engine
from esmakker.core.errors import IllegalActionError
from esmakker.core.phase import Phase
from esmakker.core.state import State

ENGINE_FIELDS = tuple(name for name in Engine.__slots__ if name != "_undo")


def snapshot(engine: Engine) -> dict[str, Any]:
    """Return every field of the engine but its undo stack, lists copied."""
    fields = {name: getattr(engine, name) for name in ENGINE_FIELDS}
    return {name: v.copy() if isinstance(v, list) else v for name, v in fields.items()}


def facts_of_engine(engine: Engine) -> tuple[Any, ...]:
    """Return what the replay compares: history, hands, tricks, scores and the rest."""
    return (
        engine.log,
        engine.hands,
        engine.trick,
        engine.tricks_log,
        engine.won,
        engine.phase,
        engine.to_act,
        engine.kitty,
        engine.discarded,
        engine.scores,
    )


def facts_of_state(state: State) -> tuple[Any, ...]:
    """Return the same facts as ``facts_of_engine``, read through the public API."""
    seat = -1 if state.to_act is None else int(state.to_act)
    result = state.result()
    return (
        [(int(step.seat), step.action) for step in state.history],
        [hand.mask for hand in state.hands],
        [int(card) for card in state.current_trick],
        tuple((int(t.leader), tuple(int(c) for c in t.cards), int(t.winner)) for t in state.tricks),
        list(state.won),
        state.phase,
        seat,
        state.kitty.mask,
        [pile.mask for pile in state.discarded],
        None if result is None else result.scores,
    )


def new_engine(state: State) -> Engine:
    """Return a bare engine of the same deal, built from masks (no ``State``)."""
    hands, kitty = state.dealt
    return Engine.new(state.rules, int(state.dealer), [hand.mask for hand in hands], kitty)


def apply_fast(engine: Engine, seat: int, action: Action, rng: random.Random) -> None:
    """Apply by the fast path: ``play_card`` or ``apply_unchecked`` for cards, at random."""
    if isinstance(action, Play) and engine.phase is Phase.PLAY and rng.random() < 0.7:
        assert seat == engine.to_act
        assert trickplay.legal_mask(engine) >> action.card & 1
        engine.play_card(action.card)
    else:
        assert action in engine.legal_actions_of(seat)
        engine.apply_unchecked(seat, action)


@given(PRESETS, SEEDS, PLAY_OVERRIDES)
def test_the_fast_path_replays_a_public_deal_step_by_step(
    preset: str, seed: int, overrides: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    final = played(preset, seed, overrides)
    engine = new_engine(final)
    state = random_deal(preset, seed, overrides)
    assert facts_of_engine(engine) == facts_of_state(state)
    for step in final.history:
        state = state.apply(step.action, step.seat)
        apply_fast(engine, int(step.seat), step.action, rng)
        assert facts_of_engine(engine) == facts_of_state(state)
    assert engine.is_terminal
    assert state.result() == final.result()


def random_action(engine: Engine, rng: random.Random, style: float | None) -> tuple[int, Action]:
    """Return a random legal action and its seat (now and then an out-of-turn iron claim)."""
    others = [s for s in range(4) if s != engine.to_act and engine.legal_actions_of(s)]
    if others and rng.random() < 0.2:
        seat = rng.choice(others)
        return seat, rng.choice(engine.legal_actions_of(seat))
    return engine.to_act, choose(engine.legal_actions(), engine.phase, rng, style)


@given(PRESETS, SEEDS, PLAY_OVERRIDES)
def test_undo_returns_to_every_earlier_snapshot(
    preset: str, seed: int, overrides: dict[str, Any]
) -> None:
    rng = random.Random(seed)
    style = auction_style(rng)
    engine = random_deal(preset, seed, overrides).engine
    snapshots = [snapshot(engine)]
    for _ in range(300):
        if engine.is_terminal or (len(snapshots) > 1 and rng.random() < 0.3):
            engine.undo()
            snapshots.pop()
            assert snapshot(engine) == snapshots[-1]
        else:
            seat, action = random_action(engine, rng, style)
            apply_fast(engine, seat, action, rng)
            snapshots.append(snapshot(engine))
    while len(snapshots) > 1:
        engine.undo()
        snapshots.pop()
        assert snapshot(engine) == snapshots[-1]


@given(PRESETS, SEEDS)
def test_undo_takes_back_a_whole_deal_played_on_the_fast_path(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    style = auction_style(rng)
    engine = random_deal(preset, seed).engine
    snapshots = [snapshot(engine)]
    while not engine.is_terminal:
        seat, action = random_action(engine, rng, style)
        apply_fast(engine, seat, action, rng)
        snapshots.append(snapshot(engine))
    snapshots.pop()
    while snapshots:
        engine.undo()
        assert snapshot(engine) == snapshots.pop()


@given(PRESETS, SEEDS)
def test_a_clone_copies_every_field_and_shares_no_list(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    style = auction_style(rng)
    engine = random_deal(preset, seed).engine
    while not engine.is_terminal:
        clone = engine.clone()
        assert snapshot(clone) == snapshot(engine)
        for name in ENGINE_FIELDS:
            value = getattr(engine, name)
            assert not isinstance(value, list) or getattr(clone, name) is not value
        before = snapshot(engine)
        seat, action = random_action(clone, rng, style)
        apply_fast(clone, seat, action, rng)
        assert snapshot(engine) == before
        apply_fast(engine, seat, action, rng)


@given(PRESETS, SEEDS)
def test_a_rejected_action_leaves_the_engine_unchanged(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    style = auction_style(rng)
    engine = random_deal(preset, seed).engine
    while not engine.is_terminal:
        before = snapshot(engine)
        legal = engine.legal_actions()
        for action in rng.sample(ACTION_SPACE, 6):
            if action not in legal and engine.check(engine.to_act, action) is not None:
                with pytest.raises(IllegalActionError):
                    engine.apply(engine.to_act, action)
                assert snapshot(engine) == before
        seat, action = random_action(engine, rng, style)
        engine.apply(seat, action)
