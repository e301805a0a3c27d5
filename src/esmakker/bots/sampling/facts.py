"""What a seat's view fixes about where the cards are, and what it leaves open (``facts_of``).

Every unseen card gets the places it may lie (``Facts.allowed``): another hand (never a
suit that hand has shown out of), the cards a seat laid away unseen, or the kitty. Seen
kitty cards follow the kitty to whoever took it; a called card, a king call's cascade
and a partner the seat knows pin cards further.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from esmakker.core.actions import Decline, Take
from esmakker.core.cards import JOKER_BASE, Suit, card_of, deck_mask, iter_mask
from esmakker.core.play import led_suit
from esmakker.core.view import HiddenCards, PlayerView

KITTY = "K"
_RANKS = {"A": 14, "K": 13, "Q": 12, "J": 11}


@dataclass(frozen=True, slots=True)
class Place:
    """Where unseen cards may lie now: a hand (``H``), laid away (``D``) or the kitty (``K``)."""

    kind: str
    seat: int = -1


@dataclass(slots=True)
class Facts:
    """What the view fixes, and what it leaves open, about where the cards are."""

    seat: int
    holdings: list[int]
    """Per seat, the cards known to be in its hand, laid away by it or played by it."""
    played: list[int]
    """Per seat, the cards it played to tricks."""
    capacity: dict[Place, int]
    """How many unseen cards each place holds."""
    allowed: dict[int, tuple[Place, ...]]
    """Per unseen card, the places it may be."""
    kitty_known: list[int] = field(default_factory=list)
    """Seen kitty cards still in the kitty."""
    taken_unseen: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Per seat, how many kitty cards it took that the seat did not see."""
    taken_known: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Per seat, the seen kitty cards it took."""


def seat_facts(view: PlayerView) -> Facts:
    """Return what the seat's view fixes about where the cards are.

    Raises:
        ValueError: for a spectator view.
    """
    if view.seat is None:
        raise ValueError("worlds are sampled for a seat, not for a spectator")
    return facts_of(view)


def facts_of(view: PlayerView) -> Facts:
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
    facts = Facts(seat, holdings, played, {}, {})
    hidden_discards = _follow_kitty(view, facts)
    capacity = facts.capacity
    for s in range(4):
        if hidden_hand[s]:
            capacity[Place("H", s)] = view.hand_sizes[s]  # open and own hands are known
        if hidden_discards[s]:
            capacity[Place("D", s)] = hidden_discards[s]
    capacity[Place(KITTY)] = view.kitty_size - len(facts.kitty_known)
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


def _follow_kitty(view: PlayerView, facts: Facts) -> list[int]:
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
        {card: (Place(KITTY), Place("H", s), Place("D", s)) for card, s in floating.items()}
    )
    return hidden_discards


def _own_exchange_step(view: PlayerView) -> int:
    """Return the index of the seat's first take or decline (the end when it has none)."""
    for index, (seat, action) in enumerate(view.steps):
        if seat == view.seat and isinstance(action, Take | Decline):
            return index
    return len(view.steps)


def _allow(view: PlayerView, facts: Facts) -> None:
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
            and not (card == called_card(view) and holder >= 0 and p != Place("H", holder))
        )


def _unbound_called(view: PlayerView, facts: Facts) -> int:
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


def alone_by_kitty(view: PlayerView) -> bool:
    """Return whether the seat knows the called card lay in the kitty (the declarer is alone)."""
    contract = view.contract
    return (
        contract is not None
        and not contract.bid.is_nolo
        and contract.called is not None
        and contract.partner_known
        and contract.partner is None
    )


def called_bit(view: PlayerView) -> int:
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
