"""The score sheet: players, seats and running totals over many deals (rules.md 3.2, Decisions).

Four, five or six players share a four-seat table. With four, each player keeps
a seat and the deal rotates clockwise. With five the dealer sits out and scores 0
(rules.md 3.2); with six the dealer and the player opposite sit out (rules.md,
Decisions). With five or six the four active players are seated clockwise from
the player after the dealer, who sits at E (forehand), and the last of them sits
at N, the dealer's seat of the deal: a deal of the engine always has dealer N then.
After a played deal the next player deals; after a redeal the same or the next one,
per ``all_pass_redeal_dealer`` / ``iron_hand_redeal_dealer``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from esmakker.core.actions import Iron
from esmakker.core.rules import RuleSet
from esmakker.core.seats import SEATS, Seat
from esmakker.core.state import Result, State

_SEAT_NAMES = "NESW"


@dataclass(frozen=True, slots=True)
class Seating:
    """Who plays a deal from which seat, and who sits out."""

    dealer: Seat
    """The dealer seat of the deal (the engine's ``State.dealer``)."""
    players: tuple[str, str, str, str]
    """The players at N, E, S, W."""
    dealing: str
    """The player whose turn it is to deal (sits out with five or six players)."""
    sitting_out: tuple[str, ...]

    def player_at(self, seat: Seat) -> str:
        """Return the player in ``seat``."""
        return self.players[seat]

    def seat_of(self, player: str) -> Seat | None:
        """Return the seat of ``player``, or ``None`` if the player sits out."""
        return SEATS[self.players.index(player)] if player in self.players else None


@dataclass(frozen=True, slots=True, kw_only=True)
class SheetRow:
    """One deal on the sheet."""

    number: int
    seating: Seating
    outcome: str
    """``played`` or ``redeal``."""
    redeal: str | None
    """For a redeal: ``all_pass`` or ``iron_hand``."""
    contract: str | None
    declarer: str | None
    partner: str | None
    made: bool | None
    deltas: tuple[int, ...]
    """This deal's score per player, in the sheet's player order."""
    totals: tuple[int, ...]
    """The running totals after this deal."""

    def describe(self) -> str:
        """Return a short text of the deal (``8 gode Anna+Bo made``, ``redeal (all pass)``)."""
        if self.outcome == "redeal":
            return f"redeal ({(self.redeal or 'all_pass').replace('_', ' ')})"
        side = self.declarer if self.partner is None else f"{self.declarer}+{self.partner}"
        return f"{self.contract} {side} {'made' if self.made else 'failed'}"

    def to_json(self, players: Sequence[str]) -> dict[str, Any]:
        """Return the row as a JSON-ready object."""
        return {
            "deal": self.number,
            "dealer": self.seating.dealing,
            "seats": dict(zip(_SEAT_NAMES, self.seating.players, strict=True)),
            "sitting_out": list(self.seating.sitting_out),
            "outcome": self.outcome,
            "redeal": self.redeal,
            "contract": self.contract,
            "declarer": self.declarer,
            "partner": self.partner,
            "made": self.made,
            "scores": dict(zip(players, self.deltas, strict=True)),
            "totals": dict(zip(players, self.totals, strict=True)),
        }


class ScoreSheet:
    """Running totals for 4, 5 or 6 players over many deals; tells who deals and sits where."""

    def __init__(self, players: Sequence[str], rules: RuleSet, *, first_dealer: int = 0) -> None:
        """Start an empty sheet; ``players`` in clockwise order, ``first_dealer`` an index.

        Raises:
            ValueError: for fewer than 4 or more than 6 players, or a name given twice.
        """
        names = tuple(players)
        if not 4 <= len(names) <= 6:
            raise ValueError(f"a score sheet needs 4, 5 or 6 players, got {len(names)}")
        if len(set(names)) != len(names):
            raise ValueError(f"player names must differ: {', '.join(names)}")
        if not 0 <= first_dealer < len(names):
            raise ValueError(f"first_dealer must be a player index 0-{len(names) - 1}")
        self.players = names
        self.rules = rules
        self._dealer = first_dealer
        self._rows: list[SheetRow] = []
        self._totals = [0] * len(names)

    # --- seating -----------------------------------------------------------------------

    @property
    def dealer(self) -> str:
        """Return the player who deals next."""
        return self.players[self._dealer]

    def seating(self) -> Seating:
        """Return the seating of the next deal."""
        count, d = len(self.players), self._dealer
        if count == 4:
            return Seating(SEATS[d], _four(self.players), self.players[d], ())
        out = (d,) if count == 5 else (d, (d + 3) % 6)
        active = [(d + i) % count for i in range(1, count) if (d + i) % count not in out]
        # E (forehand) = the player after the dealer, then S, W, and N last.
        order = [active[3], active[0], active[1], active[2]]
        by_seat = tuple(self.players[i] for i in order)
        return Seating(Seat.N, _four(by_seat), self.players[d], tuple(self.players[i] for i in out))

    # --- adding deals -------------------------------------------------------------------

    def add_state(self, state: State) -> SheetRow:
        """Add a finished deal played with ``seating()``.

        Raises:
            ValueError: if the deal is not finished or its scores are not zero-sum.
        """
        result = state.result()
        if result is None:
            raise ValueError("the deal is not finished")
        iron = any(isinstance(step.action, Iron) for step in state.history)
        return self.add(result, iron=iron)

    def add(self, result: Result | Mapping[str, Any], *, iron: bool = False) -> SheetRow:
        """Add a deal's result (a ``Result`` or the record's result object).

        ``iron`` says that a redeal came from an iron-hand claim (an ``iron`` step
        in the history); otherwise a redeal is an all-pass one.

        Raises:
            ValueError: if the scores are not zero-sum.
        """
        data = result.to_json() if isinstance(result, Result) else result
        seating = self.seating()
        scores = data["scores"]
        if sum(scores.values()) != 0:
            raise ValueError(f"the scores of a deal must sum to 0, got {dict(scores)}")
        deltas = tuple(_delta(seating, player, scores) for player in self.players)
        self._totals = [t + d for t, d in zip(self._totals, deltas, strict=True)]
        row = _row(len(self._rows) + 1, seating, data, iron, deltas, tuple(self._totals))
        self._rows.append(row)
        self._advance(row)
        return row

    def _advance(self, row: SheetRow) -> None:
        if row.redeal == "all_pass":
            policy = self.rules.all_pass_redeal_dealer
        elif row.redeal == "iron_hand":
            policy = self.rules.iron_hand_redeal_dealer
        else:
            policy = "next"
        if policy == "next":
            self._dealer = (self._dealer + 1) % len(self.players)

    # --- reading ------------------------------------------------------------------------

    @property
    def rows(self) -> tuple[SheetRow, ...]:
        """Return the deals added so far."""
        return tuple(self._rows)

    @property
    def totals(self) -> dict[str, int]:
        """Return each player's running total."""
        return dict(zip(self.players, self._totals, strict=True))

    def display_rows(self) -> list[tuple[str, ...]]:
        """Return a header and one line per deal: number, dealer, deal, running totals."""
        header = ("#", "dealer", "deal", *self.players)
        lines = [
            (str(row.number), row.seating.dealing, row.describe(), *map(str, row.totals))
            for row in self._rows
        ]
        return [header, *lines]

    def render(self) -> str:
        """Return the sheet as aligned text."""
        table = self.display_rows()
        widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
        text_columns = 3
        return "\n".join(
            "  ".join(
                cell.ljust(width) if i < text_columns else cell.rjust(width)
                for i, (cell, width) in enumerate(zip(line, widths, strict=True))
            ).rstrip()
            for line in table
        )

    def to_json(self) -> dict[str, Any]:
        """Return the whole sheet as a JSON-ready object."""
        return {
            "players": list(self.players),
            "rules": {"preset": self.rules.preset, "overrides": self.rules.overrides},
            "deals": [row.to_json(self.players) for row in self._rows],
            "totals": self.totals,
            "next_dealer": self.dealer,
        }


def _four(players: Sequence[str]) -> tuple[str, str, str, str]:
    return (players[0], players[1], players[2], players[3])


def _delta(seating: Seating, player: str, scores: Mapping[str, int]) -> int:
    seat = seating.seat_of(player)
    return 0 if seat is None else int(scores[seat.name])


def _row(
    number: int,
    seating: Seating,
    data: Mapping[str, Any],
    iron: bool,
    deltas: tuple[int, ...],
    totals: tuple[int, ...],
) -> SheetRow:
    played = data["outcome"] == "played"
    return SheetRow(
        number=number,
        seating=seating,
        outcome=data["outcome"],
        redeal=None if played else ("iron_hand" if iron else "all_pass"),
        contract=data.get("contract"),
        declarer=_player(seating, data.get("declarer")),
        partner=_player(seating, data.get("partner")),
        made=data.get("made"),
        deltas=deltas,
        totals=totals,
    )


def _player(seating: Seating, seat: str | None) -> str | None:
    return None if seat is None else seating.player_at(Seat.parse(seat))
