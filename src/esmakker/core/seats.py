"""Seats at the table and their clockwise geometry."""

from __future__ import annotations

from enum import IntEnum

from esmakker.core.errors import NotationError


class Seat(IntEnum):
    """A place at the table; play and deal go clockwise N, E, S, W."""

    N = 0
    E = 1
    S = 2
    W = 3

    def next(self, steps: int = 1) -> Seat:
        """Return the seat ``steps`` places clockwise from this one."""
        return SEATS[(self + steps) % 4]

    def iter_from(self) -> tuple[Seat, ...]:
        """Return all four seats clockwise, starting with this one."""
        return tuple(SEATS[(self + i) % 4] for i in range(4))

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: str) -> Seat:
        """Read a seat letter (``N``, ``E``, ``S``, ``W``, any case).

        Raises:
            NotationError: if the text is not a seat.
        """
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise NotationError(f"{text!r} is not a seat (expected N, E, S or W)") from None


SEATS: tuple[Seat, ...] = tuple(Seat)
