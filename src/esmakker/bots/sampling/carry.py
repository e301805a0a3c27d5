"""A chain's last world carried to a later view: its unseen cards moved to fit what was shown."""

from __future__ import annotations

import random

from esmakker.bots.sampling.deals import Deal, as_dealt, assemble
from esmakker.bots.sampling.facts import Facts, Place
from esmakker.core.cards import iter_mask
from esmakker.core.view import PlayerView


def carry(deal: Deal, view: PlayerView, facts: Facts, rng: random.Random) -> Deal | None:
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
        hand = Place("H", s)
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
    hands, discards, kitty = assemble(facts, places.items())
    dealt = as_dealt(view, facts, hands, discards, kitty, rng)
    return None if dealt is None else Deal(hands, discards, *dealt)


def _places(deal: Deal, facts: Facts) -> dict[Place, int] | None:
    """Return the deal's cards in the places the view leaves open, less what it fixes there.

    A card seen since may still be among them, in the wrong place (``carry`` moves it).
    """
    kitty = sum(1 << int(c) for c in deal.kitty) & ~sum(deal.taken)
    known_kitty = sum(1 << c for c in facts.kitty_known)
    if known_kitty & ~kitty:
        return None
    places: dict[Place, int] = {}
    for place in facts.capacity:
        if place.kind == "H":
            places[place] = deal.held[place.seat] & ~facts.holdings[place.seat]
        elif place.kind == "D":
            places[place] = deal.discards[place.seat]
        else:
            places[place] = kitty & ~known_kitty
    return places


def _fetch(places: dict[Place, int], facts: Facts, card: int, hand: Place) -> bool:
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


def _rehome(places: dict[Place, int], facts: Facts, card: int, place: Place) -> bool:
    """Swap ``card`` out of ``place`` for a card of a place it may lie in."""
    for target in facts.allowed.get(card, ()):
        for other in iter_mask(places.get(target, 0)):
            if place in facts.allowed.get(other, ()):
                places[place] ^= 1 << card | 1 << other
                places[target] ^= 1 << card | 1 << other
                return True
    return False
