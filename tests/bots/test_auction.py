"""The heuristic's competitive-bidding model (``esmakker.bots.auction``), hands in notation."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from esmakker.bots.auction import (
    aces,
    call_chance,
    holder_value,
    nolo_price,
    pass_value,
)
from esmakker.bots.evaluation import nolo_bid_ev
from esmakker.bots.heuristic import HeuristicBot
from esmakker.core.actions import Bid, BidKind, Join, Pass
from esmakker.core.cards import CardSet
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.view import observe
from support import make_state, run

WP = RuleSet.from_preset("wikipedia")
KD = RuleSet.from_preset("kortdrengene")


def mask(cards: str) -> int:
    return CardSet.parse(cards).mask


# N opens 8 vip; E holds kings and queens but no ace.
COMPETE_DEAL = {
    "N": "ST S6 S5 S2 H6 DQ D9 D4 CK CQ C5 C2 X2",
    "E": "SK SQ S4 H9 H5 H3 DK D8 D6 D5 CJ CT X3",
    "S": "SJ S9 S8 S7 S3 HK HQ HT H7 DT D2 CA C9",
    "W": "SA HA H8 H4 H2 DA D7 D3 C8 C7 C4 C3 X1",
}
# The same deal with E's kings of spades and diamonds swapped for W's aces.
ACES_DEAL = {
    **COMPETE_DEAL,
    "E": "SA SQ S4 H9 H5 H3 DA D8 D6 D5 CJ CT X3",
    "W": "SK HA H8 H4 H2 DK D7 D3 C8 C7 C4 C3 X1",
}


def east_after_8_vip(hands: dict[str, str]) -> Bid | Pass | Join:
    state = run(make_state(WP, "W", hands, "DJ C6 HJ"), ["N bid 8 vip"])
    action = HeuristicBot(random.Random(0)).act(observe(state, Seat.E))
    assert isinstance(action, Bid | Pass | Join)
    return action


def test_a_hand_without_aces_competes_over_a_bid_it_would_pay() -> None:
    assert aces(mask(COMPETE_DEAL["E"])) == 0
    action = east_after_8_vip(COMPETE_DEAL)
    assert isinstance(action, Bid)
    assert action.level == 9


def test_a_hand_with_the_aces_the_declarer_will_call_lets_the_bid_stand() -> None:
    assert aces(mask(ACES_DEAL["E"])) == 2
    assert east_after_8_vip(ACES_DEAL) == Pass()


def test_call_chance_counts_aces() -> None:
    assert call_chance(mask(COMPETE_DEAL["E"])) == 0.0
    assert call_chance(mask(ACES_DEAL["E"])) == 2 / 3
    assert call_chance(mask("SA HA DA CA S2 S3 S4 H2 H3 H4 D2 D3 D4")) == 1.0


def test_passing_costs_what_the_holder_is_expected_to_win() -> None:
    high = Bid(8, BidKind.VIP)
    value = holder_value(high, WP)
    assert value > 0
    assert holder_value(Bid(9, BidKind.VIP), WP) > holder_value(Bid(9), WP)
    no_aces = mask(COMPETE_DEAL["E"])
    assert pass_value(no_aces, high, WP, -0.3) == -value
    assert pass_value(mask(ACES_DEAL["E"]), high, WP, -0.3) > 0  # probably his partner
    assert pass_value(no_aces, None, WP, -0.3) == -0.3 * 40
    sol = Bid(None, BidKind.REN_SOL)
    assert pass_value(mask(ACES_DEAL["E"]), sol, WP, -0.3) == -holder_value(sol, WP) < 0


@given(st.floats(min_value=0.0, max_value=1.0))
def test_a_nolo_price_never_exceeds_its_expected_score(p: float) -> None:
    for kind in (BidKind.SOL, BidKind.REN_SOL, BidKind.BORDLAEGGER):
        assert nolo_price(kind, p, WP) <= nolo_bid_ev(kind, p, WP) + 1e-9
        assert nolo_price(kind, p, WP, risk=0.0) == nolo_bid_ev(kind, p, WP)


def test_a_sure_nolo_is_priced_at_its_value_and_a_gamble_below_it() -> None:
    kind = BidKind.BORDLAEGGER
    assert nolo_price(kind, 1.0, KD) == nolo_bid_ev(kind, 1.0, KD)
    assert nolo_price(kind, 0.8, KD) < nolo_bid_ev(kind, 0.8, KD) - 50


# Kortdrengene lets players go along with a sol; E has a fine sol hand of his own.
JOIN_DEAL = {
    "N": "S2 S3 S4 S5 H2 H3 H4 D2 D3 D4 C2 C3 C4",
    "E": "S6 S7 S8 H5 H6 H7 D5 D6 D7 C5 C6 C7 C8",
    "S": "SA SK SQ SJ ST HA HK HQ HJ DA DK DQ X1",
    "W": "S9 H8 H9 HT D8 D9 DT DJ CA CK CQ CJ CT",
}


def test_a_shared_sol_is_priced_below_a_sol_played_alone() -> None:
    state = run(make_state(KD, "W", JOIN_DEAL, "C9 X2 X3"), ["N bid sol"])
    view = observe(state, Seat.E)
    assert any(isinstance(a, Join) for a in view.legal_actions)
    bot = HeuristicBot(random.Random(0))
    hand = view.hand.mask
    values = bot.bid_values(hand, KD)
    sol = Bid(None, BidKind.SOL)
    assert bot._join_value(hand, sol, KD, values) < values[sol]
    assert not isinstance(bot.act(view), Join)
