"""The rule set: presets of rules.md section 10, overrides, and rejected configurations."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from esmakker.core.errors import RulesConfigError
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.rules import RuleSet, option_names
from support import rules

PRESETS = ("wikipedia", "kortdrengene", "osterbro", "hjerteres", "hilmarshelte", "tanya")

VGH = {"vip", "gode", "halve"}
CLUB_NOLOS = {"sol", "ren_sol", "bordlaegger", "ren_bordlaegger"}
SIMPLE_NOLO_VALUES = {"sol": 50, "ren_sol": 100, "bordlaegger": 150, "ren_bordlaegger": 200}

TABLE: dict[str, tuple[Any, ...]] = {
    # option: values for wikipedia, kortdrengene, osterbro, hjerteres, hilmarshelte, tanya
    "iron_hand": ("off", "off", "off", "off", "optional", "off"),
    "attachments": (VGH, VGH, VGH, VGH | {"staerke"}, VGH | {"sans"}, VGH),
    "attachment_ranking": (
        "equal_no_overcall",
        "equal_no_overcall",
        "equal_no_overcall",
        "ordered",
        "ordered",
        "ordered",
    ),
    "nolo_contracts": (
        CLUB_NOLOS,
        {"sol", "ren_sol", "bordlaegger", "super_bordlaegger"},
        CLUB_NOLOS,
        {"sol", "ren_sol", "bordlaegger", "double_nolo"},
        CLUB_NOLOS,
        CLUB_NOLOS | {"super_bordlaegger"},
    ),
    "nolo_anchor_position": ("above_plain",) * 4 + ("above_all_of_level", "above_plain"),
    "sol_limit": ("exactly_1",) + ("at_most_1",) * 5,
    "bordlaegger_limit": ("exactly_1",) + ("at_most_1",) * 4 + ("zero",),
    "open_who_bordlaegger": ("declarer",) * 6,
    "open_timing_bordlaegger": ("after_first_trick",) * 6,
    "hold_privilege": ("none",) * 4 + ("earlier_bidder", "none"),
    "gaa_med": ("none", "nolo", "none", "none", "nolo", "none"),
    "exchange_model": ("whole_pass_on",) * 4 + ("partial_pass_remainder", "whole_pass_on"),
    "halve_exchanger": ("declarer",) * 4 + ("partner", "partner"),
    "vip_joker_rule": ("wp",) * 5 + ("take_previous",),
    "vip_exchange": ("mandatory_whole",) * 6,
    "plain_clubs_allowed": (True,) * 4 + (False, True),
    "king_call_trigger": ("all_side_aces",) * 4 + ("all_four_aces", "all_side_aces"),
    "first_lead": ("forehand",) * 6,
    "no_joker_lead_trick1": (True,) * 6,
    "unled_joker": ("powerless",) * 6,
    "nolo_aces_low": (True,) * 4 + (False, True),
    "double_redouble": (False,) * 6,
    "marker_card": (False,) * 6,
    "scoring_scheme": ("simple",) * 4 + ("pywhist", "simple"),
    "base_unit": (10,) * 4 + (5, 10),
    "vip_flip_factor": ("off",) * 4 + ({"1": 1, "2": 2, "3": 3}, "off"),
    # Options the table leaves at the section 9 default in every preset.
    "num_jokers": (3,) * 6,
    "min_bid": (7,) * 6,
    "forehand_must_open": (False,) * 6,
    "all_pass_action": ("redeal",) * 6,
    "super_bordlaegger_unbeatable": (False,) * 6,
    "may_call_own_ace": (False,) * 6,
    "vip_call_before_turn": (True,) * 6,
    "vip_trump_may_equal_called_suit": (True,) * 6,
    "nolo_exchange": (True,) * 6,
}


@pytest.mark.parametrize(
    ("preset", "option", "expected"),
    [
        pytest.param(preset, option, values[i], id=f"{option}-{preset}")
        for option, values in TABLE.items()
        for i, preset in enumerate(PRESETS)
    ],
)
def test_r10_preset_has_the_value_of_its_column(preset: str, option: str, expected: Any) -> None:
    value = RuleSet.from_preset(preset).option(option)
    if isinstance(expected, set):
        assert set(value) == expected
        assert len(value) == len(expected)
    else:
        assert value == expected


@pytest.mark.parametrize(
    ("preset", "order"),
    [
        ("hjerteres", ["vip", "staerke", "gode", "halve"]),
        ("hilmarshelte", ["gode", "halve", "vip", "sans"]),
        ("tanya", ["vip", "gode", "halve"]),
    ],
)
def test_r10_ordered_presets_rank_their_attachments(preset: str, order: list[str]) -> None:
    assert RuleSet.from_preset(preset).option("attachment_order") == order


@pytest.mark.parametrize("preset", PRESETS)
def test_r10_nolo_values(preset: str) -> None:
    ruleset = RuleSet.from_preset(preset)
    values = {c: ruleset.nolo_value_of(c) for c in ruleset.nolo_contracts}
    if preset == "hilmarshelte":  # clarification 14
        assert values == {"sol": 50, "ren_sol": 100, "bordlaegger": 200, "ren_bordlaegger": 400}
    else:
        top = {"super_bordlaegger": 200, "double_nolo": 200, "ren_bordlaegger": 200}
        assert values == {c: {**SIMPLE_NOLO_VALUES, **top}[c] for c in ruleset.nolo_contracts}


@pytest.mark.parametrize("preset", PRESETS)
def test_r10_attachment_factors(preset: str) -> None:
    ruleset = RuleSet.from_preset(preset)
    factors = {a: ruleset.attachment_factor_of(a) for a in ruleset.attachments}
    expected = dict.fromkeys(ruleset.attachments, 2)
    if preset == "hilmarshelte":
        expected["gode"] = 1  # pywhist: gode x1, the others x2
    assert factors == expected


def test_r10_every_preset_is_listed() -> None:
    assert set(PRESET_NAMES) == set(PRESETS)


def test_the_default_preset_is_wikipedia() -> None:
    assert RuleSet.from_preset() == RuleSet.from_preset("wikipedia")
    assert RuleSet.from_preset().preset == "wikipedia"
    assert rules() == RuleSet.from_preset("wikipedia")


@pytest.mark.parametrize("preset", PRESETS)
def test_a_preset_has_no_overrides(preset: str) -> None:
    assert RuleSet.from_preset(preset).overrides == {}


def test_an_override_equal_to_the_preset_value_is_not_stored() -> None:
    assert RuleSet.from_preset("wikipedia", {"min_bid": 7, "gaa_med": "none"}).overrides == {}
    assert RuleSet.from_preset("kortdrengene", {"gaa_med": "none"}).overrides == {"gaa_med": "none"}


ROUND_TRIP_OVERRIDES: list[dict[str, Any]] = [
    {},
    {"min_bid": 8},
    {"num_jokers": 2},
    {"hold_privilege": "forehand_only", "forehand_must_open": True},
    {"attachment_ranking": "equal_distinct_cycle"},
    {
        "nolo_anchor": {
            "sol": 8,
            "ren_sol": 9,
            "bordlaegger": 11,
            "ren_bordlaegger": 13,
            "super_bordlaegger": 13,
            "double_nolo": 13,
        }
    },
    {"vip_flip_factor": {"1": 1, "2": 2, "3": 4}},
    {"vip_flip_factor": "off"},
    {"scoring_scheme": "it_whist"},
    {"scoring_scheme": "toke_classic"},
    {"exchange_model": "whole_declarer_only", "nolo_exchange": False},
    {"partner_card_cascade": ["A", "K"], "king_call_trigger": "all_four_aces"},
    {"vip_call_before_turn": False, "vip_trump_may_equal_called_suit": False},
    {"vip_joker_rule": "skip_first", "vip_exchange": "optional", "halve_exchanger": "declarer"},
]


@pytest.mark.parametrize("overrides", ROUND_TRIP_OVERRIDES, ids=lambda o: ",".join(o) or "none")
@pytest.mark.parametrize("preset", PRESETS)
def test_overrides_round_trip(preset: str, overrides: dict[str, Any]) -> None:
    ruleset = RuleSet.from_preset(preset, overrides)
    stored = ruleset.overrides
    assert RuleSet.from_preset(preset, stored) == ruleset
    assert json.loads(json.dumps(stored)) == stored
    base = RuleSet.from_preset(preset)
    assert set(stored) <= set(option_names())
    for key, value in stored.items():
        assert value != base.option(key), key
    for key in option_names():
        if key not in stored:
            assert ruleset.option(key) == base.option(key), key


@pytest.mark.parametrize("preset", ["wikipedia", "tanya"])
def test_overrides_round_trip_scheme_then_a_key_the_scheme_changed_back(preset: str) -> None:
    # decisions.md 1: {"scoring_scheme": "it_whist", "base_unit": 10} is it_whist with base 10.
    ruleset = RuleSet.from_preset(preset, {"scoring_scheme": "it_whist", "base_unit": 10})
    assert ruleset.base_unit == 10
    assert RuleSet.from_preset(preset, ruleset.overrides) == ruleset


def test_the_bare_rule_set_round_trips_against_wikipedia() -> None:
    # RuleSet() holds the section 9 defaults; it is wikipedia plus the options that differ.
    bare = RuleSet()
    assert bare.preset == "wikipedia"
    assert bare.overrides == {
        "sol_limit": "at_most_1",
        "bordlaegger_limit": "at_most_1",
        "halve_exchanger": "partner",
    }
    assert RuleSet.from_preset("wikipedia", bare.overrides) == bare


def test_a_rule_set_is_frozen_and_hashable() -> None:
    ruleset = rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        ruleset.min_bid = 8  # type: ignore[misc]
    assert len({ruleset, rules(), rules(min_bid=8)}) == 2


def test_replace_validates_again() -> None:
    ruleset = rules("tanya")
    assert ruleset.replace(min_bid=8) == rules("tanya", min_bid=8)
    assert ruleset.replace(attachments=["vip", "gode"]).attachments == ("vip", "gode")
    with pytest.raises(RulesConfigError, match="vip_call_before_turn"):
        ruleset.replace(vip_trump_may_equal_called_suit=False)


def test_kitty_size_is_the_number_of_jokers() -> None:
    assert rules().kitty_size == 3
    assert rules(num_jokers=2).kitty_size == 2


# --- rejected configurations ------------------------------------------------------------------


def test_unknown_preset() -> None:
    with pytest.raises(RulesConfigError, match="'bridge'"):
        RuleSet.from_preset("bridge")


@pytest.mark.parametrize("key", ["jokers", "preset", "gaa_med_mode", "Min_bid"])
def test_unknown_option(key: str) -> None:
    with pytest.raises(RulesConfigError) as info:
        RuleSet.from_preset("wikipedia", {key: 1})
    assert repr(key) in str(info.value)
    assert "unknown" in str(info.value)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("num_jokers", 4),
        ("num_jokers", "3"),
        ("num_jokers", True),
        ("iron_hand", "on"),
        ("iron_hand_redeal_dealer", "previous"),
        ("all_pass_redeal_dealer", "left"),
        ("forehand_must_open", "yes"),
        ("forehand_must_open", 1),
        ("min_bid", 6),
        ("min_bid", 10),
        ("min_bid", 8.0),
        ("attachments", ["vip", "trumf"]),
        ("attachments", "vip"),
        ("attachments", ["vip", "vip"]),
        ("attachment_ranking", "loose"),
        ("attachment_order", ["vip", "gode", "halve", "grand"]),
        ("nolo_contracts", ["sol", "grand"]),
        ("nolo_contracts", "sol"),
        ("nolo_anchor", {"sol": 9}),
        ("nolo_anchor", {"sol": 14, "ren_sol": 10, "bordlaegger": 11, "ren_bordlaegger": 12}),
        ("nolo_anchor", [9, 10, 11, 12]),
        ("nolo_anchor_position", "below_plain"),
        ("super_bordlaegger_unbeatable", "no"),
        ("sol_limit", "at_most_2"),
        ("bordlaegger_limit", 1),
        ("hold_privilege", "always"),
        ("gaa_med", "all"),
        ("gaa_med_settlement", "pair"),
        ("plain_clubs_allowed", 0),
        ("may_call_own_ace", None),
        ("king_call_trigger", "never"),
        ("partner_card_cascade", ["A", "Q"]),
        ("partner_card_cascade", "AK"),
        ("vip_call_before_turn", "true"),
        ("vip_joker_rule", "tanya"),
        ("vip_exchange", "mandatory"),
        ("halve_exchanger", "dealer"),
        ("exchange_model", "whole"),
        ("nolo_exchange", "sometimes"),
        ("first_lead", "dealer"),
        ("unled_joker", "high"),
        ("after_joker_lead", "any"),
        ("open_timing_bordlaegger", "never"),
        ("open_who_bordlaegger", "nobody"),
        ("scoring_scheme", "bridge"),
        ("base_unit", 3),
        ("made_formula", "double"),
        ("failed_formula", "none"),
        ("attachment_factor", {"vip": 2}),
        ("attachment_factor", {"vip": 0, "gode": 2, "halve": 2}),
        ("vip_flip_factor", {"1": 1}),
        ("alone_factor", 2),
        ("nolo_values", {"sol": 50}),
        ("nolo_values", "x"),
        ("nolo_fail_factor", 3),
    ],
)
def test_bad_value_names_the_option(key: str, value: Any) -> None:
    with pytest.raises(RulesConfigError) as info:
        RuleSet.from_preset("wikipedia", {key: value})
    message = str(info.value)
    assert key in message, message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("key", "value"),
    [
        pytest.param(
            "nolo_anchor",
            {"sol": 9, "ren_sol": 10, "bordlaegger": 11, "ren_bordlaegger": 12, "grand": 7},
            id="nolo_anchor-unknown-contract",
        ),
        pytest.param(
            "nolo_values",
            {"sol": 50, "ren_sol": 100, "bordlaegger": 150, "ren_bordlaegger": 200, "grand": 1},
            id="nolo_values-unknown-contract",
        ),
        pytest.param(
            "attachment_factor",
            {"vip": 2, "gode": 2, "halve": 2, "trumf": 3},
            id="attachment_factor-unknown-attachment",
        ),
    ],
)
def test_bad_map_key_names_the_option(key: str, value: Any) -> None:
    with pytest.raises(RulesConfigError, match=key):
        RuleSet.from_preset("wikipedia", {key: value})


@pytest.mark.parametrize(
    ("preset", "overrides", "names"),
    [
        (
            "wikipedia",
            {"vip_trump_may_equal_called_suit": False},
            ["vip_trump_may_equal_called_suit", "vip_call_before_turn"],
        ),
        (
            "wikipedia",
            {"attachment_ranking": "ordered", "attachment_order": ["vip", "gode"]},
            ["attachment_order", "attachments"],
        ),
        ("tanya", {"attachments": ["vip", "gode", "halve", "sans"]}, ["attachment_order"]),
        (
            "wikipedia",
            {"nolo_anchor_position": "above_attachment:vip"},
            ["nolo_anchor_position", "attachment_ranking"],
        ),
        (
            "tanya",
            {"nolo_anchor_position": "above_attachment:sans"},
            ["nolo_anchor_position"],
        ),
        (
            "wikipedia",
            {"super_bordlaegger_unbeatable": True},
            ["super_bordlaegger_unbeatable", "nolo_contracts"],
        ),
        ("kortdrengene", {"nolo_contracts": []}, ["gaa_med", "nolo_contracts"]),
        (
            "wikipedia",
            {
                "min_bid": 9,
                "nolo_anchor": {"sol": 8, "ren_sol": 10, "bordlaegger": 11, "ren_bordlaegger": 12},
            },
            ["min_bid", "nolo_anchor"],
        ),
    ],
)
def test_conflicting_options_are_named(
    preset: str, overrides: dict[str, Any], names: list[str]
) -> None:
    with pytest.raises(RulesConfigError) as info:
        RuleSet.from_preset(preset, overrides)
    for name in names:
        assert name in str(info.value)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("all_pass_action", "paskrig"),
        ("gaa_med", "nolo_and_vip"),
        ("plain_no_trump_allowed", True),
        ("halve_partner_special_choices", True),
        ("double_redouble", True),
        ("marker_card", True),
    ],
)
@pytest.mark.parametrize("preset", ["wikipedia", "hilmarshelte"])
def test_clarifications_13_14_unsupported_values(preset: str, key: str, value: Any) -> None:
    with pytest.raises(RulesConfigError) as info:
        RuleSet.from_preset(preset, {key: value})
    assert key in str(info.value)
    assert "unsupported" in str(info.value)


def test_scoring_scheme_simple_resets_the_scoring_keys() -> None:
    simple = rules("hilmarshelte", scoring_scheme="simple")
    wikipedia = rules("wikipedia")
    for key in ("base_unit", "attachment_factor", "vip_flip_factor", "nolo_values"):
        assert simple.option(key) == wikipedia.option(key), key


def test_scoring_scheme_is_applied_before_the_other_overrides() -> None:
    ruleset = rules("wikipedia", scoring_scheme="it_whist", base_unit=10)
    assert ruleset.base_unit == 10
    assert ruleset.nolo_value_of("sol") == 50
    assert rules("wikipedia", scoring_scheme="it_whist").base_unit == 5
