"""The public solver: a position's value for the declarer's side and every legal card's."""

from __future__ import annotations

from typing import Any

from esmakker.solver import kernel as k
from esmakker.solver.backend import fill, int_array, kernel_module
from esmakker.solver.jit import HAVE_NUMBA
from esmakker.solver.position import (
    EXACTLY_ONE,
    MAXIMISE,
    Position,
    mask_to_external,
    mask_to_internal,
    to_external,
)


class SolverGaveUpError(RuntimeError):
    """The search went past its node budget (``Solver(node_limit=...)``); no answer."""


NO_LIMIT = 2**62
SPARE_TABLES = 2
"""Cleared tables a solver keeps for its next ones: making a table afresh costs more than
many a small deal's search (the pages of 18 MB are touched anew), emptying one costs little."""


class Solver:
    """Solves positions double dummy; keeps its transposition table between calls.

    A table is valid for one set of rules, trumps and sides; the solver keeps one per set. ``pure=True`` runs the plain-Python kernel even
    where numba is installed (the same algorithm, slower: for small endings and tests).
    With ``node_limit`` a call that searches more nodes raises ``SolverGaveUpError`` (the hard
    cap for the rare slow deal: callers fall back, e.g. to a heuristic or "unknown");
    ``node_budget`` caps the nodes of all calls together (later calls then give up at once).
    """

    def __init__(
        self,
        *,
        pure: bool = False,
        table_bits: int | None = None,
        node_limit: int | None = None,
        node_budget: int | None = None,
    ) -> None:
        self.compiled = HAVE_NUMBA and not pure
        self.kernel = kernel_module(pure)
        bits = table_bits if table_bits is not None else (18 if self.compiled else 14)
        self._size = max(1 << bits, k.TT_WAYS)  # at least one whole bucket
        self._stats = int_array(k.STATS_SIZE, 0, self.compiled)
        self.node_limit = node_limit
        """Nodes one call may search before it gives up (``SolverGaveUpError``); ``None``: no cap."""
        self.node_budget = node_budget
        """Nodes all calls together may search; ``None``: no cap."""
        self._tables: dict[tuple[int, ...], tuple[Any, Any, Any]] = {}
        self._spare: list[tuple[Any, Any]] = []
        self._config: tuple[int, ...] | None = None
        self._cfg: Any = None
        self._tags: Any = None
        self._body: Any = None

    @property
    def nodes(self) -> int:
        """Return the nodes searched since this solver was made."""
        return int(self._stats[0])

    def _configure(self, pos: Position, side: int, maximisers: int) -> Any:
        called = -1 if pos.called < 0 else pos.internal(pos.called)
        config = (
            pos.trump, pos.flags, called, pos.duty_holder, side, maximisers,
            self._size // k.TT_WAYS - 1,
        )  # fmt: skip
        if config != self._config:
            if config not in self._tables:
                cfg = int_array(k.CFG_SIZE, 0, self.compiled)
                for i, value in enumerate(config):
                    cfg[i] = value
                self._tables[config] = (cfg, *self._new_table())
            self._config = config
            self._cfg, self._tags, self._body = self._tables[config]
        return self._cfg

    def _new_table(self) -> tuple[Any, Any]:
        """Return an empty table's tags and bodies: a cleared one's where kept, else new."""
        if self._spare:
            tags, body = self._spare.pop()
            fill(tags, -1)  # a free tag ends a bucket's scan; no body is read behind it
            return tags, body
        tags = int_array(self._size, -1, self.compiled)
        return tags, int_array(k.TT_BODY * self._size, 0, self.compiled)

    def clear(self) -> None:
        """Forget every table and the killer leads: the next call searches as a new solver's.

        Tables hold only exact facts and killers only order moves, so answers stay the same.
        """
        for _, tags, body in self._tables.values():
            if len(self._spare) < SPARE_TABLES:
                self._spare.append((tags, body))
        self._tables.clear()
        self._config = None
        for slot in range(k.STATS_KILLER, k.STATS_SIZE):
            self._stats[slot] = 0

    def _arrays(self, pos: Position) -> tuple[Any, Any]:
        hands = int_array(4, 0, self.compiled)
        for seat in range(4):
            hands[seat] = mask_to_internal(pos.hands[seat], pos.aces_low)
        trick = int_array(k.TRICK_SLOTS, 0, self.compiled)
        for i, card in enumerate(pos.trick):
            trick[4 * pos.trick_no + i] = pos.internal(card)
        return hands, trick

    def future(
        self,
        pos: Position,
        *,
        side: int | None = None,
        maximisers: int | None = None,
        guess: int | None = None,
    ) -> int:
        """Return the side's tricks from here on with best play (the ``won`` ones not counted).

        ``guess`` is where the search starts (any value gives the same answer; a near one
        is cheaper); by default an estimate from the cards.
        """
        side = pos.side if side is None else side
        maximisers = pos.maximisers if maximisers is None else maximisers
        if guess is None:
            guess = _guess(pos, side, maximisers)
        cfg = self._configure(pos, side, maximisers)
        hands, trick = self._arrays(pos)
        self._start_budget()
        value = int(
            self.kernel.solve_value(
                hands, trick, len(pos.trick), pos.leader, pos.trick_no, pos.left,
                guess, cfg, self._tags, self._body, self._stats,
            )
        )  # fmt: skip
        self._check_budget()
        return value

    def _start_budget(self) -> None:
        limit = NO_LIMIT if self.node_limit is None else int(self._stats[0]) + self.node_limit
        if self.node_budget is not None:
            limit = min(limit, self.node_budget)
        self._stats[1] = limit

    def _check_budget(self) -> None:
        if int(self._stats[0]) > int(self._stats[1]):
            self.clear()
            raise SolverGaveUpError(f"the search gave up after {self._stats[0]} nodes in all")

    def value(self, pos: Position) -> int:
        """Return the side's tricks at the end with best play by everyone.

        The side maximises them in a number contract and minimises them in nolo.
        """
        return pos.won + self.future(pos)

    def can_take(self, pos: Position, need: int, *, side: int, maximisers: int) -> bool:
        """Return whether ``maximisers`` can make ``side`` take ``need`` more tricks."""
        cfg = self._configure(pos, side, maximisers)
        hands, trick = self._arrays(pos)
        self._start_budget()
        result = bool(
            self.kernel.search_root(
                hands, trick, len(pos.trick), pos.leader, pos.trick_no, pos.left, need,
                cfg, self._tags, self._body, self._stats,
            )
        )  # fmt: skip
        self._check_budget()
        return result

    def legal_cards(self, pos: Position) -> int:
        """Return the mask of cards (engine numbering) the player to act may play."""
        cfg = self._configure(pos, pos.side, pos.maximisers)
        hands, trick = self._arrays(pos)
        seat = pos.to_act
        mask = self.kernel.legal_mask(
            hands, seat, trick, 4 * pos.trick_no, len(pos.trick), pos.trick_no, cfg
        )
        return mask_to_external(int(mask), pos.aces_low)

    def trick_winner(self, pos: Position, cards: tuple[int, ...]) -> int:
        """Return the index of the winning card of a full trick played in this position's rules."""
        buffer = int_array(k.TRICK_SLOTS, 0, self.compiled)
        for i, card in enumerate(cards):
            buffer[i] = pos.internal(card)
        flags = pos.flags
        return int(self.kernel.winner(buffer, 0, len(cards), pos.trump, flags))

    def play(self, pos: Position, card: int) -> Position:
        """Return the position after the player to act plays ``card`` (assumed legal)."""
        seat = pos.to_act
        hands = list(pos.hands)
        hands[seat] &= ~(1 << card)
        trick = (*pos.trick, card)
        if len(trick) < 4:
            return _replace(pos, hands, trick, pos.leader, pos.trick_no, pos.won)
        winner = (pos.leader + self.trick_winner(pos, trick)) & 3
        won = pos.won + (pos.side >> winner & 1)
        return _replace(pos, hands, (), winner, pos.trick_no + 1, won)

    def card_values(self, pos: Position) -> dict[int, int]:
        """Return, for every legal card, the side's tricks at the end if it is played now."""
        values: dict[int, int] = {}
        mask = self.legal_cards(pos)
        last: int | None = None
        while mask:
            low = mask & -mask
            mask ^= low
            card = low.bit_length() - 1
            after = self.play(pos, card)
            # The cards' values are mostly alike: each search starts from the last answer.
            guess = None if last is None else last - after.won
            last = after.won + self.future(after, guess=guess)
            values[card] = last
        return values

    def made(self, pos: Position) -> bool:
        """Return whether the declarer makes the contract with best play by everyone.

        One null-window search at the contract's threshold, cheaper than the value.
        """
        if pos.objective == MAXIMISE:
            assert pos.target is not None
            return self.can_take(
                pos, pos.target - pos.won, side=pos.side, maximisers=pos.maximisers
            )
        if pos.objective == EXACTLY_ONE:
            from esmakker.solver.exact_one import can_take_exactly_one

            return can_take_exactly_one(self, pos)
        allowed = 0 if pos.limit == "zero" else 1
        return not self.can_take(
            pos, allowed + 1 - pos.won, side=pos.side, maximisers=pos.maximisers
        )


HIGH_CARD_TRICKS = 0.2
"""Tricks per high-card point the side holds over the others (4-3-2-1 for the four top
live cards of each suit)."""
TRUMP_TRICKS = 0.5
"""Tricks per trump the side holds over the others."""
LEAD_TRICKS = 0.25
"""Tricks for being on lead (taken from the others)."""
# The three weights are a least-squares fit of DDS's answers on 300 random 13-card deals
# (all strains): the estimate is within one trick of the answer on four deals in five.


def _guess(pos: Position, side: int, maximisers: int) -> int:
    """Return where the search starts: one trick for a side that wants few (nolo), else
    an estimate from high cards, trumps and the lead. Not the contract's level: after a
    high bid the value often lies far below it, and each step towards it costs a search
    (``made`` asks about the level in one search)."""
    if side != maximisers:
        return 1
    return max(1, min(pos.left, round(_estimate(pos, side))))


def _estimate(pos: Position, side: int) -> float:
    """Return the tricks of the ``left`` a side may expect, from its cards (the guess)."""
    hands = [mask_to_internal(hand, pos.aces_low) for hand in pos.hands]
    alive = hands[0] | hands[1] | hands[2] | hands[3]
    edge = 0.0
    for suit in range(4):
        live = (alive >> (13 * suit)) & 0x1FFF
        for points in (4, 3, 2, 1):
            if not live:
                break
            card = live.bit_length() - 1
            live ^= 1 << card
            owner = next(s for s in range(4) if hands[s] >> (13 * suit + card) & 1)
            edge += HIGH_CARD_TRICKS * points * (1 if side >> owner & 1 else -1)
        if suit == pos.trump:
            for seat in range(4):
                count = ((hands[seat] >> (13 * suit)) & 0x1FFF).bit_count()
                edge += TRUMP_TRICKS * count * (1 if side >> seat & 1 else -1)
    edge += LEAD_TRICKS * (1 if side >> pos.to_act & 1 else -1)
    return pos.left / 2 + edge


def _replace(
    pos: Position, hands: list[int], trick: tuple[int, ...], leader: int, trick_no: int, won: int
) -> Position:
    from dataclasses import replace

    return replace(
        pos,
        hands=(hands[0], hands[1], hands[2], hands[3]),
        trick=trick,
        leader=leader,
        trick_no=trick_no,
        won=won,
    )


def external_card(pos: Position, card: int) -> int:
    """Return the engine's card for a kernel card of this position."""
    return to_external(card, pos.aces_low)
