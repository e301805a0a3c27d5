import random

import pytest

from esmakker.core.presets import PRESET_NAMES
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import deal


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_random_play_reaches_a_result_in_every_preset(preset: str) -> None:
    rng = random.Random(preset)
    ruleset = RuleSet.from_preset(preset)
    for number in range(40):
        state = deal(ruleset, Seat(number % 4), rng)
        while not state.is_terminal:
            state = state.apply(rng.choice(state.legal_actions()))
        result = state.result()
        assert result is not None
        assert sum(result.scores) == 0
        assert result.outcome in ("played", "redeal")
