"""Random deals, random play-outs and the whole action space, for the property tests.

Strategies pick a preset, a seed and overrides of the play options; the deal and
every random choice after it follow from the seed, so a failing example replays.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from hypothesis import strategies as st

from esmakker.core.actions import (
    ACCEPT,
    ATTACHMENT_KINDS,
    DECLINE,
    HOLD,
    IRON,
    JOIN,
    NOLO_KINDS,
    PASS,
    TAKE_ALL,
    TURN,
    Action,
    Bid,
    BidKind,
    CallCard,
    Discard,
    NameTrump,
    Play,
    Take,
)
from esmakker.core.cards import CARDS, CardSet, Suit
from esmakker.core.phase import Phase
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.rules import RuleSet
from esmakker.core.seats import SEATS, Seat
from esmakker.core.state import State, deal

PRESETS = st.sampled_from(PRESET_NAMES)
SEEDS = st.integers(0, 2**32 - 1)
PLAY_OPTIONS: dict[str, list[Any]] = {
    "first_lead": ["forehand", "declarer"],
    "no_joker_lead_trick1": [True, False],
    "unled_joker": ["powerless", "beats_plain"],
    "joker_only_when_void": [True, False],
    "after_joker_lead": ["free", "next_card_sets_suit"],
    "called_ace_forced_on_own_lead": [True, False],
    "called_ace_may_be_discarded": [True, False],
    "nolo_aces_low": [True, False],
}
PLAY_OVERRIDES = st.fixed_dictionaries(
    {}, optional={key: st.sampled_from(values) for key, values in PLAY_OPTIONS.items()}
)


def random_walk(state: State, rng: random.Random) -> Iterator[State]:
    """Yield ``state`` and every state after it in a random play-out.

    Where another seat may claim iron hand out of turn, it sometimes does.
    """
    style = auction_style(rng)
    yield state
    while not state.is_terminal:
        claimants = [s for s in SEATS if s is not state.to_act and state.legal_actions_of(s)]
        if claimants and rng.random() < 0.2:
            state = state.apply(IRON, rng.choice(claimants))
        else:
            state = state.apply(choose(state.legal_actions(), state.phase, rng, style))
        yield state


def auction_style(rng: random.Random) -> float | None:
    """Return how a walk bids: uniformly (``None``) or mostly early calls (a rate).

    Uniform bidding almost always climbs to 13 with an attachment, so most walks
    favour the first auction calls (pass, hold, join, the lowest bids) to reach
    every kind of contract, nolo contracts included.
    """
    return rng.choice((None, 0.3, 0.5))


def choose(
    legal: Sequence[Action], phase: Phase, rng: random.Random, style: float | None
) -> Action:
    """Return a random legal action; in the auction, with a ``style`` rate, mostly an early one."""
    if style is None or phase is not Phase.AUCTION:
        return rng.choice(legal)
    return legal[min(int(rng.expovariate(style)), len(legal) - 1)]


def random_deal(preset: str, seed: int, overrides: dict[str, Any] | None = None) -> State:
    """Return a new deal of a preset (with overrides) from a seed."""
    rng = random.Random(seed)
    return deal(RuleSet.from_preset(preset, overrides), Seat(seed % 4), rng)


def played(preset: str, seed: int, overrides: dict[str, Any] | None = None) -> State:
    """Return a deal played to its end with random legal actions."""
    walk = random_walk(random_deal(preset, seed, overrides), random.Random(f"walk {seed}"))
    return deque(walk, maxlen=1).pop()


def _action_space() -> tuple[Action, ...]:
    """Return every action of the notation: each verb, card, suit and bid."""
    actions: list[Action] = [PASS, HOLD, JOIN, IRON, TURN, ACCEPT, DECLINE, TAKE_ALL]
    actions += [NameTrump(suit) for suit in Suit]
    for card in CARDS:
        actions += [Play(card), Discard(card), CallCard(card), Take(CardSet([card]))]
    for level in range(7, 14):
        actions += [Bid(level, kind) for kind in (BidKind.PLAIN, *ATTACHMENT_KINDS)]
    actions += [Bid(None, kind) for kind in sorted(NOLO_KINDS)]
    return tuple(actions)


ACTION_SPACE = _action_space()
