"""Double-dummy endings: a seat's score for every card it may play in a sampled world.

Late in the play the exact solver answers in milliseconds. ``card_scores`` asks it, for
each legal card of the seat to play, how many tricks the declarer's side ends with when
everyone plays best afterwards, and turns that count into the seat's score as the rule
set scores a finished deal (``score_deal``): overtricks, undertricks and the made/failed
step of number contracts, made or failed for nolo contracts. The score is monotone in
the declarer's tricks (rising for a number contract, a step for nolo), so the best play
for tricks is the best play for the score; among cards of equal score the one that
keeps more tricks for the seat's side of the count scores ``TRICK_TIE`` more per trick.
``position_score`` values a position the same way (a roll-out that ends double dummy).

The numba-compiled kernel is used where numba is installed (``COMPILED``); its
recursive search compiles on its first call in a process (10 to 25 s), so ``warm_up``
compiles it in a background thread and ``new_ending`` hands out the plain-Python solver
and its shallower endings until that is done.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace

from esmakker.bots.sampling import World
from esmakker.core.cards import CARDS, Card
from esmakker.core.phase import Phase
from esmakker.core.scoring import DealOutcome, score_deal
from esmakker.solver.bridge import bridge_position, parse_pbn
from esmakker.solver.exact_one import can_take_exactly_one
from esmakker.solver.jit import HAVE_NUMBA
from esmakker.solver.position import EXACTLY_ONE, Position, from_state
from esmakker.solver.solve import Solver, SolverGaveUpError

DD_TRICKS = 5
"""The solver evaluates a card when at most this many tricks are left (the current one too)."""
DD_TRICKS_COMPILED = 13
"""The same with the numba-compiled kernel, about fifty times faster: every trick (decisions
112 and 114)."""
NODE_LIMIT = 5_000
"""Nodes one call of the plain-Python solver may search before the world is rolled out."""
NODE_LIMIT_COMPILED = 2_000_000
"""The same for the compiled kernel."""
WORLD_NODE_LIMIT_COMPILED = 6_000_000
"""Nodes the compiled solver may search for all the cards of one world together (decision
122): a lead's dozen searches, each under ``NODE_LIMIT_COMPILED``, could otherwise take
several seconds in one hard world (about 3 million nodes a second)."""
ROLLOUT_TRICKS = 0
"""Plain solver: a roll-out is finished double dummy from this many tricks left (0: never)."""
ROLLOUT_TRICKS_COMPILED = 9
"""The same for the compiled kernel."""
ROLLOUT_NODE_LIMIT_COMPILED = 100_000
"""Nodes the compiled solver may search to finish one roll-out; past them it plays on."""
TRICK_TIE = 0.001
"""Points per trick for the seat's side of the count: breaks ties between equal scores."""

COMPILED = HAVE_NUMBA
"""Whether ``new_ending`` uses the compiled kernel by default (tests switch it off)."""


@dataclass(frozen=True, slots=True)
class Ending:
    """A solver for endings, the tricks left from which it values cards, and from which
    a roll-out is finished by it (0: never)."""

    solver: Solver
    tricks: int
    rollout_tricks: int = 0
    rollout_node_limit: int | None = None
    world_node_limit: int | None = None
    """Nodes ``capped_card_scores`` may search for one world's cards together; ``None``: no cap."""


_compiled_ready = threading.Event()
_warm_up_lock = threading.Lock()
_warm_up_started = False


def warm_up(*, wait: bool = False) -> bool:
    """Start compiling the kernel in a background thread (once); return whether it is done.

    With ``wait`` the call blocks until the kernel is compiled. Without numba, ``False``.
    """
    global _warm_up_started
    if not HAVE_NUMBA:
        return False
    with _warm_up_lock:
        if not _warm_up_started:
            _warm_up_started = True
            threading.Thread(target=_compile, name="esmakker-solver-warm-up", daemon=True).start()
    if wait:
        _compiled_ready.wait()
    return _compiled_ready.is_set()


def solver_state() -> str:
    """Return ``"compiled"`` once the kernel is compiled, ``"compiling"`` while it is,
    else ``"plain"`` (no numba, or the compile not started: searches run in plain Python).
    """
    if _compiled_ready.is_set():
        return "compiled"
    return "compiling" if _warm_up_started else "plain"


def prepare() -> None:
    """Start compiling the kernel now where the compiled ending is wanted.

    A server or a table calls it at start, so that its first hint is searched on the
    compiled kernel rather than on the plain one while the kernel compiles.
    """
    if COMPILED:
        warm_up()


def _compile() -> None:
    """Solve a one-card deal on the compiled kernel: numba compiles each entry point."""
    pos = bridge_position(parse_pbn("N:A... K... Q... J..."), trump=-1, leader=0)
    solver = Solver(table_bits=4)
    solver.card_values(pos)
    solver.made(replace(pos, target=1))
    _compiled_ready.set()


def new_ending(*, compiled: bool | None = None) -> Ending:
    """Return an ending solver, capped in nodes per call.

    ``compiled`` (default ``COMPILED``) asks for the compiled kernel: once ``warm_up``
    has compiled it (this call starts that), else the plain one for now.
    """
    want = COMPILED if compiled is None else compiled
    if want and warm_up():
        return Ending(
            Solver(table_bits=16, node_limit=NODE_LIMIT_COMPILED),
            DD_TRICKS_COMPILED,
            ROLLOUT_TRICKS_COMPILED,
            ROLLOUT_NODE_LIMIT_COMPILED,
            WORLD_NODE_LIMIT_COMPILED,
        )
    return Ending(
        Solver(pure=True, table_bits=14, node_limit=NODE_LIMIT), DD_TRICKS, ROLLOUT_TRICKS
    )


def tricks_left(world: World) -> int:
    """Return the tricks still to finish, the trick in progress included."""
    engine = world.engine
    return (sum(hand.bit_count() for hand in engine.hands) + len(engine.trick)) // 4


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
    return tricks_left(world) <= tricks


def card_scores(world: World, seat: int, solver: Solver) -> dict[Card, float]:
    """Return the seat's final score for each legal card of the seat to play, with best play.

    Plus ``TRICK_TIE`` per trick the seat's side of the count keeps (see the module text).

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
    return {
        CARDS[card]: _tricks_score(outcome, count, world, pos, seat)
        for card, count in tricks.items()
    }


def capped_card_scores(world: World, seat: int, ending: Ending) -> dict[Card, float]:
    """Return ``card_scores`` by the ending's solver within its ``world_node_limit``.

    Raises:
        SolverGaveUpError: if one search passes the solver's node limit, or all of them
            together the ending's limit for a world.
    """
    solver = ending.solver
    if ending.world_node_limit is not None:
        solver.node_budget = solver.nodes + ending.world_node_limit
    try:
        return card_scores(world, seat, solver)
    finally:
        solver.node_budget = None


def position_score(world: World, seat: int, solver: Solver) -> float:
    """Return the seat's final score in ``world`` (in the play) with best play from here.

    Scored as ``card_scores`` scores a card, whoever is to play.

    Raises:
        SolverGaveUpError: if the search passes the solver's node limit.
    """
    pos = from_state(world)
    outcome = world.engine.deal_outcome()
    if pos.objective == EXACTLY_ONE:
        count = 1 if can_take_exactly_one(solver, pos) else 2
    else:
        count = pos.won if pos.left == 0 else solver.value(pos)
    return _tricks_score(outcome, count, world, pos, seat)


def _tricks_score(
    outcome: DealOutcome, count: int, world: World, pos: Position, seat: int
) -> float:
    """Return ``score_for`` plus the tie-break for the side of the count the seat is on."""
    score = score_for(outcome, count, world, seat)
    if pos.objective == EXACTLY_ONE:
        return score
    sign = 1 if pos.maximisers >> seat & 1 else -1
    return score + sign * TRICK_TIE * count


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


__all__ = [
    "Ending",
    "SolverGaveUpError",
    "capped_card_scores",
    "card_scores",
    "new_ending",
    "position_score",
    "score_for",
    "solvable",
    "tricks_left",
    "warm_up",
]
