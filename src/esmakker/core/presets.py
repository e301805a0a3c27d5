"""The named presets of rules.md section 10 and the scoring schemes of landscape.md 6.1.

Each preset is the set of options that differ from the defaults of rules.md
section 9 (the field defaults of ``RuleSet``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from esmakker.core.errors import RulesConfigError

_CLUB_NOLOS = ("sol", "ren_sol", "bordlaegger", "ren_bordlaegger")

PRESETS: dict[str, dict[str, Any]] = {
    # The English Wikipedia article read literally (rules.md Decisions).
    "wikipedia": {
        "sol_limit": "exactly_1",
        "bordlaegger_limit": "exactly_1",
        "halve_exchanger": "declarer",
    },
    "kortdrengene": {
        "nolo_contracts": ("sol", "ren_sol", "bordlaegger", "super_bordlaegger"),
        "gaa_med": "nolo",
        "halve_exchanger": "declarer",
    },
    "osterbro": {
        "nolo_contracts": _CLUB_NOLOS,
        "halve_exchanger": "declarer",
    },
    "hjerteres": {
        "attachments": ("vip", "gode", "halve", "staerke"),
        "attachment_ranking": "ordered",
        "attachment_order": ("vip", "staerke", "gode", "halve"),
        "nolo_contracts": ("sol", "ren_sol", "bordlaegger", "double_nolo"),
        "halve_exchanger": "declarer",
    },
    "hilmarshelte": {
        "iron_hand": "optional",
        "attachments": ("vip", "gode", "halve", "sans"),
        "attachment_ranking": "ordered",
        "attachment_order": ("gode", "halve", "vip", "sans"),
        "nolo_contracts": _CLUB_NOLOS,
        "nolo_anchor_position": "above_all_of_level",
        "hold_privilege": "earlier_bidder",
        "gaa_med": "nolo",
        "exchange_model": "partial_pass_remainder",
        "halve_exchanger": "partner",
        "plain_clubs_allowed": False,
        "king_call_trigger": "all_four_aces",
        "nolo_aces_low": False,
        "scoring_scheme": "pywhist",
    },
    "tanya": {
        "attachment_ranking": "ordered",
        "attachment_order": ("vip", "gode", "halve"),
        "nolo_contracts": ("sol", "ren_sol", "bordlaegger", "ren_bordlaegger", "super_bordlaegger"),
        "bordlaegger_limit": "zero",
        "halve_exchanger": "partner",
        "vip_joker_rule": "take_previous",
    },
}

_SCHEMES: dict[str, dict[str, Any]] = {
    # Wikipedia's simple system (rules.md 7.1) as recommended there: the section 9 defaults.
    "simple": {
        "base_unit": 10,
        "made_formula": "base_x_1_plus_over",
        "failed_formula": "2_base_x_under",
        "attachment_factor": (("gode", 2), ("halve", 2), ("sans", 2), ("staerke", 2), ("vip", 2)),
        "vip_flip_factor": None,
        "nolo_values": (
            ("bordlaegger", 150),
            ("double_nolo", 200),
            ("ren_bordlaegger", 200),
            ("ren_sol", 100),
            ("sol", 50),
            ("super_bordlaegger", 200),
        ),
        "nolo_fail_factor": 2,
    },
    # PeterSR/pywhist Ruleset.default(): base 5, gode x1, vip x flips (landscape.md 6.1 A).
    "pywhist": {
        "base_unit": 5,
        "attachment_factor": (("gode", 1), ("halve", 2), ("sans", 2), ("staerke", 2), ("vip", 2)),
        "vip_flip_factor": (("1", 1), ("2", 2), ("3", 3)),
        "nolo_values": (
            ("bordlaegger", 200),
            ("double_nolo", 400),
            ("ren_bordlaegger", 400),
            ("ren_sol", 100),
            ("sol", 50),
            ("super_bordlaegger", 400),
        ),
    },
    # TheZabotage/it_whist scoring.ex: base 5, every attachment x2 (landscape.md 6.1 B).
    "it_whist": {
        "base_unit": 5,
        "nolo_values": (
            ("bordlaegger", 150),
            ("double_nolo", 200),
            ("ren_bordlaegger", 200),
            ("ren_sol", 100),
            ("sol", 50),
            ("super_bordlaegger", 200),
        ),
    },
    # jlor/whist-game flat values: 2^(L-7), x2 with an attachment (landscape.md 6.1 G).
    "jlor": {
        "base_unit": 1,
        "made_formula": "flat",
        "failed_formula": "flat",
        "nolo_fail_factor": 1,
        "nolo_values": (
            ("bordlaegger", 40),
            ("double_nolo", 80),
            ("ren_bordlaegger", 80),
            ("ren_sol", 20),
            ("sol", 10),
            ("super_bordlaegger", 80),
        ),
    },
    # TokeF/whist-points "classic": 2*m*2^(L-7) + 2^(L-7)*|t-L| (landscape.md 6.1 F).
    "toke_classic": {
        "base_unit": 1,
        "made_formula": "toke",
        "failed_formula": "toke",
        "nolo_fail_factor": 1,
        "nolo_values": (
            ("bordlaegger", 16),
            ("double_nolo", 32),
            ("ren_bordlaegger", 32),
            ("ren_sol", 8),
            ("sol", 4),
            ("super_bordlaegger", 32),
        ),
    },
}

SCORING_SCHEME_OPTIONS: dict[str, dict[str, Any]] = {
    name: {**_SCHEMES["simple"], **options} for name, options in _SCHEMES.items()
}
"""Every scheme sets every scoring option, so choosing one resets the others."""

PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)


def preset_options(name: str) -> Mapping[str, Any]:
    """Return the options of a named preset, scoring scheme expanded.

    Raises:
        RulesConfigError: if no preset has that name.
    """
    preset = PRESETS.get(name)
    if preset is None:
        raise RulesConfigError(
            f"preset {name!r} is unknown (expected one of {', '.join(PRESET_NAMES)})"
        )
    scheme = preset.get("scoring_scheme", "simple")
    options = {key: value for key, value in preset.items() if key != "scoring_scheme"}
    return {**SCORING_SCHEME_OPTIONS[scheme], **options}
