"""Trick play, rules.md section 6 (6.1-6.4) and the trick-play table T1-T6, T9 of 7.3.

Most tests play one deal (``T_DEAL``) through the State API. Dealer N, so E is
forehand ("A" of table 7.3), then S ("B"), W ("C"), N ("D"). In the number contract
N bids 7, names spades and calls CA (E is the partner); in the nolo contract N bids
sol. E holds the top diamonds and clubs, so E wins the five filler tricks that lead up
to trick 6 of the table.
"""

from __future__ import annotations

import random

import pytest

from esmakker.core.actions import Play
from esmakker.core.cards import Card, Suit
from esmakker.core.errors import IllegalActionError, Reason
from esmakker.core.phase import Phase
from esmakker.core.play import card_strength, follow_mask, lead_mask, led_suit, trick_winner
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State, deal
from esmakker.core.view import observe
from play_support import auction, decline_all, new_deal, plays
from support import rules, run

T_DEAL = {
    "N": "HA H8 H7 H6 H5 H4 H3 H2 DT D9 D8 CJ CT",
    "E": "HK HQ HJ HT H9 DA DK DQ DJ CA CK CQ X1",
    "S": "SA SK SQ SJ ST S9 X2 D7 D6 D5 C9 C8 C7",
    "W": "S8 S7 S6 S5 S4 S3 X3 D4 D3 D2 C6 C5 C3",
}
T_KITTY = "S2 C4 C2"

# Five tricks E wins in the number contract (spades trump) ...
FILLERS = (
    "E DA S D7 W D4 N DT",
    "E DK S D6 W D3 N D9",
    "E DQ S D5 W D2 N D8",
    "E CA S C9 W C6 N CJ",
    "E CK S C8 W C5 N CT",
)
# ... and in the nolo contract (aces low: E keeps DA and CA, leads kings down).
NOLO_FILLERS = (
    "E DK S D7 W D4 N DT",
    "E DQ S D6 W D3 N D9",
    "E DJ S D5 W D2 N D8",
    "E CK S C9 W C6 N CJ",
    "E CQ S C8 W C5 N CT",
)


def _cards(text: str) -> list[int]:
    return [int(Card.parse(c)) for c in text.split()]


def _mask(text: str) -> int:
    mask = 0
    for card in _cards(text):
        mask |= 1 << card
    return mask


def _played(state: State) -> set[str]:
    return {a.card.name for a in state.legal_actions() if isinstance(a, Play)}


def number_contract(ruleset: RuleSet | None = None, call: str = "CA") -> State:
    """N declares 7 spades and calls ``call``; everybody declines the kitty."""
    state = new_deal(ruleset or rules(), T_DEAL, T_KITTY)
    state = run(state, [*auction("N", "7"), "N trump S", f"N call {call}"])
    return decline_all(state)


def nolo_contract(ruleset: RuleSet | None = None, bid: str = "sol") -> State:
    """N declares a nolo contract and declines the kitty."""
    state = new_deal(ruleset or rules(), T_DEAL, T_KITTY)
    return decline_all(run(state, auction("N", bid)))


def _illegal(state: State, step: str) -> Reason:
    with pytest.raises(IllegalActionError) as info:
        run(state, [step])
    return info.value.reason


# --- 6.1 the opening lead --------------------------------------------------------------


def test_r6_1_forehand_leads_to_trick_1_whoever_declared() -> None:
    state = number_contract()
    assert state.phase is Phase.PLAY
    assert state.to_act is Seat.E


def test_r6_1_declarer_leads_to_trick_1_with_first_lead_declarer() -> None:
    state = number_contract(rules(first_lead="declarer"))
    assert state.to_act is Seat.N


def test_r6_1_nolo_first_lead_is_forehand_too() -> None:
    assert nolo_contract().to_act is Seat.E


def test_t1_forehand_may_not_lead_a_joker_to_trick_1() -> None:
    state = number_contract()
    assert "X1" not in _played(state)
    assert _illegal(state, "E play X1") is Reason.NO_JOKER_LEAD_FIRST_TRICK


def test_clarification_9_joker_led_to_trick_1_wins_when_allowed() -> None:
    state = number_contract(rules(no_joker_lead_trick1=False))
    assert "X1" in _played(state)
    state = run(state, plays("E X1 S SA W X3 N H2"))
    assert state.tricks[0].winner is Seat.E


def test_r6_1_joker_may_be_played_to_trick_1_by_a_void_player() -> None:
    state = run(number_contract(), plays("E HK"))
    assert "X2" in _played(state)
    state = run(state, plays("S X2 W C3 N HA"))
    assert state.tricks[0].winner is Seat.N


def test_r6_1_winner_of_each_trick_leads_to_the_next() -> None:
    state = run(number_contract(), plays(*FILLERS, "E HK S X2 W S3 N HA"))
    assert [t.winner for t in state.tricks] == [Seat.E] * 5 + [Seat.W]
    assert [t.leader for t in state.tricks] == [Seat.E] * 6
    assert state.to_act is Seat.W


# --- 6.2 following suit ----------------------------------------------------------------


def test_r6_2_must_follow_suit() -> None:
    state = run(number_contract(), plays("E DA"))
    assert _played(state) == {"D7", "D6", "D5"}
    assert _illegal(state, "S play SA") is Reason.MUST_FOLLOW_SUIT


def test_r6_2_void_player_may_play_any_card_no_duty_to_trump() -> None:
    state = run(number_contract(), plays(*FILLERS, "E HK S X2"))
    assert state.to_act is Seat.W
    assert _played(state) == {"S8", "S7", "S6", "S5", "S4", "S3", "X3", "C3"}


def test_r6_2_no_duty_to_beat_the_highest_card() -> None:
    state = run(number_contract(), plays(*FILLERS, "E HK S X2 W C3"))
    assert _played(state) == {"HA", "H8", "H7", "H6", "H5", "H4", "H3", "H2"}


# --- 6.3 jokers --------------------------------------------------------------------------


def test_t9_joker_only_when_void() -> None:
    state = run(number_contract(), plays("E DA"))
    assert "X2" not in _played(state)
    assert _illegal(state, "S play X2") is Reason.JOKER_ONLY_WHEN_VOID


def test_r6_3_joker_when_able_to_follow_with_joker_only_when_void_off() -> None:
    state = run(number_contract(rules(joker_only_when_void=False)), plays("E DA"))
    assert _played(state) == {"D7", "D6", "D5", "X2"}
    state = run(state, plays("S X2 W D4 N DT"))
    assert state.tricks[0].winner is Seat.E


def test_r6_3_after_joker_lead_free() -> None:
    state = run(number_contract(), plays(*FILLERS[:3], "E X1"))
    assert len(_played(state)) == 10  # every card S holds
    state = run(state, plays("S SA"))
    assert _played(state) == {"S8", "S7", "S6", "S5", "S4", "S3", "X3", "C6", "C5", "C3"}


def test_r6_3_after_joker_lead_next_card_sets_suit() -> None:
    ruleset = rules(after_joker_lead="next_card_sets_suit")
    state = run(number_contract(ruleset), plays(*FILLERS[:3], "E X1"))
    assert len(_played(state)) == 10  # the first card after the joker is free
    state = run(state, plays("S SA"))
    assert _played(state) == {"S8", "S7", "S6", "S5", "S4", "S3"}
    assert _illegal(state, "W play C3") is Reason.MUST_FOLLOW_SUIT
    assert _illegal(state, "W play X3") is Reason.JOKER_ONLY_WHEN_VOID
    state = run(state, plays("W S3"))
    assert state.to_act is Seat.N
    assert len(_played(state)) == 10  # N holds no spade: free
    state = run(state, plays("N H2"))
    assert state.tricks[-1].winner is Seat.E


def test_t2_led_joker_wins_after_trick_1() -> None:
    # Trick 4: A leads a joker, B plays the trump ace, C the other joker, D a small heart.
    state = run(number_contract(), plays(*FILLERS[:3], "E X1 S SA W X3 N H2"))
    trick = state.tricks[3]
    assert [c.name for c in trick.cards] == ["X1", "SA", "X3", "H2"]
    assert trick.winner is Seat.E


def test_t2_led_joker_wins_in_nolo_too() -> None:
    state = run(nolo_contract(), plays(*NOLO_FILLERS[:3], "E X1 S SA W X3 N H2"))
    assert state.tricks[3].winner is Seat.E


# --- 6.4 the trick winner ------------------------------------------------------------------


def test_t3_trump_beats_the_led_suit_and_an_unled_joker() -> None:
    state = run(number_contract(), plays(*FILLERS, "E HK S X2 W S3 N HA"))
    assert state.tricks[5].winner is Seat.W


def test_t4_highest_card_of_led_suit_wins_when_no_trump_is_played() -> None:
    state = run(number_contract(), plays(*FILLERS, "E HK S X2 W C3 N HA"))
    assert state.tricks[5].winner is Seat.N


def test_r6_4_unled_joker_powerless() -> None:
    state = run(number_contract(), plays("E HK S X2 W C3 N H2"))
    assert state.tricks[0].winner is Seat.E


def test_t6_unled_joker_beats_plain() -> None:
    state = run(number_contract(rules(unled_joker="beats_plain")), plays(*FILLERS, "E HK S X2"))
    state = run(state, plays("W C3 N HA"))
    assert state.tricks[5].winner is Seat.S


@pytest.mark.parametrize(
    ("unled_joker", "winner"), [("beats_plain", Seat.S), ("powerless", Seat.N)]
)
def test_t6_literal_hearts_trump_joker_on_a_diamond_trick(unled_joker: str, winner: Seat) -> None:
    # A 5♦, B joker (void in diamonds), C 9♦, D A♦; hearts are trumps.
    hands = {"N": "DA HA", "E": "D5", "S": "X1 SA SK SQ SJ ST S9 S8 S7 S6 S5 S4 S3", "W": "D9"}
    state = new_deal(rules(unled_joker=unled_joker), hands, "S2 X2 X3")
    state = decline_all(run(state, [*auction("N", "7"), "N trump H", "N call CA"]))
    state = run(state, plays("E D5 S X1 W D9 N DA"))
    assert state.tricks[0].winner is winner


def test_r6_4_unled_joker_beats_plain_loses_to_trump() -> None:
    state = run(number_contract(rules(unled_joker="beats_plain")), plays(*FILLERS))
    state = run(state, plays("E HK S X2 W S3 N HA"))
    assert state.tricks[5].winner is Seat.W


def test_t5_aces_low_in_nolo() -> None:
    state = run(nolo_contract(), plays(*NOLO_FILLERS, "E HK S X2 W C3 N HA"))
    assert state.tricks[5].winner is Seat.E
    assert state.won == (0, 6, 0, 0)


def test_r6_4_aces_high_in_nolo_with_nolo_aces_low_off() -> None:
    state = nolo_contract(rules(nolo_aces_low=False))
    state = run(state, plays(*NOLO_FILLERS, "E HK S X2 W C3 N HA"))
    assert state.tricks[5].winner is Seat.N


def test_r6_4_aces_stay_high_in_number_contracts() -> None:
    state = run(number_contract(), plays(*FILLERS, "E HK S X2 W C3 N HA"))
    assert state.tricks[5].winner is Seat.N


def test_r6_4_no_trumps_in_nolo() -> None:
    # W's small spade would be the winning trump in the number contract (T3).
    state = run(nolo_contract(), plays(*NOLO_FILLERS, "E HK S X2 W S3 N H8"))
    assert state.tricks[5].winner is Seat.E
    state = run(nolo_contract(rules(nolo_aces_low=False)), plays(*NOLO_FILLERS))
    state = run(state, plays("E HK S X2 W S3 N HA"))
    assert state.tricks[5].winner is Seat.N


def test_r6_8_thirteen_tricks_of_four_cards() -> None:
    state = number_contract()
    while not state.is_terminal:
        state = state.apply(state.legal_actions()[-1])
    assert len(state.tricks) == 13
    assert all(len(t.cards) == 4 for t in state.tricks)
    assert sum(state.won) == 13
    played = {c for t in state.tricks for c in t.cards}
    assert len(played) == 52
    assert Card.S2 not in played  # a kitty card nobody took


# --- the pure functions of esmakker.core.play ------------------------------------------

DEFAULT = rules()
SPADES, HEARTS, NO_TRUMP = int(Suit.S), int(Suit.H), -1


@pytest.mark.parametrize(
    ("cards", "trump", "winner"),
    [
        ("HK X1 S3 HA", SPADES, 2),  # T3
        ("HK X1 C3 HA", SPADES, 3),  # T4
        ("X1 SA X2 H2", SPADES, 0),  # T2
        ("D5 X1 D9 DA", HEARTS, 3),  # T6 under the default
        ("H2 H3 H4 H5", NO_TRUMP, 3),
        ("H9 S2 SA HA", HEARTS, 3),  # a trump lead: highest trump
        ("S2 H9 HA C4", HEARTS, 2),
        ("S2 H9 HA H3", NO_TRUMP, 0),
    ],
)
def test_r6_4_trick_winner(cards: str, trump: int, winner: int) -> None:
    assert trick_winner(_cards(cards), trump, False, DEFAULT) == winner


def test_r6_4_trick_winner_led_joker_beats_trumps_and_jokers() -> None:
    for trump in (SPADES, HEARTS, NO_TRUMP):
        assert trick_winner(_cards("X2 X1 SA HA"), trump, False, DEFAULT) == 0
        assert trick_winner(_cards("X2 X1 SA HA"), trump, True, DEFAULT) == 0


def test_r6_4_two_unled_jokers_never_win() -> None:
    assert trick_winner(_cards("D2 X1 X2 D3"), SPADES, False, DEFAULT) == 3
    assert trick_winner(_cards("D2 X1 X2 X3"), NO_TRUMP, False, DEFAULT) == 0


def test_t6_trick_winner_unled_joker_beats_plain() -> None:
    jlor = rules(unled_joker="beats_plain")
    assert trick_winner(_cards("D5 X1 D9 DA"), HEARTS, False, jlor) == 1
    assert trick_winner(_cards("D5 X1 H2 DA"), HEARTS, False, jlor) == 2  # loses to a trump
    assert trick_winner(_cards("D5 X1 X2 DA"), HEARTS, False, jlor) == 1  # first joker
    assert trick_winner(_cards("D5 DA X2 X3"), NO_TRUMP, False, jlor) == 2  # no trumps
    assert trick_winner(_cards("X1 X2 DA D5"), NO_TRUMP, False, jlor) == 0  # a led joker


def test_t5_trick_winner_aces_low() -> None:
    assert trick_winner(_cards("HK X1 C3 HA"), NO_TRUMP, True, DEFAULT) == 0
    assert trick_winner(_cards("HA H2 C3 D4"), NO_TRUMP, True, DEFAULT) == 1
    assert trick_winner(_cards("HA C3 D4 S5"), NO_TRUMP, True, DEFAULT) == 0
    assert card_strength(Card.HA, True) < card_strength(Card.H2, True)
    assert card_strength(Card.HA, False) > card_strength(Card.HK, False)


def test_r6_2_follow_mask() -> None:
    hand = _mask("SA S2 HK D5 X1")
    assert follow_mask(hand, SPADES, DEFAULT) == _mask("SA S2")
    assert follow_mask(hand, int(Suit.C), DEFAULT) == hand  # void: anything
    assert follow_mask(hand, -1, DEFAULT) == hand  # after a joker lead: anything
    relaxed = rules(joker_only_when_void=False)
    assert follow_mask(hand, SPADES, relaxed) == _mask("SA S2 X1")


def test_r6_1_lead_mask() -> None:
    hand = _mask("SA HK X1 X2")
    assert lead_mask(hand, 0, DEFAULT) == _mask("SA HK")
    assert lead_mask(hand, 1, DEFAULT) == hand
    assert lead_mask(hand, 0, rules(no_joker_lead_trick1=False)) == hand


def test_r6_3_led_suit() -> None:
    assert led_suit(_cards("H5 X1"), DEFAULT) == HEARTS
    assert led_suit(_cards("X1 SA"), DEFAULT) == -1
    sets = rules(after_joker_lead="next_card_sets_suit")
    assert led_suit(_cards("X1"), sets) == -1
    assert led_suit(_cards("X1 X2 SA"), sets) == SPADES
    assert led_suit(_cards("X1 HA SA"), sets) == HEARTS


# --- random play against an independent reading of 6.1-6.5 -----------------------------------


def _spec_legal(state: State) -> set[Card]:
    """The cards rules.md 6.1-6.5 (with clarifications 3, 9, 10, decisions 18, 19) allow."""
    opts = state.rules
    seat = state.to_act
    assert seat is not None
    hand = set(state.hands[seat])
    trick = state.current_trick
    contract = observe(state, None).contract
    assert contract is not None
    called = contract.called
    trump = contract.trump
    bound = False
    if called is not None and called in hand:
        dealt_holder = called in state.dealt[0][seat]
        bound = dealt_holder or seat is contract.declarer
    if not trick:
        cards = set(hand)
        if not state.tricks and opts.no_joker_lead_trick1:
            cards = {c for c in cards if not c.is_joker} or cards
        if bound and opts.called_ace_forced_on_own_lead:
            assert called is not None
            cards = {c for c in cards if c.suit != called.suit or c == called}
        return cards
    lead = trick[0]
    suit = lead.suit
    if lead.is_joker and opts.after_joker_lead == "next_card_sets_suit":
        suit = next((c.suit for c in trick[1:] if not c.is_joker), None)
    follow = {c for c in hand if suit is not None and c.suit == suit}
    if follow:
        cards = follow | (
            {c for c in hand if c.is_joker} if not opts.joker_only_when_void else set()
        )
    else:
        cards = set(hand)
    if bound:
        assert called is not None
        if not lead.is_joker and lead.suit == called.suit:
            return {called}
        throw_away = suit != called.suit and called.suit != trump
        if not opts.called_ace_may_be_discarded and throw_away:
            cards = (cards - {called}) or cards
    return cards


def _spec_winner(state: State, cards: tuple[Card, ...]) -> int:
    """The index of the winning card by the algorithm of 6.4 (and the JLOR variant)."""
    contract = observe(state, None).contract
    assert contract is not None
    nolo = contract.bid.is_nolo
    aces_low = nolo and state.rules.nolo_aces_low

    def strength(card: Card) -> int:
        rank = card.rank or 0
        return 1 if aces_low and rank == 14 else rank

    if cards[0].is_joker:
        return 0
    trump = contract.trump
    trumps = [i for i, c in enumerate(cards) if trump is not None and c.suit == trump]
    if trumps:
        return max(trumps, key=lambda i: strength(cards[i]))
    jokers = [i for i, c in enumerate(cards) if c.is_joker]
    if jokers and state.rules.unled_joker == "beats_plain":
        return jokers[0]
    led = [i for i, c in enumerate(cards) if c.suit == cards[0].suit]
    return max(led, key=lambda i: strength(cards[i]))


PLAY_OPTIONS: dict[str, list[str | bool]] = {
    "first_lead": ["forehand", "declarer"],
    "no_joker_lead_trick1": [True, False],
    "unled_joker": ["powerless", "beats_plain"],
    "joker_only_when_void": [True, False],
    "after_joker_lead": ["free", "next_card_sets_suit"],
    "called_ace_forced_on_own_lead": [True, False],
    "called_ace_may_be_discarded": [True, False],
    "nolo_aces_low": [True, False],
}


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_r6_random_play_matches_an_independent_reading_of_the_rules(preset: str) -> None:
    rng = random.Random(f"spec-{preset}")
    checked_cards = 0
    for number in range(40):
        overrides: dict[str, str | bool] = {k: rng.choice(v) for k, v in PLAY_OPTIONS.items()}
        ruleset = RuleSet.from_preset(preset, overrides)
        state = deal(ruleset, Seat(number % 4), rng)
        while not state.is_terminal:
            if state.phase is Phase.PLAY:
                legal = {a.card for a in state.legal_actions() if isinstance(a, Play)}
                assert legal == _spec_legal(state), (overrides, state.history[-8:])
                checked_cards += 1
                done = len(state.tricks)
                state = state.apply(Play(rng.choice(sorted(legal))))
                if len(state.tricks) > done:
                    trick = state.tricks[-1]
                    index = _spec_winner(state, trick.cards)
                    assert trick.winner is trick.leader.next(index), (overrides, trick)
            else:
                state = state.apply(rng.choice(state.legal_actions()))
    assert checked_cards > 500
