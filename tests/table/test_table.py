"""The table: deals in a row, people and bots, take-backs, restoring a saved game."""

from __future__ import annotations

import random

import pytest

from esmakker.bots.registry import make_bot
from esmakker.core.actions import IRON, Action, Iron, parse_action
from esmakker.core.errors import CorruptRecordError, IllegalActionError, Reason
from esmakker.core.record import HandRecord
from esmakker.core.seats import Seat
from esmakker.core.view import PlayerView
from esmakker.sim.runner import simulate_deals
from esmakker.table import (
    ActionApplied,
    ActionUndone,
    BotFactory,
    DealScored,
    DealStarted,
    Table,
    TrickTaken,
)
from support import rules

PLAYERS = ("Anna", "Bo", "Carl", "Dora")


def bot(name: str) -> BotFactory:
    return lambda rng: make_bot(name, rng)


def all_bots(players: tuple[str, ...] = PLAYERS, kind: str = "heuristic") -> dict[str, BotFactory]:
    return {player: bot(kind) for player in players}


def play_deals(table: Table, count: int) -> list[DealScored]:
    scored: list[DealScored] = []
    for _ in range(count):
        table.start_deal()
        scored += [e for e in table.step_bots() if isinstance(e, DealScored)]
    return scored


def test_bots_play_a_deal_to_the_score_sheet() -> None:
    table = Table(rules(), PLAYERS, seed="t1", bots=all_bots())
    started = table.start_deal()
    assert started == [DealStarted(1, table.sheet.seating())]
    events = table.step_bots()
    assert table.deal_over
    assert isinstance(events[-1], DealScored)
    assert len(table.sheet.rows) == 1
    assert table.records[0].result is not None
    assert sum(table.sheet.totals.values()) == 0
    assert table.to_act is None


def test_thirteen_tricks_are_announced_in_a_played_deal() -> None:
    table = Table(rules(), PLAYERS, seed="t2", bots=all_bots())
    for _ in range(20):
        table.start_deal()
        events = table.step_bots()
        result = table.records[-1].result
        assert result is not None
        tricks = [e for e in events if isinstance(e, TrickTaken)]
        if result["outcome"] == "played" and not result["contract"].startswith(
            ("sol", "ren", "bord")
        ):
            assert [t.number for t in tricks] == list(range(1, 14))
            return
    pytest.fail("no number contract played in 20 deals")


def test_the_dealer_rotates_clockwise_after_each_played_deal() -> None:
    table = Table(rules(), PLAYERS, seed="t3", bots=all_bots())
    dealers = []
    for _ in range(4):
        dealers.append(table.sheet.dealer)
        play_deals(table, 1)
    played = [row.outcome == "played" for row in table.sheet.rows]
    assert all(played)  # heuristic bots never pass out four times in a row on these deals
    assert dealers == list(PLAYERS)


def test_a_person_is_waited_for_and_an_illegal_action_changes_nothing() -> None:
    table = Table(rules(), PLAYERS, seed="t4", bots=all_bots(PLAYERS[1:]))
    table.start_deal()
    table.step_bots()
    anna = table.seat_of("Anna")
    assert anna is not None
    assert table.to_act == anna
    assert table.bot_action() is None
    before = table.state
    candidates = [parse_action(text) for text in ("bid 13 sans", "play SA", "bid 7")]
    illegal = next(a for a in candidates if a not in table.view(anna).legal_actions)
    with pytest.raises(IllegalActionError):
        table.submit(anna, illegal)
    other = anna.next()
    with pytest.raises(IllegalActionError) as caught:
        table.submit(other, table.view(anna).legal_actions[0])
    assert caught.value.reason is Reason.NOT_YOUR_TURN
    assert table.state is before
    action = table.view(anna).legal_actions[0]
    assert table.submit(anna, action)[0] == ActionApplied(anna, action)


def test_people_play_a_whole_deal_with_their_first_legal_action() -> None:
    table = Table(rules(), PLAYERS, seed="t5")
    table.start_deal()
    while not table.deal_over:
        seat = table.to_act
        assert seat is not None
        assert table.bot_action() is None
        table.submit(seat, table.view(seat).legal_actions[0])
    assert len(table.records) == 1


def test_undo_takes_back_the_last_action_only_during_the_deal() -> None:
    table = Table(rules(), PLAYERS, seed="t6")
    with pytest.raises(RuntimeError):
        table.view(Seat.N)
    table.start_deal()
    with pytest.raises(IllegalActionError):
        table.undo()
    seat = table.to_act
    assert seat is not None
    before = table.state
    action = table.view(seat).legal_actions[-1]
    table.submit(seat, action)
    assert table.undo() == [ActionUndone(seat, action)]
    assert table.state is before
    with pytest.raises(IllegalActionError):
        table.undo()


def test_acting_between_deals_is_rejected_with_game_over() -> None:
    table = Table(rules(), PLAYERS, seed="t7", bots=all_bots())
    with pytest.raises(
        IllegalActionError, match="no deal in progress: E cannot pass now"
    ) as caught:
        table.submit(Seat.E, parse_action("pass"))
    assert caught.value.reason is Reason.GAME_OVER
    play_deals(table, 1)
    with pytest.raises(IllegalActionError, match="nothing to take back"):
        table.undo()
    table.start_deal()
    with pytest.raises(RuntimeError, match="a deal is in progress"):
        table.start_deal()


def test_a_table_is_deterministic_given_its_seed() -> None:
    first = Table(rules(), PLAYERS, seed="same", bots=all_bots())
    second = Table(rules(), PLAYERS, seed="same", bots=all_bots())
    play_deals(first, 3)
    play_deals(second, 3)
    assert first.records == second.records


def test_a_table_of_bots_plays_the_simulators_deals() -> None:
    players = ("P1", "P2", "P3", "P4")
    table = Table(rules(), players, seed="42", bots=all_bots(players, "beginner"))
    play_deals(table, 3)
    simulated = simulate_deals("wikipedia", 3, 42, ("beginner",) * 4)
    for record, sim in zip(table.records, simulated, strict=True):
        assert record.steps == sim.state.history
        assert record.meta["seed"] == sim.seed


def test_a_restored_table_has_the_same_sheet_and_deals_on() -> None:
    table = Table(rules(), PLAYERS, seed="r", bots=all_bots())
    play_deals(table, 3)
    restored = Table(rules(), PLAYERS, seed="r", bots=all_bots())
    for record in table.records[:2]:
        restored.add_finished(record)
    play_deals(restored, 1)
    assert restored.sheet.totals == table.sheet.totals
    assert restored.records == table.records


def test_restoring_a_deal_dealt_by_the_wrong_dealer_is_rejected() -> None:
    table = Table(rules(), PLAYERS, seed="w", bots=all_bots())
    play_deals(table, 2)
    restored = Table(rules(), PLAYERS, seed="w")
    with pytest.raises(CorruptRecordError, match="deal 1: the record's dealer is E"):
        restored.add_finished(table.records[1])
    assert restored.sheet.rows == ()


def test_restoring_an_unfinished_deal_is_rejected() -> None:
    table = Table(rules(), PLAYERS, seed="u")
    table.start_deal()
    unfinished: HandRecord = table.record()
    restored = Table(rules(), PLAYERS, seed="u")
    with pytest.raises(CorruptRecordError, match="unfinished"):
        restored.add_finished(unfinished)


def test_with_five_players_the_dealer_sits_out_and_the_records_name_the_bots() -> None:
    players = (*PLAYERS, "Erik")
    table = Table(rules(), players, seed="f", bots=all_bots(players))
    table.start_deal()
    assert table.seat_of(table.sheet.dealer) is None
    table.step_bots()
    meta = table.records[0].meta
    assert set(meta["players"].values()) == {"bot:heuristic"}
    assert meta["sitting_out"] == ["Anna"]
    assert meta["deal"] == 1


def test_bots_for_strangers_are_rejected() -> None:
    with pytest.raises(ValueError, match="not at the table: Zed"):
        Table(rules(), PLAYERS, seed="x", bots={"Zed": bot("random")})


class _Claimer:
    """A bot that claims iron hand whenever it is asked."""

    name = "claimer"
    asked = 0

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: PlayerView) -> Action:
        raise AssertionError("a claimer only claims")

    def claim_iron(self, view: PlayerView) -> bool:
        _Claimer.asked += 1
        return True


def test_iron_hand_claims_by_bots_are_asked_once_before_the_first_call() -> None:
    # Seed "i645" deals the player at S (Carl) a hand without honours or jokers.
    table = Table(rules(iron_hand="optional"), PLAYERS, seed="i645", bots={"Carl": _Claimer})
    table.start_deal()
    carl = table.seat_of("Carl")
    assert carl is Seat.S
    _Claimer.asked = 0
    decision = table.bot_action()
    assert decision == (carl, IRON)
    assert _Claimer.asked == 1
    events = table.submit(*decision)
    assert isinstance(events[0], ActionApplied)
    assert isinstance(events[0].action, Iron)
    assert isinstance(events[-1], DealScored)
    assert events[-1].row.redeal == "iron_hand"


class _Decliner:
    """A bot that declines iron hand and otherwise takes its first legal action."""

    name = "decliner"
    asked = 0

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: PlayerView) -> Action:
        return view.legal_actions[0]

    def claim_iron(self, view: PlayerView) -> bool:
        _Decliner.asked += 1
        return False


def test_a_bot_that_declines_iron_hand_is_asked_only_once() -> None:
    table = Table(rules(iron_hand="optional"), PLAYERS, seed="i645", bots={"Carl": _Decliner})
    table.start_deal()
    _Decliner.asked = 0
    assert table.bot_action() is None  # forehand (Bo, a person) is to act
    assert table.bot_action() is None
    assert _Decliner.asked == 1


# --- claims --------------------------------------------------------------------------------


def _into_play(seed: str, tricks: int) -> Table:
    """Return a table of bots whose deal is in play with ``tricks`` tricks done."""
    table = Table(rules(), PLAYERS, seed=seed, bots=all_bots())
    table.start_deal()
    while (decision := table.bot_action()) is not None:
        state = table.state
        assert state is not None
        if state.phase.value == "play" and len(state.tricks) >= tricks and not state.current_trick:
            break
        table.submit(*decision)
    return table


def test_a_claim_line_gives_the_claimed_side_every_trick_left() -> None:
    found = 0
    for number in range(40):
        if found >= 4:
            break
        table = _into_play(f"claim/{number}", 10)
        state = table.state
        bid = None if state is None else state.engine.bid
        if state is None or state.phase.value != "play" or bid is None or bid.is_nolo:
            continue
        done = len(state.tricks)
        for winners in (table.declaring_side(), frozenset(Seat) - table.declaring_side()):
            line = table.claim_line(winners, budget=3000)
            if line is None:
                continue
            found += 1
            end = state
            for seat, action in line:
                end = end.apply(action, seat)
            assert end.is_terminal
            assert all(trick.winner in winners for trick in end.tricks[done:])
    assert found >= 4


def test_claims_belong_to_the_play_of_a_trick_contract() -> None:
    table = Table(rules(), PLAYERS, seed="claims", bots=all_bots())
    table.start_deal()
    with pytest.raises(IllegalActionError) as caught:
        table.declaring_side()
    assert caught.value.reason is Reason.WRONG_PHASE
    assert table.claim_line(frozenset(Seat)) is None


def test_replay_frames_step_through_a_finished_deal() -> None:
    from esmakker.table import replay_frames

    table = Table(rules(), PLAYERS, seed="frames", bots=all_bots())
    play_deals(table, 1)
    record = table.records[0]
    frames = replay_frames(record)
    assert len(frames) == len(record.steps) + 1
    assert [frame.seats[seat].hand for seat in Seat for frame in frames[:1]] == list(record.hands)
    assert not frames[0].spectator.hand
    assert frames[-1].spectator.result is not None
