"""The error types of the rules core (architecture 4.6)."""

from __future__ import annotations

from enum import StrEnum


class EsmakkerError(Exception):
    """Root of every error the package raises on purpose."""


class NotationError(EsmakkerError, ValueError):
    """Text that does not parse: a card, a bid, an action or a record."""


class RulesConfigError(EsmakkerError, ValueError):
    """A rule set whose options make no sense together, or an unknown option."""


class InvalidDealError(EsmakkerError, ValueError):
    """Hands and kitty that do not form the rules' deck, 13 cards to each seat."""


class CorruptRecordError(NotationError):
    """A hand record that is malformed or whose stored result disagrees with its replay."""


class Reason(StrEnum):
    """Why an action is illegal; crosses the wire as an error code."""

    WRONG_PHASE = "wrong_phase"
    NOT_YOUR_TURN = "not_your_turn"
    GAME_OVER = "game_over"
    NOT_ALLOWED_BY_RULES = "not_allowed_by_rules"
    BID_TOO_LOW = "bid_too_low"
    BID_UNKNOWN = "bid_unknown"
    MUST_OPEN = "must_open"
    HOLD_NOT_ALLOWED = "hold_not_allowed"
    JOIN_NOT_ALLOWED = "join_not_allowed"
    IRON_HAND_NOT_ALLOWED = "iron_hand_not_allowed"
    TRUMP_NOT_ALLOWED = "trump_not_allowed"
    CALL_NOT_ALLOWED = "call_not_allowed"
    NOTHING_TO_TURN = "nothing_to_turn"
    MUST_TURN = "must_turn"
    MUST_TAKE = "must_take"
    CARD_NOT_IN_KITTY = "card_not_in_kitty"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    MUST_DISCARD = "must_discard"
    CALLED_CARD_MAY_NOT_BE_DISCARDED = "called_card_may_not_be_discarded"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    NO_JOKER_LEAD_FIRST_TRICK = "no_joker_lead_first_trick"
    JOKER_ONLY_WHEN_VOID = "joker_only_when_void"
    CALLED_CARD_MUST_BE_PLAYED = "called_card_must_be_played"
    CALLED_CARD_MUST_BE_LED = "called_card_must_be_led"


class IllegalActionError(EsmakkerError, ValueError):
    """A well-formed action that the rules do not allow at this point."""

    def __init__(self, message: str, *, reason: Reason, seat: str | None, action: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.seat = seat
        self.action = action
