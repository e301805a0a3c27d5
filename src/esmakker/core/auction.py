"""The auction: successive duels, hold, gå med, iron hand, all-pass redeal (rules.md 3.6, 4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from esmakker.core.actions import HOLD, IRON, JOIN, PASS, Action, Bid, Hold, Join, Pass
from esmakker.core.cards import HONOURS_MASK, JOKERS_MASK
from esmakker.core.errors import Reason
from esmakker.core.ladder import all_bids, legal_bids, overcalls
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet

if TYPE_CHECKING:
    from esmakker.core.engine import Engine

_SEAT = "NESW"


def start(engine: Engine) -> None:
    """Open the auction: forehand enters first (R4.1)."""
    engine.phase = Phase.AUCTION
    engine.entrant = 0
    engine.holder = -1
    engine.high = None
    engine.duel_holder = -1
    engine.used = frozenset()
    engine.passed = 0
    engine.to_act = engine.forehand


def _entrant_seat(engine: Engine) -> int:
    return (engine.dealer + 1 + engine.entrant) % 4


def is_iron_hand(hand: int) -> bool:
    """Return whether a hand has no jack, queen, king, ace or joker (R3.6)."""
    return not hand & (HONOURS_MASK | JOKERS_MASK)


def may_claim_iron(engine: Engine, seat: int) -> bool:
    """Return whether ``seat`` may claim iron hand now (before the first auction call)."""
    return (
        engine.rules.iron_hand == "optional"
        and engine.phase is Phase.AUCTION
        and not engine.log
        and is_iron_hand(engine.hands[seat])
    )


def check_iron(engine: Engine, seat: int) -> tuple[Reason, str] | None:
    """Explain why ``seat`` may not claim iron hand, or return ``None``."""
    if may_claim_iron(engine, seat):
        return None
    if engine.rules.iron_hand != "optional":
        why = "these rules have no iron hand (R3.6)"
    elif engine.phase is not Phase.AUCTION or engine.log:
        why = "iron hand may be claimed only before the first call of the auction (R3.6)"
    else:
        why = "the hand holds a jack, queen, king, ace or joker (R3.6)"
    return Reason.IRON_HAND_NOT_ALLOWED, why


def claim_iron(engine: Engine, seat: int) -> None:
    """End the deal for a redeal."""
    engine.finish("redeal")


def _may_hold(engine: Engine) -> bool:
    privilege = engine.rules.hold_privilege
    if privilege == "none" or engine.to_act != engine.duel_holder or engine.holder < 0:
        return False
    return privilege == "earlier_bidder" or engine.duel_holder == engine.forehand


def _may_join(engine: Engine) -> bool:
    return engine.rules.gaa_med == "nolo" and engine.high is not None and engine.high.is_nolo


def _must_open(engine: Engine) -> bool:
    return engine.rules.forehand_must_open and engine.holder < 0 and engine.entrant == 0


def legal(engine: Engine) -> list[Action]:
    """Return the calls open to the seat to act: pass, hold, join, then bids low to high."""
    calls: list[Action] = [] if _must_open(engine) else [PASS]
    if may_claim_iron(engine, engine.to_act):
        calls.insert(0, IRON)
    if _may_hold(engine):
        calls.append(HOLD)
    if _may_join(engine):
        calls.append(JOIN)
    calls.extend(legal_bids(engine.high, engine.used, engine.rules))
    return calls


def check(engine: Engine, action: Action) -> tuple[Reason, str] | None:
    """Explain why the call is illegal, or return ``None``."""
    if isinstance(action, Pass):
        if _must_open(engine):
            return Reason.MUST_OPEN, "forehand must open the auction (forehand_must_open, R4.1)"
        return None
    if isinstance(action, Hold):
        return None if _may_hold(engine) else (Reason.HOLD_NOT_ALLOWED, _hold_why(engine))
    if isinstance(action, Join):
        if _may_join(engine):
            return None
        return (
            Reason.JOIN_NOT_ALLOWED,
            "gå med needs a nolo high bid and rules that allow it (R4.4)",
        )
    assert isinstance(action, Bid)
    return _check_bid(engine, action)


def _hold_why(engine: Engine) -> str:
    if engine.rules.hold_privilege == "none":
        return "these rules have no hold (kan selv, R4.3)"
    if engine.rules.hold_privilege == "forehand_only":
        return "only forehand may hold, right after being overcalled (R4.3)"
    return "only the player who held the bid when this duel began may hold (R4.3)"


def _check_bid(engine: Engine, bid: Bid) -> tuple[Reason, str] | None:
    rules = engine.rules
    if bid not in _known_bids(rules):
        return Reason.BID_UNKNOWN, f"{bid} is not a bid under these rules (R4.2)"
    if overcalls(bid, engine.high, engine.used, rules):
        return None
    return Reason.BID_TOO_LOW, f"{bid} does not overcall {engine.high} (R4.5, R4.6)"


def _known_bids(rules: RuleSet) -> frozenset[Bid]:
    return frozenset(all_bids(rules))


def apply(engine: Engine, action: Action) -> None:
    """Apply a legal call and move the turn on (R4.1)."""
    seat = engine.to_act
    if isinstance(action, Bid):
        _apply_bid(engine, seat, action)
    elif isinstance(action, Hold):
        engine.holder = seat
        engine.to_act = _opponent(engine, seat)
    elif isinstance(action, Join):
        assert engine.high is not None
        engine.joins.append((seat, engine.holder, engine.high))
        _leave(engine, seat)
    else:
        _leave(engine, seat)


def _apply_bid(engine: Engine, seat: int, bid: Bid) -> None:
    if bid.level is not None and not bid.is_nolo:
        engine.used = engine.used | {bid}
    first_bid = engine.holder < 0
    engine.holder = seat
    engine.high = bid
    if first_bid:
        _next_entrant(engine)
    else:
        engine.to_act = _opponent(engine, seat)


def _opponent(engine: Engine, seat: int) -> int:
    """Return the other party of the current duel."""
    entrant = _entrant_seat(engine)
    return engine.duel_holder if seat == entrant else entrant


def _leave(engine: Engine, seat: int) -> None:
    """``seat`` passes or joins: it is out, and the duel ends."""
    engine.passed |= 1 << seat
    _next_entrant(engine)


def _next_entrant(engine: Engine) -> None:
    engine.entrant += 1
    if engine.entrant == 4:
        _close(engine)
        return
    engine.duel_holder = engine.holder
    engine.to_act = _entrant_seat(engine)


def _close(engine: Engine) -> None:
    """End the auction: a contract, or a redeal when all passed (R4.1, A8)."""
    if engine.holder < 0:
        engine.finish("redeal")
        return
    from esmakker.core.declaring import set_contract

    joiners = tuple(
        s for s, holder, bid in engine.joins if holder == engine.holder and bid == engine.high
    )
    assert engine.high is not None
    set_contract(engine, engine.holder, engine.high, joiners)


def seat_name(seat: int) -> str:
    """Return a seat's letter."""
    return _SEAT[seat]
