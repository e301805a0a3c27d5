"""``esmakker bench solver``: our solver against DDS on the same random deals.

Full 13-card bridge-compatible deals (one strain each, random leader) are solved by our
solver and by DDS (the ``endplay`` package, if installed) in one run. Both answer the same
question, the tricks of the best lead: DDS's ``SolveBoard`` with target -1 and one
solution (``SolveMode.OptimalOne``); its default mode values every lead, about three times
the work, and would flatter the ratio. Whist deals
(jokers, the called ace; number contracts as four heuristic bots bid them) and nolo deals
(nolo contracts of one player the heuristic bots bid) are reported apart; for nolo also
the time to answer whether the contract is made, the question a nolo deal's analysis asks.
``ratio_p95`` compares our 95th percentile with DDS's.
The first solve compiles the kernel and is not timed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from esmakker.bench import print_figures
from esmakker.bots.heuristic import HeuristicBot
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import deal
from esmakker.core.view import observe
from esmakker.solver.bridge import bridge_position, format_pbn
from esmakker.solver.position import Position, from_state
from esmakker.solver.solve import Solver, SolverGaveUpError

MAX_DEALS_PER_POSITION = 200
"""Deals dealt per position wanted before the bench gives up finding that contract."""
NODE_LIMIT = 50_000_000
"""The hard cap: a deal past it counts in ``gave_up``, with its time up to the cap."""


def run_solver_bench(args: argparse.Namespace) -> int:
    """Run the benchmark and print its figures."""
    figures = solver_bench(deals=args.deals, seed=args.seed, preset=args.preset)
    print_figures(figures, as_json=args.json)
    return 0


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _random_bridge(rng: random.Random) -> tuple[tuple[int, int, int, int], int, int]:
    cards = list(range(52))
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[13 * s : 13 * s + 13]) for s in range(4)]
    return (hands[0], hands[1], hands[2], hands[3]), rng.randrange(-1, 4), rng.randrange(4)


def _dds_timer() -> Any:
    try:
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Deal, Denom, Player
    except ImportError:
        return None
    denoms = {-1: Denom.nt, 0: Denom.clubs, 1: Denom.diamonds, 2: Denom.hearts, 3: Denom.spades}

    def solve(hands: tuple[int, int, int, int], trump: int, leader: int) -> float:
        board = Deal(format_pbn(hands))
        board.first = Player(leader)
        board.trump = denoms[trump]
        start = time.perf_counter()
        solve_board(board, SolveMode.OptimalOne)
        return time.perf_counter() - start

    return solve


def _bid_positions(
    preset: str, count: int, rng: random.Random, *, nolo: bool, tries: int | None = None
) -> list[Position]:
    """Return the opening leads of ``count`` deals whose contract four heuristic bots bid,
    declared and exchanged: number contracts, or (``nolo``) nolo contracts of one player.

    Raises:
        RuntimeError: if ``tries`` deals (by default ``MAX_DEALS_PER_POSITION`` per
        position) do not give enough such contracts.
    """
    rules = RuleSet.from_preset(preset)
    positions: list[Position] = []
    for _ in range(MAX_DEALS_PER_POSITION * count if tries is None else tries):
        if len(positions) == count:
            return positions
        state = deal(rules, Seat(rng.randrange(4)), rng)
        bots = [HeuristicBot(random.Random(rng.getrandbits(64))) for _ in range(4)]
        while not state.is_terminal and state.phase is not Phase.PLAY:
            actor = state.to_act
            assert actor is not None
            state = state.apply(bots[actor].act(observe(state, actor)), actor)
        bid = state.engine.bid
        if state.phase is not Phase.PLAY or bid is None or bid.is_nolo != nolo:
            continue
        if nolo and len(state.engine.nolo_players) > 1:
            continue
        positions.append(from_state(state))
    raise RuntimeError(f"{preset}: no {count} {'nolo' if nolo else 'number'} contracts bid")


def _time_positions(
    solver: Solver, positions: list[Position], *, made: bool = False
) -> tuple[list[float], int]:
    """Return the seconds each position took to solve, and how many gave up.

    With ``made`` the question is only whether the contract is made.
    """
    times: list[float] = []
    gave_up = 0
    for pos in positions:
        solver.clear()
        start = time.perf_counter()
        try:
            solver.made(pos) if made else solver.value(pos)
        except SolverGaveUpError:
            gave_up += 1
        times.append(time.perf_counter() - start)
    return times, gave_up


def solver_bench(*, deals: int = 10, seed: int = 1, preset: str = "wikipedia") -> dict[str, Any]:
    """Return the figures: our median and p95 ms, DDS's median, their ratio, whist timings."""
    rng = random.Random(seed)
    solver = Solver(node_limit=NODE_LIMIT)
    gave_up = 0
    hands, trump, leader = _random_bridge(random.Random(seed + 1))
    solver.value(bridge_position(hands, trump, leader))  # compile and warm up
    dds = _dds_timer()
    ours: list[float] = []
    theirs: list[float] = []
    ratios: list[float] = []
    for _ in range(deals):
        hands, trump, leader = _random_bridge(rng)
        solver.clear()
        start = time.perf_counter()
        try:
            solver.value(bridge_position(hands, trump, leader))
        except SolverGaveUpError:
            gave_up += 1
        ours.append(time.perf_counter() - start)
        if dds is not None:
            theirs.append(dds(hands, trump, leader))
            ratios.append(ours[-1] / theirs[-1])
    whist, whist_gave_up = _time_positions(solver, _bid_positions(preset, deals, rng, nolo=False))
    nolo_positions = _bid_positions(preset, deals, rng, nolo=True)
    nolo, nolo_gave_up = _time_positions(solver, nolo_positions)
    nolo_made, nolo_made_gave_up = _time_positions(solver, nolo_positions, made=True)
    ms = 1000.0
    return {
        "deals": deals,
        "median_ms": round(statistics.median(ours) * ms, 2),
        "p95_ms": round(_percentile(ours, 0.95) * ms, 2),
        "max_ms": round(max(ours) * ms, 2),
        "dds_median_ms": round(statistics.median(theirs) * ms, 2) if theirs else None,
        "ratio_median": round(statistics.median(ratios), 2) if ratios else None,
        "dds_p95_ms": round(_percentile(theirs, 0.95) * ms, 2) if theirs else None,
        "ratio_p95": round(_percentile(ours, 0.95) / _percentile(theirs, 0.95), 2)
        if theirs
        else None,
        "gave_up": gave_up,
        "whist_median_ms": round(statistics.median(whist) * ms, 2),
        "whist_p95_ms": round(_percentile(whist, 0.95) * ms, 2),
        "whist_gave_up": whist_gave_up,
        "nolo_median_ms": round(statistics.median(nolo) * ms, 2),
        "nolo_p95_ms": round(_percentile(nolo, 0.95) * ms, 2),
        "nolo_gave_up": nolo_gave_up,
        "nolo_made_median_ms": round(statistics.median(nolo_made) * ms, 2),
        "nolo_made_p95_ms": round(_percentile(nolo_made, 0.95) * ms, 2),
        "nolo_made_gave_up": nolo_made_gave_up,
        "node_limit": NODE_LIMIT,
        "compiled": solver.compiled,
    }
