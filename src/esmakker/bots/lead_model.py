"""An early lead chosen by a learned model of each card's double-dummy cost (decisions 135 and 136).

Four heuristic bots' leads of number contracts with ten or more tricks left were valued
card by card double dummy on the real deal (``scripts/measure_leads.py gather``), and
gradient-boosted regression trees learned each legal card's cost from what the leader can
see (``card_features``; ``scripts/train_lead_model.py`` fits and exports them). The model
is kept as plain trees in ``lead_model.json`` and evaluated here without any dependency:
a card's predicted cost is the baseline plus one leaf value per tree, and the lead is the
card of least predicted cost.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Self

from esmakker.bots.evaluation import suit_len
from esmakker.bots.knowledge import FOE, FRIEND, Knowledge
from esmakker.core.cards import JOKER_BASE, JOKERS_MASK, SUIT_MASKS
from esmakker.core.view import PlayerView

MODEL_PATH = Path(__file__).with_name("lead_model.json")
KINDS = ("plain", "vip", "gode", "halve", "staerke", "sans")
"""The number contracts' attachments, one feature each."""
HONOUR = 9
"""A suit card's order from which it counts as an honour (the jack)."""


def card_features(k: Knowledge, view: PlayerView, card: int, heuristic: int) -> dict[str, float]:
    """Return what the leader sees about leading ``card`` (``heuristic``: the heuristic's lead)."""
    return lead_features(k, view) | _card_lead(k, card, heuristic)


def lead_features(k: Knowledge, view: PlayerView) -> dict[str, float]:
    """Return the features every card of one lead shares: role, trumps, contract."""
    features = _role(k) | _trumps(k) | _contract(view)
    features["n_legal"] = len(view.legal_actions)
    features["suits_held"] = sum(1 for mask in SUIT_MASKS if k.hand & mask)
    return features


def _card_lead(k: Knowledge, card: int, heuristic: int) -> dict[str, float]:
    """Return the features of one card of a lead, beside the heuristic's own card."""
    return card_place(k, card) | suit_play(k, card) | heuristic_features(k, card, heuristic)


def _role(k: Knowledge) -> dict[str, float]:
    declarer = k.seat == k.declarer
    partner = not declarer and k.partner == k.seat
    return {
        "decl": declarer,
        "part": partner,
        "def": not declarer and not partner,
        "left": 13 - k.trick_no,
        "decl_off": (k.declarer - k.seat) % 4,
        "part_off": (k.partner - k.seat) % 4 if k.partner >= 0 else 0,
        "partner_sure": k.partner_sure,
    }


def card_place(k: Knowledge, card: int) -> dict[str, float]:
    """Return the card's place in its suit: rank, length, honours, sequences, winners."""
    if card >= JOKER_BASE:
        above = k.jokers_out() & ~((1 << (card + 1)) - 1)
        return {
            "joker": 1,
            "is_trump": 0,
            "slen": 0,
            "rank": 13,
            "higher_out": above.bit_count(),
            "hon": 0,
            "lowest": 1,
            "highest": 1,
            "seq": 0,
            "out_in_suit": 0,
            "rank_from_top": 0,
            "masters": 0,
            "tenace": 0,
        }
    suit = card // 13
    mine = [c for c in range(suit * 13, suit * 13 + 13) if k.hand >> c & 1]
    orders = sorted((k.strength(c) for c in mine), reverse=True)
    own = k.strength(card)
    outside = [k.strength(c) for c in range(suit * 13, suit * 13 + 13) if k.others >> c & 1]
    higher = [order for order in orders if order > own]
    return {
        "joker": 0,
        "is_trump": suit == k.trump,
        "slen": suit_len(k.hand, suit),
        "rank": own,
        "higher_out": k.higher_outstanding(card).bit_count(),
        "hon": sum(1 for order in orders if order >= HONOUR),
        "lowest": own == orders[-1],
        "highest": own == orders[0],
        "seq": own - 1 in orders,
        "out_in_suit": len(outside),
        "rank_from_top": orders.index(own),
        "masters": _masters(orders, outside),
        "tenace": bool(higher) and any(own < order < min(higher) for order in outside),
    }


def _masters(orders: list[int], outside: list[int]) -> int:
    """Return how many of the suit's cards in hand win from the top, the others' aside."""
    best_out = max(outside, default=-2)
    return sum(1 for order in orders if order > best_out)


def suit_play(k: Knowledge, card: int) -> dict[str, float]:
    """Return the called suit and what friends and foes have led or shown out of."""
    joker = card >= JOKER_BASE
    suit = card // 13
    features: dict[str, float] = {
        "called_suit": not joker and k.called >= 0 and suit == k.called // 13,
        "is_called": card == k.called,
        "called_led": k.called_led,
        "friend_led": 0,
        "foe_led": 0,
        "friend_void": 0,
        "foe_void": 0,
    }
    if joker:
        return features
    for seat in range(4):
        side = {FRIEND: "friend", FOE: "foe"}.get(k.team[seat]) if seat != k.seat else None
        if side is None:
            continue
        if k.led_suits[seat] >> suit & 1:
            features[f"{side}_led"] = 1
        if k.voids[seat] >> suit & 1:
            features[f"{side}_void"] = 1
    return features


def _trumps(k: Knowledge) -> dict[str, float]:
    return {
        "no_trump": k.trump < 0,
        "my_trumps": suit_len(k.hand, k.trump) if k.trump >= 0 else 0,
        "trumps_out": k.trumps_out().bit_count(),
        "my_jokers": (k.hand & JOKERS_MASK).bit_count(),
        "jokers_out": k.jokers_out().bit_count(),
    }


def _contract(view: PlayerView) -> dict[str, float]:
    assert view.contract is not None
    bid = view.contract.bid
    features: dict[str, float] = {"level": bid.level or 0}
    for kind in KINDS:
        features[f"k_{kind}"] = bid.kind.value == kind
    return features


def heuristic_features(k: Knowledge, card: int, heuristic: int) -> dict[str, float]:
    """Return the heuristic's own lead as features beside the card's."""
    joker = heuristic >= JOKER_BASE
    return {
        "heur": card == heuristic,
        "same_suit_heur": not joker and card < JOKER_BASE and card // 13 == heuristic // 13,
        "heur_is_trump": not joker and heuristic // 13 == k.trump,
        "heur_joker": joker,
        "heur_rank": 13 if joker else k.strength(heuristic),
        "heur_higher_out": 0 if joker else k.higher_outstanding(heuristic).bit_count(),
    }


@dataclass(frozen=True, slots=True)
class Tree:
    """One regression tree: node ``i`` sends a row left when its feature is at most the threshold."""

    feature: tuple[int, ...]
    threshold: tuple[float, ...]
    left: tuple[int, ...]
    """The left child of each node; -1 marks a leaf."""
    right: tuple[int, ...]
    value: tuple[float, ...]

    def leaf_value(self, row: list[float]) -> float:
        """Return the value of the leaf the row reaches."""
        node = 0
        while self.left[node] >= 0:
            if row[self.feature[node]] <= self.threshold[node]:
                node = self.left[node]
            else:
                node = self.right[node]
        return self.value[node]


@dataclass(frozen=True, slots=True)
class CardModel:
    """Gradient-boosted trees predicting a card's cost in tricks from its features."""

    features: tuple[str, ...]
    baseline: float
    trees: tuple[Tree, ...]

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Self:
        """Build the model from its exported form (``scripts/train_lead_model.py``)."""
        trees = data["trees"]
        features = data["features"]
        baseline = data["baseline"]
        assert isinstance(trees, list)
        assert isinstance(features, list)
        assert isinstance(baseline, int | float)
        return cls(
            tuple(str(name) for name in features),
            float(baseline),
            tuple(Tree(*(tuple(tree[key]) for key in _TREE_KEYS)) for tree in trees),
        )

    def cost(self, features: dict[str, float]) -> float:
        """Return the predicted cost of a card with these features."""
        row = [float(features[name]) for name in self.features]
        return self.baseline + sum(tree.leaf_value(row) for tree in self.trees)


def least_cost(costs: dict[int, float], heuristic: int) -> int:
    """Return the card of least predicted cost: the heuristic's among equals, else the lowest."""
    best = min(costs.values())
    if costs.get(heuristic, best + 1) <= best:
        return heuristic
    return min(costs, key=lambda card: (costs[card], card))


class LeadModel(CardModel):
    """The model of the early leads: ``card_features`` of each legal card."""

    __slots__ = ()

    def lead(self, view: PlayerView, k: Knowledge, legal: list[int], heuristic: int) -> int:
        """Return the legal card of least predicted cost (the heuristic's among equals)."""
        shared = lead_features(k, view)
        costs = {card: self.cost(shared | _card_lead(k, card, heuristic)) for card in legal}
        return least_cost(costs, heuristic)


_TREE_KEYS = ("feature", "threshold", "left", "right", "value")


@cache
def default_model() -> LeadModel | None:
    """Return the model shipped beside this module, or ``None`` if there is none."""
    if not MODEL_PATH.exists():
        return None
    return LeadModel.from_json(json.loads(MODEL_PATH.read_text(encoding="utf-8")))
