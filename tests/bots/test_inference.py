"""Inference: worlds weighted by what the others' calls and cards say about their hands."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterator, Sequence

import pytest

from bots.test_strong import _play
from core.random_play import random_deal, random_walk
from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.inference import DUCK_FACTOR, Inference
from esmakker.bots.sampling import sample_weighted, sample_world
from esmakker.bots.strong import StrongBot
from esmakker.core.cards import SUIT_MASKS
from esmakker.core.phase import Phase
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State, deal
from esmakker.core.view import PlayerView, observe

HIGH_CARDS = {12: 4, 11: 3, 10: 2, 9: 1}


def _points(hand: int) -> int:
    """Return the hand's high-card points (ace 4, king 3, queen 2, jack 1)."""
    return sum(p for suit in range(4) for r, p in HIGH_CARDS.items() if hand >> (13 * suit + r) & 1)


def _heuristic_deal(rules: RuleSet, number: int) -> Iterator[State]:
    """Yield every state of a deal four heuristic bots play."""
    state = deal(rules, Seat(number % 4), random.Random(number))
    bots = [HeuristicBot(random.Random(f"{number}/{s}")) for s in range(4)]
    yield state
    while not state.is_terminal:
        seat = state.to_act
        assert seat is not None
        state = state.apply(bots[seat].act(observe(state, seat)), seat)
        yield state


def _first_trick(rules: RuleSet, number: int) -> State:
    """Return the heuristic deal's state at the first lead."""
    return next(s for s in _heuristic_deal(rules, number) if s.phase is Phase.PLAY)


def _weighted(view: PlayerView, seed: int, count: int, pool: int) -> list[State]:
    weigh = Inference.of(view).weight
    return list(sample_weighted(view, random.Random(seed), count, weigh, pool=pool))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_weights_are_positive_finite_and_worlds_agree_with_the_view(preset: str) -> None:
    weights: list[float] = []

    def spy(dealt: Sequence[int], held: Sequence[int]) -> float:
        weight = inference.weight(dealt, held)
        weights.append(weight)
        return weight

    views = 0
    for seed in range(4):
        walk = random_walk(random_deal(preset, seed), random.Random(f"walk {seed}"))
        heuristic = _heuristic_deal(RuleSet.from_preset(preset), seed)
        for index, state in enumerate([*walk, *heuristic]):
            if index % 11 or state.is_terminal:
                continue
            view = observe(state, Seat(index % 4))
            inference = Inference.of(view)
            for world in sample_weighted(view, random.Random(index), 3, spy, pool=6):
                assert observe(world, Seat(index % 4)) == view
            views += 1
    assert views > 20
    assert all(0.0 < w <= 1.0 and math.isfinite(w) for w in weights)
    assert len(set(weights)) > 1  # something was inferred


@pytest.mark.parametrize("number", [5, 13, 15])
def test_a_high_bidder_gets_stronger_hands_than_uniform_sampling_gives(number: int) -> None:
    state = _first_trick(RuleSet.from_preset("wikipedia"), number)  # someone bid 10
    contract = observe(state, Seat.N).contract
    assert contract is not None
    assert contract.bid.level == 10
    declarer = contract.declarer
    view = observe(state, Seat((declarer + 1) % 4))
    rng = random.Random(1)
    uniform = [_points(sample_world(view, rng).dealt[0][declarer].mask) for _ in range(150)]
    worlds = _weighted(view, 2, 150, 450)
    weighted = [_points(w.dealt[0][declarer].mask) for w in worlds]
    assert statistics.fmean(weighted) > statistics.fmean(uniform) + 1.5
    passers = [s for s in range(4) if s not in (declarer, view.seat)]
    for seat in passers:  # those who let the 10 stand hold less than the bidder
        weak = statistics.fmean(_points(w.dealt[0][seat].mask) for w in worlds)
        assert weak < statistics.fmean(weighted) - 2


def _held(state: State) -> list[int]:
    """Return per seat its hand and the cards it played."""
    held = [h.mask for h in state.hands]
    for trick in state.tricks:
        for j, card in enumerate(trick.cards):
            held[(int(trick.leader) + j) % 4] |= 1 << int(card)
    return held


def _duck_position() -> tuple[State, PlayerView, int, int]:
    """Return a state after a defender, fourth hand, followed under the declarer's winning
    card of the led suit, the view of a third seat, the follower and the cards above."""
    rules = RuleSet.from_preset("wikipedia")
    for number in range(60):
        state = next(s for s in _heuristic_deal(rules, number) if len(s.tricks) == 1)
        contract = observe(state, Seat.N).contract
        assert contract is not None
        if contract.bid.is_nolo:
            continue
        called = -1 if contract.called is None else int(contract.called)
        for seat in Seat:
            for duck in Inference.of(observe(state, seat)).ducks:
                partner = duck.seat != contract.declarer and _held(state)[duck.seat] >> called & 1
                if (
                    duck.factor == DUCK_FACTOR[3]
                    and duck.winner == contract.declarer
                    and not partner
                ):
                    return state, observe(state, seat), duck.seat, duck.above & ~(1 << called)
    raise AssertionError("no ducked trick found")


def test_a_follower_who_ducked_is_unlikely_to_have_held_a_card_that_wins() -> None:
    state, view, follower, above = _duck_position()
    dealt = [h.mask for h in state.dealt[0]]
    without = [h & ~above for h in _held(state)]
    card = above & -above
    with_card = list(without)
    with_card[follower] |= card
    inference = Inference.of(view)
    ratio = inference.weight(dealt, with_card) / inference.weight(dealt, without)
    assert ratio == pytest.approx(DUCK_FACTOR[3])


def _throw_position() -> tuple[State, PlayerView, int, int]:
    """Return a state after a seat threw a side card of a six or more, the view of
    another seat, the thrower and a cheaper side card (a low card of a third suit)."""
    rules = RuleSet.from_preset("wikipedia")
    for number in range(60):
        for state in _heuristic_deal(rules, number):
            contract = observe(state, Seat.N).contract
            if contract is None or contract.bid.is_nolo or state.current_trick:
                continue
            trump = -1 if contract.trump is None else int(contract.trump)
            view = observe(state, Seat((int(contract.declarer) + 1) % 4))
            for throw in Inference.of(view).throws:
                if throw.card % 13 < 4:
                    continue
                hand = _held(state)[throw.seat] & ~throw.spent
                for card in range(52):
                    suit = card // 13
                    in_suit = hand & SUIT_MASKS[suit]
                    if (
                        card % 13 < 2
                        and suit not in (trump, throw.card // 13)
                        and in_suit  # so not the led suit, which the thrower lacked
                        and not (throw.gone | in_suit) >> card & 1
                        and all(c % 13 < 9 for c in range(52) if in_suit >> c & 1)
                    ):
                        return state, view, throw.seat, card
    raise AssertionError("no thrown side card found")


def test_a_seat_that_threw_a_card_likely_held_no_cheaper_one() -> None:
    state, view, thrower, card = _throw_position()
    dealt = [h.mask for h in state.dealt[0]]
    without = [h & ~(1 << card) for h in _held(state)]
    with_card = list(without)
    with_card[thrower] |= 1 << card
    inference = Inference.of(view)
    assert inference.weight(dealt, with_card) < inference.weight(dealt, without)


def test_the_same_generator_gives_the_same_weighted_worlds() -> None:
    state = _first_trick(RuleSet.from_preset("wikipedia"), 5)
    view = observe(state, Seat.S)
    first, second = (_weighted(view, 7, 6, 18) for _ in range(2))
    assert [w.dealt for w in first] == [w.dealt for w in second]
    assert [w.history for w in first] == [w.history for w in second]


def test_a_spectator_has_no_inference() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(5))
    with pytest.raises(ValueError, match="spectator"):
        Inference.of(observe(state, None))


def test_the_first_call_leaves_nothing_to_infer() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(5))
    seat = state.to_act
    assert seat is not None
    assert Inference.of(observe(state, seat)).empty


def test_the_strong_bot_with_inference_is_legal_and_deterministic() -> None:
    first = _play(
        "wikipedia", 3, StrongBot(random.Random(1), worlds=2, budget_s=60, inference=True)
    )
    second = _play(
        "wikipedia", 3, StrongBot(random.Random(1), worlds=2, budget_s=60, inference=True)
    )
    assert first.history == second.history
