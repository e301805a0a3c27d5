"""The solver bench's whist deals: contracts as the heuristic bots bid them."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from esmakker.bench_solver import _bid_positions, _dds_timer, _random_bridge, _time_positions
from esmakker.solver.position import EXACTLY_ONE, MAXIMISE, MINIMISE
from esmakker.solver.solve import Solver


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


def test_the_made_question_is_timed_and_a_position_past_the_cap_counts_as_given_up() -> None:
    endings = [
        replace(
            pos,
            hands=(_low(pos.hands[0]), _low(pos.hands[1]), _low(pos.hands[2]), _low(pos.hands[3])),
        )
        for pos in _bid_positions("wikipedia", 2, random.Random(2), nolo=True)
    ]
    times, gave_up = _time_positions(Solver(pure=True), endings, made=True)
    assert len(times) == 2
    assert gave_up == 0
    assert all(seconds >= 0 for seconds in times)
    _, capped = _time_positions(Solver(pure=True, node_limit=1), endings, made=True)
    assert capped >= 1


def _low(hand: int) -> int:
    """Return the hand's three lowest cards (a short ending of the same deal)."""
    kept = 0
    for _ in range(3):
        kept |= hand & -hand
        hand &= hand - 1
    return kept


def test_dds_is_timed_on_the_question_ours_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    # The tricks of the best lead, not every lead's value (about three times the work).
    import endplay.dds
    from endplay.dds.solve import SolveMode

    modes = []
    real = endplay.dds.solve_board

    def spy(deal: Any, mode: Any = SolveMode.Default, target: Any = None) -> Any:
        modes.append(mode)
        return real(deal, mode, target)

    monkeypatch.setattr(endplay.dds, "solve_board", spy)
    timer = _dds_timer()
    hands, trump, leader = _random_bridge(random.Random(3))
    assert timer(hands, trump, leader) > 0
    assert modes == [SolveMode.OptimalOne]
