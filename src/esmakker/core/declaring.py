"""Between auction and play: trumps, the called card, vip turning (rules.md 5.1-5.3)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from esmakker.core.actions import ACCEPT, TURN, Accept, Action, Bid, BidKind, CallCard, NameTrump
from esmakker.core.calling import candidate_suits, legal_calls
from esmakker.core.cards import CARDS, HONOURS_MASK, JOKER_BASE, Suit
from esmakker.core.errors import Reason
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.vip import vip_trump

if TYPE_CHECKING:
    from esmakker.core.engine import Engine

_FIXED_TRUMP = {BidKind.GODE: int(Suit.C), BidKind.STAERKE: int(Suit.S), BidKind.SANS: -1}


def set_contract(engine: Engine, declarer: int, bid: Bid, joiners: tuple[int, ...]) -> None:
    """Fix the contract and queue its declaring steps (R5.1)."""
    engine.declarer = declarer
    engine.bid = bid
    kind = bid.kind
    if bid.is_nolo:
        engine.trump = -1
        engine.nolo_players = (declarer, *joiners)
        engine.steps = [Phase.EXCHANGE] if engine.rules.nolo_exchange else []
    elif kind is BidKind.PLAIN:
        engine.steps = [Phase.TRUMP, Phase.CALL, Phase.EXCHANGE]
    elif kind is BidKind.VIP:
        first = (
            [Phase.CALL, Phase.VIP]
            if engine.rules.vip_call_before_turn
            else [Phase.VIP, Phase.CALL]
        )
        engine.steps = [*first, Phase.EXCHANGE]
    elif kind is BidKind.HALVE:
        engine.steps = [Phase.CALL, Phase.TRUMP, Phase.EXCHANGE]
    else:
        engine.trump = _FIXED_TRUMP[kind]
        engine.steps = [Phase.CALL, Phase.EXCHANGE]
    engine.next_step()


# --- trumps -----------------------------------------------------------------------------


def start_trump(engine: Engine) -> None:
    """Plain: the declarer names trumps; halve: the partner, or the lone declarer (R5.3)."""
    engine.phase = Phase.TRUMP
    engine.to_act = engine.partner if engine.partner >= 0 else engine.declarer


_NAME_TRUMPS = tuple(NameTrump(suit) for suit in (Suit.S, Suit.H, Suit.D, Suit.C))
_CALL_CARDS = tuple(CallCard(card) for card in CARDS)


def legal_trumps(engine: Engine) -> list[Action]:
    """Return the trump suits the seat to act may name."""
    return [action for action in _NAME_TRUMPS if _trump_allowed(engine, action.suit)]


def _trump_allowed(engine: Engine, suit: Suit) -> bool:
    assert engine.bid is not None
    if engine.bid.kind is BidKind.HALVE:
        return suit != engine.called // 13
    return suit != Suit.C or engine.rules.plain_clubs_allowed


def check_trump(engine: Engine, action: Action) -> tuple[Reason, str] | None:
    """Explain why the trump may not be named, or return ``None``."""
    assert isinstance(action, NameTrump)
    if _trump_allowed(engine, action.suit):
        return None
    if action.suit == Suit.C and engine.bid is not None and engine.bid.kind is BidKind.PLAIN:
        why = "clubs may not be named in a plain contract: bid gode (plain_clubs_allowed, R5.3.1)"
    else:
        why = "in halve the trump may not be the called suit (R5.3.4)"
    return Reason.TRUMP_NOT_ALLOWED, why


def apply_trump(engine: Engine, action: Action) -> None:
    """Fix trumps; in halve this reveals the partner (R5.3.4)."""
    assert isinstance(action, NameTrump)
    engine.trump = int(action.suit)
    assert engine.bid is not None
    if engine.bid.kind is BidKind.HALVE:
        engine.partner_public = True
    engine.next_step()


# --- the called card ------------------------------------------------------------------


def start_call(engine: Engine) -> None:
    """The declarer calls the partner card."""
    engine.phase = Phase.CALL
    engine.to_act = engine.declarer


def _callable(engine: Engine) -> tuple[int, ...]:
    assert engine.bid is not None
    kind = engine.bid.kind
    trump: int | None = engine.trump
    if kind is BidKind.HALVE:
        trump = None
    trump_allowed = kind is BidKind.VIP and engine.rules.vip_trump_may_equal_called_suit
    suits = candidate_suits(trump, trump_allowed=trump_allowed)
    honours = engine.hands[engine.declarer] & HONOURS_MASK
    return _calls_for(honours, suits, engine.rules)


@lru_cache(maxsize=4096)
def _calls_for(honours: int, suits: tuple[Suit, ...], rules: RuleSet) -> tuple[int, ...]:
    # Only the declarer's jacks to aces matter to the call (R5.2), so the cache is small.
    return tuple(legal_calls(honours, suits, rules))


def legal_calls_now(engine: Engine) -> list[Action]:
    """Return the cards the declarer may call."""
    return [_CALL_CARDS[card] for card in _callable(engine)]


def check_call(engine: Engine, action: Action) -> tuple[Reason, str] | None:
    """Explain why the card may not be called, or return ``None``."""
    assert isinstance(action, CallCard)
    allowed = _callable(engine)
    if action.card in allowed:
        return None
    names = " ".join(_name(c) for c in allowed)
    return Reason.CALL_NOT_ALLOWED, f"the card to call must be one of {names} (R5.2)"


def _name(card: int) -> str:
    return CARDS[card].name


def apply_call(engine: Engine, action: Action) -> None:
    """Fix the called card; its holder as dealt is the partner, none if in the kitty (R5.2)."""
    assert isinstance(action, CallCard)
    card = int(action.card)
    engine.called = card
    holder = next((s for s in range(4) if engine.dealt[s] >> card & 1), -1)
    engine.dealt_holder = holder
    engine.partner = holder if holder != engine.declarer else -1
    if card in engine.turned:
        engine.partner_public = True
    engine.next_step()


# --- vip ----------------------------------------------------------------------------------


def start_vip(engine: Engine) -> None:
    """The declarer turns kitty cards to find trumps (R5.3.2)."""
    engine.phase = Phase.VIP
    engine.to_act = engine.declarer


def _may_accept(engine: Engine) -> bool:
    turned = engine.turned
    if not turned:
        return False
    skip = engine.rules.vip_joker_rule == "skip_first"
    return not (skip and len(turned) == 1 and turned[0] >= JOKER_BASE)


def legal_vip(engine: Engine) -> list[Action]:
    """Return ``accept`` (when a turned card may be accepted) and ``turn``."""
    return [ACCEPT, TURN] if _may_accept(engine) else [TURN]


def check_vip(engine: Engine, action: Action) -> tuple[Reason, str] | None:
    """Explain why the vip action is illegal, or return ``None``."""
    if isinstance(action, Accept) and not _may_accept(engine):
        if not engine.turned:
            return Reason.MUST_TURN, "turn a kitty card before accepting (R5.3.2)"
        return Reason.MUST_TURN, "a joker turned first is skipped: turn the next card (R5.3.2)"
    return None


def apply_vip(engine: Engine, action: Action) -> None:
    """Turn the next card (the last one is final) or accept the last turned one."""
    if isinstance(action, Accept):
        _fix_vip_trump(engine)
        return
    card = engine.kitty_order[len(engine.turned)]
    engine.turned.append(card)
    if engine.called == card:
        engine.partner_public = True
    if len(engine.turned) == engine.rules.kitty_size:
        _fix_vip_trump(engine)


def _fix_vip_trump(engine: Engine) -> None:
    engine.trump = vip_trump(engine.turned, engine.rules.vip_joker_rule)
    engine.next_step()
