"""The heuristic bot's rules of thumb, one set-up position each (hands in notation).

Each test deals four full hands, runs an auction and the first cards as a hand record
would write them, and asks the bot of the seat to act what it plays.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from esmakker.bots import heuristic
from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.knowledge import FOE, FRIEND, UNKNOWN, Knowledge
from esmakker.core.actions import Action, Bid, BidKind, CallCard, Discard, NameTrump, Play
from esmakker.core.cards import Card, Suit
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State
from esmakker.core.view import observe
from play_support import decline_all, plays
from support import make_state, run

WP = RuleSet.from_preset("wikipedia")
OSTERBRO = RuleSet.from_preset("osterbro")

# A number-contract deal. Dealer N, so E leads first. N declares 9 in spades and calls
# the ace of diamonds: E is the partner (hidden until DA falls), S and W defend.
NUMBER_DEAL = {
    "N": "SA SK S4 S3 S2 HA H5 H4 D9 D8 D7 D6 D5",  # void in clubs
    "E": "SQ SJ S7 HK HQ H3 DA DK D4 CA CK C4 X1",
    "S": "ST S9 S6 S5 HJ HT H9 DQ DJ D3 CQ CJ C3",
    "W": "S8 H8 H7 H6 H2 DT D2 CT C9 C8 C7 C6 C5",
}
NUMBER_AUCTION = ["E pass", "S pass", "W pass", "N bid 9", "N trump S", "N call DA"]
REVEAL = "E DA S D3 W D2 N D5"  # trick 1: the partner cashes the called ace


def position(
    rules: RuleSet,
    hands: dict[str, str],
    kitty: str,
    auction: Sequence[str],
    *tricks: str,
    dealer: str = "N",
) -> State:
    """Return the deal after the auction, a declined exchange and the given tricks."""
    state = run(make_state(rules, dealer, hands, kitty), auction)
    state = decline_all(state)
    return run(state, plays(*tricks))


def choice(state: State, seed: int = 0) -> Action:
    seat = state.to_act
    assert seat is not None
    view = observe(state, seat)
    action = HeuristicBot(random.Random(seed)).act(view)
    assert action in view.legal_actions
    return action


def card(state: State) -> str:
    action = choice(state)
    assert isinstance(action, Play)
    return action.card.name


def number_position(*tricks: str) -> State:
    return position(WP, NUMBER_DEAL, "C2 X2 X3", NUMBER_AUCTION, *tricks)


# --- following in a number contract ---------------------------------------------------------


def test_second_hand_plays_low() -> None:
    # E leads C4; S holds CQ CJ C3 with the ace and king still out: low.
    assert card(number_position("E C4")) == "C3"


def test_third_hand_plays_high() -> None:
    hands = dict(NUMBER_DEAL)
    hands["S"] = "ST S9 S6 S5 HJ HT H9 DQ DJ D3 CJ CT C3"
    hands["W"] = "S8 H8 H7 H6 H2 DT D2 CQ C9 C8 C7 C6 C5"
    state = position(WP, hands, "C2 X2 X3", NUMBER_AUCTION, "E C4 S C3")
    # W holds CQ and C9-C5: the queen, to beat what the fourth hand holds.
    assert card(state) == "CQ"


def test_third_hand_plays_the_cheapest_of_equal_cards() -> None:
    # W holds CT C9 C8 C7 C6 C5: all the same to the others, so the five.
    assert card(number_position("E C4 S C3")) == "C5"


def test_fourth_hand_wins_as_cheaply_as_it_can() -> None:
    # N is void in clubs: the cheapest winning card is the two of trumps.
    assert card(number_position("E C4 S CQ W C5")) == "S2"


def test_fourth_hand_takes_an_honour_with_the_ace() -> None:
    # Hearts: S plays HJ over H3; N wins with the ace, his only winner.
    assert card(number_position("E H3 S HJ W H2")) == "HA"


def test_no_overtaking_a_partners_sure_trick() -> None:
    # E is known as the partner after DA; his HK is highest but for N's HA: N plays low.
    assert card(number_position(REVEAL, "E HK S H9 W H2")) == "H4"


def test_no_ruffing_a_partners_sure_trick_and_no_joker_thrown_away() -> None:
    hands = dict(NUMBER_DEAL)
    hands["N"] = "SA SK S4 S3 S2 HA H5 H4 D9 D8 D7 D6 X1"
    hands["E"] = "SQ SJ S7 HK HQ H3 DA DK D4 CA CK C4 D5"
    state = position(WP, hands, "C2 X2 X3", NUMBER_AUCTION, "E DA S D3 W D2 N D6", "E CA S C3 W C5")
    # E's CA wins; N, void in clubs, throws a small red card: no trump, no joker, no ace.
    assert card(state) in ("H4", "D7")


def test_ruff_an_opponents_trick_when_void() -> None:
    # N (declarer) does not know his partner yet, and ruffs W's winning ten.
    assert card(number_position("E C4 S C3 W CT")) == "S2"


def test_follow_low_when_the_trick_is_lost() -> None:
    # E's HK wins for the declarer's side; S, a defender, follows with his lowest heart.
    assert card(number_position(REVEAL, "E HK")) == "H9"


# --- leading in a number contract --------------------------------------------------------------


def test_declarer_draws_trumps_with_his_top_trump() -> None:
    # N wins trick 1 with HA and, holding SA SK and three more spades, leads the ace.
    assert card(number_position("E H3 S H9 W H2 N HA")) == "SA"


def test_declarer_leads_low_to_his_partners_called_ace() -> None:
    hands = {
        "N": "SK SQ S4 S3 S2 HA H5 H4 D9 D8 D7 D6 D5",
        "E": "SA SJ S7 HK HQ H3 DA DK D4 CA CK C4 X1",
        "S": "ST S9 S6 S5 HJ HT H9 DQ DJ D3 CQ CJ C3",
        "W": "S8 H8 H7 H6 H2 DT D2 CT C9 C8 C7 C6 C5",
    }
    state = position(WP, hands, "C2 X2 X3", NUMBER_AUCTION, "E H3 S H9 W H2 N HA")
    view = observe(state, Seat.N)
    assert view.contract is not None
    assert not view.contract.partner_known
    assert card(state) == "D5"


def test_cash_a_sure_winner() -> None:
    # E, known partner, on lead after DA: the club ace is the surest trick (DK is too).
    assert card(number_position(REVEAL)) == "CA"


JOKER_DEAL = {
    "N": "SA SK S4 S3 S2 HA H5 H4 D9 D8 D7 D6 D5",
    "E": "SQ SJ S7 HQ H3 H2 DA D4 D3 C4 C3 X1 X2",
    "S": "ST S9 S6 S5 HJ HT H9 DQ DJ DK CQ CJ CK",
    "W": "S8 H8 H7 H6 HK DT D2 CT C9 C8 C7 C6 C5",
}


def test_lead_a_joker_after_the_first_trick_rather_than_give_up_the_lead() -> None:
    # E (partner) won trick 1 with DA and has no other sure trick: a joker.
    state = position(WP, JOKER_DEAL, "CA C2 X3", NUMBER_AUCTION, "E DA S DJ W D2 N D5")
    assert card(state) in ("X1", "X2")


def test_a_joker_is_not_led_to_the_first_trick() -> None:
    state = position(WP, JOKER_DEAL, "CA C2 X3", NUMBER_AUCTION)
    assert not card(state).startswith("X")


# --- the partner, seen from the view ------------------------------------------------------


def test_knowledge_reads_voids_and_teams() -> None:
    state = number_position("E C4 S C3 W CT N S2")
    known = Knowledge.of(observe(state, Seat.S))
    assert known.voids[Seat.N] == 1 << Suit.C
    assert known.team[Seat.N] == FOE
    assert (known.team[Seat.E], known.team[Seat.W]) == (UNKNOWN, UNKNOWN)
    after = Knowledge.of(observe(number_position(REVEAL), Seat.S))
    assert (after.team[Seat.E], after.team[Seat.W]) == (FOE, FRIEND)
    partner = Knowledge.of(observe(state, Seat.E))
    assert partner.team == [FRIEND, FRIEND, FOE, FOE]
    assert Knowledge.of(observe(state, Seat.N)).team == [FRIEND, UNKNOWN, UNKNOWN, UNKNOWN]


def test_a_seat_that_ruffs_the_declarers_sure_trick_is_not_his_partner() -> None:
    hands = {
        "N": "SA SK S4 S3 S2 HA H5 H4 D9 D8 D7 D6 D5",
        "E": "SQ SJ S7 HK HQ H3 DA DK D4 CA CK C4 X1",
        "S": "ST S9 S6 S5 HJ HT H9 H8 H7 H6 H2 D3 C3",
        "W": "S8 DQ DJ DT D2 CQ CJ C9 C8 C7 C6 C5 X2",  # void in hearts
    }
    state = position(
        WP, hands, "CT C2 X3", NUMBER_AUCTION, "E C4 S C3 W C5 N S2", "N HA E H3 S H2 W S8"
    )
    known = Knowledge.of(observe(state, Seat.S))
    assert (known.partner, known.partner_sure) == (Seat.E, False)
    assert (known.team[Seat.W], known.team[Seat.E]) == (FRIEND, FOE)
    # E overtaking the declarer's low card is no such sign.
    low = Knowledge.of(observe(number_position("E H3 S H9 W H2 N HA", "N H4 E HQ S HT"), Seat.S))
    assert low.partner == -1


# --- declaring and the exchange ------------------------------------------------------------


def test_trump_and_call_choices() -> None:
    state = run(make_state(WP, "N", NUMBER_DEAL, "C2 X2 X3"), ["E pass", "S pass", "W pass"])
    state = run(state, ["N bid 9"])
    assert state.phase is Phase.TRUMP
    assert choice(state) == NameTrump(Suit.S)
    state = run(state, ["N trump S"])
    action = choice(state)
    assert isinstance(action, CallCard)
    # N holds five diamonds and no club: the diamond ace, where he has cards to lead.
    assert action.card == Card.DA


def test_the_exchange_takes_the_kitty_and_keeps_trumps() -> None:
    state = run(make_state(WP, "N", NUMBER_DEAL, "C2 X2 X3"), NUMBER_AUCTION)
    assert state.phase is Phase.EXCHANGE
    assert str(choice(state)) == "take"
    state = run(state, ["N take"])
    thrown = []
    for _ in range(3):
        action = choice(state)
        assert isinstance(action, Discard)
        thrown.append(action.card.name)
        state = state.apply(action)
    assert not any(c.startswith("S") or c.startswith("X") for c in thrown)
    assert "HA" not in thrown


def test_vip_accepts_a_turned_long_suit() -> None:
    hands = {
        "N": "SA SK SQ SJ S9 S7 H5 H4 D9 D8 C9 C8 C7",
        "E": "ST S8 HK HQ H3 DA DK D4 CA CK C4 X1 X2",
        "S": "S6 S5 HJ HT H9 H8 DQ DJ D3 CQ CJ C3 C2",
        "W": "S4 S3 HA H7 H6 H2 DT D7 D6 D5 D2 CT C6",
    }
    state = run(make_state(WP, "N", hands, "S2 C5 X3"), ["E pass", "S pass", "W pass"])
    state = run(state, ["N bid 9 vip", "N call HA", "N turn"])
    assert state.phase is Phase.VIP
    assert str(choice(state)) == "accept"


# --- nolo -----------------------------------------------------------------------------------

NOLO_DEAL = {
    "N": "SA S2 S5 S9 HA H3 H6 H8 C2 C3 C8 CK X1",  # void in diamonds
    "E": "S3 S7 SQ H2 H9 HK D2 D5 D9 DK CA C9 CQ",
    "S": "S4 S8 SJ H4 H7 HJ D3 D6 DT DQ C4 CT CJ",
    "W": "S6 ST SK H5 HT HQ D4 D7 D8 DJ C5 C6 C7",
}
NOLO_KITTY = "DA X2 X3"
# N holds a bare king of spades (the top spade: aces are low in nolo).
BARE_KING_DEAL = {
    "N": "SK HA H2 H3 D2 D3 D4 D5 C2 C3 C4 C5 C6",
    "E": "SA S2 S3 S4 H4 H5 H6 D6 D7 D8 C7 C8 C9",
    "S": "S5 S6 S7 S8 H7 H8 H9 D9 DT DJ CT CJ CQ",
    "W": "S9 ST SJ SQ HT HJ HQ HK DQ DK CK X1 X2",
}
BARE_KING_KITTY = "DA CA X3"


def nolo_position(contract: str, *tricks: str, hands: dict[str, str] | None = None) -> State:
    auction = ["E pass", "S pass", "W pass", f"N bid {contract}"]
    if hands is None:
        return position(OSTERBRO, NOLO_DEAL, NOLO_KITTY, auction, *tricks)
    return position(OSTERBRO, hands, BARE_KING_KITTY, auction, *tricks)


def test_nolo_declarer_ducks_with_the_highest_card_that_loses() -> None:
    # Spades: E S7, S S8, W S6; N holds SA (low) S2 S5 S9: S5 is the highest loser.
    assert card(nolo_position("ren_sol", "E S7 S S8 W S6")) == "S5"


def test_nolo_declarer_throws_his_most_dangerous_card() -> None:
    # N is void in diamonds: away goes the king of clubs (top of its suit).
    assert card(nolo_position("ren_sol", "E D2 S D3 W D4")) == "CK"


def test_nolo_declarer_leads_the_card_most_likely_to_lose() -> None:
    state = nolo_position("sol", "E H2 S H4 W H5 N H8")  # N takes his one trick
    assert state.to_act == Seat.N
    assert card(state) in ("SA", "S2", "HA", "C2")


def test_nolo_defender_before_the_declarer_plays_low() -> None:
    # S, second, with N still to play: his lowest spade.
    assert card(nolo_position("ren_sol", "E S2", hands=BARE_KING_DEAL)) == "S5"


def test_nolo_defenders_keep_the_declarer_on_top() -> None:
    # W won trick 1; W leads S9, N must play his bare king; E plays his highest spade
    # below it (keeping his low ones to lead later), then S does the same.
    state = nolo_position("ren_sol", "E H4 S H7 W HT N H3", "W S9 N SK", hands=BARE_KING_DEAL)
    assert card(state) == "S4"
    assert card(run(state, ["E play S4"])) == "S8"


def test_nolo_defender_sheds_a_high_card_when_the_declarer_is_safe() -> None:
    state = nolo_position("ren_sol", "E S7 S S8 W S6 N S5", "S SJ W SK N S9")
    # SK wins, N's S9 is safe; E, last, sheds his queen and keeps S3.
    assert card(state) == "SQ"


def test_nolo_defender_leads_into_an_open_declarers_weakness() -> None:
    # Bordlægger: after trick 1 N's hand lies open; his only spade is the bare king.
    state = nolo_position("bordlaegger", "E H4 S H7 W HT N H3", hands=BARE_KING_DEAL)
    assert state.to_act == Seat.W
    assert card(state)[0] == "S"


def test_bid_values_prefer_nolo_with_low_cards() -> None:
    bot = HeuristicBot(random.Random(0))
    low = observe(nolo_position("ren_sol"), Seat.N).hand.mask
    values = bot.bid_values(low, OSTERBRO)
    assert values[Bid(None, BidKind.REN_SOL)] > values[Bid(10, BidKind.VIP)]


def test_bid_prices_are_kept_for_a_bounded_number_of_hands_oldest_dropped_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(heuristic, "BID_CACHE_SIZE", 3)
    bot = HeuristicBot(random.Random(0))
    hands = [(1 << 13) - 1 << shift for shift in range(5)]  # five different 13-card hands
    first = bot.bid_values(hands[0], WP)
    assert bot.bid_values(hands[0], WP) is first  # kept
    for hand in hands[1:]:
        bot.bid_values(hand, WP)
    again = bot.bid_values(hands[0], WP)
    assert again is not first  # dropped
    assert again == first  # and priced the same again


# N holds the top club and nothing the others can force him to win with.
EXACTLY_ONE_DEAL = {
    "N": "CK C7 C6 C5 C4 C3 C2 H4 H3 H2 D4 D3 D2",
    "E": "C8 CQ SA S2 S3 S4 S5 H5 H6 H7 D5 D6 D7",
    "S": "C9 CJ S6 S7 S8 S9 ST H8 H9 HT D8 D9 DT",
    "W": "CT CA SJ SQ SK HJ HQ HK HA DJ DQ DK DA",
}


def test_exactly_one_trick_takes_a_sure_trick_it_would_not_be_forced_to_take() -> None:
    auction = ["E pass", "S pass", "W pass", "N bid sol"]
    state = position(WP, EXACTLY_ONE_DEAL, "X1 X2 X3", auction, "E C8 S C9 W CT")
    assert card(state) == "CK"  # wikipedia: sol is exactly one trick
    state = position(OSTERBRO, EXACTLY_ONE_DEAL, "X1 X2 X3", auction, "E C8 S C9 W CT")
    assert card(state) == "C7"  # at most one: duck under the ten
