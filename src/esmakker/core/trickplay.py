"""The play of the cards: legal cards, the called-card duty, tricks, open hands, early end.

Hot path of the engine: everything here works on int masks (rules.md section 6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from esmakker.core.actions import NOLO_KINDS, Action, BidKind, Play
from esmakker.core.cards import CARDS, JOKER_BASE, SUIT_MASKS
from esmakker.core.errors import Reason
from esmakker.core.phase import Phase
from esmakker.core.play import follow_mask, lead_mask, led_suit, trick_winner
from esmakker.core.scoring import nolo_broken, trick_limit

if TYPE_CHECKING:
    from esmakker.core.engine import Engine

ALL_SEATS = 0b1111
PlayUndo = int | tuple[Any, ...]
"""What ``unplay`` needs: the card alone, or the fields a card may change (see ``play``)."""
_BORDLAEGGER = (BidKind.BORDLAEGGER, BidKind.REN_BORDLAEGGER)


def start(engine: Engine) -> None:
    """Begin the play: the first leader, the called-card duty, hands open from the start."""
    engine.phase = Phase.PLAY
    first = engine.forehand if engine.rules.first_lead == "forehand" else engine.declarer
    engine.leader = engine.to_act = first
    engine.trick_no = 0
    engine.duty_holder = _duty_holder(engine)
    assert engine.bid is not None
    if engine.bid.kind is BidKind.SUPER_BORDLAEGGER:
        engine.open_seats = ALL_SEATS


def _duty_holder(engine: Engine) -> int:
    """Return the seat bound to play the called card (clarification 3), or -1."""
    called = engine.called
    if called < 0:
        return -1
    for seat in (engine.dealt_holder, engine.declarer):
        if seat >= 0 and engine.hands[seat] >> called & 1:
            return seat
    return -1


def legal_mask(engine: Engine) -> int:
    """Return the mask of cards the seat to act may play (the hot path of search and bench).

    The common cases come first: no called-card duty, then a lead or a card lead
    (whose suit is the card's: ``led_suit`` is needed only after a joker lead).
    """
    seat = engine.to_act
    hand = engine.hands[seat]
    if seat == engine.duty_holder and hand >> engine.called & 1:
        return _duty_mask(engine, hand)
    trick = engine.trick
    if not trick:
        return lead_mask(hand, engine.trick_no, engine.rules)
    lead = trick[0]
    suit = lead // 13 if lead < JOKER_BASE else led_suit(trick, engine.rules)
    return follow_mask(hand, suit, engine.rules)


def _duty_mask(engine: Engine, hand: int) -> int:
    """Return the legal cards of a player who still holds the called card he is bound to (R6.5)."""
    rules, called, trick = engine.rules, engine.called, engine.trick
    if not trick:
        mask = lead_mask(hand, engine.trick_no, rules)
        if rules.called_ace_forced_on_own_lead:
            mask &= ~(SUIT_MASKS[called // 13] & ~(1 << called))
        return mask
    lead = trick[0]
    if lead < JOKER_BASE and lead // 13 == called // 13:
        return 1 << called
    suit = led_suit(trick, rules)
    mask = follow_mask(hand, suit, rules)
    throw_away = suit != called // 13 and called // 13 != engine.trump
    if throw_away and not rules.called_ace_may_be_discarded:
        rest = mask & ~(1 << called)
        return rest or mask
    return mask


def check(engine: Engine, action: Action) -> tuple[Reason, str] | None:
    """Explain why the card may not be played, or return ``None``."""
    assert isinstance(action, Play)
    card = int(action.card)
    hand = engine.hands[engine.to_act]
    if not hand >> card & 1:
        return Reason.CARD_NOT_IN_HAND, f"{action.card} is not in the hand (R6.2)"
    if legal_mask(engine) >> card & 1:
        return None
    return _explain(engine, card, hand)


def _explain(engine: Engine, card: int, hand: int) -> tuple[Reason, str]:
    name, called = CARDS[card].name, CARDS[engine.called].name if engine.called >= 0 else ""
    if not engine.trick:
        if card >= JOKER_BASE:
            return (
                Reason.NO_JOKER_LEAD_FIRST_TRICK,
                "a joker may not be led to the first trick (R6.1)",
            )
        return (
            Reason.CALLED_CARD_MUST_BE_LED,
            f"the called card {called} must be led before any other card of its suit (R6.5)",
        )
    suit = led_suit(engine.trick, engine.rules)
    if suit >= 0 and hand & SUIT_MASKS[suit]:
        bound = engine.to_act == engine.duty_holder and hand >> engine.called & 1
        if bound and engine.trick[0] < JOKER_BASE and engine.trick[0] // 13 == engine.called // 13:
            return (
                Reason.CALLED_CARD_MUST_BE_PLAYED,
                f"the called card {called} must be played when its suit is led (R6.5)",
            )
        if card >= JOKER_BASE:
            return (
                Reason.JOKER_ONLY_WHEN_VOID,
                f"a joker may be played only when void in {_NOUNS[suit]} (R6.3)",
            )
        return (
            Reason.MUST_FOLLOW_SUIT,
            f"must follow {_NOUNS[suit]}; {name} is not one of them (R6.2)",
        )
    return (
        Reason.CALLED_CARD_MAY_NOT_BE_DISCARDED,
        f"the called card {called} may not be thrown away before its suit is led (R6.5)",
    )


_NOUNS = ("clubs", "diamonds", "hearts", "spades")


def play(engine: Engine, card: int) -> PlayUndo:
    """Play ``card`` for the seat to act; return the data that ``unplay`` needs.

    Most cards only move from a hand to the trick: for them the undo data is the
    card alone. A card that may change more (the called card, a card of the first
    trick, the last card of a trick) returns a tuple of what it may change.
    """
    if card == engine.called or not engine.trick_no or len(engine.trick) == 3:
        return _play_keeping_state(engine, card)
    seat = engine.to_act
    engine.hands[seat] &= ~(1 << card)
    engine.trick.append(card)
    engine.to_act = (seat + 1) & 3
    return card


def _play_keeping_state(engine: Engine, card: int) -> PlayUndo:
    seat = engine.to_act
    undo = (seat, card, engine.partner_public, engine.open_seats, engine.tricks_log)
    engine.hands[seat] &= ~(1 << card)
    trick = engine.trick
    trick.append(card)
    if card == engine.called:
        engine.partner_public = True
    if not engine.trick_no and engine.open_seats != ALL_SEATS:
        _open_on_card(engine, seat)
    if len(trick) < 4:
        engine.to_act = (seat + 1) & 3
    else:
        _complete_trick(engine)
    return undo


def _complete_trick(engine: Engine) -> None:
    trick, rules, bid = engine.trick, engine.rules, engine.bid
    assert bid is not None
    nolo = bid.kind in NOLO_KINDS
    trump = engine.trump if engine.trump is not None else -1
    leader = engine.leader
    winner = (leader + trick_winner(trick, trump, nolo and rules.nolo_aces_low, rules)) & 3
    engine.won[winner] += 1
    engine.tricks_log = (*engine.tricks_log, (leader, tuple(trick), winner))
    trick.clear()
    engine.trick_no += 1
    engine.leader = engine.to_act = winner
    if engine.trick_no == 1:
        _open_after_first_trick(engine)
    if engine.trick_no == 13 or (nolo and rules.stop_when_nolo_broken and _all_broken(engine)):
        engine.finish("played")


def _all_broken(engine: Engine) -> bool:
    assert engine.bid is not None
    limit = trick_limit(engine.bid.kind, engine.rules)
    return all(nolo_broken(engine.won[p], limit) for p in engine.nolo_players)


def _bordlaegger_seats(engine: Engine) -> int:
    if engine.rules.open_who_bordlaegger == "all":
        return ALL_SEATS
    mask = 0
    for seat in engine.nolo_players:
        mask |= 1 << seat
    return mask


def _open_on_card(engine: Engine, seat: int) -> None:
    """Open bordlægger hands on a card of the first trick, where the timing says so."""
    assert engine.bid is not None
    if engine.bid.kind not in _BORDLAEGGER:
        return
    timing = engine.rules.open_timing_bordlaegger
    if (timing == "after_first_lead" and len(engine.trick) == 1) or (
        timing == "after_declarer_first_card" and seat == engine.declarer
    ):
        engine.open_seats |= _bordlaegger_seats(engine)


def _open_after_first_trick(engine: Engine) -> None:
    assert engine.bid is not None
    kind = engine.bid.kind
    if kind is BidKind.DOUBLE_NOLO:
        engine.open_seats = ALL_SEATS
    elif kind in _BORDLAEGGER and engine.rules.open_timing_bordlaegger == "after_first_trick":
        engine.open_seats |= _bordlaegger_seats(engine)


def unplay(engine: Engine, undo: PlayUndo) -> None:
    """Take back the last card played."""
    if isinstance(undo, int):
        seat = (engine.to_act - 1) & 3
        engine.hands[seat] |= 1 << engine.trick.pop()
        engine.to_act = seat
        return
    seat, card, partner_public, open_seats, tricks_log = undo
    if engine.tricks_log is not tricks_log:
        leader, cards, winner = engine.tricks_log[-1]
        engine.won[winner] -= 1
        engine.trick[:] = cards[:3]
        engine.trick_no -= 1
        engine.leader = leader
        engine.tricks_log = tricks_log
        if engine.phase is Phase.DONE:
            engine.phase = Phase.PLAY
            engine.outcome = None
            engine.scores = None
    else:
        engine.trick.pop()
    engine.hands[seat] |= 1 << card
    engine.to_act = seat
    engine.partner_public = partner_public
    engine.open_seats = open_seats


def play_action(card: int) -> Play:
    """Return the interned play action of a card."""
    return _PLAYS[card]


_PLAYS = tuple(Play(c) for c in CARDS)
