"""The public, immutable state of one deal: ``legal_actions()`` and ``apply()``.

Every ``apply`` returns a new ``State``; the old one is untouched, so states are
safe to share with UI threads, server tasks and bots. Under the hood each state
owns a private ``Engine`` that is cloned before it is changed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from esmakker.core.actions import Action, Bid, format_action
from esmakker.core.cards import CARDS, Card, CardSet, Suit, deck_mask
from esmakker.core.engine import Engine, illegal
from esmakker.core.errors import IllegalActionError, InvalidDealError, Reason
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.scoring import is_made, side_tricks
from esmakker.core.seats import SEATS, Seat


class Step(NamedTuple):
    """One action in a deal's history, with the seat that took it."""

    seat: Seat
    action: Action

    def __str__(self) -> str:
        return f"{self.seat.name} {format_action(self.action)}"


class Trick(NamedTuple):
    """A completed trick: who led, the cards in playing order, who won it."""

    leader: Seat
    cards: tuple[Card, ...]
    winner: Seat


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    """How a deal ended (hand-record.md, Result)."""

    outcome: str
    contract: Bid | None
    declarer: Seat | None
    partner: Seat | None
    trump: Suit | None
    called: Card | None
    tricks: tuple[int, int, int, int]
    declarer_side_tricks: int
    made: bool | None
    scores: tuple[int, int, int, int]

    def to_json(self) -> dict[str, Any]:
        """Return the record's ``result`` object."""
        return {
            "outcome": self.outcome,
            "contract": None if self.contract is None else str(self.contract),
            "declarer": _name(self.declarer),
            "partner": _name(self.partner),
            "trump": _name(self.trump),
            "called": _name(self.called),
            "tricks": dict(zip("NESW", self.tricks, strict=True)),
            "declarer_side_tricks": self.declarer_side_tricks,
            "made": self.made,
            "scores": dict(zip("NESW", self.scores, strict=True)),
        }


def _name(value: Seat | Suit | Card | None) -> str | None:
    return None if value is None else value.name


@dataclass(frozen=True, slots=True)
class State:
    """One deal from the auction to the score; build it with ``State.new`` or ``deal``."""

    _engine: Engine

    @classmethod
    def new(
        cls, rules: RuleSet, dealer: Seat, hands: Sequence[CardSet], kitty: Sequence[Card]
    ) -> State:
        """Return a deal at the start of its auction; ``kitty`` is in turning order.

        Raises:
            InvalidDealError: if the cards are not the rules' deck, 13 to each seat.
        """
        _check_deal(rules, hands, kitty)
        masks = [hand.mask for hand in hands]
        return cls(Engine.new(rules, int(dealer), masks, tuple(kitty)))

    # --- the deal as it stands ------------------------------------------------------------

    @property
    def rules(self) -> RuleSet:
        """Return the rule set."""
        return self._engine.rules

    @property
    def dealer(self) -> Seat:
        """Return the dealer's seat."""
        return SEATS[self._engine.dealer]

    @property
    def phase(self) -> Phase:
        """Return the phase."""
        return self._engine.phase

    @property
    def to_act(self) -> Seat | None:
        """Return the seat to act, or ``None`` when the deal is over."""
        seat = self._engine.to_act
        return None if seat < 0 else SEATS[seat]

    @property
    def is_terminal(self) -> bool:
        """Return whether the deal is over."""
        return self._engine.is_terminal

    @property
    def hands(self) -> tuple[CardSet, CardSet, CardSet, CardSet]:
        """Return every seat's current cards (full information: not for bots or clients)."""
        h = self._engine.hands
        return (CardSet(h[0]), CardSet(h[1]), CardSet(h[2]), CardSet(h[3]))

    @property
    def dealt(self) -> tuple[tuple[CardSet, ...], tuple[Card, ...]]:
        """Return the hands as dealt and the kitty in turning order."""
        return tuple(CardSet(m) for m in self._engine.dealt), self._engine.kitty_order

    @property
    def kitty(self) -> CardSet:
        """Return the cards still in the kitty."""
        return CardSet(self._engine.kitty)

    @property
    def discarded(self) -> tuple[CardSet, ...]:
        """Return the cards each seat laid away in the exchange."""
        return tuple(CardSet(m) for m in self._engine.discarded)

    @property
    def history(self) -> tuple[Step, ...]:
        """Return every action since the deal, in order."""
        return tuple(Step(SEATS[s], a) for s, a in self._engine.log)

    @property
    def current_trick(self) -> tuple[Card, ...]:
        """Return the cards of the trick in progress."""
        return tuple(CARDS[c] for c in self._engine.trick)

    @property
    def leader(self) -> Seat | None:
        """Return who led (or leads) the trick in progress."""
        return None if self._engine.leader < 0 else SEATS[self._engine.leader]

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """Return the completed tricks."""
        return tuple(
            Trick(SEATS[leader], tuple(CARDS[c] for c in cards), SEATS[winner])
            for leader, cards, winner in self._engine.tricks_log
        )

    @property
    def won(self) -> tuple[int, int, int, int]:
        """Return the tricks won per seat."""
        w = self._engine.won
        return (w[0], w[1], w[2], w[3])

    @property
    def engine(self) -> Engine:
        """Return a private copy of the engine, for search code (the fast path)."""
        return self._engine.clone()

    # --- actions --------------------------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Return the legal actions of the seat to act, in a deterministic order."""
        return tuple(self._engine.legal_actions())

    def legal_actions_of(self, seat: Seat) -> tuple[Action, ...]:
        """Return what ``seat`` may do now (its turn, or an out-of-turn iron claim)."""
        return tuple(self._engine.legal_actions_of(int(seat)))

    def is_legal(self, action: Action, seat: Seat | None = None) -> bool:
        """Return whether ``seat`` (default: the seat to act) may take ``action`` now."""
        actor = self._actor(seat)
        return actor >= 0 and self._engine.check(actor, action) is None

    def apply(self, action: Action, seat: Seat | None = None) -> State:
        """Return the state after ``seat`` (default: the seat to act) takes ``action``.

        Raises:
            IllegalActionError: if the rules do not allow it; this state is unchanged.
        """
        actor = self._actor(seat)
        if actor < 0:
            text = format_action(action)
            raise IllegalActionError(
                f"{text}: the deal is over", reason=Reason.GAME_OVER, seat=None, action=text
            )
        problem = self._engine.check(actor, action)
        if problem is not None:
            raise illegal(actor, action, problem)
        engine = self._engine.clone()
        engine.apply_without_undo(actor, action)
        return State(engine)

    def _actor(self, seat: Seat | None) -> int:
        return self._engine.to_act if seat is None else int(seat)

    # --- the end ----------------------------------------------------------------------------

    def result(self) -> Result | None:
        """Return how the deal ended, or ``None`` while it is being played."""
        engine = self._engine
        if engine.outcome is None:
            return None
        assert engine.scores is not None
        if engine.outcome == "redeal":
            return Result(
                outcome="redeal",
                contract=None,
                declarer=None,
                partner=None,
                trump=None,
                called=None,
                tricks=(0, 0, 0, 0),
                declarer_side_tricks=0,
                made=None,
                scores=(0, 0, 0, 0),
            )
        return _played_result(engine)


def _played_result(engine: Engine) -> Result:
    facts = engine.deal_outcome()
    assert engine.scores is not None
    assert engine.trump is not None
    return Result(
        outcome="played",
        contract=facts.bid,
        declarer=SEATS[facts.declarer],
        partner=None if facts.partner is None else SEATS[facts.partner],
        trump=None if engine.trump < 0 else Suit(engine.trump),
        called=None if engine.called < 0 else CARDS[engine.called],
        tricks=facts.tricks,
        declarer_side_tricks=side_tricks(facts),
        made=is_made(facts, engine.rules),
        scores=engine.scores,
    )


def _check_deal(rules: RuleSet, hands: Sequence[CardSet], kitty: Sequence[Card]) -> None:
    if len(hands) != 4:
        raise InvalidDealError(f"a deal needs 4 hands, got {len(hands)}")
    for seat, hand in zip(SEATS, hands, strict=True):
        if len(hand) != 13:
            raise InvalidDealError(f"{seat.name} holds {len(hand)} cards; each seat gets 13")
    if len(set(kitty)) != len(kitty):
        raise InvalidDealError(f"the kitty lists a card twice: {' '.join(c.name for c in kitty)}")
    if len(kitty) != rules.kitty_size:
        raise InvalidDealError(f"the kitty holds {len(kitty)} card(s); it needs {rules.kitty_size}")
    seen = 0
    for part in (*(h.mask for h in hands), *(1 << c for c in kitty)):
        if seen & part:
            card = CardSet(seen & part)
            raise InvalidDealError(f"card {card} is dealt twice")
        seen |= part
    missing = deck_mask(rules.num_jokers) & ~seen
    extra = seen & ~deck_mask(rules.num_jokers)
    if extra:
        raise InvalidDealError(f"{CardSet(extra)} is not in a deck with {rules.num_jokers} jokers")
    if missing:
        raise InvalidDealError(f"card(s) {CardSet(missing)} are not dealt")


def deal(rules: RuleSet, dealer: Seat, rng: random.Random) -> State:
    """Shuffle the rules' deck with ``rng`` and deal 13 cards to each seat and the kitty."""
    cards = [CARDS[c] for c in range(52 + rules.num_jokers)]
    rng.shuffle(cards)
    hands = [CardSet(cards[13 * i : 13 * i + 13]) for i in range(4)]
    return State.new(rules, dealer, hands, tuple(cards[52:]))
