"""Worlds from the policy chain: consistent with the view, and likelier where the model agrees."""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable

import pytest

from bots.test_sampling import _check_world
from esmakker.bots import strong
from esmakker.bots.endgame import DD_TRICKS, Ending
from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.sampling import chain as chain_module
from esmakker.bots.sampling import has_reads, sample_chain, sample_world
from esmakker.bots.sampling.carry import carry
from esmakker.bots.sampling.deals import Deal, build, random_deal
from esmakker.bots.sampling.facts import Place, facts_of
from esmakker.bots.strong import StrongBot
from esmakker.core.actions import Action, Bid, Discard, Play
from esmakker.core.cards import JOKER_BASE
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State, deal
from esmakker.core.view import PlayerView, observe
from esmakker.solver.solve import Solver


def _heuristic_view(preset: str, number: int, seat: Seat, cards_played: int) -> PlayerView:
    """Return ``seat``'s view once ``cards_played`` cards of a heuristic deal are on the table."""
    state = deal(RuleSet.from_preset(preset), Seat(number % 4), random.Random(number))
    bots = [HeuristicBot(random.Random(f"{number}/{s}")) for s in range(4)]
    played = 0
    while not state.is_terminal:
        if state.phase is Phase.PLAY and played == cards_played:
            break
        actor = state.to_act
        assert actor is not None
        action = bots[actor].act(observe(state, actor))
        played += isinstance(action, Play)
        state = state.apply(action, actor)
    return observe(state, seat)


def _highest(view: PlayerView) -> Action:
    """A model that always plays its highest card (jokers highest)."""
    plays = [a for a in view.legal_actions if isinstance(a, Play)]
    if not plays:
        return view.legal_actions[0]
    return max(plays, key=lambda a: (int(a.card) >= JOKER_BASE, int(a.card) % 13))


def _misses(
    world: State,
    view: PlayerView,
    policy: Callable[[PlayerView], Action],
    reads: tuple[type, ...] = (Play,),
) -> int:
    """Count the hidden hands' choices of the kinds in ``reads`` that ``policy`` would not have made."""
    hands, kitty = world.dealt
    state = State.new(world.rules, world.dealer, list(hands), kitty)
    misses = 0
    for step in world.history:
        hidden = step.seat != view.seat and view.open_hands[step.seat] is None
        if hidden and isinstance(step.action, reads) and len(state.legal_actions()) > 1:
            misses += policy(observe(state, step.seat)) != step.action
        state = state.apply(step.action, step.seat)
    return misses


@pytest.mark.parametrize(("preset", "number"), [("wikipedia", 3), ("hilmarshelte", 8)])
def test_every_chain_world_agrees_with_the_view(preset: str, number: int) -> None:
    for cards_played in (5, 17, 30):
        for seat in Seat:
            view = _heuristic_view(preset, number, seat, cards_played)
            for world in sample_chain(view, random.Random(cards_played), 4, _highest):
                _check_world(view, world)


def test_the_chain_prefers_worlds_where_the_others_played_as_the_model_would() -> None:
    view = _heuristic_view("wikipedia", 5, Seat.E, 24)
    rng = random.Random(2)
    chained = [_misses(w, view, _highest) for w in sample_chain(view, rng, 12, _highest)]
    uniform = [_misses(sample_world(view, rng), view, _highest) for _ in range(12)]
    assert statistics.fmean(chained) + 2 < statistics.fmean(uniform), (chained, uniform)


def test_a_seat_that_followed_low_is_seldom_given_a_higher_card_by_the_chain() -> None:
    """Under a play-your-highest model, a low follow says the seat held nothing higher."""
    view = _heuristic_view("wikipedia", 7, Seat.S, 20)
    rng = random.Random(5)
    low_follows = []  # (seat, card): a hidden seat followed suit below a card still unseen
    for trick in view.tricks:
        suit = int(trick.cards[0]) // 13
        for j, card in enumerate(trick.cards[1:], start=1):
            seat = Seat((int(trick.leader) + j) % 4)
            if seat != view.seat and int(card) < JOKER_BASE and int(card) // 13 == suit:
                low_follows.append((seat, int(card)))
    assert low_follows

    def higher_held(world: State) -> int:
        dealt, _ = world.dealt
        return sum(
            any(c // 13 == card // 13 and c % 13 > card % 13 for c in dealt[seat])
            for seat, card in low_follows
        )

    chained = [higher_held(w) for w in sample_chain(view, rng, 12, _highest)]
    uniform = [higher_held(sample_world(view, rng)) for _ in range(12)]
    assert statistics.fmean(chained) < statistics.fmean(uniform), (chained, uniform)


def test_the_heuristic_model_finds_worlds_close_to_its_own_play() -> None:
    view = _heuristic_view("wikipedia", 1031, Seat.W, 20)
    model = HeuristicBot(random.Random(0))
    rng = random.Random(3)
    chained = [_misses(w, view, model.act) for w in sample_chain(view, rng, 8, model.act)]
    uniform = [_misses(sample_world(view, rng), view, model.act) for _ in range(8)]
    assert statistics.fmean(chained) < 0.5 * statistics.fmean(uniform), (chained, uniform)


def _defender_view(number: int) -> PlayerView:
    """Return a defender's view of heuristic deal ``number`` with 8 tricks left.

    The declarer laid three cards away that the defender did not see."""
    view = _heuristic_view("wikipedia", number, Seat(number % 4), 20)
    assert view.contract is not None
    assert view.contract.declarer != view.seat
    facts = facts_of(view)
    assert facts.capacity[Place("D", view.contract.declarer)] == 3
    return view


@pytest.fixture
def plain_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    """Turn off decision 120's repair, aimed proposals and laid-away swaps."""
    monkeypatch.setattr(chain_module, "CHAIN_AIMED", 0.0)
    monkeypatch.setattr(chain_module, "CHAIN_LAID_AWAY", 0.0)
    monkeypatch.setattr(chain_module, "CHAIN_REPAIR", 0)


@pytest.mark.parametrize("number", [1, 5])
def test_the_chain_finds_worlds_where_every_hidden_choice_is_the_models(number: int) -> None:
    """Against heuristic players the real deal has no miss; the chain's worlds mostly none."""
    view = _defender_view(number)
    model = HeuristicBot(random.Random(0)).act
    reads = strong.CHAIN_READS
    worlds = sample_chain(view, random.Random(1), 12, model, reads=reads)
    misses = [_misses(w, view, model, reads) for w in worlds]
    assert sum(m == 0 for m in misses) >= len(misses) / 2, misses
    assert statistics.fmean(misses) < 1, misses


@pytest.mark.parametrize("number", [1, 5])
def test_with_fewest_misses_the_chain_returns_only_its_least_missing_worlds(
    plain_chain: None, number: int
) -> None:
    """Without repair the chain keeps worlds of several miss counts; the option keeps the least."""
    view = _defender_view(number)
    model = HeuristicBot(random.Random(0)).act
    reads = strong.CHAIN_READS
    every = sample_chain(view, random.Random(1), 12, model, reads=reads)
    fewest = sample_chain(view, random.Random(1), 12, model, reads=reads, fewest_misses=True)
    misses = [_misses(w, view, model, reads) for w in every]
    assert len(set(misses)) > 1, misses
    assert [_misses(w, view, model, reads) for w in fewest] == [min(misses)] * len(fewest)
    assert len(fewest) == misses.count(min(misses))


@pytest.mark.parametrize("number", [1, 5])
def test_without_repair_the_chain_keeps_worlds_with_misses(plain_chain: None, number: int) -> None:
    """The mends of decision 120 are what finds the worlds the play fits (the test above)."""
    view = _defender_view(number)
    model = HeuristicBot(random.Random(0)).act
    reads = strong.CHAIN_READS
    worlds = sample_chain(view, random.Random(1), 12, model, reads=(Play,))
    misses = [_misses(w, view, model, reads) for w in worlds]
    assert sum(m == 0 for m in misses) <= len(misses) / 4, misses
    assert statistics.fmean(misses) > 2, misses


def test_the_repair_lowers_a_chains_misses() -> None:
    view = _defender_view(5)
    model = HeuristicBot(random.Random(0)).act
    chain = chain_module._Chain(
        view, facts_of(view), model, strong.CHAIN_READS, random.Random(2), {}
    )
    chain.start(200)
    before = chain.total
    assert before > 0
    chain.repair(200, math.inf)
    assert chain.total < before
    _check_world(view, chain.state)
    assert _misses(chain.state, view, model, strong.CHAIN_READS) == chain.total


def test_a_hidden_declarers_laid_away_cards_move_and_are_read() -> None:
    """The chain swaps the cards a hidden declarer laid away; in a world without a miss they
    are the ones the model would have laid away from the hand the world gave it."""
    view = _defender_view(1)
    assert view.contract is not None
    declarer = view.contract.declarer
    model = HeuristicBot(random.Random(0)).act
    worlds = sample_chain(view, random.Random(1), 12, model, reads=strong.CHAIN_READS)
    laid = {w.discarded[declarer].mask for w in worlds}
    assert len(laid) > 1
    for world in worlds:
        _check_world(view, world)
        if _misses(world, view, model, strong.CHAIN_READS) == 0:
            assert _misses(world, view, model, (Discard,)) == 0


def test_the_same_generator_gives_the_same_chain() -> None:
    view = _heuristic_view("wikipedia", 2, Seat.N, 14)
    first, second = (sample_chain(view, random.Random(4), 5, _highest) for _ in range(2))
    assert [w.dealt for w in first] == [w.dealt for w in second]


def test_a_chain_past_its_deadline_returns_the_world_it_stands_on() -> None:
    view = _heuristic_view("wikipedia", 2, Seat.N, 14)
    worlds = sample_chain(view, random.Random(4), 5, _highest, deadline=time.perf_counter())
    assert len(worlds) == 1
    _check_world(view, worlds[0])


@pytest.mark.parametrize(("count", "chains"), [(8, chain_module.CHAIN_RESTARTS), (2, 2)])
def test_the_worlds_come_from_independent_chains_sharing_the_count(
    monkeypatch: pytest.MonkeyPatch, count: int, chains: int
) -> None:
    starts: list[int] = []
    start = chain_module._Chain.start

    def counting_start(chain: chain_module._Chain, attempts: int) -> None:
        starts.append(attempts)
        start(chain, attempts)

    monkeypatch.setattr(chain_module._Chain, "start", counting_start)
    view = _heuristic_view("wikipedia", 2, Seat.N, 14)
    worlds = sample_chain(view, random.Random(4), count, _highest)
    assert len(starts) == chains
    assert len(worlds) == count


def _play_on(number: int, cards: int) -> list[State]:
    """Return the states of a heuristic deal from its first card, ``cards`` cards on."""
    state = deal(RuleSet.from_preset("wikipedia"), Seat(number % 4), random.Random(number))
    bots = [HeuristicBot(random.Random(f"{number}/{s}")) for s in range(4)]
    states: list[State] = []
    while not state.is_terminal and len(states) < cards:
        actor = state.to_act
        assert actor is not None
        if state.phase is Phase.PLAY:
            states.append(state)
        state = state.apply(bots[actor].act(observe(state, actor)), actor)
    return states


def test_a_chain_goes_on_from_where_it_ended_at_the_last_decision(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a memory the chains start from the last call's ends, moved to fit what was played."""
    starts: list[str] = []
    start, stand_on = chain_module._Chain.start, chain_module._Chain.stand_on

    starting: list[bool] = []

    def uniform(chain: chain_module._Chain, attempts: int) -> None:
        starts.append("uniform")
        starting.append(True)  # a uniform start stands on its deal too: not a carried one
        try:
            start(chain, attempts)
        finally:
            starting.pop()

    def carried(chain: chain_module._Chain, deal: Deal) -> bool:
        if not starting:
            starts.append("carried")
        return stand_on(chain, deal)

    monkeypatch.setattr(chain_module._Chain, "start", uniform)
    monkeypatch.setattr(chain_module._Chain, "stand_on", carried)
    memory = chain_module.ChainMemory()
    states = [s for s in _play_on(6, 36) if s.to_act is Seat.S]
    assert len(states) >= 5
    for state in states[2:5]:  # three decisions of one seat, with cards played between
        view = observe(state, Seat.S)
        for world in sample_chain(view, random.Random(1), 4, _highest, memory=memory):
            _check_world(view, world)
    assert starts[:4] == ["uniform"] * 4
    assert starts[4:] == ["carried"] * 8
    assert len(memory.deals) == 4


def test_a_carried_chain_keeps_its_first_world_after_fewer_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A chain going on from its last call is burnt in already: it needs fewer steps."""
    monkeypatch.setattr(chain_module, "CHAIN_BURN_IN", 12)
    monkeypatch.setattr(chain_module, "CHAIN_CARRIED_BURN_IN", 3)
    steps: list[int] = []
    step = chain_module._Chain.step

    def counting(chain: chain_module._Chain) -> None:
        steps.append(1)
        step(chain)

    monkeypatch.setattr(chain_module._Chain, "step", counting)
    memory = chain_module.ChainMemory()
    counts = []
    for state in [s for s in _play_on(6, 36) if s.to_act is Seat.S][2:4]:
        steps.clear()
        sample_chain(observe(state, Seat.S), random.Random(1), 4, _highest, memory=memory)
        counts.append(len(steps))
    thin = chain_module.CHAIN_THIN  # four chains keep one world each
    assert counts == [4 * (12 + thin), 4 * (3 + thin)]


def test_a_carried_deal_gives_each_played_card_to_the_hand_that_played_it() -> None:
    states = _play_on(9, 30)
    before, after = states[20], states[28]
    seat = Seat.W
    view_before, view_after = observe(before, seat), observe(after, seat)
    facts = facts_of(view_after)
    rng = random.Random(2)
    carried = 0
    for _ in range(20):
        old = random_deal(view_before, facts_of(view_before), rng)
        assert old is not None
        new = carry(old, view_after, facts, rng)
        if new is None:
            continue
        for s in range(4):
            assert facts.holdings[s] & ~new.held[s] == 0  # every played card where it was played
        kept = sum(bin(a & b).count("1") for a, b in zip(old.held, new.held, strict=True))
        assert kept >= 52 - 2 * 8  # a few swaps moved the cards played since, not a new deal
        world = build(view_after, new, rng)
        assert world is not None
        assert observe(world, seat) == view_after
        carried += 1
    assert carried >= 10


def test_the_chain_reads_the_calls_when_asked() -> None:
    view = _heuristic_view("wikipedia", 4, Seat.W, 0)
    assert not has_reads(view)  # nobody has played a card yet
    assert has_reads(view, (Bid,))
    model = HeuristicBot(random.Random(0))
    worlds = sample_chain(view, random.Random(1), 4, model.act, reads=(Bid,))
    for world in worlds:
        _check_world(view, world)


def test_a_spectator_has_no_chain() -> None:
    state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(5))
    with pytest.raises(ValueError, match="spectator"):
        sample_chain(observe(state, None), random.Random(1), 2, _highest)


def test_the_strong_bot_with_the_chain_is_legal_and_deterministic() -> None:
    histories = []
    for _ in range(2):
        bot = StrongBot(random.Random(1), worlds=3, budget_s=60, chain=True)
        state = deal(RuleSet.from_preset("wikipedia"), Seat.S, random.Random(3))
        others = [HeuristicBot(random.Random(s)) for s in range(4)]
        while not state.is_terminal:
            actor = state.to_act
            assert actor is not None
            player = bot if actor is Seat.E else others[actor]
            state = state.apply(player.act(observe(state, actor)), actor)
        histories.append(state.history)
    assert histories[0] == histories[1]


@pytest.fixture
def chain_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Record the tricks left at each call of the strong bot's chain."""
    calls: list[int] = []

    def counting_chain(view: PlayerView, *args: object, **kwargs: object) -> list[State]:
        calls.append(13 - len(view.tricks))
        return sample_chain(view, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(strong, "sample_chain", counting_chain)
    return calls


@pytest.mark.parametrize(("chain_tricks", "most"), [(None, DD_TRICKS), (7, 7)])
def test_the_strong_bot_uses_the_chain_only_from_its_tricks_left(
    chain_calls: list[int], chain_tricks: int | None, most: int
) -> None:
    """By default the chain deals the worlds of the endings the solver values exactly."""
    bot = StrongBot(random.Random(1), worlds=2, budget_s=60)
    bot.chain_tricks = chain_tricks
    state = deal(RuleSet.from_preset("wikipedia"), Seat.S, random.Random(3))
    others = [HeuristicBot(random.Random(s)) for s in range(4)]
    decisions = 0
    while not state.is_terminal:
        actor = state.to_act
        assert actor is not None
        view = observe(state, actor)
        if actor is Seat.E:
            decisions += state.phase is Phase.PLAY and len(view.legal_actions) > 1
            action = bot.act(view)
        else:
            action = others[actor].act(view)
        state = state.apply(action, actor)
    assert chain_calls, "the chain was never asked"
    assert max(chain_calls) <= most
    assert len(chain_calls) < decisions


@pytest.mark.parametrize(("tricks_left", "chained"), [(11, False), (9, True)])
def test_with_every_trick_solved_the_chain_deals_only_the_trusted_endings(
    chain_calls: list[int], tricks_left: int, chained: bool
) -> None:
    """The compiled ending values all 13 tricks; the chain starts at ``MEAN_TRICKS`` left."""
    view = _heuristic_view("wikipedia", 3, Seat.E, 4 * (13 - tricks_left))
    assert 13 - len(view.tricks) == tricks_left
    assert has_reads(view, strong.CHAIN_READS)
    every_trick = Ending(Solver(pure=True), tricks=13)
    bot = StrongBot(random.Random(1), worlds=2)
    assert bot._chained(view, every_trick) == chained
    next(bot._worlds(view, chained, 2, time.perf_counter() + 60))
    assert chain_calls == ([13 - len(view.tricks)] if chained else [])


def test_a_decision_the_chain_deals_searches_more_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chain's endings are solved cheaply: ``CHAIN_WORLDS_FACTOR`` times the worlds."""
    asked: list[int] = []

    def counting_chain(
        view: PlayerView, rng: random.Random, count: int, *args: object, **kwargs: object
    ) -> list[State]:
        asked.append(count)
        return sample_chain(view, rng, count, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(strong, "sample_chain", counting_chain)
    state = next(
        s for s in _play_on(3, 52) if 13 - len(s.tricks) == 4 and len(s.legal_actions()) > 1
    )
    actor = state.to_act
    assert actor is not None
    decision = StrongBot(random.Random(1), worlds=3, budget_s=60).decide(observe(state, actor))
    assert asked == [3 * strong.CHAIN_WORLDS_FACTOR]
    assert decision.choices[0].worlds == 3 * strong.CHAIN_WORLDS_FACTOR


@pytest.mark.parametrize(("tricks_left", "factor", "worlds"), [(9, 3.0, 2), (8, 1.0, 1)])
def test_the_decision_the_chain_starts_at_gets_the_first_chain_budget(
    monkeypatch: pytest.MonkeyPatch, tricks_left: int, factor: float, worlds: int
) -> None:
    """``FIRST_CHAIN_FACTOR`` and ``FIRST_CHAIN_WORLDS`` widen only the chain's first decision."""
    deadlines: list[float] = []
    counts: list[int] = []

    def timed_chain(
        view: PlayerView, rng: random.Random, count: int, *args: object, **kwargs: object
    ) -> list[State]:
        deadlines.append(float(kwargs["deadline"]))  # type: ignore[arg-type]
        counts.append(count)
        return sample_chain(view, rng, count, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(strong, "sample_chain", timed_chain)
    monkeypatch.setattr(strong, "FIRST_CHAIN_FACTOR", 3.0)
    monkeypatch.setattr(strong, "FIRST_CHAIN_WORLDS", 2)
    view = _heuristic_view("wikipedia", 3, Seat.E, 4 * (13 - tricks_left))
    bot = StrongBot(random.Random(1), worlds=2, budget_s=10)
    bot._current_ending = lambda: Ending(Solver(pure=True), tricks=13)  # type: ignore[method-assign]
    begun = time.perf_counter()
    bot.decide(view)
    share = deadlines[0] - begun
    expected = 10 * factor * strong.CHAIN_SHARE
    assert expected <= share < expected + 1
    assert counts == [2 * strong.CHAIN_WORLDS_FACTOR * worlds]


def test_before_search_tricks_the_play_is_the_default_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the solver values whole deals, the first two tricks are not searched."""
    state = next(s for s in _play_on(3, 8) if len(s.legal_actions()) > 1)
    actor = state.to_act
    assert actor is not None
    assert 13 - len(state.tricks) >= 12
    view = observe(state, actor)
    bot = StrongBot(random.Random(1), worlds=2, budget_s=60)
    bot._current_ending = lambda: Ending(Solver(pure=True), tricks=13)  # type: ignore[method-assign]
    monkeypatch.setattr(strong, "SEARCH_TRICKS", 13)
    assert bot._searched(view)
    monkeypatch.setattr(strong, "SEARCH_TRICKS", 11)
    assert not bot._searched(view)
    decision = bot.decide(view)
    assert decision.choices == ()
    assert decision.action == bot._learned(view, bot._heuristic.act(view))
    bot._current_ending = lambda: Ending(Solver(pure=True), tricks=5)  # type: ignore[method-assign]
    assert bot._searched(view), "without whole deals solved the roll-outs still search"
