"""A search player: ``StrongBot`` chooses by the expected score over sampled worlds (PIMC).

For a decision with more than one legal action the bot deals ``worlds`` worlds the seat
cannot tell from the real deal (``sampling``), plays each candidate action in each
world and lets four heuristic players finish the deal, and scores it for its seat
under the rule set's own scoring. Every candidate meets the same worlds and the same
roll-out players (common random numbers). It plays the heuristic's own choice unless
another action gains on it world by world by more than ``CONFIDENCE`` standard errors:
with a dozen worlds the plain best mean is mostly noise.

In endings (``endgame``: the whole play with the compiled solver, 5 tricks left
without) each card is instead valued in each world by the double-dummy solver, the
declarer's tricks with best play turned into the seat's score (``solver_weight`` blends
it with the roll-out); a world where the solver gives up is skipped (rolled out only
when no world is solved). When every world counted was solved and at most
``MEAN_TRICKS`` tricks are left, the card with the best mean is played (PIMC on exact
values; the heuristic's choice among equals); with more tricks left the worlds are rough
guesses, so the same ``CONFIDENCE`` rule as for roll-outs applies (decision 114).
Where a roll-out is played, it ends double dummy as soon as the ending is small enough
(``Ending.rollout_tricks``): the solver scores the rest of the deal.

In the auction (with ``search_auction``) the candidates are the heuristic's own call,
passing, holding or joining, and the heuristic's best-valued legal bids; each is played
out in every world by heuristic players, the rest of the auction included. The
roll-outs play with imperfect information like people until the solver can finish the
deal; what bias their prices have (without inference the worlds ignore the others'
calls, the roll-outs do not play as this bot does, the last tricks are played double
dummy) is measured against actual results by ``esmakker.sim.auction_calibration`` and corrected
per kind of call (``auction_bias``). Without ``search_auction`` the heuristic bids.

With ``inference`` the worlds are not dealt uniformly but drawn by importance
resampling: ``POOL_FACTOR`` times as many deals are weighed by the likelihood of the
others' calls and cards given their hands (``inference``: the heuristic's own bidding
prices, its trump choice, its ducks and discards, all made soft) and the worlds are
drawn in proportion to it (``sampling.sample_weighted``).

With ``chain`` the worlds come from Metropolis chains over swaps of unseen cards that
prefer worlds where the others played the cards a heuristic player would have played
with the hands the world gives them (``sampling.sample_chain``: several chains from
independent starts; ``chain_reads`` says which of their choices count). The chain's
worlds are correlated, which the ``CONFIDENCE`` rule does not allow for, so by default
it deals the worlds only from ``MEAN_TRICKS`` tricks left in the endings the solver
values (``chain_tricks`` sets another depth); before that they are dealt uniformly. It
may spend ``CHAIN_SHARE`` of the budget. The chain is on by default: it lost a fifth
fewer tricks than uniform worlds (decision 111), restarted chains a fifth fewer again
(decision 115). Each seat's chains go on from where they ended at its last decision
(``sampling.ChainMemory``, decision 117), so through a deal they run ever longer. A
decision the chain deals searches ``CHAIN_WORLDS_FACTOR`` times as many worlds, each
distinct one solved once (decision 130).

At a lead of a number contract with at least ``LEARNED_TRICKS`` tricks left the card
the search must beat is not the heuristic's but the lead model's (``lead_model``: trees
learned from the double-dummy cost of every legal card at such leads; decision 136): the
search there values too few worlds to improve on a rule (decision 135). The cards played
to the first three tricks start likewise from the follow model's (``follow_model``, learned
the same way from the cards played to a trick; decision 137).

Where the solver values whole deals the first two tricks are not searched (``SEARCH_TRICKS``:
the one or two worlds valued there changed no trick lost on the positions measured), and the decision at which the chain
starts, its chains fresh, has ``FIRST_CHAIN_FACTOR`` times the budget and
``FIRST_CHAIN_WORLDS`` times the worlds: with the second alone it lost more there than any
other decision of the endings (decision 141).

The search is deterministic for a given generator and solver; ``budget_s`` only cuts it
short (fewer worlds) when another world would end past it. The compiled solver is taken
once ``endgame.warm_up`` has compiled it, so the first seconds of a process may play by
the plain one.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from esmakker.bots import endgame
from esmakker.bots.auction_bias import correction
from esmakker.bots.endgame import (
    Ending,
    SolverGaveUpError,
    capped_card_scores,
    new_ending,
    position_score,
    solvable,
    warm_up,
)
from esmakker.bots.follow_model import FollowModel
from esmakker.bots.follow_model import default_model as default_follow_model
from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.inference import Inference
from esmakker.bots.knowledge import Knowledge
from esmakker.bots.lead_model import LeadModel
from esmakker.bots.lead_model import default_model as default_lead_model
from esmakker.bots.sampling import (
    ChainMemory,
    SamplingError,
    World,
    has_reads,
    sample_chain,
    sample_weighted,
    sample_world,
)
from esmakker.core.actions import Action, Bid, Discard, Play
from esmakker.core.cards import Card
from esmakker.core.phase import Phase
from esmakker.core.view import PlayerView, observe

DEFAULT_WORLDS = 24
DEFAULT_BUDGET_S = 1.0
CONFIDENCE = 1.0
"""Standard errors by which a searched action must beat the heuristic's to replace it."""
SOLVER_WEIGHT = 1.0
"""The solver's share of an ending's score in a world, the heuristic roll-out's the rest."""
AUCTION_BIDS = 3
"""How many of the heuristic's best-valued legal bids the auction search tries."""
POOL_FACTOR = 3
"""With inference, the worlds are drawn from this many times as many candidate deals."""
CHAIN_SHARE = 0.85
"""The share of the decision's budget the chain may take to make its worlds: each distinct
world is solved once, and solving the chain's endings takes little (decision 130)."""
CHAIN_WORLDS_FACTOR = 2
"""Where the chain deals the worlds, a decision searches this many times ``worlds`` of them:
its solved worlds are cheap, and more of them lost fewer tricks (decision 130)."""
CHAIN_READS: tuple[type, ...] = (Play, Discard)
"""The others' choices the chain reads (``sampling.sample_chain``): cards played and the
hidden cards a declarer laid away (decision 120)."""
TRICKS = 13
"""Tricks in a deal."""
LEARNED_TRICKS = 10
"""The lead model chooses the leads with at least this many tricks left (decision 136)."""
FOLLOW_MODEL_TRICKS = 10
"""The follow model chooses the cards played to a trick with at least this many tricks left
(decision 138; decision 137 had started it from eleven)."""
_GAVE_UP: list[float] = []
"""Marks an ending the solver gave up on among a decision's solved worlds."""
SEARCH_TRICKS = 11
"""Where the solver values whole deals, the play is searched with at most this many tricks
left; before, the default card is played: a search there values one or two worlds, which
changed no trick lost on the positions measured (decision 141)."""
FIRST_CHAIN_FACTOR = 3.0
"""The decision at which the chain starts dealing the worlds has this many times the budget:
its chains start afresh, where later ones go on from it."""
FIRST_CHAIN_WORLDS = 2
"""The decision at which the chain starts searches this many times the worlds of a chained one."""
FEWEST_MISSES = False
"""Whether a decision the chain deals values only its worlds with the fewest misses."""
MEAN_TRICKS = 9
"""With at most this many tricks left a fully solved search plays its best mean (decision 114).

Before that the worlds are guesses from a few cards played: the chain has little to read,
so they are dealt uniformly, and the heuristic's card stays unless another gains on it by
``CONFIDENCE`` standard errors, as for roll-outs."""


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


@dataclass(frozen=True, slots=True)
class Decision:
    """What the strong bot plays and the choices its search weighed (empty: not searched)."""

    action: Action
    choices: tuple[Choice, ...]
    """Every candidate with its mean score, best first; ``action`` need not be the first."""


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
        compiled_solver: bool | None = None,
        solver_weight: float = SOLVER_WEIGHT,
        inference: bool = False,
        chain: bool = True,
        lead_model: bool = True,
        follow_model: bool = True,
    ) -> None:
        """Search ``worlds`` worlds per decision, stopping early after ``budget_s`` seconds.

        With ``inference`` the worlds are weighted by what the others' calls and cards say
        about their hands (``inference``), drawn from ``POOL_FACTOR`` times as many deals.
        With ``chain`` (the default) the worlds of solved endings come from a Metropolis
        chain that prefers worlds where the others played the cards the heuristic would
        have played (``sampling.sample_chain``); ``inference`` takes precedence elsewhere.

        ``compiled_solver`` (default ``endgame.COMPILED``: where numba is installed) values
        deeper endings with the numba kernel once it is compiled (``endgame.warm_up``, in
        the background); until then the plain solver values the shallow ones.
        """
        if worlds < 1:
            raise ValueError(f"worlds must be at least 1, got {worlds}")
        self.rng = rng
        self.worlds = worlds
        self.budget_s = budget_s
        self.search_auction = search_auction
        self._heuristic = HeuristicBot(rng)
        self._want_compiled = compiled_solver
        self._ending = new_ending(compiled=compiled_solver)
        self.solver_weight = solver_weight
        self.inference = inference
        self.chain = chain
        self.chain_reads = CHAIN_READS
        self.lead_model: LeadModel | None = default_lead_model() if lead_model else None
        """The learned model of the early leads (decision 136); ``None``: the heuristic's."""
        self.follow_model: FollowModel | None = default_follow_model() if follow_model else None
        """The learned model of the early cards played to a trick (decision 137)."""
        self.chain_tricks: int | None = None
        """The chain deals the worlds from this many tricks left; ``None``: from ``MEAN_TRICKS``
        left in solved endings."""
        self._chain_memory: dict[int, ChainMemory] = {}
        """Per seat, where its chains ended at its last decision (``sample_chain``)."""

    def act(self, view: PlayerView) -> Action:
        """Return the heuristic's action unless the search shows a clearly better one.

        Few worlds give noisy means, and the best of several noisy means is biased upwards,
        so the bot leaves the heuristic's choice only for an action whose paired gain over
        it, world by world, is more than ``CONFIDENCE`` standard errors above zero. When
        the solver valued every world of an ending of at most ``MEAN_TRICKS`` tricks, the
        card with the best mean is played (the heuristic's choice among several such).
        """
        return self.decide(view).action

    def decide(self, view: PlayerView) -> Decision:
        """Return the action ``act`` plays with the searched choices behind it (none unsearched).

        The search is skipped where there is nothing to choose, in the auction unless
        ``search_auction``, and where no world can be dealt: the heuristic's action stands.
        """
        legal = view.legal_actions
        default = self._learned(view, self._heuristic.act(view))
        if len(legal) == 1 or not self._searched(view):
            return Decision(default, ())
        try:
            search = self._search(view, default)
        except SamplingError:  # a position the sampler cannot rebuild: play by the rules of thumb
            return Decision(default, ())
        scores = _corrected(view, search)
        choices = _ranked(search.candidates, scores)
        if search.solved is not None and TRICKS - len(view.tricks) <= MEAN_TRICKS:
            return Decision(_best_mean(search.candidates, search.solved, default), choices)
        return Decision(_confident_choice(search.candidates, scores, default), choices)

    def _searched(self, view: PlayerView) -> bool:
        """Return whether the decision is searched: the auction only with ``search_auction``,
        the play from ``SEARCH_TRICKS`` tricks left where the solver values it."""
        if view.phase is Phase.AUCTION:
            return self.search_auction
        if view.phase is not Phase.PLAY:
            return True
        left = TRICKS - len(view.tricks)
        return left <= SEARCH_TRICKS or left > self._current_ending().tricks

    def _learned(self, view: PlayerView, default: Action) -> Action:
        """Return the learned models' card for an early card of a number contract, else ``default``.

        The lead model (decision 136) and the follow model (decision 137) were learned on
        cards with at least ``LEARNED_TRICKS`` tricks left; the follow model plays from
        ``FOLLOW_MODEL_TRICKS`` left. Their card stands where the search finds none clearly
        better, as the heuristic's does.
        """
        contract = view.contract
        if (
            not isinstance(default, Play)
            or contract is None
            or contract.bid.is_nolo
            or TRICKS - len(view.tricks) < LEARNED_TRICKS
        ):
            return default
        legal = [int(a.card) for a in view.legal_actions if isinstance(a, Play)]
        if len(legal) < 2:
            return default
        if not view.trick:
            if self.lead_model is None:
                return default
            card = self.lead_model.lead(view, Knowledge.of(view), legal, int(default.card))
        else:
            if self.follow_model is None or TRICKS - len(view.tricks) < FOLLOW_MODEL_TRICKS:
                return default
            card = self.follow_model.follow(view, Knowledge.of(view), legal, int(default.card))
        return Play(Card(card))

    def claim_iron(self, view: PlayerView) -> bool:
        """Claim iron hand as the heuristic would."""
        return self._heuristic.claim_iron(view)

    def choices(self, view: PlayerView, *, corrected: bool = True) -> list[Choice]:
        """Return every candidate action with its mean score, best first (ties: first listed).

        The candidates are every legal action, in the auction the few worth searching;
        there the means include the calibrated corrections unless ``corrected`` is false.
        """
        search = self._search(view, self._learned(view, self._heuristic.act(view)))
        return list(
            _ranked(search.candidates, _corrected(view, search) if corrected else search.scores)
        )

    def _search(self, view: PlayerView, default: Action) -> Search:
        """Return the candidates with their scores in each world searched."""
        assert view.seat is not None
        candidates = self._candidates(view, default)
        scores: list[list[float]] = [[] for _ in candidates]
        solved_rows: list[list[float]] | None = [[] for _ in candidates]
        ending = self._current_ending()
        ending.solver.clear()  # its tables hold one deal's endings; keep memory flat
        begun = time.perf_counter()
        chained = self._chained(view, ending)
        budget, count = self._allowance(view, ending, chained)
        deadline = begun + budget
        worlds = self._worlds(view, chained, count, begun + budget * CHAIN_SHARE)
        known: dict[tuple[int, ...], list[float] | None] = {}
        start = time.perf_counter()
        for attempt in range(1, count + 1):
            world = next(worlds)
            seed = self.rng.getrandbits(64)
            try:
                solved = self._solved_once(world, view, candidates, ending, known)
            except SolverGaveUpError:
                if attempt < count and not _past(start, deadline, attempt):
                    continue  # skip the world: a hard ending is drawn as often as an easy one
                if scores[0]:
                    break
                solved = None  # not one world solved: roll this one out
            weight = 0.0 if solved is None else self.solver_weight
            for i, (row, action) in enumerate(zip(scores, candidates, strict=True)):
                score = 0.0
                if weight != 1:
                    score = (1 - weight) * _rollout(world, view, action, seed, ending)
                row.append(score + (weight * solved[i] if solved is not None else 0.0))
            if solved is None:
                solved_rows = None
            elif solved_rows is not None:
                for row, value in zip(solved_rows, solved, strict=True):
                    row.append(value)
            if _past(start, deadline, attempt):
                break
        return Search(candidates, scores, solved_rows)

    def _chained(self, view: PlayerView, ending: Ending) -> bool:
        """Return whether the chain deals this decision's worlds (``chain_tricks`` left or fewer)."""
        left = TRICKS - len(view.tricks)
        return self.chain and left <= self._chain_from(ending) and has_reads(view, self.chain_reads)

    def _allowance(self, view: PlayerView, ending: Ending, chained: bool) -> tuple[float, int]:
        """Return the decision's budget and the worlds it searches at most.

        A decision the chain deals searches ``CHAIN_WORLDS_FACTOR`` times the worlds; the
        one where the chain starts, with fresh chains, has ``FIRST_CHAIN_FACTOR`` times the
        budget and ``FIRST_CHAIN_WORLDS`` times those worlds again (decision 141).
        """
        if not chained:
            return self.budget_s, self.worlds
        count = self.worlds * CHAIN_WORLDS_FACTOR
        if TRICKS - len(view.tricks) == self._chain_from(ending):
            return self.budget_s * FIRST_CHAIN_FACTOR, count * FIRST_CHAIN_WORLDS
        return self.budget_s, count

    def _chain_from(self, ending: Ending) -> int:
        """Return the tricks left from which the chain deals the worlds."""
        if self.chain_tricks is not None:
            return self.chain_tricks
        return min(ending.tricks, MEAN_TRICKS)

    def _worlds(
        self, view: PlayerView, chained: bool, count: int, chain_deadline: float
    ) -> Iterator[World]:
        """Return the worlds for one decision: uniform, ``count`` from the chain, or by inference.

        The chain's worlds are made at once (by ``chain_deadline`` at the latest) and
        yielded again in turn if the search asks for more.
        """
        assert view.seat is not None
        if chained:
            found = sample_chain(
                view,
                self.rng,
                count,
                HeuristicBot(random.Random(0)).act,  # a fresh model: its price cache stays small
                reads=self.chain_reads,
                deadline=chain_deadline,
                memory=self._chain_memory.setdefault(int(view.seat), ChainMemory()),
                fewest_misses=FEWEST_MISSES,
            )
            return itertools.cycle(found)
        if self.inference:
            weigh = Inference.of(view)
            if not weigh.empty:
                pool = POOL_FACTOR * self.worlds
                return sample_weighted(view, self.rng, self.worlds, weigh.weight, pool=pool)
        return _uniform(view, self.rng)

    def _current_ending(self) -> Ending:
        """Return the ending solver, the compiled one as soon as it is ready."""
        want = endgame.COMPILED if self._want_compiled is None else self._want_compiled
        if want and not self._ending.solver.compiled and warm_up():
            self._ending = new_ending(compiled=True)
        return self._ending

    def _solved_once(
        self,
        world: World,
        view: PlayerView,
        candidates: tuple[Action, ...],
        ending: Ending,
        known: dict[tuple[int, ...], list[float] | None],
    ) -> list[float] | None:
        """Return ``_solved`` for the world, solving each set of hands once per decision.

        A chain keeps a world again where it stayed put, and its worlds are cycled when
        the search asks for more (decision 130): a repeat costs nothing and counts again.
        An ending the solver gave up on is given up again at once.

        Raises:
            SolverGaveUpError: if the solver gives up (or gave up) on the ending.
        """
        key = tuple(hand.mask for hand in world.hands)
        if key in known:
            values = known[key]
            if values is _GAVE_UP:
                raise SolverGaveUpError("this ending was given up on before")
            return values
        try:
            known[key] = self._solved(world, view, candidates, ending)
        except SolverGaveUpError:
            known[key] = _GAVE_UP
            raise
        return known[key]

    def _solved(
        self, world: World, view: PlayerView, candidates: tuple[Action, ...], ending: Ending
    ) -> list[float] | None:
        """Return each candidate's double-dummy score in an ending, else ``None``.

        Raises:
            SolverGaveUpError: if the solver gives up on the ending.
        """
        assert view.seat is not None
        if not solvable(world, ending.tricks):
            return None
        if not all(isinstance(a, Play) for a in candidates):
            return None
        values = capped_card_scores(world, int(view.seat), ending)
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


def _ranked(candidates: tuple[Action, ...], scores: list[list[float]]) -> tuple[Choice, ...]:
    """Return every candidate with its mean score, best first (ties: first listed)."""
    means = [statistics.fmean(row) for row in scores]
    ranked = sorted(range(len(candidates)), key=lambda i: (-means[i], i))
    return tuple(Choice(candidates[i], means[i], len(scores[i])) for i in ranked)


def _confident_choice(
    candidates: tuple[Action, ...], scores: list[list[float]], default: Action
) -> Action:
    """Return the candidate that gains most on ``default`` by the ``CONFIDENCE`` rule, else it."""
    base = scores[candidates.index(default)]
    best, best_gain = default, 0.0
    for action, row in zip(candidates, scores, strict=True):
        gain = _confident_gain(row, base)
        if gain > best_gain:
            best, best_gain = action, gain
    return best


def _past(start: float, deadline: float, attempts: int) -> bool:
    """Return whether another world of the mean cost so far would end past the deadline."""
    now = time.perf_counter()
    return now + (now - start) / attempts > deadline


def _best_mean(
    candidates: tuple[Action, ...], solved: list[list[float]], default: Action
) -> Action:
    """Return the candidate with the best mean score: the default among equals, else the first."""
    means = [statistics.fmean(row) for row in solved]
    best = max(means)
    index = candidates.index(default)
    if means[index] >= best - 1e-9:
        return default
    return candidates[means.index(best)]


def _confident_gain(row: list[float], base: list[float]) -> float:
    """Return the mean paired gain of ``row`` over ``base`` if clearly above zero, else 0."""
    gains = [a - b for a, b in zip(row, base, strict=True)]
    if len(gains) < 2:
        return 0.0
    mean = statistics.fmean(gains)
    error = statistics.stdev(gains) / math.sqrt(len(gains))
    return mean if mean > CONFIDENCE * error and mean > 0 else 0.0


def _rollout(world: World, view: PlayerView, action: Action, seed: int, ending: Ending) -> float:
    """Return the seat's score after ``action`` in ``world`` and heuristic play to the end.

    Once at most ``ending.rollout_tricks`` tricks are left the solver scores the rest
    (best play by everyone); if it gives up, the heuristic players finish the deal.
    """
    seat = view.seat
    assert seat is not None
    state = world.apply(action, seat)
    players = _players(seed)
    solve = ending.rollout_tricks > 0
    while not state.is_terminal:
        if solve and solvable(state, ending.rollout_tricks):
            solve = False
            try:
                return _finished(state, int(seat), ending)
            except SolverGaveUpError:
                pass
        actor = state.to_act
        assert actor is not None
        state = state.apply(players[actor].act(observe(state, actor)), actor)
    result = state.result()
    assert result is not None
    return float(result.scores[seat])


def _finished(state: World, seat: int, ending: Ending) -> float:
    """Return the seat's score with best play from ``state``, within the roll-out's node cap."""
    solver = ending.solver
    limit = solver.node_limit
    solver.node_limit = ending.rollout_node_limit
    try:
        return position_score(state, seat, solver)
    finally:
        solver.node_limit = limit


def _uniform(view: PlayerView, rng: random.Random) -> Iterator[World]:
    while True:
        yield sample_world(view, rng)


def _players(seed: int) -> Sequence[HeuristicBot]:
    return [HeuristicBot(random.Random(f"{seed}/{s}")) for s in range(4)]
