"""One candidate world: the unseen cards dealt to their places, then replayed on the engine.

``random_deal`` deals the unseen cards at random among the places ``Facts`` allows
(Hall's condition keeps every placement completable), ``as_dealt`` turns the hands of
the play back into the hands as dealt with the kitty in turning order, and ``build``
replays the view's steps on it and keeps the world only if the seat's view of it is the
view given.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from esmakker.bots.sampling.facts import Facts, Place, alone_by_kitty, called_bit
from esmakker.core.actions import Action, Discard, Take
from esmakker.core.cards import CARDS, Card, CardSet, iter_mask
from esmakker.core.errors import EsmakkerError
from esmakker.core.seats import Seat
from esmakker.core.state import State
from esmakker.core.view import HiddenCards, PlayerView, observe


class Watch(Protocol):
    """What follows a replay step by step (the chain's count of misses) and may stop it."""

    def seen(self, state: State, seat: Seat, action: Action) -> bool:
        """Be shown a seen step before it is applied; return whether to go on."""
        ...

    def lay_away(self, state: State, seat: Seat, pile: list[Card]) -> Card | None:
        """Return the card of ``pile`` the seat lays away next; ``None`` stops the replay."""
        ...


@dataclass(frozen=True, slots=True)
class Deal:
    """A candidate world as card masks, before it is replayed into a state."""

    held: list[int]
    """Per seat, its hand now and the cards it played."""
    discards: list[int]
    initial: list[int]
    """Per seat, the hand it was dealt."""
    kitty: list[Card]
    taken: list[int]


def candidate(view: PlayerView, facts: Facts, rng: random.Random) -> State | None:
    deal = random_deal(view, facts, rng)
    return None if deal is None else build(view, deal, rng)


def random_deal(view: PlayerView, facts: Facts, rng: random.Random) -> Deal | None:
    placed = _place(facts, rng)
    if placed is None:
        return None
    hands, discards, kitty_rest = placed
    dealt = as_dealt(view, facts, hands, discards, kitty_rest, rng)
    if dealt is None:
        return None
    initial, kitty, taken = dealt
    return Deal(hands, discards, initial, kitty, taken)


def build(
    view: PlayerView,
    deal: Deal,
    rng: random.Random,
    watch: Watch | None = None,
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


def _place(facts: Facts, rng: random.Random) -> tuple[list[int], list[int], int] | None:
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
    where: dict[int, Place] = {}
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
    return assemble(facts, ((place, 1 << card) for card, place in where.items()))


def assemble(facts: Facts, placed: Iterable[tuple[Place, int]]) -> tuple[list[int], list[int], int]:
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


def as_dealt(
    view: PlayerView,
    facts: Facts,
    holdings: list[int],
    discards: list[int],
    kitty_rest: int,
    rng: random.Random,
) -> tuple[list[int], list[Card], list[int]] | None:
    """Return the hands as dealt, the kitty in turning order and what each seat took."""
    taken = [0, 0, 0, 0]
    initial = [0, 0, 0, 0]
    called = called_bit(view)
    for s in range(4):
        everything = holdings[s] | discards[s]
        known = facts.taken_known[s] & everything
        declarer = view.contract is not None and s == view.contract.declarer
        must = called & everything & ~known if declarer or alone_by_kitty(view) else 0
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
    watch: Watch | None = None,
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
