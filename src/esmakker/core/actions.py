"""Actions (one step of a deal) and their notation: ``"bid 8 gode"``, ``"play SA"``.

Every action has one canonical text form (hand-record.md, action grammar);
``parse_action`` reads it and ``str(action)`` writes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from esmakker.core.cards import CARDS, Card, CardSet, Suit
from esmakker.core.errors import NotationError


class BidKind(StrEnum):
    """What a bid promises: a number contract's attachment, or a nolo contract."""

    PLAIN = "plain"
    VIP = "vip"
    GODE = "gode"
    HALVE = "halve"
    STAERKE = "staerke"
    SANS = "sans"
    SOL = "sol"
    REN_SOL = "ren_sol"
    BORDLAEGGER = "bordlaegger"
    REN_BORDLAEGGER = "ren_bordlaegger"
    SUPER_BORDLAEGGER = "super_bordlaegger"
    DOUBLE_NOLO = "double_nolo"

    @property
    def is_nolo(self) -> bool:
        """Return whether this is a nolo contract (played alone to avoid tricks)."""
        return self in NOLO_KINDS


NOLO_KINDS = frozenset(
    {
        BidKind.SOL,
        BidKind.REN_SOL,
        BidKind.BORDLAEGGER,
        BidKind.REN_BORDLAEGGER,
        BidKind.SUPER_BORDLAEGGER,
        BidKind.DOUBLE_NOLO,
    }
)
ATTACHMENT_KINDS = (BidKind.VIP, BidKind.GODE, BidKind.HALVE, BidKind.STAERKE, BidKind.SANS)


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid: a level 7-13 with an attachment (``PLAIN`` for none), or a nolo contract."""

    level: int | None
    kind: BidKind = BidKind.PLAIN

    @property
    def is_nolo(self) -> bool:
        """Return whether this bid is a nolo contract."""
        return self.kind in NOLO_KINDS

    def __str__(self) -> str:
        if self.level is None:
            return self.kind.value
        if self.kind is BidKind.PLAIN:
            return str(self.level)
        return f"{self.level} {self.kind.value}"

    @property
    def verb(self) -> str:
        """Return the action text (``bid 8 gode``)."""
        return f"bid {self}"

    @classmethod
    def parse(cls, text: str) -> Bid:
        """Read a bid as written after ``bid`` (``8``, ``8 gode``, ``sol``).

        Raises:
            NotationError: if the text is not a bid.
        """
        words = text.lower().split()
        if len(words) == 1 and words[0].isdigit():
            return cls(_level(words[0], text))
        if len(words) == 2 and words[0].isdigit():
            kind = _kind(words[1], text)
            if kind.is_nolo or kind is BidKind.PLAIN:
                raise NotationError(f"{text!r} is not a bid: {words[1]} takes no level")
            return cls(_level(words[0], text), kind)
        if len(words) == 1:
            kind = _kind(words[0], text)
            if not kind.is_nolo:
                raise NotationError(f"{text!r} is not a bid: {words[0]} needs a level 7-13")
            return cls(None, kind)
        raise NotationError(f"{text!r} is not a bid (expected e.g. '8', '8 gode' or 'sol')")


def _level(word: str, text: str) -> int:
    level = int(word)
    if not 7 <= level <= 13:
        raise NotationError(f"{text!r} is not a bid: the level must be 7-13")
    return level


def _kind(word: str, text: str) -> BidKind:
    try:
        return BidKind(word.replace("æ", "ae").replace("å", "aa"))
    except ValueError:
        raise NotationError(f"{text!r} is not a bid: {word!r} is no attachment or nolo") from None


@dataclass(frozen=True, slots=True)
class Iron:
    """Claim iron hand (jernhånd): no court card, ace or joker; the deal is redealt."""

    def __str__(self) -> str:
        return "iron"


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass: final for the whole auction."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Hold:
    """Hold ("kan selv"): take over the bid just made, where the rules allow it."""

    def __str__(self) -> str:
        return "hold"


@dataclass(frozen=True, slots=True)
class Join:
    """Gå med: join the current nolo contract, where the rules allow it."""

    def __str__(self) -> str:
        return "join"


@dataclass(frozen=True, slots=True)
class NameTrump:
    """Name the trump suit (declarer in a plain contract, the partner in halve)."""

    suit: Suit

    def __str__(self) -> str:
        return f"trump {self.suit.name}"


@dataclass(frozen=True, slots=True)
class CallCard:
    """Call the partner card (an ace, or a lower card where the rules force it)."""

    card: Card

    def __str__(self) -> str:
        return f"call {self.card.name}"


@dataclass(frozen=True, slots=True)
class Turn:
    """Vip: turn the next kitty card face up."""

    def __str__(self) -> str:
        return "turn"


@dataclass(frozen=True, slots=True)
class Accept:
    """Vip: accept the last turned card's suit as trumps."""

    def __str__(self) -> str:
        return "accept"


@dataclass(frozen=True, slots=True)
class Take:
    """Take kitty cards: ``cards`` is ``None`` for the whole kitty."""

    cards: CardSet | None = None

    def __str__(self) -> str:
        return "take" if self.cards is None else f"take {self.cards}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Lay away one card after taking kitty cards."""

    card: Card

    def __str__(self) -> str:
        return f"discard {self.card.name}"


@dataclass(frozen=True, slots=True)
class Decline:
    """Decline the exchange (it passes on where the rules say so)."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card to the trick."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card.name}"


Action = (
    Iron
    | Pass
    | Bid
    | Hold
    | Join
    | NameTrump
    | CallCard
    | Turn
    | Accept
    | Take
    | Discard
    | Decline
    | Play
)
PLAYS: tuple[Play, ...] = tuple(Play(card) for card in CARDS)
DISCARDS: tuple[Discard, ...] = tuple(Discard(card) for card in CARDS)
PASS, HOLD, JOIN, IRON, TURN, ACCEPT, DECLINE, TAKE_ALL = (
    Pass(),
    Hold(),
    Join(),
    Iron(),
    Turn(),
    Accept(),
    Decline(),
    Take(),
)
_NO_ARGUMENT: dict[str, Action] = {
    "pass": PASS,
    "hold": HOLD,
    "join": JOIN,
    "iron": IRON,
    "turn": TURN,
    "accept": ACCEPT,
    "decline": DECLINE,
}


def actions_of_mask(table: tuple[Play, ...] | tuple[Discard, ...], mask: int) -> list[Action]:
    """Return ``table[card]`` for each card in ``mask``, low to high (hot path: no generator)."""
    found: list[Action] = []
    while mask:
        low = mask & -mask
        found.append(table[low.bit_length() - 1])
        mask ^= low
    return found


def format_action(action: Action) -> str:
    """Return the canonical text of an action (``bid 8 gode``, ``play SA``).

    >>> format_action(Bid(8, BidKind.GODE)), format_action(PASS)
    ('bid 8 gode', 'pass')
    """
    if isinstance(action, Bid):
        return f"bid {action}"
    return str(action)


def parse_action(text: str) -> Action:
    """Read an action without its seat (``"bid 8 gode"``, ``"play SA"``).

    >>> parse_action("bid 9 vip"), parse_action("play h10")
    (Bid(level=9, kind=<BidKind.VIP: 'vip'>), Play(card=<Card.HT: 34>))

    Raises:
        NotationError: if the text is not an action.
    """
    verb, _, rest = text.strip().partition(" ")
    verb, rest = verb.lower(), rest.strip()
    if verb in _NO_ARGUMENT:
        if rest:
            raise NotationError(f"{text!r}: {verb} takes no argument")
        return _NO_ARGUMENT[verb]
    if verb == "bid":
        return Bid.parse(rest)
    if verb == "take":
        return Take(CardSet.parse(rest)) if rest else TAKE_ALL
    if verb in ("trump", "call", "discard", "play") and not rest:
        raise NotationError(f"{text!r}: {verb} needs an argument")
    if verb == "trump":
        return NameTrump(Suit.parse(rest))
    if verb == "call":
        return CallCard(Card.parse(rest))
    if verb == "discard":
        return Discard(Card.parse(rest))
    if verb == "play":
        return PLAYS[Card.parse(rest)]
    raise NotationError(f"{text!r} is not an action (unknown verb {verb!r})")
