"""Worlds from Metropolis chains that prefer worlds where the others chose as a model would.

``sample_chain`` weighs a world by ``CHAIN_PENALTY`` to the power of its *misses*: the
others' choices a model of them (a ``Policy``) would not have made with the hands the
world gives them. The chains move by swapping unseen cards between the places they may
lie; a seat's chains go on through the deal from where they ended (``ChainMemory``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from esmakker.bots.sampling.carry import carry
from esmakker.bots.sampling.deals import Deal, as_dealt, build, random_deal
from esmakker.bots.sampling.facts import Facts, Place, seat_facts
from esmakker.bots.sampling.worlds import no_world
from esmakker.core.actions import Action, Discard, Play
from esmakker.core.cards import Card, iter_mask
from esmakker.core.seats import Seat
from esmakker.core.state import State
from esmakker.core.view import PlayerView, observe

Policy = Callable[[PlayerView], Action]
"""A model of how the others choose: the action a seat would take on its view."""

CHAIN_BURN_IN = 60
"""Chain steps before the first world is kept (the start is a uniform world)."""
CHAIN_CARRIED_BURN_IN = 20
"""Chain steps before the first world is kept where the chain goes on from where it ended at
the seat's last call: it is burnt in already (decision 130)."""
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

    deals: list[Deal] = field(default_factory=list)


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
    fewest_misses: bool = False,
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
    (``carry``), and from a uniform world only where that fails; the chains' ends are
    kept there for the next call. A chain so goes on through the deal instead of starting
    afresh at every decision (decision 117).

    With ``fewest_misses`` only the worlds kept with the fewest misses among them are
    returned (decision 140): against a player who chooses as ``policy`` does, a world
    with a miss cannot be the real deal, though the chain's soft weight keeps many.

    Raises:
        ValueError: for a spectator view.
        SamplingError: if no start world is found within ``attempts`` tries.
    """
    facts = seat_facts(view)
    chains = max(1, min(CHAIN_RESTARTS, count))
    misses: dict[tuple[int, int, int, int], Misses] = {}
    worlds: list[tuple[State, int]] = []
    carried = [] if memory is None else memory.deals
    ends: list[Deal] = []
    for index in range(chains):
        share = count // chains + (index < count % chains)
        now = time.perf_counter()
        if worlds and now > deadline:
            break
        own_deadline = now + (deadline - now) / (chains - index)
        chain = _Chain(view, facts, policy, reads, rng, misses)
        start = carry(carried[index], view, facts, rng) if index < len(carried) else None
        burn_in = CHAIN_CARRIED_BURN_IN
        if start is None or not chain.stand_on(start):
            chain.start(attempts)
            burn_in = CHAIN_BURN_IN
        now = time.perf_counter()
        chain.repair(CHAIN_REPAIR, now + (own_deadline - now) / 2)
        worlds += _run(chain, share, own_deadline, burn_in)
        ends.append(chain.deal)
    if memory is not None:
        memory.deals = ends
    least = min(total for _, total in worlds) if fewest_misses else math.inf
    return [state for state, total in worlds if total <= least]


def _run(chain: _Chain, count: int, deadline: float, burn_in: int) -> list[tuple[State, int]]:
    """Return the worlds one chain keeps after ``burn_in`` steps with their misses.

    At least the world it stands on is returned.
    """
    worlds: list[tuple[State, int]] = []
    steps = burn_in + CHAIN_THIN * count
    for step in range(1, steps + 1):
        chain.step()
        kept = step > burn_in and (step - burn_in) % CHAIN_THIN == 0
        if kept:
            worlds.append((chain.state, chain.total))
        if time.perf_counter() > deadline:
            break
    return worlds or [(chain.state, chain.total)]


def has_reads(view: PlayerView, reads: tuple[type, ...] = (Play,)) -> bool:
    """Return whether a hidden hand made a choice of the kinds in ``reads`` (the chain reads it)."""
    readers = _read_seats(view)
    return any(int(seat) in readers and isinstance(action, reads) for seat, action in view.steps)


def _read_seats(view: PlayerView) -> frozenset[int]:
    """Return the seats whose hands the view hides (the ones the chain reads)."""
    return frozenset(s for s in range(4) if s != view.seat and view.open_hands[s] is None)


class _Chain:
    """A Metropolis chain over deals; ``state`` is the world it stands on."""

    deal: Deal
    state: State
    total: int

    def __init__(
        self,
        view: PlayerView,
        facts: Facts,
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
            deal = random_deal(self.view, self.facts, self.rng)
            if deal is not None and self.stand_on(deal):
                return
        raise no_world(self.view, f"in {attempts} attempts")

    def stand_on(self, deal: Deal) -> bool:
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
            cards = wanted[:1] or list(iter_mask(self._free(Place("H", seat))))
            best_total, best = self.total, list[tuple[Deal, tuple[State, int]]]()
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

    def _swaps_of(self, seat: int, cards: list[int]) -> Iterator[Deal]:
        """Yield the deals with one of ``cards`` of ``seat``'s hand swapped out."""
        hand = Place("H", seat)
        for card in cards:
            for other in self._partners(seat):
                for swapped in iter_mask(self._free(other)):
                    deal = self._swapped(hand, other, card, swapped)
                    if deal is not None:
                        yield deal

    def _propose(self) -> Deal | None:
        rng = self.rng
        if self.total and rng.random() < CHAIN_AIMED:
            seat = rng.choice(self._missing())
            wanted = self._wanted(seat)
            card = rng.choice(wanted) if wanted else None
            partners = self._partners(seat)
            return self._swap(Place("H", seat), rng.choice(partners), card) if partners else None
        if self.laid_away and rng.random() < CHAIN_LAID_AWAY:
            hand = Place("H", rng.choice(self.readers))
            return self._swap(hand, rng.choice(self.laid_away))
        if len(self.readers) < 2:
            return None
        a, b = rng.sample(self.readers, 2)
        return self._swap(Place("H", a), Place("H", b))

    def _missing(self) -> list[int]:
        """Return the hidden seats with misses in the world the chain stands on."""
        return [s for s in self.readers if self.misses.get(_key(self.deal, s))]

    def _wanted(self, seat: int) -> list[int]:
        """Return the cards the model wanted at the seat's misses that its hand still holds."""
        free = self._free(Place("H", seat))
        return [c for c in self.misses.get(_key(self.deal, seat), ()) if c >= 0 and free >> c & 1]

    def _partners(self, seat: int) -> list[Place]:
        """Return the places a card of the seat's hand may be swapped with."""
        return [Place("H", s) for s in self.readers if s != seat] + self.laid_away

    def _free(self, place: Place) -> int:
        """Return the place's cards in the chain's deal that the view leaves unseen."""
        if place.kind == "H":
            return self.deal.held[place.seat] & ~self.facts.holdings[place.seat]
        return self.deal.discards[place.seat]

    def _swap(self, a: Place, b: Place, card: int | None = None) -> Deal | None:
        """Return the deal with ``card`` (else a random one) of ``a`` swapped with one of ``b``."""
        free_a, free_b = list(iter_mask(self._free(a))), list(iter_mask(self._free(b)))
        if not free_a or not free_b:
            return None
        mine = self.rng.choice(free_a) if card is None else card
        return self._swapped(a, b, mine, self.rng.choice(free_b))

    def _swapped(self, a: Place, b: Place, card_a: int, card_b: int) -> Deal | None:
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
        dealt = as_dealt(self.view, self.facts, hands, discards, kitty, self.rng)
        return None if dealt is None else Deal(hands, discards, *dealt)

    def _judge(self, deal: Deal, limit: float) -> tuple[State, int] | None:
        """Return the deal's world and misses, ``None`` if it breaks the view or passes ``limit``."""
        keys = {s: _key(deal, s) for s in self.readers}
        known = sum(len(self.misses[k]) for k in keys.values() if k in self.misses)
        if known > limit:
            return None
        reading = _Reading(
            self, [s for s, k in keys.items() if k not in self.misses], limit - known
        )
        state = build(self.view, deal, self.rng, reading)
        if state is None:
            return None
        for s, wanted in reading.counting.items():
            self.misses[keys[s]] = tuple(wanted)
        return state, known + reading.total


def _key(deal: Deal, seat: int) -> tuple[int, int, int, int]:
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
        card = wanted.card if isinstance(wanted, Play | Discard) else None
        self.counting[int(seat)].append(-1 if card is None else int(card))
        self.total += 1
