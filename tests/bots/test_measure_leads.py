"""The lead study's types and rules (``scripts/measure_leads.py``, decision 124)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from esmakker.core.cards import Card
from support import load_script


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script("measure_leads")


def _lead(hand: list[Card], values: dict[Card, int], chosen: Card, **extra: Any) -> dict[str, Any]:
    lead: dict[str, Any] = {
        "deal": 1,
        "left": 13,
        "role": "defender",
        "trump": 2,  # hearts
        "called": -1,
        "hand": [int(c) for c in hand],
        "played": [],
        "values": {str(int(c)): v for c, v in values.items()},
        "chosen": int(chosen),
    }
    lead.update(extra)
    return lead


HAND = [Card.X1, Card.HA, Card.H5, Card.SA, Card.SK, Card.SQ, Card.DQ, Card.D4, Card.C7, Card.C3]


@pytest.mark.parametrize(
    ("card", "kind"),
    [
        (Card.X1, "joker"),
        (Card.HA, "trump_top"),
        (Card.H5, "trump_low"),
        (Card.SK, "side_top"),  # the spade ace above it is in the same hand
        (Card.DQ, "side_honour"),
        (Card.D4, "low_by_honour"),
        (Card.C3, "side_low"),
    ],
)
def test_a_lead_is_typed_by_trumps_its_suits_top_and_honours(
    script: ModuleType, card: Card, kind: str
) -> None:
    assert script.lead_type(int(card), _lead(HAND, {card: 0}, card)) == kind


def test_a_card_is_a_suits_top_once_the_higher_cards_are_played(script: ModuleType) -> None:
    lead = _lead(HAND, {Card.DQ: 0}, Card.DQ, played=[int(Card.DA), int(Card.DK)])
    assert script.lead_type(int(Card.DQ), lead) == "side_top"


def test_a_cards_cost_is_its_tricks_below_the_best_lead(script: ModuleType) -> None:
    lead = _lead(HAND, {Card.SA: 5, Card.C3: 3, Card.D4: 4}, Card.C3)
    assert script._costs(lead) == {int(Card.SA): 0, int(Card.C3): 2, int(Card.D4): 1}


def test_a_type_rule_plays_the_type_that_cost_least_and_keeps_where_none_is_cheaper(
    script: ModuleType,
) -> None:
    low_loses = _lead(HAND, {Card.SA: 5, Card.C3: 3}, Card.C3)
    low_wins = _lead(HAND, {Card.SA: 3, Card.C3: 5}, Card.C3, role="declarer")
    rule = script.fit_rule([low_loses, low_wins])
    assert rule == {("defender", "side_low"): "side_top"}
    assert script._rule_cost(low_loses, rule) == 0
    assert script._rule_cost(low_wins, rule) == 0  # kept: the declarer's cell is not changed
