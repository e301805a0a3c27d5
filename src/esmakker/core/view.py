"""What one seat may know: ``observe(state, seat)`` (architecture 5.5).

A view holds the seat's own hand, the public history, kitty cards only once the
seat has seen them, hands laid open (bordlægger variants), and the partner only
once revealed (or to the partner itself, or to a seat that saw the called card
in the kitty). Bots and clients see views, never a ``State``. A spectator view
(``seat=None``) holds no hidden card at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from esmakker.core.actions import Action, Bid, Discard, Hold, Join, Pass, Take, format_action
from esmakker.core.cards import CARDS, Card, CardSet, Suit
from esmakker.core.engine import Engine
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import SEATS, Seat
from esmakker.core.state import Result, State, Trick

HIDDEN = "??"
"""How a card the seat has not seen is written in a view's history."""


@dataclass(frozen=True, slots=True)
class HiddenCards:
    """A step whose cards the seat has not seen: ``discard ??`` or ``take ?? ??``."""

    verb: str
    count: int

    def __str__(self) -> str:
        return " ".join((self.verb, *(HIDDEN,) * self.count))


def _step_text(action: Action | HiddenCards) -> str:
    return str(action) if isinstance(action, HiddenCards) else format_action(action)


_DISCARD_HIDDEN = HiddenCards("discard", 1)


@dataclass(frozen=True, slots=True, kw_only=True)
class ContractView:
    """The contract as one seat knows it."""

    bid: Bid
    declarer: Seat
    trump: Suit | None
    """Trumps; ``None`` for no trumps, and while ``trump_known`` is false."""
    trump_known: bool
    called: Card | None
    partner: Seat | None
    """The partner; ``None`` when alone, and while ``partner_known`` is false."""
    partner_known: bool
    joiners: tuple[Seat, ...]
    vip_turned: tuple[Card, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerView:
    """Everything one seat (or a spectator, ``seat=None``) may know about a deal."""

    seat: Seat | None
    rules: RuleSet
    dealer: Seat
    phase: Phase
    to_act: Seat | None
    hand: CardSet
    """The seat's own cards (empty for a spectator)."""
    hand_sizes: tuple[int, int, int, int]
    open_hands: tuple[CardSet | None, CardSet | None, CardSet | None, CardSet | None]
    """Per seat, the cards this seat can see in that hand (its own, or laid open); else None."""
    kitty_size: int
    kitty_seen: CardSet
    """Kitty cards this seat has seen: turned in vip, offered to it, or taken by it."""
    discarded: CardSet
    """The cards this seat laid away in the exchange."""
    calls: tuple[tuple[Seat, Action], ...]
    """The auction so far (public)."""
    steps: tuple[tuple[Seat, Action | HiddenCards], ...]
    """Every step; what the seat has not seen is a ``HiddenCards`` in place of the action."""
    contract: ContractView | None
    leader: Seat | None
    trick: tuple[Card, ...]
    tricks: tuple[Trick, ...]
    won: tuple[int, int, int, int]
    legal_actions: tuple[Action, ...]
    result: Result | None

    @property
    def history(self) -> tuple[str, ...]:
        """Return every step in notation, cards the seat has not seen written as ``??``."""
        return tuple(f"{seat.name} {_step_text(action)}" for seat, action in self.steps)

    def to_json(self) -> dict[str, Any]:
        """Return the view as JSON-ready data (cards and actions in notation)."""
        return {
            "seat": _name(self.seat),
            "rules": {"preset": self.rules.preset, "overrides": self.rules.overrides},
            "dealer": self.dealer.name,
            "phase": self.phase.value,
            "to_act": _name(self.to_act),
            "hand": str(self.hand),
            "hand_sizes": dict(zip("NESW", self.hand_sizes, strict=True)),
            "open_hands": {
                s.name: str(h) for s, h in zip(SEATS, self.open_hands, strict=True) if h is not None
            },
            "kitty_size": self.kitty_size,
            "kitty_seen": str(self.kitty_seen),
            "history": list(self.history),
            "contract": None if self.contract is None else _contract_json(self.contract),
            "leader": _name(self.leader),
            "trick": [c.name for c in self.trick],
            "won": dict(zip("NESW", self.won, strict=True)),
            "legal_actions": [format_action(a) for a in self.legal_actions],
            "result": None if self.result is None else self.result.to_json(),
        }


def _name(value: Seat | Suit | Card | None) -> str | None:
    return None if value is None else value.name


def _contract_json(contract: ContractView) -> dict[str, Any]:
    return {
        "bid": str(contract.bid),
        "declarer": contract.declarer.name,
        "trump": _name(contract.trump) if contract.trump_known else HIDDEN,
        "called": _name(contract.called),
        "partner": _name(contract.partner) if contract.partner_known else HIDDEN,
        "joiners": [s.name for s in contract.joiners],
        "vip_turned": [c.name for c in contract.vip_turned],
    }


def observe(state: State, seat: Seat | None) -> PlayerView:
    """Return what ``seat`` may know now; ``None`` gives the spectator view."""
    engine = state._engine
    index = -1 if seat is None else int(seat)
    known = _known_kitty(engine, index)
    return PlayerView(
        seat=seat,
        rules=engine.rules,
        dealer=SEATS[engine.dealer],
        phase=engine.phase,
        to_act=state.to_act,
        hand=CardSet(engine.hands[index]) if index >= 0 else CardSet(),
        hand_sizes=tuple(h.bit_count() for h in engine.hands),  # type: ignore[arg-type]
        open_hands=_open_hands(engine, index),
        kitty_size=engine.kitty.bit_count(),
        kitty_seen=CardSet(known),
        discarded=CardSet(engine.discarded[index]) if index >= 0 else CardSet(),
        calls=_calls(engine),
        steps=tuple((SEATS[s], _censor(index, known, s, a)) for s, a in engine.log),
        contract=_contract(engine, index),
        leader=state.leader,
        trick=state.current_trick,
        tricks=state.tricks,
        won=state.won,
        legal_actions=state.legal_actions_of(seat) if seat is not None else (),
        result=state.result(),
    )


def _known_kitty(engine: Engine, seat: int) -> int:
    public = 0
    for card in engine.turned:
        public |= 1 << card
    return public | (engine.seen[seat] if seat >= 0 else 0)


def _open_hands(engine: Engine, seat: int) -> Any:
    return tuple(
        CardSet(engine.hands[s]) if s == seat or engine.open_seats >> s & 1 else None
        for s in range(4)
    )


def _calls(engine: Engine) -> tuple[tuple[Seat, Action], ...]:
    calls = []
    for s, action in engine.log:
        if isinstance(action, Bid | Pass | Hold | Join):
            calls.append((SEATS[s], action))
    return tuple(calls)


def _censor(observer: int, known: int, seat: int, action: Action) -> Action | HiddenCards:
    """Return the step's action as the observer may see it (others' discards hidden)."""
    if seat == observer:
        return action
    if isinstance(action, Discard):
        return _DISCARD_HIDDEN
    if isinstance(action, Take) and action.cards is not None and action.cards.mask & ~known:
        return HiddenCards("take", len(action.cards))
    return action


def _contract(engine: Engine, seat: int) -> ContractView | None:
    bid = engine.bid
    if bid is None:
        return None
    knows = _partner_known(engine, seat)
    trump = engine.trump
    return ContractView(
        bid=bid,
        declarer=SEATS[engine.declarer],
        trump=Suit(trump) if trump is not None and trump >= 0 else None,
        trump_known=trump is not None,
        called=CARDS[engine.called] if engine.called >= 0 else None,
        partner=SEATS[engine.partner] if knows and engine.partner >= 0 else None,
        partner_known=knows,
        joiners=tuple(SEATS[s] for s in engine.nolo_players[1:]),
        vip_turned=tuple(engine.turned),
    )


def _partner_known(engine: Engine, seat: int) -> bool:
    """Return whether ``seat`` knows who the partner is (or that there is none)."""
    called = engine.called
    if called < 0:
        return engine.phase is not Phase.CALL and engine.bid is not None and engine.bid.is_nolo
    if engine.partner_public:
        return True
    if seat < 0:
        return False
    if seat == engine.partner or seat == engine.dealt_holder:
        return True
    return bool(engine.seen[seat] >> called & 1)
