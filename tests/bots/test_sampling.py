"""Sampled worlds: consistent with the seat's view, random where the view is silent."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.random_play import PLAY_OVERRIDES, PRESETS, SEEDS, random_deal, random_walk
from esmakker.bots.registry import make_bot
from esmakker.bots.sampling import sample_world
from esmakker.core.cards import JOKER_BASE, SUIT_MASKS, deck_mask
from esmakker.core.play import led_suit
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State, deal
from esmakker.core.view import PlayerView, observe


def _cards_everywhere(state: State) -> int:
    """Return every card in a hand, the kitty, laid away or played, checking none twice."""
    seen = 0
    parts = [h.mask for h in state.hands] + [state.kitty.mask]
    parts += [d.mask for d in state.discarded]
    parts += [sum(1 << c for c in t.cards) for t in state.tricks]
    parts.append(sum(1 << c for c in state.current_trick))
    for part in parts:
        assert not seen & part, "a card is in two places"
        seen |= part
    return seen


def _shown_out(view: PlayerView) -> list[int]:
    """Per seat, the suits it failed to follow (jokers count where they need a void)."""
    voids = [0, 0, 0, 0]
    tricks = [(t.leader, t.cards) for t in view.tricks]
    if view.trick and view.leader is not None:
        tricks.append((view.leader, view.trick))
    for leader, cards in tricks:
        ints = [int(c) for c in cards]
        for j in range(1, len(ints)):
            suit = led_suit(ints[:j], view.rules)
            joker = ints[j] >= JOKER_BASE
            failed = suit >= 0 and (ints[j] // 13 != suit or joker)
            if failed and (not joker or view.rules.joker_only_when_void):
                voids[(int(leader) + j) % 4] |= 1 << suit
    return voids


def _check_world(view: PlayerView, world: State) -> None:
    assert view.seat is not None
    assert _cards_everywhere(world) == deck_mask(view.rules.num_jokers)
    assert world.hands[view.seat] == view.hand
    assert len(world.history) == len(view.steps)
    assert [int(s) for s, _ in view.steps] == [int(step.seat) for step in world.history]
    assert world.tricks == view.tricks
    assert world.current_trick == view.trick
    assert tuple(h.bit_count() for h in (x.mask for x in world.hands)) == view.hand_sizes
    for seat, hand in enumerate(view.open_hands):
        if hand is not None:
            assert world.hands[seat] == hand
    for seat, voids in enumerate(_shown_out(view)):
        for suit in range(4):
            if voids >> suit & 1:
                assert not world.hands[seat].mask & SUIT_MASKS[suit]
    contract = view.contract
    if contract is not None and contract.partner_known and contract.called is not None:
        world_view = observe(world, view.seat).contract
        assert world_view is not None
        assert world_view.partner == contract.partner
    assert observe(world, view.seat) == view


@settings(max_examples=150, deadline=None)
@given(PRESETS, SEEDS, PLAY_OVERRIDES, st.integers(0, 200), st.sampled_from(list(Seat)))
def test_every_sampled_world_agrees_with_the_view(
    preset: str, seed: int, overrides: dict[str, Any], stop: int, seat: Seat
) -> None:
    walk = random_walk(random_deal(preset, seed, overrides), random.Random(f"walk {seed}"))
    for index, state in enumerate(walk):  # noqa: B007
        if index == stop:
            break
    view = observe(state, seat)
    _check_world(view, sample_world(view, random.Random(seed)))


@pytest.mark.parametrize("preset", ["wikipedia", "hilmarshelte", "osterbro", "tanya"])
def test_worlds_agree_with_views_of_heuristic_deals(preset: str) -> None:
    rules = RuleSet.from_preset(preset)
    for number in range(6):
        state = deal(rules, Seat(number % 4), random.Random(f"{preset}/{number}"))
        bots = [make_bot("heuristic", random.Random(f"{number}/{s}")) for s in range(4)]
        step = 0
        while not state.is_terminal:
            seat = state.to_act
            assert seat is not None
            if step % 9 == 0:
                for observer in Seat:
                    view = observe(state, observer)
                    _check_world(view, sample_world(view, random.Random(step)))
            state = state.apply(bots[seat].act(observe(state, seat)), seat)
            step += 1


def test_the_same_generator_gives_the_same_world() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(5))
    view = observe(state, Seat.E)
    first, second = (sample_world(view, random.Random(9)) for _ in range(2))
    assert first.dealt == second.dealt
    assert first.history == second.history


def test_a_spectator_view_has_no_worlds() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(5))
    with pytest.raises(ValueError, match="spectator"):
        sample_world(observe(state, None), random.Random(1))


def test_unseen_cards_are_spread_evenly_over_the_other_hands_and_the_kitty() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(11))
    view = observe(state, Seat.S)
    rng = random.Random(3)
    where: Counter[str] = Counter()
    samples = 600
    unseen = deck_mask(3) & ~view.hand.mask
    card = next(c for c in range(55) if unseen >> c & 1)
    for _ in range(samples):
        world = sample_world(view, rng)
        holder = next((s.name for s in Seat if world.hands[s].mask >> card & 1), "kitty")
        where[holder] += 1
    assert where["S"] == 0
    for seat in "NEW":  # 13 of the 42 unseen cards each: expect 186 of 600
        assert 140 < where[seat] < 235, where
    assert 15 < where["kitty"] < 75, where  # 3 of 42: expect 43


def test_worlds_differ_where_the_view_is_silent() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(2))
    view = observe(state, Seat.W)
    rng = random.Random(4)
    hands = {sample_world(view, rng).hands[Seat.N] for _ in range(10)}
    assert len(hands) == 10
