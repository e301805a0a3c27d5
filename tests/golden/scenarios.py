"""The worked examples of rules.md (4.8, 7.3 and the trick and vip tables) as deal scenarios.

Each scenario fixes a preset, the scripted start of a deal and what the result must
be. ``make_golden.py`` finds, for each one, a seeded random deal and play that
reaches that result and freezes it as a hand record in ``records/``; the test suite
replays every record and checks both the stored result and the hand-computed
figures written here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Scenario:
    """One worked example: scripted steps, the result it must reach, the expected scores."""

    name: str
    source: str
    """Where the example comes from (rules.md row, landscape.md vector)."""
    preset: str
    steps: tuple[str, ...]
    """Scripted steps; ``call @partner`` / ``call @kitty`` pick a legal called card that is
    held by another seat / lies in the kitty; after the script, play is random."""
    overrides: dict[str, Any] = field(default_factory=dict)
    kitty: str = ""
    """Cards forced into the kitty, in turning order (else random)."""
    target: dict[str, Any] = field(default_factory=dict)
    """Result fields the deal must reach (e.g. ``declarer_side_tricks``)."""
    scores: dict[str, int] | None = None
    """Expected score deltas by role: D declarer, P partner, O defenders (hand-computed)."""


def _s(*steps: str) -> tuple[str, ...]:
    return steps


_PLAIN8 = _s("E bid 8", "S pass", "W pass", "N pass", "E trump S")

SCENARIOS: tuple[Scenario, ...] = (
    # rules.md 7.3, Wikipedia's simple system (preset wikipedia unless stated)
    Scenario(
        "s01-8-plain-10-tricks",
        "rules.md 7.3 row 1",
        "wikipedia",
        (*_PLAIN8, "E call @partner"),
        target={"declarer_side_tricks": 10},
        scores={"D": 60, "P": 60, "O": -60},
    ),
    Scenario(
        "s02-7-plain-exactly-7",
        "rules.md 7.3 row 2",
        "wikipedia",
        _s("E bid 7", "S pass", "W pass", "N pass", "E trump H", "E call @partner"),
        target={"declarer_side_tricks": 7},
        scores={"D": 10, "P": 10, "O": -10},
    ),
    Scenario(
        "s03-9-gode-9-tricks",
        "rules.md 7.3 row 3",
        "wikipedia",
        _s("E bid 9 gode", "S pass", "W pass", "N pass", "E call @partner"),
        target={"declarer_side_tricks": 9},
        scores={"D": 80, "P": 80, "O": -80},
    ),
    Scenario(
        "s04-10-halve-11-tricks",
        "rules.md 7.3 row 4",
        "wikipedia",
        _s("E bid 10 halve", "S pass", "W pass", "N pass", "E call @partner"),
        target={"declarer_side_tricks": 11},
        scores={"D": 320, "P": 320, "O": -320},
    ),
    Scenario(
        "s05-8-plain-alone-8-tricks",
        "rules.md 7.3 row 5",
        "wikipedia",
        (*_PLAIN8, "E call @kitty"),
        target={"declarer_side_tricks": 8},
        scores={"D": 60, "O": -20},
    ),
    Scenario(
        "s06-9-vip-alone-10-tricks",
        "rules.md 7.3 row 6",
        "wikipedia",
        _s("E bid 9 vip", "S pass", "W pass", "N pass", "E call @kitty"),
        target={"declarer_side_tricks": 10},
        scores={"D": 480, "O": -160},
    ),
    Scenario(
        "s07-10-plain-8-tricks",
        "rules.md 7.3 row 7",
        "wikipedia",
        _s("E bid 10", "S pass", "W pass", "N pass", "E trump D", "E call @partner"),
        target={"declarer_side_tricks": 8},
        scores={"D": -320, "P": -320, "O": 320},
    ),
    Scenario(
        "s08-11-gode-alone-10-tricks",
        "rules.md 7.3 row 8",
        "wikipedia",
        _s("E bid 11 gode", "S pass", "W pass", "N pass", "E call @kitty"),
        target={"declarer_side_tricks": 10},
        scores={"D": -1920, "O": 640},
    ),
    Scenario(
        "s09-sol-made-exactly-1",
        "rules.md 7.3 row 9",
        "wikipedia",
        _s("E bid sol", "S pass", "W pass", "N pass"),
        target={"declarer_side_tricks": 1},
        scores={"D": 150, "O": -50},
    ),
    Scenario(
        "s09b-sol-0-tricks-fails-in-wikipedia",
        "rules.md Decisions (sol exactly 1)",
        "wikipedia",
        _s("E bid sol", "S pass", "W pass", "N pass"),
        target={"declarer_side_tricks": 0},
        scores={"D": -300, "O": 100},
    ),
    Scenario(
        "s09c-sol-0-tricks-made-in-osterbro",
        "rules.md 7.3 row 9 (club presets)",
        "osterbro",
        _s("E bid sol", "S pass", "W pass", "N pass"),
        target={"declarer_side_tricks": 0},
        scores={"D": 150, "O": -50},
    ),
    Scenario(
        "s10-ren-sol-failed",
        "rules.md 7.3 row 10",
        "wikipedia",
        _s("E bid ren_sol", "S pass", "W pass", "N pass"),
        target={"made": False},
        scores={"D": -600, "O": 200},
    ),
    Scenario(
        "s11-bordlaegger-made",
        "rules.md 7.3 row 11",
        "osterbro",
        _s("E bid bordlaegger", "S pass", "W pass", "N pass"),
        target={"made": True},
        scores={"D": 450, "O": -150},
    ),
    Scenario(
        "s12-ren-bordlaegger-failed",
        "rules.md 7.3 row 12",
        "osterbro",
        _s("E bid ren_bordlaegger", "S pass", "W pass", "N pass"),
        target={"made": False},
        scores={"D": -1200, "O": 400},
    ),
    Scenario(
        "s12b-super-bordlaegger-failed",
        "rules.md 7.3 row 12",
        "kortdrengene",
        _s("E bid super_bordlaegger", "S pass", "W pass", "N pass"),
        target={"made": False},
        scores={"D": -1200, "O": 400},
    ),
    # rules.md 7.3 rows 13-16 and landscape.md 6.1 A (pywhist)
    Scenario(
        "s13-pywhist-7-gode-exactly-7",
        "rules.md 7.3 row 13",
        "wikipedia",
        _s("E bid 7 gode", "S pass", "W pass", "N pass", "E call @partner"),
        overrides={"scoring_scheme": "pywhist"},
        target={"declarer_side_tricks": 7},
        scores={"D": 5, "P": 5, "O": -5},
    ),
    Scenario(
        "s14-pywhist-7-gode-9-tricks",
        "rules.md 7.3 row 14",
        "wikipedia",
        _s("E bid 7 gode", "S pass", "W pass", "N pass", "E call @partner"),
        overrides={"scoring_scheme": "pywhist"},
        target={"declarer_side_tricks": 9},
        scores={"D": 15, "P": 15, "O": -15},
    ),
    Scenario(
        "s15-pywhist-7-gode-5-tricks",
        "rules.md 7.3 row 15",
        "wikipedia",
        _s("E bid 7 gode", "S pass", "W pass", "N pass", "E call @partner"),
        overrides={"scoring_scheme": "pywhist"},
        target={"declarer_side_tricks": 5},
        scores={"D": -20, "P": -20, "O": 20},
    ),
    Scenario(
        "s16-pywhist-alone-magnitude-30",
        "rules.md 7.3 row 16",
        "wikipedia",
        (*_PLAIN8, "E call @kitty"),
        overrides={"scoring_scheme": "pywhist"},
        target={"declarer_side_tricks": 10},
        scores={"D": 90, "O": -30},
    ),
    # rules.md 7.3 rows 17-21 through the section 9 scoring options
    Scenario(
        "s17-wz-9-gode-10-tricks",
        "rules.md 7.3 row 17 (WZ)",
        "wikipedia",
        _s("E bid 9 gode", "S pass", "W pass", "N pass", "E call @partner"),
        overrides={
            "base_unit": 1,
            "made_formula": "base_x_tricks_minus_6",
            "failed_formula": "base_x_under_plus_1",
        },
        target={"declarer_side_tricks": 10},
        scores={"D": 32, "P": 32, "O": -32},
    ),
    Scenario(
        "s18-wz-9-gode-7-tricks",
        "rules.md 7.3 row 18 (WZ)",
        "wikipedia",
        _s("E bid 9 gode", "S pass", "W pass", "N pass", "E call @partner"),
        overrides={
            "base_unit": 1,
            "made_formula": "base_x_tricks_minus_6",
            "failed_formula": "base_x_under_plus_1",
        },
        target={"declarer_side_tricks": 7},
        scores={"D": -24, "P": -24, "O": 24},
    ),
    Scenario(
        "s19-house-x-8-took-10",
        "rules.md 7.3 row 19 (HOUSE-X)",
        "wikipedia",
        (*_PLAIN8, "E call @partner"),
        overrides={"made_formula": "base_x_tricks"},
        target={"declarer_side_tricks": 10},
        scores={"D": 200, "P": 200, "O": -200},
    ),
    Scenario(
        "s19b-house-x-8-gode-alone-took-8",
        "rules.md 7.3 row 19 (HOUSE-X)",
        "wikipedia",
        _s("E bid 8 gode", "S pass", "W pass", "N pass", "E call @kitty"),
        overrides={"made_formula": "base_x_tricks"},
        target={"declarer_side_tricks": 8},
        scores={"D": 960, "O": -320},
    ),
    Scenario(
        "s20-it-whist-8-plain-alone-10",
        "rules.md 7.3 row 20 (ITW)",
        "wikipedia",
        (*_PLAIN8, "E call @kitty"),
        overrides={"scoring_scheme": "it_whist"},
        target={"declarer_side_tricks": 10},
        scores={"D": 90, "O": -30},
    ),
    Scenario(
        "s21-kj-9-plain-7-tricks",
        "rules.md 7.3 row 21 (KJ)",
        "wikipedia",
        _s("E bid 9", "S pass", "W pass", "N pass", "E trump C", "E call @partner"),
        overrides={"base_unit": 1},
        target={"declarer_side_tricks": 7},
        scores={"D": -16, "P": -16, "O": 16},
    ),
    Scenario(
        "s22-9-halve-partner-names-clubs",
        "rules.md 7.3 row 22",
        "wikipedia",
        _s("E bid 9 halve", "S pass", "W pass", "N pass", "E call @partner", "@partner trump C"),
        target={"declarer_side_tricks": 9},
        scores={"D": 80, "P": 80, "O": -80},
    ),
    # landscape.md 6.1 F (toke classic) and G (jlor)
    Scenario(
        "toke-7-plain-alone-made",
        "landscape.md 6.1 F",
        "wikipedia",
        _s("E bid 7", "S pass", "W pass", "N pass", "E trump S", "E call @kitty"),
        overrides={"scoring_scheme": "toke_classic"},
        target={"declarer_side_tricks": 7},
        scores={"D": 6, "O": -2},
    ),
    Scenario(
        "toke-7-gode-2v2-made",
        "landscape.md 6.1 F",
        "wikipedia",
        _s("E bid 7 gode", "S pass", "W pass", "N pass", "E call @partner"),
        overrides={"scoring_scheme": "toke_classic"},
        target={"declarer_side_tricks": 7},
        scores={"D": 4, "P": 4, "O": -4},
    ),
    Scenario(
        "jlor-9-vip-failed",
        "landscape.md 6.1 G",
        "wikipedia",
        _s("E bid 9 vip", "S pass", "W pass", "N pass", "E call @partner"),
        overrides={"scoring_scheme": "jlor", "vip_exchange": "mandatory_whole"},
        target={"made": False},
        scores={"D": -8, "P": -8, "O": 8},
    ),
    Scenario(
        "jlor-sol-made",
        "landscape.md 6.1 G",
        "osterbro",
        _s("E bid sol", "S pass", "W pass", "N pass"),
        overrides={"scoring_scheme": "jlor"},
        target={"made": True},
        scores={"D": 30, "O": -10},
    ),
    # rules.md 4.8 auction examples (play random after the auction)
    Scenario(
        "a1-auction",
        "rules.md 4.8 A1",
        "wikipedia",
        _s(
            "E bid 8",
            "S bid 8 gode",
            "E bid 9",
            "S pass",
            "W bid sol",
            "E bid 9 vip",
            "W bid 10",
            "E pass",
            "N pass",
        ),
        target={"contract": "10", "declarer": "W"},
    ),
    Scenario(
        "a7-hold",
        "rules.md 4.8 A7",
        "wikipedia",
        _s("E bid 9", "S bid 9 vip", "E hold", "S bid 10", "E pass", "W pass", "N pass"),
        overrides={"hold_privilege": "forehand_only"},
        target={"contract": "10", "declarer": "S"},
    ),
    Scenario(
        "a8-all-pass",
        "rules.md 4.8 A8",
        "wikipedia",
        _s("E pass", "S pass", "W pass", "N pass"),
        target={"outcome": "redeal"},
        scores={"D": 0, "O": 0},
    ),
    # rules.md 7.3 vip table
    Scenario(
        "v1-vip-third-card-forced",
        "rules.md 7.3 V1",
        "wikipedia",
        _s(
            "E bid 9 vip",
            "S pass",
            "W pass",
            "N pass",
            "E call @partner",
            "E turn",
            "E turn",
            "E turn",
        ),
        kitty="H7 CJ D4",
        target={"trump": "D"},
    ),
    Scenario(
        "v2-vip-forced-joker-no-trump",
        "rules.md 7.3 V2 (wp)",
        "wikipedia",
        _s(
            "E bid 9 vip",
            "S pass",
            "W pass",
            "N pass",
            "E call @partner",
            "E turn",
            "E turn",
            "E turn",
        ),
        kitty="H7 CJ X1",
        target={"trump": None},
    ),
    Scenario(
        "v2b-vip-forced-joker-takes-previous",
        "rules.md 7.3 V2 (tanya)",
        "tanya",
        _s(
            "E bid 9 vip",
            "S pass",
            "W pass",
            "N pass",
            "E call @partner",
            "E turn",
            "E turn",
            "E turn",
        ),
        kitty="H7 CJ X1",
        target={"trump": "C"},
    ),
    Scenario(
        "v3-vip-accept-joker",
        "rules.md 7.3 V3",
        "wikipedia",
        _s("E bid 9 vip", "S pass", "W pass", "N pass", "E call @partner", "E turn", "E accept"),
        kitty="X1 S9 H3",
        target={"trump": None},
    ),
    Scenario(
        "v4-vip-three-jokers",
        "rules.md 7.3 V4",
        "tanya",
        _s(
            "E bid 9 vip",
            "S pass",
            "W pass",
            "N pass",
            "E call @partner",
            "E turn",
            "E turn",
            "E turn",
        ),
        kitty="X1 X2 X3",
        target={"trump": None},
    ),
    Scenario(
        "v5-vip-trump-is-called-suit",
        "rules.md 7.3 V5",
        "wikipedia",
        _s("E bid 9 vip", "S pass", "W pass", "N pass", "E call HA", "E turn", "E accept"),
        kitty="H2 C9 D9",
        target={"trump": "H", "called": "HA"},
    ),
    # rules.md 7.3 trick table, deal-level cases
    Scenario(
        "t10-ren-sol-broken-early",
        "rules.md 7.3 T10",
        "wikipedia",
        _s("E bid ren_sol", "S pass", "W pass", "N pass", "E decline"),
        target={"made": False, "declarer_side_tricks": 1},
        scores={"D": -600, "O": 200},
    ),
)
