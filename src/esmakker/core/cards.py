"""Cards, suits, ranks and card sets; the canonical text notation (``SA``, ``HT``, ``X1``)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

from esmakker.core.errors import NotationError


class Suit(IntEnum):
    """A suit; its letter is the first character of a card's notation."""

    C = 0
    D = 1
    H = 2
    S = 3

    @property
    def letter(self) -> str:
        """Return the one-letter notation (``S``, ``H``, ``D``, ``C``)."""
        return self.name

    @property
    def noun(self) -> str:
        """Return the English plural used in messages (``hearts``)."""
        return _SUIT_NOUNS[self]

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit letter.

        Raises:
            NotationError: if the text is not a suit letter.
        """
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise NotationError(f"{text!r} is not a suit (expected S, H, D or C)") from None


_SUIT_NOUNS = {Suit.C: "clubs", Suit.D: "diamonds", Suit.H: "hearts", Suit.S: "spades"}
SUITS: tuple[Suit, ...] = tuple(Suit)
DISPLAY_SUITS: tuple[Suit, ...] = (Suit.S, Suit.H, Suit.D, Suit.C)
"""Suit order of the notation's sorted output: spades, hearts, diamonds, clubs."""

RANK_LETTERS = "23456789TJQKA"
"""Rank letters; a rank's value is its index + 2 (two = 2, ace = 14)."""

ACE, KING, QUEEN, JACK = 14, 13, 12, 11


class Card(IntEnum):
    """One of the 55 cards; the value is the card's bit in a card-set mask.

    Suits occupy 13 consecutive values each (clubs 0-12, diamonds 13-25,
    hearts 26-38, spades 39-51, two low to ace high); the jokers are 52-54.
    Comparison of values is for storage only: whether a card beats another
    depends on the rules (see ``esmakker.core.play``).
    """

    C2 = 0
    C3 = 1
    C4 = 2
    C5 = 3
    C6 = 4
    C7 = 5
    C8 = 6
    C9 = 7
    CT = 8
    CJ = 9
    CQ = 10
    CK = 11
    CA = 12
    D2 = 13
    D3 = 14
    D4 = 15
    D5 = 16
    D6 = 17
    D7 = 18
    D8 = 19
    D9 = 20
    DT = 21
    DJ = 22
    DQ = 23
    DK = 24
    DA = 25
    H2 = 26
    H3 = 27
    H4 = 28
    H5 = 29
    H6 = 30
    H7 = 31
    H8 = 32
    H9 = 33
    HT = 34
    HJ = 35
    HQ = 36
    HK = 37
    HA = 38
    S2 = 39
    S3 = 40
    S4 = 41
    S5 = 42
    S6 = 43
    S7 = 44
    S8 = 45
    S9 = 46
    ST = 47
    SJ = 48
    SQ = 49
    SK = 50
    SA = 51
    X1 = 52
    X2 = 53
    X3 = 54

    @property
    def is_joker(self) -> bool:
        """Return whether this card is a joker."""
        return self >= JOKER_BASE

    @property
    def suit(self) -> Suit | None:
        """Return the suit, or ``None`` for a joker."""
        return None if self >= JOKER_BASE else SUITS[self // 13]

    @property
    def rank(self) -> int | None:
        """Return the rank (2-14, ace high), or ``None`` for a joker."""
        return None if self >= JOKER_BASE else self % 13 + 2

    @property
    def bit(self) -> int:
        """Return the card's mask bit."""
        return 1 << self

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: suit then rank (``HQ``); lower case and ``10`` for ``T`` are accepted.

        >>> Card.parse("h10"), Card.parse("X2")
        (<Card.HT: 34>, <Card.X2: 53>)

        Raises:
            NotationError: if the text is not a card.
        """
        token = text.strip().upper()
        if token.endswith("10") and len(token) == 3:
            token = token[0] + "T"
        member = _BY_NAME.get(token)
        if member is None:
            raise NotationError(
                f"{text!r} is not a card (expected suit S/H/D/C then rank, or X1-X3)"
            )
        return member


JOKER_BASE = 52
CARDS: tuple[Card, ...] = tuple(Card)
"""All cards by value; index this instead of calling ``Card(i)`` in hot code."""
_BY_NAME = {card.name: card for card in CARDS}
JOKERS_MASK = 0b111 << JOKER_BASE
SUIT_MASKS: tuple[int, ...] = tuple(0x1FFF << (13 * s) for s in range(4))
ALL_CARDS_MASK = (1 << 55) - 1
HONOURS_MASK = sum(1 << (13 * suit + rank - 2) for suit in range(4) for rank in range(11, 15))
"""The jacks, queens, kings and aces."""


def card_of(suit: Suit, rank: int) -> Card:
    """Return the card of a suit and rank (2-14)."""
    return CARDS[suit * 13 + rank - 2]


def deck_mask(num_jokers: int) -> int:
    """Return the mask of a deck with 52 cards and ``num_jokers`` jokers."""
    return (1 << (JOKER_BASE + num_jokers)) - 1


def iter_mask(mask: int) -> Iterator[Card]:
    """Yield the cards of a mask in value order."""
    while mask:
        low = mask & -mask
        yield CARDS[low.bit_length() - 1]
        mask ^= low


def _display_key(card: Card) -> tuple[int, int]:
    if card >= JOKER_BASE:
        return (4, card)
    return (DISPLAY_SUITS.index(SUITS[card // 13]), -card)


class CardSet:
    """An immutable set of cards over an int mask (python-chess ``SquareSet``, frozen).

    Iteration and ``str()`` use the notation's display order: spades, hearts,
    diamonds, clubs, each high to low, then the jokers.

    >>> str(CardSet.parse("c3 SA X1 HT sk"))
    'SA SK HT C3 X1'
    """

    __slots__ = ("_mask",)
    _mask: int

    def __init__(self, cards: Iterable[Card] | int = 0) -> None:
        if isinstance(cards, int):
            mask = cards
        else:
            mask = 0
            for card in cards:
                mask |= 1 << card
        object.__setattr__(self, "_mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read cards separated by spaces; each card may appear once.

        Raises:
            NotationError: if a card does not parse or appears twice.
        """
        mask = 0
        for token in text.split():
            card = Card.parse(token)
            if mask >> card & 1:
                raise NotationError(f"card {card} appears twice in {text!r}")
            mask |= 1 << card
        return cls(mask)

    @property
    def mask(self) -> int:
        """Return the raw bit mask."""
        return self._mask

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 55 and bool(self._mask >> card & 1)

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __bool__(self) -> bool:
        return self._mask != 0

    def __iter__(self) -> Iterator[Card]:
        return iter(sorted(iter_mask(self._mask), key=_display_key))

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self._mask | other._mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self._mask & other._mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self._mask & ~other._mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other._mask == self._mask

    def __hash__(self) -> int:
        return hash(self._mask)

    def of_suit(self, suit: Suit) -> CardSet:
        """Return the cards of one suit."""
        return CardSet(self._mask & SUIT_MASKS[suit])

    def jokers(self) -> CardSet:
        """Return the jokers."""
        return CardSet(self._mask & JOKERS_MASK)

    def __str__(self) -> str:
        return " ".join(card.name for card in self)

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
