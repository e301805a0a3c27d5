"""Typed actions: ``HQ``, ``play HQ``, ``9 vip``, ``bid 9 vip``, ``pass``, ``ren sol``, ``trump H``."""

from __future__ import annotations

from collections.abc import Sequence

from esmakker.core.actions import Action, Bid, CallCard, Discard, NameTrump, Play, parse_action
from esmakker.core.cards import Card, Suit
from esmakker.core.errors import NotationError
from esmakker.tui.i18n import DANISH_TERMS


def candidates(text: str) -> list[Action]:
    """Return the actions ``text`` may mean, most likely first (none if it means nothing)."""
    text = _kind_words(" ".join(text.split()))
    found: list[Action] = []
    for reader in (_action, _card, _bid, _suit):
        found += reader(text)
    return found


def resolve(text: str, legal: Sequence[Action]) -> Action | None:
    """Return the legal action ``text`` means, or ``None``."""
    return next((action for action in candidates(text) if action in legal), None)


def _kind_words(text: str) -> str:
    """Write Danish multi-word bids the notation's way (``ren sol`` → ``ren_sol``)."""
    lowered = text.lower().replace("ae", "æ")
    for kind, term in sorted(DANISH_TERMS.items(), key=lambda item: -len(item[1])):
        if " " in term and term in lowered:
            lowered = lowered.replace(term, kind.value)
    return lowered


def _action(text: str) -> list[Action]:
    try:
        return [parse_action(text)]
    except NotationError:
        return []


def _card(text: str) -> list[Action]:
    try:
        card = Card.parse(text)
    except NotationError:
        return []
    return [Play(card), Discard(card), CallCard(card)]


def _bid(text: str) -> list[Action]:
    try:
        return [Bid.parse(text)]
    except NotationError:
        return []


def _suit(text: str) -> list[Action]:
    try:
        return [NameTrump(Suit.parse(text))]
    except NotationError:
        return []
