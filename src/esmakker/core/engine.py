"""The mutable rules engine behind ``State``, with apply/undo for search.

``Engine`` holds a deal in masks and small lists. ``State`` (the public,
immutable API) clones it on every action and applies with ``apply_without_undo``;
search code uses the same engine directly with ``apply_unchecked``, ``play_card``
and ``undo`` (the fast path). The rules of
each phase live in their own modules; this module keeps the data, dispatches
by phase and undoes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from esmakker.core import auction, declaring, exchange, trickplay
from esmakker.core.actions import PLAYS, Action, Bid, Iron, Play, actions_of_mask, format_action
from esmakker.core.cards import Card, deck_mask
from esmakker.core.errors import IllegalActionError, Reason
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.scoring import DealOutcome, Scores

_LIST_FIELDS = ("hands", "won", "trick", "seen", "discarded", "log", "turned", "joins", "steps")
_VALUE_FIELDS = (
    "phase",
    "to_act",
    "kitty",
    "entrant",
    "holder",
    "high",
    "duel_holder",
    "used",
    "passed",
    "declarer",
    "bid",
    "trump",
    "called",
    "dealt_holder",
    "partner",
    "partner_public",
    "nolo_players",
    "exch_order",
    "exch_index",
    "to_discard",
    "leader",
    "trick_no",
    "open_seats",
    "duty_holder",
    "tricks_log",
    "outcome",
    "scores",
)


class Engine:
    """One deal's complete state, mutable, with an undo stack."""

    __slots__ = (
        "rules",
        "dealer",
        "dealt",
        "kitty_order",
        "_undo",
        *_LIST_FIELDS,
        *_VALUE_FIELDS,
    )

    rules: RuleSet
    dealer: int
    dealt: tuple[int, int, int, int]
    kitty_order: tuple[Card, ...]
    _undo: list[Any]
    hands: list[int]
    won: list[int]
    trick: list[int]
    seen: list[int]
    discarded: list[int]
    log: list[tuple[int, Action]]
    turned: list[Card]
    joins: list[tuple[int, int, Bid]]
    steps: list[Phase]
    phase: Phase
    to_act: int
    kitty: int
    entrant: int
    holder: int
    high: Bid | None
    duel_holder: int
    used: frozenset[Bid]
    passed: int
    declarer: int
    bid: Bid | None
    trump: int | None
    called: int
    dealt_holder: int
    partner: int
    partner_public: bool
    nolo_players: tuple[int, ...]
    exch_order: tuple[int, ...]
    exch_index: int
    to_discard: int
    leader: int
    trick_no: int
    open_seats: int
    duty_holder: int
    tricks_log: tuple[tuple[int, tuple[int, ...], int], ...]
    outcome: str | None
    scores: Scores | None

    @classmethod
    def new(
        cls, rules: RuleSet, dealer: int, hands: Sequence[int], kitty_order: Sequence[Card]
    ) -> Engine:
        """Return a deal at the start of its auction; the cards must form the rules' deck."""
        engine = cls()
        engine.rules = rules
        engine.dealer = dealer
        engine.dealt = (hands[0], hands[1], hands[2], hands[3])
        engine.kitty_order = tuple(kitty_order)
        engine._undo = []
        engine.hands = list(hands)
        engine.won = [0, 0, 0, 0]
        engine.trick = []
        engine.seen = [0, 0, 0, 0]
        engine.discarded = [0, 0, 0, 0]
        engine.log = []
        engine.turned = []
        engine.joins = []
        engine.steps = []
        engine.kitty = 0
        for card in kitty_order:
            engine.kitty |= 1 << card
        engine.declarer = engine.called = engine.dealt_holder = engine.partner = -1
        engine.bid = None
        engine.trump = None
        engine.partner_public = False
        engine.nolo_players = ()
        engine.exch_order = ()
        engine.exch_index = engine.to_discard = 0
        engine.leader = -1
        engine.trick_no = 0
        engine.open_seats = 0
        engine.duty_holder = -1
        engine.tricks_log = ()
        engine.outcome = None
        engine.scores = None
        auction.start(engine)
        return engine

    def clone(self) -> Engine:
        """Return an independent copy without the undo stack."""
        other = _copy(self)
        other._undo = []
        return other

    # --- queries --------------------------------------------------------------------

    @property
    def forehand(self) -> int:
        """Return the seat after the dealer."""
        return (self.dealer + 1) % 4

    @property
    def is_terminal(self) -> bool:
        """Return whether the deal is over."""
        return self.phase is Phase.DONE

    def legal_actions(self) -> list[Action]:
        """Return the legal actions of the seat to act, in a deterministic order."""
        phase = self.phase
        if phase is Phase.PLAY:
            return _plays_of(trickplay.legal_mask(self))
        if phase is Phase.DONE:
            return []
        return list(_PHASE_LEGAL[phase](self))

    def legal_actions_of(self, seat: int) -> list[Action]:
        """Return what ``seat`` may do now: its turn's actions, or an out-of-turn iron claim."""
        if seat == self.to_act:
            return self.legal_actions()
        return [_IRON] if auction.may_claim_iron(self, seat) else []

    def check(self, seat: int, action: Action) -> tuple[Reason, str] | None:
        """Return why ``seat`` may not take ``action`` now, or ``None`` if it may."""
        if self.phase is Phase.DONE:
            return Reason.GAME_OVER, "the deal is over"
        if isinstance(action, Iron):
            return auction.check_iron(self, seat)
        expected = _PHASE_OF.get(type(action), ())
        if self.phase not in expected:
            return (
                Reason.WRONG_PHASE,
                f"{format_action(action)} is not an action of the {self.phase} phase (R5.1)",
            )
        if seat != self.to_act:
            rule = _TURN_RULE[self.phase]
            return (
                Reason.NOT_YOUR_TURN,
                f"it is {_SEAT[self.to_act]}'s turn, not {_SEAT[seat]}'s ({rule})",
            )
        return _PHASE_CHECK[self.phase](self, action)

    def apply(self, seat: int, action: Action) -> None:
        """Apply an action after checking it.

        Raises:
            IllegalActionError: if the rules do not allow it; the engine is unchanged.
        """
        problem = self.check(seat, action)
        if problem is not None:
            raise illegal(seat, action, problem)
        self.apply_unchecked(seat, action)

    # --- transitions ----------------------------------------------------------------

    def apply_unchecked(self, seat: int, action: Action) -> None:
        """Apply an action known to be legal (taken from ``legal_actions``), keeping undo data."""
        if self.phase is Phase.PLAY:
            self._undo.append(trickplay.play(self, action.card))  # type: ignore[union-attr]
            self.log.append((seat, action))
            return
        self._undo.append(_copy(self))
        self._step(seat, action)

    def apply_without_undo(self, seat: int, action: Action) -> None:
        """Apply an action known to be legal and keep no undo data.

        For an engine that will not be undone past this point, such as the fresh
        clone behind each ``State``; ``undo`` must not be called for this action.
        """
        if self.phase is Phase.PLAY:
            trickplay.play(self, action.card)  # type: ignore[union-attr]
            self.log.append((seat, action))
        else:
            self._step(seat, action)

    def _step(self, seat: int, action: Action) -> None:
        """Log and apply an action outside the play."""
        self.log.append((seat, action))
        if isinstance(action, Iron):
            auction.claim_iron(self, seat)
        else:
            _PHASE_APPLY[self.phase](self, action)

    def play_card(self, card: int) -> None:
        """Fast path: play ``card`` for the seat to act (must be legal)."""
        logged = _LOGGED_PLAYS[self.to_act][card]
        self._undo.append(trickplay.play(self, card))
        self.log.append(logged)

    def undo(self) -> None:
        """Take back the last action applied on this engine."""
        data = self._undo.pop()
        if type(data) is Engine:  # a copy, taken before the action was logged
            _copy_into(self, data)
        else:
            self.log.pop()
            trickplay.unplay(self, data)

    # --- hand-over between phases ------------------------------------------------------

    def next_step(self) -> None:
        """Move to the next declaring step, or to the play when none is left."""
        if self.steps:
            step = self.steps.pop(0)
            _PHASE_START[step](self)
        else:
            trickplay.start(self)

    def finish(self, outcome: str) -> None:
        """End the deal: score it, or mark a redeal."""
        self.phase = Phase.DONE
        self.to_act = -1
        self.outcome = outcome
        if outcome == "redeal":
            self.scores = (0, 0, 0, 0)
            return
        from esmakker.core.scoring import score_deal

        self.scores = score_deal(self.deal_outcome(), self.rules)

    def deal_outcome(self) -> DealOutcome:
        """Return the facts scoring needs (only for a played deal)."""
        assert self.bid is not None
        return DealOutcome(
            bid=self.bid,
            declarer=self.declarer,
            partner=self.partner if self.partner >= 0 else None,
            nolo_players=self.nolo_players,
            tricks=(self.won[0], self.won[1], self.won[2], self.won[3]),
            vip_flips=len(self.turned),
        )

    def deck_is_valid(self) -> bool:
        """Return whether hands and kitty hold every card of the deck exactly once."""
        total = 0
        count = 0
        for mask in (*self.dealt, *(1 << c for c in self.kitty_order)):
            total |= mask
            count += mask.bit_count()
        return total == deck_mask(self.rules.num_jokers) and count == 52 + self.rules.num_jokers


def illegal(seat: int, action: Action, problem: tuple[Reason, str]) -> IllegalActionError:
    """Return the one-line error for ``seat`` taking ``action``, from ``check``'s answer."""
    reason, message = problem
    text = format_action(action)
    name = _SEAT[seat]
    return IllegalActionError(f"{name} {text}: {message}", reason=reason, seat=name, action=text)


def _plays_of(mask: int) -> list[Action]:
    """Return the play actions of the cards in ``mask``, low to high."""
    return actions_of_mask(PLAYS, mask)


def _copy(source: Engine) -> Engine:
    """Return a copy of ``source`` without its undo stack (lists copied, values shared)."""
    target = Engine()
    _copy_into(target, source)
    return target


def _copy_into(target: Engine, source: Engine) -> None:
    """Copy every field but the undo stack; written out because it is the hot path of ``State``.

    ``tests/core/test_fast_path.py`` checks that it covers every slot.
    """
    target.rules = source.rules
    target.dealer = source.dealer
    target.dealt = source.dealt
    target.kitty_order = source.kitty_order
    target.hands = source.hands.copy()
    target.won = source.won.copy()
    target.trick = source.trick.copy()
    target.seen = source.seen.copy()
    target.discarded = source.discarded.copy()
    target.log = source.log.copy()
    target.turned = source.turned.copy()
    target.joins = source.joins.copy()
    target.steps = source.steps.copy()
    target.phase = source.phase
    target.to_act = source.to_act
    target.kitty = source.kitty
    target.entrant = source.entrant
    target.holder = source.holder
    target.high = source.high
    target.duel_holder = source.duel_holder
    target.used = source.used
    target.passed = source.passed
    target.declarer = source.declarer
    target.bid = source.bid
    target.trump = source.trump
    target.called = source.called
    target.dealt_holder = source.dealt_holder
    target.partner = source.partner
    target.partner_public = source.partner_public
    target.nolo_players = source.nolo_players
    target.exch_order = source.exch_order
    target.exch_index = source.exch_index
    target.to_discard = source.to_discard
    target.leader = source.leader
    target.trick_no = source.trick_no
    target.open_seats = source.open_seats
    target.duty_holder = source.duty_holder
    target.tricks_log = source.tricks_log
    target.outcome = source.outcome
    target.scores = source.scores


_SEAT = "NESW"
_LOGGED_PLAYS = tuple(tuple((seat, play) for play in PLAYS) for seat in range(4))
"""The log entry of every seat's play of every card, shared by all engines."""
_IRON = Iron()

from esmakker.core.actions import (  # noqa: E402  (tables after the class they serve)
    Accept,
    CallCard,
    Decline,
    Discard,
    Hold,
    Join,
    NameTrump,
    Pass,
    Take,
    Turn,
)

_TURN_RULE = {
    Phase.AUCTION: "R4.1",
    Phase.TRUMP: "R5.3",
    Phase.CALL: "R5.2",
    Phase.VIP: "R5.3.2",
    Phase.EXCHANGE: "R5.4",
    Phase.PLAY: "R6.1",
}
_PHASE_OF: dict[type, tuple[Phase, ...]] = {
    Pass: (Phase.AUCTION,),
    Bid: (Phase.AUCTION,),
    Hold: (Phase.AUCTION,),
    Join: (Phase.AUCTION,),
    NameTrump: (Phase.TRUMP,),
    CallCard: (Phase.CALL,),
    Turn: (Phase.VIP,),
    Accept: (Phase.VIP,),
    Take: (Phase.EXCHANGE,),
    Discard: (Phase.EXCHANGE,),
    Decline: (Phase.EXCHANGE,),
    Play: (Phase.PLAY,),
}
_PHASE_LEGAL = {
    Phase.AUCTION: auction.legal,
    Phase.TRUMP: declaring.legal_trumps,
    Phase.CALL: declaring.legal_calls_now,
    Phase.VIP: declaring.legal_vip,
    Phase.EXCHANGE: exchange.legal,
}
_PHASE_CHECK = {
    Phase.AUCTION: auction.check,
    Phase.TRUMP: declaring.check_trump,
    Phase.CALL: declaring.check_call,
    Phase.VIP: declaring.check_vip,
    Phase.EXCHANGE: exchange.check,
    Phase.PLAY: trickplay.check,
}
_PHASE_APPLY = {
    Phase.AUCTION: auction.apply,
    Phase.TRUMP: declaring.apply_trump,
    Phase.CALL: declaring.apply_call,
    Phase.VIP: declaring.apply_vip,
    Phase.EXCHANGE: exchange.apply,
}
_PHASE_START = {
    Phase.TRUMP: declaring.start_trump,
    Phase.CALL: declaring.start_call,
    Phase.VIP: declaring.start_vip,
    Phase.EXCHANGE: exchange.start,
}
