"""Helpers of the solver tests: random bridge deals, DDS through endplay, a plain minimax."""

from __future__ import annotations

import random
from functools import cache

from endplay.dds import solve_board
from endplay.types import Deal, Denom, Player

from esmakker.core.phase import Phase
from esmakker.core.state import State
from esmakker.solver import kernel
from esmakker.solver.bridge import format_pbn
from esmakker.solver.position import Position, mask_to_internal
from esmakker.solver.solve import Solver

_DENOMS = {-1: Denom.nt, 0: Denom.clubs, 1: Denom.diamonds, 2: Denom.hearts, 3: Denom.spades}


def random_hands(rng: random.Random, size: int) -> tuple[int, int, int, int]:
    """Return four random hands of ``size`` cards from the 52 plain cards."""
    cards = list(range(52))
    rng.shuffle(cards)
    masks = [sum(1 << c for c in cards[size * s : size * s + size]) for s in range(4)]
    return masks[0], masks[1], masks[2], masks[3]


def dds_ns_tricks(hands: tuple[int, int, int, int], trump: int, leader: int) -> int:
    """Return DDS's tricks for North-South with ``leader`` on lead."""
    deal = Deal(format_pbn(hands))
    deal.first = Player(leader)
    deal.trump = _DENOMS[trump]
    best = max(tricks for _, tricks in solve_board(deal))
    return best if leader % 2 == 0 else hands[0].bit_count() - best


def dds_card_tricks(hands: tuple[int, int, int, int], trump: int, leader: int) -> dict[int, int]:
    """Return DDS's tricks for the side on lead after each card the leader may lead."""
    deal = Deal(format_pbn(hands))
    deal.first = Player(leader)
    deal.trump = _DENOMS[trump]
    values = {}
    for card, tricks in solve_board(deal):
        suit = 3 - int(card.suit)
        rank = int(card.rank).bit_length() - 1
        values[13 * suit + rank - 2] = tricks
    return values


@cache
def compiled_solver() -> Solver:
    """Return one shared solver on the compiled kernel (compiled once per test run)."""
    return Solver()


@cache
def pure_solver() -> Solver:
    """Return one shared solver on the plain-Python kernel."""
    return Solver(pure=True)


def side_tricks(state: State, side: int) -> int:
    """Return the tricks the seats of ``side`` have won so far."""
    return sum(state.won[seat] for seat in range(4) if side >> seat & 1)


def minimax(state: State, side: int, maximisers: int) -> int:
    """Return the side's tricks at the end with best play, by brute force over the engine."""
    if state.phase is not Phase.PLAY:
        return side_tricks(state, side)
    seat = state.to_act
    assert seat is not None
    values = [minimax(state.apply(action), side, maximisers) for action in state.legal_actions()]
    return max(values) if maximisers >> seat & 1 else min(values)


def kernel_minimax(solver: Solver, pos: Position) -> int:
    """Return the side's tricks at the end by a memoised plain minimax over the kernel's rules.

    No bounds, no table, no quick tricks: only ``legal_mask`` and ``winner``, which
    ``test_engine_rules`` checks against the engine. Fast enough for five-trick endings.
    """
    pure = Solver(pure=True)
    kern = pure.kernel
    cfg = [int(x) for x in pure._configure(pos, pos.side, pos.maximisers)]
    trump, flags = cfg[kernel.CFG_TRUMP], cfg[kernel.CFG_FLAGS]
    memo: dict[tuple[tuple[int, ...], tuple[int, ...], int], int] = {}

    def value(hands: tuple[int, ...], trick: tuple[int, ...], leader: int, trick_no: int) -> int:
        key = (hands, trick, leader)
        if not any(hands):
            return 0
        if key in memo:
            return memo[key]
        seat = (leader + len(trick)) & 3
        buffer = [0] * kernel.TRICK_SLOTS
        buffer[4 * trick_no : 4 * trick_no + len(trick)] = trick
        legal = kern.legal_mask(list(hands), seat, buffer, 4 * trick_no, len(trick), trick_no, cfg)
        values = []
        while legal:
            low = legal & -legal
            legal ^= low
            after = tuple(h & ~low if s == seat else h for s, h in enumerate(hands))
            played = (*trick, low.bit_length() - 1)
            if len(played) < 4:
                values.append(value(after, played, leader, trick_no))
                continue
            won = (leader + kern.winner([*played], 0, 4, trump, flags)) & 3
            values.append((pos.side >> won & 1) + value(after, (), won, trick_no + 1))
        best = max(values) if pos.maximisers >> seat & 1 else min(values)
        memo[key] = best
        return best

    hands = tuple(mask_to_internal(h, pos.aces_low) for h in pos.hands)
    trick = tuple(pos.internal(c) for c in pos.trick)
    return pos.won + value(hands, trick, pos.leader, pos.trick_no)
