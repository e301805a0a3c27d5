"""Hand evaluation: features, the calibrated estimates, nolo suitability, bid prices."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from esmakker.bots.evaluation import (
    FAMILIES,
    NOLO_FEATURES,
    NUMBER_FEATURES,
    best_plain_trump,
    calibration,
    family_distribution,
    family_mean,
    family_raw,
    halve_weights,
    load_calibration,
    nolo_bid_ev,
    nolo_features,
    nolo_key,
    nolo_probability,
    number_bid_ev,
    number_features,
    suit_estimate,
    vip_accept_value,
    vip_value,
)
from esmakker.core.actions import Bid, BidKind
from esmakker.core.cards import CardSet, Suit
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.rules import RuleSet
from esmakker.sim import calibrate

WP = RuleSet.from_preset("wikipedia")


def mask(text: str) -> int:
    return CardSet.parse(text).mask


STRONG_SPADES = mask("SA SK SQ S7 S5 HA H4 DK D9 D3 C5 C2 X1")
WEAK = mask("S8 S3 H9 H7 H5 H2 D8 D6 D4 C9 C7 C4 C3")
LOW_CARDS = mask("SA S2 S3 S4 HA H2 H3 D2 D3 D4 C2 C3 C4")
HIGH_CARDS = mask("SK SQ SJ HK HQ HJ DK DQ DJ CK CQ CJ ST")


def test_number_features_of_a_hand_in_notation() -> None:
    features = dict(zip(NUMBER_FEATURES, number_features(STRONG_SPADES, Suit.S), strict=True))
    assert features == {
        "jokers": 1.0,
        "trump_len": 5.0,
        "trump_ace": 1.0,
        "trump_king": 1.0,
        "trump_queen": 1.0,
        "trump_jack": 0.0,
        "trump_long": 1.0,
        "side_aces": 1.0,  # HA
        "side_kings": 1.0,  # DK with two guards
        "side_kings_bare": 0.0,
        "side_queens": 0.0,
        "voids": 0.0,
        "singletons": 0.0,
        "doubletons": 2.0,  # hearts and clubs
        "ruff": 0.0,
        "side_long": 0.0,
    }


def test_short_suits_give_ruffs_only_with_trumps() -> None:
    hand = mask("SA SK SQ SJ ST S9 HA H4 H3 H2 D5 D4 X1")  # void in clubs
    spades = dict(zip(NUMBER_FEATURES, number_features(hand, Suit.S), strict=True))
    assert (spades["voids"], spades["ruff"]) == (1.0, 2.0)
    no_trump = dict(zip(NUMBER_FEATURES, number_features(hand, -1), strict=True))
    assert (no_trump["voids"], no_trump["ruff"], no_trump["trump_len"]) == (0.0, 0.0, 0.0)
    assert no_trump["side_long"] == 2.0  # six spades count as a long side suit
    vip = dict(zip(NUMBER_FEATURES, number_features(hand, Suit.H, extra_trumps=1), strict=True))
    assert vip["trump_len"] == 5.0


def test_calibrated_weights_have_sensible_signs() -> None:
    weights = dict(zip(NUMBER_FEATURES, calibration().weights, strict=True))
    for name in ("jokers", "trump_len", "trump_ace", "trump_king", "side_aces", "side_kings"):
        assert weights[name] > 0, name
    assert weights["trump_ace"] > weights["trump_jack"]
    # The declaring side takes about half the tricks with an average hand.
    average = suit_estimate(mask("SA S9 S5 S2 HK H8 H3 DQ D7 D4 CJ C6 X1"), Suit.S, "plain")
    assert 5.0 < family_mean(average, "plain") < 9.0


def test_the_estimate_grows_with_honours_and_length() -> None:
    assert suit_estimate(STRONG_SPADES, Suit.S, "plain") > suit_estimate(WEAK, Suit.S, "plain")
    upgraded = STRONG_SPADES & ~mask("S5") | mask("SJ")
    assert suit_estimate(upgraded, Suit.S, "plain") > suit_estimate(STRONG_SPADES, Suit.S, "plain")
    assert suit_estimate(STRONG_SPADES, Suit.S, "plain") > suit_estimate(
        STRONG_SPADES, Suit.C, "plain"
    )


def test_best_plain_trump_is_the_long_strong_suit_and_respects_clubs() -> None:
    clubs = mask("CA CK CQ CJ C9 C8 C5 SA S4 H3 H2 D3 D2")
    assert best_plain_trump(clubs, WP) == Suit.C
    no_clubs = RuleSet.from_preset("hilmarshelte")
    assert best_plain_trump(clubs, no_clubs) != Suit.C
    assert best_plain_trump(STRONG_SPADES, WP) == Suit.S


def test_vip_value_lies_between_the_worst_and_best_trump() -> None:
    values = [vip_accept_value(STRONG_SPADES, s) for s in range(4)]
    vip = vip_value(STRONG_SPADES, WP)
    assert min(values) - 1.0 < vip < max(values)
    # A turned spade is worth more than turning on; a turned club is not.
    spade, club = (
        CardSet.parse("S2").mask.bit_length() - 1,
        CardSet.parse("C3").mask.bit_length() - 1,
    )
    assert vip_accept_value(STRONG_SPADES, Suit.S, (spade,)) > vip_value(
        STRONG_SPADES, WP, (spade,)
    )
    assert vip_accept_value(STRONG_SPADES, Suit.C, (club,)) < vip_value(STRONG_SPADES, WP, (club,))
    assert family_raw(STRONG_SPADES, "vip", WP) == pytest.approx(vip)


def test_halve_weights_skip_the_called_suit_and_favour_our_short_suits() -> None:
    weights = halve_weights(STRONG_SPADES, called_suit=Suit.D)
    assert weights[Suit.D] == 0.0
    assert math.isclose(sum(weights), 1.0)
    assert weights[Suit.H] > weights[Suit.S]  # partner is longer in our short suits


def test_family_distribution_is_a_law_over_0_to_13_tricks() -> None:
    for family in FAMILIES:
        raw = family_raw(STRONG_SPADES, family, RuleSet.from_preset("hilmarshelte"))
        dist = family_distribution(raw, family)
        assert len(dist) == 14
        assert math.isclose(sum(dist), 1.0, abs_tol=1e-9)
        mean = sum(t * p for t, p in enumerate(dist))
        assert mean == pytest.approx(family_mean(raw, family), abs=0.2)


def test_bid_prices_follow_hand_strength_and_level() -> None:
    strong = mask("SA SK SQ SJ ST S9 S8 HA HK DA DK X1 X2")
    dist_strong = family_distribution(family_raw(strong, "plain", WP), "plain")
    dist_weak = family_distribution(family_raw(WEAK, "plain", WP), "plain")
    assert number_bid_ev(Bid(9), dist_strong, WP) > 0 > number_bid_ev(Bid(9), dist_weak, WP)
    assert number_bid_ev(Bid(13), dist_strong, WP) < number_bid_ev(Bid(10), dist_strong, WP)


def test_nolo_features_see_low_and_high_cards() -> None:
    low = dict(zip(NOLO_FEATURES, nolo_features(LOW_CARDS, aces_low=True), strict=True))
    assert [low[f"x{n}"] for n in (11, 9, 7, 5, 3)] == [0.0] * 5
    assert (low["tops"], low["voids"]) == (0.0, 0.0)
    high = dict(zip(NOLO_FEATURES, nolo_features(HIGH_CARDS, aces_low=True), strict=True))
    assert high["x9"] == 7.0  # J and Q of hearts, diamonds, clubs and the spade ten
    assert high["tops"] == 13.0  # every card heads its suit (K Q J, and the spade ten)
    # With aces high the two aces of LOW_CARDS top their suits.
    assert nolo_features(LOW_CARDS, aces_low=False)[NOLO_FEATURES.index("tops")] == 2.0


def test_nolo_probability_and_price() -> None:
    osterbro = RuleSet.from_preset("osterbro")
    good = nolo_probability(LOW_CARDS, BidKind.REN_SOL, osterbro)
    bad = nolo_probability(HIGH_CARDS, BidKind.REN_SOL, osterbro)
    assert good > 0.8 > 0.05 > bad
    assert (
        nolo_bid_ev(BidKind.REN_SOL, good, osterbro)
        > 0
        > nolo_bid_ev(BidKind.REN_SOL, bad, osterbro)
    )
    assert nolo_bid_ev(BidKind.SOL, 1.0, WP) == 150.0  # 50 from each defender
    assert nolo_bid_ev(BidKind.SOL, 0.0, WP) == -300.0  # fails at double


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_committed_table_covers_every_preset(preset: str) -> None:
    rules = RuleSet.from_preset(preset)
    cal = calibration()
    for name in rules.nolo_contracts:
        assert nolo_key(BidKind(name), rules) in cal.nolo
    for family in ("plain", *rules.attachments):
        assert family in cal.stage2
    assert "command" in cal.raw
    assert cal.raw["command"].startswith("python -m esmakker.sim.calibrate")


def test_least_squares_and_logistic_recover_known_models() -> None:
    rng = random.Random(3)
    rows, ys, labels = [], [], []
    for _ in range(400):
        x = [1.0, rng.uniform(0, 5), rng.uniform(-2, 2)]
        rows.append(x)
        ys.append(2.0 + 0.5 * x[1] - 1.5 * x[2] + rng.gauss(0, 0.1))
        labels.append(rng.random() < 1 / (1 + math.exp(-(1.0 - 0.8 * x[1] + 2.0 * x[2]))))
    beta = calibrate.least_squares(rows, ys, ridge=1e-6)
    assert beta == pytest.approx([2.0, 0.5, -1.5], abs=0.05)
    w = calibrate.logistic(rows, labels, ridge=1e-3)
    assert w[1] < -0.3
    assert w[2] > 1.0


def test_calibration_command_runs_and_writes_a_loadable_table(tmp_path: Path) -> None:
    out = tmp_path / "cal.json"
    argv = ["--deals", "12", "--nolo-deals", "12", "--rounds", "1", "--jobs", "1"]
    assert calibrate.main([*argv, "--out", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["command"] == "python -m esmakker.sim.calibrate " + " ".join(
        [*argv, "--out", str(out)]
    )
    table = load_calibration(out)
    assert set(table.stage2) >= set(FAMILIES)
