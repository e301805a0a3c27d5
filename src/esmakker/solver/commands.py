"""The command line of the solver: ``esmakker solve`` and ``esmakker analyze``.

``cli.py`` registers them with ``add_solve`` and ``add_analyze``; bad input raises
``SolverInputError`` (one line naming what and where; exit code 2).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from esmakker.core.errors import EsmakkerError
from esmakker.core.phase import Phase
from esmakker.core.record import HandRecord, load
from esmakker.core.seats import SEATS, Seat
from esmakker.solver.analysis import (
    DEFAULT_NODE_LIMIT,
    analyze,
    card_names,
    play_start,
    states_of,
    text_table,
)
from esmakker.solver.bridge import PbnError, bridge_position, parse_pbn, parse_strain
from esmakker.solver.position import from_state
from esmakker.solver.solve import Solver, SolverGaveUpError


class SolverInputError(ValueError):
    """Input the solver commands cannot use: a bad deal, record or step."""


def add_solve(commands: Any) -> None:
    """Register ``esmakker solve``."""
    solve = commands.add_parser("solve", help="solve one position double dummy")
    solve.add_argument("record", nargs="?", type=Path, help="a hand record (.json)")
    solve.add_argument("--deal", help='a bridge-compatible PBN deal ("N:AK97.T6.J54.A32 ...")')
    solve.add_argument("--trump", help="with --deal: S, H, D, C or N (no trumps)")
    solve.add_argument("--leader", help="with --deal: the seat on lead (N, E, S, W)")
    solve.add_argument("--step", type=int, help="with a record: after this many actions")
    solve.add_argument("--json", action="store_true", help="print JSON")
    solve.set_defaults(handler=run_solve)


def add_analyze(commands: Any) -> None:
    """Register ``esmakker analyze``."""
    analyze_ = commands.add_parser("analyze", help="double-dummy analysis of a played deal")
    analyze_.add_argument("record", type=Path, help="a hand record (.json)")
    analyze_.add_argument("--json", action="store_true", help="print JSON (docs/analysis.md)")
    analyze_.set_defaults(handler=run_analyze)


def run_solve(args: argparse.Namespace) -> int:
    """Solve a PBN deal or a record's position and print the result."""
    if args.deal is not None:
        if args.record is not None or args.step is not None:
            raise SolverInputError("give either --deal or a record, not both")
        print(_solve_deal(args.deal, args.trump, args.leader, as_json=args.json))
        return 0
    if args.record is None:
        raise SolverInputError("give a record file or --deal (see esmakker solve --help)")
    if args.trump is not None or args.leader is not None:
        raise SolverInputError("--trump and --leader go with --deal only")
    result = solve_record(_load(args.record), args.step, str(args.record))
    print(json.dumps(result) if args.json else _solve_text(result))
    return 0


def _solve_deal(deal: str, trump: str | None, leader: str | None, *, as_json: bool) -> str:
    if trump is None or leader is None:
        raise SolverInputError("--deal needs --trump (S, H, D, C or N) and --leader (N, E, S, W)")
    try:
        hands = parse_pbn(deal)
        strain = parse_strain(trump)
        first = Seat.parse(leader)
    except (PbnError, EsmakkerError) as exc:
        raise SolverInputError(str(exc)) from None
    try:
        tricks = Solver(node_limit=DEFAULT_NODE_LIMIT).value(
            bridge_position(hands, strain, int(first))
        )
    except SolverGaveUpError as exc:
        raise SolverGaveUpError(f"deal {deal!r}: {exc}") from None
    return json.dumps({"ns_tricks": tricks}) if as_json else f"N-S take {tricks} tricks"


def _load(path: Path) -> HandRecord:
    try:
        return load(path)
    except EsmakkerError as exc:
        raise SolverInputError(" ".join(str(exc).split())) from None


def solve_record(record: HandRecord, step: int | None, source: str) -> dict[str, Any]:
    """Return the solution of a record's position after ``step`` actions (default: the lead)."""
    states = states_of(record)
    if step is None:
        step = play_start(states)
        if step < 0:
            raise SolverInputError(f"{source}: the deal never reaches the play of the cards")
    if not 0 <= step < len(states):
        raise SolverInputError(f"{source}: --step {step} is out of range (0-{len(states) - 1})")
    state = states[step]
    if state.phase is not Phase.PLAY:
        raise SolverInputError(
            f"{source}: after {step} action(s) the deal is in the {state.phase} phase, "
            "not in the play of the cards"
        )
    pos = from_state(state)
    solver = Solver(node_limit=DEFAULT_NODE_LIMIT)
    try:
        values = solver.card_values(pos)
    except SolverGaveUpError as exc:
        raise SolverGaveUpError(f"{source}: step {step}: {exc}") from None
    return {
        "step": step,
        "to_act": SEATS[pos.to_act].name,
        "objective": pos.objective,
        "declarer_side_tricks": solver.value(pos),
        "made": solver.made(pos),
        "cards": card_names(values),
    }


def _solve_text(result: dict[str, Any]) -> str:
    cards = " ".join(f"{card} {value}" for card, value in result["cards"].items())
    verdict = "made" if result["made"] else "failed"
    return (
        f"after {result['step']} action(s), {result['to_act']} to play: "
        f"{result['declarer_side_tricks']} tricks for the declarer's side ({verdict})\n"
        f"cards: {cards}"
    )


def run_analyze(args: argparse.Namespace) -> int:
    """Analyse a played deal and print the table or JSON."""
    analysis = analyze(_load(args.record))
    print(json.dumps(analysis) if args.json else text_table(analysis))
    return 0
