"""Typed actions: cards, bids and words resolve to the legal action they mean."""

from __future__ import annotations

from esmakker.core.actions import PASS, Action, Bid, BidKind, CallCard, Discard, NameTrump, Play
from esmakker.core.cards import Card, Suit
from esmakker.tui.typing import candidates, resolve


def test_a_card_means_a_play_when_plays_are_legal() -> None:
    assert resolve("hq", [Play(Card.HQ), Play(Card.S2)]) == Play(Card.HQ)
    assert resolve("S10", [Play(Card.ST)]) == Play(Card.ST)


def test_a_card_means_a_discard_in_the_exchange() -> None:
    assert resolve("X1", [Discard(Card.X1)]) == Discard(Card.X1)


def test_a_card_means_a_call_when_calling() -> None:
    assert resolve("SA", [CallCard(Card.SA), CallCard(Card.HA)]) == CallCard(Card.SA)


def test_bids_may_be_typed_with_or_without_the_verb() -> None:
    legal: list[Action] = [PASS, Bid(9, BidKind.VIP), Bid(None, BidKind.REN_SOL)]
    assert resolve("9 vip", legal) == Bid(9, BidKind.VIP)
    assert resolve("bid 9 vip", legal) == Bid(9, BidKind.VIP)
    assert resolve("ren sol", legal) == Bid(None, BidKind.REN_SOL)
    assert resolve("pass", legal) == PASS


def test_a_suit_letter_names_trumps() -> None:
    assert resolve("h", [NameTrump(Suit.H), NameTrump(Suit.S)]) == NameTrump(Suit.H)


def test_an_illegal_card_resolves_to_nothing_but_is_understood() -> None:
    assert resolve("HQ", [Play(Card.S2)]) is None
    assert candidates("HQ")


def test_nonsense_is_not_understood() -> None:
    assert candidates("hello there") == []
