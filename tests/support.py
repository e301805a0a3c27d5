"""Helpers that let a test read like a hand diagram."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from esmakker.core.actions import parse_action
from esmakker.core.cards import Card, CardSet
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State


def rules(preset: str = "wikipedia", **overrides: Any) -> RuleSet:
    """Return a preset's rule set with keyword overrides."""
    return RuleSet.from_preset(preset, overrides)


def make_state(ruleset: RuleSet, dealer: str, hands: Mapping[str, str], kitty: str) -> State:
    """Return a deal from notation: ``hands`` maps ``"N"`` … to 13 cards, ``kitty`` in turning order."""
    sets = [CardSet.parse(hands[seat.name]) for seat in Seat]
    return State.new(ruleset, Seat.parse(dealer), sets, tuple(Card.parse(c) for c in kitty.split()))


def run(state: State, steps: Iterable[str]) -> State:
    """Apply steps written as in a hand record (``"E bid 8 gode"``)."""
    for step in steps:
        seat, _, action = step.partition(" ")
        state = state.apply(parse_action(action), Seat.parse(seat))
    return state


SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def load_script(name: str) -> ModuleType:
    """Return the module of ``scripts/<name>.py`` (the scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
