"""Double-dummy endings: a seat's score for every card it may play in a sampled world.

Late in the play the exact solver answers in milliseconds. ``card_scores`` asks it, for
each legal card of the seat to play, how many tricks the declarer's side ends with when
everyone plays best afterwards, and turns that count into the seat's score as the rule
set scores a finished deal (``score_deal``): overtricks, undertricks and the made/failed
step of number contracts, made or failed for nolo contracts. The score is monotone in
the declarer's tricks (rising for a number contract, a step for nolo), so the best play
for tricks is the best play for the score.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from esmakker.bots.sampling import World
from esmakker.core.cards import CARDS, Card
from esmakker.core.phase import Phase
from esmakker.core.scoring import DealOutcome, score_deal
from esmakker.solver.position import EXACTLY_ONE, Position, from_state
from esmakker.solver.solve import Solver, SolverGaveUpError

DD_TRICKS = 5
"""The solver evaluates a card when at most this many tricks are left (the current one too)."""
DD_TRICKS_COMPILED = 7
"""The same with the numba-compiled kernel, about fifty times faster."""
NODE_LIMIT = 5_000
"""Nodes one call of the plain-Python solver may search before the world is rolled out."""
NODE_LIMIT_COMPILED = 300_000
"""The same for the compiled kernel."""


@dataclass(frozen=True, slots=True)
class Ending:
    """A solver for endings and the number of tricks left from which it is asked."""

    solver: Solver
    tricks: int


def new_ending(*, compiled: bool = False) -> Ending:
    """Return an ending solver: plain Python unless ``compiled``, capped in nodes per call.

    The compiled kernel's recursive search is compiled on its first call in a process
    (some twenty seconds), so a bot asks for it only where that is paid once.
    """
    if compiled:
        return Ending(Solver(table_bits=16, node_limit=NODE_LIMIT_COMPILED), DD_TRICKS_COMPILED)
    return Ending(Solver(pure=True, table_bits=14, node_limit=NODE_LIMIT), DD_TRICKS)


def solvable(world: World, tricks: int) -> bool:
    """Return whether the world is an ending the solver may evaluate.

    That is the play with at most ``tricks`` tricks left, and a declarer alone in a nolo
    contract (the solver counts one nolo player's tricks, not the joiners').
    """
    engine = world.engine
    if engine.phase is not Phase.PLAY or engine.bid is None:
        return False
    if engine.bid.is_nolo and len(engine.nolo_players) > 1:
        return False
    left = (sum(hand.bit_count() for hand in engine.hands) + len(engine.trick)) // 4
    return left <= tricks


def card_scores(world: World, seat: int, solver: Solver) -> dict[Card, float]:
    """Return the seat's final score for each legal card of the seat to play, with best play.

    Raises:
        SolverGaveUpError: if a search passes the solver's node limit.
    """
    pos = from_state(world)
    if pos.to_act != seat:
        raise ValueError(f"seat {seat} is not to play (seat {pos.to_act} is)")
    outcome = world.engine.deal_outcome()
    if pos.objective == EXACTLY_ONE:
        tricks = _exactly_one_tricks(pos, solver)
    else:
        tricks = solver.card_values(pos)
    return {CARDS[card]: score_for(outcome, count, world, seat) for card, count in tricks.items()}


def _exactly_one_tricks(pos: Position, solver: Solver) -> dict[int, int]:
    """Return per legal card 1 if the declarer can still end with exactly one trick, else 2.

    Two stands for any failed count: an exactly-one nolo is scored as made or failed only.
    """
    tricks: dict[int, int] = {}
    mask = solver.legal_cards(pos)
    while mask:
        low = mask & -mask
        mask ^= low
        card = low.bit_length() - 1
        tricks[card] = 1 if solver.made(solver.play(pos, card)) else 2
    return tricks


def score_for(outcome: DealOutcome, side_tricks: int, world: World, seat: int) -> float:
    """Return the seat's score if the declarer's side ends with ``side_tricks`` tricks.

    The declarer is credited with them all and the first defender with the rest: number
    contracts are scored on the side's total, nolo contracts on the declarer's own count.
    """
    declarer = outcome.declarer
    tricks = [0, 0, 0, 0]
    tricks[declarer] = side_tricks
    side = {declarer} if outcome.partner is None else {declarer, outcome.partner}
    defender = next(s for s in range(4) if s not in side)
    tricks[defender] = 13 - side_tricks
    final = replace(outcome, tricks=(tricks[0], tricks[1], tricks[2], tricks[3]))
    return float(score_deal(final, world.rules)[seat])


__all__ = ["Ending", "SolverGaveUpError", "card_scores", "new_ending", "score_for", "solvable"]
