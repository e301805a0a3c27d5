"""The bridge-compatible mode: no jokers, N-S against E-W, any strain, leader and hand size.

It lets every change to the solver be checked against DDS. Deals are written as PBN deal
strings: the first seat, a colon, then the hands clockwise, each ``spades.hearts.diamonds.clubs``
(``N:AK97.T6.J54.A32 ...``).
"""

from __future__ import annotations

from esmakker.core.seats import Seat
from esmakker.solver.position import MAXIMISE, Position

NORTH_SOUTH = 0b0101
STRAINS = "CDHSN"
"""Strain letters by the solver's trump number (``N`` = no trumps = -1)."""
_PBN_SUITS = (3, 2, 1, 0)
_RANKS = "23456789TJQKA"


class PbnError(ValueError):
    """A PBN deal string that cannot be read."""


def parse_pbn(text: str) -> tuple[int, int, int, int]:
    """Return the four hands (N, E, S, W masks) of a PBN deal string.

    Raises:
        PbnError: naming what is wrong and where.
    """
    first, colon, rest = text.strip().partition(":")
    if not colon:
        raise PbnError(f"deal {text!r}: expected 'N:' (the first seat) before the hands")
    try:
        seat = Seat.parse(first)
    except ValueError:
        raise PbnError(f"deal {text!r}: {first!r} is not a seat (N, E, S or W)") from None
    parts = rest.split()
    if len(parts) != 4:
        raise PbnError(f"deal {text!r}: expected 4 hands, found {len(parts)}")
    hands = [0, 0, 0, 0]
    seen = 0
    for i, part in enumerate(parts):
        owner = (seat + i) % 4
        mask = _parse_hand(part, Seat(owner).name)
        if seen & mask:
            raise PbnError(f"deal {text!r}: hand {Seat(owner).name} repeats a card of another hand")
        seen |= mask
        hands[owner] = mask
    sizes = {hand.bit_count() for hand in hands}
    if len(sizes) != 1:
        counts = ", ".join(f"{Seat(s).name} {hands[s].bit_count()}" for s in range(4))
        raise PbnError(f"deal {text!r}: the hands must hold as many cards each ({counts})")
    if not hands[0]:
        raise PbnError(f"deal {text!r}: the hands are empty")
    return hands[0], hands[1], hands[2], hands[3]


def _parse_hand(text: str, seat: str) -> int:
    suits = text.split(".")
    if len(suits) != 4:
        raise PbnError(f"hand {seat} {text!r}: expected 4 suits separated by '.'")
    mask = 0
    for suit, ranks in zip(_PBN_SUITS, suits, strict=True):
        for letter in ranks.upper():
            rank = _RANKS.find(letter)
            if rank < 0:
                raise PbnError(f"hand {seat} {text!r}: {letter!r} is not a rank")
            bit = 1 << (13 * suit + rank)
            if mask & bit:
                raise PbnError(f"hand {seat} {text!r}: {letter} appears twice in a suit")
            mask |= bit
    return mask


def format_pbn(hands: tuple[int, int, int, int], first: int = 0) -> str:
    """Return the PBN deal string of four hands, starting with seat ``first``."""
    parts = []
    for i in range(4):
        hand = hands[(first + i) % 4]
        suits = []
        for suit in _PBN_SUITS:
            bits = hand >> (13 * suit)
            suits.append("".join(_RANKS[r] for r in range(12, -1, -1) if bits >> r & 1))
        parts.append(".".join(suits))
    return f"{Seat(first).name}:" + " ".join(parts)


def parse_strain(text: str) -> int:
    """Return the trump number of a strain letter (S, H, D, C, or N for no trumps)."""
    letter = text.strip().upper()
    if len(letter) != 1 or letter not in STRAINS:
        raise PbnError(f"strain {text!r}: expected S, H, D, C or N")
    return STRAINS.index(letter) - 1 if letter == "N" else STRAINS.index(letter)


def bridge_position(hands: tuple[int, int, int, int], trump: int, leader: int) -> Position:
    """Return the position of a bridge-compatible deal: N-S's tricks, counted from the lead."""
    size = hands[0].bit_count()
    return Position(
        hands=hands,
        leader=leader,
        trick_no=13 - size,
        trump=trump,
        flags=0,
        side=NORTH_SOUTH,
        objective=MAXIMISE,
    )
