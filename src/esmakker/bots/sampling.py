"""Worlds a seat cannot tell from the real deal: ``sample_world(view, rng)`` (architecture 5.8).

A world is a full deal (every hand, the kitty in turning order, every card laid away)
replayed through the view's history, so a search bot can play it forward on the engine.
The unseen cards are dealt at random among the places they may be: the other hands
(never a suit the seat has shown out of), the cards others laid away, and the kitty.
Cards the seat saw in the kitty follow the kitty to whoever took it. The candidate is
then replayed step by step and kept only if every step is legal and the seat's view of
it equals the view given: the seat's own hand, the auction, the contract as it knows
it, the partner if known, the tricks and its legal actions. So no sampled world is
impossible; a world that breaks a rule the placement does not model (a called-card
duty, a call of a card the declarer holds) is dealt again.

``sample_chain`` draws worlds instead from a Metropolis chain that prefers worlds where
the others chose as a model of them (a ``Policy``) would have chosen.

This is the only bots module that builds full states: search plays forward on worlds
made from a view, never on the real deal.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from esmakker.core.actions import Action, Decline, Discard, Play, Take
from esmakker.core.cards import (
    CARDS,
    JOKER_BASE,
    Card,
    CardSet,
    Suit,
    card_of,
    deck_mask,
    iter_mask,
)
from esmakker.core.errors import EsmakkerError
from esmakker.core.play import led_suit
from esmakker.core.seats import Seat
from esmakker.core.state import State
from esmakker.core.view import HiddenCards, PlayerView, observe

World = State
"""A sampled full deal: a ``State`` that search may play forward."""

_KITTY = "K"
_RANKS = {"A": 14, "K": 13, "Q": 12, "J": 11}


class SamplingError(EsmakkerError):
    """No world consistent with the view was found within the allowed attempts."""


@dataclass(frozen=True, slots=True)
class _Place:
    """Where unseen cards may lie now: a hand (``H``), laid away (``D``) or the kitty (``K``)."""

    kind: str
    seat: int = -1


@dataclass(slots=True)
class _Facts:
    """What the view fixes, and what it leaves open, about where the cards are."""

    seat: int
    holdings: list[int]
    """Per seat, the cards known to be in its hand, laid away by it or played by it."""
    played: list[int]
    """Per seat, the cards it played to tricks."""
    capacity: dict[_Place, int]
    """How many unseen cards each place holds."""
    allowed: dict[int, tuple[_Place, ...]]
    """Per unseen card, the places it may be."""
    kitty_known: list[int] = field(default_factory=list)
    """Seen kitty cards still in the kitty."""
    taken_unseen: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Per seat, how many kitty cards it took that the seat did not see."""
    taken_known: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Per seat, the seen kitty cards it took."""


def sample_world(view: PlayerView, rng: random.Random, *, attempts: int = 200) -> State:
    """Return a full deal at the view's position that the seat cannot tell from the real one.

    Raises:
        ValueError: for a spectator view.
        SamplingError: if ``attempts`` candidates all break a rule the placement does
            not model.
    """
    if view.seat is None:
        raise ValueError("worlds are sampled for a seat, not for a spectator")
    facts = _facts(view)
    for _ in range(attempts):
        world = _candidate(view, facts, rng)
        if world is not None:
            return world
    raise SamplingError(
        f"no world consistent with {view.seat.name}'s view in {attempts} attempts "
        f"(phase {view.phase.value}, {len(view.steps)} steps)"
    )


def sample_worlds(view: PlayerView, rng: random.Random, count: int) -> Iterator[State]:
    """Yield ``count`` worlds sampled independently (see ``sample_world``)."""
    for _ in range(count):
        yield sample_world(view, rng)


Likelihood = Callable[[Sequence[int], Sequence[int]], float]
"""A world's weight from its hands: per seat the hand dealt and every card held in the play."""


def sample_weighted(
    view: PlayerView,
    rng: random.Random,
    count: int,
    likelihood: Likelihood,
    *,
    pool: int,
    attempts: int = 200,
) -> Iterator[State]:
    """Yield ``count`` worlds drawn from ``pool`` candidates in proportion to ``likelihood``.

    Importance resampling: the candidates are dealt as ``sample_world`` deals them, each
    is weighed by ``likelihood`` (positive) on its hands, and ``count`` of them are drawn
    with replacement by systematic resampling, in random order. Only the drawn ones are
    replayed into states; one that breaks a rule the placement does not model is
    replaced by another draw. Every world yielded is consistent with the view.

    Raises:
        ValueError: for a spectator view.
        SamplingError: if no candidate can be built within ``attempts`` tries.
    """
    if view.seat is None:
        raise ValueError("worlds are sampled for a seat, not for a spectator")
    facts = _facts(view)
    deals: list[_Deal] = []
    tries = 0
    while len(deals) < max(pool, 1) and tries < pool + attempts:
        tries += 1
        deal = _deal(view, facts, rng)
        if deal is not None:
            deals.append(deal)
    if not deals:
        raise SamplingError(
            f"no world consistent with {view.seat.name}'s view in {tries} attempts "
            f"(phase {view.phase.value}, {len(view.steps)} steps)"
        )
    weights = [_finite(likelihood(d.initial, d.held)) for d in deals]
    built: dict[int, State] = {}
    failures = 0
    for pick in _resample(weights, count, rng):
        while pick not in built:
            world = _build(view, deals[pick], rng) if weights[pick] > 0 else None
            if world is not None:
                built[pick] = world
                break
            weights[pick] = 0.0
            failures += 1
            if failures > attempts or not any(weights):
                raise SamplingError(
                    f"no world consistent with {view.seat.name}'s view among {len(deals)} "
                    f"candidates (phase {view.phase.value}, {len(view.steps)} steps)"
                )
            pick = rng.choices(range(len(deals)), weights)[0]
        yield built[pick]


Policy = Callable[[PlayerView], Action]
"""A model of how the others choose: the action a seat would take on its view."""

CHAIN_BURN_IN = 60
"""Chain steps before the first world is kept (the start is a uniform world)."""
CHAIN_THIN = 5
"""Chain steps between two worlds kept."""
CHAIN_PENALTY = 0.05
"""A world's weight falls by this factor for each choice the model would not have made."""
CHAIN_RESTARTS = 4
"""Independent chains run for one call; their worlds are pooled (decision 115)."""
CHAIN_AIMED = 0.5
"""From a world with misses, the share of proposals aimed at one (decision 120): a card the
model would have chosen instead is swapped out of the hand that missed."""
CHAIN_LAID_AWAY = 0.3
"""Where a hidden hand laid cards away, the share of proposals that swap one of them with a
hidden hand's card (decision 120)."""
CHAIN_REPAIR = 60
"""Swaps tried at most by each chain's greedy repair before its burn-in (decision 120)."""

Misses = tuple[int, ...]
"""A seat's misses: at each, the card the model would have chosen (-1 for no card)."""


@dataclass(slots=True)
class ChainMemory:
    """Where a seat's chains ended at its last decision, to go on from there at the next.

    Keep one per seat (``StrongBot`` keeps it across deals): a deal the new view rules
    out, such as the last deal's, is not carried and the chain starts afresh.
    """

    deals: list[_Deal] = field(default_factory=list)


def sample_chain(
    view: PlayerView,
    rng: random.Random,
    count: int,
    policy: Policy,
    *,
    reads: tuple[type, ...] = (Play,),
    deadline: float = math.inf,
    attempts: int = 200,
    memory: ChainMemory | None = None,
) -> list[State]:
    """Return up to ``count`` worlds from Metropolis chains weighed by ``policy``.

    A world's weight is ``CHAIN_PENALTY`` to the power of its *misses*: the choices of
    the kinds in ``reads`` (a card by default) that a seat with a hidden hand made and
    ``policy`` would not have made on that seat's view of the world (forced choices do
    not count); with ``Discard`` among ``reads`` a hidden hand's laid-away cards count too,
    each the model would not have laid away being a miss. A chain starts from a uniform
    world, repairs it greedily (``_Chain.repair``) and proposes swapping two unseen cards
    between two hidden hands, between a hidden hand and the cards a hidden hand laid away
    (``CHAIN_LAID_AWAY``), or, in a world with misses, a card the model wanted out of the
    hand that missed (``CHAIN_AIMED``); each card must be allowed where it goes. A
    proposal with more misses is accepted with the weight's ratio. After
    ``CHAIN_BURN_IN`` steps a world is kept every ``CHAIN_THIN`` steps. One chain stays
    long in the mode it finds first, so ``CHAIN_RESTARTS`` chains from independent starts
    share the ``count`` worlds. A seat's misses depend only on its own cards and the
    public play, so they are counted once per hand; a count that already rules the
    proposal out stops the replay. Every world returned agrees with the view. The time to ``deadline`` (a
    ``time.perf_counter`` value) is shared among the chains; one past its share returns
    the worlds it has (at least the one it stands on).

    With ``memory`` (one per seat and deal) each chain starts where the same chain of the
    seat's previous call ended, its cards moved to fit what the view has shown since
    (``_carry``), and from a uniform world only where that fails; the chains' ends are
    kept there for the next call. A chain so goes on through the deal instead of starting
    afresh at every decision (decision 117).

    Raises:
        ValueError: for a spectator view.
        SamplingError: if no start world is found within ``attempts`` tries.
    """
    if view.seat is None:
        raise ValueError("worlds are sampled for a seat, not for a spectator")
    facts = _facts(view)
    chains = max(1, min(CHAIN_RESTARTS, count))
    misses: dict[tuple[int, int, int, int], Misses] = {}
    worlds: list[State] = []
    carried = [] if memory is None else memory.deals
    ends: list[_Deal] = []
    for index in range(chains):
        share = count // chains + (index < count % chains)
        now = time.perf_counter()
        if worlds and now > deadline:
            break
        own_deadline = now + (deadline - now) / (chains - index)
        chain = _Chain(view, facts, policy, reads, rng, misses)
        start = _carry(carried[index], view, facts, rng) if index < len(carried) else None
        if start is None or not chain.stand_on(start):
            chain.start(attempts)
        now = time.perf_counter()
        chain.repair(CHAIN_REPAIR, now + (own_deadline - now) / 2)
        worlds += _run(chain, share, own_deadline)
        ends.append(chain.deal)
    if memory is not None:
        memory.deals = ends
    return worlds


def _run(chain: _Chain, count: int, deadline: float) -> list[State]:
    """Return the worlds one chain keeps (at least the one it stands on)."""
    worlds: list[State] = []
    steps = CHAIN_BURN_IN + CHAIN_THIN * count
    for step in range(1, steps + 1):
        chain.step()
        kept = step > CHAIN_BURN_IN and (step - CHAIN_BURN_IN) % CHAIN_THIN == 0
        if kept:
            worlds.append(chain.state)
        if time.perf_counter() > deadline:
            break
    return worlds or [chain.state]


def has_reads(view: PlayerView, reads: tuple[type, ...] = (Play,)) -> bool:
    """Return whether a hidden hand made a choice of the kinds in ``reads`` (the chain reads it)."""
    readers = _read_seats(view)
    return any(int(seat) in readers and isinstance(action, reads) for seat, action in view.steps)


def _read_seats(view: PlayerView) -> frozenset[int]:
    """Return the seats whose hands the view hides (the ones the chain reads)."""
    return frozenset(s for s in range(4) if s != view.seat and view.open_hands[s] is None)


class _Chain:
    """A Metropolis chain over deals; ``state`` is the world it stands on."""

    deal: _Deal
    state: State
    total: int

    def __init__(
        self,
        view: PlayerView,
        facts: _Facts,
        policy: Policy,
        reads: tuple[type, ...],
        rng: random.Random,
        misses: dict[tuple[int, int, int, int], Misses],
    ) -> None:
        self.view, self.facts, self.policy, self.reads, self.rng = view, facts, policy, reads, rng
        self.readers = sorted(_read_seats(view))
        self.laid_away = [p for p, n in facts.capacity.items() if p.kind == "D" and n > 0]
        """The places of hidden laid-away cards (a declarer's discards the seat did not see)."""
        self.misses = misses
        """Per seat and its cards (dealt, laid away, taken), its misses (shared by the chains
        of one call: they depend only on the view and the policy)."""

    def start(self, attempts: int) -> None:
        """Stand on the first uniform world that replays."""
        for _ in range(attempts):
            deal = _deal(self.view, self.facts, self.rng)
            judged = None if deal is None else self._judge(deal, math.inf)
            if deal is not None and judged is not None:
                self.deal, (self.state, self.total) = deal, judged
                return
        assert self.view.seat is not None
        raise SamplingError(
            f"no world consistent with {self.view.seat.name}'s view in {attempts} attempts "
            f"(phase {self.view.phase.value}, {len(self.view.steps)} steps)"
        )

    def stand_on(self, deal: _Deal) -> bool:
        """Stand on ``deal`` if it agrees with the view; return whether it does."""
        judged = self._judge(deal, math.inf)
        if judged is None:
            return False
        self.deal, (self.state, self.total) = deal, judged
        return True

    def step(self) -> None:
        """Propose a swap of two unseen cards; move to it by the Metropolis rule."""
        proposal = self._propose()
        if proposal is None:
            return
        chance = self.rng.random()
        slack = math.floor(math.log(chance) / math.log(CHAIN_PENALTY)) if chance > 0 else 10**6
        judged = self._judge(proposal, self.total + slack)
        if judged is not None:
            self.deal, (self.state, self.total) = proposal, judged

    def repair(self, tries: int, deadline: float) -> None:
        """Swap cards the model wanted out of the hands that missed while the misses fall.

        Each round takes a seat with misses and the first card the model wanted that the
        seat's hand still holds, tries every swap of it (or, wanting none, of each of the
        hand's unseen cards) with another hidden hand or the hidden laid-away cards, and
        moves to a world with the fewest misses found: fewer than now, or as many if it
        swapped a wanted card out. It stops at no misses, after ``tries`` swaps judged, at
        ``deadline`` or where no swap helps. A chain from a uniform world has misses the
        swaps of the Metropolis steps rarely mend one at a time (decision 120).
        """
        while self.total and tries > 0 and time.perf_counter() < deadline:
            seat = self.rng.choice(self._missing())
            wanted = self._wanted(seat)
            cards = wanted[:1] or list(iter_mask(self._free(_Place("H", seat))))
            best_total, best = self.total, list[tuple[_Deal, tuple[State, int]]]()
            for proposal in self._swaps_of(seat, cards):
                if tries <= 0 or time.perf_counter() > deadline:
                    break
                tries -= 1
                judged = self._judge(proposal, best_total)
                if judged is None:
                    continue
                if judged[1] < best_total:
                    best_total, best = judged[1], []
                best.append((proposal, judged))
            if not best or (best_total == self.total and not wanted):
                return
            self.deal, (self.state, self.total) = self.rng.choice(best)

    def _swaps_of(self, seat: int, cards: list[int]) -> Iterator[_Deal]:
        """Yield the deals with one of ``cards`` of ``seat``'s hand swapped out."""
        hand = _Place("H", seat)
        for card in cards:
            for other in self._partners(seat):
                for swapped in iter_mask(self._free(other)):
                    deal = self._swapped(hand, other, card, swapped)
                    if deal is not None:
                        yield deal

    def _propose(self) -> _Deal | None:
        rng = self.rng
        if self.total and rng.random() < CHAIN_AIMED:
            seat = rng.choice(self._missing())
            wanted = self._wanted(seat)
            card = rng.choice(wanted) if wanted else None
            partners = self._partners(seat)
            return self._swap(_Place("H", seat), rng.choice(partners), card) if partners else None
        if self.laid_away and rng.random() < CHAIN_LAID_AWAY:
            hand = _Place("H", rng.choice(self.readers))
            return self._swap(hand, rng.choice(self.laid_away))
        if len(self.readers) < 2:
            return None
        a, b = rng.sample(self.readers, 2)
        return self._swap(_Place("H", a), _Place("H", b))

    def _missing(self) -> list[int]:
        """Return the hidden seats with misses in the world the chain stands on."""
        return [s for s in self.readers if self.misses.get(_key(self.deal, s))]

    def _wanted(self, seat: int) -> list[int]:
        """Return the cards the model wanted at the seat's misses that its hand still holds."""
        free = self._free(_Place("H", seat))
        return [c for c in self.misses.get(_key(self.deal, seat), ()) if c >= 0 and free >> c & 1]

    def _partners(self, seat: int) -> list[_Place]:
        """Return the places a card of the seat's hand may be swapped with."""
        return [_Place("H", s) for s in self.readers if s != seat] + self.laid_away

    def _free(self, place: _Place) -> int:
        """Return the place's cards in the chain's deal that the view leaves unseen."""
        if place.kind == "H":
            return self.deal.held[place.seat] & ~self.facts.holdings[place.seat]
        return self.deal.discards[place.seat]

    def _swap(self, a: _Place, b: _Place, card: int | None = None) -> _Deal | None:
        """Return the deal with ``card`` (else a random one) of ``a`` swapped with one of ``b``."""
        free_a, free_b = list(iter_mask(self._free(a))), list(iter_mask(self._free(b)))
        if not free_a or not free_b:
            return None
        mine = self.rng.choice(free_a) if card is None else card
        return self._swapped(a, b, mine, self.rng.choice(free_b))

    def _swapped(self, a: _Place, b: _Place, card_a: int, card_b: int) -> _Deal | None:
        """Return the deal with ``card_a`` of ``a`` and ``card_b`` of ``b`` swapped, if allowed."""
        allowed = self.facts.allowed
        if b not in allowed[card_a] or a not in allowed[card_b]:
            return None
        hands, discards = list(self.deal.held), list(self.deal.discards)
        both = 1 << card_a | 1 << card_b
        for place in (a, b):
            if place.kind == "H":
                hands[place.seat] ^= both
            else:
                discards[place.seat] ^= both
        kitty = sum(1 << int(c) for c in self.deal.kitty) & ~sum(self.deal.taken)
        dealt = _dealt(self.view, self.facts, hands, discards, kitty, self.rng)
        return None if dealt is None else _Deal(hands, discards, *dealt)

    def _judge(self, deal: _Deal, limit: float) -> tuple[State, int] | None:
        """Return the deal's world and misses, ``None`` if it breaks the view or passes ``limit``."""
        keys = {s: _key(deal, s) for s in self.readers}
        known = sum(len(self.misses[k]) for k in keys.values() if k in self.misses)
        if known > limit:
            return None
        reading = _Reading(
            self, [s for s, k in keys.items() if k not in self.misses], limit - known
        )
        state = _build(self.view, deal, self.rng, reading)
        if state is None:
            return None
        for s, wanted in reading.counting.items():
            self.misses[keys[s]] = tuple(wanted)
        return state, known + reading.total


def _key(deal: _Deal, seat: int) -> tuple[int, int, int, int]:
    """Return what a seat's misses depend on: the seat and its dealt, laid-away and taken cards."""
    return (seat, deal.initial[seat], deal.discards[seat], deal.taken[seat])


class _Reading:
    """One replay's count of the counted seats' misses, stopping it past ``limit``."""

    def __init__(self, chain: _Chain, seats: list[int], limit: float) -> None:
        self.chain, self.limit = chain, limit
        self.counting: dict[int, list[int]] = {s: [] for s in seats}
        self.total = 0

    def seen(self, state: State, seat: Seat, action: Action) -> bool:
        """Count a miss if the seat's choice is not the model's; return whether to go on."""
        if int(seat) in self.counting and isinstance(action, self.chain.reads):
            wanted = self._model(state, seat)
            if wanted is not None and wanted != action:
                self._miss(seat, wanted)
        return self.total <= self.limit

    def lay_away(self, state: State, seat: Seat, pile: list[Card]) -> Card | None:
        """Return the card of ``pile`` the seat lays away next (the model's if it is there).

        Without ``Discard`` among the reads the pile's order stands; ``None`` stops the replay.
        """
        if int(seat) not in self.counting or Discard not in self.chain.reads:
            return pile.pop()
        wanted = self._model(state, seat)
        if wanted is None:
            return pile.pop()
        if isinstance(wanted, Discard) and wanted.card in pile:
            pile.remove(wanted.card)
            return wanted.card
        self._miss(seat, wanted)
        return pile.pop() if self.total <= self.limit else None

    def _model(self, state: State, seat: Seat) -> Action | None:
        """Return the model's choice, ``None`` where the choice is forced."""
        if len(state.legal_actions()) < 2:
            return None
        return self.chain.policy(observe(state, seat))

    def _miss(self, seat: Seat, wanted: Action) -> None:
        card = getattr(wanted, "card", None)
        self.counting[int(seat)].append(-1 if card is None else int(card))
        self.total += 1


def _carry(deal: _Deal, view: PlayerView, facts: _Facts, rng: random.Random) -> _Deal | None:
    """Return ``deal`` with its unseen cards moved to fit ``facts``, ``None`` if it cannot.

    A card a hidden hand has played since comes to that hand in exchange for one of its
    unseen cards that may lie where the played card lay; then each unseen card where the
    view no longer allows it (a suit the seat has shown out of) is swapped with a card of
    a place it may go to. The rest of the deal is kept.
    """
    places = _places(deal, facts)
    if places is None:
        return None
    for s in range(4):
        hand = _Place("H", s)
        if hand not in places:
            continue
        for card in iter_mask(facts.holdings[s] & ~deal.held[s]):
            if not _fetch(places, facts, card, hand):
                return None
    for place in list(places):
        for card in iter_mask(places[place]):
            if place not in facts.allowed.get(card, ()) and not _rehome(places, facts, card, place):
                return None
    if any(places[p].bit_count() != n for p, n in facts.capacity.items()):
        return None
    if any(p not in facts.allowed.get(c, ()) for p, m in places.items() for c in iter_mask(m)):
        return None
    hands, discards, kitty = _assemble(facts, places.items())
    dealt = _dealt(view, facts, hands, discards, kitty, rng)
    return None if dealt is None else _Deal(hands, discards, *dealt)


def _places(deal: _Deal, facts: _Facts) -> dict[_Place, int] | None:
    """Return the deal's cards in the places the view leaves open, less what it fixes there.

    A card seen since may still be among them, in the wrong place (``_carry`` moves it).
    """
    kitty = sum(1 << int(c) for c in deal.kitty) & ~sum(deal.taken)
    known_kitty = sum(1 << c for c in facts.kitty_known)
    if known_kitty & ~kitty:
        return None
    places: dict[_Place, int] = {}
    for place in facts.capacity:
        if place.kind == "H":
            places[place] = deal.held[place.seat] & ~facts.holdings[place.seat]
        elif place.kind == "D":
            places[place] = deal.discards[place.seat]
        else:
            places[place] = kitty & ~known_kitty
    return places


def _fetch(places: dict[_Place, int], facts: _Facts, card: int, hand: _Place) -> bool:
    """Move ``card`` (now seen in ``hand``) out of its place for a card of ``hand``."""
    source = next((p for p, m in places.items() if m >> card & 1), None)
    if source is None:
        return False
    swaps = [c for c in iter_mask(places[hand]) if source in facts.allowed.get(c, ())]
    if not swaps:
        return False
    other = min(swaps)
    places[source] ^= 1 << card | 1 << other
    places[hand] ^= 1 << other
    return True


def _rehome(places: dict[_Place, int], facts: _Facts, card: int, place: _Place) -> bool:
    """Swap ``card`` out of ``place`` for a card of a place it may lie in."""
    for target in facts.allowed.get(card, ()):
        for other in iter_mask(places.get(target, 0)):
            if place in facts.allowed.get(other, ()):
                places[place] ^= 1 << card | 1 << other
                places[target] ^= 1 << card | 1 << other
                return True
    return False


def _finite(weight: float) -> float:
    """Return a usable weight: positive and finite, else a tiny one."""
    return weight if 0.0 < weight < math.inf else 1e-300


def _resample(weights: list[float], count: int, rng: random.Random) -> list[int]:
    """Return ``count`` indexes drawn by systematic resampling, shuffled."""
    if not weights or count < 1:
        return []
    total = sum(weights)
    step = total / count
    point = rng.random() * step
    picks: list[int] = []
    cumulative = 0.0
    index = 0
    for _ in range(count):
        while index < len(weights) - 1 and cumulative + weights[index] <= point:
            cumulative += weights[index]
            index += 1
        picks.append(index)
        point += step
    rng.shuffle(picks)
    return picks


# --- what the view fixes -----------------------------------------------------------------


def _facts(view: PlayerView) -> _Facts:
    assert view.seat is not None
    seat = int(view.seat)
    played = _played(view)
    holdings = [played[s] for s in range(4)]
    holdings[seat] |= view.hand.mask | view.discarded.mask
    hidden_hand = [s != seat and view.open_hands[s] is None for s in range(4)]
    for s in range(4):
        open_hand = view.open_hands[s]
        if open_hand is not None:
            holdings[s] |= open_hand.mask
    facts = _Facts(seat, holdings, played, {}, {})
    hidden_discards = _follow_kitty(view, facts)
    capacity = facts.capacity
    for s in range(4):
        if hidden_hand[s]:
            capacity[_Place("H", s)] = view.hand_sizes[s]  # open and own hands are known
        if hidden_discards[s]:
            capacity[_Place("D", s)] = hidden_discards[s]
    capacity[_Place(_KITTY)] = view.kitty_size - len(facts.kitty_known)
    _allow(view, facts)
    return facts


def _played(view: PlayerView) -> list[int]:
    played = [0, 0, 0, 0]
    for leader, cards in _tricks(view):
        for j, card in enumerate(cards):
            played[(leader + j) % 4] |= 1 << card
    return played


def _tricks(view: PlayerView) -> list[tuple[int, list[int]]]:
    tricks = [(int(t.leader), [int(c) for c in t.cards]) for t in view.tricks]
    if view.trick:
        assert view.leader is not None
        tricks.append((int(view.leader), [int(c) for c in view.trick]))
    return tricks


def _follow_kitty(view: PlayerView, facts: _Facts) -> list[int]:
    """Follow the kitty through the exchange; return per seat its unseen discards.

    Seen kitty cards start in the kitty and move to whoever takes them; a take the seat
    did not see leaves the seen cards either in the kitty or with the taker. A take before
    the seat's own turn at the kitty cannot have taken what the seat was offered then,
    only the cards turned face up in vip.
    """
    seen = view.kitty_seen.mask
    turned = sum(1 << int(c) for c in (view.contract.vip_turned if view.contract else ()))
    in_kitty = seen  # seen cards still in the kitty for sure
    floating: dict[int, int] = {}  # seen card -> seat that may have taken it unseen
    count = view.rules.kitty_size
    hidden_discards = [0, 0, 0, 0]
    own_turn = _own_exchange_step(view)
    for index, (seat_name, action) in enumerate(view.steps):
        s = int(seat_name)
        if isinstance(action, HiddenCards):
            if action.verb == "discard":
                hidden_discards[s] += action.count
            else:
                count -= action.count
                facts.taken_unseen[s] += action.count
                takeable = in_kitty if index > own_turn else in_kitty & turned
                for card in iter_mask(takeable):
                    floating[card] = s
        elif isinstance(action, Take):
            taken = in_kitty if action.cards is None else action.cards.mask & in_kitty
            unseen = (count if action.cards is None else len(action.cards)) - taken.bit_count()
            count -= taken.bit_count() + unseen
            in_kitty &= ~taken
            for card in iter_mask(taken):
                floating.pop(card, None)  # it was still in the kitty: taken here, seen
            facts.taken_known[s] |= taken
            facts.taken_unseen[s] += unseen
    facts.kitty_known = [card for card in iter_mask(in_kitty) if card not in floating]
    facts.allowed.update(
        {card: (_Place(_KITTY), _Place("H", s), _Place("D", s)) for card, s in floating.items()}
    )
    return hidden_discards


def _own_exchange_step(view: PlayerView) -> int:
    """Return the index of the seat's first take or decline (the end when it has none)."""
    for index, (seat, action) in enumerate(view.steps):
        if seat == view.seat and isinstance(action, Take | Decline):
            return index
    return len(view.steps)


def _allow(view: PlayerView, facts: _Facts) -> None:
    """Fill ``facts.allowed`` for every unseen card (voids keep cards out of hands)."""
    voids = _voids(view)
    known = sum(facts.holdings) | sum(1 << c for c in facts.kitty_known)
    for card in iter_mask(known):
        facts.allowed.pop(card, None)  # a seen kitty card that later came to light
    places = [place for place in facts.capacity if facts.capacity[place] > 0]
    for s in range(4):
        taken = facts.taken_known[s] & ~facts.holdings[s]
        for card in iter_mask(taken):
            facts.allowed[card] = tuple(p for p in places if p.seat == s)
        known |= taken
    deck = deck_mask(view.rules.num_jokers)
    called = _unbound_called(view, facts)
    pinned = _cascade_pins(view)
    holder = _known_holder(view)
    for card in iter_mask(deck & ~known):
        choices = facts.allowed.get(card, tuple(places))
        facts.allowed[card] = tuple(
            p
            for p in choices
            if facts.capacity.get(p, 0) > 0
            and not (p.kind == "H" and card < JOKER_BASE and voids[p.seat] >> (card // 13) & 1)
            and not (card == called and p.seat == int(view.contract.declarer))  # type: ignore[union-attr]
            and not (pinned >> card & 1 and p.seat != int(view.contract.declarer))  # type: ignore[union-attr]
            and not (card == called_card(view) and holder >= 0 and p != _Place("H", holder))
        )


def _unbound_called(view: PlayerView, facts: _Facts) -> int:
    """Return the called card if the declarer cannot hold it (-1 otherwise).

    The declarer never calls a card he was dealt; he may hold it only by taking it
    from the kitty, and then only among the kitty cards the seat did not see.
    """
    contract = view.contract
    if contract is None or contract.called is None:
        return -1
    if view.rules.may_call_own_ace or facts.taken_unseen[int(contract.declarer)]:
        return -1
    return int(contract.called)


def _cascade_pins(view: PlayerView) -> int:
    """Return the cards a king (or lower) call says the declarer was dealt (R5.2).

    He calls down the cascade only when he holds every callable card of each rank
    above; the trump suit's card counts only when it was callable or all four aces
    trigger the king call.
    """
    contract = view.contract
    if contract is None or contract.called is None:
        return 0
    rules, called = view.rules, int(contract.called)
    ranks = [_RANKS[letter] for letter in rules.partner_card_cascade]
    rank = called % 13 + 2
    if rank not in ranks:
        return 0
    trump = -1 if contract.trump is None else int(contract.trump)
    pins = 0
    for higher in ranks[: ranks.index(rank)]:
        every_suit = higher == 14 and rules.king_call_trigger == "all_four_aces"
        for suit in range(4):
            if suit != trump or every_suit:
                pins |= 1 << card_of(Suit(suit), higher)
    return pins


def called_card(view: PlayerView) -> int:
    """Return the called card, -1 when none is called (yet)."""
    contract = view.contract
    return -1 if contract is None or contract.called is None else int(contract.called)


def _known_holder(view: PlayerView) -> int:
    """Return the seat that holds the called card when the seat knows the partner, else -1."""
    contract = view.contract
    if contract is None or not contract.partner_known or contract.partner is None:
        return -1
    return int(contract.partner)


def _alone_by_kitty(view: PlayerView) -> bool:
    """Return whether the seat knows the called card lay in the kitty (the declarer is alone)."""
    contract = view.contract
    return (
        contract is not None
        and not contract.bid.is_nolo
        and contract.called is not None
        and contract.partner_known
        and contract.partner is None
    )


def _called_bit(view: PlayerView) -> int:
    """Return the called card's bit when the declarer may not have been dealt it, else 0."""
    contract = view.contract
    if contract is None or contract.called is None or view.rules.may_call_own_ace:
        return 0
    return 1 << int(contract.called)


def _voids(view: PlayerView) -> list[int]:
    """Return per seat the suits (bit per suit) it has shown out of in the play."""
    voids = [0, 0, 0, 0]
    for leader, cards in _tricks(view):
        for j in range(1, len(cards)):
            suit = led_suit(cards[:j], view.rules)
            card = cards[j]
            joker = card >= JOKER_BASE
            shows_out = suit >= 0 and (joker or card // 13 != suit)
            if shows_out and (not joker or view.rules.joker_only_when_void):
                voids[(leader + j) % 4] |= 1 << suit
    return voids


# --- one candidate world -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Deal:
    """A candidate world as card masks, before it is replayed into a state."""

    held: list[int]
    """Per seat, its hand now and the cards it played."""
    discards: list[int]
    initial: list[int]
    """Per seat, the hand it was dealt."""
    kitty: list[Card]
    taken: list[int]


def _candidate(view: PlayerView, facts: _Facts, rng: random.Random) -> State | None:
    deal = _deal(view, facts, rng)
    return None if deal is None else _build(view, deal, rng)


def _deal(view: PlayerView, facts: _Facts, rng: random.Random) -> _Deal | None:
    placed = _place(facts, rng)
    if placed is None:
        return None
    hands, discards, kitty_rest = placed
    dealt = _dealt(view, facts, hands, discards, kitty_rest, rng)
    if dealt is None:
        return None
    initial, kitty, taken = dealt
    return _Deal(hands, discards, initial, kitty, taken)


def _build(
    view: PlayerView,
    deal: _Deal,
    rng: random.Random,
    watch: _Reading | None = None,
) -> State | None:
    """Replay the view's steps on the deal; ``None`` if a step breaks a rule or the view,
    or ``watch`` stops the replay (see ``_replay``)."""
    try:
        state = State.new(view.rules, view.dealer, [CardSet(m) for m in deal.initial], deal.kitty)
        replayed = _replay(state, view.steps, deal.discards, deal.taken, rng, watch)
    except EsmakkerError:
        return None
    assert view.seat is not None
    return replayed if replayed is not None and observe(replayed, view.seat) == view else None


def _place(facts: _Facts, rng: random.Random) -> tuple[list[int], list[int], int] | None:
    """Deal the unseen cards to their places, at random where several fit."""
    places = list(facts.capacity)
    remaining = [facts.capacity[p] for p in places]
    masks = {
        card: sum(1 << i for i, p in enumerate(places) if p in allowed)
        for card, allowed in facts.allowed.items()
    }
    pending = Counter(masks.values())
    cards = list(masks)
    rng.shuffle(cards)
    cards.sort(key=lambda c: masks[c].bit_count())  # most constrained first
    where: dict[int, _Place] = {}
    for card in cards:
        pending[masks[card]] -= 1
        options = [i for i in range(len(places)) if masks[card] >> i & 1 and remaining[i]]
        while options:
            pick = rng.choices(options, [remaining[i] for i in options])[0]
            remaining[pick] -= 1
            if _fits(pending, remaining):
                where[card] = places[pick]
                break
            remaining[pick] += 1
            options.remove(pick)
        else:
            return None
    return _assemble(facts, ((place, 1 << card) for card, place in where.items()))


def _assemble(
    facts: _Facts, placed: Iterable[tuple[_Place, int]]
) -> tuple[list[int], list[int], int]:
    """Return the hands, the hidden discards and the kitty with the ``placed`` cards added."""
    hands = list(facts.holdings)
    discards = [0, 0, 0, 0]
    kitty = sum(1 << c for c in facts.kitty_known)
    for place, mask in placed:
        if place.kind == "H":
            hands[place.seat] |= mask
        elif place.kind == "D":
            discards[place.seat] |= mask
        else:
            kitty |= mask
    return hands, discards, kitty


def _fits(pending: Counter[int], remaining: list[int]) -> bool:
    """Hall's condition: every set of places has room for the cards that must go there."""
    if sum(remaining) != sum(pending.values()):
        return False
    open_places = sum(1 << i for i, room in enumerate(remaining) if room)
    kinds = [(mask & open_places, n) for mask, n in pending.items() if n]
    if any(not mask for mask, _ in kinds):
        return False  # a card with nowhere left to go
    if all(mask == open_places for mask, _ in kinds):
        return True  # every card may go anywhere there is room
    for subset in range(1, 1 << len(remaining)):
        if subset & ~open_places:
            continue
        need = sum(n for mask, n in kinds if mask & ~subset == 0)
        room = sum(r for i, r in enumerate(remaining) if subset >> i & 1)
        if need > room:
            return False
    return True


def _dealt(
    view: PlayerView,
    facts: _Facts,
    holdings: list[int],
    discards: list[int],
    kitty_rest: int,
    rng: random.Random,
) -> tuple[list[int], list[Card], list[int]] | None:
    """Return the hands as dealt, the kitty in turning order and what each seat took."""
    taken = [0, 0, 0, 0]
    initial = [0, 0, 0, 0]
    called = _called_bit(view)
    for s in range(4):
        everything = holdings[s] | discards[s]
        known = facts.taken_known[s] & everything
        declarer = view.contract is not None and s == view.contract.declarer
        must = called & everything & ~known if declarer or _alone_by_kitty(view) else 0
        free = list(iter_mask(everything & ~known & ~must))
        count = facts.taken_unseen[s] - must.bit_count()
        if not 0 <= count <= len(free):
            return None
        unseen = rng.sample(free, count)
        taken[s] = known | must | sum(1 << c for c in unseen)
        initial[s] = everything & ~taken[s]
    kitty_mask = kitty_rest | sum(taken)
    turned = [int(c) for c in (view.contract.vip_turned if view.contract else ())]
    rest = [c for c in iter_mask(kitty_mask) if c not in turned]
    rng.shuffle(rest)
    return initial, [CARDS[c] for c in (*turned, *rest)], taken


def _replay(
    state: State,
    steps: Sequence[tuple[Seat, Action | HiddenCards]],
    discards: list[int],
    taken: list[int],
    rng: random.Random,
    watch: _Reading | None = None,
) -> State | None:
    """Apply the view's steps, filling in the cards of the steps the seat did not see.

    ``watch`` is shown each seen step before it is applied and chooses each hidden card
    laid away from the seat's pile; the replay stops (``None``) when it says so.
    """
    to_discard = [list(iter_mask(m)) for m in discards]
    for pile in to_discard:
        rng.shuffle(pile)
    for seat, action in steps:
        s = int(seat)
        if isinstance(action, HiddenCards):
            if action.verb == "discard":
                card = (
                    to_discard[s].pop()
                    if watch is None
                    else watch.lay_away(state, seat, to_discard[s])
                )
                if card is None:
                    return None
                filled: Action = Discard(CARDS[card])
            else:
                filled = Take(CardSet(taken[s] & state.kitty.mask))
            state = state.apply(filled, seat)
        elif watch is not None and not watch.seen(state, seat, action):
            return None
        else:
            state = state.apply(action, seat)
    return state
