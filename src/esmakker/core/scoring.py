"""Scoring one deal (rules.md section 7; schemes of landscape.md 6.1 through the options).

Every scheme computes one amount V per paying player: in 2 v 2 the declarer and
partner each win V from one defender; a lone declarer (a called card in the
kitty, a nolo contract) wins V from each of three defenders. The deltas are
zero-sum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from esmakker.core.actions import Bid, BidKind
from esmakker.core.rules import RuleSet

Scores = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True, kw_only=True)
class DealOutcome:
    """The facts scoring needs about a played deal."""

    bid: Bid
    declarer: int
    partner: int | None
    nolo_players: tuple[int, ...] = ()
    """Declarer and every gå-med joiner of a nolo contract, declarer first."""
    tricks: tuple[int, int, int, int]
    vip_flips: int = 0


def trick_limit(kind: BidKind, rules: RuleSet) -> str:
    """Return the nolo contract's trick limit: ``at_most_1``, ``exactly_1`` or ``zero``."""
    if kind is BidKind.SOL:
        return rules.sol_limit
    if kind is BidKind.BORDLAEGGER:
        return rules.bordlaegger_limit
    return "zero"


def nolo_made(tricks: int, limit: str) -> bool:
    """Return whether a nolo player with ``tricks`` tricks kept the contract."""
    if limit == "zero":
        return tricks == 0
    if limit == "exactly_1":
        return tricks == 1
    return tricks <= 1


def nolo_broken(tricks: int, limit: str) -> bool:
    """Return whether a nolo player has already lost, whatever the rest of the play (R6.7)."""
    return tricks > (0 if limit == "zero" else 1)


def side_tricks(outcome: DealOutcome) -> int:
    """Return the tricks of the declarer's side (declarer and partner)."""
    tricks = outcome.tricks[outcome.declarer]
    if outcome.partner is not None:
        tricks += outcome.tricks[outcome.partner]
    return tricks


def is_made(outcome: DealOutcome, rules: RuleSet) -> bool:
    """Return whether the declarer made the contract."""
    if outcome.bid.is_nolo:
        limit = trick_limit(outcome.bid.kind, rules)
        return nolo_made(outcome.tricks[outcome.declarer], limit)
    assert outcome.bid.level is not None
    return side_tricks(outcome) >= outcome.bid.level


def score_deal(outcome: DealOutcome, rules: RuleSet) -> Scores:
    """Return the zero-sum score deltas per seat (N, E, S, W)."""
    if outcome.bid.is_nolo:
        return _score_nolo(outcome, rules)
    value = number_value(outcome, rules)
    side = (outcome.declarer,) if outcome.partner is None else (outcome.declarer, outcome.partner)
    if outcome.partner is None:
        return _alone(outcome.declarer, value)
    return tuple(value if seat in side else -value for seat in range(4))  # type: ignore[return-value]


def number_value(outcome: DealOutcome, rules: RuleSet) -> int:
    """Return V, the signed amount per paying player of a number contract (R7.1)."""
    bid = outcome.bid
    assert bid.level is not None
    base = rules.base_unit * 2 ** (bid.level - 7)
    factor = _attachment_factor(bid.kind, outcome.vip_flips, rules)
    tricks = side_tricks(outcome)
    if tricks >= bid.level:
        return _made_value(rules.made_formula, base, factor, tricks, bid.level)
    return -_failed_value(rules.failed_formula, base, factor, tricks, bid.level)


def _attachment_factor(kind: BidKind, flips: int, rules: RuleSet) -> int:
    if kind is BidKind.PLAIN:
        return 1
    factor = rules.attachment_factor_of(kind.value)
    if kind is BidKind.VIP and rules.vip_flip_factor is not None:
        factor *= dict(rules.vip_flip_factor)[str(flips)]
    return factor


def _made_value(formula: str, base: int, factor: int, tricks: int, level: int) -> int:
    over = tricks - level
    if formula == "base_x_1_plus_over":
        return base * factor * (1 + over)
    if formula == "base_x_tricks":
        return base * factor * tricks
    if formula == "base_x_tricks_minus_6":
        return base * factor * (tricks - 6)
    if formula == "toke":
        return base * (2 * factor + over)
    return base * factor


def _failed_value(formula: str, base: int, factor: int, tricks: int, level: int) -> int:
    under = level - tricks
    if formula == "2_base_x_under":
        return 2 * base * factor * under
    if formula == "base_x_under_plus_1":
        return base * factor * (under + 1)
    if formula == "toke":
        return base * (2 * factor + under)
    return base * factor


def _alone(declarer: int, value: int) -> Scores:
    return tuple(3 * value if seat == declarer else -value for seat in range(4))  # type: ignore[return-value]


def _score_nolo(outcome: DealOutcome, rules: RuleSet) -> Scores:
    kind = outcome.bid.kind
    value = rules.nolo_value_of(kind.value)
    limit = trick_limit(kind, rules)
    players = outcome.nolo_players or (outcome.declarer,)
    totals = [0, 0, 0, 0]
    for player in players:
        made = nolo_made(outcome.tricks[player], limit)
        signed = value if made else -value * rules.nolo_fail_factor
        _add(totals, _alone(player, signed))
    return (totals[0], totals[1], totals[2], totals[3])


def _add(totals: list[int], deltas: Sequence[int]) -> None:
    for seat, delta in enumerate(deltas):
        totals[seat] += delta
