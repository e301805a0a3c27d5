"""Cards, suits and actions as coloured terminal text (Rich ``Text``)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text

from esmakker.core.actions import (
    Accept,
    Action,
    Bid,
    CallCard,
    Decline,
    Discard,
    Hold,
    Iron,
    Join,
    NameTrump,
    Pass,
    Play,
    Take,
    Turn,
)
from esmakker.core.cards import Card, Suit
from esmakker.tui.i18n import bid_name, t

SYMBOLS = {Suit.S: "♠", Suit.H: "♥", Suit.D: "♦", Suit.C: "♣"}
STYLES = {Suit.S: "bold", Suit.H: "bold red", Suit.D: "bold red", Suit.C: "bold"}
JOKER_STYLE = "bold magenta"


def rank_text(card: Card) -> str:
    """Return a card's rank as printed on it (``10`` for ten, ``A``; ``1``-``3`` for jokers)."""
    if card.is_joker:
        return card.name[1]
    letter = card.name[1]
    return "10" if letter == "T" else letter


def card_text(card: Card) -> Text:
    """Return ``♥Q``, ``♠10`` or ``★1`` in the suit's colour."""
    if card.suit is None:
        return Text(f"★{rank_text(card)}", style=JOKER_STYLE)
    return Text(f"{SYMBOLS[card.suit]}{rank_text(card)}", style=STYLES[card.suit])


def cards_text(cards: Iterable[Card], sep: str = " ") -> Text:
    """Return cards one after another."""
    return Text(sep).join(card_text(card) for card in cards)


def suit_text(suit: Suit | None) -> Text:
    """Return a suit symbol in its colour, or the word for no trumps."""
    if suit is None:
        return Text(t("term.no_trumps"))
    return Text(SYMBOLS[suit], style=STYLES[suit])


def action_text(action: Action) -> Text:
    """Return an action as the player reads it in the list of choices."""
    if isinstance(action, Bid):
        return Text(t("act.bid", bid=bid_name(action)))
    if isinstance(action, NameTrump):
        return Text(t("act.trump")) + " " + suit_text(action.suit)
    if isinstance(action, CallCard):
        return Text(t("act.call")) + " " + card_text(action.card)
    if isinstance(action, Take):
        if action.cards is None:
            return Text(t("act.take_all"))
        return Text(t("act.take")) + " " + cards_text(action.cards)
    if isinstance(action, Discard):
        return Text(t("act.discard")) + " " + card_text(action.card)
    if isinstance(action, Play):
        return Text(t("act.play")) + " " + card_text(action.card)
    return Text(t(_SIMPLE[type(action)]))


_SIMPLE: dict[type, str] = {
    Pass: "act.pass",
    Hold: "act.hold",
    Join: "act.join",
    Iron: "act.iron",
    Turn: "act.turn",
    Accept: "act.accept",
    Decline: "act.decline",
}


def call_text(action: Action) -> str:
    """Return an auction call in short (``pass``, ``9 vip``, ``hold``)."""
    if isinstance(action, Bid):
        return bid_name(action)
    return t(_SIMPLE[type(action)])


def step_text(action: Action | object) -> Text:
    """Return a step of a deal's history; cards the seat has not seen stay ``??``."""
    if isinstance(action, Bid):
        return Text(bid_name(action))
    if type(action) in _SIMPLE or isinstance(action, NameTrump | CallCard | Take | Discard | Play):
        return action_text(action)  # type: ignore[arg-type]
    return Text(str(action))
