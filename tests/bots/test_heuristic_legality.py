"""The heuristic and beginner bots only ever choose legal actions, under every rule set.

``play_deal`` applies every action through ``State.apply``, which raises on an illegal
one, and the bots assert that their choice is among ``view.legal_actions``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.registry import make_bot
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.rules import RuleSet
from esmakker.core.seats import SEATS
from esmakker.core.view import observe
from esmakker.sim.runner import play_deal

TABLES = {
    "heuristic": ("heuristic",) * 4,
    "mixed": ("heuristic", "beginner", "random", "heuristic"),
    "beginner": ("beginner", "heuristic", "beginner", "random"),
}

# Rule options that change what is legal in the play, the exchange or the declaring.
VARIANTS: list[dict[str, Any]] = [
    {"joker_only_when_void": False},
    {"after_joker_lead": "next_card_sets_suit"},
    {"unled_joker": "beats_plain"},
    {"called_ace_may_be_discarded": False},
    {"called_ace_forced_on_own_lead": False},
    {"first_lead": "declarer", "no_joker_lead_trick1": False},
    {"num_jokers": 2},
    {"may_call_own_ace": True, "king_call_trigger": "all_four_aces"},
    {"vip_call_before_turn": False, "vip_trump_may_equal_called_suit": False},
    {"vip_joker_rule": "skip_first", "vip_exchange": "optional"},
    {"exchange_model": "partial_pass_remainder", "halve_exchanger": "partner"},
    {"exchange_model": "whole_declarer_only", "nolo_exchange": False},
    {"open_who_bordlaegger": "all", "open_timing_bordlaegger": "after_first_lead"},
    {"gaa_med": "nolo", "hold_privilege": "earlier_bidder", "iron_hand": "optional"},
    {"stop_when_nolo_broken": False, "nolo_aces_low": False, "min_bid": 8},
    {
        "attachments": ["vip", "gode", "halve", "staerke", "sans"],
        "attachment_order": ["vip", "staerke", "gode", "halve", "sans"],
        "plain_clubs_allowed": False,
    },
    {"attachment_ranking": "equal_distinct_cycle"},
    {"attachment_ranking": "equal_distinct_once", "hold_privilege": "forehand_only"},
]


def _play(rules: RuleSet, names: tuple[str, ...], seed: str, dealer: int) -> None:
    bots = [make_bot(name, random.Random(f"{seed}/{s}")) for s, name in enumerate(names)]
    state = play_deal(rules, bots, SEATS[dealer], random.Random(seed))
    assert state.is_terminal


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("table", list(TABLES))
def test_every_action_is_legal_in_every_preset(preset: str, table: str) -> None:
    rules = RuleSet.from_preset(preset)
    for k in range(20):
        _play(rules, TABLES[table], f"legal/{preset}/{table}/{k}", k % 4)


@pytest.mark.parametrize("overrides", VARIANTS, ids=lambda o: ",".join(o))
def test_every_action_is_legal_under_rule_variants(overrides: dict[str, Any]) -> None:
    for preset in ("wikipedia", "tanya"):
        rules = RuleSet.from_preset(preset, overrides)
        for k in range(4):
            _play(rules, TABLES["heuristic"], f"variant/{preset}/{k}", k % 4)
            _play(rules, TABLES["mixed"], f"variant-mixed/{preset}/{k}", k % 4)


def _record(seed: int) -> list[str]:
    rules = RuleSet.from_preset("wikipedia")
    bots = [HeuristicBot(random.Random(f"{seed}/{s}")) for s in range(4)]
    state = play_deal(rules, bots, SEATS[0], random.Random(seed))
    return [str(step) for step in state.history]


def test_the_bot_is_deterministic_given_its_rng() -> None:
    assert _record(5) == _record(5)
    assert _record(5) != _record(6)


def test_levels() -> None:
    bot = HeuristicBot(random.Random(0), level="beginner")
    assert bot.name == "beginner"
    assert HeuristicBot(random.Random(0)).name == "heuristic"
    with pytest.raises(ValueError, match="unknown level 'expert'"):
        HeuristicBot(random.Random(0), level="expert")
    view = observe(play_deal_start(), SEATS[1])
    with pytest.raises(ValueError, match="no legal action"):
        bot.act(observe(play_deal_start(), SEATS[2]))
    assert bot.act(view) in view.legal_actions


def play_deal_start() -> Any:
    from esmakker.core.state import deal

    return deal(RuleSet.from_preset("wikipedia"), SEATS[0], random.Random(1))


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_thousands_of_deals_stay_legal(preset: str) -> None:
    rules = RuleSet.from_preset(preset)
    for k in range(400):
        _play(rules, TABLES["heuristic"], f"slow/{preset}/{k}", k % 4)
        _play(rules, TABLES["mixed"], f"slow-mixed/{preset}/{k}", k % 4)


@pytest.mark.slow
def test_random_rule_variants_stay_legal() -> None:
    rng = random.Random(11)
    for k in range(600):
        overrides: dict[str, Any] = {}
        for variant in rng.sample(VARIANTS, 3):
            overrides.update(variant)
        preset = rng.choice(PRESET_NAMES)
        try:
            rules = RuleSet.from_preset(preset, overrides)
        except Exception:  # combinations that make no sense are rejected by the rule set
            continue
        _play(rules, TABLES["mixed" if k % 2 else "heuristic"], f"slow-variant/{k}", k % 4)
