"""A search player: ``StrongBot`` chooses by the expected score over sampled worlds (PIMC).

For a decision with more than one legal action the bot deals ``worlds`` worlds the seat
cannot tell from the real deal (``sampling``), plays each candidate action in each
world and lets four heuristic players finish the deal, and scores it for its seat
under the rule set's own scoring. Every candidate meets the same worlds and the same
roll-out players (common random numbers). It plays the heuristic's own choice unless
another action gains on it world by world by more than ``CONFIDENCE`` standard errors:
with a dozen worlds the plain best mean is mostly noise.

In endings (``endgame``: a few tricks left) each card is instead valued in each world by
the double-dummy solver, the declarer's tricks with best play turned into the seat's
score (``solver_weight`` blends it with the roll-out); a world where the solver gives up
is rolled out. When every world was solved, a card the solver scores best in every world
and better in some is played at once; otherwise the ``CONFIDENCE`` rule decides.

In the auction (with ``search_auction``) the candidates are the heuristic's own call,
passing, holding or joining, and the heuristic's best-valued legal bids; each is played
out in every world by heuristic players, the rest of the auction included. The
roll-outs play with imperfect information like people, so their scores carry no
perfect-information optimism; what bias they have (the worlds ignore what the others'
calls show, the roll-outs do not play as this bot does) is measured against actual
results by ``esmakker.sim.auction_calibration`` and corrected per kind of call
(``auction_bias``). Without ``search_auction`` the heuristic bids.

The search is deterministic for a given generator; ``budget_s`` only cuts it short
(fewer worlds) when a decision would take longer than that.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass

from esmakker.bots.auction_bias import correction
from esmakker.bots.endgame import SolverGaveUpError, card_scores, new_ending, solvable
from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.sampling import SamplingError, World, sample_world
from esmakker.core.actions import Action, Bid, Play
from esmakker.core.phase import Phase
from esmakker.core.view import PlayerView, observe

DEFAULT_WORLDS = 12
DEFAULT_BUDGET_S = 1.0
CONFIDENCE = 1.0
"""Standard errors by which a searched action must beat the heuristic's to replace it."""
SOLVER_WEIGHT = 1.0
"""The solver's share of an ending's score in a world, the heuristic roll-out's the rest."""
AUCTION_BIDS = 3
"""How many of the heuristic's best-valued legal bids the auction search tries."""


@dataclass(frozen=True, slots=True)
class Search:
    """The candidates of one decision and their scores, one per world searched."""

    candidates: tuple[Action, ...]
    scores: list[list[float]]
    """Per candidate, its score in each world (the solver's and the roll-out's blend)."""
    solved: list[list[float]] | None
    """Per candidate, the solver's score in each world; ``None`` unless every world was solved."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One candidate action with its mean score over the worlds searched."""

    action: Action
    mean_score: float
    worlds: int


class StrongBot:
    """Search over sampled worlds with heuristic roll-outs; the heuristic bids."""

    name = "strong"

    def __init__(
        self,
        rng: random.Random,
        *,
        worlds: int = DEFAULT_WORLDS,
        budget_s: float = DEFAULT_BUDGET_S,
        search_auction: bool = False,
        compiled_solver: bool = False,
        solver_weight: float = SOLVER_WEIGHT,
    ) -> None:
        """Search ``worlds`` worlds per decision, stopping early after ``budget_s`` seconds.

        ``compiled_solver`` values endings with the numba kernel (deeper endings, but its
        first use in a process compiles it for some twenty seconds).
        """
        if worlds < 1:
            raise ValueError(f"worlds must be at least 1, got {worlds}")
        self.rng = rng
        self.worlds = worlds
        self.budget_s = budget_s
        self.search_auction = search_auction
        self._heuristic = HeuristicBot(rng)
        self._ending = new_ending(compiled=compiled_solver)
        self.solver_weight = solver_weight

    def act(self, view: PlayerView) -> Action:
        """Return the heuristic's action unless the search shows a clearly better one.

        Few worlds give noisy means, and the best of several noisy means is biased upwards,
        so the bot leaves the heuristic's choice only for an action whose paired gain over
        it, world by world, is more than ``CONFIDENCE`` standard errors above zero. When
        the solver valued every world, a card it scores best in every world and better
        in some is played first (the heuristic's choice among several such).
        """
        legal = view.legal_actions
        default = self._heuristic.act(view)
        if len(legal) == 1 or (view.phase is Phase.AUCTION and not self.search_auction):
            return default
        try:
            search = self._search(view, default)
        except SamplingError:  # a position the sampler cannot rebuild: play by the rules of thumb
            return default
        candidates, scores = search.candidates, _corrected(view, search)
        if search.solved is not None:
            dominant = _dominant(candidates, search.solved, default)
            if dominant is not None:
                return dominant
        base = scores[candidates.index(default)]
        best, best_gain = default, 0.0
        for action, row in zip(candidates, scores, strict=True):
            gain = _confident_gain(row, base)
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def claim_iron(self, view: PlayerView) -> bool:
        """Claim iron hand as the heuristic would."""
        return self._heuristic.claim_iron(view)

    def choices(self, view: PlayerView, *, corrected: bool = True) -> list[Choice]:
        """Return every candidate action with its mean score, best first (ties: first listed).

        The candidates are every legal action, in the auction the few worth searching;
        there the means include the calibrated corrections unless ``corrected`` is false.
        """
        search = self._search(view, self._heuristic.act(view))
        candidates = search.candidates
        scores = _corrected(view, search) if corrected else search.scores
        means = [statistics.fmean(row) for row in scores]
        ranked = sorted(range(len(candidates)), key=lambda i: (-means[i], i))
        return [Choice(candidates[i], means[i], len(scores[i])) for i in ranked]

    def _search(self, view: PlayerView, default: Action) -> Search:
        """Return the candidates with their scores in each world searched."""
        assert view.seat is not None
        candidates = self._candidates(view, default)
        scores: list[list[float]] = [[] for _ in candidates]
        solved_rows: list[list[float]] | None = [[] for _ in candidates]
        self._ending.solver.clear()  # its tables hold one deal's endings; keep memory flat
        deadline = time.perf_counter() + self.budget_s
        for _ in range(self.worlds):
            world = sample_world(view, self.rng)
            seed = self.rng.getrandbits(64)
            solved = self._solved(world, view, candidates)
            weight = 0.0 if solved is None else self.solver_weight
            for i, (row, action) in enumerate(zip(scores, candidates, strict=True)):
                score = 0.0 if weight == 1 else (1 - weight) * _rollout(world, view, action, seed)
                row.append(score + (weight * solved[i] if solved is not None else 0.0))
            if solved is None:
                solved_rows = None
            elif solved_rows is not None:
                for row, value in zip(solved_rows, solved, strict=True):
                    row.append(value)
            if time.perf_counter() > deadline:
                break
        return Search(candidates, scores, solved_rows)

    def _solved(
        self, world: World, view: PlayerView, candidates: tuple[Action, ...]
    ) -> list[float] | None:
        """Return each candidate's double-dummy score in an ending, else ``None``."""
        assert view.seat is not None
        if not solvable(world, self._ending.tricks):
            return None
        if not all(isinstance(a, Play) for a in candidates):
            return None
        try:
            values = card_scores(world, int(view.seat), self._ending.solver)
        except SolverGaveUpError:
            return None
        return [values[a.card] for a in candidates if isinstance(a, Play)]

    def _candidates(self, view: PlayerView, default: Action) -> tuple[Action, ...]:
        legal = view.legal_actions
        if view.phase is not Phase.AUCTION:
            return legal
        values = self._heuristic.bid_values(view.hand.mask, view.rules)
        bids = sorted((a for a in legal if isinstance(a, Bid)), key=lambda b: -values[b])
        others = [a for a in legal if not isinstance(a, Bid)]
        return tuple(dict.fromkeys([default, *others, *bids[:AUCTION_BIDS]]))


def _corrected(view: PlayerView, search: Search) -> list[list[float]]:
    """Return the search's scores, in the auction each shifted by its call's correction."""
    if view.phase is not Phase.AUCTION:
        return search.scores
    return [
        [score + correction(action) for score in row]
        for action, row in zip(search.candidates, search.scores, strict=True)
    ]


def _dominant(
    candidates: tuple[Action, ...], solved: list[list[float]], default: Action
) -> Action | None:
    """Return a candidate scored best in every world and better than another in some.

    The default (the heuristic's choice) when it is such a candidate; ``None`` when none is.
    """
    worlds = range(len(solved[0]))
    best = [max(row[w] for row in solved) for w in worlds]
    dominant = [
        i
        for i, row in enumerate(solved)
        if all(row[w] == best[w] for w in worlds)
        and any(other[w] < row[w] for other in solved for w in worlds)
    ]
    if not dominant:
        return None
    index = candidates.index(default)
    return default if index in dominant else candidates[dominant[0]]


def _confident_gain(row: list[float], base: list[float]) -> float:
    """Return the mean paired gain of ``row`` over ``base`` if clearly above zero, else 0."""
    gains = [a - b for a, b in zip(row, base, strict=True)]
    if len(gains) < 2:
        return 0.0
    mean = statistics.fmean(gains)
    error = statistics.stdev(gains) / math.sqrt(len(gains))
    return mean if mean > CONFIDENCE * error and mean > 0 else 0.0


def _rollout(world: World, view: PlayerView, action: Action, seed: int) -> float:
    """Return the seat's score after ``action`` in ``world`` and heuristic play to the end."""
    seat = view.seat
    assert seat is not None
    state = world.apply(action, seat)
    players = _players(seed)
    while not state.is_terminal:
        actor = state.to_act
        assert actor is not None
        state = state.apply(players[actor].act(observe(state, actor)), actor)
    result = state.result()
    assert result is not None
    return float(result.scores[seat])


def _players(seed: int) -> Sequence[HeuristicBot]:
    return [HeuristicBot(random.Random(f"{seed}/{s}")) for s in range(4)]
