"""Double-dummy loss of a played hand: the tricks each seat's cards gave away, the bid's regret.

The definitions (decisions 82 to 85, ``docs/decisions.md``):

* **Tricks lost by a card.** Let ``v`` be the declarer's side's tricks at the end with
  best play by everyone (the analysis's count, ``docs/analysis.md``) before the card and
  ``v'`` after it. A player who wants the side to take tricks (the declarer's side in a
  number contract, the defenders in nolo) loses ``v - v'``; one who wants few loses
  ``v' - v``; a best card loses 0, never less. In a nolo that must take exactly one
  trick (``exactly_1``) the unit is the result: a card loses 1 when it turns the
  double-dummy "made" into "failed" for its side, else 0.
* **Searching backwards with one node allowance per card.** The value after the last
  card is known (or solved); from there each earlier value is found by null-window probes
  around the next one (a card costs nothing in most positions, one probe shows it). Every
  card's probes share ``node_limit`` nodes; a card whose probes give up is not judged,
  and neither is any card before it (its value is the anchor of theirs). Skipped cards
  are counted, never guessed.
* **Bidding regret** (number contracts, every card judged): the declarer's points for the
  best contract the solver finds on these cards minus his points for the contract
  played at its double-dummy result from the opening lead (see ``bidding_regret``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

from esmakker.core.actions import Bid, BidKind, Play
from esmakker.core.phase import Phase
from esmakker.core.record import record_of
from esmakker.core.rules import RuleSet
from esmakker.core.scoring import DealOutcome, score_deal
from esmakker.core.state import State
from esmakker.solver.analysis import states_of
from esmakker.solver.exact_one import can_take_exactly_one
from esmakker.solver.position import EXACTLY_ONE, MAXIMISE, Position, from_state
from esmakker.solver.solve import Solver, SolverGaveUpError

DEFAULT_NODE_LIMIT = 1_000_000
"""Nodes the judgement of one card (or one strain of the best contract) may search."""

SOLVED, GAVE_UP, NOLO, NO_CONTRACT = "solved", "gave_up", "nolo", "no_contract"
"""The regret's status: computed, a search gave up (or a card was not judged), a nolo
contract (no regret), a redeal (no contract)."""

_SUIT_KINDS = {BidKind.GODE: 0, BidKind.STAERKE: 3, BidKind.SANS: -1}
"""Attachments that fix the trumps by themselves (``-1``: no trumps)."""


@dataclass(frozen=True, slots=True)
class PlayerLoss:
    """One player's cards in one played hand."""

    cards: int = 0
    solved: int = 0
    """Cards whose loss the solver found within the node allowance."""
    lost: int = 0
    """Tricks lost by the solved cards."""


@dataclass(frozen=True, slots=True)
class HandLoss:
    """The double-dummy figures of one played hand (one rotation of a deal).

    ``players`` and ``declarer`` are by seat (0-3) as ``hand_loss`` returns them, by bot
    index once ``reindexed`` to the bots of a duplicate rotation.
    """

    players: tuple[PlayerLoss, PlayerLoss, PlayerLoss, PlayerLoss]
    declarer: int | None
    regret: int | None
    """The declarer's bidding regret in points; ``None`` unless ``regret_status`` is solved."""
    regret_status: str

    def reindexed(self, order: Sequence[int]) -> HandLoss:
        """Return a copy whose player ``i`` is this one's ``order[i]``."""
        players = tuple(self.players[index] for index in order)
        declarer = None if self.declarer is None else list(order).index(self.declarer)
        return replace(
            self, players=(players[0], players[1], players[2], players[3]), declarer=declarer
        )


def hand_loss(state: State, node_limit: int = DEFAULT_NODE_LIMIT) -> HandLoss:
    """Return the double-dummy figures of a finished deal (a fresh solver, so deterministic)."""
    record = record_of(state, {})
    plays = [
        (before, int(step.action.card), int(step.seat))
        for before, step in zip(states_of(record), record.steps, strict=False)
        if before.phase is Phase.PLAY and isinstance(step.action, Play)
    ]
    if not plays:
        nobody = PlayerLoss()
        return HandLoss((nobody, nobody, nobody, nobody), None, None, NO_CONTRACT)
    solver = Solver()
    positions = [from_state(before) for before, _, _ in plays]
    values = judge_cards(solver, positions, [card for _, card, _ in plays], node_limit)
    players = [PlayerLoss()] * 4
    for (_, _, seat), cost in zip(plays, costs_of(positions, values), strict=True):
        old = players[seat]
        solved = cost is not None
        players[seat] = PlayerLoss(old.cards + 1, old.solved + solved, old.lost + (cost or 0))
    start = plays[0][0]
    regret, status = _regret(solver, start, positions[0], values[0], node_limit)
    four = (players[0], players[1], players[2], players[3])
    return HandLoss(four, start.engine.declarer, regret, status)


def judge_cards(
    solver: Solver, positions: Sequence[Position], cards: Sequence[int], node_limit: int
) -> list[int | None]:
    """Return the double-dummy value before each card and after the last (``None``: not found).

    ``positions[i]`` is the position before ``cards[i]`` is played. The values are the
    declarer's side's tricks at the end, or for ``exactly_1`` nolo 1 if the declarer can
    end with exactly one trick, else 0. Values are found from the last backwards; once a
    search gives up, the earlier ones stay ``None``.
    """
    after_last = solver.play(positions[-1], cards[-1])
    values: list[int | None] = [None] * (len(positions) + 1)
    try:
        value = _allowed(solver, node_limit, partial(_value, solver, after_last))
        values[-1] = value
        for index in range(len(positions) - 1, -1, -1):
            judge = partial(_value_before, solver, positions[index], value)
            value = _allowed(solver, node_limit, judge)
            values[index] = value
    except SolverGaveUpError:
        pass
    return values


def costs_of(positions: Sequence[Position], values: Sequence[int | None]) -> list[int | None]:
    """Return the loss of each card from the values around it (``None`` if one is missing)."""
    costs: list[int | None] = []
    for index, pos in enumerate(positions):
        before, after = values[index], values[index + 1]
        if before is None or after is None:
            costs.append(None)
        else:
            costs.append(before - after if _wants_high(pos) else after - before)
    return costs


def _allowed(solver: Solver, node_limit: int, compute: Callable[[], int]) -> int:
    """Run ``compute`` with ``node_limit`` more nodes for all its searches together.

    Raises:
        SolverGaveUpError: if its searches need more.
    """
    solver.node_limit = None
    solver.node_budget = solver.nodes + node_limit
    return compute()


def _wants_high(pos: Position) -> bool:
    """Return whether the player to act wants the value high."""
    if pos.objective == EXACTLY_ONE:
        return bool(pos.side >> pos.to_act & 1)
    return bool(pos.maximisers >> pos.to_act & 1)


def _value(solver: Solver, pos: Position) -> int:
    if pos.objective == EXACTLY_ONE:
        return int(can_take_exactly_one(solver, pos))
    return pos.won if pos.left == 0 else solver.value(pos)


def _value_before(solver: Solver, pos: Position, following: int) -> int:
    """Return the value of ``pos`` given the value ``following`` after the card played there."""
    if solver.legal_cards(pos).bit_count() == 1:
        return following  # a forced card: nothing to search
    if pos.objective == EXACTLY_ONE:
        return int(can_take_exactly_one(solver, pos))
    value = following
    if _wants_high(pos):
        while _reaches(solver, pos, value + 1):
            value += 1
    else:
        while not _reaches(solver, pos, value):
            value -= 1
    return value


def _reaches(solver: Solver, pos: Position, total: int) -> bool:
    """Return whether the side ends with at least ``total`` tricks with best play."""
    need = total - pos.won
    if need <= 0:
        return True
    if need > pos.left:
        return False
    return solver.can_take(pos, need, side=pos.side, maximisers=pos.maximisers)


# --- bidding regret --------------------------------------------------------------------------


def _regret(
    solver: Solver, start: State, opening: Position, par: int | None, node_limit: int
) -> tuple[int | None, str]:
    if opening.objective != MAXIMISE:
        return None, NOLO
    if par is None:
        return None, GAVE_UP
    outcome = start.engine.deal_outcome()
    try:
        return regret_of(solver, outcome, start.rules, opening, par, node_limit), SOLVED
    except SolverGaveUpError:
        return None, GAVE_UP


def regret_of(
    solver: Solver,
    outcome: DealOutcome,
    rules: RuleSet,
    opening: Position,
    par: int,
    node_limit: int,
) -> int:
    """Return ``bidding_regret`` searching each other trump only as far as it matters.

    ``par`` is the side's tricks in the contract played from ``opening``.

    Raises:
        SolverGaveUpError: if the searches of one trump need more than ``node_limit`` nodes.
    """
    tricks = {opening.trump: par}
    best = max(0, declarer_points(outcome, rules, outcome.bid, par))
    best = max(best, strain_points(outcome, rules, opening.trump, par))
    for trump in _strains(rules):
        if trump not in tricks:
            pos = replace(opening, trump=trump)
            found = partial(_tricks_if_better, solver, outcome, rules, pos, best)
            tricks[trump] = _allowed(solver, node_limit, found)
            best = max(best, strain_points(outcome, rules, trump, tricks[trump]))
    return bidding_regret(outcome, rules, opening.trump, tricks)


def _tricks_if_better(
    solver: Solver, outcome: DealOutcome, rules: RuleSet, pos: Position, best: int
) -> int:
    """Return the side's tricks in ``pos``'s trumps, or fewer if they cannot beat ``best``.

    Fewer means a count whose contracts score no more than ``best``: the regret is the
    same, and one null-window probe (often none) replaces the full search.
    """
    total = pos.won + pos.left
    need = next(
        (t for t in range(total + 1) if strain_points(outcome, rules, pos.trump, t) > best),
        None,
    )
    if need is None or not _reaches(solver, pos, need):
        return 0 if need is None else need - 1
    while need < total and _reaches(solver, pos, need + 1):
        need += 1
    return need


def _strains(rules: RuleSet) -> list[int]:
    """Return the trumps (``-1``: none) some contract of ``candidates`` plays in."""
    return sorted({trump for _, trump in candidates(rules)}, reverse=True)


def candidates(rules: RuleSet) -> list[tuple[BidKind, int]]:
    """Return the bid kinds whose trumps the declarer chooses, each with a trump it can have.

    Plain: the four suits (clubs only with ``plain_clubs_allowed``) and no trumps with
    ``plain_no_trump_allowed``; gode: clubs; stærke: spades; sans: no trumps (each where
    the rules have that attachment). Vip and halve leave the trumps to the kitty or the
    partner, so they are not candidates (the contract played always is).
    """
    suits = [3, 2, 1] + [0] * rules.plain_clubs_allowed + [-1] * rules.plain_no_trump_allowed
    found = [(BidKind.PLAIN, trump) for trump in suits]
    for kind, trump in _SUIT_KINDS.items():
        if kind.value in rules.attachments:
            found.append((kind, trump))
    return found


def declarer_points(outcome: DealOutcome, rules: RuleSet, bid: Bid, side_tricks: int) -> int:
    """Return the declarer's score for ``bid`` when his side takes ``side_tricks`` tricks."""
    tricks = [0, 0, 0, 0]
    tricks[outcome.declarer] = side_tricks
    scored = replace(outcome, bid=bid, tricks=(tricks[0], tricks[1], tricks[2], tricks[3]))
    return score_deal(scored, rules)[outcome.declarer]


def strain_points(outcome: DealOutcome, rules: RuleSet, trump: int, side_tricks: int) -> int:
    """Return the most points any ``candidates`` contract in ``trump`` scores with those tricks.

    Minus infinity in effect (``-10**9``) when no candidate plays in ``trump``.
    """
    points = [
        declarer_points(outcome, rules, Bid(level, kind), side_tricks)
        for kind, kind_trump in candidates(rules)
        if kind_trump == trump
        for level in range(rules.min_bid, 14)
    ]
    return max(points, default=-(10**9))


def bidding_regret(outcome: DealOutcome, rules: RuleSet, trump: int, tricks: dict[int, int]) -> int:
    """Return the best contract's points minus the played contract's, both double dummy.

    ``outcome`` describes the contract played (bid, declarer, partner, vip turns) and
    ``trump`` its trumps; ``tricks`` maps each trump (``-1``: none) to the side's tricks with best play from the
    opening lead (same hands, partner, called card and leader; decision 77). The best
    contract is the most points for the declarer among: no contract (0, as if all had
    passed), every level from ``min_bid`` to 13 of every ``candidates`` kind in its trump,
    and the contract played. So the regret is never negative, and 0 when the contract
    played is the best.
    """
    played = declarer_points(outcome, rules, outcome.bid, tricks[trump])
    best = max(0, played)
    for strain in _strains(rules):
        best = max(best, strain_points(outcome, rules, strain, tricks[strain]))
    return best - played
