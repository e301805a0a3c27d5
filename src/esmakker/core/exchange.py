"""The exchange with the kitty: whole or partial, passed on when declined (rules.md 5.4)."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from esmakker.core.actions import (
    DECLINE,
    DISCARDS,
    TAKE_ALL,
    Action,
    BidKind,
    Decline,
    Discard,
    Take,
    actions_of_mask,
)
from esmakker.core.cards import CardSet, iter_mask
from esmakker.core.errors import Reason
from esmakker.core.phase import Phase

if TYPE_CHECKING:
    from esmakker.core.engine import Engine


def start(engine: Engine) -> None:
    """Begin the exchange with the first exchanger of the contract."""
    engine.phase = Phase.EXCHANGE
    engine.exch_order = exchange_order(engine)
    engine.exch_index = 0
    engine.to_discard = 0
    _begin_turn(engine)


def exchange_order(engine: Engine) -> tuple[int, ...]:
    """Return who may exchange, in turn (R5.4, clarification 1).

    Number contracts start with the declarer (in halve with ``halve_exchanger =
    partner``, the partner) and pass on clockwise; nolo contracts offer the kitty
    to the last gå-med joiner first, then back towards the declarer, never to a
    defender.
    """
    bid, rules, declarer = engine.bid, engine.rules, engine.declarer
    assert bid is not None
    single = rules.exchange_model == "whole_declarer_only"
    if bid.is_nolo:
        joiners = engine.nolo_players[1:]
        return (declarer,) if single else (*reversed(joiners), declarer)
    if _mandatory(engine):
        return (declarer,)
    first = declarer
    if bid.kind is BidKind.HALVE and rules.halve_exchanger == "partner" and engine.partner >= 0:
        first = engine.partner
    if single:
        return (first,)
    return tuple((first + i) % 4 for i in range(4))


def _mandatory(engine: Engine) -> bool:
    bid = engine.bid
    assert bid is not None
    return bid.kind is BidKind.VIP and engine.rules.vip_exchange == "mandatory_whole"


def _partial(engine: Engine) -> bool:
    return engine.rules.exchange_model == "partial_pass_remainder" and not _mandatory(engine)


def _begin_turn(engine: Engine) -> None:
    seat = engine.exch_order[engine.exch_index]
    engine.to_act = seat
    if _partial(engine):
        # R5.4 (X2): the exchanger looks at the cards offered before choosing.
        engine.seen[seat] |= engine.kitty


def may_discard(engine: Engine, seat: int, card: int) -> bool:
    """Return whether ``seat`` may lay ``card`` away (the bound holder keeps the called card)."""
    if card != engine.called:
        return True
    return seat not in (engine.dealt_holder, engine.declarer)


def legal(engine: Engine) -> list[Action]:
    """Return the exchange actions: discards while owed, else take (subsets) and decline."""
    seat = engine.to_act
    if engine.to_discard:
        hand = engine.hands[seat]
        if engine.called >= 0 and not may_discard(engine, seat, engine.called):
            hand &= ~(1 << engine.called)
        return actions_of_mask(DISCARDS, hand)
    actions: list[Action] = [TAKE_ALL]
    if _partial(engine):
        cards = list(iter_mask(engine.kitty))
        for size in range(len(cards) - 1, 0, -1):
            actions.extend(Take(CardSet(combo)) for combo in combinations(cards, size))
    if not _mandatory(engine):
        actions.append(DECLINE)
    return actions


def normalise(engine: Engine, action: Take) -> Take:
    """Return ``take`` for a take that lists the whole kitty (clarification 5)."""
    if action.cards is not None and action.cards.mask == engine.kitty:
        return TAKE_ALL
    return action


def check(engine: Engine, action: Action) -> tuple[Reason, str] | None:
    """Explain why the exchange action is illegal, or return ``None``."""
    if isinstance(action, Discard):
        return _check_discard(engine, action)
    if engine.to_discard:
        return Reason.MUST_DISCARD, f"lay away {engine.to_discard} more card(s) first (R5.4)"
    if isinstance(action, Decline):
        if _mandatory(engine):
            return Reason.MUST_TAKE, "in vip the declarer must take the whole kitty (R5.3.2)"
        return None
    assert isinstance(action, Take)
    if action.cards is None:
        return None
    if action.cards.mask & ~engine.kitty:
        return (
            Reason.CARD_NOT_IN_KITTY,
            f"{action.cards} is not among the kitty cards on offer (R5.4)",
        )
    if action.cards.mask != engine.kitty and not _partial(engine):
        return (
            Reason.NOT_ALLOWED_BY_RULES,
            "only the whole kitty may be taken (exchange_model, R5.4)",
        )
    return None


def _check_discard(engine: Engine, action: Discard) -> tuple[Reason, str] | None:
    seat, card = engine.to_act, int(action.card)
    if not engine.to_discard:
        return (
            Reason.NOT_ALLOWED_BY_RULES,
            "nothing is to be laid away: take kitty cards first (R5.4)",
        )
    if not engine.hands[seat] >> card & 1:
        return Reason.CARD_NOT_IN_HAND, f"{action.card} is not in the hand (R5.4)"
    if not may_discard(engine, seat, card):
        why = (
            f"{action.card} is the called card: its holder may not lay it away (R6.5, decision 14)"
        )
        return Reason.CALLED_CARD_MAY_NOT_BE_DISCARDED, why
    return None


def apply(engine: Engine, action: Action) -> None:
    """Take, discard or decline; move on when the exchanger is done."""
    seat = engine.to_act
    if isinstance(action, Take):
        engine.log[-1] = (seat, normalise(engine, action))
        mask = engine.kitty if action.cards is None else action.cards.mask
        engine.hands[seat] |= mask
        engine.kitty &= ~mask
        engine.seen[seat] |= mask
        engine.to_discard = mask.bit_count()
    elif isinstance(action, Discard):
        bit = 1 << action.card
        engine.hands[seat] &= ~bit
        engine.discarded[seat] |= bit
        engine.to_discard -= 1
        if not engine.to_discard:
            _after_take(engine)
    else:
        _pass_on(engine)


def _after_take(engine: Engine) -> None:
    if _partial(engine) and engine.kitty:
        _pass_on(engine)
    else:
        engine.next_step()


def _pass_on(engine: Engine) -> None:
    engine.exch_index += 1
    if engine.exch_index >= len(engine.exch_order):
        engine.next_step()
    else:
        _begin_turn(engine)
