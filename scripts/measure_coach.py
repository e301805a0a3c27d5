#!/usr/bin/env python3
"""Measure the coach: how long a hint and a seat's post-deal review take, and what it flags.

Usage (from the repository root):

    .venv/bin/python scripts/measure_coach.py --deals 5 --preset wikipedia

Four heuristic bots play each deal; at three of S's decisions with a choice a hint is
timed (default worlds and budget, as the server and the terminal ask); after the deal
S's decisions are reviewed (default worlds and per-decision budget) and timed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.hints import hint
from esmakker.bots.review import review
from esmakker.core.record import record_of
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import deal
from esmakker.core.view import observe
from esmakker.table import seat_decisions

HINTS_PER_DEAL = 3


def main() -> None:
    """Play the deals, time the hints and the reviews, print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--preset", default="wikipedia")
    args = parser.parse_args()
    hint_times: list[float] = []
    for seed in range(args.deals):
        state = deal(RuleSet.from_preset(args.preset), Seat(seed % 4), random.Random(seed))
        bots = [HeuristicBot(random.Random(f"{seed}/{s}")) for s in range(4)]
        asked = 0
        while not state.is_terminal:
            seat = state.to_act
            assert seat is not None
            view = observe(state, seat)
            if seat == Seat.S and len(view.legal_actions) > 1 and asked < HINTS_PER_DEAL:
                began = time.perf_counter()
                hint(view, random.Random(seed))
                hint_times.append(time.perf_counter() - began)
                asked += 1
            state = state.apply(bots[seat].act(view), seat)
        decisions = seat_decisions(record_of(state), Seat.S)
        began = time.perf_counter()
        mistakes = review([(v, a) for _, v, a in decisions], random.Random(seed))
        took = time.perf_counter() - began
        searched = sum(len(v.legal_actions) > 1 for _, v, _ in decisions)
        print(f"deal {seed}: review {took:.1f} s, {searched} decisions, {len(mistakes)} flagged")
    median, worst = statistics.median(hint_times), max(hint_times)
    print(f"hints: {len(hint_times)}, median {median:.2f} s, max {worst:.2f} s")


if __name__ == "__main__":
    main()
