"""The hand record (hand-record.md): round trips, canonical text, replay and every error path."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from esmakker.core.actions import PASS, Play
from esmakker.core.errors import (
    CorruptRecordError,
    IllegalActionError,
    InvalidDealError,
    NotationError,
    Reason,
    RulesConfigError,
)
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.record import (
    FORMAT,
    HandRecord,
    RecordActionError,
    RecordDealError,
    RecordRulesError,
    dump,
    dumps,
    iter_jsonl,
    load,
    loads,
    record_of,
    replay,
    write_jsonl,
)
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State, Step, deal
from support import make_state, run

# A hand-made deal (rules.md 7.3 row 1 shape): E declares 9 in spades with W, 11 tricks.
HANDS = {
    "N": "S6 S5 H9 H8 H7 DA DJ DT D7 D6 CA CJ CT",
    "E": "SA SK SQ SJ ST S9 H3 H2 DK DQ CK CQ X1",
    "S": "S4 S3 S2 HT H6 H5 H4 D5 D4 D3 D2 C5 C4",
    "W": "S8 S7 HA HK HQ HJ D9 D8 C9 C8 C7 C6 X2",
}
KITTY = "C3 C2 X3"
CALLS = [
    "E bid 8",
    "S pass",
    "W bid 8 gode",
    "E bid 9",
    "W pass",
    "N pass",
    "E trump S",
    "E call HA",
    "E decline",
    "S take",
    "S discard C3",
    "S discard C2",
    "S discard D2",
]
TRICKS = [
    "E: H2 H4 HA H7",
    "W: HK H8 H3 H5",
    "W: HQ H9 S9 H6",
    "E: SA S2 S7 S5",
    "E: SK S3 S8 S6",
    "E: SQ S4 C6 CT",
    "E: DK D3 D8 DA",
    "N: CA CQ C4 C7",
    "N: CJ CK C5 C8",
    "E: DQ D4 D9 DJ",
    "E: SJ D5 C9 D6",
    "E: X1 HT HJ D7",
    "E: ST X3 X2 DT",
]
FIRST_PLAY = len(CALLS)


def _plays() -> list[str]:
    steps = []
    for line in TRICKS:
        leader, _, cards = line.partition(": ")
        seat = Seat.parse(leader)
        steps += [f"{seat.next(i).name} play {card}" for i, card in enumerate(cards.split())]
    return steps


def _finished() -> State:
    state = make_state(RuleSet.from_preset("wikipedia"), "N", HANDS, KITTY)
    return run(state, CALLS + _plays())


def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(dumps(record_of(_finished())))
    return data


def _error(data: Any) -> CorruptRecordError:
    with pytest.raises(CorruptRecordError) as caught:
        loads(data if isinstance(data, str) else json.dumps(data))
    message = str(caught.value)
    assert "\n" not in message
    return caught.value


# --- round trips and canonical text -------------------------------------------------------


def test_finished_deal_round_trips_and_keeps_its_result() -> None:
    state = _finished()
    record = record_of(state, {"players": {"N": "human:søren"}})
    text = dumps(record)
    assert loads(text) == record
    assert dumps(loads(text)) == text
    assert record.result == state.result().to_json()  # type: ignore[union-attr]
    assert record.result is not None
    assert record.result["scores"] == {"N": -120, "E": 120, "S": -120, "W": 120}


def test_canonical_text_has_the_documented_shape() -> None:
    data = _data()
    assert list(data) == ["format", "rules", "dealer", "deal", "actions", "result", "meta"]
    assert data["format"] == FORMAT
    assert data["rules"] == {"preset": "wikipedia", "overrides": {}}
    assert data["deal"]["E"] == "SA SK SQ SJ ST S9 H3 H2 DK DQ CK CQ X1"
    assert data["deal"]["kitty"] == KITTY
    assert data["actions"][:3] == ["E bid 8", "S pass", "W bid 8 gode"]
    assert data["meta"] == {}


def test_loose_input_is_read_and_written_canonically() -> None:
    data = _data()
    canonical = json.dumps(data, ensure_ascii=False)
    loose = dict(data)
    loose["rules"] = "wikipedia"
    loose["dealer"] = "n"
    loose["deal"] = dict(data["deal"])
    loose["deal"]["E"] = "x1 cq ck dq dk h2 h3 s9 s10 sj sq sk sa"
    loose["actions"] = [a.replace("play S", "play s") for a in data["actions"]]
    del loose["result"]
    del loose["meta"]
    assert dumps(loads(json.dumps(loose))) == canonical


def test_take_listing_the_whole_kitty_is_written_as_take() -> None:
    data = _data()
    data["actions"][CALLS.index("S take")] = "S take X3 C2 C3"
    assert dumps(loads(json.dumps(data))) == json.dumps(_data(), ensure_ascii=False)


def test_rules_with_overrides_round_trip() -> None:
    rules = RuleSet.from_preset("wikipedia", {"scoring_scheme": "pywhist", "iron_hand": "optional"})
    state = deal(rules, Seat.W, random.Random(5))
    record = record_of(state.apply(PASS))
    data = json.loads(dumps(record))
    assert data["rules"]["preset"] == "wikipedia"
    assert data["rules"]["overrides"]["iron_hand"] == "optional"
    assert loads(dumps(record)).rules == rules
    tuned = RuleSet.from_preset("hilmarshelte", {"scoring_scheme": "simple", "base_unit": 5})
    record = record_of(deal(tuned, Seat.N, random.Random(6)))
    assert loads(dumps(record)).rules == tuned


def test_unfinished_deal_round_trips_with_a_null_result() -> None:
    state = run(make_state(RuleSet.from_preset("wikipedia"), "N", HANDS, KITTY), CALLS[:4])
    record = record_of(state)
    assert record.result is None
    assert json.loads(dumps(record))["result"] is None
    assert loads(dumps(record)) == record


def test_dumps_computes_a_missing_result() -> None:
    record = record_of(_finished())
    bare = HandRecord(
        rules=record.rules,
        dealer=record.dealer,
        hands=record.hands,
        kitty=record.kitty,
        steps=record.steps,
    )
    assert dumps(bare) == dumps(record)


def _random_deal(preset: str, seed: int, stop: float) -> State:
    rng = random.Random(seed)
    state = deal(RuleSet.from_preset(preset), Seat(seed % 4), rng)
    while not state.is_terminal and rng.random() >= stop:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@given(st.sampled_from(PRESET_NAMES), st.integers(0, 2**32), st.sampled_from([0.0, 0.01]))
def test_random_deals_of_every_preset_round_trip_and_replay(
    preset: str, seed: int, stop: float
) -> None:
    state = _random_deal(preset, seed, stop)
    record = record_of(state, {"seed": seed})
    text = dumps(record)
    again = loads(text)
    assert again == record
    assert dumps(again) == text
    replayed = replay(again)
    assert replayed.history == state.history
    result = replayed.result()
    assert (None if result is None else result.to_json()) == record.result


def test_files_and_json_lines(tmp_path: Path) -> None:
    records = [record_of(_random_deal("osterbro", seed, 0.0)) for seed in range(3)]
    dump(records[0], tmp_path / "one.json")
    assert load(tmp_path / "one.json") == records[0]
    assert write_jsonl(records, tmp_path / "many.jsonl") == 3
    with (tmp_path / "many.jsonl").open("a", encoding="utf-8") as out:
        out.write("\n")
    assert list(iter_jsonl(tmp_path / "many.jsonl")) == records


# --- replay ---------------------------------------------------------------------------------


def test_replay_returns_the_final_state() -> None:
    state = replay(record_of(_finished()))
    assert state.is_terminal
    assert state.history == _finished().history


def test_replay_rejects_a_step_with_the_wrong_seat() -> None:
    record = record_of(_finished())
    steps = list(record.steps)
    steps[FIRST_PLAY] = Step(Seat.S, steps[FIRST_PLAY].action)  # E leads to trick 1
    wrong = HandRecord(
        rules=record.rules,
        dealer=record.dealer,
        hands=record.hands,
        kitty=record.kitty,
        steps=tuple(steps),
    )
    with pytest.raises(RecordActionError) as caught:
        replay(wrong)
    error = caught.value
    assert str(error).startswith(f"actions[{FIRST_PLAY}] 'S play H2': it is E's turn, not S's")
    assert error.reason is Reason.NOT_YOUR_TURN
    assert (error.index, error.seat, error.action) == (FIRST_PLAY, "S", "play H2")
    assert isinstance(error.__cause__, IllegalActionError)


def test_replay_rejects_a_stored_result_that_differs() -> None:
    record = record_of(_finished())
    assert record.result is not None
    altered = dict(record.result, made=False)
    bad = HandRecord(
        rules=record.rules,
        dealer=record.dealer,
        hands=record.hands,
        kitty=record.kitty,
        steps=record.steps,
        result=altered,
    )
    with pytest.raises(
        CorruptRecordError, match=r"^result\.made: stored false, replay gives true$"
    ):
        replay(bad)


# --- every error names its place in one line ---------------------------------------------


def test_malformed_json_names_line_and_column() -> None:
    error = _error('{"format": "esmakker-hand/1",\n  "rules" "wikipedia"}')
    assert str(error) == "malformed JSON at line 2, column 11: Expecting ':' delimiter"
    assert isinstance(error.__cause__, json.JSONDecodeError)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("format"), 'format: missing (expected "esmakker-hand/1")'),
        (
            lambda d: d.update(format="esmakker-hand/2"),
            'format: "esmakker-hand/2" is not "esmakker-hand/1"',
        ),
        (lambda d: d.update(actions="E pass"), "actions: expected a list of strings, got a string"),
        (lambda d: d.update(extra=1), "extra: unknown field"),
        (lambda d: d.pop("deal"), "deal: missing"),
        (lambda d: d.update(dealer="Q"), "dealer: 'Q' is not a seat"),
        (lambda d: d.update(meta=[]), "meta: expected an object, got a list"),
        (lambda d: d.update(result=3), "result: expected an object, got a number"),
        (lambda d: d["deal"].pop("W"), "deal.W: missing"),
        (
            lambda d: d["actions"].__setitem__(3, 7),
            'actions[3]: expected a string like "E play S4"',
        ),
    ],
)
def test_shape_errors(change: Any, message: str) -> None:
    data = _data()
    change(data)
    assert str(_error(data)).startswith(message)


def test_unknown_preset() -> None:
    data = _data()
    data["rules"] = {"preset": "bridge", "overrides": {}}
    error = _error(data)
    assert str(error).startswith("rules.preset: preset 'bridge' is unknown")
    assert isinstance(error, RecordRulesError)
    assert isinstance(error, RulesConfigError)
    assert isinstance(error.__cause__, RulesConfigError)
    data["rules"] = "bridge"
    assert str(_error(data)).startswith("rules: preset 'bridge' is unknown")


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"no_such_option": 1}, "rules.overrides.no_such_option: unknown rule option"),
        ({"min_bid": 12}, "rules.overrides.min_bid: rule option min_bid = 12 is not one of"),
        ({"iron_hand": True}, "rules.overrides.iron_hand: rule option iron_hand = True"),
        (
            {"attachment_ranking": "ordered", "attachment_order": ["vip"]},
            "rules.overrides: rule options attachment_order and attachments conflict",
        ),
    ],
)
def test_bad_overrides_name_the_option(overrides: dict[str, Any], message: str) -> None:
    data = _data()
    data["rules"]["overrides"] = overrides
    error = _error(data)
    assert str(error).startswith(message)
    assert isinstance(error.__cause__, RulesConfigError)


def test_malformed_card_names_the_hand() -> None:
    data = _data()
    data["deal"]["N"] = data["deal"]["N"].replace("S6", "S1")
    error = _error(data)
    assert str(error).startswith("deal.N: 'S1' is not a card")
    assert isinstance(error.__cause__, NotationError)
    data = _data()
    data["deal"]["kitty"] = "C3 C2 X4"
    assert str(_error(data)).startswith("deal.kitty: 'X4' is not a card")


def test_bad_deal() -> None:
    data = _data()
    data["deal"]["N"] = data["deal"]["N"].replace("S6 ", "")
    error = _error(data)
    assert str(error) == "deal: N holds 12 cards; each seat gets 13"
    assert isinstance(error, RecordDealError)
    assert isinstance(error, InvalidDealError)
    assert isinstance(error.__cause__, InvalidDealError)
    data = _data()
    data["deal"]["kitty"] = "C3 C3 X3"
    assert str(_error(data)) == "deal: the kitty lists a card twice: C3 C3 X3"


def test_malformed_action() -> None:
    data = _data()
    data["actions"][12] = "S discrad D2"
    error = _error(data)
    assert str(error) == (
        "actions[12] 'S discrad D2': 'discrad D2' is not an action (unknown verb 'discrad')"
    )
    assert isinstance(error.__cause__, NotationError)
    data["actions"][12] = "Q discard D2"
    assert str(_error(data)).startswith("actions[12] 'Q discard D2': 'Q' is not a seat")
    data["actions"][12] = "S discard D1"
    assert str(_error(data)).startswith("actions[12] 'S discard D1': 'D1' is not a card")


def test_illegal_action_keeps_the_reason() -> None:
    data = _data()
    index = FIRST_PLAY + 13  # trick 4: S must follow E's SA lead with a spade
    assert data["actions"][index] == "S play S2"
    data["actions"][index] = "S play D5"
    error = _error(data)
    assert (
        str(error)
        == f"actions[{index}] 'S play D5': must follow spades; D5 is not one of them (R6.2)"
    )
    assert isinstance(error, RecordActionError)
    assert isinstance(error, IllegalActionError)
    assert error.reason is Reason.MUST_FOLLOW_SUIT
    assert isinstance(error.__cause__, IllegalActionError)


def test_called_ace_duty_in_a_record() -> None:
    data = _data()
    index = FIRST_PLAY + 2  # W holds the called HA and must play it on the first heart lead
    data["actions"][index] = "W play HK"
    error = _error(data)
    assert str(error).startswith(f"actions[{index}] 'W play HK': the called card HA must be played")
    assert error.reason is Reason.CALLED_CARD_MUST_BE_PLAYED  # type: ignore[attr-defined]


def test_action_after_the_end() -> None:
    data = _data()
    data["actions"].append("E play SA")
    error = _error(data)
    assert str(error).startswith(f"actions[{len(data['actions']) - 1}] 'E play SA': ")
    assert error.reason is Reason.GAME_OVER  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        (
            "scores",
            {"N": -120, "E": 120, "S": -120, "W": 121},
            'result.scores: stored {"N": -120, "E": 120, "S": -120, "W": 121}, '
            'replay gives {"N": -120, "E": 120, "S": -120, "W": 120}',
        ),
        ("made", 1, "result.made: stored 1, replay gives true"),
        ("contract", "9 gode", 'result.contract: stored "9 gode", replay gives "9"'),
    ],
)
def test_altered_result_is_rejected(field: str, value: Any, message: str) -> None:
    data = _data()
    data["result"][field] = value
    assert str(_error(data)) == message


def test_result_missing_and_unknown_fields() -> None:
    data = _data()
    del data["result"]["partner"]
    assert str(_error(data)) == 'result.partner: missing, replay gives "W"'
    data = _data()
    data["result"]["bonus"] = 5
    assert str(_error(data)) == "result.bonus: unknown field"
    data = _data()
    data["result"]["made"] = False
    data["result"]["declarer_side_tricks"] = 7
    assert str(_error(data)).endswith("(and 1 more difference)")


def test_result_of_an_unfinished_deal_is_rejected() -> None:
    data = _data()
    data["actions"] = data["actions"][: FIRST_PLAY + 5]
    assert str(_error(data)).startswith(
        f"result: a result is stored, but the deal is unfinished after {FIRST_PLAY + 5} action(s)"
    )


def test_file_errors_name_the_file(tmp_path: Path) -> None:
    data = _data()
    data["actions"][FIRST_PLAY] = "E play Z9"
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CorruptRecordError, match=rf"^{path}: actions\[{FIRST_PLAY}\] 'E play Z9'"):
        load(path)
    lines = tmp_path / "deals.jsonl"
    lines.write_text(json.dumps(_data()) + "\n\n" + json.dumps(data) + "\n", encoding="utf-8")
    with pytest.raises(CorruptRecordError, match=rf"^{lines}:3: actions"):
        list(iter_jsonl(lines))


def test_play_actions_are_interned_after_loading() -> None:
    record = loads(dumps(record_of(_finished())))
    assert isinstance(record.steps[FIRST_PLAY].action, Play)
