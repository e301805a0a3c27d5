"""The score sheet: seating for 4, 5 and 6 players, dealer rotation, running totals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from esmakker.core.actions import IRON, PASS
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.sheet import ScoreSheet
from support import make_state

WIKIPEDIA = RuleSet.from_preset("wikipedia")
NAMES = ("Anna", "Bo", "Carl", "Dorte", "Eva", "Finn")


def _played(scores: tuple[int, int, int, int], declarer: str = "E") -> dict[str, Any]:
    return {
        "outcome": "played",
        "contract": "8",
        "declarer": declarer,
        "partner": "W",
        "trump": "S",
        "called": "HA",
        "tricks": {"N": 2, "E": 5, "S": 1, "W": 5},
        "declarer_side_tricks": 10,
        "made": True,
        "scores": dict(zip("NESW", scores, strict=True)),
    }


REDEAL: dict[str, Any] = {
    "outcome": "redeal",
    "contract": None,
    "declarer": None,
    "partner": None,
    "trump": None,
    "called": None,
    "tricks": dict.fromkeys("NESW", 0),
    "declarer_side_tricks": 0,
    "made": None,
    "scores": dict.fromkeys("NESW", 0),
}
WIN_E_W = _played((-60, 60, -60, 60))


def test_four_players_keep_their_seats_and_the_deal_rotates() -> None:
    sheet = ScoreSheet(NAMES[:4], WIKIPEDIA)
    dealers = []
    for _ in range(5):
        seating = sheet.seating()
        assert seating.players == NAMES[:4]
        assert seating.sitting_out == ()
        dealers.append((seating.dealer, seating.dealing))
        sheet.add(WIN_E_W)
    assert dealers == [
        (Seat.N, "Anna"),
        (Seat.E, "Bo"),
        (Seat.S, "Carl"),
        (Seat.W, "Dorte"),
        (Seat.N, "Anna"),
    ]
    assert sheet.totals == {"Anna": -300, "Bo": 300, "Carl": -300, "Dorte": 300}


def test_five_players_the_dealer_sits_out_and_scores_zero() -> None:
    """rules.md 3.2: four play, the dealer sits out with 0 for the deal."""
    sheet = ScoreSheet(NAMES[:5], WIKIPEDIA)
    seating = sheet.seating()
    assert seating.dealing == "Anna"
    assert seating.sitting_out == ("Anna",)
    assert seating.dealer is Seat.N
    # forehand (E) is the player after the dealer; N, in the dealer's seat, bids last
    assert seating.players == ("Eva", "Bo", "Carl", "Dorte")
    row = sheet.add(WIN_E_W)
    assert row.deltas == (0, 60, -60, 60, -60)
    assert row.declarer == "Bo"
    assert row.partner == "Dorte"
    out = []
    for _ in range(5):
        out.append(sheet.seating().sitting_out)
        sheet.add(WIN_E_W)
    assert out == [("Bo",), ("Carl",), ("Dorte",), ("Eva",), ("Anna",)]


def test_six_players_the_dealer_and_the_player_opposite_sit_out() -> None:
    """rules.md Decisions: with six, the dealer and the player opposite sit out."""
    sheet = ScoreSheet(NAMES, WIKIPEDIA)
    seating = sheet.seating()
    assert seating.sitting_out == ("Anna", "Dorte")
    assert seating.players == ("Finn", "Bo", "Carl", "Eva")  # N, E (forehand), S, W
    sheet.add(WIN_E_W)
    seating = sheet.seating()
    assert seating.dealing == "Bo"
    assert seating.sitting_out == ("Bo", "Eva")
    assert seating.players == ("Anna", "Carl", "Dorte", "Finn")
    assert sheet.totals == {"Anna": 0, "Bo": 60, "Carl": -60, "Dorte": 0, "Eva": 60, "Finn": -60}


@pytest.mark.parametrize("count", [4, 5, 6])
def test_totals_stay_zero_sum(count: int) -> None:
    sheet = ScoreSheet(NAMES[:count], WIKIPEDIA)
    for number in range(13):
        sheet.add(_played((-20, 60, -20, -20), declarer="NESW"[number % 4]))
        assert sum(sheet.totals.values()) == 0
    assert len(sheet.rows) == 13
    assert sheet.rows[-1].totals == tuple(sheet.totals.values())


@pytest.mark.parametrize(
    ("all_pass", "iron", "expected"),
    [("same", "same", ["N", "N"]), ("next", "same", ["E", "N"]), ("same", "next", ["N", "E"])],
)
def test_redeal_dealer_follows_the_kind_of_redeal(
    all_pass: str, iron: str, expected: list[str]
) -> None:
    rules = RuleSet.from_preset(
        "hilmarshelte", {"all_pass_redeal_dealer": all_pass, "iron_hand_redeal_dealer": iron}
    )
    sheet = ScoreSheet(NAMES[:4], rules)
    sheet.add(REDEAL)  # all passed
    after_all_pass = sheet.seating().dealer.name
    sheet = ScoreSheet(NAMES[:4], rules)
    row = sheet.add(REDEAL, iron=True)
    assert row.redeal == "iron_hand"
    assert [after_all_pass, sheet.seating().dealer.name] == expected


IRON_HANDS = {
    "N": "SA SK SQ SJ S6 S5 S4 HA HK HQ HJ DA X1",
    "E": "S3 S2 HT H5 H4 H3 H2 DK DQ DJ DT CA CK",
    "S": "ST S9 S8 S7 H9 H8 H7 H6 D9 D8 D7 D6 C9",
    "W": "D5 D4 D3 D2 CQ CJ CT C8 C7 C6 C5 C4 X2",
}


def test_add_state_tells_an_iron_claim_from_an_all_pass() -> None:
    rules = RuleSet.from_preset("hilmarshelte", {"iron_hand_redeal_dealer": "next"})
    start = make_state(rules, "N", IRON_HANDS, "C3 C2 X3")
    sheet = ScoreSheet(NAMES[:4], rules)
    row = sheet.add_state(start.apply(IRON, Seat.S))
    assert (row.outcome, row.redeal) == ("redeal", "iron_hand")
    assert sheet.seating().dealer is Seat.E
    passed = start
    for _ in range(4):
        passed = passed.apply(PASS)
    row = sheet.add_state(passed)
    assert row.redeal == "all_pass"
    assert sheet.seating().dealer is Seat.E  # all_pass_redeal_dealer = same
    with pytest.raises(ValueError, match="not finished"):
        sheet.add_state(start)


def test_add_takes_a_result_object() -> None:
    start = make_state(WIKIPEDIA, "N", IRON_HANDS, "C3 C2 X3")
    state = start
    for _ in range(4):
        state = state.apply(PASS)
    result = state.result()
    assert result is not None
    sheet = ScoreSheet(NAMES[:4], WIKIPEDIA)
    assert sheet.add(result).describe() == "redeal (all pass)"


def test_scores_must_be_zero_sum() -> None:
    sheet = ScoreSheet(NAMES[:4], WIKIPEDIA)
    with pytest.raises(ValueError, match="sum to 0"):
        sheet.add(_played((10, 10, 10, 10)))
    assert sheet.rows == ()


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (NAMES[:3], "needs 4, 5 or 6 players, got 3"),
        ((*NAMES, "Gry"), "needs 4, 5 or 6 players, got 7"),
        (("Anna", "Bo", "Anna", "Carl"), "player names must differ"),
    ],
)
def test_bad_player_lists(players: tuple[str, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ScoreSheet(players, WIKIPEDIA)


def test_display_and_json_export() -> None:
    sheet = ScoreSheet(NAMES[:5], WIKIPEDIA)
    sheet.add(WIN_E_W)
    sheet.add(REDEAL)
    rows = sheet.display_rows()
    assert rows[0] == ("#", "dealer", "deal", *NAMES[:5])
    assert rows[1] == ("1", "Anna", "8 Bo+Dorte made", "0", "60", "-60", "60", "-60")
    assert rows[2][:3] == ("2", "Bo", "redeal (all pass)")
    text = sheet.render()
    assert text.splitlines()[1].startswith("1  Anna    8 Bo+Dorte made")
    data = sheet.to_json()
    assert json.loads(json.dumps(data)) == data
    assert data["players"] == list(NAMES[:5])
    assert data["totals"] == {"Anna": 0, "Bo": 60, "Carl": -60, "Dorte": 60, "Eva": -60}
    assert data["deals"][0]["seats"] == {"N": "Eva", "E": "Bo", "S": "Carl", "W": "Dorte"}
    assert data["deals"][0]["sitting_out"] == ["Anna"]
    assert data["next_dealer"] == "Bo"  # all_pass_redeal_dealer = same
