"""A position for the solver: four known hands, the trick in progress, the rules of play.

Built from a whist ``State`` in the play phase (``from_state``) or from a bridge-compatible
deal (``esmakker.solver.bridge``). Cards are the engine's (``esmakker.core.cards``);
``internal`` renumbers them for the kernel (an ace that plays low in nolo becomes its
suit's lowest card).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.scoring import trick_limit
from esmakker.core.state import State
from esmakker.solver import kernel as k

MAXIMISE, MINIMISE, EXACTLY_ONE = "max", "min", "exactly_1"
"""Objectives: the side maximises its tricks (number contracts), keeps them low (nolo),
or must take exactly one (``exactly_1`` nolo limits)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Position:
    """Everything the search needs; seats are 0-3 (N, E, S, W), cards the engine's values."""

    hands: tuple[int, int, int, int]
    trick: tuple[int, ...] = ()
    leader: int
    trick_no: int = 0
    trump: int = -1
    aces_low: bool = False
    flags: int = k.F_JOKER_ONLY_WHEN_VOID
    called: int = -1
    duty_holder: int = -1
    side: int
    """Seats (a 4-bit mask) whose tricks count: the declarer's side."""
    objective: str = MAXIMISE
    limit: str = "zero"
    """The nolo limit (``zero``, ``at_most_1``, ``exactly_1``); unused in number contracts."""
    won: int = 0
    """Tricks the side has already taken."""
    target: int | None = None
    """The contract's level (number contracts), for ``made``."""

    @property
    def to_act(self) -> int:
        """Return the seat to play."""
        return (self.leader + len(self.trick)) & 3

    @property
    def left(self) -> int:
        """Return the tricks still to finish, the trick in progress included."""
        return (sum(hand.bit_count() for hand in self.hands) + len(self.trick)) // 4

    @property
    def maximisers(self) -> int:
        """Return the seats that want the side to take tricks."""
        return self.side if self.objective == MAXIMISE else 0b1111 & ~self.side

    def internal(self, card: int) -> int:
        """Return the kernel's number for a card."""
        return to_internal(card, self.aces_low)

    def with_trick(self, trick: tuple[int, ...]) -> Position:
        """Return a copy with another trick in progress (for tests)."""
        return replace(self, trick=trick)


def to_internal(card: int, aces_low: bool) -> int:
    """Return the kernel's number for an engine card."""
    if not aces_low or card >= k.JOKER_BASE:
        return card
    rank = card % 13
    return card - rank + (0 if rank == 12 else rank + 1)


def to_external(card: int, aces_low: bool) -> int:
    """Return the engine's card for a kernel number."""
    if not aces_low or card >= k.JOKER_BASE:
        return card
    rank = card % 13
    return card - rank + (12 if rank == 0 else rank - 1)


def mask_to_internal(mask: int, aces_low: bool) -> int:
    """Return a card mask in the kernel's numbering."""
    if not aces_low:
        return mask
    out = mask & k.JOKERS
    for suit in range(4):
        bits = (mask >> (13 * suit)) & k.SUIT
        out |= (((bits & 0xFFF) << 1) | (bits >> 12)) << (13 * suit)
    return out


def mask_to_external(mask: int, aces_low: bool) -> int:
    """Return a kernel mask in the engine's numbering."""
    if not aces_low:
        return mask
    out = mask & k.JOKERS
    for suit in range(4):
        bits = (mask >> (13 * suit)) & k.SUIT
        out |= ((bits >> 1) | ((bits & 1) << 12)) << (13 * suit)
    return out


def rule_flags(rules: RuleSet) -> int:
    """Return the kernel's flags for a rule set's play options."""
    flags = 0
    if rules.joker_only_when_void:
        flags |= k.F_JOKER_ONLY_WHEN_VOID
    if rules.no_joker_lead_trick1:
        flags |= k.F_NO_JOKER_LEAD_TRICK1
    if rules.after_joker_lead == "next_card_sets_suit":
        flags |= k.F_NEXT_CARD_SETS_SUIT
    if rules.unled_joker == "beats_plain":
        flags |= k.F_JOKER_BEATS_PLAIN
    if rules.called_ace_forced_on_own_lead:
        flags |= k.F_CALLED_FORCED_ON_OWN_LEAD
    if rules.called_ace_may_be_discarded:
        flags |= k.F_CALLED_MAY_BE_DISCARDED
    return flags


class NotInPlayError(ValueError):
    """The state is not in the play of the cards."""


def from_state(state: State) -> Position:
    """Return the solver's position of a deal in its play phase (all hands known).

    Raises:
        NotInPlayError: if the deal is not in the play phase.
    """
    engine = state.engine
    if engine.phase is not Phase.PLAY or engine.bid is None:
        raise NotInPlayError(f"the deal is in the {engine.phase} phase, not in the play")
    bid, rules = engine.bid, engine.rules
    nolo = bid.kind.is_nolo
    side = 1 << engine.declarer
    if not nolo and engine.partner >= 0:
        side |= 1 << engine.partner
    limit = trick_limit(bid.kind, rules) if nolo else "zero"
    objective = MAXIMISE
    if nolo:
        objective = EXACTLY_ONE if limit == "exactly_1" else MINIMISE
    won = sum(engine.won[seat] for seat in range(4) if side >> seat & 1)
    return Position(
        hands=(engine.hands[0], engine.hands[1], engine.hands[2], engine.hands[3]),
        trick=tuple(engine.trick),
        leader=engine.leader,
        trick_no=engine.trick_no,
        trump=-1 if engine.trump is None else engine.trump,
        aces_low=nolo and rules.nolo_aces_low,
        flags=rule_flags(rules),
        called=engine.called,
        duty_holder=engine.duty_holder,
        side=side,
        objective=objective,
        limit=limit,
        won=won,
        target=None if nolo else bid.level,
    )
