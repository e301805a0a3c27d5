"""A search player: ``StrongBot`` chooses by the expected score over sampled worlds (PIMC).

For a decision with more than one legal action the bot deals ``worlds`` worlds the seat
cannot tell from the real deal (``sampling``), plays each candidate action in each
world and lets four heuristic players finish the deal, and takes the action with the
best mean score for its seat under the rule set's own scoring. Every candidate meets
the same worlds and the same roll-out players (common random numbers), so the
comparison is fair even with few worlds.

In the auction (with ``search_auction``) the candidates are the heuristic's own call,
passing, holding or joining, and the heuristic's best-valued legal bids; each is played
out in every world by heuristic players, the rest of the auction included. The
roll-outs play with imperfect information like people, so their scores carry no
perfect-information optimism to correct. Without ``search_auction`` the heuristic bids.

The search is deterministic for a given generator; ``budget_s`` only cuts it short
(fewer worlds) when a decision would take longer than that.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.sampling import World, sample_world
from esmakker.core.actions import Action, Bid
from esmakker.core.phase import Phase
from esmakker.core.view import PlayerView, observe

DEFAULT_WORLDS = 12
DEFAULT_BUDGET_S = 1.0
AUCTION_BIDS = 3
"""How many of the heuristic's best-valued legal bids the auction search tries."""


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
    ) -> None:
        """Search ``worlds`` worlds per decision, stopping early after ``budget_s`` seconds."""
        if worlds < 1:
            raise ValueError(f"worlds must be at least 1, got {worlds}")
        self.rng = rng
        self.worlds = worlds
        self.budget_s = budget_s
        self.search_auction = search_auction
        self._heuristic = HeuristicBot(rng)

    def act(self, view: PlayerView) -> Action:
        """Return the legal action with the best expected score (the heuristic's in the auction)."""
        legal = view.legal_actions
        if len(legal) == 1 or (view.phase is Phase.AUCTION and not self.search_auction):
            return self._heuristic.act(view)
        return self.choices(view)[0].action

    def claim_iron(self, view: PlayerView) -> bool:
        """Claim iron hand as the heuristic would."""
        return self._heuristic.claim_iron(view)

    def choices(self, view: PlayerView) -> list[Choice]:
        """Return every candidate action with its mean score, best first (ties: first listed).

        The candidates are every legal action, in the auction the few worth searching.
        """
        assert view.seat is not None
        legal = self._candidates(view)
        totals = [0.0] * len(legal)
        searched = 0
        deadline = time.perf_counter() + self.budget_s
        for _ in range(self.worlds):
            world = sample_world(view, self.rng)
            seed = self.rng.getrandbits(64)
            for index, action in enumerate(legal):
                totals[index] += _rollout(world, view, action, seed)
            searched += 1
            if time.perf_counter() > deadline:
                break
        ranked = sorted(range(len(legal)), key=lambda i: (-totals[i], i))
        return [Choice(legal[i], totals[i] / searched, searched) for i in ranked]

    def _candidates(self, view: PlayerView) -> tuple[Action, ...]:
        legal = view.legal_actions
        if view.phase is not Phase.AUCTION:
            return legal
        values = self._heuristic.bid_values(view.hand.mask, view.rules)
        bids = sorted((a for a in legal if isinstance(a, Bid)), key=lambda b: -values[b])
        others = [a for a in legal if not isinstance(a, Bid)]
        chosen = [self._heuristic.act(view), *others, *bids[:AUCTION_BIDS]]
        return tuple(dict.fromkeys(chosen))


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
