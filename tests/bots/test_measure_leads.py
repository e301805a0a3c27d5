"""The lead study's types and rules (``scripts/measure_leads.py``, decision 124)."""

from __future__ import annotations

import argparse
import gzip
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from esmakker.bots import follow_model
from esmakker.bots.heuristic import HeuristicBot
from esmakker.core.cards import Card
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import deal
from esmakker.core.view import observe
from support import load_script


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script("measure_leads")


def _lead(hand: list[Card], values: dict[Card, int], chosen: Card, **extra: Any) -> dict[str, Any]:
    lead: dict[str, Any] = {
        "deal": 1,
        "left": 13,
        "role": "defender",
        "trump": 2,  # hearts
        "called": -1,
        "hand": [int(c) for c in hand],
        "played": [],
        "values": {str(int(c)): v for c, v in values.items()},
        "chosen": int(chosen),
    }
    lead.update(extra)
    return lead


HAND = [Card.X1, Card.HA, Card.H5, Card.SA, Card.SK, Card.SQ, Card.DQ, Card.D4, Card.C7, Card.C3]


@pytest.mark.parametrize(
    ("card", "kind"),
    [
        (Card.X1, "joker"),
        (Card.HA, "trump_top"),
        (Card.H5, "trump_low"),
        (Card.SK, "side_top"),  # the spade ace above it is in the same hand
        (Card.DQ, "side_honour"),
        (Card.D4, "low_by_honour"),
        (Card.C3, "side_low"),
    ],
)
def test_a_lead_is_typed_by_trumps_its_suits_top_and_honours(
    script: ModuleType, card: Card, kind: str
) -> None:
    assert script.lead_type(int(card), _lead(HAND, {card: 0}, card)) == kind


def test_a_card_is_a_suits_top_once_the_higher_cards_are_played(script: ModuleType) -> None:
    lead = _lead(HAND, {Card.DQ: 0}, Card.DQ, played=[int(Card.DA), int(Card.DK)])
    assert script.lead_type(int(Card.DQ), lead) == "side_top"


def test_a_cards_cost_is_its_tricks_below_the_best_lead(script: ModuleType) -> None:
    lead = _lead(HAND, {Card.SA: 5, Card.C3: 3, Card.D4: 4}, Card.C3)
    assert script._costs(lead) == {int(Card.SA): 0, int(Card.C3): 2, int(Card.D4): 1}


def test_a_type_rule_plays_the_type_that_cost_least_and_keeps_where_none_is_cheaper(
    script: ModuleType,
) -> None:
    low_loses = _lead(HAND, {Card.SA: 5, Card.C3: 3}, Card.C3)
    low_wins = _lead(HAND, {Card.SA: 3, Card.C3: 5}, Card.C3, role="declarer")
    rule = script.fit_rule([low_loses, low_wins])
    assert rule == {("defender", "side_low"): "side_top"}
    assert script._rule_cost(low_loses, rule) == 0
    assert script._rule_cost(low_wins, rule) == 0  # kept: the declarer's cell is not changed


def test_a_gathered_lead_replays_to_its_position(script: ModuleType) -> None:
    rules = RuleSet.from_preset("wikipedia")
    number = 7
    state = deal(rules, Seat(number % 4), random.Random(number))
    bots = [HeuristicBot(random.Random(f"{number}/{s}")) for s in range(4)]
    step = 0
    while not (state.phase is Phase.PLAY and state.to_act is not None and step > 0):
        seat = state.to_act
        assert seat is not None
        state = state.apply(bots[seat].act(observe(state, seat)), seat)
        step += 1
    seat = state.to_act
    lead = {"deal": number, "step": step}
    replayed = script._replay(lead, rules)
    assert replayed.to_act == seat
    assert observe(replayed, seat).hand == observe(state, seat).hand
    assert replayed.phase is Phase.PLAY


def test_the_evaluation_prints_each_bots_loss_and_the_paired_difference(
    script: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    leads = [
        _lead(HAND, {Card.SA: 0}, Card.SA, left=11),
        _lead(HAND, {Card.SA: 0}, Card.SA, left=10, role="partner", deal=2),
    ]
    costs = {"heuristic": [1, 2], "strong": [1, 0], "variant:x=1": [0, 0]}
    script._print_evaluation(leads, costs)
    out = capsys.readouterr().out
    assert "2 leads of 2 deals" in out
    assert "heuristic: 3 tricks lost | 10:2 11:1 defender:1 partner:2" in out
    assert "variant:x=1: 0 tricks lost" in out
    assert "variant:x=1 minus strong: -0.5000 a lead" in out


def test_a_lead_gathered_without_its_step_is_refused_in_one_line(
    script: ModuleType, tmp_path: Any
) -> None:
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(_lead(HAND, {Card.SA: 0}, Card.SA, deal=9)) + "\n")
    with pytest.raises(SystemExit, match="a lead of deal 9 has no step: gather it again"):
        script.evaluate([path], 10, 13, 1, [])


def test_the_evaluation_reads_the_variant_settings_of_the_strong_play_script(
    script: ModuleType,
) -> None:
    screen = script._sibling("measure_strong_play")
    assert screen.parse_variant("mean_tricks=11") == {"mean_tricks": 11}


class _FlatJudge:
    """Values every legal card alike, so gathering runs without solving."""

    def clear(self) -> None:
        pass

    def card_values(self, pos: Any) -> dict[int, int]:
        return {card: 0 for card in range(55) if pos.hands[pos.to_act] >> card & 1}


def test_gathering_follows_records_the_cards_played_to_a_trick(script: ModuleType) -> None:
    rules = RuleSet.from_preset("wikipedia")
    follows = list(script._deal_leads(3, rules, _FlatJudge(), 10, follows=True))
    leads = list(script._deal_leads(3, rules, _FlatJudge(), 10))
    assert follows
    assert leads
    assert all(1 <= len(f["trick"]) <= 3 for f in follows)
    assert all(not lead["trick"] for lead in leads)
    for follow in follows:
        state = script._replay(follow, rules)
        assert state.to_act is not None
        view = observe(state, state.to_act)
        assert [int(c) for c in view.trick] == follow["trick"]
        assert int(follow["chosen"]) in {int(c) for c in view.hand}


def test_gathered_files_read_alike_plain_and_gzipped(script: ModuleType, tmp_path: Any) -> None:
    text = json.dumps(_lead(HAND, {Card.SA: 0}, Card.SA)) + "\n"
    plain = tmp_path / "a.jsonl"
    plain.write_text(text)
    packed = tmp_path / "a.jsonl.gz"
    packed.write_bytes(gzip.compress(text.encode()))
    assert script.load([plain]) == script.load([packed]) == [json.loads(text)]


def test_the_follow_model_is_a_variant_setting(script: ModuleType) -> None:
    screen = script._sibling("measure_strong_play")
    assert screen.parse_variant("follow_model=0") == {"follow_model": None}
    assert screen.parse_variant("follow_model=1")["follow_model"] is not None
    assert screen.parse_variant("follow_tricks=10") == {"follow_tricks": 10}


def test_a_variant_may_name_an_exported_model_file(script: ModuleType, tmp_path: Any) -> None:
    screen = script._sibling("measure_strong_play")
    shipped = Path(follow_model.__file__).with_name("follow_model.json")
    settings = screen.parse_variant(f"follow_model={shipped}")
    assert settings["follow_model"] == follow_model.default_model()
    broken = tmp_path / "broken.json"
    broken.write_text("[1, 2]")
    with pytest.raises(argparse.ArgumentTypeError, match=r"bad value .* for lead_model"):
        screen.parse_variant(f"lead_model={broken}")
