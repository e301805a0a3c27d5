"""The auction search's calibrated corrections: kinds of call, the file, their use."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from esmakker.bots import strong
from esmakker.bots.auction_bias import call_kind, corrections
from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.strong import StrongBot
from esmakker.core.actions import HOLD, JOIN, PASS, Action, Bid, BidKind
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import deal
from esmakker.core.view import PlayerView, observe


def test_calls_are_kinds_pass_number_or_nolo() -> None:
    assert call_kind(PASS) == "pass"
    assert call_kind(JOIN) == "pass"
    assert call_kind(HOLD) == "number"
    assert call_kind(Bid(8, BidKind.GODE)) == "number"
    assert call_kind(Bid(None, BidKind.SOL)) == "nolo"


def test_corrections_are_read_from_the_calibration_file(tmp_path: Path) -> None:
    path = tmp_path / "auction.json"
    path.write_text(json.dumps({"corrections": {"pass": 4.5, "number": -12}}))
    assert corrections(path) == {"pass": 4.5, "number": -12.0, "nolo": 0.0}
    assert corrections(tmp_path / "missing.json") == {}


def test_a_corrupt_calibration_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("[1, 2")
    with pytest.raises(ValueError, match=r"broken\.json: not an auction calibration"):
        corrections(path)


def _bidding_view() -> PlayerView:
    """Return the first auction view, over a few deals, where the heuristic bids."""
    rules = RuleSet.from_preset("wikipedia")
    for seed in range(40):
        state = deal(rules, Seat(seed % 4), random.Random(seed))
        seat = state.to_act
        assert seat is not None
        view = observe(state, seat)
        if isinstance(HeuristicBot(random.Random(0)).act(view), Bid):
            return view
    raise AssertionError("no deal opens with a bid")


def test_the_auction_search_adds_the_correction_of_each_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A large correction for passing makes the searching bidder pass where it would bid."""
    view = _bidding_view()
    assert view.phase is Phase.AUCTION

    def favour_pass(action: Action) -> float:
        return 10_000.0 if call_kind(action) == "pass" else 0.0

    monkeypatch.setattr(strong, "correction", favour_pass)
    bot = StrongBot(random.Random(3), worlds=3, budget_s=60.0, search_auction=True)
    assert call_kind(bot.act(view)) == "pass"
    ranked = StrongBot(random.Random(3), worlds=3, budget_s=60.0, search_auction=True)
    assert call_kind(ranked.choices(view)[0].action) == "pass"
    raw = StrongBot(random.Random(3), worlds=3, budget_s=60.0, search_auction=True)
    assert all(c.mean_score < 5_000 for c in raw.choices(view, corrected=False))
