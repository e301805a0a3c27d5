"""Double-dummy analysis of a played deal: every card's cost, the contract's par, the best contract.

The JSON shape is documented in ``docs/analysis.md``; its field names are stable.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from esmakker.core.actions import Play
from esmakker.core.cards import CARDS
from esmakker.core.phase import Phase
from esmakker.core.record import HandRecord
from esmakker.core.seats import SEATS
from esmakker.core.state import State
from esmakker.solver.position import MAXIMISE, Position, from_state
from esmakker.solver.solve import Solver, SolverGaveUpError

DEFAULT_NODE_LIMIT = 50_000_000
"""Nodes one search may take in the commands before it gives up (the answer is then null)."""

T = TypeVar("T")
ANALYSIS_VERSION = 1
_STRAINS = (("S", 3), ("H", 2), ("D", 1), ("C", 0), ("N", -1))


def states_of(record: HandRecord) -> list[State]:
    """Return the state before each action of the record, and the final one."""
    state = State.new(record.rules, record.dealer, record.hands, record.kitty)
    states = [state]
    for step in record.steps:
        state = state.apply(step.action, step.seat)
        states.append(state)
    return states


def play_start(states: list[State]) -> int:
    """Return the index of the first state of the play, or -1 if the deal never reached it."""
    for index, state in enumerate(states):
        if state.phase is Phase.PLAY:
            return index
    return -1


def card_names(values: dict[int, int]) -> dict[str, int]:
    """Return card values keyed by card name, in card order."""
    return {CARDS[card].name: value for card, value in sorted(values.items())}


def _best(values: dict[int, int], maximiser: bool) -> int:
    return max(values.values()) if maximiser else min(values.values())


def analyze(record: HandRecord, solver: Solver | None = None) -> dict[str, Any]:
    """Return the analysis of a deal (see ``docs/analysis.md``)."""
    solver = solver or Solver(node_limit=DEFAULT_NODE_LIMIT)
    states = states_of(record)
    start = play_start(states)
    if start < 0:
        return {"version": ANALYSIS_VERSION, "played": False, "cards": []}
    opening = from_state(states[start])
    cards = []
    for index in range(start, len(states) - 1):
        state = states[index]
        if state.phase is not Phase.PLAY:
            break
        cards.append(_card_entry(solver, state, record, index))
    final = states[-1].result()
    return {
        "version": ANALYSIS_VERSION,
        "played": True,
        "contract": _contract(states[start]),
        "objective": opening.objective,
        "par": _or_none(lambda: solver.value(opening)),
        "par_made": _or_none(lambda: solver.made(opening)),
        "actual": None if final is None else final.declarer_side_tricks,
        "cards": cards,
        "best_contract": _best_contract(solver, opening, states[start]),
    }


def _or_none(compute: Callable[[], T]) -> T | None:
    """Return ``compute()``, or ``None`` where the search gave up (its node budget)."""
    try:
        return compute()
    except SolverGaveUpError:
        return None


def _contract(state: State) -> dict[str, Any]:
    engine = state.engine
    assert engine.bid is not None
    return {
        "bid": str(engine.bid),
        "declarer": SEATS[engine.declarer].name,
        "partner": None if engine.partner < 0 else SEATS[engine.partner].name,
        "trump": None if engine.trump is None or engine.trump < 0 else "CDHS"[engine.trump],
        "called": None if engine.called < 0 else CARDS[engine.called].name,
    }


def _card_entry(solver: Solver, state: State, record: HandRecord, index: int) -> dict[str, Any]:
    pos = from_state(state)
    step = record.steps[index]
    assert isinstance(step.action, Play)
    card = int(step.action.card)
    values = _or_none(lambda: solver.card_values(pos))
    maximiser = bool(pos.maximisers >> pos.to_act & 1)
    entry = {
        "action": index,
        "trick": pos.trick_no + 1,
        "seat": step.seat.name,
        "card": CARDS[card].name,
        "declarer_side": bool(pos.side >> pos.to_act & 1),
        "before": None,
        "after": None,
        "cost": None,
        "best_cards": None,
    }
    if values is None:
        return entry
    before = _best(values, maximiser)
    after = values[card]
    cost = before - after if maximiser else after - before
    return {
        "action": index,
        "trick": pos.trick_no + 1,
        "seat": step.seat.name,
        "card": CARDS[card].name,
        "declarer_side": bool(pos.side >> pos.to_act & 1),
        "before": before,
        "after": after,
        "cost": cost,
        "best_cards": [CARDS[c].name for c, v in sorted(values.items()) if v == before],
    }


def _best_contract(solver: Solver, opening: Position, state: State) -> dict[str, Any] | None:
    """Return the declarer side's tricks in each strain and the highest number contract made.

    Same hands (after the exchange), partner, called card and opening leader; only the
    trumps change. ``None`` for nolo contracts.
    """
    if opening.objective != MAXIMISE:
        return None
    tricks: dict[str, int] = {}
    for letter, trump in _STRAINS:
        value = _or_none(lambda trump=trump: solver.value(replace(opening, trump=trump)))  # type: ignore[misc]
        if value is None:
            return None
        tricks[letter] = value
    letter = max(tricks, key=lambda s: tricks[s])
    level = tricks[letter]
    made = level >= state.rules.min_bid
    return {
        "tricks": tricks,
        "strain": letter if made else None,
        "level": level if made else None,
    }


def text_table(analysis: dict[str, Any]) -> str:
    """Return the analysis as a table for people."""
    if not analysis["played"]:
        return "the deal was not played (no play of the cards to analyse)"
    contract = analysis["contract"]
    side = contract["declarer"] + (f"+{contract['partner']}" if contract["partner"] else "")
    lines = [
        f"{contract['bid']} by {side}, trump {contract['trump'] or 'none'}"
        + (f", called {contract['called']}" if contract["called"] else ""),
        f"double dummy from the opening lead: {analysis['par']} tricks for the declarer's side"
        f" ({'made' if analysis['par_made'] else 'failed'}); taken: {analysis['actual']}",
        "",
        "trick  seat  card  before  after  note",
    ]
    for entry in analysis["cards"]:
        note = ""
        if entry["cost"] is None:
            note = "not solved (the search gave up)"
        elif entry["cost"] > 0:
            plural = "s" if entry["cost"] > 1 else ""
            note = f"cost {entry['cost']} trick{plural} (best: {' '.join(entry['best_cards'])})"
        lines.append(
            f"{entry['trick']:>5}  {entry['seat']:>4}  {entry['card']:>4}  "
            f"{_show(entry['before']):>6}  {_show(entry['after']):>5}  {note}".rstrip()
        )
    best = analysis["best_contract"]
    if best is not None:
        per = ", ".join(f"{s} {t}" for s, t in best["tricks"].items())
        verdict = f"{best['level']} in {best['strain']}" if best["level"] else "none"
        lines += ["", f"tricks by strain: {per}; best contract: {verdict}"]
    return "\n".join(lines)


def _show(value: int | None) -> str:
    return "?" if value is None else str(value)
