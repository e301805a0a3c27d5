"""Double-dummy loss: tricks each card lost, the bidding regret, their figures in a match."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from esmakker.cli import main
from esmakker.core.actions import Bid, BidKind, Play
from esmakker.core.cards import Card, CardSet
from esmakker.core.phase import Phase
from esmakker.core.record import loads
from esmakker.core.rules import RuleSet
from esmakker.core.scoring import DealOutcome, score_deal
from esmakker.core.seats import SEATS
from esmakker.sim.ddloss import (
    DEFAULT_NODE_LIMIT,
    GAVE_UP,
    NO_CONTRACT,
    NOLO,
    SOLVED,
    HandLoss,
    PlayerLoss,
    bidding_regret,
    costs_of,
    hand_loss,
    judge_cards,
    regret_of,
)
from esmakker.sim.duplicate import ALL_PASS, PLAYED, DuplicateDeal, Hand, play_duplicate, seat_of
from esmakker.sim.match import MatchResult
from esmakker.sim.stats import ROLES, summarise_dd_loss
from esmakker.solver.analysis import states_of
from esmakker.solver.position import EXACTLY_ONE, MAXIMISE, MINIMISE, Position, from_state
from esmakker.solver.solve import Solver
from solver_support import minimax

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
NORTH_SOUTH, NORTH = 0b0101, 0b0001
CapSys = pytest.CaptureFixture[str]


def _card(text: str) -> int:
    return int(Card.parse(text))


def _ending(side: int, objective: str = MAXIMISE, limit: str = "zero") -> Position:
    """Two tricks, no trumps, North to lead: leading HA first takes both, H2 first none.

    N HA H2, E HK S2, S H4 H3, W S4 S3. With H2 first East wins the king and leads a
    spade that West wins; with HA first North wins it and South's H4 the second.
    """
    masks = [CardSet.parse(text).mask for text in ("HA H2", "HK S2", "H4 H3", "S4 S3")]
    return Position(
        hands=(masks[0], masks[1], masks[2], masks[3]),
        leader=0,
        trick_no=11,
        side=side,
        objective=objective,
        limit=limit,
    )


def _walk(solver: Solver, start: Position, cards: str) -> tuple[list[Position], list[int]]:
    """Return the position before each card and the cards' numbers."""
    played = [_card(text) for text in cards.split()]
    positions = [start]
    for card in played[:-1]:
        positions.append(solver.play(positions[-1], card))
    return positions, played


def _costs(start: Position, cards: str, node_limit: int = 10**6) -> list[int | None]:
    solver = Solver(pure=True)
    positions, played = _walk(solver, start, cards)
    return costs_of(positions, judge_cards(solver, positions, played, node_limit))


BEST_LINE = "HA HK H3 S3 H2 S2 H4 S4"
WORST_LINE = "H2 HK H3 S3 S2 H4 S4 HA"


def test_a_card_that_throws_two_tricks_away_loses_two() -> None:
    assert _costs(_ending(NORTH_SOUTH), BEST_LINE) == [0] * 8
    assert _costs(_ending(NORTH_SOUTH), WORST_LINE) == [2] + [0] * 7


def test_in_nolo_the_declarer_loses_by_taking_tricks() -> None:
    nolo = _ending(NORTH, MINIMISE)
    assert _costs(nolo, BEST_LINE) == [1] + [0] * 7  # HA takes a trick H2 would not
    assert _costs(nolo, WORST_LINE) == [0] * 8


def test_exactly_one_trick_counts_the_result() -> None:
    exactly = _ending(NORTH, EXACTLY_ONE, "exactly_1")
    assert _costs(exactly, BEST_LINE) == [0] * 8  # one trick: made
    assert _costs(exactly, WORST_LINE) == [1] + [0] * 7  # none: failed


def test_a_defender_who_gives_a_trick_away_loses_it() -> None:
    # East and West declare, East leads HA then HQ: South must keep his king for the queen.
    masks = [CardSet.parse(text).mask for text in ("D2 D3", "HA HQ", "HK H2", "C2 C3")]
    hands = (masks[0], masks[1], masks[2], masks[3])
    start = Position(hands=hands, leader=1, trick_no=11, side=0b1010)
    assert _costs(start, "HA H2 C2 D2 HQ HK C3 D3") == [0] * 8
    assert _costs(start, "HA HK C2 D2 HQ H2 C3 D3") == [0, 1, 0, 0, 0, 0, 0, 0]


def test_cards_before_a_search_that_gave_up_are_skipped_never_guessed() -> None:
    costs = _costs(_ending(NORTH_SOUTH), WORST_LINE, node_limit=1)
    assert costs[-4:] == [0, 0, 0, 0]  # the last trick: forced cards, no search
    assert costs[0] is None
    assert None in costs[1:4]


def test_card_costs_agree_with_brute_force_on_a_played_deal() -> None:
    states = states_of(loads((GOLDEN / "plain-9-made-with-overtricks.json").read_text()))
    record = loads((GOLDEN / "plain-9-made-with-overtricks.json").read_text())
    last = [i for i, s in enumerate(states[:-1]) if s.phase is Phase.PLAY][-12:]
    positions = [from_state(states[i]) for i in last]
    played = [int(record.steps[i].action.card) for i in last]  # type: ignore[union-attr]
    solver = Solver(pure=True)
    values = judge_cards(solver, positions, played, 10**6)
    side, maximisers = positions[0].side, positions[0].maximisers
    assert values == [minimax(states[i], side, maximisers) for i in [*last, last[-1] + 1]]


# --- bidding regret ---------------------------------------------------------------------------


RULES = RuleSet.from_preset("wikipedia")
NINE = DealOutcome(bid=Bid(9), declarer=0, partner=2, tricks=(0, 0, 0, 0))


def _points(bid: Bid, tricks: int) -> int:
    scored = DealOutcome(bid=bid, declarer=0, partner=2, tricks=(tricks, 0, 0, 0))
    return score_deal(scored, RULES)[0]


def test_the_regret_of_the_best_contract_is_zero() -> None:
    tricks = {3: 7, 2: 9, 1: 6, 0: 5, -1: 7}
    assert bidding_regret(NINE, RULES, 2, tricks) == 0


def test_the_regret_is_the_best_contract_minus_the_played_one() -> None:
    tricks = {3: 10, 2: 8, 1: 6, 0: 5, -1: 7}  # 9 in hearts fails; 10 in spades makes
    best = max(_points(Bid(level), 10) for level in range(7, 11))
    assert best == _points(Bid(10), 10)
    assert bidding_regret(NINE, RULES, 2, tricks) == best - _points(Bid(9), 8)


def test_gode_is_a_candidate_for_clubs() -> None:
    tricks = {3: 6, 2: 9, 1: 6, 0: 9, -1: 6}  # 9 gode scores twice 9 plain here
    regret = bidding_regret(NINE, RULES, 2, tricks)
    assert regret == _points(Bid(9, BidKind.GODE), 9) - _points(Bid(9), 9) > 0


def test_when_nothing_makes_the_regret_is_what_passing_would_have_saved() -> None:
    tricks = {3: 6, 2: 6, 1: 5, 0: 4, -1: 3}
    assert bidding_regret(NINE, RULES, 2, tricks) == -_points(Bid(9), 6)


# --- hands and matches -----------------------------------------------------------------------


def test_a_redeal_has_no_cards_and_no_contract() -> None:
    record = loads((GOLDEN / "all-pass-redeal.json").read_text())
    loss = hand_loss(states_of(record)[-1], node_limit=1000)
    assert loss.regret_status == NO_CONTRACT
    assert loss.declarer is None
    assert all(player == PlayerLoss() for player in loss.players)


def test_a_nolo_hand_has_no_regret_and_every_card_is_counted() -> None:
    record = loads((GOLDEN / "ren-sol-broken-at-trick-3.json").read_text())
    loss = hand_loss(states_of(record)[-1], node_limit=1000)
    assert loss.regret_status == NOLO
    assert sum(player.cards for player in loss.players) == len(
        [s for s in record.steps if isinstance(s.action, Play)]
    )


def _made_up(
    number: int,
    lost: Sequence[tuple[int, ...]],
    declarers: list[int],
    partners: Sequence[int | None] = (None, None, None, None),
) -> DuplicateDeal:
    """A deal whose rotation ``r`` has bot ``i`` losing ``lost[r][i]`` tricks in 13 cards.

    Bot 3's hands have one card not judged; the declarer ``d`` has a regret of ``10 d``;
    rotation ``r``'s partner is ``partners[r]``.
    """
    hands = []
    for rotation, (by_bot, declarer) in enumerate(zip(lost, declarers, strict=True)):
        players = [PlayerLoss(13, 13 - (i == 3), n) for i, n in enumerate(by_bot)]
        four = (players[0], players[1], players[2], players[3])
        dd = HandLoss(four, declarer, 10 * declarer, SOLVED)
        hand = Hand(rotation, PLAYED, "9", False, declarer, True, (0, 0, 0, 0), dd)
        hands.append(replace(hand, partner=partners[rotation]))
    return DuplicateDeal(number, f"1/{number}", SEATS[0], tuple(hands))


def test_each_card_counts_for_its_bot_and_names_are_pooled() -> None:
    lost = [(1, 0, 3, 2), (0, 0, 1, 0), (2, 1, 0, 0), (1, 0, 0, 4)]
    deals = [_made_up(1, lost, [0, 1, 2, 3]), _made_up(2, lost, [0, 1, 2, 3])]
    figures = summarise_dd_loss(("a", "b", "a", "c"), deals, 500)
    bots = figures["bots"]
    assert bots["a"]["tricks_lost_per_deal"] == (4 + 4) / 8
    assert bots["b"]["tricks_lost_per_deal"] == 1 / 4
    assert bots["c"]["tricks_lost_per_deal"] == 6 / 4
    assert bots["c"]["ci95"] == [1.5, 1.5]  # the same value on both deals
    assert (bots["a"]["cards"], bots["a"]["cards_solved"]) == (208, 208)
    assert (bots["c"]["cards"], bots["c"]["cards_solved"]) == (104, 96)
    assert bots["a"]["regret_per_declared_deal"] == (0 + 20) / 2
    assert bots["c"]["regret_per_declared_deal"] == 30
    assert (bots["b"]["declared"], bots["b"]["regret_solved"]) == (2, 2)
    assert figures["card_coverage"] == (416 - 8) / 416
    assert figures["tricks_lost_ratio"] is None  # three names: no one pair to compare


def test_the_tricks_lost_ratio_compares_two_names_deal_by_deal() -> None:
    lost = [(1, 0, 3, 2), (0, 0, 1, 0), (2, 1, 0, 0), (1, 0, 0, 4)]
    other = [(0, 2, 1, 1), (2, 0, 0, 1), (0, 1, 1, 0), (1, 1, 0, 0)]
    deals = [_made_up(1, lost, [0, 1, 2, 3]), _made_up(2, other, [0, 1, 2, 3])]
    figures = summarise_dd_loss(("a", "b", "b", "b"), deals, 500)
    ratio = figures["tricks_lost_ratio"]
    assert (ratio["bot"], ratio["to"]) == ("a", "b")
    # "a" lost 4 and 3 tricks in four hands; each "b" lost 11/3 and 8/3 on average
    assert ratio["ratio"] == pytest.approx((4 + 3) / (11 / 3 + 8 / 3))
    low, high = ratio["ci95"]
    assert low < ratio["ratio"] < high


def test_tricks_lost_by_role_split_declarer_partner_defenders_and_nolo_from_numbers() -> None:
    lost = [(1, 0, 3, 2), (0, 0, 1, 0), (2, 1, 0, 0), (1, 0, 0, 4)]
    number = _made_up(1, lost, [0, 1, 2, 3], partners=[2, None, 1, 0])
    nolo = _made_up(2, lost, [0, 0, 2, 2])
    nolo = replace(nolo, hands=tuple(replace(hand, nolo=True) for hand in nolo.hands))
    passed = DuplicateDeal(3, "1/3", SEATS[0], (replace(number.hands[0], outcome=ALL_PASS),))
    figures = summarise_dd_loss(("a", "b", "a", "c"), [number, nolo, passed], 500)
    by_role = figures["bots"]["a"]["by_role"]
    # bots 0 and 2 are "a"; in deal 1 bot r declares rotation r, in deal 2 bots 0, 0, 2, 2
    assert by_role["declarer"] == {"hands": 2, "tricks_lost_per_hand": (1 + 0) / 2}
    # partners: bot 2 beside bot 0 (3 tricks), bot 0 beside bot 3 (1); no partner in rotation 1
    assert by_role["partner"] == {"hands": 2, "tricks_lost_per_hand": (3 + 1) / 2}
    assert by_role["defender"] == {"hands": 4, "tricks_lost_per_hand": (0 + 1 + 2 + 0) / 4}
    assert by_role["nolo_declarer"] == {"hands": 4, "tricks_lost_per_hand": (1 + 0 + 0 + 0) / 4}
    assert by_role["nolo_others"] == {"hands": 4, "tricks_lost_per_hand": (3 + 1 + 2 + 1) / 4}
    none = summarise_dd_loss(("a", "b", "a", "c"), [number], 500)["bots"]["b"]["by_role"]
    assert none["nolo_declarer"] == {"hands": 0, "tricks_lost_per_hand": None}


def test_dd_loss_json_shape() -> None:
    lost = [(1, 0, 3, 2), (0, 0, 1, 0), (2, 1, 0, 0), (1, 0, 0, 4)]
    figures = summarise_dd_loss(("a", "b", "a", "c"), [_made_up(1, lost, [0, 1, 2, 3])], 500)
    assert list(figures) == [
        "node_limit",
        "bots",
        "tricks_lost_ratio",
        "cards",
        "cards_solved",
        "card_coverage",
        "number_contracts",
        "regret_solved",
        "regret_coverage",
    ]
    assert list(figures["bots"]["a"]) == [
        "tricks_lost_per_deal",
        "ci95",
        "cards",
        "cards_solved",
        "card_coverage",
        "regret_per_declared_deal",
        "regret_ci95",
        "declared",
        "regret_solved",
        "by_role",
    ]
    assert list(figures["bots"]["a"]["by_role"]) == list(ROLES)
    assert figures["bots"]["a"]["ci95"] is None  # one deal: no interval
    json.dumps(figures)


def test_reindexing_follows_the_seats() -> None:
    players = tuple(PlayerLoss(13, 13, lost) for lost in (0, 1, 2, 3))
    loss = HandLoss(players, 2, 5, SOLVED)  # type: ignore[arg-type]
    moved = loss.reindexed([1, 2, 3, 0])  # bot i sits at seat i + 1
    assert [p.lost for p in moved.players] == [1, 2, 3, 0]
    assert moved.declarer == 1


def test_a_duplicate_deal_gives_each_bot_its_own_cards() -> None:
    rules = RuleSet.from_preset("wikipedia")
    bots = ("heuristic", "random", "heuristic", "random")
    deal = play_duplicate(rules, bots, "dd", 1, records=True, dd_node_limit=2_000)
    again = play_duplicate(rules, bots, "dd", 1, dd_node_limit=2_000)
    assert [h.dd for h in deal.hands] == [h.dd for h in again.hands]
    for hand, text in zip(deal.hands, deal.records, strict=True):
        record = loads(text)
        assert hand.dd is not None
        for i in range(4):
            seat = seat_of(i, hand.rotation)
            mine = [s for s in record.steps if s.seat == seat and isinstance(s.action, Play)]
            assert hand.dd.players[i].cards == len(mine)
            assert 0 <= hand.dd.players[i].solved <= len(mine)
        if hand.declarer is not None:
            assert hand.dd.declarer == hand.declarer
            assert hand.dd.regret_status in (SOLVED, GAVE_UP, NOLO)


def test_match_dd_loss_on_the_command_line(capsys: CapSys) -> None:
    args = ["match", "--bots", "heuristic,random,heuristic,random", "--deals", "1"]
    small = [*args, "--workers", "1", "--dd-loss", "--dd-node-limit", "2000"]
    assert main([*small, "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["dd_loss"]
    assert figures["node_limit"] == 2000
    assert set(figures["bots"]) == {"heuristic", "random"}
    assert (figures["tricks_lost_ratio"]["bot"], figures["tricks_lost_ratio"]["to"]) == (
        "heuristic",
        "random",
    )
    assert figures["cards"] == 4 * 52 or figures["number_contracts"] < 4
    assert main(small) == 0
    text = capsys.readouterr().out
    assert "tricks lost/deal" in text
    assert "heuristic lost" in text
    assert "times the tricks random lost" in text
    assert main([*args, "--dd-node-limit", "5"]) == 2
    assert "--dd-loss" in capsys.readouterr().err


@pytest.mark.slow
def test_dd_loss_is_the_same_whatever_the_workers(capsys: CapSys) -> None:
    args = ["match", "--bots", "heuristic,random,heuristic,random", "--deals", "3", "--json"]
    args += ["--dd-loss", "--dd-node-limit", "20000"]
    outputs = []
    for workers in ("1", "2"):
        assert main([*args, "--workers", workers]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]


def test_the_report_has_the_double_dummy_table() -> None:
    pytest.importorskip("matplotlib")
    from esmakker.sim.report import render_report

    lost = [(1, 0, 3, 2), (0, 0, 1, 0), (2, 1, 0, 0), (1, 0, 0, 4)]
    deals = (_made_up(1, lost, [0, 1, 2, 3]), _made_up(2, lost, [0, 1, 2, 3]))
    bots = ("a", "b", "a", "c")
    page = render_report(MatchResult(bots, "wikipedia", "1", deals, {}, 500))
    assert "<h2>Double dummy</h2>" in page
    assert "<td>c</td><td>1.50</td><td>[1.50, 1.50]</td><td>92.3%</td><td>30.0</td>" in page
    assert "times the tricks" not in page  # three names: no ratio
    # "c" (bot 3) declares rotation 3 of both deals, losing 4; elsewhere 2, 0, 0 twice over
    # no partners in these deals: "c" defends every hand it does not declare
    row = "<tr><td>c</td><td>4.00 (2)</td><td>&ndash; (0)</td><td>0.67 (6)</td><td>&ndash; (0)</td>"
    assert row in page
    two = render_report(MatchResult(("a", "b", "b", "b"), "wikipedia", "1", deals, {}, 500))
    assert "<p>a lost 1.09 times the tricks b lost (95% interval 1.09 to 1.09).</p>" in two
    without = render_report(MatchResult(bots, "wikipedia", "1", deals))
    assert "Double dummy" not in without


def test_the_searched_regret_equals_the_regret_of_the_exact_tricks() -> None:
    # Seven tricks taken, three to go; the best trumps differ (diamonds: South ruffs).
    masks = [CardSet.parse(t).mask for t in ("SA SK H2", "HA HK S2", "D2 D3 D4", "C2 C3 C4")]
    start = Position(
        hands=(masks[0], masks[1], masks[2], masks[3]), leader=0, trick_no=10, side=0b0101, won=7
    )
    solver = Solver(pure=True)
    exact = {trump: solver.value(replace(start, trump=trump)) for trump in (3, 2, 1, 0, -1)}
    assert len(set(exact.values())) > 2
    for trump, bid in ((2, Bid(9)), (1, Bid(10)), (0, Bid(8, BidKind.GODE)), (3, Bid(7))):
        outcome = replace(NINE, bid=bid)
        opening = replace(start, trump=trump)
        searched = regret_of(solver, outcome, RULES, opening, exact[trump], 10**6)
        assert searched == bidding_regret(outcome, RULES, trump, exact)


def test_a_played_deal_judged_to_the_opening_lead() -> None:
    record = loads((GOLDEN / "plain-9-made-with-overtricks.json").read_text())
    states = states_of(record)
    final = states[-1]
    loss = hand_loss(final, node_limit=DEFAULT_NODE_LIMIT)
    assert all(player.solved == player.cards == 13 for player in loss.players)
    result = final.result()
    assert result is not None
    side = {int(result.declarer), int(result.partner)}  # type: ignore[arg-type]
    mine = sum(p.lost for seat, p in enumerate(loss.players) if seat in side)
    theirs = sum(p.lost for seat, p in enumerate(loss.players) if seat not in side)
    par = result.declarer_side_tricks - theirs + mine  # the losses add up along the play
    assert par == 12
    # 9 plain (base 40) with 12 tricks scores 40 x (1 + 3) = 160; 12 plain would score 320.
    assert (loss.regret_status, loss.regret) == (SOLVED, 320 - 160)
