"""What the others' calls and cards say about their hands: ``Inference.of(view).weight``.

The sampler deals the unseen cards uniformly among the places they may be; a player
who bid 10 halve was not dealt a random hand, nor was a fourth hand who let the
declarer's queen win while holding the king. ``Inference`` turns a seat's view into a
likelihood of the others' observed actions given their hands in a world, so worlds can
be drawn by importance resampling (``sampling.sample_weighted``). The model of the
others is the heuristic bot's, made soft:

* **Auction.** At each call of another seat, the heuristic's price of every option it
  had (passing, each legal bid, the hold or join it made) is computed for the hand that
  world dealt it; the call's likelihood is ``sigmoid((price of the call - best other
  price) / T)``, ``T`` a fraction of a made 9's value. A seat that passed early had no
  bid worth more than passing; one that bid high had a hand whose estimate pays for it.
* **Trumps.** A seat that named trumps is likelier to hold the suit its estimate
  favours (the same sigmoid over the trick estimates of the suits it could name).
* **Ducking.** In a number contract a follower who played under a foe's winning card of
  the led suit, third or fourth hand, while it knew that the winner was a foe,
  probably held no card of the suit above it: such a world is weighed down.
* **Discards.** A seat that could not follow threw the side card it valued least (the
  heuristic's keep value: rank, a sure winner, honours beside it, a short suit to empty):
  a world where it kept a cheaper card to throw is weighed down by the same sigmoid.

Every factor lies in ``[FLOOR, 1]``, so no world becomes impossible by inference and the
weights stay positive and finite. Hands are plain masks: nothing here sees a full state.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from esmakker.bots.auction import FAMILY_OF, nolo_price, pass_value
from esmakker.bots.evaluation import nolo_probability, suit_estimate, value_table
from esmakker.bots.heuristic import JOIN_MARGIN, JOINED_KEEP, OPEN_MARGIN, HeuristicBot
from esmakker.core.actions import Action, Bid, BidKind, CallCard, Hold, Join, NameTrump, Pass
from esmakker.core.cards import JOKER_BASE, SUIT_MASKS, iter_mask
from esmakker.core.ladder import bid_key, legal_bids
from esmakker.core.play import led_suit, trick_winner
from esmakker.core.rules import RuleSet
from esmakker.core.view import PlayerView

FLOOR = 0.05
"""The least factor one observed action gives a world (never zero: soft evidence only)."""
AUCTION_T = 0.25
"""The auction's softness, in made 9's values: a price gap of this much is one logit."""
TRUMP_T = 0.5
"""The trump choice's softness, in estimated tricks."""
DUCK_FACTOR = {2: 0.5, 3: 0.25}
"""Per position in the trick (2: third hand, 3: fourth), a ducked winner's factor."""
DISCARD_T = 2.0
"""The discard's softness, in keep-value units (one rank of a card)."""
HONOUR = 9
"""Rank index of the jack: the jack and above are honours."""


@dataclass(frozen=True, slots=True)
class _Call:
    """One auction call of another seat and what it could have done instead."""

    seat: int
    action: Action
    high: Bid | None
    bids: tuple[Bid, ...]
    may_pass: bool


@dataclass(frozen=True, slots=True)
class _Trump:
    """A suit named by another seat, and the suits it could have named."""

    seat: int
    suit: int
    family: str
    options: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Duck:
    """A follower who played under a winning card of the led suit."""

    seat: int
    winner: int
    """The seat whose card was winning when the follower played."""
    above: int
    """The cards of the led suit that would have beaten the winning card."""
    spent: int
    """The cards the follower had played before this trick (no longer in its hand)."""
    shown: bool
    """Whether the called card had been seen before the follower played."""
    factor: float


@dataclass(frozen=True, slots=True)
class _Throw:
    """A side card thrown by a seat that could not follow."""

    seat: int
    card: int
    spent: int
    """The cards the seat had played before this trick."""
    gone: int
    """Every card played before this one (the seat knew they were out)."""


class Inference:
    """The likelihood of the other seats' observed actions, given their hands in a world."""

    def __init__(
        self,
        view: PlayerView,
        calls: list[_Call],
        trumps: list[_Trump],
        ducks: list[_Duck],
        throws: list[_Throw],
    ) -> None:
        self.rules: RuleSet = view.rules
        self.calls = calls
        self.trumps = trumps
        self.ducks = ducks
        self.throws = throws
        contract = view.contract
        self.declarer = -1 if contract is None else int(contract.declarer)
        self.called = -1 if contract is None or contract.called is None else int(contract.called)
        self.trump = -1 if contract is None or contract.trump is None else int(contract.trump)
        self._unit = float(value_table(Bid(9), view.rules)[9])
        self._pass_cache: dict[tuple[int, Bid | None], float] = {}

    @classmethod
    def of(cls, view: PlayerView) -> Inference:
        """Read from the view what the other seats did (raises ``ValueError`` for spectators)."""
        if view.seat is None:
            raise ValueError("inference is drawn for a seat, not for a spectator")
        hidden = {s for s in range(4) if s != view.seat and view.open_hands[s] is None}
        ducks, throws = _play_events(view, hidden)
        return cls(view, _calls(view, hidden), _trumps(view, hidden), ducks, throws)

    @property
    def empty(self) -> bool:
        """Return whether nothing was observed that weighs worlds differently."""
        return not (self.calls or self.trumps or self.ducks or self.throws)

    def weight(self, dealt: Sequence[int], held: Sequence[int]) -> float:
        """Return the likelihood of the observed actions in a world (positive, at most 1).

        ``dealt`` is per seat the hand it was dealt (the auction was called with it);
        ``held`` every card it held in the play (its hand now and the cards it played).
        """
        weight = 1.0
        for call in self.calls:
            weight *= self._call_factor(call, dealt[call.seat])
        for trump in self.trumps:
            weight *= self._trump_factor(trump, dealt[trump.seat])
        if self.ducks:
            partner = self._partner(held)
            for duck in self.ducks:
                weight *= _duck_factor(duck, held, self.declarer, partner)
        for throw in self.throws:
            weight *= _throw_factor(throw, held[throw.seat], self.trump, self.called)
        return weight

    # --- the factors ---------------------------------------------------------------------

    def _call_factor(self, call: _Call, hand: int) -> float:
        values = _bid_prices(hand, self.rules)
        prices: dict[Action, float] = {bid: values[bid] for bid in call.bids}
        if call.may_pass:
            prices[Pass()] = self._pass_price(hand, call.high)
        chosen = self._chosen_price(call, hand, values)
        if chosen is None:
            return 1.0
        others = [v for a, v in prices.items() if a != call.action]
        if not others:
            return 1.0
        return _soft((chosen - max(others)) / (AUCTION_T * self._unit))

    def _pass_price(self, hand: int, high: Bid | None) -> float:
        aces = sum(hand >> (13 * s + 12) & 1 for s in range(4))
        key = (aces, high)  # the price of passing depends on the hand through its aces only
        price = self._pass_cache.get(key)
        if price is None:
            price = pass_value(hand, high, self.rules, OPEN_MARGIN)
            self._pass_cache[key] = price
        return price

    def _chosen_price(self, call: _Call, hand: int, values: dict[Bid, float]) -> float | None:
        action, high = call.action, call.high
        if isinstance(action, Bid):
            return values.get(action)
        if isinstance(action, Pass):
            return self._pass_price(hand, high) if call.may_pass else None
        if isinstance(action, Hold) and high is not None:
            return values.get(high)
        if isinstance(action, Join) and high is not None and high.is_nolo:
            p = nolo_probability(hand, high.kind, self.rules) * JOINED_KEEP
            return nolo_price(high.kind, p, self.rules) - JOIN_MARGIN * self._unit
        return None

    def _trump_factor(self, trump: _Trump, hand: int) -> float:
        estimates = {s: suit_estimate(hand, s, trump.family) for s in trump.options}
        best_other = max(v for s, v in estimates.items() if s != trump.suit)
        return _soft((estimates[trump.suit] - best_other) / TRUMP_T)

    def _partner(self, held: Sequence[int]) -> int:
        """Return the declarer's partner in this world (the called card's holder), else -1."""
        if self.called < 0:
            return -1
        for seat in range(4):
            if held[seat] >> self.called & 1 and seat != self.declarer:
                return seat
        return -1


@lru_cache(maxsize=4096)
def _bid_prices(hand: int, rules: RuleSet) -> dict[Bid, float]:
    """Return the heuristic's price of every bid for a hand (kept: late in a deal the
    worlds deal the same few hands again and again)."""
    return HeuristicBot(random.Random(0)).bid_values(hand, rules)


def _soft(x: float) -> float:
    """Return a factor in [FLOOR, 1]: a sigmoid of ``x`` lifted off zero."""
    sigmoid = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))
    return FLOOR + (1.0 - FLOOR) * sigmoid


def _duck_factor(duck: _Duck, held: Sequence[int], declarer: int, partner: int) -> float:
    """Return the duck's factor if the follower held a card above the winner, else 1."""
    if not held[duck.seat] & ~duck.spent & duck.above:
        return 1.0
    side = {declarer, partner}
    if (duck.seat in side) == (duck.winner in side):
        return 1.0  # the winner was a friend: playing low is right
    knows = duck.seat == partner or duck.winner == declarer or duck.shown
    return duck.factor if knows else 1.0


def _throw_factor(throw: _Throw, held: int, trump: int, called: int) -> float:
    """Return how likely the thrown card was the hand's cheapest side card to keep."""
    hand = held & ~throw.spent
    values: dict[int, float] = {}
    has_trumps = trump >= 0 and bool(hand & SUIT_MASKS[trump])
    for card in map(int, iter_mask(hand)):
        if card < JOKER_BASE and card // 13 != trump and card != called:
            values[card] = _keep_value(card, hand, throw.gone, has_trumps)
    thrown = values.get(throw.card)
    if thrown is None or len(values) < 2:
        return 1.0
    cheapest = min(v for c, v in values.items() if c != throw.card)
    return _soft((cheapest - thrown) / DISCARD_T)


def _keep_value(card: int, hand: int, gone: int, has_trumps: bool) -> float:
    """Return the heuristic's value of keeping a side card (as ``heuristic._keep_value``)."""
    suit = card // 13
    value = float(card % 13)
    above = SUIT_MASKS[suit] & ~((2 << card) - 1)
    if not above & ~hand & ~gone:
        value += 20.0  # a winner
    in_suit = hand & SUIT_MASKS[suit]
    value += 2.0 * sum(1 for c in iter_mask(in_suit) if c % 13 >= HONOUR)
    if in_suit.bit_count() <= 2 and has_trumps and value < 20:
        value -= 3.0  # empty a short suit to ruff it later
    return value


# --- reading the view -------------------------------------------------------------------


def _calls(view: PlayerView, hidden: set[int]) -> list[_Call]:
    """Return the auction calls of the hidden seats with the options each one had."""
    rules = view.rules
    out: list[_Call] = []
    high: Bid | None = None
    used: set[Bid] = set()
    mine: dict[int, set[tuple[int, int]]] = {s: set() for s in range(4)}
    for index, (seat_name, action) in enumerate(view.calls):
        seat = int(seat_name)
        if seat in hidden:
            bids = legal_bids(high, frozenset(used), rules)
            if high is not None and bid_key(high, rules) in mine[seat]:
                key = bid_key(high, rules)  # the heuristic does not go round in circles
                bids = tuple(b for b in bids if bid_key(b, rules) != key)
            may_pass = not (index == 0 and rules.forehand_must_open)
            out.append(_Call(seat, action, high, bids, may_pass))
        if isinstance(action, Bid):
            high = action
            used.add(action)
            mine[seat].add(bid_key(action, rules))
    return out


def _trumps(view: PlayerView, hidden: set[int]) -> list[_Trump]:
    """Return the trump suits named by hidden seats."""
    contract = view.contract
    if contract is None:
        return []
    family = FAMILY_OF.get(contract.bid.kind, "plain")
    out: list[_Trump] = []
    called_suit = -1
    for seat_name, action in view.steps:
        if isinstance(action, CallCard):
            called_suit = int(action.card) // 13
        if not isinstance(action, NameTrump) or int(seat_name) not in hidden:
            continue
        options = tuple(
            s
            for s in range(4)
            if not (contract.bid.kind is BidKind.HALVE and s == called_suit)
            and not (s == 0 and family == "plain" and not view.rules.plain_clubs_allowed)
        )
        if int(action.suit) in options and len(options) > 1:
            out.append(_Trump(int(seat_name), int(action.suit), family, options))
    return out


def _play_events(view: PlayerView, hidden: set[int]) -> tuple[list[_Duck], list[_Throw]]:
    """Return the hidden seats' ducks (third or fourth hand under a winning suit card)
    and side-card throws, in number contracts."""
    contract = view.contract
    if contract is None or contract.bid.is_nolo:
        return [], []
    rules = view.rules
    trump = -1 if contract.trump is None else int(contract.trump)
    called = -1 if contract.called is None else int(contract.called)
    tricks = [(int(t.leader), [int(c) for c in t.cards]) for t in view.tricks]
    if view.trick and view.leader is not None:
        tricks.append((int(view.leader), [int(c) for c in view.trick]))
    spent = [0, 0, 0, 0]
    gone = 0
    shown = False
    ducks: list[_Duck] = []
    throws: list[_Throw] = []
    for leader, cards in tricks:
        for j, card in enumerate(cards):
            seat = (leader + j) % 4
            if j and seat in hidden:
                suit = led_suit(cards[:j], rules)
                if suit >= 0 and card < JOKER_BASE and card // 13 not in (suit, trump):
                    throws.append(_Throw(seat, card, spent[seat], gone))
                duck = _duck(cards[:j], card, leader, trump, rules) if j in DUCK_FACTOR else None
                if duck is not None:
                    winner, above = duck
                    ducks.append(_Duck(seat, winner, above, spent[seat], shown, DUCK_FACTOR[j]))
            shown = shown or card == called
            gone |= 1 << card
        for j, card in enumerate(cards):
            spent[(leader + j) % 4] |= 1 << card
    return ducks, throws


def _duck(
    before: list[int], card: int, leader: int, trump: int, rules: RuleSet
) -> tuple[int, int] | None:
    """Return (winning seat, cards above its card) if ``card`` followed under it, else None."""
    suit = led_suit(before, rules)
    if suit < 0 or card >= JOKER_BASE or card // 13 != suit:
        return None
    index = trick_winner(before, trump, False, rules)
    best = before[index]
    if best >= JOKER_BASE or best // 13 != suit or card > best:
        return None
    above = SUIT_MASKS[suit] & ~((2 << best) - 1)
    return (leader + index) % 4, above
