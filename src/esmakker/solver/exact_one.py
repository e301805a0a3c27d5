"""Nolo contracts that must take exactly one trick: can the declarer be sure of exactly one?

This is not a question of most or fewest tricks, so it searches the game itself: the
declarer wins when his count ends at one. At each trick start searches of the kernel cut
it short: once he has his trick, can he avoid every other; before, can the defenders force
two on him (lost), or can he not take one even when he tries (lost).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from esmakker.solver.position import Position

if TYPE_CHECKING:
    from esmakker.solver.solve import Solver


def can_take_exactly_one(solver: Solver, pos: Position) -> bool:
    """Return whether the declarer (``pos.side``) can end with exactly one trick."""
    memo: dict[tuple[int, ...], bool] = {}
    return _search(solver, pos, memo)


def _search(solver: Solver, pos: Position, memo: dict[tuple[int, ...], bool]) -> bool:
    need = 1 - pos.won
    if need < 0:
        return False
    if pos.left == 0:
        return need == 0
    side = pos.side
    others = 0b1111 & ~side
    if not pos.trick:
        if need == 0:
            return not solver.can_take(pos, 1, side=side, maximisers=others)
        key = (*pos.hands, pos.leader)
        if key in memo:
            return memo[key]
        if solver.can_take(pos, 2, side=side, maximisers=others) or not solver.can_take(
            pos, 1, side=side, maximisers=side
        ):
            memo[key] = False
            return False
    mine = side >> pos.to_act & 1
    result = not mine
    mask = solver.legal_cards(pos)
    while mask:
        low = mask & -mask
        mask ^= low
        ok = _search(solver, solver.play(pos, low.bit_length() - 1), memo)
        if ok == bool(mine):
            result = ok
            break
    if not pos.trick:
        memo[(*pos.hands, pos.leader)] = bool(result)
    return bool(result)
