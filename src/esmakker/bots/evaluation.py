"""Hand evaluation: expected tricks per trump choice and attachment, nolo suitability.

The numbers come from ``calibration.json``, fitted by ``python -m esmakker.sim.calibrate``
on simulated deals played by the heuristic bot (the file names the command that made it):

* **Number contracts.** ``number_features(hand, trump)`` describes a 13-card hand for a
  trump suit (or no trumps): jokers, trump length and honours, side aces and guarded
  kings, short suits and ruffing potential. A linear model (``suit_model``, one set of
  weights for every contract plus an intercept per attachment) maps them to the raw
  estimate of the declaring side's tricks, partner and kitty exchange included. For
  vip (trumps turned from the kitty) and halve (the partner names trumps) the bid-time
  estimate is an expectation over the trump that will come. A second stage per family
  (``family``: plain, gode, vip, halve, staerke, sans) maps the bid-time estimate to the
  mean and spread of the side's tricks actually taken, so bids can be priced.
* **Nolo contracts.** ``nolo_features(hand, aces_low)`` measures how likely each card is
  to be forced to win (its rank against the lower cards the others may hold) and a
  logistic model per contract and trick limit gives the chance to keep the contract.

All functions work on card masks (``esmakker.core.cards``) and are cheap enough to be
called on every decision.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from esmakker.core.actions import Bid, BidKind
from esmakker.core.cards import JOKERS_MASK, SUIT_MASKS
from esmakker.core.rules import RuleSet
from esmakker.core.scoring import (
    DealOutcome,
    nolo_made,
    number_value,
    trick_limit,
)

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")

NUMBER_FEATURES = (
    "jokers",
    "trump_len",
    "trump_ace",
    "trump_king",
    "trump_queen",
    "trump_jack",
    "trump_long",
    "side_aces",
    "side_kings",
    "side_kings_bare",
    "side_queens",
    "voids",
    "singletons",
    "doubletons",
    "ruff",
    "side_long",
)
FAMILIES = ("plain", "gode", "staerke", "sans", "vip", "halve")
NOLO_FEATURES = (
    "bias",
    "x11",
    "x9",
    "x7",
    "x5",
    "x3",
    "low3",
    "low6",
    "low9",
    "voids",
    "jokers",
    "tops",
    "one_top",
)

ACE = 12
"""Rank index of the ace (card % 13): two = 0 … ace = 12."""


def suit_len(hand: int, suit: int) -> int:
    """Return how many cards of ``suit`` the mask holds."""
    return (hand & SUIT_MASKS[suit]).bit_count()


def ranks_of(hand: int, suit: int) -> list[int]:
    """Return the rank indexes (0 = two … 12 = ace) of a suit in the mask, high first."""
    bits = (hand >> (13 * suit)) & 0x1FFF
    return [r for r in range(12, -1, -1) if bits >> r & 1]


def number_features(hand: int, trump: int, extra_trumps: int = 0) -> tuple[float, ...]:
    """Return the features of ``hand`` for trumps ``trump`` (-1: no trumps).

    ``extra_trumps`` adds low trumps the hand will receive (a turned vip card).
    """
    jokers = (hand & JOKERS_MASK).bit_count()
    tl = t_ace = t_king = t_queen = t_jack = 0
    if trump >= 0:
        ranks = ranks_of(hand, trump)
        tl = len(ranks) + extra_trumps
        t_ace = int(ACE in ranks)
        t_king = int(ACE - 1 in ranks)
        t_queen = int(ACE - 2 in ranks)
        t_jack = int(ACE - 3 in ranks)
    aces = kings = kings_bare = queens = voids = singles = doubles = side_long = 0
    for suit in range(4):
        if suit == trump:
            continue
        ranks = ranks_of(hand, suit)
        n = len(ranks)
        if ACE in ranks:
            aces += 1
        if ACE - 1 in ranks:
            if n >= 2:
                kings += 1
            else:
                kings_bare += 1
        if ACE - 2 in ranks and n >= 3:
            queens += 1
        if trump >= 0:
            voids += n == 0
            singles += n == 1
            doubles += n == 2
        side_long += max(0, n - 4)
    ruff = min(max(0, tl - 1), 2 * voids + singles) if trump >= 0 else 0
    return (
        float(jokers),
        float(tl),
        float(t_ace),
        float(t_king),
        float(t_queen),
        float(t_jack),
        float(max(0, tl - 4)),
        float(aces),
        float(kings),
        float(kings_bare),
        float(queens),
        float(voids),
        float(singles),
        float(doubles),
        float(ruff),
        float(side_long),
    )


def nolo_strength(card: int, aces_low: bool) -> int:
    """Return a suit card's order in a nolo contract: 0 lowest … 12 highest."""
    rank = card % 13
    if not aces_low:
        return rank
    return 0 if rank == ACE else rank + 1


def nolo_features(hand: int, aces_low: bool) -> tuple[float, ...]:
    """Return the nolo features of a hand (``NOLO_FEATURES``).

    For the i-th lowest card of each suit (i = 0, 1, …) with order ``s`` (0 lowest …
    12 highest), ``x = s - 2i`` says how exposed the card is once the suit has come round
    i times: ``x11`` … ``x3`` count the cards with x of at least 11, 9, 7, 5 and 3 (each card
    in its highest band). ``low3`` … ``low9`` count suits whose lowest card has an order of
    at least 3, 6 and 9 (no low card to duck with). ``tops`` counts cards at the top of
    their suit (sure to win once the suit comes round often enough) and ``one_top``
    marks a hand with exactly one of them (what a contract of exactly one trick needs).
    """
    bands = [0, 0, 0, 0, 0]
    lows = [0, 0, 0]
    tops = 0
    voids = 0
    for suit in range(4):
        strengths = sorted(nolo_strength(13 * suit + r, aces_low) for r in ranks_of(hand, suit))
        if not strengths:
            voids += 1
            continue
        for i, s in enumerate(strengths):
            x = s - 2 * i
            for band, limit in enumerate((11, 9, 7, 5, 3)):
                if x >= limit:
                    bands[band] += 1
                    break
        for j, limit in enumerate((3, 6, 9)):
            lows[j] += strengths[0] >= limit
        top = 12
        for s in reversed(strengths):
            if s != top:
                break
            tops += 1
            top -= 1
    jokers = (hand & JOKERS_MASK).bit_count()
    return (
        1.0,
        *(float(b) for b in bands),
        *(float(n) for n in lows),
        float(voids),
        float(jokers),
        float(tops),
        float(tops == 1),
    )


def nolo_danger(hand: int, aces_low: bool) -> float:
    """Return a quick measure of how exposed a hand is in nolo (for discards and play)."""
    f = nolo_features(hand, aces_low)
    return 4.0 * f[1] + 3.0 * f[2] + 2.0 * f[3] + 1.0 * f[4] + 0.5 * f[5] + 0.5 * f[6] + f[7]


# --- the calibrated tables ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Calibration:
    """The fitted constants (see ``calibration.json``)."""

    weights: tuple[float, ...]
    """Suit model: one weight per ``NUMBER_FEATURES``."""
    intercepts: dict[str, float]
    """Suit model: intercept per family."""
    stage2: dict[str, tuple[float, float, float]]
    """Per family: (a, b, sd): side tricks ~ Normal(a + b * estimate, sd)."""
    nolo: dict[str, tuple[float, ...]]
    """Per nolo key (``contract:limit``): logistic weights over ``NOLO_FEATURES``."""
    raw: dict[str, Any]


def load_calibration(path: Path = CALIBRATION_FILE) -> Calibration:
    """Read a calibration file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return calibration_from_json(data)


def calibration_from_json(data: dict[str, Any]) -> Calibration:
    """Build a ``Calibration`` from its JSON form."""
    suit = data["suit_model"]
    weights = tuple(float(suit["weights"][name]) for name in NUMBER_FEATURES)
    intercepts = {k: float(v) for k, v in suit["intercepts"].items()}
    stage2 = {
        k: (float(v["a"]), float(v["b"]), float(v["sd"])) for k, v in data["families"].items()
    }
    nolo = {k: tuple(float(v[name]) for name in NOLO_FEATURES) for k, v in data["nolo"].items()}
    return Calibration(weights, intercepts, stage2, nolo, data)


@lru_cache(maxsize=1)
def calibration() -> Calibration:
    """Return the committed calibration (read once)."""
    return load_calibration()


# --- number contracts ---------------------------------------------------------------------


def suit_estimate(
    hand: int, trump: int, family: str, extra_trumps: int = 0, cal: Calibration | None = None
) -> float:
    """Return the suit model's raw estimate of the side's tricks with these trumps."""
    cal = cal or calibration()
    features = number_features(hand, trump, extra_trumps)
    total = cal.intercepts.get(family, cal.intercepts["plain"])
    for w, x in zip(cal.weights, features, strict=True):
        total += w * x
    return total


def unseen_counts(hand: int, num_jokers: int) -> tuple[list[int], int]:
    """Return the cards per suit and the jokers this hand does not hold."""
    per_suit = [13 - suit_len(hand, s) for s in range(4)]
    jokers = num_jokers - (hand & JOKERS_MASK).bit_count()
    return per_suit, jokers


def vip_value(
    hand: int,
    rules: RuleSet,
    turned: tuple[int, ...] = (),
    cal: Calibration | None = None,
) -> float:
    """Return the expected raw estimate of a vip contract, turning the kitty optimally.

    ``turned`` are the kitty cards turned so far (all of them are treated as the next
    decision point: the value of continuing from there).
    """
    cal = cal or calibration()
    per_suit, jokers = unseen_counts(hand, rules.num_jokers)
    for card in turned:
        if card >= 52:
            jokers -= 1
        else:
            per_suit[card // 13] -= 1
    total = sum(per_suit) + jokers
    kitty = rules.kitty_size
    suit_values = [vip_accept_value(hand, s, turned, cal) for s in range(4)]
    sans_value = suit_estimate(hand, -1, "vip", 0, cal)

    def joker_value(step: int) -> float | None:
        rule = rules.vip_joker_rule
        if rule == "take_previous":
            previous = [c for c in turned if c < 52]
            if previous:
                return suit_values[previous[-1] // 13]
            return sans_value
        if rule == "skip_first" and step == 0:
            return None
        return sans_value

    value_next = 0.0
    for step in range(kitty - 1, len(turned) - 1, -1):
        forced = step == kitty - 1
        expected = 0.0
        for s in range(4):
            v = suit_values[s]
            expected += per_suit[s] / total * (v if forced else max(v, value_next))
        jv = joker_value(step)
        if jokers > 0:
            if jv is None:
                expected += jokers / total * value_next
            else:
                expected += jokers / total * (jv if forced else max(jv, value_next))
        value_next = expected
    return value_next


def vip_accept_value(
    hand: int, suit: int, turned: tuple[int, ...] = (), cal: Calibration | None = None
) -> float:
    """Return the raw estimate if ``suit`` becomes trumps in vip (turned trumps come home)."""
    extra = sum(1 for c in turned if c < 52 and c // 13 == suit)
    return suit_estimate(hand, suit, "vip", max(1, extra), cal)


def halve_weights(hand: int, called_suit: int = -1) -> list[float]:
    """Return how likely the partner is to name each suit (his long suits are our short ones)."""
    weights = [0.0 if s == called_suit else float(13 - suit_len(hand, s)) ** 3 for s in range(4)]
    total = sum(weights) or 1.0
    return [w / total for w in weights]


def halve_value(hand: int, called_suit: int = -1, cal: Calibration | None = None) -> float:
    """Return the expected raw estimate of a halve contract (partner names trumps)."""
    weights = halve_weights(hand, called_suit)
    return sum(w * suit_estimate(hand, s, "halve", 0, cal) for s, w in enumerate(weights) if w)


_FIXED = {"gode": 0, "staerke": 3, "sans": -1}


def best_plain_trump(hand: int, rules: RuleSet, cal: Calibration | None = None) -> int:
    """Return the best trump suit for a plain contract."""
    suits = [s for s in (3, 2, 1, 0) if s != 0 or rules.plain_clubs_allowed]
    return max(suits, key=lambda s: suit_estimate(hand, s, "plain", 0, cal))


def family_raw(hand: int, family: str, rules: RuleSet, cal: Calibration | None = None) -> float:
    """Return the bid-time raw estimate for an attachment family."""
    if family == "plain":
        trump = best_plain_trump(hand, rules, cal)
        return suit_estimate(hand, trump, "plain", 0, cal)
    if family == "vip":
        return vip_value(hand, rules, (), cal)
    if family == "halve":
        return halve_value(hand, -1, cal)
    return suit_estimate(hand, _FIXED[family], family, 0, cal)


def family_distribution(raw: float, family: str, cal: Calibration | None = None) -> list[float]:
    """Return P(side tricks = t), t = 0 … 13, from a bid-time raw estimate."""
    cal = cal or calibration()
    a, b, sd = cal.stage2.get(family, cal.stage2["plain"])
    return normal_distribution(a + b * raw, sd)


def family_mean(raw: float, family: str, cal: Calibration | None = None) -> float:
    """Return the expected side tricks from a bid-time raw estimate."""
    cal = cal or calibration()
    a, b, _ = cal.stage2.get(family, cal.stage2["plain"])
    return a + b * raw


def normal_distribution(mean: float, sd: float) -> list[float]:
    """Return a normal law rounded to the trick counts 0 … 13."""
    sd = max(sd, 0.3)
    cdf = [_phi((t + 0.5 - mean) / sd) for t in range(13)]
    probs = [cdf[0]]
    for t in range(1, 13):
        probs.append(cdf[t] - cdf[t - 1])
    probs.append(1.0 - cdf[12])
    return probs


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


@lru_cache(maxsize=512)
def value_table(bid: Bid, rules: RuleSet, flips: int = 2) -> tuple[int, ...]:
    """Return V (per paying player, signed) of a number bid for 0 … 13 side tricks."""
    values = []
    for t in range(14):
        outcome = DealOutcome(
            bid=bid,
            declarer=0,
            partner=1,
            tricks=(t, 0, 0, 0),
            vip_flips=flips if bid.kind is BidKind.VIP else 0,
        )
        values.append(number_value(outcome, rules))
    return tuple(values)


def number_bid_ev(bid: Bid, dist: list[float], rules: RuleSet) -> float:
    """Return the declarer's expected score of a number bid for a trick distribution."""
    table = value_table(bid, rules)
    return sum(p * v for p, v in zip(dist, table, strict=True))


# --- nolo ------------------------------------------------------------------------------------


def nolo_key(kind: BidKind, rules: RuleSet) -> str:
    """Return the calibration key of a nolo contract under these rules."""
    return f"{kind.value}:{trick_limit(kind, rules)}"


def nolo_probability(
    hand: int, kind: BidKind, rules: RuleSet, cal: Calibration | None = None
) -> float:
    """Return the chance that the declarer keeps this nolo contract with this hand."""
    cal = cal or calibration()
    key = nolo_key(kind, rules)
    weights = cal.nolo.get(key)
    if weights is None:
        weights = _nearest_nolo(key, cal)
    features = nolo_features(hand, rules.nolo_aces_low)
    z = sum(w * x for w, x in zip(weights, features, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def _nearest_nolo(key: str, cal: Calibration) -> tuple[float, ...]:
    limit = key.split(":")[1]
    for other, weights in cal.nolo.items():
        if other.endswith(":" + limit):
            return weights
    return next(iter(cal.nolo.values()))


def nolo_bid_ev(kind: BidKind, p: float, rules: RuleSet) -> float:
    """Return the declarer's expected score of a nolo bid made with probability ``p``."""
    value = rules.nolo_value_of(kind.value)
    return 3.0 * (p * value - (1.0 - p) * value * rules.nolo_fail_factor)


def nolo_made_now(tricks: int, kind: BidKind, rules: RuleSet) -> bool:
    """Return whether ``tricks`` keep the contract (re-exported for the play)."""
    return nolo_made(tricks, trick_limit(kind, rules))
