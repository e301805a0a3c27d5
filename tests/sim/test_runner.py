"""The simulator: determinism, every preset, views only, iron claims, summaries."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from esmakker.bots.random_bot import RandomBot
from esmakker.core.actions import Action, Iron
from esmakker.core.errors import RulesConfigError
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.record import dumps, record_of
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State, deal
from esmakker.core.view import PlayerView
from esmakker.sim.runner import play_deal, simulate, simulate_deals, summarise


def _texts(preset: str, deals: int, seed: int | str, bots: int = 4) -> list[str]:
    return [dumps(record_of(s)) for s in simulate(preset, deals, seed, bots=("random",) * bots)]


def test_same_seed_same_records() -> None:
    assert _texts("wikipedia", 20, 7) == _texts("wikipedia", 20, 7)
    assert _texts("wikipedia", 20, 7) != _texts("wikipedia", 20, 8)
    assert _texts("wikipedia", 20, 7) == _texts("wikipedia", 20, "7")


def test_deal_k_does_not_depend_on_the_deals_before() -> None:
    longer = _texts("osterbro", 12, "x")
    assert longer[:5] == _texts("osterbro", 5, "x")


def test_records_are_stable_across_processes() -> None:
    code = (
        "from esmakker.sim.runner import simulate\n"
        "from esmakker.core.record import dumps, record_of\n"
        "for s in simulate('tanya', 5, 3): print(dumps(record_of(s)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines() == _texts("tanya", 5, 3)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_plays_200_deals(preset: str) -> None:
    states = list(simulate(preset, 200, f"presets-{preset}"))
    summary = summarise(states)
    assert summary["deals"] == 200
    assert summary["played"] + summary["redeals"] == 200
    assert summary["zero_sum"]
    assert all(state.is_terminal for state in states)
    if summary["played"]:
        assert sum(summary["contracts"].values()) == pytest.approx(1.0)


class _Spy:
    """A bot that checks it is given a view of its own seat, then plays at random."""

    name = "spy"

    def __init__(self, seat: Seat, claims: bool = False) -> None:
        self.seat = seat
        self.claims = claims
        self.rng = random.Random(int(seat))
        self.seen = 0
        self.asked_iron = 0

    def act(self, view: PlayerView) -> Action:
        assert isinstance(view, PlayerView)
        assert view.seat is self.seat
        assert view.to_act is self.seat
        self.seen += 1
        return self.rng.choice(view.legal_actions)

    def claim_iron(self, view: PlayerView) -> bool:
        assert view.seat is self.seat
        assert Iron() in view.legal_actions
        self.asked_iron += 1
        return self.claims


def test_bots_act_through_their_own_views() -> None:
    spies = [_Spy(seat) for seat in Seat]
    state = play_deal(RuleSet.from_preset("wikipedia"), spies, Seat.S, random.Random(4))
    assert state.is_terminal
    assert sum(spy.seen for spy in spies) == len(state.history)
    assert all(spy.asked_iron == 0 for spy in spies)  # iron hand is off in wikipedia


def _iron_seed(rules: RuleSet) -> tuple[int, Seat]:
    """Return a seed whose deal (dealer N) gives a seat other than forehand an iron hand."""
    for seed in range(20000):
        state = deal(rules, Seat.N, random.Random(seed))
        for seat in (Seat.S, Seat.W, Seat.N):
            if Iron() in state.legal_actions_of(seat):
                return seed, seat
    raise AssertionError("no iron hand found")


def test_iron_claims_are_asked_and_end_the_deal() -> None:
    rules = RuleSet.from_preset("hilmarshelte")
    seed, seat = _iron_seed(rules)
    spies = [_Spy(s, claims=True) for s in Seat]
    state = play_deal(rules, spies, Seat.N, random.Random(seed))
    assert [str(step) for step in state.history] == [f"{seat.name} iron"]
    result = state.result()
    assert result is not None
    assert result.outcome == "redeal"
    assert spies[seat].asked_iron == 1
    declining = [_Spy(s, claims=False) for s in Seat]
    state = play_deal(rules, declining, Seat.N, random.Random(seed))
    assert declining[seat].asked_iron == 1
    assert not any(isinstance(step.action, Iron) for step in state.history)


def test_five_and_six_bots_share_the_table() -> None:
    deals = list(simulate_deals("wikipedia", 12, 1, bots=("random",) * 5))
    assert [d.seating.sitting_out for d in deals[:5]] == [
        ("P1",),
        ("P2",),
        ("P3",),
        ("P4",),
        ("P5",),
    ]
    assert all(d.state.dealer is Seat.N for d in deals)
    meta = deals[0].meta()
    assert meta["table"] == {"N": "P5", "E": "P2", "S": "P3", "W": "P4"}
    assert meta["seed"] == "1/1"
    assert json.loads(json.dumps(meta)) == meta
    six = list(simulate_deals("osterbro", 3, 1, bots=("random",) * 6))
    assert six[0].seating.sitting_out == ("P1", "P4")


def test_four_bots_rotate_the_dealer() -> None:
    deals = list(simulate_deals("wikipedia", 8, 2))
    assert [d.state.dealer for d in deals] == [Seat(i % 4) for i in range(8)]


def test_bad_arguments_fail_before_any_deal() -> None:
    with pytest.raises(RulesConfigError, match="preset 'nope' is unknown"):
        simulate_deals("nope", 1, 1)
    with pytest.raises(RulesConfigError, match="unknown rule option"):
        simulate_deals("wikipedia", 1, 1, overrides={"nope": 1})
    with pytest.raises(ValueError, match="unknown bot 'x'"):
        simulate_deals("wikipedia", 1, 1, bots=("random", "x", "random", "random"))
    with pytest.raises(ValueError, match="4, 5 or 6 bots, got 3"):
        simulate_deals("wikipedia", 1, 1, bots=("random",) * 3)


def _finished(preset: str, seed: int) -> State:
    state = play_deal(
        RuleSet.from_preset(preset),
        [RandomBot(random.Random(seed + i)) for i in range(4)],
        Seat.N,
        random.Random(seed),
    )
    return state


def test_summary_figures() -> None:
    states = [_finished("hilmarshelte", seed) for seed in range(60)]
    summary = summarise(states)
    assert summary["deals"] == 60
    played = [s.result() for s in states if s.result() and s.result().outcome == "played"]  # type: ignore[union-attr]
    assert summary["played"] == len(played)
    number = [r for r in played if r and not r.contract.is_nolo]  # type: ignore[union-attr]
    made = sum(bool(r.made) for r in number if r)
    assert summary["make_rate"]["number"] == pytest.approx(made / len(number))
    mean = sum(abs(x) for r in played if r for x in r.scores) / (4 * len(played))
    assert summary["mean_abs_score"] == pytest.approx(mean)
    assert summary["zero_sum"] is True
    empty = summarise([])
    assert empty["deals"] == 0
    assert empty["make_rate"] == {"number": None, "nolo": None}
