"""The strong-play measurement script's variant settings (``scripts/measure_strong_play.py``)."""

from __future__ import annotations

import argparse
import random
from types import ModuleType

import pytest

from esmakker.bots import strong
from esmakker.bots.sampling import chain
from esmakker.bots.strong import CHAIN_READS, StrongBot
from esmakker.core.actions import Bid, NameTrump, Pass
from support import load_script


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script("measure_strong_play")


def test_a_variant_reads_its_settings_with_their_types(script: ModuleType) -> None:
    settings = script.parse_variant("chain_tricks=11,chain_penalty=0.01")
    assert settings == {"chain_tricks": 11, "chain_penalty": 0.01}
    assert isinstance(settings["chain_tricks"], int)


def test_a_variant_may_set_the_budget_the_gate_and_inference(script: ModuleType) -> None:
    settings = script.parse_variant("budget_s=3,confidence=0.5,inference=1")
    assert settings == {"budget_s": 3.0, "confidence": 0.5, "inference": 1}
    bot = StrongBot(random.Random(1), compiled_solver=False)
    before = (bot.budget_s, strong.CONFIDENCE, bot.inference)
    with script._set(bot, settings):
        assert (bot.budget_s, strong.CONFIDENCE, bot.inference) == (3.0, 0.5, 1)
    assert (bot.budget_s, strong.CONFIDENCE, bot.inference) == before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("chain_trick=11", "bad setting 'chain_trick=11'"),
        ("chain_tricks", "bad setting 'chain_tricks'"),
        ("mean_tricks=nine", "bad value 'nine' for mean_tricks"),
        ("chain_reads=bids", "bad value 'bids' for chain_reads"),
    ],
)
def test_a_bad_variant_says_what_is_wrong(script: ModuleType, text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        script.parse_variant(text)


def test_a_variant_sets_its_settings_for_one_call_and_restores_them(script: ModuleType) -> None:
    bot = StrongBot(random.Random(1), compiled_solver=False)
    before = (strong.MEAN_TRICKS, chain.CHAIN_PENALTY, bot.chain_tricks)
    settings = script.parse_variant("mean_tricks=11,chain_penalty=0.001,chain_tricks=10")
    seen: list[tuple[object, ...]] = []

    def failing_call() -> None:
        with script._set(bot, settings):
            seen.append((strong.MEAN_TRICKS, chain.CHAIN_PENALTY, bot.chain_tricks))
            raise RuntimeError("the call failed")

    with pytest.raises(RuntimeError):
        failing_call()
    assert seen == [(11, 0.001, 10)]
    assert (strong.MEAN_TRICKS, chain.CHAIN_PENALTY, bot.chain_tricks) == before


def test_a_variant_may_read_the_calls_and_names_them_back(script: ModuleType) -> None:
    settings = script.parse_variant("chain_reads=calls")
    reads = settings["chain_reads"]
    assert isinstance(reads, tuple)
    assert {Bid, Pass, NameTrump} <= set(reads)
    assert set(CHAIN_READS) <= set(reads)
    assert script.parse_variant("chain_reads=cards") == {"chain_reads": CHAIN_READS}
    bot = StrongBot(random.Random(1), compiled_solver=False)
    with script._set(bot, settings):
        assert bot.chain_reads == reads
    assert bot.chain_reads == CHAIN_READS
    assert script._text(reads) == "calls"
