"""The solver bench's whist deals: contracts as the heuristic bots bid them."""

from __future__ import annotations

import random

import pytest

from esmakker.bench_solver import _bid_positions
from esmakker.solver.position import EXACTLY_ONE, MAXIMISE, MINIMISE


def test_the_whist_deals_are_number_contracts_at_the_opening_lead() -> None:
    positions = _bid_positions("wikipedia", 3, random.Random(2), nolo=False)
    assert len(positions) == 3
    for pos in positions:
        assert pos.objective == MAXIMISE
        assert pos.target is not None
        assert 7 <= pos.target <= 13
        assert pos.trick_no == 0
        assert pos.trick == ()
        assert all(hand.bit_count() == 13 for hand in pos.hands)


def test_the_nolo_deals_are_one_players_nolo_contracts() -> None:
    positions = _bid_positions("wikipedia", 2, random.Random(2), nolo=True)
    for pos in positions:
        assert pos.objective in (MINIMISE, EXACTLY_ONE)
        assert pos.side.bit_count() == 1


def test_a_contract_the_bots_never_bid_is_reported() -> None:
    with pytest.raises(RuntimeError, match="no 2 nolo contracts bid"):
        _bid_positions("wikipedia", 2, random.Random(2), nolo=True, tries=3)
